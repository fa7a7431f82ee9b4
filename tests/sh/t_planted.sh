#!/bin/sh
# Issue 16, point 1: the writers never open or write through what someone
# else planted in a shared output directory.  In a sticky, world-writable
# directory (as /tmp is), links to a victim file sit under every temporary
# name the old writers used, a FIFO under another, a foreign file under a
# third; a dangling link waits under a final name; a link is swapped in
# for a file largedir wrote while the run goes on; and links wait under
# the names of the graphs and of the page.  The victim keeps its contents,
# every planted entry stays as it was, nothing hangs, and each refusal is
# one line naming the file.
# shellcheck source=/dev/null
. "$(dirname "$0")/lib.sh"
need_cmd jq
need_dep gnuplot gnuplot-nox

R=$T/r D=$T/dir V=$T/victim
mkdir -m 1777 "$R"
mkdir "$D"
printf 'precious\n' >"$V"

# planted: what was planted, by type and target or contents.
planted() {
	for f in "$R"/.x.* "$R"/rates-create.svg "$R"/index.html "$R"/y.out; do
		if [ -L "$f" ]; then
			echo "$f -> $(readlink "$f")"
		elif [ -p "$f" ]; then
			echo "$f fifo"
		elif [ -f "$f" ]; then
			echo "$f $(cksum <"$f")"
		fi
	done
}

ln -s "$V" "$R/.x.out.tmp"
mkfifo "$R/.x.csv.tmp"
ln -s "$V" "$R/.x.json.tmp"
printf 'foreign\n' >"$R/.x.summary.tmp"
ln -s "$T/nowhere" "$R/y.out"
planted >"$T/before"

# The attack as reported: a run whose temporary files are all taken.
expect_exit 0 timeout 60 "$LD" -q -b 2s --start 100 -N 3000 -o "$R" \
    --label x "$D"
check_outputs "$R" x complete
[ "$(cat "$V")" = precious ] || fail "the run wrote through a planted link"

# A dangling link under a final name: refused before anything starts.
expect_exit 2 "$LD" -q -b 1s --start 100 -N 1000 -o "$R" --label y "$D" \
    2>"$T/err"
[ "$(cat "$T/err")" = "largedir: $R/y.out exists: choose another -o or --label" ] ||
    fail "a dangling y.out: $(cat "$T/err")"
[ ! -e "$T/nowhere" ] || fail "the run created the target of a dangling link"

# A link swapped in for a file the run wrote: the run stops with exit 1
# at its next flush, leaves the link and cleans up its work directory.
"$LD" -q -b 20s --start 100 --sync none -o "$R" --label z "$D" \
    2>"$T/err" &
bg=$!
trap 'kill -9 "$bg" 2>/dev/null || true; lib_cleanup' EXIT
wait_for 20 test -s "$R/z.csv"
# In one rename(2), so the run cannot slip a new z.csv in between.
ln -s "$V" "$R/swap"
mv -f "$R/swap" "$R/z.csv"
set +e
wait "$bg"
rc=$?
set -e
[ "$rc" = 1 ] || fail "the swapped z.csv: exit $rc, expected 1"
# The last line: a busy machine may add a warning about its load before.
[ "$(tail -n 1 "$T/err")" = "largedir: z.csv exists and is not a file largedir wrote: left in place" ] ||
    fail "the swapped z.csv: $(cat "$T/err")"
[ "$(readlink "$R/z.csv")" = "$V" ] || fail "z.csv is no longer the link"
[ "$(cat "$V")" = precious ] || fail "the run wrote through the swapped link"
[ -z "$(ls -A "$D")" ] || fail "the stopped run left $(ls -A "$D")"

# Graphs and page: gnuplot draws in a private directory and the graphs
# move in; a link under a graph's or the page's name is left alone.
ln -s "$V" "$R/rates-create.svg"
ln -s "$V" "$R/index.html"
planted >"$T/before"
expect_exit 1 "$LD" plot "$R" >"$T/out" 2>"$T/err"
grep -qx "largedir: $R: rates-create.svg exists and is not a file largedir wrote: left in place" \
    "$T/err" || fail "plot said: $(cat "$T/err")"
if [ ! -f "$R/rates-create.png" ] || [ -L "$R/rates-create.png" ]; then
	fail "plot did not draw rates-create.png"
fi
[ -f "$R/x.svg" ] || fail "plot did not draw x.svg"
for f in "$R"/.plot.*; do
	[ ! -e "$f" ] || fail "plot left its private directory $f"
done
expect_exit 1 "$LD" page "$R" >"$T/out" 2>"$T/err"
grep -q "index.html exists and is not a file largedir wrote" "$T/err" ||
    fail "page said: $(cat "$T/err")"
[ "$(cat "$V")" = precious ] || fail "plot or page wrote through a link"
planted >"$T/after"
cmp -s "$T/before" "$T/after" || {
	diff "$T/before" "$T/after" >&2 || true
	fail "a planted entry changed"
}
