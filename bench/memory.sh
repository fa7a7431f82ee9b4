#!/bin/sh
# shellcheck disable=SC2154 # tmp, here, dir, where: from lib.sh
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The largedir authors
#
# memory.sh [LARGEDIR]: largedir's peak memory at a million files.
#
# Runs one round of largedir at n = 1,000,000 on a tmpfs and prints its
# peak resident set size and whether it stays within the target, 40 MiB;
# then the same with --names maildir (longer names, a bigger name table),
# for information.  The peak comes from /usr/bin/time -f %M when GNU time
# is installed (Debian package time), else from the peak_rss_kib that
# largedir itself records in its .out file; with both, both are shown.
# The tmpfs holds a million empty files at a time (about 1.5 GB of RAM).
# Never fails on the figures: the exit status is 0 unless something broke.
#
# LARGEDIR is $1, else $LARGEDIR, else build/largedir of this source
# tree.  As root, the runs use a private tmpfs mounted for the purpose;
# otherwise /dev/shm.  MEMORY_N changes n (the target is for 1,000,000).
# shellcheck source=/dev/null
. "$(dirname "$0")/lib.sh"
ld=${1:-${LARGEDIR:-$root/build/largedir}}
n=${MEMORY_N:-1000000}
target_mib=40
[ -x "$ld" ] || { echo "memory.sh: no largedir binary at $ld" >&2; exit 1; }

# The directory the runs use: a tmpfs of our own, else /dev/shm.  Room
# for n files and a few more, whatever the machine's default would be.
bench_tmpfs memory.sh "mode=0700,size=1g,nr_inodes=$((n + 1000))"

gnutime=
if [ -x /usr/bin/time ] && /usr/bin/time -f %M -o "$tmp/probe" true \
    2>/dev/null; then
	gnutime=/usr/bin/time
fi

echo "memory: $("$ld" -V 2>&1 | head -n 1), one round of n=$n on $where"
if [ -n "$gnutime" ]; then
	echo "memory: peak RSS from /usr/bin/time -f %M" \
	    "(and largedir's peak_rss_kib)"
else
	echo "memory: no GNU time (apt-get install time): peak RSS from" \
	    "largedir's peak_rss_kib"
fi

# measure NAME ARGS...: one round with ARGS; sets kib (the peak in KiB)
# and prints a line.
measure() {
	name=$1
	shift
	res=$tmp/res-$name
	if [ -n "$gnutime" ]; then
		set -- "$gnutime" -f %M -o "$tmp/time-$name" "$ld" "$@"
	else
		set -- "$ld" "$@"
	fi
	if ! "$@" --start "$n" --max-files "$n" -q -o "$res" "$dir" \
	    2>"$tmp/err"; then
		cat "$tmp/err" >&2
		echo "memory.sh: largedir failed ($name)" >&2
		exit 1
	fi
	out=$(find "$res" -name '*.out' | head -n 1)
	self=
	[ -z "$out" ] || self=$(sed -n 's/^# peak_rss_kib: *//p' "$out")
	tkib=
	[ -z "$gnutime" ] || tkib=$(tail -n 1 "$tmp/time-$name")
	kib=${tkib:-$self}
	[ -n "$kib" ] || { echo "memory.sh: no peak RSS for $name" >&2;
	    exit 1; }
	awk -v name="$name" -v k="$kib" -v s="$self" -v t="$tkib" 'BEGIN {
		printf "  %-8s peak RSS %.1f MiB (%d KiB)", name, k / 1024, k
		if (t != "" && s != "")
			printf "; largedir says %.1f MiB", s / 1024
		printf "\n"
	}'
}

measure fixed
awk -v k="$kib" -v t="$target_mib" 'BEGIN {
	m = (k / 1024 <= t) ? "met" : "not met"
	printf "  target <= %d MiB: %s\n", t, m
}'
measure maildir --names maildir
echo "  (maildir: for information, no target)"
