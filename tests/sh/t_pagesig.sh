#!/bin/sh
# A signal while largedir page writes: the page being written is finished
# or removed, no other is begun, no temporary file (.index.html.XXXXXX)
# is left, and largedir exits 128 + the signal.  strace slows every
# fsync(2) down by a second, so the signal comes while the first page is
# being made durable.
# shellcheck source=/dev/null
. "$(dirname "$0")/lib.sh"
need_strace
top=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
d=$T/r
cp -R "$top/tests/data/results/several" "$d"
# As traced() in lib.sh, but as one command, so that $! is strace.
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" strace -f \
    -o /dev/null -e trace=fsync -e inject=fsync:delay_enter=1000000 \
    "$LD" page "$d" >"$T/out" 2>"$T/err" &
spid=$!
wait_for 10 pgrep -P "$spid" >/dev/null
pid=$(pgrep -P "$spid")
sleep 0.5
kill -TERM "$pid"
set +e
wait "$spid"
rc=$?
set -e
[ "$rc" = 143 ] || fail "page: exit $rc, expected 143: $(cat "$T/err")"
grep -q "interrupted by SIGTERM" "$T/err" || fail "page: $(cat "$T/err")"
for f in "$d"/.[!.]*; do
	[ -e "$f" ] || [ -L "$f" ] || continue
	fail "left behind: $f"
done
[ ! -e "$d/index.de.html" ] || fail "a page was begun after the signal"
echo ok
