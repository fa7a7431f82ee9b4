#!/bin/sh
# Signals on a target largedir set up itself (issue 16, point 3): a run
# on an ext2 loop image stopped by SIGHUP, SIGQUIT or SIGXFSZ exits 128 +
# the signal with its outputs saying "interrupted", and leaves nothing:
# no mount, no loop device, no image, no run directory in the scratch
# directory.  And a suite passes SIGTERM on to the target it runs (point
# 6): the suite stops within seconds, not at the end of the target's
# budget, and the target cleans up.
# shellcheck source=/dev/null
. "$(dirname "$0")/lib.sh"
need_root "loop devices, mkfs and mount"
need_cmd jq mkfs.ext2 losetup
S=$T/scratch
bg=
trap '[ -z "$bg" ] || kill -9 "$bg" 2>/dev/null || true
"$LD" --cleanup --scratch="$S" >/dev/null 2>&1 || true; lib_cleanup' EXIT

printf '%s\n' "label = e2" "fstype = ext2" "mkfs = mkfs.ext2 -q -F" \
    "image_size = 64M" >"$T/e2.conf"
printf '%s\n' "label = tf" "fstype = tmpfs" \
    "mount_options = size=64m,nr_inodes=200k" >"$T/tf.conf"

# rounds_done JSON: the run has finished at least one round.
rounds_done() {
	rd_k=$(jq '.rounds | length' "$1" 2>/dev/null) || return 1
	[ "${rd_k:-0}" -ge 1 ]
}

# gone: nothing of a target is left.
gone() {
	! grep -q " $S/" /proc/self/mountinfo ||
	    fail "$1: a mount under $S is left"
	! losetup -a | grep -q "$S/" || fail "$1: a loop device is left"
	[ -z "$(ls -A "$S" 2>/dev/null)" ] ||
	    fail "$1: left in $S: $(ls -A "$S")"
}

# gone_pid PID: the process has ended (a zombie counts as ended).
gone_pid() {
	! kill -0 "$1" 2>/dev/null ||
	    [ "$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null)" = Z ]
}

for sig in HUP:1 QUIT:3 XFSZ:25; do
	name=${sig%:*}
	res=$T/res-$name
	"$LD" -c "$T/e2.conf" --scratch "$S" -b 60s --sync none -o "$res" \
	    >"$T/stdout" 2>"$T/stderr" &
	bg=$!
	wait_for 60 rounds_done "$res/e2.json"
	kill -s "$name" "$bg"
	set +e
	wait "$bg"
	rc=$?
	set -e
	bg=
	[ "$rc" = $((128 + ${sig#*:})) ] ||
	    fail "SIG$name: exit $rc: $(cat "$T/stderr")"
	check_outputs "$res" e2 interrupted
	gone "SIG$name"
done

# The suite: SIGTERM to the suite alone (not its process group).
"$LD" suite -b 60s --sync none --scratch "$S" -o "$T/suite" "$T/tf.conf" \
    "$T/e2.conf" >"$T/stdout" 2>"$T/stderr" &
bg=$!
wait_for 60 rounds_done "$T/suite/tf.json"
kill -s TERM "$bg"
wait_for 10 gone_pid "$bg"
set +e
wait "$bg"
rc=$?
set -e
bg=
[ "$rc" = 143 ] || fail "suite: exit $rc after SIGTERM: $(cat "$T/stderr")"
check_outputs "$T/suite" tf interrupted
[ ! -e "$T/suite/e2.json" ] || fail "suite: ran the next target after SIGTERM"
grep -q "^tf  *interrupted" "$T/stdout" ||
    fail "suite: no 'interrupted' line for tf: $(cat "$T/stdout")"
gone "suite"
