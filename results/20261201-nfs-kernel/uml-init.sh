#!/bin/sh
# The init of the User-Mode Linux guest that tests/uml/nfs-run.sh boots
# (PID 1; the guest's root is the host's, read-only, through hostfs).
# It mounts what largedir needs, loads the NFS client, brings up slirp
# networking, mounts the host's loopback NFS server on /mnt, runs largedir
# there with the output in the one writable host directory, and powers the
# guest off.  Its settings come as VAR=value words of the kernel command
# line, which the kernel hands to init as environment variables:
#   OUT       the host directory for the results (mounted on /tmp/out)
#   LARGEDIR  the largedir binary (the host's; its libraries are there)
#   VERS      the NFS version, 3 or 4
#   EXPORT    the export's path on the server (v4: its pseudo path);
#             NFS_PORT, MNT_PORT its ports
#   NFS_OPTS  more mount options, comma-separated (e.g. nordirplus), or ""
#   N         the number of files (largedir -n N -N N); or, with MAX set,
#             rounds from START files growing by GROWTH up to MAX within
#             BUDGET (largedir --start, --growth, -N, -b)
#   LABEL     largedir's --label (default x)
#   PHASES    largedir's phases (-p)
#   COLD      largedir's --cold (none or drop: drop_caches before each
#             phase after create, so the client's caches start empty)
# In OUT it leaves: status (largedir's exit status, or "init: WHAT" when a
# step before it failed), init.log, mountstats.before, mountstats.after
# and largedir's own files.
PATH=/usr/sbin:/usr/bin:/sbin:/bin
export PATH

log() {
	echo "init: $*"
}

# End the guest; the host sees the end of the linux.uml process.
off() {
	sync
	halt -ff 2>/dev/null
	echo o > /proc/sysrq-trigger
	sleep 10
}

# Record why the run stopped short, then end the guest.
fail() {
	log "$*"
	if [ -d /tmp/out ]; then
		echo "init: $*" > /tmp/out/status
	fi
	off
}

mount -t proc proc /proc || fail "mount proc"
mount -t sysfs sys /sys || fail "mount sysfs"
mount -t devtmpfs dev /dev 2>/dev/null || true
mount -t tmpfs tmp /tmp || fail "mount tmpfs"
mkdir /tmp/out || fail "mkdir /tmp/out"
mount -t hostfs -o "$OUT" none /tmp/out || fail "mount hostfs $OUT"
exec > /tmp/out/init.log 2>&1
log "kernel $(uname -r), OUT=$OUT NFS_OPTS=$NFS_OPTS"

# The guest's modules are not in /lib/modules: give modprobe a root whose
# lib/modules is the UML package's.
mkdir -p /tmp/R/lib || fail "mkdir /tmp/R/lib"
ln -s /usr/lib/uml/modules /tmp/R/lib/modules || fail "ln modules"
modprobe -d /tmp/R "nfsv$VERS" || fail "modprobe nfsv$VERS"

# slirp: the guest is 10.0.2.15, the host's 127.0.0.1 is 10.0.2.2.
ip link set lo up || fail "ip lo"
ip addr add 10.0.2.15/24 dev eth0 || fail "ip addr eth0"
ip link set eth0 up || fail "ip link eth0"
ip route add default via 10.0.2.2 || fail "ip route"

if [ "$VERS" = 3 ]; then
	opts="vers=3,nolock,tcp,port=$NFS_PORT,mountport=$MNT_PORT"
else
	opts="vers=$VERS,tcp,port=$NFS_PORT"
fi
if [ -n "$NFS_OPTS" ]; then
	opts="$opts,$NFS_OPTS"
fi
mount -t nfs -o "$opts" "10.0.2.2:$EXPORT" /mnt ||
    fail "mount -t nfs -o $opts 10.0.2.2:$EXPORT /mnt"
grep ' /mnt ' /proc/mounts

cat /proc/self/mountstats > /tmp/out/mountstats.before
# The default events: libpfm4 knows no PMU in UML, so they are all
# unavailable (a warning) and the run goes on without them.
# Not -q: the round line, with the calls per file, goes to init.log.
if [ -n "${MAX:-}" ]; then
	set -- --start "$START" --growth "$GROWTH" -N "$MAX" -b "$BUDGET"
else
	set -- -n "$N" -N "$N"
fi
"$LARGEDIR" --sync none --cold "$COLD" "$@" \
    -p "$PHASES" -o /tmp/out --label "${LABEL:-x}" /mnt
rc=$?
cat /proc/self/mountstats > /tmp/out/mountstats.after
log "largedir exit status $rc"
echo "$rc" > /tmp/out/status
umount /mnt || log "umount /mnt failed"
exec > /dev/console 2>&1
umount /tmp/out || log "umount /tmp/out failed"
off
