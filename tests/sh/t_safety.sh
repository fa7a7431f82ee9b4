#!/bin/sh
# largedir removes what it created and nothing else.  Plant foreign files
# and work-directory look-alikes in the directory under test: a file named
# like largedir's own files, a plain file, a "largedir.*" directory without
# a marker, one with a marker copied from a real run (its inode does not
# match), and a "largedir.*" symbolic link to a real dead work directory.
# A normal run and then --cleanup must leave every one of them byte for
# byte as it was, and leave nothing of their own behind.
# shellcheck source=/dev/null
. "$(dirname "$0")/lib.sh"
need_cmd jq

# has_files DIR: a work directory in DIR has a round with files.
has_files() {
	for f in "$1"/largedir.*/round-*/00000000; do
		[ -e "$f" ] && return 0
	done
	return 1
}

bg=
trap '[ -z "$bg" ] || kill -9 "$bg" 2>/dev/null || true; lib_cleanup' EXIT

D=$T/dir
mkdir "$D" "$T/src"

# A real marker: from a run in $T/src, killed in its first (long) round.
"$LD" -b 60s --start 1000000 --sync none -o "$T/res-src" --label src \
    "$T/src" >/dev/null 2>&1 &
bg=$!
wait_for 20 has_files "$T/src"
# Made while the real work directory exists, so the inode differs.
mkdir -p "$D/largedir.BBBBBB/round-0001-1"
kill -9 "$bg"
wait "$bg" || true
bg=
for w in "$T"/src/largedir.*; do
	victim=$w
done
cp "$victim/.largedir-work" "$D/largedir.BBBBBB/.largedir-work"
grep -q '^largedir work directory$' "$D/largedir.BBBBBB/.largedir-work" ||
    fail "the real run's marker does not look like one"
printf 'copied marker, foreign data\n' >"$D/largedir.BBBBBB/round-0001-1/00000000"

# The other look-alikes.
printf 'a file named like largedir'\''s own\n' >"$D/00000001"
printf 'keep me\nline two\n' >"$D/keep.txt"
mkdir -p "$D/largedir.AAAAAA/round-0001-1"
printf 'no marker here\n' >"$D/largedir.AAAAAA/round-0001-1/00000000"
# A link to a dead work directory elsewhere: never to be followed.
ln -s "$victim" "$D/largedir.CCCCCC"
printf 'in the dead run, not ours to judge from here\n' >"$victim/note"

snapshot "$D" >"$T/before"
snapshot "$victim" >"$T/victim-before"

# A normal run.
expect_exit 0 "$LD" -b 2s --start 100 --max-files 3000 -o "$T/res" \
    --label x "$D" >"$T/stdout" 2>"$T/stderr"
[ "$(jq -r .status "$T/res/x.json")" = complete ] ||
    fail "status $(jq -r .status "$T/res/x.json"), expected complete"
[ "$(jq '.rounds | length' "$T/res/x.json")" -ge 1 ] || fail "no rounds"
wd=$(jq -r .meta.work_dir "$T/res/x.json")
case $wd in
"$D"/largedir.??????) ;;
*) fail "work_dir '$wd' is not a largedir.XXXXXX in $D" ;;
esac
case $wd in
*/largedir.AAAAAA | */largedir.BBBBBB | */largedir.CCCCCC)
	fail "the run worked in the look-alike $wd"
	;;
esac
[ ! -e "$wd" ] || fail "the run left its work directory $wd"

snapshot "$D" >"$T/after"
cmp -s "$T/before" "$T/after" || {
	diff "$T/before" "$T/after" >&2 || true
	fail "the run changed what was in $D"
}
snapshot "$victim" >"$T/victim-after"
cmp -s "$T/victim-before" "$T/victim-after" ||
    fail "the run reached through the link $D/largedir.CCCCCC"

# --cleanup: none of the look-alikes is a work directory of ours.
expect_exit 0 "$LD" --cleanup "$D" >"$T/stdout" 2>"$T/stderr"
[ ! -s "$T/stderr" ] || fail "--cleanup wrote to stderr: $(cat "$T/stderr")"
[ "$(cat "$T/stdout")" = "no largedir work directories in $D" ] ||
    fail "--cleanup said: $(cat "$T/stdout")"
snapshot "$D" >"$T/after"
cmp -s "$T/before" "$T/after" || {
	diff "$T/before" "$T/after" >&2 || true
	fail "--cleanup changed what was in $D"
}
snapshot "$victim" >"$T/victim-after"
cmp -s "$T/victim-before" "$T/victim-after" ||
    fail "--cleanup reached through the link $D/largedir.CCCCCC"

# The dead run's own directory is still recognised where it lives (so the
# copy and the link above were spared for the right reason), and only
# largedir's files go: the foreign note stays.
files=$(find "$victim" -path '*/round-*/*' -type f | wc -l | tr -d ' ')
[ "$files" -gt 0 ] || fail "the dead run left no files"
expect_exit 0 "$LD" --cleanup "$T/src" >"$T/stdout"
grep -q "^kept $victim: $files files removed, 1 entr[a-z]* not made by largedir left in place\$" \
    "$T/stdout" || fail "--cleanup of the dead run said: $(cat "$T/stdout")"
[ "$(cat "$victim/note")" = "in the dead run, not ours to judge from here" ] ||
    fail "the note in the dead run's work directory changed"
