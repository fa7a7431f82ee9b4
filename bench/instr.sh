#!/bin/sh
# shellcheck disable=SC2154 # tmp, root: from lib.sh
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The largedir authors
#
# instr.sh [LARGEDIR [OTHER]]: largedir's own cost in the timed loops, in
# instructions, which unlike seconds do not depend on what else the
# machine is doing.  Under valgrind's callgrind, one round of n = 20,000
# files with the phases create, open, list, liststat and delete; prints,
# per file and phase-loop operation, the instructions largedir executes
# in user space inside workload_run() (the timed loops and the backend
# calls they make, not the kernel's work), and with OTHER, the same for
# it and the ratio.  The figures repeat exactly for the same binary;
# restructurings that keep the loops lean keep them within a few
# instructions.  Needs valgrind (callgrind_annotate).
#
# LARGEDIR is $1, else $LARGEDIR, else build/largedir of this source tree.
# shellcheck source=/dev/null
. "$(dirname "$0")/lib.sh"
ld=${1:-${LARGEDIR:-$root/build/largedir}}
other=${2:-}
n=20000
if ! command -v valgrind >/dev/null 2>&1 ||
    ! command -v callgrind_annotate >/dev/null 2>&1; then
	echo "instr.sh: needs valgrind" >&2
	exit 1
fi

# inside BIN: instructions per file inside workload_run() for BIN.
inside() {
	rm -rf "$tmp/d" "$tmp/res" "$tmp/cg.out"
	mkdir "$tmp/d"
	valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" \
	    --toggle-collect='workload_run' "$1" -q -s 1 -b 600s \
	    --start "$n" -N "$n" --sync none --events=none \
	    -p create,open,list,liststat,delete -o "$tmp/res" "$tmp/d" \
	    >/dev/null 2>&1 || { echo "instr.sh: $1 failed" >&2; exit 1; }
	callgrind_annotate "$tmp/cg.out" 2>/dev/null |
	    awk -v n="$n" '/PROGRAM TOTALS/ { gsub(",", "", $1);
	        printf "%.1f\n", $1 / (5 * n); exit }'
}

a=$(inside "$ld")
printf '%-40s %8s instructions per file and phase\n' "$ld" "$a"
if [ -n "$other" ]; then
	b=$(inside "$other")
	printf '%-40s %8s instructions per file and phase\n' "$other" "$b"
	awk -v a="$a" -v b="$b" 'BEGIN { printf "ratio %.3f\n", a / b }'
fi
