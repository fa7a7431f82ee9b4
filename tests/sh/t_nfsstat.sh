#!/bin/sh
# largedir nfsstat on the mountstats fixtures of tests/data/mountstats/
# (written from the kernel's format strings): the listing and the --diff
# of two copies, byte for byte against golden files; the operation counts
# agree with nfs-utils' own mountstats tool (which also has to accept
# every good fixture, so they have the kernel's shape); a malformed file,
# a counter that goes down and a mount point that is no NFS mount exit 2
# with one line; and on this machine, without NFS mounts, one line and
# exit 0.
# shellcheck source=/dev/null
. "$(dirname "$0")/lib.sh"
cd "$TOP" || fail "cannot cd to $TOP"
D=tests/data/mountstats
G=tests/data/golden

# The listing and the difference, as documented.
"$LD" nfsstat --mountstats "$D/several" >"$T/out" || fail "several: exit $?"
diff -u "$G/nfsstat-several.txt" "$T/out" >&2 || fail "several: output"
"$LD" nfsstat --diff "$D/before" "$D/after" >"$T/out" ||
    fail "--diff: exit $?"
diff -u "$G/nfsstat-diff.txt" "$T/out" >&2 || fail "--diff: output"
# Named mount points: the topmost of a stack, a trailing slash, the order
# given; in --diff, one that went away.
"$LD" nfsstat --mountstats "$D/several" /mnt/stack/ "/mnt/with space" \
    >"$T/out" || fail "named: exit $?"
[ "$(grep -v '^ ' "$T/out")" = "/mnt/stack (srv2:/new, nfs vers 3, statvers 1.1)

/mnt/with space (srv:/with space, nfs vers 4, statvers 1.1)" ] ||
    fail "named mount points: $(cat "$T/out")"
"$LD" nfsstat --diff "$D/before" "$D/after" /mnt/gone >"$T/out" ||
    fail "--diff /mnt/gone: exit $?"
[ "$(cat "$T/out")" = "/mnt/gone (srv:/gone, nfs vers 3, statvers 1.1): not in $D/after, unmounted since" ] ||
    fail "--diff /mnt/gone: $(cat "$T/out")"
"$LD" nfsstat --mountstats "$D/iostats10" >"$T/out" ||
    fail "iostats10: exit $?"
grep -q '^  LOOKUP  *300  *300  *0  *136  *92  *0\.700  *0\.867  *-$' "$T/out" ||
    fail "iostats 1.0: no '-' for the errors: $(cat "$T/out")"

# one_line STATUS MESSAGE ARG...: largedir ARG... exits STATUS, prints
# nothing on stdout and exactly MESSAGE on stderr.
one_line() {
	ol_status=$1 ol_msg=$2
	shift 2
	expect_exit "$ol_status" "$LD" "$@" >"$T/out" 2>"$T/err"
	[ ! -s "$T/out" ] || fail "$*: wrote to stdout: $(cat "$T/out")"
	[ "$(cat "$T/err")" = "largedir: $ol_msg" ] ||
	    fail "$*: '$(cat "$T/err")', expected 'largedir: $ol_msg'"
}
one_line 2 "$D/bad-truncated:27: READDIR: 4 numbers, expected 9" \
    nfsstat --mountstats "$D/bad-truncated"
one_line 2 "$D/bad-number:14: LOOKUP: '27x00' is not a number" \
    nfsstat --mountstats "$D/bad-number"
one_line 2 "$D/bad-cut:28: no newline at the end: the file is cut short" \
    nfsstat --mountstats "$D/bad-cut"
one_line 2 "$D/bad-outside:2: a statistics line outside a mount's block" \
    nfsstat --mountstats "$D/bad-outside"
one_line 2 "$D/bad-number:14: LOOKUP: '27x00' is not a number" \
    nfsstat --diff "$D/before" "$D/bad-number"
one_line 2 "$D/bad-backwards: /mnt/a: READDIR ops went down from 4 to 2 (mounted again between the copies?)" \
    nfsstat --diff "$D/before" "$D/bad-backwards"
one_line 2 "open $T/none: No such file or directory" \
    nfsstat --mountstats "$T/none"
one_line 2 "/srv/data: not an NFS mount (ext4) in $D/several" \
    nfsstat --mountstats "$D/several" /mnt/nfs3 /srv/data
one_line 2 "/mnt/nope: not a mount point in $D/several" \
    nfsstat --mountstats "$D/several" /mnt/nope
one_line 2 "/srv/data: not an NFS mount in $D/before or $D/after" \
    nfsstat --diff "$D/before" "$D/after" /srv/data
one_line 2 "nfsstat: unknown option or missing value: --bogus" \
    nfsstat --bogus
usage="usage: largedir nfsstat [--mountstats file] [mountpoint ...] | --diff before after [mountpoint ...]"
one_line 2 "$usage" nfsstat --diff "$D/before"
one_line 2 "$usage" nfsstat --diff "$D/before" --mountstats "$D/v3" "$D/after"
expect_exit 0 "$LD" nfsstat -h >"$T/out"
grep -q '^usage: largedir nfsstat' "$T/out" || fail "-h: $(cat "$T/out")"

# This machine: the kernel here has no NFS client.
if grep -q ' statvers=' /proc/self/mountstats 2>/dev/null; then
	echo "this machine has NFS mounts: the no-mounts line is not checked"
else
	expect_exit 0 "$LD" nfsstat >"$T/out" 2>"$T/err"
	[ "$(cat "$T/out")" = "no NFS mounts in /proc/self/mountstats" ] ||
	    fail "no NFS mounts: '$(cat "$T/out")'"
	[ ! -s "$T/err" ] || fail "no NFS mounts: stderr: $(cat "$T/err")"
fi

# nfs-utils' mountstats (nfs-common) reads every good fixture, and counts
# what largedir counts: operation, calls, bytes sent and received per call.
need_dep mountstats nfs-common
for f in v3 v4 iostats10 several before after; do
	mountstats mountstats -R -f "$D/$f" >/dev/null 2>"$T/err" ||
	    fail "mountstats -R -f $f: $(tail -n 1 "$T/err")"
done
# theirs FILE [ARG...]: "OP OPS SENT/OP RECV/OP" of mountstats --rpc.
theirs() {
	th_f=$1
	shift
	mountstats mountstats -r -f "$th_f" "$@" | awk '
	/^[A-Z0-9_]+:$/ { op = substr($1, 1, length($1) - 1); next }
	op != "" && $2 == "ops" { n = $1; next }
	op != "" && /avg bytes sent/ { print op, n, $6, $12; op = "" }' |
	    sort
}
# ours ARG...: the same of largedir nfsstat.
ours() {
	"$LD" nfsstat "$@" | awk '/^  / && $1 != "op" { print $1, $2, $5, $6 }' |
	    sort
}
for f in v3 v4 iostats10; do
	theirs "$D/$f" >"$T/theirs"
	ours --mountstats "$D/$f" >"$T/ours"
	[ -s "$T/ours" ] || fail "$f: no operations"
	diff -u "$T/theirs" "$T/ours" >&2 || fail "$f: not what mountstats counts"
done
theirs "$D/after" -S "$D/before" /mnt/a >"$T/theirs"
ours --diff "$D/before" "$D/after" /mnt/a >"$T/ours"
[ -s "$T/ours" ] || fail "--diff: no operations"
diff -u "$T/theirs" "$T/ours" >&2 || fail "--diff: not what mountstats -S counts"
exit 0
