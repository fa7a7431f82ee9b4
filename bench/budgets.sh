#!/bin/sh
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The largedir authors
#
# budgets.sh [LARGEDIR]: how the default budget policy uses real budgets.
#
# First the planner on simulated machines (tests/unit/test_plan.c with
# $SEEDS seeds of noise, 50 unless given; a second): how close to their
# budgets the runs end, and how their largest n compares with an oracle's;
# the "rest knee" machine, whose phases after create slow down three
# times past a knee that create does not feel, shows where the time box
# is known to fail (its rows, marked FAILS, are not counted).
# Then, as root, for every config in $CONFIGS (configs/tmpfs.conf and
# configs/ext4.conf) and every budget in $BUDGETS ("15s 40s 1m 5m 30m"), a real
# run, largedir -c CONF -b BUDGET: for each, the time the budget counts
# (elapsed_s of the .out: from the end of mkfs to the results written)
# against the budget, the rounds, the largest n, how the run ended, and
# the plans it printed and the open phases its time box cut short.  The targets: each run ends between 95% and 100%
# of its budget, and the 30-minute ext4 run after 28m30s at least.  The
# real runs take the sum of the budgets for each config, plus set-up:
# 74 minutes by default.  The runs' directories go to $BUDGETS_OUT if
# set (kept), else to a temporary directory (removed).  Never fails on
# a figure: the exit status is 0 unless something broke.
set -eu
LC_ALL=C
export LC_ALL

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
ld=${1:-${LARGEDIR:-$root/build/largedir}}
sim=$(dirname "$ld")/tests/test_plan
configs=${CONFIGS:-"$root/configs/tmpfs.conf $root/configs/ext4.conf"}
budgets=${BUDGETS:-"15s 40s 1m 5m 30m"}
[ -x "$ld" ] || { echo "budgets.sh: no largedir binary at $ld" >&2; exit 1; }

if [ -x "$sim" ]; then
	echo "budgets: the planner on simulated machines, ${SEEDS:-50} seeds:"
	PLAN_SEEDS=${SEEDS:-50} PLAN_KNOWN=1 "$sim" 2>&1 |
	    sed -n '/^machine/,/runs outside/p' | sed 's/^/    /'
else
	echo "budgets: no $sim (make unit builds it): simulation left out"
fi

if [ "$(id -u)" -ne 0 ]; then
	echo "budgets: the real runs mount their targets: run as root"
	exit 0
fi

if [ -n "${BUDGETS_OUT:-}" ]; then
	out=$BUDGETS_OUT
	mkdir -p "$out"
	tidy() { :; }
else
	out=$(mktemp -d "${TMPDIR:-/tmp}/largedir-budgets.XXXXXX")
	tidy() { rm -rf "$out"; }
fi
trap tidy EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

# seconds BUDGET: a duration largedir accepts, in seconds.
seconds() {
	echo "$1" | awk '/^[0-9]+(\.[0-9]+)?(s|m|h)?$/ {
		v = $0; u = $0; sub(/[a-z]+$/, "", v); sub(/^[0-9.]+/, "", u)
		print v * (u == "m" ? 60 : u == "h" ? 3600 : 1) }'
}

echo "budgets: $("$ld" -V 2>&1 | head -n 1), load average" \
    "$(cut -d ' ' -f 1-3 /proc/loadavg), $(getconf _NPROCESSORS_ONLN) CPUs"
table=$out/table
printf '%-8s %6s %10s %7s %6s %12s  %s\n' target budget elapsed share \
    rounds "largest n" "how it ended" >"$table"
for conf in $configs; do
	for b in $budgets; do
		s=$(seconds "$b")
		[ -n "$s" ] || { echo "budgets.sh: bad budget $b" >&2; exit 2; }
		label=$(basename "$conf" .conf)-$b
		dir=$out/$label
		echo "budgets: $label ..."
		set +e
		"$ld" -c "$conf" -b "$b" -l "$label" -o "$dir" \
		    >"$out/$label.stdout" 2>"$out/$label.stderr"
		rc=$?
		set -e
		o=$dir/$label.out
		if [ ! -f "$o" ]; then
			echo "budgets.sh: $label: no results (exit $rc):" \
			    "$(tail -n 1 "$out/$label.stderr")" >&2
			exit 1
		fi
		el=$(sed -n 's/^# elapsed_s: //p' "$o")
		awk '
		    $1 == "round" && !h { for (i = 1; i <= NF; i++)
			c[$i] = i; h = 1; next }
		    h && $1 ~ /^[0-9]+$/ && $c["warmup"] == 0 {
			r = $1; if ($c["n"] > n) n = $c["n"] }
		    END { printf "%s %s\n", r, n }' "$o" >"$out/rn"
		read -r rounds n <"$out/rn"
		end=$(grep -E ': done$' "$out/$label.stdout" | tail -n 1)
		awk -v t="$label" -v b="$b" -v s="$s" -v e="$el" -v r="$rounds" \
		    -v n="$n" -v end="$end" 'BEGIN {
			printf "%-8s %6s %9.1fs %6.1f%% %6s %12d  %s\n",
			    t, b, e, 100 * e / s, r, n, end }' >>"$table"
		grep -E '^(plan|budget: round)' "$out/$label.stdout" |
		    sed 's/^/    /' >>"$table" || true
		[ "$rc" -eq 0 ] || echo "    (exit status $rc)" >>"$table"
	done
done
echo "budgets: elapsed is the time the budget counts (elapsed_s)"
cat "$table"
