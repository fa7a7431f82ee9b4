#!/bin/sh
# tests/nfs-server.sh, the NFS-Ganesha server of the NFS tests: two
# servers started at once in two state directories get ports of their
# own, listen on 127.0.0.1 only, report status 0 and answer libnfs
# (nfs-cp over NFSv3 and NFSv4 writes files that appear in NFS_EXPORT,
# owned by root); stop leaves nothing of a server (no process it recorded,
# no mount, no loop device on its image, no state directory), leaves the
# other one running, and also cleans up after a kill -9 of Ganesha; stop
# again is a no-op; a start that fails half-way (an image too small for
# mkfs) undoes itself, a bad SIZE is a usage error and a directory that
# is not empty is refused untouched.
# shellcheck source=/dev/null
. "$(dirname "$0")/lib.sh"

need_root "loop devices, mount, NFS-Ganesha"
need_dep ganesha.nfsd nfs-ganesha
need_dep rpcbind rpcbind
need_dep nfs-cp libnfs-utils
need_dep nfs-ls libnfs-utils
SRV=$(dirname "$0")/../nfs-server.sh
[ -r "$SRV" ] || fail "no $SRV"

cleanup() {
	for d in "$T/a" "$T/b" "$T/small"; do
		sh "$SRV" stop "$d" >/dev/null 2>&1 || true
	done
	lib_cleanup
}
trap cleanup EXIT

# start NAME: start a server in $T/NAME in the background; its output
# goes to $T/NAME.env and $T/NAME.err, its exit status to $T/NAME.rc.
start() {
	{
		st_rc=0
		sh "$SRV" start "$T/$1" >"$T/$1.env" 2>"$T/$1.err" || st_rc=$?
		echo "$st_rc" >"$T/$1.rc"
	} &
}

# started NAME: the start of NAME succeeded (skip if it cannot run here).
started() {
	st_rc=$(cat "$T/$1.rc")
	[ "$st_rc" != 77 ] || skip "$(cat "$T/$1.err")"
	[ "$st_rc" = 0 ] || fail "start $1: exit $st_rc: $(cat "$T/$1.err")"
}

# listens PORT: a TCP socket listens on 127.0.0.1:PORT (IPv4 or mapped
# IPv6), and none on another address.
listens() {
	awk -v p="$(printf '%04X' "$1")" '
	    $4 == "0A" { split($2, a, ":"); if (a[2] != p) next
		if (a[1] == "0100007F" ||
		    a[1] == "0000000000000000FFFF00000100007F") ok = 1
		else bad = 1 }
	    END { exit !(ok && !bad) }' /proc/net/tcp /proc/net/tcp6
}

# gone PID: no process PID runs (a zombie waiting for init is gone too).
gone() {
	g_s=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d ' ' -f 1)
	[ -z "$g_s" ] || [ "$g_s" = Z ]
}

# no_trace DIR PID...: nothing of the server of DIR is left.
no_trace() {
	nt_d=$1
	shift
	for p in "$@"; do
		gone "$p" || fail "process $p of $nt_d still runs"
	done
	! awk -v d="$nt_d/" 'index($2, d) == 1 { f = 1 } END { exit !f }' \
	    /proc/self/mounts || fail "still mounted under $nt_d"
	for f in /sys/block/loop*/loop/backing_file; do
		[ -r "$f" ] || continue
		case $(cat "$f" 2>/dev/null) in
		"$nt_d"/*) fail "${f%/loop/backing_file} still on $nt_d" ;;
		esac
	done
	[ ! -e "$nt_d" ] || fail "$nt_d is still there"
}

# check_server NAME TAG: status 0, ports of its own on 127.0.0.1, and
# files TAG.v3 and TAG.v4 written over NFSv3 and NFSv4 appear in the
# export, owned by root, and in a listing over NFS.
check_server() {
	sh "$SRV" status "$T/$1" >"$T/$1.status" || fail "status $1: not 0"
	cmp -s "$T/$1.env" "$T/$1.status" || fail "status $1: other lines"
	(
		NFS_URL='' NFS_URL4='' NFS_URL_RO='' NFS_EXPORT=''
		NFS_PORT='' MNT_PORT='' NFS_PID=''
		eval "$(cat "$T/$1.env")"
		for k in "$NFS_URL" "$NFS_URL4" "$NFS_URL_RO" "$NFS_EXPORT" \
		    "$NFS_PORT" "$MNT_PORT" "$NFS_PID"; do
			[ -n "$k" ] || fail "$1: an empty value"
		done
		[ "$NFS_EXPORT" = "$T/$1/export" ] ||
		    fail "$1: NFS_EXPORT=$NFS_EXPORT"
		listens "$NFS_PORT" || fail "$1: NFS port $NFS_PORT"
		listens "$MNT_PORT" || fail "$1: MNT port $MNT_PORT"
		echo "hello $1" >"$T/$1.txt"
		url=${NFS_URL%%\?*} opts=${NFS_URL#*\?}
		nfs-cp "$T/$1.txt" "$url/$2.v3?$opts" >/dev/null ||
		    fail "$1: nfs-cp to $NFS_URL"
		url=${NFS_URL4%%\?*} opts=${NFS_URL4#*\?}
		nfs-cp "$T/$1.txt" "$url/$2.v4?$opts" >/dev/null ||
		    fail "$1: nfs-cp to $NFS_URL4"
		for f in "$2.v3" "$2.v4"; do
			cmp -s "$T/$1.txt" "$NFS_EXPORT/$f" ||
			    fail "$1: $f is not in $NFS_EXPORT"
			[ "$(stat -c %u "$NFS_EXPORT/$f")" = 0 ] ||
			    fail "$1: $f is not root's (root squashed?)"
		done
		nfs-ls "$NFS_URL" >"$T/$1.ls" || fail "$1: nfs-ls $NFS_URL"
		for f in "$2.v3" "$2.v4"; do
			awk -v f="$f" '$NF == f { n++ } END { exit n != 1 }' \
			    "$T/$1.ls" || fail "$1: nfs-ls: $(cat "$T/$1.ls")"
		done
	)
}

# Two at once.
start a
start b
wait
started a
started b
check_server a first
check_server b first
[ "$(grep NFS_PORT "$T/a.env")" != "$(grep NFS_PORT "$T/b.env")" ] ||
    fail "a and b have the same NFS port"

# stop a: nothing of a is left, b runs on.
a_pids=$(cat "$T/a/ganesha.proc" "$T/a/rpcbind.proc" 2>/dev/null |
    cut -d ' ' -f 1)
sh "$SRV" stop "$T/a" || fail "stop a: exit $?"
# shellcheck disable=SC2086 # one word per PID
no_trace "$T/a" $a_pids
expect_exit 1 sh "$SRV" status "$T/a" 2>/dev/null
sh "$SRV" stop "$T/a" || fail "stop a again: exit $?"
check_server b again

# kill -9 of b's Ganesha: status says so, stop still cleans up.
b_pids=$(cat "$T/b/ganesha.proc" "$T/b/rpcbind.proc" 2>/dev/null |
    cut -d ' ' -f 1)
kill -9 "$(cut -d ' ' -f 1 "$T/b/ganesha.proc")"
wait_for 5 gone "$(cut -d ' ' -f 1 "$T/b/ganesha.proc")"
expect_exit 1 sh "$SRV" status "$T/b" 2>/dev/null
sh "$SRV" stop "$T/b" || fail "stop b after kill -9: exit $?"
# shellcheck disable=SC2086 # one word per PID
no_trace "$T/b" $b_pids

# A start that fails in mkfs undoes itself.
expect_exit 1 sh "$SRV" start "$T/small" 1K 2>"$T/small.err"
grep -q mkfs "$T/small.err" || fail "small: $(cat "$T/small.err")"
no_trace "$T/small"
# A bad SIZE, a directory that is not empty.
expect_exit 2 sh "$SRV" start "$T/small" 2X 2>/dev/null
[ ! -e "$T/small" ] || fail "a usage error made $T/small"
mkdir "$T/full"
echo keep >"$T/full/keep"
expect_exit 1 sh "$SRV" start "$T/full" 2>/dev/null
[ "$(ls "$T/full")" = keep ] || fail "start touched $T/full"
expect_exit 1 sh "$SRV" stop "$T/full" 2>/dev/null
[ "$(cat "$T/full/keep")" = keep ] || fail "stop touched $T/full"
