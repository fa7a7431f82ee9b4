#!/bin/sh
# shellcheck disable=SC2154 # tmp, here, root: from lib.sh
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The largedir authors
#
# nfs.sh [LARGEDIR]: how much largedir's NFS client costs, and what its
# --nfs-window gains.
#
# Starts a private NFS-Ganesha on 127.0.0.1 (tests/nfs-server.sh, an ext4
# image of 2G) and measures through largedir's own NFSv3 client:
#  1. window 1: one round of largedir at n = 20,000 (create, open, delete,
#     --sync none, --nfs-window 1) against bench/nfsloop.c, a bare libnfs
#     loop sending the same calls (CREATE + SETATTR, LOOKUP + ACCESS,
#     REMOVE) with everything prepared outside the timing.  5 pairs,
#     alternating which program goes first; each pair, then the median
#     over the pairs of largedir's rate divided by nfsloop's per phase and
#     whether it reaches the target, 0.95.
#  2. window 16 against window 1: the same rounds with --nfs-window 16 and
#     1 (nfsloop: WINDOW 16 and 1), 5 pairs, alternating the order; the
#     median of the open rate (LOOKUP + ACCESS) at 16 divided by that at 1
#     for largedir, against the target 1.8, and for nfsloop, for
#     comparison: if nfsloop gains no more, the server is the limit, not
#     largedir.  Create and delete, and largedir's mean round trip per
#     call and client CPU time per file in open, for information.
#  3. largedir's peak resident set size at n = 1,000,000 over NFS
#     (create, delete) and whether it stays within the target, 64 MiB:
#     from /usr/bin/time -f %M when GNU time is installed, else from the
#     peak_rss_kib of largedir's .out; with both, both are shown.
# Takes 15 minutes or so, most of it in 3.  Needs root (a loop device,
# mount, NFS-Ganesha: make deps); without them it says why and exits 0.
# Never fails on the figures: the exit status is 0 unless something broke.
# The server is stopped and its image removed however the script ends.
#
# LARGEDIR is $1, else $LARGEDIR, else build/largedir of this source
# tree.  NFS_BENCH_N and NFS_BENCH_PAIRS change n and the number of pairs
# of 1 and 2, NFS_BENCH_RSS_N the n of 3 (0 leaves 3 out); for quick
# trials: the targets are for the defaults.
# shellcheck source=/dev/null
. "$(dirname "$0")/lib.sh"
ld=${1:-${LARGEDIR:-$root/build/largedir}}
n=${NFS_BENCH_N:-20000}
pairs=${NFS_BENCH_PAIRS:-5}
rss_n=${NFS_BENCH_RSS_N:-1000000}
target=0.95
target_win=1.8
target_mib=64
wide=16
[ -x "$ld" ] || { echo "nfs.sh: no largedir binary at $ld" >&2; exit 1; }
if [ "$(id -u)" != 0 ]; then
	echo "nfs.sh: not run: needs root (tests/nfs-server.sh: a loop" \
	    "device, mount, NFS-Ganesha)"
	exit 0
fi
if ! libnfs=$(pkg-config --cflags --libs libnfs 2>/dev/null); then
	echo "nfs.sh: not run: no libnfs for bench/nfsloop.c" \
	    "(Debian libnfs-dev: make deps)"
	exit 0
fi

# The server's state directory, outside $tmp so that no rm -rf of $tmp
# reaches into its mounted export; tests/nfs-server.sh stop removes it.
state=$(mktemp -d "${TMPDIR:-/tmp}/largedir-nfs.XXXXXX")
nfs_cleanup() {
	st=$?
	trap - EXIT
	if ! sh "$root/tests/nfs-server.sh" stop "$state"; then
		echo "nfs.sh: the NFS server of $state is not stopped:" \
		    "sh tests/nfs-server.sh stop $state" >&2
		st=1
	fi
	bench_cleanup
	exit "$st"
}
trap nfs_cleanup EXIT

# csv_get FILE COLUMN: the first data row's value in column COLUMN.
csv_get() {
	awk -F, -v c="$2" '
	    NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next }
	    NR == 2 && k > 0 { print $k; found = 1 }
	    END { if (!found) exit 1 }' "$1" ||
	    { echo "nfs.sh: no column $2 in $1" >&2; exit 1; }
}

# median FILE COLUMN: "median min max" of column COLUMN of FILE.
median() {
	cut -d ' ' -f "$2" "$1" | sort -g | awk '
	    { v[NR] = $1 }
	    END {
		m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf "%.3f %.3f %.3f\n", m, v[1], v[NR]
	    }'
}

# shellcheck disable=SC2086 # $libnfs is flags, split on purpose
${CC:-cc} -O2 -std=c11 -D_GNU_SOURCE -Wall -o "$tmp/nfsloop" \
    "$here/nfsloop.c" $libnfs

st=0
out=$(sh "$root/tests/nfs-server.sh" start "$state" 2G 2>"$tmp/nfsd.err") ||
    st=$?
case $st in
0)
	;;
77)
	echo "nfs.sh: not run: $(tail -n 1 "$tmp/nfsd.err")"
	exit 0
	;;
*)
	cat "$tmp/nfsd.err" >&2
	echo "nfs.sh: the NFS server did not start" >&2
	exit 1
	;;
esac
eval "$out"

echo "nfs: $("$ld" -V 2>&1 | head -n 1) against nfsloop ($(pkg-config \
    --modversion libnfs)), n=$n, $pairs pairs"
echo "nfs: NFS-Ganesha $(dpkg-query -W -f '${Version}' nfs-ganesha \
    2>/dev/null || echo '?') on 127.0.0.1 (tests/nfs-server.sh)," \
    "an ext4 image of 2G; rates in files/s"
echo "nfs: load average $(cut -d ' ' -f 1-3 /proc/loadavg)," \
    "$(getconf _NPROCESSORS_ONLN) CPUs, shared by client and server"

# run_largedir WINDOW: one round of create, open and delete with seed
# $seed; sets ld_create, ld_open, ld_delete, and for open ld_rtt (mean
# round trip per call, ms) and ld_cpu (client CPU per file, us).
run_largedir() {
	res=$tmp/res-$p-$1
	rm -rf "$res"
	if ! "$ld" -n "$n" -N "$n" -p create,open,delete --sync none \
	    --nfs-window "$1" -q -s "$seed" -o "$res" "$NFS_URL" \
	    2>"$tmp/err"; then
		cat "$tmp/err" >&2
		echo "nfs.sh: largedir failed" >&2
		exit 1
	fi
	csv=$(find "$res" -name '*.csv' | head -n 1)
	[ -n "$csv" ] || { echo "nfs.sh: no .csv in $res" >&2; exit 1; }
	ld_create=$(csv_get "$csv" create_per_s)
	ld_open=$(csv_get "$csv" open_per_s)
	ld_delete=$(csv_get "$csv" delete_per_s)
	ld_rtt=$(awk -v t="$(csv_get "$csv" open_rpc_rtt_ns)" \
	    -v a="$(csv_get "$csv" open_rpc_lookup)" \
	    -v b="$(csv_get "$csv" open_rpc_access)" \
	    'BEGIN { printf "%.3f", t / (a + b) / 1e6 }')
	ld_cpu=$(awk -v u="$(csv_get "$csv" open_user_ns)" \
	    -v s="$(csv_get "$csv" open_sys_ns)" -v n="$n" \
	    'BEGIN { printf "%.1f", (u + s) / n / 1e3 }')
	rm -rf "$res"
}

# run_nfsloop WINDOW: the same with nfsloop; sets nl_create, nl_open and
# nl_delete.
run_nfsloop() {
	# shellcheck disable=SC2046 # three words
	set -- $("$tmp/nfsloop" "$NFS_URL" "$n" "$seed" "$1")
	[ $# -eq 3 ] || { echo "nfs.sh: nfsloop failed" >&2; exit 1; }
	nl_create=$1
	nl_open=$2
	nl_delete=$3
}

echo
echo "1. window 1: largedir against nfsloop, one call at a time"
: >"$tmp/ratios"
p=1
while [ "$p" -le "$pairs" ]; do
	seed=$((1000 + p))
	if [ $((p % 2)) -eq 1 ]; then
		first=largedir
		run_largedir 1
		run_nfsloop 1
	else
		first=nfsloop
		run_nfsloop 1
		run_largedir 1
	fi
	echo
	echo "pair $p ($first first, seed $seed)"
	awk -v p="$p" -v f="$tmp/ratios" \
	    -v lc="$ld_create" -v mc="$nl_create" \
	    -v lo="$ld_open" -v mo="$nl_open" \
	    -v ld="$ld_delete" -v md="$nl_delete" 'BEGIN {
		printf "  %-8s %12s %12s %7s\n", "phase", "largedir", "nfsloop",
		    "ratio"
		printf "  %-8s %12.1f %12.1f %7.3f\n", "create", lc, mc, lc / mc
		printf "  %-8s %12.1f %12.1f %7.3f\n", "open", lo, mo, lo / mo
		printf "  %-8s %12.1f %12.1f %7.3f\n", "delete", ld, md, ld / md
		printf "%d %.6f %.6f %.6f\n", p, lc / mc, lo / mo, ld / md >> f
	}'
	p=$((p + 1))
done

echo
echo "median of largedir / nfsloop over $pairs pairs:"
col=2
for ph in create open delete; do
	# shellcheck disable=SC2046 # three words
	set -- $(median "$tmp/ratios" "$col")
	awk -v ph="$ph" -v m="$1" -v lo="$2" -v hi="$3" -v t="$target" \
	    'BEGIN {
		printf "  %-8s %.3f  (min %.3f, max %.3f)  target >= %s: %s\n",
		    ph, m, lo, hi, t, (m >= t) ? "met" : "not met"
	    }'
	col=$((col + 1))
done

echo
echo "2. window $wide against window 1: files/s at each, and their ratio"

# one_ld WINDOW, one_nl WINDOW: a run, its figures kept in $tmp/ld-WINDOW
# ("create open delete rtt cpu") or $tmp/nl-WINDOW ("create open delete").
one_ld() {
	run_largedir "$1"
	echo "$ld_create $ld_open $ld_delete $ld_rtt $ld_cpu" >"$tmp/ld-$1"
}
one_nl() {
	run_nfsloop "$1"
	echo "$nl_create $nl_open $nl_delete" >"$tmp/nl-$1"
}

: >"$tmp/wld"
: >"$tmp/wnl"
p=1
while [ "$p" -le "$pairs" ]; do
	seed=$((2000 + p))
	# Odd pairs: largedir first, window 16 first; even: all reversed.
	if [ $((p % 2)) -eq 1 ]; then
		order="largedir and window $wide first"
		one_ld "$wide"
		one_ld 1
		one_nl "$wide"
		one_nl 1
	else
		order="nfsloop and window 1 first"
		one_nl 1
		one_nl "$wide"
		one_ld 1
		one_ld "$wide"
	fi
	echo
	echo "pair $p ($order, seed $seed)"
	awk -v p="$p" -v f="$tmp/wld" -v g="$tmp/wnl" -v w="$wide" \
	    -v l1="$tmp/ld-1" -v lw="$tmp/ld-$wide" \
	    -v n1="$tmp/nl-1" -v nw="$tmp/nl-$wide" '
	    function row(what, a, b) {
		printf "  %-17s %10.1f %10.1f %7.3f\n", what, a, b, b / a
	    }
	    BEGIN {
		if ((getline x < l1) <= 0 || (getline y < lw) <= 0 ||
		    (getline u < n1) <= 0 || (getline v < nw) <= 0)
			exit 1
		split(x, a)
		split(y, b)
		split(u, c)
		split(v, d)
		printf "  %-17s %10s %10s %7s\n", "", "window 1",
		    "window " w, "ratio"
		row("largedir open", a[2], b[2])
		row("nfsloop open", c[2], d[2])
		row("largedir create", a[1], b[1])
		row("nfsloop create", c[1], d[1])
		row("largedir delete", a[3], b[3])
		row("nfsloop delete", c[3], d[3])
		printf "  largedir open: round trip %.3f -> %.3f ms per call," \
		    " client CPU %.1f -> %.1f us per file\n", a[4], b[4],
		    a[5], b[5]
		printf "%d %.6f %.6f %.6f\n", p, b[2] / a[2], b[1] / a[1],
		    b[3] / a[3] >> f
		printf "%d %.6f %.6f %.6f\n", p, d[2] / c[2], d[1] / c[1],
		    d[3] / c[3] >> g
	    }' || { echo "nfs.sh: lost the figures of pair $p" >&2; exit 1; }
	p=$((p + 1))
done

echo
echo "median of window $wide / window 1 over $pairs pairs:"
for who in largedir nfsloop; do
	case $who in
	largedir) f=$tmp/wld ;;
	*) f=$tmp/wnl ;;
	esac
	# shellcheck disable=SC2046 # nine words
	set -- $(median "$f" 2) $(median "$f" 3) $(median "$f" 4)
	awk -v who="$who" -v m="$1" -v lo="$2" -v hi="$3" -v c="$4" \
	    -v d="$7" -v t="$target_win" 'BEGIN {
		printf "  %-8s open %.3f  (min %.3f, max %.3f)", who, m, lo, hi
		if (who == "largedir")
			printf "  target >= %s: %s\n", t,
			    (m >= t) ? "met" : "not met"
		else
			printf "  for comparison, no target\n"
		printf "  %-8s create %.3f, delete %.3f  (for information)\n",
		    "", c, d
	    }'
done

echo
if [ "$rss_n" -eq 0 ]; then
	echo "3. peak RSS: left out (NFS_BENCH_RSS_N=0)"
	exit 0
fi
gnutime=
if [ -x /usr/bin/time ] && /usr/bin/time -f %M -o "$tmp/probe" true \
    2>/dev/null; then
	gnutime=/usr/bin/time
fi
echo "3. peak RSS of largedir at n=$rss_n over NFS (create, delete; a few" \
    "minutes)"
if [ -n "$gnutime" ]; then
	echo "  from /usr/bin/time -f %M (and largedir's peak_rss_kib)"
	set -- "$gnutime" -f %M -o "$tmp/time-rss" "$ld"
else
	echo "  no GNU time (apt-get install time): from largedir's" \
	    "peak_rss_kib"
	set -- "$ld"
fi
res=$tmp/res-rss
if ! "$@" -n "$rss_n" -N "$rss_n" -p create,delete -q -o "$res" \
    "$NFS_URL" 2>"$tmp/err"; then
	cat "$tmp/err" >&2
	echo "nfs.sh: largedir failed (peak RSS)" >&2
	exit 1
fi
out=$(find "$res" -name '*.out' | head -n 1)
self=
[ -z "$out" ] || self=$(sed -n 's/^# peak_rss_kib: *//p' "$out")
tkib=
[ -z "$gnutime" ] || tkib=$(tail -n 1 "$tmp/time-rss")
kib=${tkib:-$self}
[ -n "$kib" ] || { echo "nfs.sh: no peak RSS" >&2; exit 1; }
csv=$(find "$res" -name '*.csv' | head -n 1)
rates=
[ -z "$csv" ] || rates="create $(csv_get "$csv" create_per_s), delete\
 $(csv_get "$csv" delete_per_s) files/s"
awk -v k="$kib" -v s="$self" -v t="$tkib" -v tm="$target_mib" \
    -v r="$rates" 'BEGIN {
	printf "  peak RSS %.1f MiB (%d KiB)", k / 1024, k
	if (t != "" && s != "")
		printf "; largedir says %.1f MiB", s / 1024
	printf "\n"
	if (r != "")
		printf "  (%s)\n", r
	m = (k / 1024 <= tm) ? "met" : "not met"
	printf "  target <= %d MiB: %s\n", tm, m
}'
