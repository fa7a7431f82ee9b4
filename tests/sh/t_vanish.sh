#!/bin/sh
# The filesystem takes the ground away: the work directory is removed
# mid-run (exit 3, "the work directory vanished", outputs that say
# "stopped"), and the directory under test is read-only (exit 3, one
# line, and no outputs: nothing was measured).
# shellcheck source=/dev/null
. "$(dirname "$0")/lib.sh"
need_cmd jq

# has_workdir JSON: the run has recorded its work directory.
has_workdir() {
	hw=$(jq -r '.meta.work_dir // empty' "$1" 2>/dev/null) || return 1
	[ -n "$hw" ]
}

# stopped PID: the process is stopped (SIGSTOP has taken effect).
stopped() {
	grep -q '^State:[[:space:]]*T' "/proc/$1/status"
}

bg=
trap '[ -z "$bg" ] || kill -9 "$bg" 2>/dev/null || true; lib_cleanup' EXIT

# --- The work directory vanishes in the middle of a round. ---
# rm -rf unlinks one entry at a time, so a run going on beside it would
# see single files vanish first, which is another story (exit 1).  Stop
# the run while the whole work directory goes, so that for largedir it
# vanishes at once.
D=$T/dir
mkdir "$D"
printf 'keep me\n' >"$D/keep.txt"
snapshot "$D" >"$T/before"
"$LD" -b 60s --start 1000000 --sync none -o "$T/res" --label x "$D" \
    >"$T/stdout" 2>"$T/stderr" &
bg=$!
wait_for 30 has_workdir "$T/res/x.json"
wd=$(jq -r .meta.work_dir "$T/res/x.json")
wait_for 30 test -e "$wd/round-0001-1/00000100"
kill -s STOP "$bg"
wait_for 10 stopped "$bg"
rm -rf "$wd"
kill -s CONT "$bg"
set +e
wait "$bg"
rc=$?
set -e
bg=
[ "$rc" = 3 ] || fail "vanished work directory: exit $rc, expected 3"
grep -v 'warning: ' "$T/stderr" >"$T/errors" || true
grep -q 'the work directory vanished' "$T/errors" ||
    fail "stderr does not say the work directory vanished: $(cat "$T/errors")"
# Nothing is left to clean up, so no advice to run --cleanup.
[ "$(lines "$T/errors")" -eq 1 ] ||
    fail "stderr is not one line: $(cat "$T/errors")"
check_outputs "$T/res" x stopped
jq -r .stop.reason "$T/res/x.json" | grep -q 'the work directory vanished' ||
    fail "stop reason '$(jq -r .stop.reason "$T/res/x.json")'"
[ "$(jq -r .stop.n "$T/res/x.json")" = 1000000 ] ||
    fail "stop.n $(jq -r .stop.n "$T/res/x.json"), expected 1000000"
snapshot "$D" >"$T/after"
cmp -s "$T/before" "$T/after" || {
	diff "$T/before" "$T/after" >&2 || true
	fail "the foreign files changed"
}

# --- A read-only directory. ---
need_root "mounts a tmpfs"
m=$T/ro
mount_tmpfs "$m" size=1m
printf 'keep me\n' >"$m/keep.txt"
mount -o remount,ro "$m" || skip "cannot remount $m read-only"
snapshot "$m" >"$T/before"
expect_exit 3 "$LD" -b 2s --start 100 -o "$T/res-ro" --label x "$m" \
    >"$T/stdout" 2>"$T/stderr"
[ "$(lines "$T/stderr")" -eq 1 ] ||
    fail "read-only: stderr is not one line: $(cat "$T/stderr")"
grep -q 'Read-only file system' "$T/stderr" ||
    fail "read-only: stderr does not name the reason: $(cat "$T/stderr")"
# Nothing was measured, so there is nothing to keep: no run directory.
[ ! -e "$T/res-ro" ] || fail "read-only: outputs written: $(ls -A "$T/res-ro")"
snapshot "$m" >"$T/after"
cmp -s "$T/before" "$T/after" || fail "read-only: the filesystem changed"
