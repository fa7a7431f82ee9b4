#!/bin/sh
# What another process does to a run's work directory (issue 16).
#
# Point 2: --cleanup never takes a live run for dead.  A run started from
# a renamed copy of the binary, and (as root) one in a PID namespace of
# its own, whose marker names pid 1: --cleanup reports each as in use,
# touches nothing, and the run completes.  Once it has ended, a marker
# nobody holds is a dead run's.
#
# Point 4: the work directory is moved away while the run goes on and an
# empty directory of the same name is put in its place.  The run removes
# nothing by path: the foreign directory stays, the real one stays where
# it went with its marker, largedir says where that is, and exits 1.
#
# Point 8: a foreign file in the work directory keeps it, and largedir
# says so once, not twice, and exits 1.
# shellcheck source=/dev/null
. "$(dirname "$0")/lib.sh"
need_cmd jq
bg=
trap '[ -z "$bg" ] || kill -9 "$bg" 2>/dev/null || true; lib_cleanup' EXIT

# workdir_of JSON: the work directory a run recorded, once it has.
workdir_of() {
	jq -r '.meta.work_dir // empty' "$1" 2>/dev/null
}

# has_round JSON: the run has made its work directory and a round
# directory is there now.
has_round() {
	wd=$(workdir_of "$1")
	[ -n "$wd" ] || return 1
	for hr in "$wd"/round-*; do
		[ -d "$hr" ] && return 0
	done
	return 1
}

# live RUN CMD...: start the run CMD in the background (its outputs in
# $T/RUN), then --cleanup must leave it alone, and it must complete.
live() {
	name=$1
	shift
	mkdir -p "$T/$name-dir"
	"$@" -b 4s --start 20000 --sync none -o "$T/$name" --label x \
	    "$T/$name-dir" >"$T/stdout" 2>"$T/stderr" &
	bg=$!
	wait_for 30 has_round "$T/$name/x.json"
	wd=$(workdir_of "$T/$name/x.json")
	expect_exit 0 "$LD" --cleanup "$T/$name-dir" >"$T/cleanup"
	grep -qx "kept $wd: in use by a running largedir" "$T/cleanup" ||
	    fail "$name: --cleanup said: $(cat "$T/cleanup")"
	[ -d "$wd" ] ||
	    fail "$name: --cleanup removed the live run's work directory"
	set +e
	wait "$bg"
	rc=$?
	set -e
	bg=
	[ "$rc" = 0 ] || fail "$name: the run exited $rc: $(cat "$T/stderr")"
	check_outputs "$T/$name" x complete
	[ ! -e "$wd" ] || fail "$name: the run left $wd"
}

cp "$LD" "$T/ldbench"
live renamed "$T/ldbench"
if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null 2>&1 &&
    unshare --pid --fork --mount-proc true 2>/dev/null; then
	live pidns unshare --pid --fork --mount-proc "$LD"
else
	echo "no PID namespace here: that case left out"
fi

# A dead run (kill -9): nobody holds its marker, so it goes.
mkdir "$T/dead-dir"
"$LD" -b 60s --start 1000000 --sync none -o "$T/dead" --label x \
    "$T/dead-dir" >/dev/null 2>&1 &
bg=$!
wait_for 30 has_round "$T/dead/x.json"
wd=$(workdir_of "$T/dead/x.json")
kill -9 "$bg"
wait "$bg" 2>/dev/null || true
bg=
expect_exit 0 "$LD" --cleanup "$T/dead-dir" >"$T/cleanup"
grep -q "^removed $wd (" "$T/cleanup" ||
    fail "dead run: --cleanup said: $(cat "$T/cleanup")"

# Moved away mid-run, an empty look-alike in its place.
mkdir "$T/mv-dir"
"$LD" -b 5s --start 20000 --sync none -o "$T/mv" --label x "$T/mv-dir" \
    >"$T/stdout" 2>"$T/stderr" &
bg=$!
wait_for 30 has_round "$T/mv/x.json"
wd=$(workdir_of "$T/mv/x.json")
mv "$wd" "$T/mv-dir/moved-away"
mkdir "$wd"
printf 'foreign\n' >"$wd/theirs"
set +e
wait "$bg"
rc=$?
set -e
bg=
[ "$rc" = 1 ] || fail "moved: exit $rc, expected 1: $(cat "$T/stderr")"
grep -qx "largedir: work directory $wd was moved to $T/mv-dir/moved-away: left there, with its marker" \
    "$T/stderr" || fail "moved: said: $(cat "$T/stderr")"
[ "$(cat "$wd/theirs")" = foreign ] || fail "moved: the look-alike changed"
[ -s "$T/mv-dir/moved-away/.largedir-work" ] ||
    fail "moved: the real work directory lost its marker"
check_outputs "$T/mv" x complete

# A foreign file in the work directory keeps it: one warning saying so
# (tidy() runs at the end and again at exit; it says it once), exit 1.
mkdir "$T/fg-dir"
"$LD" -b 5s --start 20000 --sync none -o "$T/fg" --label x "$T/fg-dir" \
    >"$T/stdout" 2>"$T/stderr" &
bg=$!
wait_for 30 has_round "$T/fg/x.json"
wd=$(workdir_of "$T/fg/x.json")
printf 'foreign\n' >"$wd/theirs"
set +e
wait "$bg"
rc=$?
set -e
bg=
[ "$rc" = 1 ] || fail "foreign file: exit $rc, expected 1: $(cat "$T/stderr")"
[ "$(grep -c "remove work directory $wd: Directory not empty" "$T/stderr")" = 1 ] ||
    fail "foreign file: not said once: $(cat "$T/stderr")"
[ -s "$wd/.largedir-work" ] || fail "foreign file: the marker is gone"
[ "$(cat "$wd/theirs")" = foreign ] || fail "foreign file: it changed"
