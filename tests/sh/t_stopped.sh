#!/bin/sh
# A run stopped mid-phase (issue 16, point 7): SIGSTOP for two seconds in
# the create phase of the first round, then SIGCONT.  The run completes,
# says on stderr that the phase lost the time, records it in the metadata
# (warning_stopped), and marks that phase of that round with
# PHASE_stopped = 1 in the outputs; the other phases say 0.  The run is
# quiet (-q): nothing on stdout, and the warning on stderr all the same.
# shellcheck source=/dev/null
. "$(dirname "$0")/lib.sh"
need_cmd jq
bg=
trap '[ -z "$bg" ] || kill -9 "$bg" 2>/dev/null || true; lib_cleanup' EXIT

# has_files N: the round directory holds N files or more.
has_files() {
	set -- "$1" "$T"/d/largedir.*/round-*
	[ -d "$2" ] &&
	    [ "$(find "$2" -mindepth 1 -maxdepth 1 | wc -l)" -ge "$1" ]
}

# A tmpfs of our own where we can: the first round is large.
if [ "$(id -u)" = 0 ]; then
	mount_tmpfs "$T/d" "mode=0700,size=256m,nr_inodes=400k"
else
	mkdir "$T/d"
fi
"$LD" -q -b 120s --start 200000 -N 200000 --sync none -o "$T/res" --label x \
    "$T/d" >"$T/stdout" 2>"$T/stderr" &
bg=$!
wait_for 30 has_files 1000
kill -s STOP "$bg"
sleep 2
kill -s CONT "$bg"
set +e
wait "$bg"
rc=$?
set -e
bg=
[ "$rc" = 0 ] || fail "exit $rc: $(cat "$T/stderr")"
check_outputs "$T/res" x complete
grep -q "^largedir: warning: create in round 1 lost about [0-9.]*s while largedir was stopped" \
    "$T/stderr" || fail "no warning: $(cat "$T/stderr")"
[ ! -s "$T/stdout" ] || fail "-q, yet stdout says: $(cat "$T/stdout")"
jq -e '.meta.warning_stopped | test("^round 1 create [0-9.]+s$")' \
    "$T/res/x.json" >/dev/null ||
    fail "metadata: $(jq -c .meta.warning_stopped "$T/res/x.json")"
[ "$(jq '.rounds[0].create_stopped' "$T/res/x.json")" = 1 ] ||
    fail "create_stopped is not 1"
[ "$(jq '.rounds[0].open_stopped + .rounds[0].delete_stopped' \
    "$T/res/x.json")" = 0 ] || fail "open or delete marked stopped too"
