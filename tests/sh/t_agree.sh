#!/bin/sh
# The outputs agree whatever stops the run (issue 16, point 5).  With the
# output directory on a filesystem that fills up as the run goes on, the
# run stops with exit 1 and one line naming the file, and its .out, .csv
# and .json hold the same rounds and the same status.  And a run killed
# with kill -9, whose outputs can only say "running", shows on the
# comparison page as killed, not as running.
# shellcheck source=/dev/null
. "$(dirname "$0")/lib.sh"
need_root "mounts a small tmpfs for the outputs"
need_cmd jq
bg=
trap '[ -z "$bg" ] || kill -9 "$bg" 2>/dev/null || true; lib_cleanup' EXIT

# status JSON: what the JSON says.
status() {
	jq -r .status "$1"
}

# rounds_done JSON N: the run has finished N rounds.
rounds_done() {
	[ "$(jq '.rounds | length' "$1" 2>/dev/null || echo 0)" -ge "$2" ]
}

mkdir "$T/d"
mount_tmpfs "$T/out" "size=160k"
set +e
"$LD" -b 120s --start 100 --growth 1.05 --sync none -q -o "$T/out" \
    --label x "$T/d" >"$T/stdout" 2>"$T/stderr"
rc=$?
set -e
[ "$rc" = 1 ] || fail "full outputs: exit $rc: $(cat "$T/stderr")"
grep -q "^largedir: write x\.[a-z]*: No space left on device$" "$T/stderr" ||
    fail "full outputs: said: $(cat "$T/stderr")"
st=$(status "$T/out/x.json")
case $st in
running | failed) ;;
*) fail "full outputs: status '$st'" ;;
esac
check_outputs "$T/out" x "$st"
[ "$K" -ge 3 ] || fail "full outputs: only $K rounds before the disk filled"
[ -z "$(ls -A "$T/d")" ] || fail "full outputs: left $(ls -A "$T/d")"
for f in "$T"/out/.*; do
	case ${f##*/} in
	. | ..) ;;
	*) [ ! -e "$f" ] || fail "full outputs: left $f" ;;
	esac
done

# kill -9: the outputs say "running"; the page knows better.
mkdir "$T/d2"
"$LD" -b 60s --start 1000 --sync none -q -o "$T/res" --label k "$T/d2" \
    >/dev/null 2>&1 &
bg=$!
wait_for 30 rounds_done "$T/res/k.json" 2
kill -9 "$bg"
wait "$bg" 2>/dev/null || true
bg=
[ "$(status "$T/res/k.json")" = running ] || fail "killed run: not 'running'"
expect_exit 0 "$LD" page "$T/res" >/dev/null
grep -q '<td>killed</td>' "$T/res/index.html" ||
    fail "page: the killed run is not shown as killed"
grep -q '<td>abgeschossen</td>' "$T/res/index.de.html" ||
    fail "page (de): the killed run is not shown as abgeschossen"
grep -q '<td>running</td>' "$T/res/index.html" &&
    fail "page: the killed run is shown as running"
expect_exit 0 "$LD" --cleanup "$T/d2" >/dev/null
