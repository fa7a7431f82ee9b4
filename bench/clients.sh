#!/bin/sh
# shellcheck disable=SC2154 # tmp, root, dir, where: from lib.sh
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The largedir authors
#
# clients.sh [LARGEDIR]: what several clients gain.  On tmpfs, one round
# of n = 400,000 with --clients 1 and 2, three times each, taking turns:
# the median create and open rates of each and their ratio (target on a
# machine with 2 cores or more: 2 clients reach at least 1.6 times one
# client's rate where tmpfs lets them, which its opens do), and how far
# apart the two clients' own rates were.  Then, as root, an ext4 image
# with 1, 2, 3 and 4 clients: the aggregate create rate, a figure and
# not a target (all creates take the one directory's lock).
# shellcheck source=/dev/null
. "$(dirname "$0")/lib.sh"
ld=${1:-$root/build/largedir}
n=${CLIENTS_N:-400000}
bench_tmpfs clients.sh size=2g,nr_inodes=2m
echo "clients: one round of n = $n on $where, $(nproc) CPUs"

# run K LABEL [OPTIONS]: one round with K clients; the rows in LABEL.json.
run() {
	k=$1 label=$2
	shift 2
	"$ld" -q --clients "$k" -n "$n" -N "$n" --sync none --events none \
	    -o "$tmp/res" --label "$label" "$@" "$dir" >/dev/null
}

# median FILE: the median of the numbers in FILE, one per line.
median() {
	sort -g "$1" | awk '{ v[NR] = $1 }
	    END { if (NR % 2) print v[(NR + 1) / 2]
		  else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

for i in 1 2 3; do
	for k in 1 2; do
		run "$k" "t$k-$i"
		for p in create open; do
			jq -r ".rounds[0].${p}_per_s" "$tmp/res/t$k-$i.json" \
			    >>"$tmp/$p-$k"
		done
		[ "$k" = 1 ] || jq -r '.rounds[0] | (.open_client_max_per_s /
		    .open_client_min_per_s)' "$tmp/res/t$k-$i.json" \
		    >>"$tmp/spread"
	done
done
status=0
for p in create open; do
	one=$(median "$tmp/$p-1")
	two=$(median "$tmp/$p-2")
	ratio=$(awk -v a="$one" -v b="$two" 'BEGIN { printf "%.2f", b / a }')
	printf '%-7s 1 client %10.0f/s  2 clients %10.0f/s  x%s' "$p" "$one" \
	    "$two" "$ratio"
	if [ "$p" = open ]; then
		if awk -v r="$ratio" 'BEGIN { exit !(r >= 1.6) }'; then
			echo "  (target x1.6: met)"
		else
			echo "  (target x1.6: NOT met)"
			status=1
		fi
	else
		echo "  (a figure: creates share the directory's lock)"
	fi
done
printf 'open: fastest client / slowest, median of 3: %.2f\n' \
    "$(median "$tmp/spread")"

if [ "$(id -u)" != 0 ]; then
	echo "ext4: skipped (needs root for the image)"
	exit "$status"
fi
printf '%s\n' "label = e" "fstype = ext4" \
    "mkfs = mkfs.ext4 -q -F -N $((n + n / 4))" "image_size = 2G" \
    >"$tmp/ext4.conf"
for k in 1 2 3 4; do
	"$ld" -q -c "$tmp/ext4.conf" --scratch "$tmp/scratch" --clients "$k" \
	    -n "$n" -N "$n" --sync none --events none --phases create,delete \
	    -o "$tmp/res" --label "e$k" >/dev/null
	jq -r --arg k "$k" '.rounds[0] | "ext4, " + $k + " client" +
	    (if $k == "1" then ": " else "s: " end) + "create " +
	    (.create_per_s | floor | tostring) + "/s, delete " +
	    (.delete_per_s | floor | tostring) + "/s"' "$tmp/res/e$k.json"
done
exit "$status"
