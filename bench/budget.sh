#!/bin/sh
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The largedir authors
#
# budget.sh [BUDGET] [LARGEDIR]: how well largedir keeps its time budget.
#
# Runs largedir with the default policy and the budget BUDGET (5m unless
# given; any duration largedir accepts: 90s, 5m, 1h) on a temporary
# directory, times the whole process from the outside, and prints the
# wall time and whether it lies in [0.95 * BUDGET, BUDGET], which for 5m
# is [4m45s, 5m00s], the target.  Also prints each round's n, the time
# spent in rounds, and what largedir printed: a line per round and how
# the run stopped.  Never fails on the figure:
# the exit status is 0 unless something broke.
#
# The two arguments may come in either order: the one that names an
# executable file is the binary (default $LARGEDIR, else build/largedir
# of this source tree).  The directory under test is made in $BUDGET_DIR
# (default /var/tmp), and removed on exit.
set -eu
LC_ALL=C
export LC_ALL

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
ld=${LARGEDIR:-$root/build/largedir}
budget=5m
for a in "$@"; do
	case $a in
	*/*)	ld=$a ;;
	*)	if [ -f "$a" ] && [ -x "$a" ]; then ld=$a; else budget=$a; fi ;;
	esac
done
[ -x "$ld" ] || { echo "budget.sh: no largedir binary at $ld" >&2; exit 1; }

# The budget in seconds, with largedir's units (no unit means seconds).
budget_s=$(echo "$budget" | awk '
	/^[0-9]+(\.[0-9]+)?(ns|us|ms|s|m|min|h|d)?$/ {
		v = $0; u = $0
		sub(/[a-z]+$/, "", v); sub(/^[0-9.]+/, "", u)
		m = 1
		if (u == "ns") m = 1e-9
		if (u == "us") m = 1e-6
		if (u == "ms") m = 1e-3
		if (u == "m" || u == "min") m = 60
		if (u == "h") m = 3600
		if (u == "d") m = 86400
		printf "%.3f\n", v * m
	}')
[ -n "$budget_s" ] || { echo "budget.sh: bad budget: $budget" >&2; exit 2; }

base=${BUDGET_DIR:-/var/tmp}
work=$(mktemp -d "$base/largedir-budget.XXXXXX")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/largedir-bench.XXXXXX")
cleanup() {
	rm -rf "$work" "$tmp"
}
trap cleanup EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 141' PIPE
trap 'exit 143' TERM

case $work in
"$root"/*) echo "budget.sh: $work is inside the source tree" >&2; exit 1 ;;
esac

# Seconds since the epoch with nanoseconds; /proc/uptime (10 ms) if this
# date(1) has no %N.
now() {
	t=$(date +%s.%N)
	case $t in
	*[!0-9.]*|*.) awk '{ print $1 }' /proc/uptime ;;
	*) echo "$t" ;;
	esac
}

fstype=$(findmnt -n -o FSTYPE -T "$work" 2>/dev/null ||
    stat -f -c %T "$work" 2>/dev/null || echo unknown)
echo "budget: $("$ld" -V 2>&1 | head -n 1), budget $budget" \
    "(${budget_s} s), default policy"
echo "budget: directory $work ($fstype)"
echo "budget: load average $(cut -d ' ' -f 1-3 /proc/loadavg)," \
    "$(getconf _NPROCESSORS_ONLN) CPUs"

t0=$(now)
set +e
"$ld" -b "$budget" -o "$tmp/res" "$work" >"$tmp/stdout" 2>"$tmp/stderr"
rc=$?
set -e
t1=$(now)

csv=$(find "$tmp/res" -name '*.csv' 2>/dev/null | head -n 1)
rounds=$(awk '$1 == "round" {
	for (i = 2; i <= NF; i++)
		if ($i ~ /^n=/) { sub(/^n=/, "", $i); printf "%s%s",
		    sep, $i; sep = " " }
	} END { print "" }' "$tmp/stdout")
in_rounds=
if [ -n "$csv" ]; then
	in_rounds=$(awk -F, -v c=round_ns '
	    NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next }
	    k > 0 { s += $k } END { if (k > 0) printf "%.3f", s / 1e9 }' \
	    "$csv")
fi

echo "budget: exit status $rc"
echo "budget: rounds n: $rounds"
[ -z "$in_rounds" ] || echo "budget: time in rounds: $in_rounds s"
echo "budget: what largedir printed (rounds, then how it stopped):"
sed '1,2d; /^results: /d; s/^/    /' "$tmp/stdout"
if [ -s "$tmp/stderr" ]; then
	echo "budget: stderr:"
	sed 's/^/    /' "$tmp/stderr"
fi
awk -v t0="$t0" -v t1="$t1" -v b="$budget_s" 'BEGIN {
	w = t1 - t0; lo = 0.95 * b
	printf "budget: wall time %.3f s (%dm%06.3fs) of %.3f s, %.1f%%\n",
	    w, int(w / 60), w - 60 * int(w / 60), b, 100 * w / b
	printf "budget: target within [%.3f s, %.3f s]: %s\n", lo, b,
	    (w >= lo && w <= b) ? "met" : "not met"
}'

if [ "$rc" -ne 0 ]; then
	echo "budget.sh: largedir exited with status $rc" >&2
	exit 1
fi
