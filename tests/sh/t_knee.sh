#!/bin/sh
# The knee, reached on purpose (issue 5): the mechanism, at a small n.
# On an ext4 image, a sweep of two runs with --memory-limit=6M,12M (which
# implies --cold=remount; largedir suite runs one per limit) over n from
# 1,000 to 45,000 finds a knee in the open rate: with the dentry and
# inode caches held to 6 MiB, the directory stops fitting in them
# somewhere between 3,000 and 20,000 files, with 12 MiB further out (from
# 8,000 to 30,000 here, so n goes on to 45,000: a fall at the last
# round alone is no knee); rounds
# inside the knee's interval narrow it to 10%, and the page and a graph
# say what a cached file takes.  The
# same run without the limit finds none (it measures each n three times,
# so that a burst of other work on a shared machine cannot fake one).
# The limited phase runs in a child inside the cgroup, which fills up to
# the limit and no further; delete runs outside it.  After each remount
# the dentries counted before open are far below n; without --cold they
# are not.  A limit too small for the open phase gets its child killed by
# the OOM killer: the run stops with exit 3 and the reason, and largedir
# itself, its results and its clean-up survive, as they do SIGTERM and
# kill -9 during a limited phase.  --cold=all empties the page cache as
# well, so on ext2 list reads the directory's blocks again where
# --cold=drop found them cached.  --cold and --memory-limit need root
# and a target largedir mounted (one line, exit 4 or 2).  Only presence,
# absence and counts are asserted, never a rate or a time.  The long run
# (64 MiB, up to 400,000 files) is bench/knee.sh, which prints figures.
# shellcheck source=/dev/null
. "$(dirname "$0")/lib.sh"

need_root "loop devices, mount, memory cgroups"
need_cmd jq mkfs.ext4 setpriv
CONF=$TOP/configs/ext4.conf
need_space "$T" 33 "the 32 GiB sparse image of $CONF"
S=$T/scratch
LIMIT=6M
LIMIT_KIB=6144
bg=

# cleanup: a run still going is killed and swept, then lib_cleanup.
cleanup() {
	if [ -n "$bg" ]; then
		kill -9 "$bg" 2>/dev/null || true
		wait "$bg" 2>/dev/null || true
		"$LD" --cleanup --scratch="$S" >/dev/null 2>&1 || true
	fi
	lib_cleanup
}
trap cleanup EXIT

# memcg_dirs: the largedir.* memory cgroups below the v1 hierarchy or v2.
memcg_dirs() {
	find /sys/fs/cgroup -maxdepth 6 -type d -name 'largedir.*' 2>/dev/null
}

# procs CGROUP: the processes in it (cgroupfs files have no size).
procs() {
	cat "$1/cgroup.procs" 2>/dev/null || true
}

# clean_after NAME: nothing of the run is left: no mount or loop device
# of the scratch directory, no image, no memory cgroup.
clean_after() {
	! grep -q " $S/" /proc/self/mountinfo ||
	    fail "$1: a mount under $S is left"
	! losetup -a | grep -q "$S/" || fail "$1: a loop device is left"
	[ -z "$(find "$S" -name image 2>/dev/null)" ] ||
	    fail "$1: an image is left"
	[ -z "$(memcg_dirs | grep -F ".$2" || true)" ] ||
	    fail "$1: its memory cgroup is left"
}

# knee RUN [LABEL]: the open knee recorded by run RUN (its target LABEL,
# ext4 by default).
knee() {
	jq -r '.meta.knee_open' "$T/$1/${2:-ext4}.json"
}

# one_line STATUS PATTERN CMD...: CMD exits STATUS with one line on
# stderr that holds PATTERN.
one_line() {
	ol_want=$1 ol_pat=$2
	shift 2
	set +e
	"$@" >/dev/null 2>"$T/err"
	ol_got=$?
	set -e
	[ "$ol_got" = "$ol_want" ] ||
	    fail "exit $ol_got, expected $ol_want: $* ($(cat "$T/err"))"
	grep -q -- "$ol_pat" "$T/err" || fail "$*: said '$(cat "$T/err")'"
	[ "$(lines "$T/err")" -eq 1 ] || fail "$*: more than one line"
}

# ---- bad use: one line each
one_line 2 "--cold=remount: it needs a target largedir mounts itself" \
    "$LD" -q --cold=remount -N 1000 -o "$T/x1" "$T"
one_line 2 "tmpfs keeps its files only in the caches" \
    "$LD" -q -c "$TOP/configs/tmpfs.conf" --cold=remount --scratch="$S" \
    -N 1000 -o "$T/x2"
chmod 711 "$T"
mkdir -m 777 "$T/nobody"
for o in --cold=drop --memory-limit=64M; do
	one_line 4 "needs root" setpriv --reuid=65534 \
	    --regid=65534 --clear-groups "$LD" -q "$o" -N 1000 \
	    -o "$T/nobody/out" "$T/nobody"
done
one_line 2 "--memory-limit '1k': must be from 64k" "$LD" --memory-limit=1k "$T"
one_line 2 "--memory-limit 'x': not a size" "$LD" suite \
    --memory-limit=6M,x "$CONF"
one_line 2 "--memory-limit '6M,6M': a limit given twice" "$LD" suite \
    --memory-limit=6M,6M "$CONF"
one_line 2 "--memory-limit: 2 limits are a sweep, one run for each: largedir suite" \
    "$LD" -c "$CONF" --memory-limit=6M,12M

# ---- the limited runs, a sweep of two limits: a knee in open, which
# lies further out with more memory
"$LD" suite --scratch="$S" --memory-limit=$LIMIT,12M -n 1000 -N 45000 \
    -b 10m -s 5 -o "$T/lim" --events=task-clock "$CONF" >"$T/lim.log" 2>&1 ||
    fail "limited runs: exit $? ($(tail -n 3 "$T/lim.log"))"
cat "$T/lim.log"
check_outputs "$T/lim" ext4-$LIMIT complete
check_outputs "$T/lim" ext4-12M complete
grep -q "^cold caches: unmount and mount" "$T/lim.log" ||
    fail "--memory-limit did not imply --cold=remount"
k=$(knee lim ext4-$LIMIT)
case $k in
''|*[!0-9]*) fail "limited run: no knee in open ($k)" ;;
esac
if [ "$k" -le 1000 ] || [ "$k" -gt 30000 ]; then
	fail "knee at n=$k"
fi
k12=$(knee lim ext4-12M)
case $k12 in
''|*[!0-9]*) fail "12M: no knee in open ($k12)" ;;
esac
[ "$k12" -gt "$k" ] || fail "the knee with 12M ($k12) is not beyond 6M's ($k)"
grep -q "^knee: open falls below 50% of its plateau between n=[0-9,]* and n=" \
    "$T/lim.log" ||
    fail "the knee is not on stdout"
# Rounds inside the interval narrowed it to 10%, and say so.
jq -e '.meta.knee_open_above as $a | .meta.knee_open as $k |
    ($a | tonumber) < ($k | tonumber) and
    ($k | tonumber) <= ($a | tonumber) * 1.1' "$T/lim/ext4-$LIMIT.json" \
    >/dev/null || fail "the knee was not narrowed: $(jq -c \
    '[.meta.knee_open_above, .meta.knee_open]' "$T/lim/ext4-$LIMIT.json")"
jq -e '[.meta | keys[] | select(startswith("refine_round_"))] | length > 0' \
    "$T/lim/ext4-$LIMIT.json" >/dev/null ||
    fail "no refine_round_K in the meta"
grep -q "^refine: n=[0-9,]* narrows the knee, between" "$T/lim.log" ||
    fail "the refinement is not on stdout"
# The sweep: its graph and its section on both pages.
for f in knee.svg knee.png; do
	[ -s "$T/lim/$f" ] || fail "the sweep drew no $f"
done
grep -q "<h2>The knee against memory</h2>" "$T/lim/index.html" ||
    fail "the page has no section on the sweep"
grep -q "<h2>Der Knick über dem Speicher</h2>" "$T/lim/index.de.html" ||
    fail "the German page has no section on the sweep"
grep -q "a cached file takes about [0-9,]* bytes" "$T/lim/index.html" ||
    fail "the page does not say what a cached file takes"
# The cgroup held the open phase to the limit (plus a page), and the
# largest round filled it (to 90% at least): the limit did the work.
jq -e --argjson l $LIMIT_KIB '([.rounds[] | .open_memcg_peak_kib] |
    all(. > 0 and . <= $l + 4)) and
    (.rounds | max_by(.n) | .open_memcg_peak_kib) >= $l * 0.9' \
    "$T/lim/ext4-$LIMIT.json" >/dev/null ||
    fail "open_memcg_peak_kib: $(jq -c '[.rounds[].open_memcg_peak_kib]' \
    "$T/lim/ext4-$LIMIT.json")"
# Delete runs outside the limit: no peak recorded for it.
jq -e '[.rounds[] | .delete_memcg_peak_kib] | all(. == null)' \
    "$T/lim/ext4-$LIMIT.json" >/dev/null || fail "delete ran limited"
jq -e '[.rounds[] | .open_task_clock] | all(. > 0)' \
    "$T/lim/ext4-$LIMIT.json" >/dev/null ||
    fail "open_task_clock was not counted in the child"
clean_after "limited run" ""

# ---- the same without the limit: no knee
"$LD" -c "$CONF" --scratch="$S" --cold=remount -n 1000 -N 30000 -r 3 \
    -b 10m -s 5 -o "$T/unl" --events=none >"$T/unl.log" 2>&1 ||
    fail "unlimited run: exit $? ($(tail -n 3 "$T/unl.log"))"
cat "$T/unl.log"
check_outputs "$T/unl" ext4 complete
k=$(knee unl)
case $k in
*[0-9]*) fail "unlimited cold run: a knee in open at n=$k" ;;
esac
echo "unlimited: knee_open=$k"
[ "$(jq '.summary | length' "$T/unl/ext4.json")" -ge 9 ] ||
    fail "unlimited run: fewer than 9 rounds"
# After the remount the dentries before open are far below n: no more
# than at the start of create (the machine's other dentries), give or
# take a tenth of n.  The counts are the whole machine's, and other
# programs make and drop thousands of dentries at a time, so this holds
# for the median round, not for every one.  The remount took time
# outside the phase, in every round.
for r in lim/ext4-$LIMIT unl/ext4; do
	jq -e '([.rounds[] | (.open_dentries - .create_dentries) / .n] |
	    sort | .[length / 2 | floor] < 0.1) and
	    ([.rounds[] | .open_cold_ns > 0 and .delete_cold_ns > 0 and
	    .create_cold_ns == 0] | all)' "$T/$r.json" >/dev/null ||
	    fail "$r: dentries at create and open, cold_ns: $(jq -c \
	    '[.rounds[] | [.n, .create_dentries, .open_dentries, .open_cold_ns]]' \
	    "$T/$r.json")"
done
# Without --cold they are all still there (at least half of them in the
# median of three repetitions): the check above can fail.
"$LD" -q -c "$CONF" --scratch="$S" -n 20000 -N 20000 -r 3 -o "$T/warm" \
    --events=none || fail "warm run: exit $?"
jq -e '[.rounds[] | (.open_dentries - .create_dentries) / .n] | sort |
    .[1] >= 0.5' "$T/warm/ext4.json" >/dev/null ||
    fail "warm run: dentries $(jq -c \
    '[.rounds[] | [.n, .create_dentries, .open_dentries]]' \
    "$T/warm/ext4.json")"
clean_after "unlimited run" ""

# ---- --cold=drop works on any directory but tmpfs's, whose files live
# in the caches it would empty
mount_tmpfs "$T/shm" size=16m
one_line 2 "--cold=drop: $T/shm is in memory (tmpfs)" \
    "$LD" -q --cold=drop -N 1000 -o "$T/x3" "$T/shm"
mkdir "$T/d"
"$LD" -q --cold=drop -n 2000 -N 2000 -o "$T/drop" "$T/d" ||
    fail "--cold=drop: exit $?"
jq -e '.rounds[0].open_cold_ns > 0' "$T/drop/"*.json >/dev/null ||
    fail "--cold=drop recorded no time"
one_line 2 "--cold=all: $T/shm is in memory (tmpfs)" \
    "$LD" -q --cold=all -N 1000 -o "$T/x4" "$T/shm"

# ---- --cold=all empties the page cache too: on an ext2 image (no
# journal to hold the blocks, as ext4's does), list (ls -f) reads the
# directory's blocks from the disk again, where --cold=drop leaves them
# cached
printf 'label = e2\nfstype = ext2\nmkfs = mkfs.ext2 -q -F\nimage_size = 512M\n' \
    >"$T/e2.conf"
for c in drop all; do
	"$LD" -q -c "$T/e2.conf" --scratch="$S" --cold=$c -n 10000 -N 10000 \
	    -p create,list,delete -o "$T/c$c" ||
	    fail "--cold=$c on an image: exit $?"
	clean_after "--cold=$c run" ""
done
jq -e '.meta.cold | startswith("all: syncfs and drop_caches=3")' \
    "$T/call/e2.json" >/dev/null ||
    fail "--cold=all: meta.cold is $(jq .meta.cold "$T/call/e2.json")"
d=$(jq '.rounds[0].list_sectors_read' "$T/cdrop/e2.json")
a=$(jq '.rounds[0].list_sectors_read' "$T/call/e2.json")
if [ "${a%.*}" -lt 8 ] || [ "${d%.*}" -ge "${a%.*}" ]; then
	fail "list read $d sectors after --cold=drop, $a after --cold=all"
fi

# ---- the OOM killer takes the child, not largedir
set +e
"$LD" -c "$CONF" --scratch="$S" --memory-limit=256k -n 20000 -N 20000 \
    -o "$T/oom" --events=none >"$T/oom.log" 2>&1
rc=$?
set -e
cat "$T/oom.log"
[ "$rc" = 3 ] || fail "OOM run: exit $rc, expected 3"
check_outputs "$T/oom" ext4 stopped
grep -q "out of memory: open in round 1 (n=20,000), killed by the OOM killer" \
    "$T/oom.log" || fail "OOM run: no reason on stderr"
jq -e '.meta.oom | test("killed by the OOM killer")' "$T/oom/ext4.json" \
    >/dev/null || fail "OOM run: meta.oom missing"
jq -e '.stop.errno == "ENOMEM"' "$T/oom/ext4.json" >/dev/null ||
    fail "OOM run: stop errno $(jq .stop "$T/oom/ext4.json")"
clean_after "OOM run" ""
# in_limited_phase NAME: start a limited run of one round in the
# background ($bg) and wait until its child measures in the cgroup ($d).
# Past the knee, its open phase takes seconds.
in_limited_phase() {
	"$LD" -c "$CONF" --scratch="$S" --memory-limit=$LIMIT -n 30000 \
	    -N 30000 -o "$T/$1" --events=none >"$T/$1.log" 2>&1 &
	bg=$!
	w=0
	while [ "$w" -lt 600 ]; do
		d=$(memcg_dirs | grep -F "largedir.$bg" || true)
		[ -n "$d" ] && [ -n "$(procs "$d")" ] && return 0
		sleep 0.1
		w=$((w + 1))
	done
	fail "$1: no child in a memory cgroup after a minute:" \
	    "$(cat "$T/$1.log")"
}

# ---- SIGTERM to largedir alone reaches the limited child too
in_limited_phase term
kill -TERM "$bg"
set +e
wait "$bg"
rc=$?
set -e
bg=
[ "$rc" = 143 ] || fail "SIGTERM: exit $rc ($(cat "$T/term.log"))"
check_outputs "$T/term" ext4 interrupted
[ ! -d "$d" ] || fail "SIGTERM: $d is left"
clean_after "SIGTERM" ""

# ---- kill -9 during a limited phase: --cleanup removes the cgroup
in_limited_phase k9
kill -9 "$bg"
wait "$bg" 2>/dev/null || true
bg=
# The child dies with its parent (PR_SET_PDEATHSIG).
w=0
while [ -n "$(procs "$d")" ] && [ "$w" -lt 100 ]; do
	sleep 0.1
	w=$((w + 1))
done
[ -z "$(procs "$d")" ] || fail "kill -9: the limited child outlived largedir"
"$LD" --cleanup --scratch="$S" >"$T/cleanup.log" 2>&1 ||
    fail "--cleanup: exit $? ($(cat "$T/cleanup.log"))"
cat "$T/cleanup.log"
grep -q "^removed memory cgroup $d\$" "$T/cleanup.log" ||
    fail "--cleanup did not remove $d"
[ ! -d "$d" ] || fail "$d is still there"
clean_after "kill -9" ""

[ -z "$(memcg_dirs | grep -v '^$' || true)" ] || {
	memcg_dirs
	fail "memory cgroups are left"
}
echo "ok: knee with --memory-limit=$LIMIT at n=$(knee lim), none without"
