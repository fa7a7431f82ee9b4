#!/bin/sh
# largedir -c with an NFS export to mount (source = HOST:/PATH): the
# shipped configs nfs3, nfs3-nordirplus, nfs3-actimeo0 and nfs4 on a
# kernel without an NFS client exit 4 with exactly one line saying so,
# nothing on stdout, nothing mounted (/proc/self/mountinfo before and
# after), no run directory and no outputs left.  Configs that combine source with what
# it cannot go with, or whose NFS version disagrees with the fstype, are
# usage errors (exit 2, one line naming the file and line) anywhere.
#
# A kernel that has an NFS client (listed in /proc/filesystems, or a
# module it can load) would mount for real, against a server this test
# does not run: the test skips there, saying so.  Not root: skipped too
# (a config run needs root).
# shellcheck source=/dev/null
. "$(dirname "$0")/lib.sh"

S=$T/scratch

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

# one_line NAME: exactly one line on stderr, none on stdout.
one_line() {
	[ "$(lines "$T/$1.stderr")" -eq 1 ] ||
	    fail "$1: $(lines "$T/$1.stderr") lines on stderr:" \
	    "$(cat "$T/$1.stderr")"
	[ ! -s "$T/$1.stdout" ] ||
	    fail "$1: output on stdout: $(cat "$T/$1.stdout")"
}

# nfs_mounts: the NFS mounts and the mounts under the scratch directory,
# as mountinfo shows them (mount ID first: a new mount differs).  Other
# processes on this machine may mount other things meanwhile.
nfs_mounts() {
	awk -v s="$S/" '$0 ~ / - nfs4? / || index($5, s) == 1' \
	    /proc/self/mountinfo
}

# ---- Configs that cannot be: exit 2, one line "FILE:LINE: ...", anywhere.
bad() {
	b_name=$1 b_line=$2 b_msg=$3
	shift 3
	printf '%s\n' "label = $b_name" "$@" >"$T/$b_name.conf"
	run 2 "$b_name" -c "$T/$b_name.conf" --scratch "$S" -o "$T/res-$b_name"
	one_line "$b_name"
	[ "$(cat "$T/$b_name.stderr")" = \
	    "largedir: $T/$b_name.conf:$b_line: $b_msg" ] ||
	    fail "$b_name: stderr is not 'largedir: $T/$b_name.conf:$b_line:" \
	    "$b_msg': $(cat "$T/$b_name.stderr")"
	[ ! -e "$S" ] || fail "$b_name: made $S"
	[ ! -e "$T/res-$b_name" ] || fail "$b_name: made its outputs"
}
bad src-form 3 "source 'filer': not HOST:/PATH (an NFS export, e.g.\
 127.0.0.1:/export)" "fstype = nfs" "source = filer"
bad src-ext4 3 "source with fstype ext4: only nfs and nfs4 mount a\
 server's export (a block device is 'device =')" "fstype = ext4" \
    "source = srv:/x" "mkfs = true"
bad src-path 3 "path and source are both set: a target is an existing\
 mount or an export to mount" "fstype = nfs" "source = srv:/x" \
    "path = /mnt" "mount_options = vers=3"
bad src-mkfs 5 "source with mkfs: the server makes the filesystem it\
 exports" "fstype = nfs" "source = srv:/x" "mount_options = vers=3" \
    "mkfs = true"
bad src-vers 4 "mount_options: NFS version 3 with fstype nfs4: use fstype\
 = nfs for NFSv3" "fstype = nfs4" "source = srv:/x" \
    "mount_options = vers=3,nolock"
bad src-novers 3 "mount_options: fstype nfs needs vers=3 (or 2): without\
 it mount.nfs tries NFSv4 first, which the kernel mounts as nfs4" \
    "fstype = nfs" "mount_options = nolock" "source = srv:/x"

# ---- The shipped configs on this kernel: exit 4, one line, no trace.
need_root "largedir sets up -c targets as root only"
if awk '{ print $NF }' /proc/filesystems | grep -qx 'nfs4\{0,1\}'; then
	skip "this kernel has an NFS client (nfs in /proc/filesystems):" \
	    "the shipped configs would mount for real, which needs a server" \
	    "this test does not run"
fi
if [ -e /proc/modules ] &&
    grep -qs '^alias fs-nfs4\{0,1\} ' "/lib/modules/$(uname -r)/modules.alias"
then
	skip "this kernel can load an NFS client (fs-nfs in modules.alias):" \
	    "the shipped configs would mount for real, which needs a server" \
	    "this test does not run"
fi
nfs_mounts >"$T/before"
for c in nfs3 nfs3-nordirplus nfs3-actimeo0 nfs4; do
	run 4 "$c" -c "$TOP/configs/$c.conf" --scratch "$S" -o "$T/res-$c" \
	    -b 2s
	one_line "$c"
	case $c in
	nfs4) v=v4 fs=nfs4 ;;
	*) v='' fs=nfs ;;
	esac
	grep -q "^largedir: $TOP/configs/$c.conf: this kernel has no NFS$v client (no $fs in /proc/filesystems" \
	    "$T/$c.stderr" ||
	    fail "$c: stderr does not say there is no NFS client:" \
	    "$(cat "$T/$c.stderr")"
	nfs_mounts >"$T/after"
	cmp -s "$T/before" "$T/after" ||
	    fail "$c: mounts changed: $(diff "$T/before" "$T/after" || true)"
	if [ -d "$S" ] && [ -n "$(ls -A "$S")" ]; then
		fail "$c: left in $S: $(ls -A "$S")"
	fi
	[ ! -e "$T/res-$c" ] || fail "$c: made its outputs"
done
