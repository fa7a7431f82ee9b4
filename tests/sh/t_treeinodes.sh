#!/bin/sh
# The tree layout and the inodes of a small tmpfs: the run ends at the
# free inodes, counting one for each directory besides the files (exit
# 0); a first round (--dirs) that needs more is refused before anything
# is made (exit 2, one line with the numbers); a tree that fills the data
# blocks stops with ENOSPC in create (exit 3, one line naming the
# reason); and the tmpfs is as it was.
# shellcheck source=/dev/null
. "$(dirname "$0")/lib.sh"
need_root "mounts a tmpfs"
need_dep jq jq

m=$T/inodes
mount_tmpfs "$m" size=8m,nr_inodes=1000
printf 'foreign\n' >"$m/keep.txt"
snapshot "$m" >"$T/before"
# The free inodes less the work directory, its mark and 64 kept back; of
# every 6, 5 files and a directory (whole groups of 6: the division
# comes first on purpose).
room=$(( $(stat -f -c %d "$m") - 2 - 64 ))
# shellcheck disable=SC2017
nmax=$(( room / 6 * 5 + (room % 6 > 1 ? room % 6 - 1 : 0) ))
expect_exit 0 "$LD" -q --layout tree --files-per-dir 5 --start 300 -g 2 \
    -o "$T/res-inodes" --label x "$m"
got=$(jq -r '[.rounds[].n] | map(tostring) | join(" ")' "$T/res-inodes/x.json")
[ "$got" = "300 600 $nmax" ] || fail "inodes: rounds $got, want 300 600 $nmax"
grep -qx "# n_limit: $nmax (the filesystem's free inodes, less 64 and one for each directory)" \
    "$T/res-inodes/x.out" || fail "inodes: no n_limit $nmax in the .out"

# 300 directories and 1,500 files do not fit in 1,000 inodes: refused,
# naming the option and the numbers, before any output exists.
expect_exit 2 "$LD" -q --layout tree --files-per-dir 5 --dirs 300 \
    -o "$T/res-dirs" --label x "$m" 2>"$T/stderr"
free=$(( $(stat -f -c %d "$m") - 2 ))
want="largedir: --dirs 300 (1,500 files): the filesystem has $free free inodes, room for n up to $nmax (64 are kept back, and one for each directory)"
[ "$(cat "$T/stderr")" = "$want" ] ||
    fail "--dirs 300: stderr is not '$want': $(cat "$T/stderr")"
[ ! -e "$T/res-dirs" ] || fail "--dirs 300: made $T/res-dirs"
snapshot "$m" >"$T/after"
cmp -s "$T/before" "$T/after" || fail "--dirs 300: the tmpfs is not as it was"

# 10 directories of 5 files of 64 KiB do not fit in 1 MiB: ENOSPC.
umount "$m"
mount_tmpfs "$m" size=1m,nr_inodes=1000
printf 'foreign\n' >"$m/keep.txt"
snapshot "$m" >"$T/before"
expect_exit 3 "$LD" -q --layout tree --files-per-dir 5 --dirs 10 \
    --file-size 64k -o "$T/res-enospc" --label x "$m" 2>"$T/stderr"
grep -v 'warning: ' "$T/stderr" >"$T/errors" || true
[ "$(lines "$T/errors")" -eq 1 ] ||
    fail "ENOSPC: stderr is not one line: $(cat "$T/stderr")"
grep -q 'No space left on device: create in round 1' "$T/errors" ||
    fail "ENOSPC: stderr does not name the reason: $(cat "$T/stderr")"
j=$T/res-enospc/x.json
[ "$(jq -r .stop.errno "$j")" = ENOSPC ] ||
    fail "ENOSPC: stop.errno $(jq -r .stop.errno "$j")"
[ "$(jq -r .stop.phase "$j")" = create ] ||
    fail "ENOSPC: stop.phase $(jq -r .stop.phase "$j")"
snapshot "$m" >"$T/after"
cmp -s "$T/before" "$T/after" || {
	diff "$T/before" "$T/after" >&2 || true
	fail "the tmpfs is not as it was"
}
