#!/bin/sh
# --workload maildir, seen by strace: each phase makes exactly the
# system calls of a mail server, once per message.
#	deliver	 openat(tmp/N, O_CREAT|O_EXCL), one write of --file-size
#		 bytes, fsync, close, renameat(tmp/N, new/N), and with
#		 --fsync both openat(new/.) fsync close; in delivery order
#	move	 renameat(new/N, cur/N:2,), in delivery order
#	flag	 renameat(cur/N:2,, cur/N:2,S), in a seeded random order
#	scan	 getdents64 of new/ and of cur/, a stat of every entry
#	read	 openat(cur/N:2,S, O_RDONLY), reads to the end, close, random
#	expunge	 unlinkat(cur/N:2,S), in delivery order, no fsync
# --file-size A-B gives each its size; --fsync none syncs nothing;
# --clients 4 makes the same calls, each on
# one message; and --cleanup after kill -9 removes every message wherever
# it was left, and keeps a file that is not largedir's.
# shellcheck source=/dev/null
. "$(dirname "$0")/lib.sh"
need_strace
need_dep jq jq

D=$T/dir
mkdir "$D"
N=300

# trace LOG ARG...: one round of N messages under strace.
trace() {
	tr_log=$1
	shift
	# -ff: a file per process, so that no call of a client is split.
	expect_exit 0 traced -ff -y -o "$tr_log" -e trace=openat,write,fsync,close,renameat,renameat2,unlinkat,getdents64,newfstatat,read \
	    "$LD" -q --workload maildir --file-size 3000 --start $N \
	    --max-files $N -o "$T/res" --label "$(basename "$tr_log")" \
	    "$@" "$D"
	cat "$tr_log".* >"$tr_log"
	rm -f "$tr_log".*
}

# count LOG WANT WHAT REGEX: the lines of LOG matching REGEX are WANT.
count() {
	c_got=$(grep -cE "$4" "$1" || true)
	[ "$c_got" -eq "$2" ] || fail "$(basename "$1"): $c_got $3, want $2"
}

# index REGEX LOG: the Q numbers (the delivery order) of the names the
# calls matching REGEX were made on, in the order of the calls.
index() {
	grep -E "$1" "$2" | sed 's/[^"]*"[a-z]*\/[0-9]*\.M[0-9]*P[0-9]*Q\([0-9]*\)\..*/\1/'
}

M='[0-9]+\.M[0-9]+P[0-9]+Q[0-9]+\.mx1\.example\.org,S=3000'
trace "$T/both" --fsync both --seed 7
L=$T/both
count "$L" $N creates "openat\([0-9]+<[^>]*>, \"tmp/$M\", O_WRONLY\|O_CREAT\|O_EXCL"
count "$L" $N "writes of 3000 bytes" "write\([0-9]+<[^>]*/round-[0-9-]+/tmp/$M>, \"x+\"\.\.\., 3000\) = 3000"
count "$L" $N "file fsyncs" "fsync\([0-9]+<[^>]*/round-[0-9-]+/tmp/$M>\)"
count "$L" $N "renames into new/" "renameat2?\([0-9]+<[^>]*>, \"tmp/($M)\", [0-9]+<[^>]*>, \"new/\1\""
count "$L" $N "opens of new/" "openat\([0-9]+<[^>]*>, \"new/\.\", O_RDONLY"
count "$L" $N "new/ fsyncs" "fsync\([0-9]+<[^>]*/round-[0-9-]+/new>\)"
count "$L" $N moves "renameat2?\([0-9]+<[^>]*>, \"new/($M)\", [0-9]+<[^>]*>, \"cur/\1:2,\""
count "$L" $N flags "renameat2?\([0-9]+<[^>]*>, \"cur/($M):2,\", [0-9]+<[^>]*>, \"cur/\1:2,S\""
count "$L" $N "scan stats" "newfstatat\([0-9]+<[^>]*>, \"cur/$M:2,S\""
count "$L" $N "read opens" "openat\([0-9]+<[^>]*>, \"cur/$M:2,S\", O_RDONLY"
count "$L" $N "reads of 3000 bytes" "read\([0-9]+<[^>]*/round-[0-9-]+/cur/$M:2,S>, \"x+\"\.\.\., 65536\) = 3000"
count "$L" $N "expunges" "unlinkat\([0-9]+<[^>]*>, \"cur/$M:2,S\", 0\)"
count "$L" 0 "other unlinks of a message" "unlinkat\([0-9]+<[^>]*>, \"(new|tmp)/"
count "$L" 0 "fsyncs of cur/" "fsync\([0-9]+<[^>]*/round-[0-9-]+/cur>\)"
n=$(grep -cE 'getdents64\([0-9]+<[^>]*/round-[0-9-]+/(new|cur)>' "$L" || true)
[ "$n" -ge 3 ] || fail "$n getdents64 calls of new/ and cur/ for scan"
# Orders: delivery order for deliver, move and expunge; flag and read
# each in a random order of its own.
awk -v n=$N 'BEGIN { for (i = 0; i < n; i++) print i }' >"$T/seq"
index "openat\([0-9]+<[^>]*>, \"tmp/$M\", O_WRONLY" "$L" | cmp -s - "$T/seq" ||
    fail "deliver not in delivery order"
index "renameat2?\([0-9]+<[^>]*>, \"new/" "$L" | cmp -s - "$T/seq" ||
    fail "move not in delivery order"
index "unlinkat\([0-9]+<[^>]*>, \"cur/" "$L" | cmp -s - "$T/seq" ||
    fail "expunge not in delivery order"
index "renameat2?\([0-9]+<[^>]*>, \"cur/$M:2,\"" "$L" >"$T/flag"
index "openat\([0-9]+<[^>]*>, \"cur/$M:2,S\", O_RDONLY" "$L" >"$T/read"
for o in flag read; do
	sort -n "$T/$o" | cmp -s - "$T/seq" || fail "$o: not every message once"
	! cmp -s "$T/$o" "$T/seq" || fail "$o in delivery order, not random"
done
! cmp -s "$T/flag" "$T/read" || fail "flag and read in the same order"
jq -e --argjson n $N '.config.workload == "maildir" and
    .config.phases == "deliver,move,flag,scan,read,expunge" and
    all(.rounds[]; .deliver_ops == $n and .move_ops == $n and
    .flag_ops == $n and .scan_ops == $n and .read_ops == $n and
    .expunge_ops == $n and .scan_loop == 0 and .scan_lost == 0)' \
    "$T/res/both.json" >/dev/null ||
    fail "the outputs: $(jq -c '.config.workload, .rounds[0]' "$T/res/both.json")"

# --file-size 1k-64k: each delivery writes the size its name carries
# (S=), drawn from the seed, and not all the same.
expect_exit 0 traced -y -o "$T/sizes" -e trace=openat,write "$LD" -q \
    --workload maildir --file-size 1k-64k --fsync none --start 200 \
    --max-files 200 --phases deliver -o "$T/res" --label sizes "$D"
awk 'match($0, /"tmp\/[^"]*,S=[0-9]+"/) {
	s = substr($0, RSTART, RLENGTH); sub(/.*,S=/, "", s)
	sub(/"/, "", s); want = s; next }
    want != "" && /write\(/ {
	got = $NF; if (got != want) bad++; n++; sizes[want] = 1; want = "" }
    END { k = 0; for (s in sizes) k++
	printf "%d %d %d\n", n, bad + 0, k }' "$T/sizes" >"$T/sizes.sum"
read -r n bad k <"$T/sizes.sum"
if [ "$n" -ne 200 ] || [ "$bad" -ne 0 ]; then
	fail "--file-size 1k-64k: $n writes, $bad not of their name's size"
fi
[ "$k" -gt 100 ] || fail "--file-size 1k-64k: only $k sizes in 200 mails"
jq -e '.config."file-size" == "1024-65536"' "$T/res/sizes.json" \
    >/dev/null || fail "the range not recorded: $(jq -c '.config."file-size"' "$T/res/sizes.json")"

# --fsync none: nothing of the mailbox fsync'd.
trace "$T/none" --fsync none
count "$T/none" 0 fsyncs "fsync\([0-9]+<[^>]*/round-[0-9-]+/(tmp|new|cur)"

# --clients 4: the same calls, each on one message.
trace "$T/k4" --fsync file --clients 4 --phases deliver,flag,read
count "$T/k4" $N creates "openat\([0-9]+<[^>]*>, \"tmp/$M\", O_WRONLY"
count "$T/k4" $N "file fsyncs" "fsync\([0-9]+<[^>]*/round-[0-9-]+/tmp/$M>\)"
count "$T/k4" $N flags "renameat2?\([0-9]+<[^>]*>, \"new/($M)\", [0-9]+<[^>]*>, \"cur/\1:2,S\""
count "$T/k4" $N expunges "unlinkat\([0-9]+<[^>]*>, \"cur/$M:2,S\", 0\)"
index "renameat2?\([0-9]+<[^>]*>, \"new/" "$T/k4" | sort -n |
    cmp -s - "$T/seq" || fail "--clients 4: flag not every message once"
[ -z "$(ls -A "$D")" ] || fail "left in $D: $(ls -A "$D")"

# kill -9 during the run, a foreign file in cur/: --cleanup removes the
# run's messages (in tmp/, new/ or cur/) and keeps that file and the
# directories that hold it.
"$LD" -q --workload maildir --fsync none --file-size 0-2k --start 40000 \
    --max-files 40000 -o "$T/k" "$D" >/dev/null 2>&1 &
pid=$!
i=0
while [ "$(find "$D" -path '*/cur/*' -type f 2>/dev/null | head -n 1)" = "" ] &&
    [ $i -lt 300 ]; do
	sleep 0.1
	i=$((i + 1))
done
kill -9 $pid
wait $pid 2>/dev/null || true
cur=$(find "$D" -type d -name cur | head -n 1)
[ -n "$cur" ] || fail "no cur/ after the move began"
touch "$cur/foreign.eml"
expect_exit 0 "$LD" --cleanup "$D" >"$T/out"
[ -f "$cur/foreign.eml" ] || fail "--cleanup removed a foreign file"
n=$(find "$D" -type f -name '*.mx1.example.org*' | wc -l)
[ "$n" -eq 0 ] || fail "--cleanup left $n messages"
grep -q 'kept' "$T/out" || fail "--cleanup did not say what it kept: $(cat "$T/out")"
exit 0
