#!/bin/sh
# A private NFS server for largedir's NFS tests and the demo: NFS-Ganesha
# (Debian nfs-ganesha, nfs-ganesha-vfs) exporting an ext4 loop image on
# 127.0.0.1 only, on ports of its own.  Needs root.
#
#   sh tests/nfs-server.sh start STATE_DIR [SIZE]
#   sh tests/nfs-server.sh stop STATE_DIR
#   sh tests/nfs-server.sh status STATE_DIR
#
# start makes STATE_DIR (if missing; an existing one must be empty), a
# sparse ext4 image of SIZE (default 2G; one inode per KiB, 2,097,152 at
# 2G) on a loop device, mounted nodev,nosuid on STATE_DIR/export, starts
# rpcbind if none runs, writes STATE_DIR/ganesha.conf and starts
# ganesha.nfsd -F; its log, PID file and recovery directory stay in
# STATE_DIR too.  Once Ganesha says it is initialized, start prints lines
# for eval, each value single-quoted, STATE_DIR made absolute:
#   NFS_URL='nfs://127.0.0.1/STATE_DIR/export?nfsport=P&mountport=M'
#   NFS_URL4='nfs://127.0.0.1/export?version=4&nfsport=P'
#   NFS_URL_RO='nfs://127.0.0.1/STATE_DIR/export-ro?nfsport=P&mountport=M'
#   NFS_EXPORT='STATE_DIR/export'
#   NFS_PORT='P'
#   MNT_PORT='M'
#   NFS_PID='PID of ganesha.nfsd'
#   NFS_SERVER='NFS-Ganesha V4.3 (Debian 4.3-2), FSAL VFS, ext4 ...'
# They are kept in STATE_DIR/env, and status prints them again.
# NFS_SERVER says what serves the export, for a run's target key server
# (--server "$NFS_SERVER"): the server's release, its FSAL, the backing
# filesystem and its size, and the cache settings that decide what a
# READDIR costs.
#
# The export is the root of the new ext4: owned by root, mode 0755, and
# empty (lost+found is removed, so a listing holds only what a test made).
# A second export, NFS_URL_RO, is read-only (Access_Type = RO): the empty
# directory STATE_DIR/export-ro, so tests can see what a client gets when
# it may not write (NFS3ERR_ROFS).
# largedir runs as root and the export keeps root's identity
# (No_Root_Squash), so a client must send uid 0.  Anything on this machine
# can claim uid 0 over AUTH_SYS: keep nothing of value in the export.
# Ganesha caches attributes and directory entries for up to 60 s: change
# files through NFS, or on the host side only before the first NFS access
# to them.  Its cache (MDCACHE Entries_HWMark) is raised from 100,000 to
# 2,000,000 entries, so that a directory of 1,000,000 files stays in it
# (about 2 GB of Ganesha's memory) instead of being read from disk again
# for each listing, about five times slower.
#
# Ports: NFS_Port and MNT_Port are drawn at random from 20000-31999, below
# the kernel's ephemeral range, skipping any port a TCP socket uses; if
# Ganesha still cannot bind (another process took the port meanwhile),
# start draws again, 5 times at most.  So servers in different STATE_DIRs
# run side by side.
#
# rpcbind: Ganesha registers NFSv3 with it when it starts, and exits if
# none runs.  If none runs, start starts 'rpcbind -f' and records it; one
# that runs already is used and left alone.  rpcbind listens on port 111
# of every address (Debian 12's rpcbind crashes with -h).  A lock,
# /run/lock/largedir-nfs-server.lock, keeps a stop from ending our rpcbind
# while another start needs it; once Ganesha runs, it needs rpcbind no
# more, since the URLs name the ports.
#
# stop ends exactly the processes start recorded (PID and start time,
# checked against /proc/PID/stat and /proc/PID/exe before each signal):
# SIGTERM, up to 5 s, then SIGKILL.  Then it unmounts, detaches every loop
# device backed by the image, removes the files start made and STATE_DIR
# itself (rmdir: it leaves foreign files alone, and fails).  stop is
# idempotent and cleans up after a start that failed half-way, or a
# Ganesha killed with -9.  A start that fails undoes itself the same way,
# STATE_DIR included.  status exits 0 and prints the lines of start again
# if the recorded processes run.
#
# Exit status: 0 done; 1 failure (start undoes what it did first); 2 usage
# error; 77 cannot run here (not root, no loop devices, Ganesha or rpcbind
# missing: make deps installs them).
set -eu
LC_ALL=C
export LC_ALL

PORT_LO=20000
PORT_N=12000
TRIES=5
READY_S=20
STOP_S=5
MAX_INODES=4194304
LOCK=/run/lock/largedir-nfs-server.lock
MARK=nfs-server.state

usage() {
	echo "usage: sh tests/nfs-server.sh start STATE_DIR [SIZE]" >&2
	echo "       sh tests/nfs-server.sh stop|status STATE_DIR" >&2
	exit 2
}

say() {
	echo "nfs-server: $*" >&2
}

die() {
	say "$*"
	exit 1
}

cannot() {
	say "cannot run here: $*"
	exit 77
}

# ===== Processes =====

# starttime PID: print the start time of process PID (field 22 of
# /proc/PID/stat); fail if there is no such process or it is a zombie.
starttime() {
	st_s=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
	# The fields after "(comm) ": the state is the 1st, starttime the 20th.
	# shellcheck disable=SC2086 # split on purpose
	set -- ${st_s##*") "}
	[ "$#" -ge 20 ] && [ "$1" != Z ] || return 1
	shift 19
	echo "$1"
}

# record PID FILE: write "PID STARTTIME" into FILE.
record() {
	rec_t=$(starttime "$1") || return 1
	echo "$1 $rec_t" >"$2"
}

# exists FILE: the process recorded in FILE still runs: same PID, same
# start time, not a zombie.  (A child of ours may not have called exec
# yet.)
exists() {
	[ -s "$1" ] || return 1
	read -r ex_pid ex_t <"$1" || return 1
	case $ex_pid in
	'' | *[!0-9]*) return 1 ;;
	esac
	[ "$(starttime "$ex_pid")" = "$ex_t" ]
}

# alive FILE NAME: the process recorded in FILE still runs and its
# executable is called NAME.
alive() {
	exists "$1" || return 1
	read -r al_pid _ <"$1"
	al_exe=$(readlink "/proc/$al_pid/exe" 2>/dev/null) || return 1
	al_exe=${al_exe% (deleted)}
	[ "${al_exe##*/}" = "$2" ]
}

# running NAME: some process called NAME runs (a zombie does not count).
running() {
	for ru_d in /proc/[0-9]*; do
		ru_c=
		read -r ru_c 2>/dev/null <"$ru_d/comm" || continue
		[ "$ru_c" = "$1" ] || continue
		starttime "${ru_d#/proc/}" >/dev/null && return 0
	done
	return 1
}

# stop_proc FILE NAME: end the process recorded in FILE if it is still
# the one start recorded: SIGTERM, then SIGKILL after STOP_S seconds.
# Fails if it outlives both.
stop_proc() {
	[ -e "$1" ] || return 0
	if alive "$1" "$2"; then
		read -r sp_pid _ <"$1"
		kill -TERM "$sp_pid" 2>/dev/null || true
		sp_n=$((STOP_S * 10))
		while [ "$sp_n" -gt 0 ] && alive "$1" "$2"; do
			sleep 0.1
			sp_n=$((sp_n - 1))
		done
		if alive "$1" "$2"; then
			say "$2 ($sp_pid) still runs ${STOP_S} s after" \
			    "SIGTERM: SIGKILL"
			kill -KILL "$sp_pid" 2>/dev/null || true
			sp_n=50
			while [ "$sp_n" -gt 0 ] && alive "$1" "$2"; do
				sleep 0.1
				sp_n=$((sp_n - 1))
			done
		fi
		if alive "$1" "$2"; then
			say "$2 ($sp_pid) outlived SIGKILL"
			return 1
		fi
	fi
	rm -f "$1"
}

# ===== Ports =====

# port_used PORT: a TCP socket (IPv4 or IPv6) has PORT at either end.
port_used() {
	pu_hex=$(printf ':%04X ' "$1")
	cat /proc/net/tcp /proc/net/tcp6 2>/dev/null | grep -q -- "$pu_hex"
}

# pick_port OTHER: print a random port of PORT_LO.. that no TCP socket
# uses and that is not OTHER.
pick_port() {
	pp_n=100
	while [ "$pp_n" -gt 0 ]; do
		pp_r=$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')
		pp_p=$((PORT_LO + pp_r % PORT_N))
		if [ "$pp_p" != "$1" ] && ! port_used "$pp_p"; then
			echo "$pp_p"
			return 0
		fi
		pp_n=$((pp_n - 1))
	done
	return 1
}

# ===== Stop =====

# mounted PATH: something is mounted on PATH.
mounted() {
	awk -v p="$1" '$2 == p { f = 1 } END { exit !f }' /proc/self/mounts
}

# teardown DIR: stop and remove everything start made in DIR, whatever
# state start left it in.  Fails, keeping what it could not undo (and the
# mark, so that stop can be tried again), if a step fails.
teardown() {
	td_bad=0
	stop_proc "$1/ganesha.proc" ganesha.nfsd || td_bad=1
	if [ -e "$1/rpcbind.proc" ]; then
		# Not while a start elsewhere relies on it.
		mkdir -p "${LOCK%/*}"
		(
			flock -w 30 9 ||
			    say "no lock $LOCK: stopping rpcbind anyway"
			stop_proc "$1/rpcbind.proc" rpcbind
		) 9>"$LOCK" || td_bad=1
	fi
	td_n=50
	while mounted "$1/export"; do
		umount "$1/export" 2>/dev/null && continue
		td_n=$((td_n - 1))
		if [ "$td_n" -le 0 ]; then
			umount "$1/export" || true
			say "cannot unmount $1/export"
			td_bad=1
			break
		fi
		sleep 0.1
	done
	for td_f in /sys/block/loop*/loop/backing_file; do
		[ -r "$td_f" ] || continue
		td_b=$(cat "$td_f" 2>/dev/null) || continue
		case $td_b in
		"$1/fs.img" | "$1/fs.img (deleted)")
			td_d=${td_f%/loop/backing_file}
			losetup -d "/dev/${td_d##*/}" || td_bad=1
			;;
		esac
	done
	[ "$td_bad" = 0 ] || return 1
	rm -f "$1/fs.img" "$1/loop" "$1/mkfs.log" "$1/ganesha.conf" \
	    "$1/ganesha.log" "$1/ganesha.out" "$1/ganesha.pid" \
	    "$1/rpcbind.out" "$1/env"
	rm -rf "$1/recovery"
	[ ! -d "$1/export" ] || rmdir "$1/export" ||
	    { say "$1/export is not empty"; return 1; }
	[ ! -d "$1/export-ro" ] || rmdir "$1/export-ro" ||
	    { say "$1/export-ro is not empty"; return 1; }
	rm -f "$1/$MARK"
	if ! rmdir "$1" 2>/dev/null; then
		say "$1 holds foreign files: kept"
		return 1
	fi
}

do_stop() {
	[ -d "$1" ] || return 0
	dir=$(cd "$1" && pwd -P)
	if [ ! -e "$dir/$MARK" ]; then
		# Nothing of ours, or an empty directory left by a start that
		# stopped before it wrote its mark.
		rmdir "$dir" 2>/dev/null ||
		    die "$dir was not made by nfs-server.sh: left alone"
		return 0
	fi
	teardown "$dir" || die "could not clean up $dir completely"
}

# ===== Start =====

# conf DIR NFS_PORT MNT_PORT: Ganesha's configuration.
conf() {
	cat <<EOF
# Written by largedir's tests/nfs-server.sh for $1.
NFS_CORE_PARAM {
	Bind_addr = 127.0.0.1;
	NFS_Port = $2;
	MNT_Port = $3;
	Protocols = 3, 4;
	Enable_UDP = false;
	Enable_NLM = false;
	Enable_RQUOTA = false;
	Dbus_Name_Prefix = largedir$2;
}
NFSv4 {
	Graceless = true;
	RecoveryRoot = $1/recovery;
	Only_Numeric_Owners = true;
}
NFS_KRB5 {
	Active_krb5 = false;
}
MDCACHE {
	# Ganesha's default is 100,000 entries: a directory of 1,000,000
	# files still lists whole, but each listing reloads it from disk.
	Entries_HWMark = 2000000;
}
EXPORT {
	Export_Id = 1;
	Path = $1/export;
	Pseudo = /export;
	Protocols = 3, 4;
	Transports = TCP;
	Access_Type = RW;
	Squash = No_Root_Squash;
	SecType = sys;
	FSAL {
		Name = VFS;
	}
}
EXPORT {
	Export_Id = 2;
	Path = $1/export-ro;
	Pseudo = /export-ro;
	Protocols = 3, 4;
	Transports = TCP;
	Access_Type = RO;
	Squash = No_Root_Squash;
	SecType = sys;
	FSAL {
		Name = VFS;
	}
}
EOF
}

# wait_ready DIR: wait until Ganesha's log says it is initialized (0), it
# exits (1) or READY_S seconds pass (2).
wait_ready() {
	wr_n=$((READY_S * 10))
	while [ "$wr_n" -gt 0 ]; do
		if grep -q 'NFS SERVER INITIALIZED' "$1/ganesha.log" \
		    2>/dev/null; then
			return 0
		fi
		exists "$1/ganesha.proc" || return 1
		sleep 0.1
		wr_n=$((wr_n - 1))
	done
	return 2
}

# log_tail DIR: the last lines of Ganesha's log and output, indented.
log_tail() {
	cat "$1/ganesha.log" "$1/ganesha.out" 2>/dev/null |
	    grep -v -e ':DBUS :' -e 'krb5' -e 'keytab' | tail -n 5 |
	    sed 's/^/    /' >&2
}

# start_rpcbind DIR: start rpcbind unless one runs.  Called with the lock.
start_rpcbind() {
	running rpcbind && return 0
	rpcbind -f </dev/null >"$1/rpcbind.out" 2>&1 9>&- &
	record "$!" "$1/rpcbind.proc" || true
	sr_n=50
	while [ "$sr_n" -gt 0 ]; do
		if exists "$1/rpcbind.proc"; then
			rpcinfo -p 127.0.0.1 >/dev/null 2>&1 && return 0
		else
			rm -f "$1/rpcbind.proc"
			# Lost a race with another rpcbind?
			running rpcbind && return 0
			die "rpcbind exited: $(tail -n 1 "$1/rpcbind.out")"
		fi
		sleep 0.1
		sr_n=$((sr_n - 1))
	done
	die "rpcbind does not answer on 127.0.0.1 after 5 s"
}

# start_ganesha DIR: start Ganesha on free ports, trying new ones if it
# cannot bind.  Called with the lock.  Sets nfs_port and mnt_port.
start_ganesha() {
	sg_try=1
	while :; do
		if ! nfs_port=$(pick_port 0) ||
		    ! mnt_port=$(pick_port "$nfs_port"); then
			die "no free port in $PORT_LO-$((PORT_LO + PORT_N - 1))"
		fi
		conf "$1" "$nfs_port" "$mnt_port" >"$1/ganesha.conf"
		rm -f "$1/ganesha.log" "$1/ganesha.out" "$1/ganesha.pid"
		ganesha.nfsd -F -f "$1/ganesha.conf" -L "$1/ganesha.log" \
		    -p "$1/ganesha.pid" -N NIV_EVENT \
		    </dev/null >"$1/ganesha.out" 2>&1 9>&- &
		sg_pid=$!
		record "$sg_pid" "$1/ganesha.proc" || true
		sg_st=0
		wait_ready "$1" || sg_st=$?
		case $sg_st in
		0)
			return 0
			;;
		2)
			say "ganesha.nfsd not initialized after $READY_S s:"
			log_tail "$1"
			exit 1
			;;
		esac
		wait "$sg_pid" 2>/dev/null || true
		rm -f "$1/ganesha.proc"
		if [ "$sg_try" -lt "$TRIES" ] &&
		    grep -q -i -e 'address already in use' -e 'cannot bind' \
		    "$1/ganesha.log" "$1/ganesha.out" 2>/dev/null; then
			say "port $nfs_port or $mnt_port taken: trying others"
			sg_try=$((sg_try + 1))
			continue
		fi
		say "ganesha.nfsd exited:"
		log_tail "$1"
		exit 1
	done
}

# on_exit: the EXIT trap of start; undoes a start that did not finish.
on_exit() {
	oe_st=$?
	trap - EXIT
	exec 9>&- # our lock, which teardown may take again
	if [ "$started" != 1 ] && [ -n "$dir" ]; then
		teardown "$dir" || say "could not undo everything in $dir"
		[ "$oe_st" != 0 ] || oe_st=1
	fi
	exit "$oe_st"
}

do_start() {
	size=$2
	case ${size%[KMGT]} in
	'' | [!1-9]* | *[!0-9]*) usage ;;
	esac
	[ "$(id -u)" = 0 ] || cannot "needs root (loop device, mount, NFS)"
	for c in ganesha.nfsd rpcbind rpcinfo mkfs.ext4 losetup flock \
	    truncate od; do
		command -v "$c" >/dev/null 2>&1 ||
		    cannot "no $c (make deps installs it)"
	done
	set -- "$1" /usr/lib/*/ganesha/libfsalvfs.so \
	    /usr/lib/ganesha/libfsalvfs.so /usr/lib64/ganesha/libfsalvfs.so
	ds_vfs=
	for f in "$@"; do
		[ ! -e "$f" ] || ds_vfs=$f
	done
	[ -n "$ds_vfs" ] ||
	    cannot "no Ganesha VFS FSAL (Debian nfs-ganesha-vfs: make deps)"
	if [ ! -e /dev/loop-control ] || ! losetup -f >/dev/null 2>&1; then
		cannot "no free loop device"
	fi

	case $1 in
	*[!A-Za-z0-9._/+-]*)
		say "STATE_DIR must be made of letters, digits and ._/+-"
		usage
		;;
	esac
	mkdir -p "$1" || die "cannot make $1"
	dir=$(cd "$1" && pwd -P)
	case $dir in
	*[!A-Za-z0-9._/+-]*) die "$dir: letters, digits and ._/+- only" ;;
	esac
	[ ! -e "$dir/$MARK" ] || die "$dir holds a server: stop it first"
	[ -z "$(ls -A "$dir")" ] || die "$dir is not empty"

	# From here on, a failure undoes everything.
	started=0
	trap on_exit EXIT
	trap 'exit 129' HUP
	trap 'exit 130' INT
	trap 'exit 143' TERM
	echo "largedir tests/nfs-server.sh: a state directory" >"$dir/$MARK"

	truncate -s "$size" "$dir/fs.img" || die "cannot make $dir/fs.img"
	ds_inodes=$(($(stat -c %s "$dir/fs.img") / 1024))
	[ "$ds_inodes" -le "$MAX_INODES" ] || ds_inodes=$MAX_INODES
	# Inode tables and journal are initialized now, not by the kernel
	# in the background while a benchmark runs.
	mkfs.ext4 -q -F -m 0 -N "$ds_inodes" -L largedir-nfs \
	    -E lazy_itable_init=0,lazy_journal_init=0 "$dir/fs.img" \
	    >"$dir/mkfs.log" 2>&1 ||
	    die "mkfs.ext4 $dir/fs.img: $(tail -n 1 "$dir/mkfs.log")"
	ds_loop=$(losetup -f --show "$dir/fs.img") ||
	    die "cannot attach $dir/fs.img to a loop device"
	echo "$ds_loop" >"$dir/loop"
	mkdir "$dir/export"
	mount -t ext4 -o nodev,nosuid "$ds_loop" "$dir/export" ||
	    die "cannot mount $ds_loop on $dir/export"
	rmdir "$dir/export/lost+found"
	chown 0:0 "$dir/export"
	chmod 0755 "$dir/export"
	mkdir -m 0755 "$dir/export-ro"
	mkdir "$dir/recovery"

	mkdir -p "${LOCK%/*}"
	exec 9>"$LOCK"
	flock -w 30 9 || die "$LOCK stayed locked for 30 s"
	start_rpcbind "$dir"
	start_ganesha "$dir"
	exec 9>&-

	read -r ds_pid _ <"$dir/ganesha.proc"
	ds_rel=$(ganesha.nfsd -v 2>/dev/null | sed -n 's/.*Release = //p' |
	    head -n 1)
	ds_deb=$(dpkg-query -W -f='${Version}' nfs-ganesha 2>/dev/null) ||
	    ds_deb=''
	ds_server="NFS-Ganesha ${ds_rel:-(release unknown)}${ds_deb:+ (Debian \
$ds_deb)}, FSAL VFS, ext4 on a loop image of $size ($ds_inodes inodes), \
MDCACHE Entries_HWMark 2000000, attributes and entries cached up to 60 s"
	ds_url=nfs://127.0.0.1
	ds_q="nfsport=$nfs_port&mountport=$mnt_port"
	{
		echo "NFS_URL='$ds_url$dir/export?$ds_q'"
		echo "NFS_URL4='$ds_url/export?version=4&nfsport=$nfs_port'"
		echo "NFS_URL_RO='$ds_url$dir/export-ro?$ds_q'"
		echo "NFS_EXPORT='$dir/export'"
		echo "NFS_PORT='$nfs_port'"
		echo "MNT_PORT='$mnt_port'"
		echo "NFS_PID='$ds_pid'"
		echo "NFS_SERVER='$ds_server'"
	} >"$dir/env"
	started=1
	trap - EXIT HUP INT TERM
	cat "$dir/env"
}

do_status() {
	[ -d "$1" ] || die "no $1"
	dir=$(cd "$1" && pwd -P)
	[ -e "$dir/$MARK" ] || die "$dir holds no server"
	alive "$dir/ganesha.proc" ganesha.nfsd ||
	    die "ganesha.nfsd of $dir is not running"
	if [ -e "$dir/rpcbind.proc" ] && ! alive "$dir/rpcbind.proc" rpcbind
	then
		die "rpcbind of $dir is not running"
	fi
	cat "$dir/env"
}

[ "$#" -ge 2 ] || usage
[ -n "$2" ] || usage
dir=
started=0
case $2 in
/*) state=$2 ;;
*) state=$(pwd)/$2 ;;
esac
cd / # so that no process of ours keeps a directory busy
case $1 in
start)
	[ "$#" -le 3 ] || usage
	do_start "$state" "${3:-2G}"
	;;
stop)
	[ "$#" = 2 ] || usage
	do_stop "$state"
	;;
status)
	[ "$#" = 2 ] || usage
	do_status "$state"
	;;
*)
	usage
	;;
esac
