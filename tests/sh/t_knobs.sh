#!/bin/sh
# The knobs do what they say: --names, --file-size, --name-len, --fsync
# and --sync seen by strace; --repeat, --warmup and the budget policies
# seen in the outputs.
# shellcheck source=/dev/null
. "$(dirname "$0")/lib.sh"
need_cmd jq
need_strace

mkdir "$T/d"
nrun=0

# run ARG...: largedir, quiet, results in $T/res/rN.*; sets $res.
run() {
	nrun=$((nrun + 1))
	res=$T/res/r$nrun
	expect_exit 0 "$LD" -q -o "$T/res" --label "r$nrun" "$@" "$T/d"
}

# trace LOG CALLS ARG...: run under strace, tracing CALLS (and openat and
# close, which events needs).
trace() {
	log=$1 calls=$2
	shift 2
	nrun=$((nrun + 1))
	res=$T/res/r$nrun
	expect_exit 0 traced -f -s 256 -o "$log" -e "trace=openat,close,$calls" \
	    "$LD" -q -o "$T/res" --label "r$nrun" "$@" "$T/d"
}

# events LOG: what happened in the round directories, one event a line:
# "create NAME" (an openat with O_CREAT), "bytes N" (written to a created
# file by the time it was closed), "fsync-file", "fsync-dir", "syncfs".
events() {
	awk '
	function arg1(s) {
		s = $0
		sub(/^[a-z0-9_]+\(/, "", s)
		sub(/[,)].*/, "", s)
		return s
	}
	function qname(s) {
		s = $0
		if (!sub(/^[^"]*"/, "", s))
			return ""
		sub(/".*/, "", s)
		return s
	}
	{ sub(/^[0-9]+ +/, "") }
	/^openat\(/ {
		fd = $NF
		d = arg1()
		nm = qname()
		if (nm ~ /^round-/ && /O_DIRECTORY/)
			rd[fd] = 1
		else if ((d in rd) && /O_CREAT/) {
			print "create " nm
			f[fd] = 1
			bytes[fd] = 0
		}
		next
	}
	/^(write|pwrite64)\(/ {
		d = arg1()
		if (d in f)
			bytes[d] += $NF
		next
	}
	/^fsync\(/ {
		d = arg1()
		if (d in f)
			print "fsync-file"
		else if (d in rd)
			print "fsync-dir"
		next
	}
	/^syncfs\(/ { print "syncfs"; next }
	/^close\(/ {
		d = arg1()
		if (d in f) {
			print "bytes " bytes[d]
			delete f[d]
		}
		delete rd[d]
	}' "$1"
}

# nev LOG EVENT: how many times EVENT happened.
nev() {
	events "$1" | grep -c "^$2\$" || true
}

# created LOG: the names created, one a line.
created() {
	events "$1" | sed -n 's/^create //p'
}

# --names maildir: maildir names, all distinct, S= the file size.
maildir='^[0-9]{10}\.M[0-9]+P[0-9]+Q[0-9]+\.mx1\.example\.org,S=0:2,$'
trace "$T/md" close --names maildir --start 300 --max-files 300 \
    --phases create,delete --sync none
created "$T/md" >"$T/names"
[ "$(lines "$T/names")" -eq 300 ] ||
    fail "maildir: $(lines "$T/names") creates, want 300"
bad=$(grep -Evc "$maildir" "$T/names" || true)
[ "$bad" -eq 0 ] || fail "maildir: $bad names like $(grep -Ev "$maildir" \
    "$T/names" | head -n 1)"
[ "$(sort -u "$T/names" | wc -l)" -eq 300 ] || fail "maildir names repeat"

trace "$T/md4k" write,pwrite64 --names maildir --file-size 4k \
    --start 300 --max-files 300 --phases create,delete --sync none
created "$T/md4k" >"$T/names"
[ "$(lines "$T/names")" -eq 300 ] ||
    fail "maildir 4k: $(lines "$T/names") creates, want 300"
bad=$(grep -Evc "$(echo "$maildir" | sed 's/S=0/S=4096/')" "$T/names" ||
    true)
[ "$bad" -eq 0 ] || fail "maildir 4k: $bad names like $(head -n 1 "$T/names")"
[ "$(nev "$T/md4k" 'bytes 4096')" -eq 300 ] || fail "--file-size 4k: \
$(nev "$T/md4k" 'bytes 4096') of 300 files got 4096 bytes; got: \
$(events "$T/md4k" | grep '^bytes' | sort | uniq -c | head -n 3)"

# --name-len 12: twelve-digit names.
trace "$T/nl" close --name-len 12 --start 300 --max-files 300 \
    --phases create,delete --sync none
created "$T/nl" >"$T/names"
[ "$(lines "$T/names")" -eq 300 ] ||
    fail "--name-len 12: $(lines "$T/names") creates, want 300"
bad=$(grep -Evc '^[0-9]{12}$' "$T/names" || true)
[ "$bad" -eq 0 ] || fail "--name-len 12: names like $(head -n 1 "$T/names")"
[ "$(sort -u "$T/names" | wc -l)" -eq 300 ] || fail "12-digit names repeat"

# --fsync: the file after each create, the directory after each create
# and each unlink (phases create,open,delete; n = 50).
for f in none file dir both; do
	trace "$T/fs-$f" fsync --fsync $f --start 50 --max-files 50 \
	    --sync none
	nf=$(nev "$T/fs-$f" fsync-file)
	nd=$(nev "$T/fs-$f" fsync-dir)
	case $f in
	none)	want="0 0" ;;
	file)	want="50 0" ;;
	dir)	want="0 100" ;;
	both)	want="50 100" ;;
	esac
	[ "$nf $nd" = "$want" ] ||
	    fail "--fsync $f: $nf file and $nd directory fsyncs, want $want"
done

# --sync: syncfs before each phase (3 phases x 3 rounds), each round, or
# never (n = 100, 150, 225).
for s in none phase round; do
	trace "$T/sy-$s" syncfs --sync $s --start 100 --max-files 225
	n=$(nev "$T/sy-$s" syncfs)
	case $s in
	none)	want=0 ;;
	phase)	want=9 ;;
	round)	want=3 ;;
	esac
	[ "$n" -eq "$want" ] || fail "--sync $s: $n syncfs calls, want $want"
	[ "$(jq '.rounds | length' "$res.json")" -eq 3 ] ||
	    fail "--sync $s: not 3 rounds"
	if [ $s = none ]; then
		jq -e 'all(.rounds[]; .sync_ns == 0)' "$res.json" >/dev/null ||
		    fail "--sync none: sync_ns not 0"
	fi
done

# --repeat 3: three rows per round, rep 1..3; one summary per round whose
# median, min and max are those of the rows.
run --repeat 3 --start 300 --max-files 450 --sync none
jq -e '
	[.rounds[] | [.round, .rep, .warmup, .n]] ==
	    [[1, 1, 0, 300], [1, 2, 0, 300], [1, 3, 0, 300],
	     [2, 1, 0, 450], [2, 2, 0, 450], [2, 3, 0, 450]] and
	[.summary[] | [.round, .n, .reps]] == [[1, 300, 3], [2, 450, 3]] and
	(. as $d | [$d.summary[] as $s | ("create", "open", "delete") as $p |
	    ([$d.rounds[] | select(.round == $s.round) |
	        .[$p + "_per_s"]] | sort) as $r |
	    $s[$p + "_per_s_min"] > 0 and
	    $s[$p + "_per_s_min"] <= $s[$p + "_per_s_median"] and
	    $s[$p + "_per_s_median"] <= $s[$p + "_per_s_max"] and
	    $r[0] == $s[$p + "_per_s_min"] and
	    $r[1] == $s[$p + "_per_s_median"] and
	    $r[2] == $s[$p + "_per_s_max"]] | length == 6 and all)' \
    "$res.json" >/dev/null || fail "--repeat 3: rows or summary wrong"

# --warmup 2: two warmup rows first, left out of the summary.
nrun=$((nrun + 1))
res=$T/res/r$nrun
expect_exit 0 "$LD" --warmup 2 --start 300 --max-files 450 --sync none \
    -o "$T/res" --label "r$nrun" "$T/d" >"$T/warmup.out"
jq -e '
	[.rounds[].warmup] == [1, 1, 0, 0] and
	[.summary[].n] == [300, 450] and
	[.summary[].round] == [.rounds[] | select(.warmup == 0) | .round] and
	([.rounds[] | select(.warmup == 1) | .round] - [.summary[].round]) ==
	    [.rounds[] | select(.warmup == 1) | .round] and
	all(.summary[]; .reps == 1)' "$res.json" >/dev/null ||
    fail "--warmup 2: rows or summary wrong"
[ "$(grep -c '^warmup ' "$T/warmup.out")" -eq 2 ] ||
    fail "--warmup 2: $(grep -c '^warmup ' "$T/warmup.out") warmup lines"
[ "$(grep -c '^round ' "$T/warmup.out")" -eq 2 ] ||
    fail "--warmup 2: $(grep -c '^round ' "$T/warmup.out") round lines"

# --budget-policy classic: rounds start until the budget has passed, so
# the rounds before the last took less than it, and the run took more.
run --budget-policy classic -b 1s
jq -e '.status == "complete" and .config["budget-policy"] == "classic" and
    (.rounds | length) >= 1 and
    ([.rounds[:-1][].round_ns] | add // 0) < 1000000000 and
    (.meta.elapsed_s | tonumber) >= 1' "$res.json" >/dev/null ||
    fail "--budget-policy classic -b 1s: $(jq -c \
    '[.meta.elapsed_s, [.rounds[].round_ns]]' "$res.json")"

# The default policy says on stdout why it stopped.
nrun=$((nrun + 1))
res=$T/res/r$nrun
expect_exit 0 "$LD" -b 3s -o "$T/res" --label "r$nrun" "$T/d" >"$T/budget.out"
# (Knee lines, which noise may bring, come between.)
grep -v '^knee: ' "$T/budget.out" | grep -B 1 '^results: ' | head -n 1 |
    grep -q '^budget' ||
    fail "-b 3s: no budget line before the results line: \
$(tail -n 3 "$T/budget.out")"
jq -e '.status == "complete" and .config["budget-policy"] == "predict"' \
    "$res.json" >/dev/null || fail "-b 3s: status or policy"

[ -z "$(ls -A "$T/d")" ] || fail "left behind: $(ls -A "$T/d")"
exit 0
