#!/bin/sh
# The tree layout (--layout tree) on a real filesystem: strace counts one
# mkdirat per directory, one call per file in each phase, each on the
# path of its own directory (file i in d(i/F)), and one rmdir per
# directory; nothing is left and foreign files stay; a round ends at the
# free inodes counting the directories, a first round they cannot hold
# is refused, and one that fills the filesystem stops with ENOSPC, one
# line, nothing left; Ctrl-C and kill -9 in the middle of a tree leave
# nothing after --cleanup.  The inode limits and ENOSPC are
# t_treeinodes.sh's (they need root to mount a tmpfs).
# shellcheck source=/dev/null
. "$(dirname "$0")/lib.sh"
need_dep jq jq
need_strace

D=$T/dir
mkdir "$D"
printf 'keep me\n' >"$D/keep.txt"
mkdir "$D/d00000001"
printf 'named like largedir'\''s own\n' >"$D/d00000001/00000005"
snapshot "$D" >"$T/before"

# --- strace: 40 directories of 5 files, every phase once ---
expect_exit 0 traced -f -o "$T/log" -e trace=mkdirat,openat,unlinkat,newfstatat,fstatat64,statx \
    "$LD" -q --layout tree --dirs 40 --files-per-dir 5 \
    --max-files 200 --seed 3 --phases create,open,list,liststat,delete \
    -o "$T/res-strace" --label s "$D"
# count WHAT PATTERN WANT: lines of the log matching PATTERN.
count() {
	got=$(grep -cE "$2" "$T/log" || true)
	[ "$got" -eq "$3" ] || fail "strace: $got $1, want $3"
}
count mkdirs 'mkdirat\([0-9]+, "d[0-9]{8}", 0700\)' 40
count creates 'openat\([0-9]+, "d[0-9]{8}/[0-9]{8}", O_WRONLY\|O_CREAT\|O_EXCL' 200
count opens 'openat\([0-9]+, "d[0-9]{8}/[0-9]{8}", O_RDONLY\)' 200
count stats '(newfstatat|fstatat64|statx)\([0-9]+, "d[0-9]{8}/[0-9]{8}"' 200
count unlinks 'unlinkat\([0-9]+, "d[0-9]{8}/[0-9]{8}", 0\)' 200
count rmdirs 'unlinkat\([0-9]+, "d[0-9]{8}", AT_REMOVEDIR\)' 40
# Each directory opened to be listed, twice (list, liststat).
count listings 'openat\([0-9]+, "d[0-9]{8}", O_RDONLY[|A-Z_]*O_DIRECTORY' 80
# File i in directory i / 5, each created once.
grep -E 'openat\([0-9]+, "d[0-9]{8}/[0-9]{8}", O_WRONLY' "$T/log" |
    sed 's|.*"d\([0-9]*\)/\([0-9]*\)".*|\1 \2|' |
    awk '$1 + 0 != int($2 / 5) { bad++ } { seen[$2]++ }
	END { for (k in seen) if (seen[k] != 1) bad++; exit bad > 0 }' ||
    fail "strace: a file created outside its directory, or twice"
# The directories go in order, each after its last file.
grep -E 'unlinkat\([0-9]+, "d[0-9]{8}(/[0-9]{8})?", ' "$T/log" |
    sed 's|.*"d\([0-9]*\)\(/[0-9]*\)\{0,1\}".*|\1|' | uniq |
    awk 'NR - 1 != $1 + 0 { exit 1 }' ||
    fail "strace: delete not directory by directory"
[ "$(jq -r '.rounds[0].dirs' "$T/res-strace/s.json")" = 40 ] ||
    fail "strace: the summary does not say 40 dirs"
unchanged "$D" strace

# --- rows, nothing left, foreign files kept, two rounds, repeated ---
expect_exit 0 "$LD" -q --layout tree --files-per-dir 7 --start 1400 \
    --max-files 2100 --repeat 2 --phases list -o "$T/res-rows" --label r "$D"
check_outputs "$T/res-rows" r complete
j=$T/res-rows/r.json
[ "$(jq -r '[.rounds[].dirs] | map(tostring) | join(" ")' "$j")" = \
    "200 200 300 300" ] || fail "rows: dirs $(jq -c '[.rounds[].dirs]' "$j")"
[ "$(jq -r '[.rounds[].delete_ops] | map(tostring) | join(" ")' "$j")" = \
    "1600 1600 2400 2400" ] || fail "rows: delete_ops is not files + dirs"
[ "$(jq -r '.config."files-per-dir"' "$j")" = 7 ] ||
    fail "rows: files-per-dir not recorded"
unchanged "$D" rows

# --- a flat-layout option with a tree, and the other way round ---
expect_exit 2 "$LD" --dirs 5 "$D" 2>"$T/stderr"
grep -q -- '--dirs goes with --layout tree' "$T/stderr" ||
    fail "--dirs without a tree: $(cat "$T/stderr")"
expect_exit 2 "$LD" --layout tree -p rmrf "$D" 2>"$T/stderr"
grep -q -- 'rmrf goes with --layout flat' "$T/stderr" ||
    fail "rmrf in a tree: $(cat "$T/stderr")"

# --- SIGINT in the middle of a tree: exit 130, nothing left ---
"$LD" -q --layout tree --dirs 20000 --sync none -o "$T/res-int" \
    --label i "$D" >/dev/null 2>"$T/stderr-int" &
bg=$!
trap '[ -z "${bg:-}" ] || kill -9 "$bg" 2>/dev/null || true; lib_cleanup' EXIT
wait_for 30 sh -c "ls -d '$D'/largedir.*/round-0001-1/d00000100 >/dev/null 2>&1"
kill -INT "$bg"
set +e
wait "$bg"
rc=$?
set -e
bg=
[ "$rc" = 130 ] || fail "SIGINT: exit $rc: $(cat "$T/stderr-int")"
unchanged "$D" SIGINT

# --- kill -9 in the middle of a tree, then --cleanup ---
"$LD" -q --layout tree --dirs 20000 --sync none -o "$T/res-kill" \
    --label k "$D" >/dev/null 2>&1 &
bg=$!
wait_for 30 sh -c "ls '$D'/largedir.*/round-0001-1/d00000100/00001500 >/dev/null 2>&1"
kill -9 "$bg"
wait "$bg" || true
bg=
grep -q ' tree 15$' "$D"/largedir.*/.largedir-round ||
    fail "kill -9: the round record does not name the tree"
expect_exit 0 "$LD" --cleanup "$D" >"$T/stdout" 2>&1
grep -q '^removed ' "$T/stdout" || fail "cleanup: $(cat "$T/stdout")"
unchanged "$D" "kill -9 and --cleanup"

exit 0
