#!/bin/sh
# The published results in results/ are what the current binary writes:
# every run's column set is the one this largedir gives the same phases
# and layout, every comparison's the one its compare gives the same
# phases, and every directory's pages (index.html, index.de.html) are
# what largedir page writes from its files now.  A change to the columns
# fails here until the published runs are made again; a change to the
# pages, until they are written again (largedir page DIR).
#
# The binary's columns come from a tiny run of its own on a local
# directory with --events none.  A published run adds, to every phase,
# the events its meta.events says were counted (NAME(user+kernel) gives
# NAME_user and NAME_kernel, NAME(total) NAME, dashes made underscores),
# and on an NFS target the backend's RPC and client counters (rpc_*,
# nfs_*), which a local run cannot make.
# shellcheck source=/dev/null
. "$(dirname "$0")/lib.sh"
need_cmd jq
: "${TOP:?TOP must name the source tree}"

mkdir "$T/d"
nrun=0 ncmp=0

# columns JSON: its columns, one per line, sorted.
columns() {
	jq -r '.columns[]' "$1" | sort
}

# same_columns JSON: its columns are $T/want's, or fail showing how they
# differ.
same_columns() {
	columns "$1" >"$T/have"
	cmp -s "$T/want" "$T/have" && return 0
	diff "$T/want" "$T/have" | grep '^[<>]' | head -20 >&2
	fail "$1: its columns are not this largedir's (< this binary's," \
	    "> the published file's); make it again"
}

# tiny KEY ARGS...: the columns of a tiny run with ARGS, made once per KEY.
tiny() {
	ti_key=$1
	shift
	[ -s "$T/tiny-$ti_key" ] && return 0
	"$LD" -q -s 1 --events none -o "$T/o-$ti_key" --label x "$@" "$T/d" \
	    >/dev/null 2>"$T/err" || fail "tiny run $*: $(cat "$T/err")"
	columns "$T/o-$ti_key/x.json" >"$T/tiny-$ti_key"
}

# check_run JSON: a run's columns against the binary's.
check_run() {
	cr_ph=$(jq -r .config.phases "$1")
	cr_key=$(printf '%s' "$cr_ph" | tr ',' '-')
	cr_wl=$(jq -r '.config.workload // "classic"' "$1")
	cr_cl=$(jq -r '.config.clients // "1"' "$1")
	case $cr_ph in
	mkdir,*)
		tiny "$cr_key" --phases "$cr_ph" --layout tree --dirs 2 \
		    --files-per-dir 5 -N 10
		;;
	*)
		# A mailbox's clients add columns of their own.
		cr_key=$cr_key-$cr_wl-$cr_cl
		tiny "$cr_key" --phases "$cr_ph" --workload "$cr_wl" \
		    --clients "$cr_cl" --fsync none -n 10 -N 10
		;;
	esac
	# The extras of each phase: the events counted, then the counters.
	jq -r '.meta.events // "" | split(" ")[] |
	    select(test("\\((user\\+kernel|total)\\)$")) |
	    (sub("\\(.*"; "") | gsub("-"; "_")) as $e |
	    if endswith("(user+kernel)") then ($e + "_user", $e + "_kernel")
	    else $e end' "$1" >"$T/extra"
	cr_first=${cr_ph%%,*}
	case $(jq -r '.meta.dir // ""' "$1") in
	nfs://*) cr_nfs=1 ;;
	*) cr_nfs=$(jq -r 'if (.meta.fstype // "") | startswith("nfs")
	    then 1 else 0 end' "$1") ;;
	esac
	if [ "$cr_nfs" = 1 ]; then
		jq -r --arg p "${cr_first}_" '.columns[] |
		    select(startswith($p + "rpc_") or startswith($p + "nfs_")) |
		    ltrimstr($p)' "$1" >>"$T/extra"
	fi
	{
		cat "$T/tiny-$cr_key"
		for p in $(printf '%s' "$cr_ph" | tr ',' ' '); do
			sed "s/^/${p}_/" "$T/extra"
		done
	} | sort >"$T/want"
	same_columns "$1"
	nrun=$((nrun + 1))
}

# check_compare JSON: a comparison's columns against the binary's.
check_compare() {
	cc_ph=$(jq -r '[.columns[] | select(endswith("_per_s")) |
	    rtrimstr("_per_s") | select(. != "mkdir")] | join(",")' "$1")
	rm -rf "$T/cmp"
	if jq -e '.columns | index("mkdir_per_s")' "$1" >/dev/null; then
		set -- "$1" --layout tree --dirs 2 --files-per-dir 5
	else
		set -- "$1" -n 10
	fi
	cc_json=$1
	shift
	"$LD" compare -r 1 -s 1 --phases "$cc_ph" "$@" -o "$T/cmp" \
	    "$T/d" "$T/d" >/dev/null 2>"$T/err" ||
	    fail "tiny compare: $(cat "$T/err")"
	columns "$T/cmp/compare.json" >"$T/want"
	same_columns "$cc_json"
	ncmp=$((ncmp + 1))
}

# Each directory's pages, written again from a copy of its files.
npage=0
for d in "$TOP"/results/*/; do
	[ -e "$d/index.html" ] || continue
	rm -rf "$T/page"
	cp -R "$d" "$T/page"
	rm -f "$T/page/index.html" "$T/page/index.de.html"
	"$LD" page "$T/page" >/dev/null 2>"$T/err" ||
	    fail "largedir page $d: $(cat "$T/err")"
	for f in index.html index.de.html; do
		cmp -s "$T/page/$f" "$d/$f" || fail "${d}$f is not what" \
		    "largedir page writes now: run 'largedir page $d'"
	done
	npage=$((npage + 1))
done

for j in "$TOP"/results/*/*.json; do
	[ -e "$j" ] || continue
	case ${j##*/} in
	compare.json) check_compare "$j" ;;
	*) check_run "$j" ;;
	esac
done
[ "$nrun" -gt 0 ] || fail "no published runs found in $TOP/results"

# The figures the READMEs and NOTES quote, against the data they name
# (tests/figures.py; make figures writes them); and a figure made wrong
# is found.
need_cmd python3
(cd "$TOP" && python3 tests/figures.py check README.md README.de.md \
    results/*/NOTES) >"$T/figures" 2>&1 ||
    fail "a quoted figure differs from its data: $(cat "$T/figures")"
# The first figure of README.md made wrong (GNU sed: 0,/RE/ is the first).
sed '0,/-->[0-9][0-9,.]*<!--\/fig-->/s//-->1,234,567<!--\/fig-->/' \
    "$TOP/README.md" >"$T/README.md"
cmp -s "$TOP/README.md" "$T/README.md" && fail "README.md quotes no figure"
! (cd "$TOP" && python3 tests/figures.py check "$T/README.md") \
    >/dev/null 2>&1 || fail "figures.py did not find a wrong figure"
echo "current: the columns of $nrun published runs and $ncmp" \
    "comparisons, the pages of $npage directories; $(tail -n 1 "$T/figures")"
