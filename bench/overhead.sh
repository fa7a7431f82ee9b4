#!/bin/sh
# shellcheck disable=SC2154 # tmp, here, dir, where: from lib.sh
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The largedir authors
#
# overhead.sh [LARGEDIR]: how much largedir's bookkeeping costs.
#
# On a tmpfs, where the system calls are as cheap as they get and any
# overhead shows most, compares one round of largedir at n = 100,000 with
# bench/minloop.c, a bare loop doing the same system calls with
# everything prepared outside the timing.  Both call syncfs(2) before
# each phase, untimed (largedir's default --sync phase).  Runs 5 pairs,
# alternating which program goes first, prints each pair, then the
# median over the pairs of largedir's rate divided by minloop's for
# create, open and delete, and whether it reaches the target, 0.97.
# Never fails on the figures: the exit status is 0 unless something broke.
#
# LARGEDIR is $1, else $LARGEDIR, else build/largedir of this source
# tree.  As root, the runs use a private tmpfs mounted for the purpose;
# otherwise /dev/shm.  OVERHEAD_N and OVERHEAD_PAIRS change n and the
# number of pairs (for quick trials; the target is for the defaults).
# shellcheck source=/dev/null
. "$(dirname "$0")/lib.sh"
ld=${1:-${LARGEDIR:-$root/build/largedir}}
n=${OVERHEAD_N:-100000}
pairs=${OVERHEAD_PAIRS:-5}
target=0.97
[ -x "$ld" ] || { echo "overhead.sh: no largedir binary at $ld" >&2; exit 1; }

# csv_get FILE COLUMN: the first data row's value in column COLUMN.
csv_get() {
	awk -F, -v c="$2" '
	    NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next }
	    NR == 2 && k > 0 { print $k; found = 1 }
	    END { if (!found) exit 1 }' "$1" ||
	    { echo "overhead.sh: no column $2 in $1" >&2; exit 1; }
}

# The directory the runs use: a tmpfs of our own, else /dev/shm.
bench_tmpfs overhead.sh "mode=0700,size=1g,nr_inodes=1m"

${CC:-cc} -O2 -std=c11 -D_GNU_SOURCE -Wall -o "$tmp/minloop" \
    "$here/minloop.c"

# Both run on the same, last CPU: no migrations, the same caches.
pin=
if command -v taskset >/dev/null 2>&1; then
	pin="taskset -c $(($(getconf _NPROCESSORS_ONLN) - 1))"
fi

echo "overhead: $("$ld" -V 2>&1 | head -n 1) against minloop, n=$n," \
    "$pairs pairs, on $where"
echo "overhead: both syncfs before each phase, untimed; rates in files/s;" \
    "${pin:-not pinned}"
echo "overhead: load average $(cut -d ' ' -f 1-3 /proc/loadavg)," \
    "$(getconf _NPROCESSORS_ONLN) CPUs"

run_largedir() {
	# shellcheck disable=SC2086 # $pin is a command or nothing
	if ! $pin "$ld" --start "$n" --max-files "$n" -q -s "$seed" \
	    -o "$tmp/res-$p" "$dir" 2>"$tmp/err"; then
		cat "$tmp/err" >&2
		echo "overhead.sh: largedir failed" >&2
		exit 1
	fi
	csv=$(find "$tmp/res-$p" -name '*.csv' | head -n 1)
	[ -n "$csv" ] || { echo "overhead.sh: no .csv in $tmp/res-$p" >&2;
	    exit 1; }
	ld_create=$(csv_get "$csv" create_per_s)
	ld_open=$(csv_get "$csv" open_per_s)
	ld_delete=$(csv_get "$csv" delete_per_s)
}

run_minloop() {
	# shellcheck disable=SC2046,SC2086 # three words; $pin may be empty
	set -- $($pin "$tmp/minloop" "$dir" "$n" "$seed")
	[ $# -eq 3 ] || { echo "overhead.sh: minloop failed" >&2; exit 1; }
	ml_create=$1
	ml_open=$2
	ml_delete=$3
}

: >"$tmp/ratios"
p=1
while [ "$p" -le "$pairs" ]; do
	seed=$((1000 + p))
	if [ $((p % 2)) -eq 1 ]; then
		first=largedir
		run_largedir
		run_minloop
	else
		first=minloop
		run_minloop
		run_largedir
	fi
	echo
	echo "pair $p ($first first, seed $seed)"
	awk -v p="$p" -v f="$tmp/ratios" \
	    -v lc="$ld_create" -v mc="$ml_create" \
	    -v lo="$ld_open" -v mo="$ml_open" \
	    -v ld="$ld_delete" -v md="$ml_delete" 'BEGIN {
		printf "  %-8s %12s %12s %7s\n", "phase", "largedir", "minloop",
		    "ratio"
		printf "  %-8s %12.1f %12.1f %7.3f\n", "create", lc, mc, lc / mc
		printf "  %-8s %12.1f %12.1f %7.3f\n", "open", lo, mo, lo / mo
		printf "  %-8s %12.1f %12.1f %7.3f\n", "delete", ld, md, ld / md
		printf "%d %.6f %.6f %.6f\n", p, lc / mc, lo / mo, ld / md >> f
	}'
	p=$((p + 1))
done

echo
echo "median of largedir / minloop over $pairs pairs:"
for ph in create open delete; do
	case $ph in
	create) col=2 ;;
	open) col=3 ;;
	delete) col=4 ;;
	esac
	cut -d ' ' -f "$col" "$tmp/ratios" | sort -g | awk -v ph="$ph" \
	    -v t="$target" '
	    { v[NR] = $1 }
	    END {
		m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf "  %-8s %.3f  (min %.3f, max %.3f)  target >= %s: %s\n",
		    ph, m, v[1], v[NR], t, (m >= t) ? "met" : "not met"
	    }'
done
