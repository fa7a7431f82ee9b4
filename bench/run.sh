#!/bin/sh
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The largedir authors
#
# run.sh [LARGEDIR]: the quick benchmarks of largedir itself, as run by
# `make bench`: overhead.sh (largedir against a bare loop, a minute or
# less), memory.sh (peak RSS at a million files, about a minute),
# clients.sh (what --clients 2 gains on tmpfs, and ext4's create rate
# with 1 to 4 clients as root, a minute or two) and, with valgrind,
# instr.sh (instructions per file in the timed loops).
# budget.sh takes as long as its budget, 5 minutes by default,
# budgets.sh (real budgets of 1, 5 and 30 minutes, as root) 75, knee.sh
# (the knee of ext4 with and without a memory limit, as root) about 8
# minutes, nfs.sh (largedir's NFS client, as root) about 15 and
# nfs-tools.sh (the real ls -f, ls -lU and rm -rf beside largedir's list,
# liststat and rmrf in a UML guest, as root) 1 to 10, so they are only
# named here.  The exit status is that of the first script that
# broke; targets that are not met are printed, not failed.
#
# LARGEDIR is $1, else $LARGEDIR, else build/largedir of this source
# tree.  The scripts clean up their own directories and mounts.
set -eu
LC_ALL=C
export LC_ALL

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
ld=${1:-${LARGEDIR:-$root/build/largedir}}
[ -x "$ld" ] || { echo "run.sh: no largedir binary at $ld" >&2; exit 1; }

sh "$here/overhead.sh" "$ld"
echo
sh "$here/memory.sh" "$ld"
echo
sh "$here/clients.sh" "$ld"
echo
if command -v valgrind >/dev/null 2>&1; then
	sh "$here/instr.sh" "$ld"
	echo
fi
echo "budget accuracy (5 minutes, not run here):"
echo "  sh bench/budget.sh 5m $ld"
echo "the budget planner: simulated machines, then real 1, 5 and 30-minute" \
    "runs on tmpfs and an ext4 image (as root, about 75 minutes, not run" \
    "here):"
echo "  sh bench/budgets.sh $ld"
echo "the knee of ext4 with and without --memory-limit (as root, about" \
    "8 minutes, not run here):"
echo "  sh bench/knee.sh $ld"
echo "largedir's NFS client against a bare libnfs loop, --nfs-window, and" \
    "memory at a million files over NFS (as root, about 15 minutes, not" \
    "run here):"
echo "  sh bench/nfs.sh $ld"
echo "the kernel NFS client's calls for ls -f, ls -lU and rm -rf against" \
    "largedir's list, liststat and rmrf, in a UML guest (as root, 1 to" \
    "10 minutes, not run here):"
echo "  sh bench/nfs-tools.sh -n 1000,10000 $ld"
