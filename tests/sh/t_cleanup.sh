#!/bin/sh
# largedir --cleanup (or largedir cleanup) after kill -9: the dead run's
# work directory is found by its marker and removed, and --cleanup says
# what it removed.  A foreign file planted inside a dead run's round
# directory stays, and so do that round directory and its work directory
# (kept and reported); largedir's own files around it go.  The work
# directory of a run that is still going is reported as in use and not
# touched, by either spelling.
# shellcheck source=/dev/null
. "$(dirname "$0")/lib.sh"
need_cmd jq

# sums FILE...: the checksums of FILE...
sums() {
	cksum "$@"
}

# has_workdir JSON: the run has recorded its work directory.
has_workdir() {
	hw=$(jq -r '.meta.work_dir // empty' "$1" 2>/dev/null) || return 1
	[ -n "$hw" ]
}

# start NAME: start a run in $D whose first round is long; wait until it
# has created files.  Sets bg (its pid) and wd (its work directory).
start() {
	"$LD" -b 60s --start 1000000 --sync none -o "$T/res-$1" --label x \
	    "$D" >"$T/stdout-$1" 2>"$T/stderr-$1" &
	bg=$!
	wait_for 30 has_workdir "$T/res-$1/x.json"
	wd=$(jq -r .meta.work_dir "$T/res-$1/x.json")
	wait_for 30 test -e "$wd/round-0001-1/00000100"
}

# kill9: kill -9 the run, and check what it leaves: its work directory
# with a marker naming it, and complete outputs that say "running".
kill9() {
	kill -9 "$bg"
	wait "$bg" || true
	grep -qx "pid: $bg" "$wd/.largedir-work" ||
	    fail "$wd: no marker naming pid $bg"
	[ "$(jq -r .status "$T/res-$1/x.json")" = running ] ||
	    fail "killed run: outputs say '$(jq -r .status "$T/res-$1/x.json")'"
	bg=
}

# entries DIR: the names in DIR, sorted, on one line.
entries() {
	(cd "$1" && find . ! -name . -prune | sed 's|^\./||' | sort |
	    tr '\n' ' ' | sed 's/ $//')
}

# nfiles DIR: the number of files in the round directories of DIR.
nfiles() {
	find "$1" -path '*/round-*/*' -type f | wc -l | tr -d ' '
}

bg=
trap '[ -z "$bg" ] || kill -9 "$bg" 2>/dev/null || true; lib_cleanup' EXIT

D=$T/dir
mkdir "$D"
printf 'keep me\n' >"$D/keep.txt"
printf 'named like largedir'\''s own\n' >"$D/00000002"

# Run A: killed, nothing foreign inside.
start a
kill9 a
wda=$wd
na=$(nfiles "$wda")
[ "$na" -gt 0 ] || fail "run A left no files to clean up"

# Run B: killed, then a foreign file is planted in its round directory.
start b
kill9 b
wdb=$wd
nb=$(nfiles "$wdb")
[ "$nb" -gt 0 ] || fail "run B left no files to clean up"
printf 'planted in a round directory\n' >"$wdb/round-0001-1/foreign.txt"
sums "$D/keep.txt" "$D/00000002" "$wdb/round-0001-1/foreign.txt" \
    >"$T/before"

expect_exit 0 "$LD" --cleanup "$D" >"$T/stdout" 2>"$T/stderr"
[ ! -s "$T/stderr" ] || fail "--cleanup wrote to stderr: $(cat "$T/stderr")"
grep -qx "removed $wda ($na files)" "$T/stdout" ||
    fail "--cleanup did not report removing $wda ($na files): $(cat "$T/stdout")"
# One foreign entry: the file (the round directory holding it is largedir's).
grep -qx "kept $wdb: $nb files removed, 1 entr[a-z]* not made by largedir left in place" \
    "$T/stdout" ||
    fail "--cleanup did not report keeping $wdb: $(cat "$T/stdout")"
[ "$(lines "$T/stdout")" -eq 2 ] ||
    fail "--cleanup said more: $(cat "$T/stdout")"
[ ! -e "$wda" ] || fail "$wda is still there"
[ "$(entries "$wdb")" = ".largedir-round .largedir-work round-0001-1" ] ||
    fail "$wdb holds: $(entries "$wdb")"
[ "$(entries "$wdb/round-0001-1")" = foreign.txt ] ||
    fail "$wdb/round-0001-1 holds: $(entries "$wdb/round-0001-1")"
sums "$D/keep.txt" "$D/00000002" "$wdb/round-0001-1/foreign.txt" |
    cmp -s "$T/before" - || fail "a foreign file changed"

# Run C is still going: --cleanup must leave it alone.
start c
wdc=$wd
cksum <"$wdc/.largedir-work" >"$T/marker"
expect_exit 0 "$LD" --cleanup "$D" >"$T/stdout" 2>"$T/stderr"
[ ! -s "$T/stderr" ] || fail "--cleanup wrote to stderr: $(cat "$T/stderr")"
grep -qx "kept $wdc: in use by a running largedir" "$T/stdout" ||
    fail "--cleanup did not report $wdc in use: $(cat "$T/stdout")"
grep -qx "kept $wdb: 0 files removed, 1 entr[a-z]* not made by largedir left in place" \
    "$T/stdout" || fail "--cleanup did not report $wdb again: $(cat "$T/stdout")"
[ "$(lines "$T/stdout")" -eq 2 ] ||
    fail "--cleanup said more: $(cat "$T/stdout")"
# The verb spelling does the same.
expect_exit 0 "$LD" cleanup "$D" >"$T/stdout2" 2>"$T/stderr"
cmp -s "$T/stdout" "$T/stdout2" ||
    fail "largedir cleanup said: $(cat "$T/stdout2")"
[ "$(cksum <"$wdc/.largedir-work")" = "$(cat "$T/marker")" ] ||
    fail "the running run's marker changed"
for f in 00000000 00000001 00000050 00000100; do
	[ -e "$wdc/round-0001-1/$f" ] ||
	    fail "--cleanup removed $f of the running run"
done
kill -s INT "$bg"
set +e
wait "$bg"
rc=$?
set -e
bg=
[ "$rc" = 130 ] || fail "run C: exit $rc after SIGINT, expected 130"
[ "$(jq -r .status "$T/res-c/x.json")" = interrupted ] ||
    fail "run C: status '$(jq -r .status "$T/res-c/x.json")'"
[ ! -e "$wdc" ] || fail "run C left $wdc"
sums "$D/keep.txt" "$D/00000002" "$wdb/round-0001-1/foreign.txt" |
    cmp -s "$T/before" - || fail "a foreign file changed"
[ "$(entries "$D")" = "00000002 keep.txt $(basename "$wdb")" ] ||
    fail "$D holds: $(entries "$D")"
