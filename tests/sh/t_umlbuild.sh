#!/bin/sh
# tests/uml/build-kernel.sh (make uml-kernel) refuses what it must not do
# before it builds anything: a bad version, a relative cache, a cache
# inside the source tree (exit 2, one line), and without the source
# package and root it says what to install (exit 1).  The build itself
# takes minutes and is a publish step, not a test.
# shellcheck source=/dev/null
. "$(dirname "$0")/lib.sh"
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
B=$TOP/tests/uml/build-kernel.sh

nl='
'
for v in '' x 6..12 .6 6. 6 6.12.1 '6.12;rm' "6.12$nl" "6.12${nl}6.1"; do
	expect_exit 2 sh "$B" "$v" "$T/cache" >"$T/out" 2>"$T/err"
	grep -q "^usage: sh tests/uml/build-kernel.sh VERSION \[CACHE\]$" \
	    "$T/err" || fail "version '$v': $(cat "$T/err")"
done
expect_exit 2 sh "$B" >"$T/out" 2>"$T/err"
expect_exit 2 sh "$B" 6.12 "$T/a" "$T/b" >"$T/out" 2>"$T/err"
expect_exit 2 sh "$B" 6.12 relative/cache >"$T/out" 2>"$T/err"
[ "$(cat "$T/err")" = "build-kernel: CACHE must be an absolute path: relative/cache" ] ||
    fail "relative cache: $(cat "$T/err")"
expect_exit 2 sh "$B" 6.12 "$TOP/build/uml" >"$T/out" 2>"$T/err"
[ "$(cat "$T/err")" = "build-kernel: CACHE $TOP/build/uml is inside the source tree" ] ||
    fail "cache in the tree: $(cat "$T/err")"
[ ! -e "$TOP/build/uml" ] || fail "it made $TOP/build/uml"

# A version Debian has no source package of, as a user who may not
# install (root runs it as nobody): it names the package, makes nothing.
[ ! -f /usr/src/linux-source-0.1.tar.xz ] || fail "linux-source-0.1 exists"
# shellcheck disable=SC2317 # called through expect_exit
asuser() {
	if [ "$(id -u)" = 0 ]; then
		setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"
	else
		"$@"
	fi
}
expect_exit 1 asuser sh "$B" 0.1 "$T/cache" >"$T/out" 2>"$T/err"
[ "$(cat "$T/err")" = "build-kernel: no /usr/src/linux-source-0.1.tar.xz: apt-get install linux-source-0.1 (as root)" ] ||
    fail "no package: $(cat "$T/err")"
[ ! -e "$T/cache" ] || fail "it made the cache"
exit 0
