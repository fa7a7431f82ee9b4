#!/bin/sh
# shellcheck disable=SC2154 # tmp, here, root: from lib.sh
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The largedir authors
#
# nfs-tools.sh [-k UML] [-n N[,N...]] [-m OPTS]... [-d DIR] [LARGEDIR]:
# what the real tools send against what largedir's phases named after
# them send, through the same kernel NFS client (issue 28).
#
# Starts the project's loopback NFS server (tests/nfs-server.sh) and boots
# the User-Mode Linux kernel UML (default $LARGEDIR_UML, else
# /usr/bin/linux.uml) with the host's root read-only, as largedir's
# kernel = uml targets do.  In the guest, for each mount option set OPTS
# (comma-separated, no blanks; none or '' for the client's defaults;
# default: nordirplus, then none; vers=3, TCP, nolock and the server's
# ports are always given) and each N (default 1,000):
#  1. makes a directory of N empty files (touch through xargs);
#  2. runs ls -f, ls -lU and rm -rf on it, each on a fresh mount, keeping
#     /proc/self/mountstats from just before and just after the tool;
#  3. runs largedir (the binary LARGEDIR, default $LARGEDIR, else
#     build/largedir) on a fresh mount: one round of N, the phases
#     create, list, liststat and rmrf, --cold=all.
# Then prints, per option set and N, each procedure either side sent: the
# tool's from `largedir nfsstat --diff` of its two copies, largedir's from
# its PHASE_rpc_PROC columns (list against ls -f, liststat against
# ls -lU, rmrf against rm -rf), and the difference.  The same rows go to
# DIR/counts.tsv (kernel, options, n, phase, tool, procedure, tool's
# count, largedir's), with the mountstats copies and largedir's outputs
# beside it; without -d, DIR is temporary.  tests/sh/t_umltools.sh runs
# this at N = 1,000 and holds largedir to the tools.
#
# Needs root, nfs-ganesha, slirp and a UML kernel that runs on this CPU
# (on one with AMX: make uml-kernel); without them it says why and
# exits 77.  Exit 1 when the guest or a step in it fails, or it runs out
# of time (5 minutes plus 10 ms a file of every pass); never on the
# figures.  At N = 100,000 a pass takes some minutes: every call is a
# round trip through slirp.
# shellcheck source=/dev/null
. "$(dirname "$0")/lib.sh"
ld=${LARGEDIR:-$root/build/largedir}
uml=${LARGEDIR_UML:-/usr/bin/linux.uml}
ns=1000
opts=
keep=
while getopts k:n:m:d: ch; do
	case $ch in
	k)	uml=$OPTARG ;;
	n)	ns=$(echo "$OPTARG" | tr , ' ') ;;
	m)	case $OPTARG in
		*[[:space:]]*)
			echo "nfs-tools.sh: -m: blanks in '$OPTARG'" >&2
			exit 2 ;;
		esac
		opts="$opts${opts:+ }${OPTARG:-none}" ;;
	d)	keep=$OPTARG ;;
	*)	echo "usage: nfs-tools.sh [-k UML] [-n N,...] [-m OPTS]..." \
		    "[-d DIR] [LARGEDIR]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] || ld=$1
[ -n "$opts" ] || opts="nordirplus none"
for n in $ns; do
	case $n in
	'' | *[!0-9]* | 0*)
		echo "nfs-tools.sh: -n: not a count of files: $n" >&2
		exit 2 ;;
	esac
done
[ -x "$ld" ] || { echo "nfs-tools.sh: no largedir binary at $ld" >&2; exit 1; }
ld=$(cd "$(dirname "$ld")" && pwd)/$(basename "$ld")
notrun() {
	echo "nfs-tools.sh: not run: $*"
	exit 77
}
[ "$(id -u)" = 0 ] || notrun "needs root (the NFS server's loop device)"
[ -x "$uml" ] || notrun "no UML kernel $uml (make uml-kernel)"
command -v ganesha.nfsd >/dev/null || notrun "no ganesha.nfsd (make deps)"
[ -x /usr/bin/slirp-fullbolt ] || notrun "no slirp (make deps)"

out=${keep:-$tmp/out}
mkdir -p "$out"
out=$(cd "$out" && pwd)
R=$tmp/run
mkdir -p "$R"

state=$(mktemp -d "${TMPDIR:-/tmp}/largedir-nfs.XXXXXX")
tools_cleanup() {
	st=$?
	trap - EXIT
	pkill -9 -f "uml_dir=$R/uml " 2>/dev/null || true
	if ! sh "$root/tests/nfs-server.sh" stop "$state"; then
		echo "nfs-tools.sh: the NFS server of $state is not stopped:" \
		    "sh tests/nfs-server.sh stop $state" >&2
		st=1
	fi
	bench_cleanup
	exit "$st"
}
trap tools_cleanup EXIT
st=0
env=$(sh "$root/tests/nfs-server.sh" start "$state" 2G 2>"$tmp/nfsd.err") ||
    st=$?
case $st in
0) ;;
77) notrun "$(tail -n 1 "$tmp/nfsd.err")" ;;
*) cat "$tmp/nfsd.err" >&2; echo "nfs-tools.sh: no NFS server" >&2; exit 1 ;;
esac
NFS_EXPORT='' NFS_PORT='' MNT_PORT=''
eval "$env"

# What the guest reads: one value a line, then a line per pass.
base="vers=3,proto=tcp,mountproto=tcp,nolock,port=$NFS_PORT"
base="$base,mountport=$MNT_PORT"
{
	echo "10.0.2.2:$NFS_EXPORT"
	echo "$ld"
	echo "$out"
	for o in $opts; do
		for n in $ns; do
			if [ "$o" = none ]; then
				echo "$o $n $base"
			else
				echo "$o $n $base,$o"
			fi
		done
	done
} >"$R/passes"

cat >"$R/init" <<'EOF'
#!/bin/sh
# The guest's init (bench/nfs-tools.sh).
PATH=/usr/sbin:/usr/bin:/sbin:/bin
export PATH
R=$RUNDIR
M=/run/t
off() {
	sync
	halt -ff 2>/dev/null
	echo o > /proc/sysrq-trigger
	sleep 10
}
say() {
	echo "init: $*"
	echo "$*" > "$R/status"
	off
}
mount -t proc proc /proc || off
mount -t sysfs sys /sys || off
mount -t devtmpfs dev /dev 2>/dev/null
mount -t tmpfs run /run || off
mount -t hostfs -o "$R" none "$R" || off
{ read -r SRC; read -r LD; read -r OUT; } < "$R/passes" ||
    say "cannot read $R/passes"
mkdir -p "$OUT" && mount -t hostfs -o "$OUT" none "$OUT" ||
    say "cannot mount $OUT"
{ ip link set lo up && ip addr add 10.0.2.15/24 dev eth0 &&
    ip link set eth0 up && ip route add default via 10.0.2.2; } ||
    say "cannot bring up eth0 (slirp)"
echo "init: kernel $(uname -r)"
uname -r > "$OUT/kernel"
# Debian's linux.uml has the NFS client as a module (its modules are in
# /usr/lib/uml/modules); a kernel with it built in needs none.
mkdir -p /run/R/lib && ln -s /usr/lib/uml/modules /run/R/lib/modules &&
    modprobe -d /run/R nfsv3 2>/dev/null
mkdir -p $M || say "mkdir $M"
tail -n +4 "$R/passes" | while read -r NAME N OPTS; do
	P=$OUT/$NAME-$N
	mkdir -p "$P"
	mount -t nfs -o "$OPTS" "$SRC" $M 2> "$P/mount.err" ||
	    say "mount -o $OPTS $SRC: $(head -n 1 "$P/mount.err")"
	grep " $M " /proc/mounts > "$P/mount"
	rm -rf $M/tools && mkdir $M/tools || say "mkdir $M/tools"
	( cd $M/tools && seq -f f%.0f 1 "$N" | xargs touch ) ||
	    say "touch $N files"
	umount $M || say "umount $M"
	for T in ls-f ls-lU rm-rf; do
		mount -t nfs -o "$OPTS" "$SRC" $M || say "mount for $T"
		cat /proc/self/mountstats > "$P/$T.before"
		case $T in
		ls-f) ls -f $M/tools > /dev/null ;;
		ls-lU) ls -lU $M/tools > /dev/null ;;
		rm-rf) rm -rf $M/tools ;;
		esac || say "$T failed"
		cat /proc/self/mountstats > "$P/$T.after"
		umount $M || say "umount $M after $T"
	done
	mount -t nfs -o "$OPTS" "$SRC" $M || say "mount for largedir"
	"$LD" -n "$N" -N "$N" --phases=create,list,liststat,rmrf \
	    --cold=all -s 1 -q -o "$P/ld" --label ld $M 2> "$P/ld.err" ||
	    say "largedir exit $?: $(head -n 1 "$P/ld.err")"
	umount $M || say "umount $M after largedir"
	echo "init: $NAME $N done"
done
[ -e "$R/status" ] || echo 0 > "$R/status"
umount "$OUT"
off
EOF
chmod 755 "$R/init"

# The guest's time: 5 minutes, and 10 ms a file of every pass (a pass at
# 100,000 files takes about 4 minutes here); then it is killed.
limit=300
for o in $opts; do
	for n in $ns; do
		limit=$((limit + n / 100))
	done
done
timeout -k 10 "$limit" "$uml" mem=512M rootfstype=hostfs rootflags=/ ro \
    "init=$R/init" "uml_dir=$R/uml" umid=largedir-tools con=null \
    con0=fd:0,fd:1 eth0=slirp,,/usr/bin/slirp-fullbolt "RUNDIR=$R" \
    </dev/null >"$out/console.log" 2>&1 || true
pkill -9 -f "uml_dir=$R/uml " 2>/dev/null || true
status=$(cat "$R/status" 2>/dev/null ||
    echo "no status: it died or ran out of time (${limit} s; see" \
    "$out/console.log)")
if grep -q 'ptrace set fp regs failed' "$out/console.log"; then
	notrun "$uml cannot run on this CPU (its XSAVE area, with AMX, is" \
	    "larger than it knows): make uml-kernel builds one that can"
fi
if [ "$status" != 0 ]; then
	echo "nfs-tools.sh: the guest: $status" >&2
	tail -n 5 "$out/console.log" >&2
	exit 1
fi
kernel=$(cat "$out/kernel")

# tool_counts PASS TOOL: "PROC COUNT" a line, from the mountstats copies.
tool_counts() {
	"$ld" nfsstat --diff "$1/$2.before" "$1/$2.after" /run/t | awk '
	    $1 == "op" { on = 1; next }
	    on && NF >= 2 && $2 ~ /^[0-9]+$/ { print $1, $2 }'
}

# ld_counts PASS PHASE: "PROC COUNT" a line, from largedir's JSON.
ld_counts() {
	jq -r --arg p "$2_rpc_" '.rounds[0] | to_entries[] |
	    select(.key | startswith($p)) |
	    select(.key | test("_rpc_(bytes|errors|exec|queue|rtt|timeouts|trans)")
	    | not) | "\(.key | ltrimstr($p) | ascii_upcase) \(.value)"' \
	    "$1/ld/ld.json"
}

printf 'kernel\toptions\tn\tphase\ttool\tproc\ttool_calls\tlargedir_calls\n' \
    >"$out/counts.tsv"
echo "nfs-tools: UML $kernel, $("$ld" -V 2>&1 | head -n 1)," \
    "NFSv3 against $NFS_SERVER"
for o in $opts; do
	for n in $ns; do
		p=$out/$o-$n
		echo
		echo "mount options: $o, n = $n"
		printf '%-9s %-6s %-12s %9s %9s %6s\n' phase tool proc tool \
		    largedir diff
		for pair in list:ls-f liststat:ls-lU rmrf:rm-rf; do
			ph=${pair%%:*} t=${pair#*:}
			tool_counts "$p" "$t" >"$tmp/t"
			ld_counts "$p" "$ph" >"$tmp/l"
			awk -v ph="$ph" -v t="$t" -v k="$kernel" -v o="$o" \
			    -v n="$n" -v tsv="$out/counts.tsv" '
			    FNR == NR { tc[$1] = $2; seen[$1] = 1; next }
			    { lc[$1] = $2; seen[$1] = 1 }
			    END {
				for (p in seen) {
					a = tc[p] + 0; b = lc[p] + 0
					if (a == 0 && b == 0)
						continue
					printf "%-9s %-6s %-12s %9d %9d %+6d\n",
					    ph, t, p, a, b, b - a
					printf "%s\t%s\t%s\t%s\t%s\t%s\t%d\t%d\n",
					    k, o, n, ph, t, p, a, b >> tsv
				}
			    }' "$tmp/t" "$tmp/l" | sort -k3
		done
	done
done
