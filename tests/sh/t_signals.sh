#!/bin/sh
# SIGINT and SIGTERM in the middle of a run, and every other signal that
# would end it from outside (SIGHUP, SIGQUIT, SIGALRM, SIGUSR1/2, SIGXCPU,
# SIGXFSZ, ...): exit 128 + the signal, the three outputs complete and
# saying "interrupted", the finished rounds kept, the work directory gone
# and the foreign files untouched.  A second SIGINT
# during the cleanup abandons it: the outputs still say "interrupted", and
# what is left is marked so that --cleanup removes it (strace slows the
# cleanup down, so that the second signal always comes in time).
# shellcheck source=/dev/null
. "$(dirname "$0")/lib.sh"
need_cmd jq
need_dep pgrep procps
need_strace
ld_exe=$(readlink -f "$LD")

# has_file DIR NAME: a round directory of a work directory in DIR holds
# the file NAME.
has_file() {
	for f in "$1"/largedir.*/round-*/"$2"; do
		[ -e "$f" ] && return 0
	done
	return 1
}

# rounds_done JSON: the run has finished at least one round.
rounds_done() {
	rd_k=$(jq '.rounds | length' "$1" 2>/dev/null) || return 1
	[ "${rd_k:-0}" -ge 1 ]
}

# json_status JSON STATUS: the JSON file says STATUS.
json_status() {
	grep -q "^  \"status\": \"$2\",\$" "$1" 2>/dev/null
}

# no_workdir DIR: no work directory is left in DIR.
no_workdir() {
	for w in "$1"/largedir.*; do
		[ ! -e "$w" ] || fail "left behind: $w"
	done
}

# created K: the round directory of the one work directory in $D holds
# K files or more.
created() {
	set -- "$1" "$D"/largedir.*/round-*
	[ -d "$2" ] &&
	    [ "$(find "$2" -mindepth 1 -maxdepth 1 | wc -l)" -ge "$1" ]
}

# tracee PID: print the pid of the process below PID (among its children
# and theirs) that runs largedir: under strace, its tracee.
tracee() {
	for c in $(pgrep -P "$1"); do
		if [ "$(readlink "/proc/$c/exe")" = "$ld_exe" ]; then
			echo "$c"
			return 0
		fi
		tracee "$c" && return 0
	done
	return 1
}

# find_tracee: set $pid to largedir below the background job $bg.
find_tracee() {
	pid=$(tracee "$bg")
}

bg=
pid=
trap '[ -z "$pid" ] || kill -9 "$pid" 2>/dev/null || true
[ -z "$bg" ] || kill -9 "$bg" 2>/dev/null || true; lib_cleanup' EXIT

D=$T/dir
mkdir "$D"
printf 'keep me\n' >"$D/keep.txt"
printf 'named like largedir'\''s, but not its own\n' >"$D/00000100"
snapshot "$D" >"$T/before"

# interrupt SIG STATUS: a run stopped by SIG mid-round exits STATUS.
interrupt() {
	res=$T/res-$1
	"$LD" -b 60s --sync none -o "$res" --label x "$D" \
	    >"$T/stdout" 2>"$T/stderr" &
	bg=$!
	# A round is finished and a later one is creating files.
	wait_for 30 rounds_done "$res/x.json"
	wait_for 30 has_file "$D" 00000100
	kill -s "$1" "$bg"
	set +e
	wait "$bg"
	rc=$?
	set -e
	bg=
	[ "$rc" = "$2" ] || fail "SIG$1: exit $rc, expected $2"
	check_outputs "$res" x interrupted
	[ "$K" -ge 1 ] || fail "SIG$1: the finished rounds were lost"
	jq -r '.stop.reason' "$res/x.json" | grep -q "^interrupted by SIG$1" ||
	    fail "SIG$1: stop reason '$(jq -r .stop.reason "$res/x.json")'"
	grep -q "^# stop_reason: interrupted by SIG$1" "$res/x.out" ||
	    fail "SIG$1: .out has no stop reason naming SIG$1"
	grep -q "interrupted by SIG$1" "$T/stderr" ||
	    fail "SIG$1: stderr does not say so: $(cat "$T/stderr")"
	no_workdir "$D"
	snapshot "$D" >"$T/after"
	cmp -s "$T/before" "$T/after" || {
		diff "$T/before" "$T/after" >&2 || true
		fail "SIG$1: the foreign files changed"
	}
}

interrupt INT 130
interrupt TERM 143
# Every other signal that would end the process from outside does the
# same (SIGALRM too: the progress timer ticks with another signal).
# (Linux's numbers on x86 and arm.)
for sig in HUP:1 QUIT:3 ALRM:14 USR1:10 USR2:12 XCPU:24 XFSZ:25 VTALRM:26 \
    PROF:27; do
	interrupt "${sig%:*}" $((128 + ${sig#*:}))
done

# A second SIGINT while the first one's cleanup runs.  largedir runs
# under strace, which holds every unlinkat for 10 ms: the cleanup of a
# round of a thousand files or more takes ten seconds or more, and the
# second signal comes within a fraction of one, so the cleanup is
# abandoned every time.  Nothing is unlinked before the cleanup (the
# first round is still creating).  The signals go to largedir itself,
# the child of strace: the first once 1000 files exist, the second once
# the outputs say "interrupted" (they are written before the cleanup
# starts).
res=$T/res-twice
traced -f -o /dev/null -e trace=unlinkat \
    -e inject=unlinkat:delay_enter=10ms \
    "$LD" -b 60s --start 400000 --sync none -o "$res" --label x "$D" \
    >"$T/stdout" 2>"$T/stderr" &
bg=$!
wait_for 30 find_tracee
wait_for 30 created 1000
kill -s INT "$pid"
wait_for 30 json_status "$res/x.json" interrupted
kill -s INT "$pid"
set +e
wait "$bg"
rc=$?
set -e
bg=
pid=
[ "$rc" = 130 ] || fail "two SIGINTs: exit $rc, expected 130"
check_outputs "$res" x interrupted
left=
for w in "$D"/largedir.*; do
	[ ! -e "$w" ] || left=$w
done
[ -n "$left" ] || fail "two SIGINTs: the cleanup finished all the same"
[ -s "$left/.largedir-work" ] || fail "abandoned $left without its marker"
grep -q -- "--cleanup" "$T/stderr" ||
    fail "abandoned $left without saying so: $(cat "$T/stderr")"
expect_exit 0 "$LD" --cleanup "$D" >"$T/cleanup"
grep -q "^removed $left ([0-9]* files)\$" "$T/cleanup" ||
    fail "--cleanup said: $(cat "$T/cleanup")"
echo "the second SIGINT abandoned the cleanup; --cleanup $(cat "$T/cleanup")"
no_workdir "$D"
snapshot "$D" >"$T/after"
cmp -s "$T/before" "$T/after" || {
	diff "$T/before" "$T/after" >&2 || true
	fail "two SIGINTs: the foreign files changed"
}
