#!/bin/sh
# kernel = uml: a target measured inside User-Mode Linux (src/target/uml.c).
# reiserfs (which the host's kernel lacks) with n = 2,000, and tmpfs from
# a config under /tmp with n = 500: exit 0, the outputs agree, record the
# UML kernel, the host's name and target_kind uml, and nothing is left (no
# linux.uml or slirp process, nothing in --scratch); outputs that exist
# already are refused (exit 2) before the guest boots.  A guest that ends
# without a word exits 1 with one line, as does one that hangs past its
# time (--uml-grace).  uml_cpus 2 with a kernel before Linux 6.19, a
# missing UML kernel, an fstype
# the guest lacks (vxfs) and a mount option it refuses exit 4 with one
# line naming it.
# SIGTERM to largedir while the guest runs stops the inner run (143, one
# line, outputs interrupted); two signals kill the guest at once;
# after kill -9, largedir cleanup stops the guest and removes the image.
# Nothing is left after any.  Then the kernel NFS client of the guest
# against tests/nfs-server.sh, n = 1,000 with nordirplus
# (configs/nfs3-nordirplus-uml.conf, the ports given with
# --mount-options): create sends n CREATE, delete n REMOVE, list READDIR
# and no READDIRPLUS (the knfs columns, from the guest's mountstats), the
# metadata keep the mount's options, capabilities and transport, and the
# export is left empty.  LARGEDIR_UML=PATH runs the guests with another
# UML kernel; without it, on a CPU where Debian's cannot run, the one make
# uml-kernel built ($UML_BUILT of lib.sh).
# shellcheck source=/dev/null
. "$(dirname "$0")/lib.sh"

need_root "mkfs and the guest's image"
# make check SANITIZE=1: the inner largedir is the ASan build, whose
# shadow memory cannot be mapped in a UML guest's address space.
if ldd "$LD" 2>/dev/null | grep -q libasan; then
	skip "an ASan build cannot run inside User-Mode Linux (its shadow" \
	    "memory collides with the guest's address space)"
fi
# LARGEDIR_UML names another UML kernel to run the guests with (make
# uml-kernel builds one), for a host where Debian's cannot run.
UMLK=${LARGEDIR_UML:-/usr/bin/linux.uml}
[ -x "$UMLK" ] ||
    skip "no $UMLK (apt-get install user-mode-linux, or make uml-kernel)"
# ldu ARG...: largedir with that kernel (not for a run in the
# background, whose $! would be the function's subshell).
ldu() {
	"$LD" --uml="$UMLK" "$@"
}
need_dep mkfs.reiserfs reiserfsprogs
need_dep slirp-fullbolt slirp
need_dep modprobe kmod

S=$T/scratch
ld_pid=
top=$(cd "$(dirname "$0")/../.." && pwd)

# guests: the UML kernel's and slirp's processes of this test's run
# directories (by uml_dir: a kernel need not be named linux.uml).
guests() {
	pgrep -f "uml_dir=$S/|slirp.*$S" || true
}

# nothing_left WHAT: no guest process and nothing in the scratch directory.
nothing_left() {
	[ -z "$(guests)" ] || fail "$1: guest processes left: $(guests)"
	[ -z "$(ls -A "$S" 2>/dev/null)" ] ||
	    fail "$1: left in $S: $(ls -A "$S")"
}

# one_line FILE WHAT: FILE holds exactly one line, which has WHAT.
one_line() {
	[ "$(lines "$1")" = 1 ] || fail "$1: $(lines "$1") lines: $(cat "$1")"
	grep -q -- "$2" "$1" || fail "$1: no '$2': $(cat "$1")"
}

# kill_test: on a failure, do not leave a guest behind.
kill_test() {
	[ -z "$ld_pid" ] || kill -9 "$ld_pid" 2>/dev/null || true
	for g in $(guests); do
		kill -9 "$g" 2>/dev/null || true
	done
	"$LD" cleanup --scratch "$S" >/dev/null 2>&1 || true
	[ ! -d "$T/srv" ] ||
	    sh "$top/tests/nfs-server.sh" stop "$T/srv" >/dev/null 2>&1 || true
	lib_cleanup
}
trap kill_test EXIT

# reiserfs in the guest, 2,000 files.  A UML kernel that cannot run on
# this CPU at all (Debian 12's 6.1 on a host with AMX) is the machine's,
# not largedir's: largedir names it in one line (exit 4), and the test
# goes on with the kernel make uml-kernel built (tests/uml/xstate-size.patch
# lets it run there), or skips with that line where there is none.
# reiserfs: the run, its exit status in $rc, its stderr in $T/err1.
reiserfs() {
	rm -rf "$T/o1"
	set +e
	ldu -c "$top/configs/reiserfs-uml.conf" --image-size=256M -n 2000 \
	    -N 2000 --scratch "$S" -o "$T/o1" -q 2>"$T/err1"
	rc=$?
	set -e
}
reiserfs
if [ "$rc" = 4 ] && grep -q 'cannot run on this CPU' "$T/err1"; then
	one_line "$T/err1" 'ptrace set fp regs failed'
	nothing_left "a UML kernel that cannot run here"
	# On with the kernel make uml-kernel built, which can.
	if [ -n "${LARGEDIR_UML:-}" ] || [ ! -x "$UML_BUILT" ]; then
		skip "$(cat "$T/err1")"
	fi
	echo "$UMLK cannot run on this CPU (as largedir said); on with $UML_BUILT"
	UMLK=$UML_BUILT
	reiserfs
fi
[ "$rc" = 0 ] || fail "reiserfs-uml exited $rc: $(cat "$T/err1")"
check_outputs "$T/o1" reiserfs-uml complete
grep -q '^# kernel: Linux [0-9].* (User-Mode Linux)$' \
    "$T/o1/reiserfs-uml.out" ||
    fail "the .out does not record the UML kernel"
grep -qx '# target_kind: uml' "$T/o1/reiserfs-uml.out" ||
    fail "the .out has no target_kind uml"
grep -qx "# host: $(uname -n)" "$T/o1/reiserfs-uml.out" ||
    fail "the .out does not name the host the guest ran on"
grep -qx '# fstype: reiserfs' "$T/o1/reiserfs-uml.out" ||
    fail "the .out does not say reiserfs"
grep -q "^# config_file: .*/configs/reiserfs-uml.conf$" \
    "$T/o1/reiserfs-uml.out" || fail "the .out names no config file"
[ "$(jq '.rounds[0].n' "$T/o1/reiserfs-uml.json")" = 2000 ] ||
    fail "the round is not n = 2000"
[ -s "$T/o1/reiserfs-uml.console.log" ] || fail "no console log"
nothing_left "reiserfs"

# Outputs that exist already: exit 2 before the guest boots, one line.
expect_exit 2 ldu -c "$top/configs/reiserfs-uml.conf" --image-size=64M \
    -n 100 -N 100 --scratch "$S" -o "$T/o1" -q 2>"$T/err1b"
one_line "$T/err1b" "reiserfs-uml.out exists: choose another -o or --label"
nothing_left "outputs exist"

# tmpfs in the guest, from a config file under /tmp (which the guest
# sees read-only, as the host's).
printf 'fstype = tmpfs\nkernel = uml\nmount_options = size=64M\n' \
    >"$T/tmpfs.conf"
ldu -c "$T/tmpfs.conf" -n 500 -N 500 --scratch "$S" -o "$T/o0" -q \
    2>"$T/err0" || fail "tmpfs in UML exited $?: $(cat "$T/err0")"
check_outputs "$T/o0" tmpfs complete
grep -qx '# fstype: tmpfs' "$T/o0/tmpfs.out" || fail "the .out is no tmpfs"
nothing_left "tmpfs"

# No UML kernel: exit 4, one line, nothing made.
expect_exit 4 "$LD" -c "$top/configs/reiserfs-uml.conf" --uml /nonexistent \
    -n 100 -N 100 --scratch "$S" -o "$T/o2" -q 2>"$T/err2"
one_line "$T/err2" "no User-Mode Linux kernel /nonexistent"
nothing_left "no uml"

# uml_cpus 2 with a kernel before 6.19, which runs one CPU: exit 4, one
# line naming the kernel and its release, before the guest boots.
expect_exit 4 ldu -c "$top/configs/reiserfs-uml.conf" --uml-cpus 2 \
    --image-size=64M -n 100 -N 100 --scratch "$S" -o "$T/o2c" -q \
    2>"$T/err2c"
one_line "$T/err2c" "uml_cpus 2: $UMLK (Linux [0-9.]*) runs one CPU; \
User-Mode Linux runs more from Linux 6.19"
[ ! -e "$T/o2c/reiserfs-uml.console.log" ] || fail "uml_cpus: the guest booted"
nothing_left "uml_cpus"

# A "kernel" that ends at once without running anything (as a guest that
# panics does): exit 1, one line, nothing left.
expect_exit 1 "$LD" -c "$top/configs/reiserfs-uml.conf" --uml /bin/false \
    --image-size=64M -n 100 -N 100 --scratch "$S" -o "$T/o9" -q 2>"$T/err9"
one_line "$T/err9" "the guest ended without running largedir"
nothing_left "a guest that dies"

# A "kernel" that hangs (as a guest stuck in a mount does) is killed with
# its process group at the end of its time, 1.25 x 1 s plus --uml-grace
# 2s: exit 1, one line, nothing left, its sleep included.
printf '#!/bin/sh\nexec sleep 317\n' >"$T/hang"
chmod +x "$T/hang"
expect_exit 1 "$LD" -c "$top/configs/reiserfs-uml.conf" --uml "$T/hang" \
    --uml-grace 2s -b 1s --image-size=64M -n 100 -N 100 --scratch "$S" \
    -o "$T/o10" -q 2>"$T/err10"
one_line "$T/err10" "the guest ran out of time (3 s) and was killed"
nothing_left "a guest that hangs"
pgrep -fx "sleep 317" >/dev/null && fail "the hung guest's sleep is left"

# An fstype the guest kernel lacks: exit 4, one line naming it.
cat >"$T/vxfs.conf" <<EOF
fstype = vxfs
kernel = uml
mkfs = true
image_size = 64M
EOF
expect_exit 4 ldu -c "$T/vxfs.conf" -n 100 -N 100 --scratch "$S" \
    -o "$T/o3" -q 2>"$T/err3"
one_line "$T/err3" "cannot set up the target: mount -t vxfs .*unknown filesystem type 'vxfs'"
nothing_left "vxfs"

# A mount option the guest refuses: exit 4, one line naming it.
expect_exit 4 ldu -c "$top/configs/reiserfs-uml.conf" --image-size=256M \
    --mount-options=no_such_option -n 100 -N 100 --scratch "$S" \
    -o "$T/o4" -q 2>"$T/err4"
one_line "$T/err4" "mount -t reiserfs -o no_such_option /dev/ubda"
nothing_left "bad option"

# SIGTERM while the guest measures: 143, one line, nothing left.
"$LD" --uml="$UMLK" -c "$top/configs/reiserfs-uml.conf" \
    --image-size=256M -n 2000 -N 1000000 -b 60s --scratch "$S" \
    -o "$T/o5" -q 2>"$T/err5" &
ld_pid=$!
wait_for 30 grep -qs 'init: kernel' \
    "$T/o5/reiserfs-uml.console.log"
sleep 1
kill -TERM "$ld_pid"
set +e
wait "$ld_pid"
rc=$?
set -e
ld_pid=
[ "$rc" = 143 ] || fail "SIGTERM: exit $rc, expected 143: $(cat "$T/err5")"
one_line "$T/err5" "interrupted by SIGTERM"
if [ -f "$T/o5/reiserfs-uml.json" ]; then
	check_outputs "$T/o5" reiserfs-uml interrupted
fi
nothing_left "SIGTERM"

# Two signals: the guest is killed at once, nothing left.  SIGINT,
# then SIGTERM at once: a guest asked to stop does so within a second, so
# a second signal sent after a pause could come too late, and a second
# SIGINT sent at once could merge with the first while it is pending.
"$LD" --uml="$UMLK" -c "$top/configs/reiserfs-uml.conf" \
    --image-size=256M -n 2000 -N 1000000 -b 60s --scratch "$S" \
    -o "$T/o8" -q 2>"$T/err8" &
ld_pid=$!
wait_for 30 grep -qs 'init: kernel' "$T/o8/reiserfs-uml.console.log"
kill -INT "$ld_pid"
kill -TERM "$ld_pid"
set +e
wait "$ld_pid"
rc=$?
set -e
ld_pid=
# Both pending at once: either may be taken first, and it names the run's
# end (130 for SIGINT, 143 for SIGTERM).
case $rc in
130) first=INT ;;
143) first=TERM ;;
*) fail "two signals: exit $rc, expected 130 or 143: $(cat "$T/err8")" ;;
esac
grep -q "interrupted by SIG$first: the guest was killed" "$T/err8" ||
    fail "two signals: $(cat "$T/err8")"
nothing_left "two signals"

# kill -9 of largedir: the guest runs on; largedir cleanup stops it and
# removes the image and the run directory.
"$LD" --uml="$UMLK" -c "$top/configs/reiserfs-uml.conf" \
    --image-size=256M -n 2000 -N 1000000 -b 60s --scratch "$S" \
    -o "$T/o6" -q 2>/dev/null &
ld_pid=$!
wait_for 30 grep -qs 'init: kernel' "$T/o6/reiserfs-uml.console.log"
kill -9 "$ld_pid"
wait "$ld_pid" 2>/dev/null || true
ld_pid=
[ -n "$(guests)" ] || fail "kill -9: the guest went with largedir"
"$LD" cleanup --scratch "$S" >"$T/out6" 2>&1 ||
    fail "cleanup exited $?: $(cat "$T/out6")"
grep -q "^removed $S/target\." "$T/out6" ||
    fail "cleanup did not remove the run directory: $(cat "$T/out6")"
nothing_left "kill -9 and cleanup"

# The guest's kernel NFS client against the loopback server.
need_dep ganesha.nfsd nfs-ganesha
set +e
sh "$top/tests/nfs-server.sh" start "$T/srv" 64M >"$T/env" 2>"$T/srv.err"
rc=$?
set -e
case $rc in
0) ;;
77) skip "the NFS part: $(tail -n 1 "$T/srv.err")" ;;
*) fail "tests/nfs-server.sh start exit $rc: $(cat "$T/srv.err")" ;;
esac
NFS_EXPORT='' NFS_PORT='' MNT_PORT=''
eval "$(cat "$T/env")"
ldu -c "$top/configs/nfs3-nordirplus-uml.conf" \
    --source "127.0.0.1:$NFS_EXPORT" --mount-options="vers=3,proto=tcp,\
mountproto=tcp,nolock,nordirplus,port=$NFS_PORT,mountport=$MNT_PORT" \
    -n 1000 -N 1000 -p create,list,delete --scratch "$S" -o "$T/o7" -q \
    2>"$T/err7" || fail "nfs3-nordirplus-uml exited $?: $(cat "$T/err7")"
j=$T/o7/nfs3-nordirplus-uml.json
check_outputs "$T/o7" nfs3-nordirplus-uml complete
for want in create_rpc_create=1000 delete_rpc_remove=1000 \
    list_rpc_readdirplus=0; do
	got=$(jq ".rounds[0].${want%=*}" "$j")
	[ "$got" = "${want#*=}" ] || fail "${want%=*}: $got, expected ${want#*=}"
done
[ "$(jq '.rounds[0].list_rpc_readdir' "$j")" -ge 1 ] ||
    fail "list sent no READDIR"
# What decides the counts, as the guest's kernel reports the mount.
jq -e '(.meta.nfs_opts | test("(^|,)nordirplus(,|$)")) and
    (.meta.nfs_caps | test("dtsize=[0-9]+")) and
    .meta.nfs_connections == "1" and (.meta.nfs_xprt | startswith("tcp "))' \
    "$j" >/dev/null ||
    fail "the mount's opts, caps, xprt: $(jq -c '.meta | {nfs_opts,
    nfs_caps, nfs_xprt, nfs_connections}' "$j")"
[ -z "$(ls -A "$NFS_EXPORT")" ] || fail "left on the export: $(ls -A "$NFS_EXPORT")"
nothing_left "nfs"
