#!/bin/sh
# Issue 27: largedir page on a results directory the user may not write
# names the cause (permission, a read-only filesystem), not "exists and is
# not a file largedir wrote".  Root may write anywhere, so the page runs
# as nobody, on a copy whose files root owns.
# shellcheck source=/dev/null
. "$(dirname "$0")/lib.sh"
need_root "to run the page as another user"
need_cmd setpriv
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}

R=$T/run
cp -R "$TOP/tests/data/page/run" "$R"
chmod -R a+rX "$T"
# shellcheck disable=SC2317 # called through expect_exit
asnobody() {
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"
}

# No page yet: the staging file cannot be made.
expect_exit 1 asnobody "$LD" page "$R" >"$T/out" 2>"$T/err"
[ "$(wc -l <"$T/err")" = 1 ] || fail "more than one line: $(cat "$T/err")"
grep -q "Permission denied" "$T/err" || fail "no page yet: $(cat "$T/err")"

# A page root wrote: not nobody's to replace, and not writable either.
"$LD" page "$R" >/dev/null
expect_exit 1 asnobody "$LD" page "$R" >"$T/out" 2>"$T/err"
[ "$(cat "$T/err")" = "largedir: $R: replace index.html: Permission denied" ] ||
    fail "a page root wrote: $(cat "$T/err")"

# Writable for nobody, but the page is root's: that is the foreign file.
chmod 777 "$R"
expect_exit 1 asnobody "$LD" page "$R" >"$T/out" 2>"$T/err"
grep -q "index.html exists and is not a file largedir wrote" "$T/err" ||
    fail "a writable directory: $(cat "$T/err")"
for f in "$R"/.??*; do
	[ ! -e "$f" ] || fail "page left $f"
done
