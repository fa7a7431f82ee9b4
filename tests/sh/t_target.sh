#!/bin/sh
# largedir -c FILE: targets largedir sets up itself.  A tmpfs and a small
# ext4 image are set up, measured and removed without a trace; keys of the
# file set workload options and the command line wins over them; after
# kill -9 the mount and loop device stay until --cleanup removes them.
# What cannot be set up here (a filesystem the kernel lacks, a device that
# holds one, an image the scratch filesystem has no room for) is refused
# with exit 4 and one line, touching nothing; a bad file, a mount option
# that would mount something else than a fresh filesystem (a bind mount of
# the current directory, ...) or a DIR besides -c is a usage error (exit
# 2, one line), and nothing is mounted.  A failing mkfs exits 4 with its
# last line and keeps its log until cleanup; SIGINT or SIGTERM while mkfs
# runs (slowed down by strace) exit 130 or 143 with one line, and nothing
# of the set-up is left.
# shellcheck source=/dev/null
. "$(dirname "$0")/lib.sh"

S=$T/scratch
ld_abs=$(readlink -f "$LD")
bg=
ld_pid=

# mounts_under DIR: the mount points under DIR.
mounts_under() {
	awk -v p="$1/" 'index($5, p) == 1 { print $5 }' /proc/self/mountinfo
}

# loops_under DIR: the loop devices backed by a file under DIR.
loops_under() {
	for lu_f in /sys/block/loop*/loop/backing_file; do
		[ -r "$lu_f" ] || continue
		lu_b=$(cat "$lu_f" 2>/dev/null) || continue
		case $lu_b in
		"$1"/*)
			lu_d=${lu_f%/loop/backing_file}
			echo "/dev/${lu_d##*/}"
			;;
		esac
	done
}

# cleanup: kill a run still going (and the one strace runs), unmount and
# detach what this test or a run of it left (even when it fails half-way),
# then lib_cleanup.
cleanup() {
	if [ -n "$ld_pid" ]; then	# below strace, which may die first
		kill -9 "$ld_pid" 2>/dev/null || true
	fi
	if [ -n "$bg" ]; then
		kill -9 "$bg" 2>/dev/null || true
		wait "$bg" 2>/dev/null || true
	fi
	mounts_under "$T" | sort -r | while read -r cm; do
		umount "$cm" 2>/dev/null || umount -l "$cm" || true
	done
	loops_under "$T" | while read -r cl; do
		losetup -d "$cl" || true
	done
	lib_cleanup
}
trap cleanup EXIT

# run STATUS NAME ARG...: largedir ARG..., with its stdout and stderr in
# $T/NAME.stdout and $T/NAME.stderr; fail unless it exits with STATUS.
run() {
	r_want=$1 r_name=$2
	shift 2
	set +e
	"$LD" "$@" >"$T/$r_name.stdout" 2>"$T/$r_name.stderr"
	r_got=$?
	set -e
	[ "$r_got" = "$r_want" ] ||
	    fail "$r_name: exit $r_got, expected $r_want: largedir $*:" \
	    "$(cat "$T/$r_name.stderr")"
}

# one_line NAME: the run wrote exactly one line on stderr, none on stdout.
one_line() {
	[ "$(lines "$T/$1.stderr")" -eq 1 ] ||
	    fail "$1: $(lines "$T/$1.stderr") lines on stderr:" \
	    "$(cat "$T/$1.stderr")"
	[ ! -s "$T/$1.stdout" ] ||
	    fail "$1: output on stdout: $(cat "$T/$1.stdout")"
}

# left NAME: fail if the run left anything: a run directory in the
# scratch directory, a mount under $T, a loop device backed by a file in
# the scratch directory.
left() {
	if [ -d "$S" ] && [ -n "$(ls -A "$S")" ]; then
		fail "$1: left in $S: $(ls -A "$S")"
	fi
	[ -z "$(mounts_under "$T")" ] ||
	    fail "$1: left mounted: $(mounts_under "$T")"
	[ -z "$(loops_under "$S")" ] ||
	    fail "$1: left loop devices: $(loops_under "$S")"
	if losetup -a | grep -F "($S/"; then
		fail "$1: losetup -a shows loop devices backed by files in $S"
	fi
}

# meta NAME KEY: .meta.KEY of run NAME's JSON.
meta() {
	jq -r ".meta[\"$2\"] // empty" "$T/res-$1/$1.json"
}

# has_files: a run under $S has made files in a round directory.
has_files() {
	set -- "$S"/target.*/mnt/largedir.*/round-*/*
	[ -e "$1" ]
}

# ---- Bad configs (no root needed): exit 2, one line "FILE:LINE: ..."
cat >"$T/bad.conf" <<EOF
label = bad
fstype = tmpfs
frobnicate = yes
EOF
run 2 bad -c "$T/bad.conf" --scratch "$S" -o "$T/res-bad" --label bad
one_line bad
grep -q "^largedir: $T/bad.conf:3: " "$T/bad.stderr" ||
    fail "bad: stderr is not 'largedir: $T/bad.conf:3: ...':" \
    "$(cat "$T/bad.stderr")"
[ ! -e "$T/res-bad" ] || fail "bad: created its outputs"

cat >"$T/t1.conf" <<EOF
# A small tmpfs.
label = t1
fstype = tmpfs
mount_options = size=64m,nr_inodes=100k
EOF
mkdir "$T/dir"
run 2 dirop -c "$T/t1.conf" --scratch "$S" -o "$T/res-dirop" --label dirop \
    "$T/dir"
one_line dirop
[ ! -e "$T/res-dirop" ] || fail "dirop: created its outputs"
[ -z "$(ls -A "$T/dir")" ] || fail "dirop: wrote into $T/dir"

# ---- An existing directory (path =): its fstype must be what is mounted
# there (exit 2, one line, nothing made); where it is, the run records
# the target as a path with its description and mount options.
fs_here=$(findmnt -no FSTYPE --target "$T/dir")
other=xfs
[ "$fs_here" != xfs ] || other=ext4
printf 'label = p1\ndescription = the scratch directory\nfstype = %s\npath = %s\n' \
    "$other" "$T/dir" >"$T/p1.conf"
run 2 p1 -c "$T/p1.conf" -o "$T/res-p1" -n 10 -N 10
one_line p1
grep -qF "largedir: $T/p1.conf: fstype $other, but $T/dir is on $fs_here: set fstype = $fs_here, or path to a directory on $other" \
    "$T/p1.stderr" || fail "p1: $(cat "$T/p1.stderr")"
[ ! -e "$T/res-p1" ] || fail "p1: created its outputs"
[ -z "$(ls -A "$T/dir")" ] || fail "p1: wrote into $T/dir"
sed -e "s/^fstype = .*/fstype = $fs_here/" -e 's/^label = p1/label = p2/' \
    "$T/p1.conf" >"$T/p2.conf"
run 0 p2 -c "$T/p2.conf" -o "$T/res-p2" -n 10 -N 10 -b 5s
[ "$(meta p2 target_kind)" = path ] ||
    fail "p2: target_kind '$(meta p2 target_kind)', expected path"
[ "$(meta p2 target_description)" = "the scratch directory" ] ||
    fail "p2: no description: $(meta p2 target_description)"
[ -n "$(meta p2 mount_options)" ] || fail "p2: no mount options recorded"
[ -z "$(ls -A "$T/dir")" ] || fail "p2: left in $T/dir"

# ---- Mount options that would mount something else: exit 2, one line
# naming the option and its line, nothing mounted, nothing made.  The
# attack: a tmpfs target with "bind" bind-mounts ./largedir of the
# current directory, and the run measures that, called tmpfs.
mkdir -p "$T/cwd/largedir"
for opt in bind rbind size=64m,bind 'a="x,y",bind' move remount rprivate \
    shared source=/dev/null loop offset=0 sizelimit=1M \
    X-mount.subdir=largedir X-mount.idmap=0:1000:1 x-anything helper=x \
    verity.roothash=00; do
	cat >"$T/mo.conf" <<EOF
label = mo
fstype = tmpfs
mount_options = $opt
EOF
	set +e
	(cd "$T/cwd" && exec "$ld_abs" -c "$T/mo.conf" --scratch "$S" \
	    -o "$T/res-mo" --label mo -b 1s) >"$T/mo.stdout" 2>"$T/mo.stderr"
	rc=$?
	set -e
	[ "$rc" = 2 ] || fail "mo ($opt): exit $rc, expected 2:" \
	    "$(cat "$T/mo.stderr")"
	one_line mo
	want=${opt##*,}
	case $opt in
	*'"'*) want=bind ;;
	esac
	grep -qF "largedir: $T/mo.conf:3: mount_options: '$want' refused: " \
	    "$T/mo.stderr" || fail "mo ($opt): stderr is not" \
	    "'largedir: $T/mo.conf:3: mount_options: '$want' refused: ...':" \
	    "$(cat "$T/mo.stderr")"
	[ ! -e "$T/res-mo" ] || fail "mo ($opt): created its outputs"
	[ ! -e "$S" ] || fail "mo ($opt): created $S"
	[ -z "$(mounts_under "$T")" ] ||
	    fail "mo ($opt): mounted $(mounts_under "$T")"
done
[ -z "$(ls -A "$T/cwd/largedir")" ] || fail "mo: wrote into ./largedir"

# ---- A filesystem this kernel lacks: exit 4, one line naming it.
if ! awk '{ print $NF }' /proc/filesystems | grep -qx reiserfs; then
	cat >"$T/reiser.conf" <<EOF
label = reiser
fstype = reiserfs
mkfs = mkfs.ext4 -q -F
image_size = 64M
EOF
	run 4 reiser -c "$T/reiser.conf" --scratch "$S" -o "$T/res-reiser" \
	    --label reiser
	one_line reiser
	grep -q reiserfs "$T/reiser.stderr" ||
	    fail "reiser: stderr does not name reiserfs:" \
	    "$(cat "$T/reiser.stderr")"
	[ ! -e "$T/res-reiser" ] || fail "reiser: created its outputs"
	left reiser
fi

need_root "sets up loop devices, mkfs and mounts"
need_cmd jq mkfs.ext4 losetup

# ---- 1. tmpfs: mounted, measured, unmounted and removed.
run 0 t1 -c "$T/t1.conf" -b 2s -q --scratch "$S" -o "$T/res-t1" --label t1
j=$T/res-t1/t1.json
jq -e . "$j" >/dev/null || fail "t1: $j is not valid JSON"
[ "$(jq -r .status "$j")" = complete ] ||
    fail "t1: status '$(jq -r .status "$j")', expected complete"
[ "$(meta t1 target_kind)" = tmpfs ] ||
    fail "t1: target_kind '$(meta t1 target_kind)', expected tmpfs"
[ "$(meta t1 fstype)" = tmpfs ] ||
    fail "t1: fstype '$(meta t1 fstype)', expected tmpfs"
[ "$(meta t1 config_file)" = "$T/t1.conf" ] ||
    fail "t1: config_file '$(meta t1 config_file)', expected $T/t1.conf"
left t1

# ---- 2. A small ext4 image on a loop device.
cat >"$T/e.conf" <<EOF
label = e
fstype = ext4
mkfs = mkfs.ext4 -q -F -N 50000
image_size = 128M
mount_options = noatime
EOF
run 0 e -c "$T/e.conf" --start 1000 --max-files 5000 -q --scratch "$S" \
    -o "$T/res-e" --label e
jq -e . "$T/res-e/e.json" >/dev/null || fail "e: its JSON is not valid"
[ "$(jq -r .status "$T/res-e/e.json")" = complete ] ||
    fail "e: status '$(jq -r .status "$T/res-e/e.json")', expected complete"
[ "$(meta e target_kind)" = image ] ||
    fail "e: target_kind '$(meta e target_kind)', expected image"
ld=$(meta e loop_device)
case $ld in
/dev/loop[0-9]*) ;;
*) fail "e: loop_device '$ld' is not /dev/loopN" ;;
esac
case ${ld#/dev/loop} in
*[!0-9]*) fail "e: loop_device '$ld' is not /dev/loopN" ;;
esac
[ "$(meta e mkfs)" = "mkfs.ext4 -q -F -N 50000 $ld" ] ||
    fail "e: mkfs '$(meta e mkfs)', expected 'mkfs.ext4 -q -F -N 50000 $ld'"
[ "$(meta e fstype)" = ext4 ] ||
    fail "e: fstype '$(meta e fstype)', expected ext4"
[ "$(meta e image_size)" = 134217728 ] ||
    fail "e: image_size '$(meta e image_size)', expected 134217728"
[ -z "$(loops_under "$T")" ] || fail "e: left $(loops_under "$T")"
left e

# ---- 3. Workload keys in the file; the command line wins over them.
cat >"$T/w.conf" <<EOF
label = w
fstype = tmpfs
mount_options = size=64m,nr_inodes=100k
budget = 1h
phases = create,list
max-files = 2000
start = 2000
EOF
run 0 w -c "$T/w.conf" -p create,open -q --scratch "$S" -o "$T/res-w" \
    --label w
j=$T/res-w/w.json
[ "$(jq -r '.config.phases' "$j")" = create,open,delete ] ||
    fail "w: config.phases '$(jq -r '.config.phases' "$j")'," \
    "expected create,open,delete"
[ "$(jq -r '.config["max-files"]' "$j")" = 2000 ] ||
    fail "w: config.max-files '$(jq -r '.config["max-files"]' "$j")'," \
    "expected 2000"
[ "$(jq -r '.config.start' "$j")" = 2000 ] ||
    fail "w: config.start '$(jq -r '.config.start' "$j")', expected 2000"
left w

# ---- 4. kill -9 leaves the mount and the loop device; --cleanup undoes.
# Room for the first round of 200,000 files, so the run is in it when
# killed.
cat >"$T/k.conf" <<EOF
label = k
fstype = ext4
mkfs = mkfs.ext4 -q -F -N 250000
image_size = 256M
mount_options = noatime
EOF
"$LD" -c "$T/k.conf" -b 60s --start 200000 -q --scratch "$S" \
    -o "$T/res-k" --label k >"$T/k.stdout" 2>"$T/k.stderr" &
bg=$!
wait_for 30 has_files
kill -9 "$bg"
set +e
wait "$bg"
rc=$?
set -e
bg=
[ "$rc" = 137 ] || fail "k: exit $rc after kill -9, expected 137"
set -- "$S"/target.*
if [ $# -ne 1 ] || [ ! -d "$1" ]; then
	fail "k: run directories in $S: $*"
fi
rd=$1
kd=$(loops_under "$rd")
[ -n "$kd" ] || fail "k: no loop device backed by $rd/image after kill -9"
[ "$(meta k loop_device)" = "$kd" ] ||
    fail "k: loop_device '$(meta k loop_device)', backed by $rd/image: $kd"
[ "$(mounts_under "$T")" = "$rd/mnt" ] ||
    fail "k: after kill -9, mounted under $T: '$(mounts_under "$T")'," \
    "expected $rd/mnt"

run 0 kc --cleanup --scratch "$S"
[ ! -s "$T/kc.stderr" ] ||
    fail "--cleanup wrote to stderr: $(cat "$T/kc.stderr")"
[ "$(lines "$T/kc.stdout")" -eq 1 ] ||
    fail "--cleanup printed $(lines "$T/kc.stdout") lines:" \
    "$(cat "$T/kc.stdout")"
case $(cat "$T/kc.stdout") in
"removed $rd"*) ;;
*) fail "--cleanup did not report removing $rd: $(cat "$T/kc.stdout")" ;;
esac
grep -qxF "removed $rd (unmounted) (detached $kd)" "$T/kc.stdout" ||
    fail "--cleanup printed '$(cat "$T/kc.stdout")', expected" \
    "'removed $rd (unmounted) (detached $kd)'"
[ -z "$(loops_under "$T")" ] || fail "k: left $(loops_under "$T")"
left "k (after --cleanup)"

# ---- 5. A device that holds a filesystem: exit 4, the data untouched.
dd if=/dev/zero of="$T/dev.img" bs=1048576 count=0 seek=64 2>/dev/null
dev=$(losetup --find --show "$T/dev.img")
mkfs.ext4 -q "$dev"
mkdir "$T/m"
mount "$dev" "$T/m"
printf 'precious data\n' >"$T/m/keep.txt"
umount "$T/m"
cat >"$T/d.conf" <<EOF
label = d
fstype = ext4
mkfs = mkfs.ext4 -q -F
device = $dev
EOF
run 4 d -c "$T/d.conf" --scratch "$S" -o "$T/res-d" --label d
one_line d
grep -F "$dev" "$T/d.stderr" | grep -q ext4 ||
    fail "d: stderr does not name $dev and its ext4 signature:" \
    "$(cat "$T/d.stderr")"
[ ! -e "$T/res-d" ] || fail "d: created its outputs"
left d
[ "$(loops_under "$T")" = "$dev" ] ||
    fail "d: $dev is no longer attached to $T/dev.img"
mount -o ro "$dev" "$T/m"
[ "$(cat "$T/m/keep.txt")" = "precious data" ] ||
    fail "d: the file on $dev changed: $(cat "$T/m/keep.txt")"
umount "$T/m"
losetup -d "$dev"

# ---- 6. A scratch filesystem with no room for the image (2 MiB for 1
# GiB; without the check, mkfs fails with an I/O error or the run with
# ENOSPC deep inside the loop device): exit 4, one line with the sizes,
# nothing made, not even the scratch directory.
mount_tmpfs "$T/tiny" size=2m
cat >"$T/big.conf" <<EOF
label = big
fstype = ext4
mkfs = mkfs.ext4 -q -F
image_size = 1G
EOF
run 4 big -c "$T/big.conf" --scratch "$T/tiny/scratch" -o "$T/res-big" \
    --label big
one_line big
want="largedir: $T/big.conf: scratch directory $T/tiny/scratch: 2.0 MiB"
want="$want free, the image needs 1.0 GiB (sparse, but mkfs and the run"
want="$want fill it): use another --scratch or a smaller image_size"
[ "$(cat "$T/big.stderr")" = "$want" ] ||
    fail "big: said '$(cat "$T/big.stderr")', expected '$want'"
[ -z "$(ls -A "$T/tiny")" ] || fail "big: made $(ls -A "$T/tiny")"
[ ! -e "$T/res-big" ] || fail "big: created its outputs"
[ -z "$(loops_under "$T/tiny")" ] || fail "big: left a loop device"
umount "$T/tiny"

# ---- 7. A failing mkfs: exit 4, its last line quoted, its log kept
# (with the marker, nothing else) and named; cleanup removes it.
cat >"$T/mf.conf" <<EOF
label = mf
fstype = ext4
mkfs = mkfs.ext4 -F -b 999
image_size = 32M
EOF
run 4 mf -c "$T/mf.conf" --scratch "$S" -o "$T/res-mf" --label mf
one_line mf
set -- "$S"/target.*
if [ $# -ne 1 ] || [ ! -d "$1" ]; then
	fail "mf: run directories in $S: $*"
fi
rd=$1
want="largedir: $T/mf.conf: mkfs.ext4 failed (exit 1): mkfs.ext4: invalid"
want="$want block size - 999; log kept in $rd/mkfs.log until largedir cleanup"
[ "$(cat "$T/mf.stderr")" = "$want" ] ||
    fail "mf: said '$(cat "$T/mf.stderr")', expected '$want'"
in_rd=$(find "$rd" -mindepth 1 -printf '%f ' | tr ' ' '\n' | sort | tr '\n' ' ')
[ "$in_rd" = ".largedir-target mkfs.log " ] || fail "mf: $rd holds $in_rd"
[ "$(grep -v '^ *$' "$rd/mkfs.log" | tail -n 1)" = \
    "mkfs.ext4: invalid block size - 999" ] ||
    fail "mf: the log ends '$(tail -n 1 "$rd/mkfs.log")'"
[ ! -e "$T/res-mf" ] || fail "mf: created its outputs"
[ -z "$(mounts_under "$T")" ] || fail "mf: left $(mounts_under "$T")"
[ -z "$(loops_under "$S")" ] || fail "mf: left $(loops_under "$S")"
run 0 mfc cleanup --scratch "$S"
[ "$(cat "$T/mfc.stdout")" = "removed $rd" ] ||
    fail "cleanup printed '$(cat "$T/mfc.stdout")', expected 'removed $rd'"
left "mf (after cleanup)"

# ---- 8. SIGINT and SIGTERM while mkfs runs: exit 130 and 143, one line,
# no outputs, and nothing of the set-up left: no mkfs, mount, loop device,
# image or run directory.  strace holds each pwrite64 back 400 ms, so that
# mkfs.ext4 takes seconds (about 20 of them on a loop device with 4 KiB
# blocks) instead of a tenth of one.
need_strace
cat >"$T/slow.conf" <<EOF
label = slow
fstype = ext4
mkfs = mkfs.ext4 -F
image_size = 64M
EOF

# below PID: print the pid of the process below PID (among its children
# and theirs) that runs largedir: under strace, its tracee.
below() {
	for b_c in $(pgrep -P "$1"); do
		if [ "$(readlink "/proc/$b_c/exe")" = "$ld_abs" ]; then
			echo "$b_c"
			return 0
		fi
		below "$b_c" && return 0
	done
	return 1
}

# mkfs_runs: largedir, below the background job $bg, runs mkfs.ext4; set
# $ld_pid and $mk_pid to theirs.
mkfs_runs() {
	ld_pid=$(below "$bg") || return 1
	mk_pid=$(pgrep -P "$ld_pid" -x mkfs.ext4) || return 1
}

for sig in INT:130 TERM:143; do
	name=${sig%:*} want=${sig#*:}
	traced -f -o /dev/null -e trace=pwrite64 \
	    -e inject=pwrite64:delay_enter=400000 "$LD" -c "$T/slow.conf" \
	    --scratch "$S" -o "$T/res-slow" --label slow \
	    >"$T/slow.stdout" 2>"$T/slow.stderr" &
	bg=$!
	wait_for 30 mkfs_runs
	kill -"$name" "$ld_pid"
	set +e
	wait "$bg"
	rc=$?
	set -e
	bg=
	ld_pid=
	[ "$rc" = "$want" ] || fail "slow: exit $rc after SIG$name," \
	    "expected $want: $(cat "$T/slow.stderr")"
	one_line slow
	pat="largedir: $T/slow\\.conf: interrupted by SIG$name while running"
	pat="$pat mkfs\\.ext4 on /dev/loop[0-9]*: set-up undone; nothing"
	pat="$pat measured, no outputs written"
	grep -qx "$pat" "$T/slow.stderr" ||
	    fail "slow: said '$(cat "$T/slow.stderr")' after SIG$name"
	! kill -0 "$mk_pid" 2>/dev/null || fail "slow: mkfs.ext4 still runs"
	[ ! -e "$T/res-slow" ] || fail "slow: created its outputs"
	left "slow (SIG$name)"
done
