#!/bin/sh
# The target keys on the command line (--source, --mount-options,
# --image-size, ...): with -c FILE they replace the file's values.  A bad
# value is a usage error naming the option, and so is a target that no
# longer fits together (naming the file and the option); without -c, or
# given to a suite, they are refused: exit 2, one line, nothing made.  As
# root: the shipped nfs3 config pointed at another server still exits 4
# on a kernel without an NFS client; a tmpfs and an ext2 target whose
# mount options, image size and mkfs come from the command line are set
# up with them, and the outputs record the values used, the options that
# set them (target_overrides) and the command line.
# shellcheck source=/dev/null
. "$(dirname "$0")/lib.sh"

S=$T/scratch
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
NFS3=$TOP/configs/nfs3.conf

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

# refused NAME LINE ARG...: largedir ARG... exits 2 with exactly the line
# "largedir: LINE" on stderr, nothing on stdout, and makes nothing.
refused() {
	rf_name=$1 rf_line=$2
	shift 2
	run 2 "$rf_name" "$@" --scratch "$S" -o "$T/res-$rf_name"
	[ "$(cat "$T/$rf_name.stderr")" = "largedir: $rf_line" ] ||
	    fail "$rf_name: stderr is not 'largedir: $rf_line':" \
	    "$(cat "$T/$rf_name.stderr")"
	[ ! -s "$T/$rf_name.stdout" ] ||
	    fail "$rf_name: output on stdout: $(cat "$T/$rf_name.stdout")"
	[ ! -e "$T/res-$rf_name" ] || fail "$rf_name: made its outputs"
	[ ! -e "$S" ] || fail "$rf_name: made $S"
}

# meta NAME KEY: the metadata line KEY of run NAME's .out file.
meta() {
	sed -n "s/^# $2: //p" "$T/res-$1/$1.out"
}

# ---- -h lists them.
expect_exit 0 "$LD" -h >"$T/help"
for o in description device fstype image-size mkfs mount-options path \
    source url wipe; do
	grep -q "^      --$o" "$T/help" || fail "-h does not list --$o"
done

# ---- Usage errors, as anyone: exit 2, one line.
mkdir "$T/dir"
needs="needs -c FILE: it changes the target a config file describes (a"
needs="$needs directory to measure is the operand)"
refused noconf "--source $needs" --source 127.0.0.1:/x "$T/dir"
refused nopath "--path $needs" --path "$T/dir"
refused suite "suite: --mount-options: target keys are per target: set them in each config file" \
    suite --mount-options vers=3 "$NFS3"
refused badsrc "--source 'x': not HOST:/PATH (an NFS export, e.g. 127.0.0.1:/export)" \
    -c "$NFS3" --source x
refused bind "--mount-options: 'bind' refused: a bind mount shows an existing directory, not a fresh filesystem" \
    -c "$NFS3" --mount-options vers=3,bind
refused size "--image-size '1k': out of range (16M to 16T)" \
    -c "$TOP/configs/ext2.conf" --image-size 1k
refused vers "$NFS3 with --mount-options: mount_options: NFS version 4 with fstype nfs: the kernel mounts NFSv4 as nfs4, so say fstype = nfs4" \
    -c "$NFS3" --mount-options vers=4
refused image "$NFS3 with --source --image-size: source with image_size: an NFS export needs no image" \
    -c "$NFS3" --source 127.0.0.1:/x --image-size 1G
grep -n '^source' "$NFS3" >"$T/srcline"
refused both "$NFS3:$(cut -d: -f1 "$T/srcline") with --path: path and source are both set: a target is an existing mount or an export to mount" \
    -c "$NFS3" --path "$T/dir"
[ -z "$(ls -A "$T/dir")" ] || fail "wrote into $T/dir"

need_root "largedir sets up -c targets as root only"
need_cmd jq

# ---- The shipped nfs3 config, pointed at another server: exit 4 on a
# kernel without an NFS client, one line, nothing mounted or made.
if ! awk '{ print $NF }' /proc/filesystems | grep -qx 'nfs4\{0,1\}' &&
    ! grep -qs '^alias fs-nfs4\{0,1\} ' \
    "/lib/modules/$(uname -r)/modules.alias"; then
	grep ' nfs' /proc/self/mountinfo >"$T/before" || true
	run 4 nfs -c "$NFS3" --source 127.0.0.1:/x \
	    --mount-options vers=3,nordirplus --scratch "$S" -o "$T/res-nfs" \
	    -b 2s
	[ "$(lines "$T/nfs.stderr")" -eq 1 ] ||
	    fail "nfs: $(lines "$T/nfs.stderr") lines on stderr"
	grep -q "^largedir: $NFS3: this kernel has no NFS client (no nfs in /proc/filesystems" \
	    "$T/nfs.stderr" ||
	    fail "nfs: stderr does not say there is no NFS client:" \
	    "$(cat "$T/nfs.stderr")"
	grep ' nfs' /proc/self/mountinfo >"$T/after" || true
	cmp -s "$T/before" "$T/after" || fail "nfs: mounts changed"
	[ ! -e "$T/res-nfs" ] || fail "nfs: made its outputs"
	if [ -d "$S" ] && [ -n "$(ls -A "$S")" ]; then
		fail "nfs: left in $S: $(ls -A "$S")"
	fi
else
	echo "an NFS client here: the exit 4 case is not run"
fi

# ---- tmpfs: the shipped config with the mount options of the command
# line (its own ask for 8g), and a description.
run 0 tmp -c "$TOP/configs/tmpfs.conf" \
    --mount-options size=64m,nr_inodes=100k --description 'small tmpfs' \
    -b 1s -n 100 -N 300 -q --events none --scratch "$S" -o "$T/res-tmp" \
    --label tmp
[ "$(meta tmp target_mount_options_requested)" = size=64m,nr_inodes=100k ] ||
    fail "tmp: target_mount_options_requested is" \
    "'$(meta tmp target_mount_options_requested)'"
meta tmp super_options | grep -q size=65536k ||
    fail "tmp: mounted with '$(meta tmp super_options)', not size=64m"
[ "$(meta tmp target_description)" = 'small tmpfs' ] ||
    fail "tmp: target_description is '$(meta tmp target_description)'"
[ "$(meta tmp target_overrides)" = '--mount-options --description' ] ||
    fail "tmp: target_overrides is '$(meta tmp target_overrides)'"
meta tmp command | grep -qF -- "--mount-options size=64m,nr_inodes=100k" ||
    fail "tmp: command is '$(meta tmp command)'"
[ "$(jq -r '.meta.target_overrides' "$T/res-tmp/tmp.json")" = \
    '--mount-options --description' ] || fail "tmp: not in the JSON"
[ "$(jq -r .status "$T/res-tmp/tmp.json")" = complete ] ||
    fail "tmp: status $(jq -r .status "$T/res-tmp/tmp.json")"

# ---- ext2 on a loop image: the shipped config asks for 32G and 25M
# inodes; the command line makes it 64M with a plain mkfs.
if command -v mkfs.ext2 >/dev/null && command -v losetup >/dev/null &&
    awk '{ print $NF }' /proc/filesystems | grep -qx 'ext[24]'; then
	run 0 e2 -c "$TOP/configs/ext2.conf" --image-size 64M \
	    --mkfs 'mkfs.ext2 -q -F' --mount-options noatime,nodiratime \
	    -b 1s -n 100 -N 300 -q --events none --scratch "$S" \
	    -o "$T/res-e2" --label e2
	[ "$(meta e2 image_size)" = 67108864 ] ||
	    fail "e2: image_size is '$(meta e2 image_size)'"
	meta e2 mkfs | grep -q '^mkfs.ext2 -q -F /dev/loop' ||
	    fail "e2: mkfs is '$(meta e2 mkfs)'"
	[ "$(meta e2 target_mount_options_requested)" = noatime,nodiratime ] ||
	    fail "e2: target_mount_options_requested is" \
	    "'$(meta e2 target_mount_options_requested)'"
	meta e2 mount_options | grep -q nodiratime ||
	    fail "e2: mounted with '$(meta e2 mount_options)'"
	[ "$(meta e2 target_overrides)" = \
	    '--image-size --mkfs --mount-options' ] ||
	    fail "e2: target_overrides is '$(meta e2 target_overrides)'"
	[ "$(meta e2 config_file)" = "$TOP/configs/ext2.conf" ] ||
	    fail "e2: config_file is '$(meta e2 config_file)'"
else
	echo "no mkfs.ext2, losetup or ext2 here: the image case is not run"
fi
if [ -d "$S" ] && [ -n "$(ls -A "$S")" ]; then
	fail "left in $S: $(ls -A "$S")"
fi
exit 0
