#!/bin/sh
# largedir suite: every target runs in turn with the same workload, the
# outputs of all land in one directory, a target that cannot be set up is
# reported and the suite goes on (exit 5), and nothing of largedir's is
# left in the scratch directory, the mount table or the loop devices.
# Bad suites (no config, a bad one among good ones, two with one label)
# exit 2 before anything runs.
# shellcheck source=/dev/null
. "$(dirname "$0")/lib.sh"
need_cmd jq

# conf NAME LINE...: write the config $T/NAME.conf.
conf() {
	name=$1
	shift
	printf '%s\n' "$@" >"$T/$name.conf"
}
conf a "label = sa" "fstype = tmpfs" "mount_options = size=64m,nr_inodes=100k"
conf b "label = sb" "fstype = ext4" "mkfs = mkfs.ext4 -q -F -N 50000" \
    "image_size = 128M"
conf c "label = sc" "fstype = reiserfs" "mkfs = mkfs.ext4 -q -F" \
    "image_size = 128M"
conf d "label = sa" "fstype = tmpfs"
conf e "label = se" "fstype = tmpfs" "bogus = 1"

# Refused before anything runs: exit 2, one line, no outputs.
refuse() {
	set +e
	"$LD" suite -o "$T/refused" --scratch "$T/scratch" "$@" \
	    >"$T/out" 2>"$T/err"
	rc=$?
	set -e
	[ "$rc" = 2 ] || fail "suite $*: exit $rc, expected 2"
	[ "$(lines "$T/err")" = 1 ] || fail "suite $*: $(cat "$T/err")"
	[ ! -e "$T/refused" ] || fail "suite $*: made outputs"
}
refuse
grep -q "name at least one config" "$T/err" || fail "$(cat "$T/err")"
refuse "$T/a.conf" "$T/e.conf"
grep -q "^largedir: $T/e.conf:3: unknown key 'bogus'" "$T/err" ||
    fail "$(cat "$T/err")"
refuse "$T/a.conf" "$T/d.conf"
grep -q "same label 'sa'" "$T/err" || fail "$(cat "$T/err")"
refuse -l x "$T/a.conf"

need_root "targets need loop devices, mkfs and mount"

# --total-budget is split evenly: three targets of 1 s each.
# A third target mounts read-only: it is set up, but its work directory
# cannot be made, so it measures nothing and leaves no outputs; the
# suite goes on (exit 5), and its LABEL.failed names it on the page.
conf f "label = sf" "fstype = tmpfs" "mount_options = size=64m,nr_inodes=100k"
conf r "label = sr" "fstype = tmpfs" "mount_options = size=64m,ro"
expect_exit 5 "$LD" suite --total-budget 3s -q --scratch "$T/scratch" \
    -o "$T/split" "$T/a.conf" "$T/f.conf" "$T/r.conf" >"$T/out" 2>"$T/err"
grep -q "^sr  *stopped by the fs " "$T/out" || fail "sr: $(cat "$T/out")"
# One line for sr, beside the warnings the others' runs may give.
grep -v 'warning: ' "$T/err" >"$T/errors" || true
{ [ "$(lines "$T/errors")" = 1 ] &&
    grep -q 'Read-only file system' "$T/errors"; } ||
    fail "sr: stderr $(cat "$T/err")"
for f in "$T"/split/sr.*; do
	[ "$f" = "$T/split/sr.failed" ] || fail "sr left $f"
done
grep -q 'Read-only file system' "$T/split/sr.failed" ||
    fail "sr.failed: $(cat "$T/split/sr.failed")"
grep -q '<td>sr</td>.*<td>did not start: .*Read-only file system' \
    "$T/split/index.html" || fail "the page does not list sr"
for l in sa sf; do
	[ "$(jq -r '.config.budget' "$T/split/$l.json")" = 1.000s ] ||
	    fail "$l: budget $(jq -r '.config.budget' "$T/split/$l.json")"
	# Each target's share as a person reads it, and the suite's command
	# as typed, which the page shows.
	jq -r .meta.command "$T/split/$l.json" | grep -q -- ' --budget=1s$' ||
	    fail "$l: command $(jq -r .meta.command "$T/split/$l.json")"
	jq -r .meta.suite_command "$T/split/$l.json" |
	    grep -q -- '^largedir suite --total-budget 3s -q ' ||
	    fail "$l: suite_command $(jq -r .meta.suite_command \
	    "$T/split/$l.json")"
done
grep -q 'Command: <code>largedir suite --total-budget 3s -q ' \
    "$T/split/index.html" || fail "the page does not show the suite's command"
need_cmd mkfs.ext4 mkfs.xfs mkfs.btrfs losetup
set +e
"$LD" suite --start 1000 --max-files 3000 -q --scratch "$T/scratch" \
    -o "$T/res" "$T/a.conf" "$T/b.conf" "$T/c.conf" >"$T/out" 2>"$T/err"
rc=$?
set -e
if grep -qw reiserfs /proc/filesystems; then
	want=0
else
	want=5
fi
[ "$rc" = "$want" ] || fail "suite: exit $rc, expected $want: $(cat "$T/err")"
for l in sa sb; do
	for ext in out csv json; do
		[ -s "$T/res/$l.$ext" ] || fail "no $l.$ext"
	done
	[ "$(jq -r .status "$T/res/$l.json")" = complete ] ||
	    fail "$l did not complete"
	[ "$(jq '.rounds | length' "$T/res/$l.json")" = 4 ] ||
	    fail "$l: not the 4 rounds 1000..3000"
done
[ "$(jq -r .meta.fstype "$T/res/sb.json")" = ext4 ] || fail "sb is not ext4"
grep -q "^sa  *complete  *3,000 " "$T/out" || fail "no summary line for sa"
grep -q "^sb  *complete  *3,000 " "$T/out" || fail "no summary line for sb"
if [ "$want" = 5 ]; then
	grep -q "^sc  *not set up" "$T/out" || fail "sc not reported"
	grep -q "reiserfs" "$T/err" || fail "no reason for sc"
	# The page lists it too, with the reason its run gave.
	grep -q '<tr class="row"><td>sc</td>.*<td>did not start: .*reiserfs' \
	    "$T/res/index.html" || fail "the page does not list sc"
	grep -q '<td>nicht gestartet: .*reiserfs' "$T/res/index.de.html" ||
	    fail "the German page does not list sc"
fi
# Nothing of largedir's is left.
if [ -d "$T/scratch" ] && [ -n "$(ls -A "$T/scratch")" ]; then
	fail "left in the scratch directory: $(ls -A "$T/scratch")"
fi
if grep -q " $T/" /proc/self/mountinfo; then
	fail "still mounted: $(grep " $T/" /proc/self/mountinfo)"
fi
for f in /sys/block/loop*/loop/backing_file; do
	[ -r "$f" ] || continue
	case $(cat "$f") in
	"$T"/*) fail "loop device still attached: $f" ;;
	esac
done

# The shipped configs, as CI runs them: a short suite over four of them,
# with images of 32 GiB, sparse (largedir checks that they would fit).
need_space "$T" 33 "the 32 GiB sparse images of the shipped configs"
res=$T/shipped
set +e
"$LD" suite --start 1000 --max-files 2250 -q --scratch "$T/scratch" \
    -o "$res" "$TOP/configs/ext4-nodirindex.conf" "$TOP/configs/xfs.conf" \
    "$TOP/configs/btrfs.conf" "$TOP/configs/tmpfs.conf" >"$T/out" 2>"$T/err"
rc=$?
set -e
[ "$rc" = 0 ] || fail "shipped suite: exit $rc: $(cat "$T/out" "$T/err")"
for l in ext4-nodirindex xfs btrfs tmpfs; do
	[ "$(jq -r .status "$res/$l.json")" = complete ] ||
	    fail "$l did not complete"
	[ "$(jq '.rounds | length' "$res/$l.json")" = 3 ] ||
	    fail "$l: not the 3 rounds 1000..2250"
	grep -q "^$l  *complete  *2,250 " "$T/out" ||
	    fail "no summary line for $l: $(cat "$T/out")"
done
[ "$(jq -r .meta.fstype "$res/xfs.json")" = xfs ] || fail "xfs is not xfs"
[ "$(jq -r .meta.fstype "$res/btrfs.json")" = btrfs ] || fail "not btrfs"
if [ -d "$T/scratch" ] && [ -n "$(ls -A "$T/scratch")" ]; then
	fail "left in the scratch directory: $(ls -A "$T/scratch")"
fi
grep -q " $T/" /proc/self/mountinfo && fail "still mounted under $T"
if losetup -a 2>/dev/null | grep -q "$T/"; then
	fail "loop device still attached: $(losetup -a | grep "$T/")"
fi
exit 0
