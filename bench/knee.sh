#!/bin/sh
# shellcheck disable=SC2154 # tmp, root: from lib.sh
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The largedir authors
#
# knee.sh [LARGEDIR]: the knee of ext4's open rate, at full size.
#
# Two runs of largedir on configs/ext4.conf (an image on a loop device),
# n from 20,000 to 400,000 with the seed 5: one with --memory-limit=64M
# (which implies --cold=remount), where the directory stops fitting in
# the dentry and inode caches and the open rate falls, and one with
# --cold=remount alone, where it does not.  tests/sh/t_knee.sh checks the
# same mechanism in small (6 MiB, up to 30,000 files); this is the run the
# README describes.  For each run it prints what largedir printed (a line
# per round, how it stopped, the knee), then the knee of the open rate
# (its n, or none), the rates before and after it, the number of rounds
# and the wall time.  There is no target: the limited run should find a
# knee and the other none.  Takes about 8 minutes; needs root (loop
# devices, mount, memory cgroups).  Never fails on the figures: the exit
# status is 0 unless something broke.
#
# LARGEDIR is $1, else $LARGEDIR, else build/largedir of this source
# tree.  The image and its mount live in a scratch directory under
# $TMPDIR (default /tmp), removed on exit.  KNEE_LIMIT and KNEE_MAX change
# the memory limit and the largest n (for quick trials).
# shellcheck source=/dev/null
. "$(dirname "$0")/lib.sh"
ld=${1:-${LARGEDIR:-$root/build/largedir}}
limit=${KNEE_LIMIT:-64M}
start=20000
max=${KNEE_MAX:-400000}
conf=$root/configs/ext4.conf
[ -x "$ld" ] || { echo "knee.sh: no largedir binary at $ld" >&2; exit 1; }
if [ "$(id -u)" != 0 ]; then
	echo "knee.sh: needs root (loop devices, mount, memory cgroups)" >&2
	exit 1
fi

# A run killed half-way (a signal to this script) leaves its mount, loop
# device and cgroup to --cleanup, before lib.sh removes $tmp.
scratch=$tmp/scratch
knee_cleanup() {
	if [ -d "$scratch" ]; then
		"$ld" --cleanup --scratch="$scratch" >/dev/null 2>&1 || true
	fi
	bench_cleanup
}
trap knee_cleanup EXIT

# Seconds since the epoch with nanoseconds; /proc/uptime (10 ms) if this
# date(1) has no %N.
now() {
	t=$(date +%s.%N)
	case $t in
	*[!0-9.]*|*.) awk '{ print $1 }' /proc/uptime ;;
	*) echo "$t" ;;
	esac
}

# meta OUT KEY: the value of the "# KEY: value" line of the .out file OUT.
meta() {
	sed -n "s/^# $2: *//p" "$1" | head -n 1
}

echo "knee: $("$ld" -V 2>&1 | head -n 1), $conf, n from $start to $max," \
    "seed 5"
echo "knee: load average $(cut -d ' ' -f 1-3 /proc/loadavg)," \
    "$(getconf _NPROCESSORS_ONLN) CPUs"

# measure NAME ARGS...: one run with ARGS; print what largedir printed,
# then its figures, and keep the summary line in $tmp/NAME.line.
measure() {
	name=$1
	shift
	echo
	set -- -c "$conf" "$@" -n "$start" -N "$max" -s 5 -b 30m --events=none
	echo "knee: $name: largedir $*"
	t0=$(now)
	set +e
	"$ld" "$@" --scratch="$scratch" -o "$tmp/$name" >"$tmp/$name.log" 2>&1
	rc=$?
	set -e
	t1=$(now)
	sed '/^results: /d; s/^/    /' "$tmp/$name.log"
	if [ "$rc" -ne 0 ]; then
		echo "knee.sh: largedir exited with status $rc ($name)" >&2
		exit 1
	fi
	out=$tmp/$name/ext4.out
	k=$(meta "$out" knee_open)
	before=$(meta "$out" knee_open_before)
	after=$(meta "$out" knee_open_after)
	rounds=$(grep -v '^#' "$out" | sed 1d | wc -l | tr -d ' ')
	awk -v name="$name" -v k="$k" -v b="$before" -v a="$after" \
	    -v r="$rounds" -v t0="$t0" -v t1="$t1" 'BEGIN {
		w = t1 - t0
		if (k ~ /^[0-9]+$/)
			s = sprintf("knee at n=%d, %.1fk/s before, " \
			    "%.1fk/s after", k, b / 1000, a / 1000)
		else
			s = "no knee (" k ")"
		printf "  %-10s %s; %d rounds in %dm%04.1fs\n", name ":", s,
		    r, int(w / 60), w - 60 * int(w / 60)
	}' >"$tmp/$name.line"
	cat "$tmp/$name.line"
}

measure limited --memory-limit="$limit"
measure unlimited --cold=remount
echo
echo "knee: open rate of ext4, caches held to $limit or not:"
cat "$tmp/limited.line" "$tmp/unlimited.line"
