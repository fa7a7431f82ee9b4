#!/bin/sh
# Fuzzed command lines and config files, from a fixed seed: whatever they
# hold, largedir exits 0 to 4 (5: a suite), never hangs, crashes or trips
# a sanitizer (make check SANITIZE=1 fuzzes the ASan/UBSan build), says a
# usage error (exit 2) in exactly one line "largedir: ..." with nothing on
# stdout, and leaves whole outputs or none.
#
# tests/sh/fuzz.py writes the cases (see its header for the kinds and
# what keeps each inside $T); most stop at the poison "--repeat=0" after
# every earlier value was checked, and must then have made nothing; a few
# dozen run for real, tiny, on directories in $T.
#
#   FUZZ_SEED=N     another seed (the default is fixed, so make check
#                   always runs the same cases)
#   FUZZ_CASES=N    how many cases (default 560; the long form: 5000)
#   FUZZ_ONLY=N     run case N alone and show it
#   FUZZ_VERBOSE=1  show every case, not only those that fail
#   FUZZ_KEEP=1     keep $T (the cases, their files and outputs)
# shellcheck source=/dev/null
. "$(dirname "$0")/lib.sh"

need_dep python3 python3
need_dep jq jq
need_dep xmllint libxml2-utils
need_cmd iconv

HERE=$(cd "$(dirname "$0")" && pwd)
case $LD in
/*) ;;
*) LD=$(pwd)/$LD ;;
esac
SEED=${FUZZ_SEED:-20260401}
CASES=${FUZZ_CASES:-560}
TMO=10			# seconds: a case that takes longer hangs
C=$T/cases
[ -z "${FUZZ_KEEP:-}" ] || trap 'echo "kept $T"' EXIT
[ -z "${TOP:-}" ] || { LARGEDIR_PLOT=$TOP/plot; export LARGEDIR_PLOT; }
echo "t_fuzz: seed $SEED, $CASES cases (FUZZ_SEED, FUZZ_CASES change them)"
python3 "$HERE/fuzz.py" "$LD" "${TOP:-$HERE/../..}" "$T" "$SEED" "$CASES" ||
    fail "tests/sh/fuzz.py could not write the cases"
cd "$T/cwd"	# relative paths land here, where parse cases must make none

cr=$(printf '\r')
ncase=0 nfail=0 nreal=0 hist=

# add WHY: note one thing wrong with the case.
add() {
	why="${why:+$why; }$*"
}

# empty DIR: whether DIR is empty or absent (globs, not ls: a few
# thousand cases afford no extra processes).
empty() {
	for e in "$1"/* "$1"/.[!.]* "$1"/..?*; do
		[ -e "$e" ] || [ -L "$e" ] && return 1
	done
	return 0
}

# scan FILE: set nlines (how many lines FILE has, a last one without '\n'
# counted too), first (its first line) and san (1 if a sanitizer spoke).
scan() {
	nlines=0 first='' san=''
	while IFS= read -r line || [ -n "$line" ]; do
		nlines=$((nlines + 1))
		[ "$nlines" -gt 1 ] || first=$line
		case $line in
		*Sanitizer* | *"runtime error"*) san=1 ;;
		esac
	done <"$1"
}

# outputs DIR RC: every .out, .csv and .json in DIR is whole (whole()).
outputs() {
	labels=''
	[ -d "$1" ] || return 0
	for f in "$1"/*.json "$1"/*.out "$1"/*.csv; do
		[ -e "$f" ] || continue
		label=${f##*/}
		label=${label%.*}
		case " $labels " in
		*" $label "*) ;;
		*)
			labels="$labels $label"
			whole "$1" "$label" "$2"
			;;
		esac
	done
}

# whole DIR LABEL RC: DIR/LABEL.{out,csv,json} are there, the JSON
# parses, all three agree on the status, the columns and the number of
# rounds, and the JSON has one summary row per round that is not a warm-up
# (what check_outputs in lib.sh checks, with one jq instead of six); the
# status is never still 'running' once largedir has exited, and is
# 'complete' if the run exited 0 (RC '-': a plot or page, whose status
# is not the run's).
whole() {
	for e in json csv out; do
		if [ ! -s "$1/$2.$e" ]; then
			add "$1/$2.$e is missing or empty"
			return 0
		fi
	done
	if ! jq -r '.status, (.rounds | length), ([.rounds[] |
	    select(.warmup == 0) | .round] | unique | length),
	    (.summary | length), (.columns | join(",")),
	    (.columns | join(" "))' "$1/$2.json" >"$T/jq" 2>&1; then
		add "$1/$2.json is not valid JSON: $(head -n 1 "$T/jq")"
		return 0
	fi
	st='' k=0 nk='' ns='' hcsv='' hdat=''
	{
		read -r st && read -r k && read -r nk && read -r ns &&
		    IFS= read -r hcsv && IFS= read -r hdat
	} <"$T/jq" || true
	case $3/$st in
	*/running) add "$2: status still 'running' after exit $3" ;;
	0/complete | [1-9-]*/*) ;;
	*) add "$2: status '$st' after exit 0" ;;
	esac
	[ "$nk" = "$ns" ] || add "$2.json: $nk rounds but $ns summary rows"
	grep -qx "# status: $st" "$1/$2.out" ||
	    add "$2.out has no '# status: $st' line"
	IFS= read -r h <"$1/$2.csv" || true
	[ "${h%"$cr"}" = "$hcsv" ] || add "$2.csv: the header is not the JSON's columns"
	n=$(grep -c '' "$1/$2.csv" || true)
	[ "$n" -eq $((k + 1)) ] || add "$2.csv: $n lines for $k rounds"
	grep -v '^#' "$1/$2.out" >"$T/data" || true
	IFS= read -r h <"$T/data" || true
	[ "$h" = "$hdat" ] || add "$2.out: the header is not the JSON's columns"
	n=$(grep -c '' "$T/data" || true)
	[ "$n" -eq $((k + 1)) ] || add "$2.out: $n data lines for $k rounds"
}

# drawn DIR: what plot and page left in the results directory DIR: no
# temporary file or directory of largedir's, every page valid UTF-8, every
# graph well-formed XML.
drawn() {
	[ -d "$1" ] || return 0
	for f in "$1"/.plot.* "$1"/.index.* "$1"/.rates-*; do
		[ -e "$f" ] || [ -L "$f" ] || continue
		add "left behind: ${f##*/}"
	done
	for f in "$1"/index.html "$1"/index.de.html; do
		if [ -f "$f" ] && [ ! -L "$f" ] &&
		    ! iconv -f UTF-8 -t UTF-8 "$f" >/dev/null 2>&1; then
			add "${f##*/} is not valid UTF-8"
		fi
	done
	[ "$c_kind" = plot ] || return 0
	for f in "$1"/*.svg; do
		if [ -f "$f" ] && [ ! -L "$f" ] &&
		    ! xmllint --noout "$f" 2>/dev/null; then
			add "${f##*/} is not well-formed XML"
		fi
	done
}

# run_case FILE: run the case FILE and judge it; count and report it.
run_case() {
	c_n='' c_kind='' c_what='' c_cmd='' c_out='' c_dirs='' c_conf=''
	c_cpath='' c_fifo='' c_feed=''
	. "$1"		# sets the c_* variables and the arguments
	feeder=
	if [ -n "$c_fifo" ]; then
		(exec cat "$c_feed" >"$c_fifo") &
		feeder=$!
	fi
	set +e
	timeout -k 5 "$TMO" "$LD" "$@" >"$T/stdout" 2>"$T/stderr"
	rc=$?
	set -e
	if [ -n "$feeder" ]; then
		kill "$feeder" 2>/dev/null || true
		wait "$feeder" 2>/dev/null || true
	fi

	why=''
	case $rc in
	0 | 1 | 2 | 3 | 4) ;;
	5) [ "$c_kind" = suite ] || add "exit 5, which only a suite may" ;;
	124) add "no exit within ${TMO}s: a hang" ;;
	*)
		if [ "$rc" -gt 128 ]; then
			add "killed by signal $((rc - 128))"
		else
			add "exit $rc"
		fi
		;;
	esac
	scan "$T/stderr"
	[ -z "$san" ] || add "sanitizer report"
	if [ "$rc" = 2 ]; then
		case $first in
		"largedir: "?*) ;;
		*) add "exit 2, but stderr does not start with 'largedir: '" ;;
		esac
		if [ "$nlines" -ne 1 ]; then
			add "exit 2 with $nlines lines on stderr, not one"
		fi
		[ ! -s "$T/stdout" ] || add "exit 2 with output on stdout"
	fi
	case $c_kind in
	parse | conf)
		# Stopped by the poison: 2, or 0 for -h and -V, and nothing made.
		case $rc in
		2) ;;
		0)
			# -h or -V came first.
			if [ "$c_kind" != parse ] || ! grep -q \
			    '^usage: largedir \|^largedir [0-9]' "$T/stdout"; then
				add "exit 0 from a case that must stop at the poison"
			fi
			;;
		*) add "exit $rc from a case that must stop at the poison" ;;
		esac
		case $c_kind/$rc/$first in
		conf/2/*"$c_cpath"* | conf/2/*"--repeat '0'"* | conf/[!2]* | parse*) ;;
		*) add "the message names neither $c_cpath nor --repeat" ;;
		esac
		[ ! -e "$c_out" ] || add "made $c_out"
		empty "$T/cwd" || add "made $(ls -A "$T/cwd") in the current directory"
		;;
	plot | page | table)
		outputs "$c_out" -
		# table takes results that are not largedir's for bad
		# input (exit 2); plot and page say they could not (exit 1).
		if [ "$rc" = 2 ] && [ "$c_kind" != table ] && [ -d "$2" ] &&
		    [ "$c_what" != "an odd directory" ]; then
			add "exit 2 on a results directory"
		fi
		drawn "$2"
		;;
	*) outputs "$c_out" "$rc" ;;
	esac
	for d in $c_dirs; do
		empty "$d" || add "left in $d: $(ls -A "$d")"
	done
	if ! empty "$T/cwd"; then
		cd "$T"
		rm -rf cwd
		mkdir cwd
		cd cwd
	fi

	ncase=$((ncase + 1))
	case $c_kind in
	parse | conf) ;;
	*) nreal=$((nreal + 1)) ;;
	esac
	eval "hist_$rc=\$((\${hist_$rc:-0} + 1))"
	case " $hist " in
	*" $rc "*) ;;
	*) hist="$hist $rc" ;;
	esac
	if [ -n "$why" ] || [ -n "${FUZZ_ONLY:-}${FUZZ_VERBOSE:-}" ]; then
		[ -z "$why" ] || nfail=$((nfail + 1))
		[ -z "$why" ] || printf 'FAIL: '
		printf 'case %s (%s: %s), exit %s%s\n' "$c_n" "$c_kind" \
		    "$c_what" "$rc" "${why:+: $why}"
		printf '    again: LARGEDIR=%s FUZZ_SEED=%s FUZZ_CASES=%s' \
		    "$LD" "$SEED" "$CASES"
		printf ' FUZZ_ONLY=%s sh tests/sh/t_fuzz.sh\n' "$c_n"
		printf '    $ %s\n' "$c_cmd" | cut -c 1-2000
		if [ -n "$c_conf" ] && [ -f "$c_conf" ]; then
			printf '    config %s (sed -n l):\n' "$c_conf"
			sed -n l "$c_conf" | head -n 40 | sed 's/^/    | /'
		fi
		sed -n 's/^/    stderr: /p' "$T/stderr" | head -n 10
	fi >&2
}

for f in "$C"/[0-9]*.sh; do
	if [ -n "${FUZZ_ONLY:-}" ] &&
	    ! grep -qx "c_n=$FUZZ_ONLY" "$f"; then
		continue
	fi
	run_case "$f"
done

summary=
for rc in $(echo "$hist" | tr ' ' '\n' | sort -n); do
	eval "summary=\"\$summary, exit $rc: \$hist_$rc\""
done
echo "t_fuzz: seed $SEED: $ncase cases ($nreal real runs)$summary;" \
    "$nfail failed"
[ "$ncase" -gt 0 ] || fail "no case ran"
[ "$nfail" -eq 0 ] || fail "$nfail of $ncase cases failed (seed $SEED)"
