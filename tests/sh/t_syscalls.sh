#!/bin/sh
# What the phases do, seen by strace: one openat(O_CREAT|O_EXCL) per file
# for create, one openat(O_RDONLY) per file in a seeded random order for
# open, getdents64 for list, one fstatat per file for liststat, one
# unlinkat per file for delete and rmrf; --repeat repeats all of it.
# shellcheck source=/dev/null
. "$(dirname "$0")/lib.sh"
need_strace

mkdir "$T/d"
awk 'BEGIN { for (i = 0; i < 2000; i++) printf "%08d\n", i }' >"$T/names"

# trace LOG ARG...: run largedir under strace, one round of 2000 files.
nrun=0
trace() {
	log=$1
	shift
	nrun=$((nrun + 1))
	expect_exit 0 traced -f -o "$log" \
	    -e trace=openat,unlinkat,getdents64,lseek,newfstatat,fstatat64,statx,close \
	    "$LD" -q --start 2000 --max-files 2000 -o "$T/res" \
	    --label "r$nrun" "$@" "$T/d"
}

# calls KIND LOG: the 8-digit names the calls of KIND (creates, opens,
# unlinks, stats) in LOG were made on, one a line, in order.
calls() {
	case $1 in
	creates)
		grep -E 'openat\([0-9]+, "[0-9]{8}", [^)]*O_CREAT' "$2" |
		    grep 'O_EXCL' ;;
	opens)
		grep -E 'openat\([0-9]+, "[0-9]{8}", O_RDONLY[|)]' "$2" ;;
	unlinks)
		grep -E 'unlinkat\([0-9]+, "[0-9]{8}", 0\)' "$2" ;;
	stats)
		grep -E '(newfstatat|fstatat64|statx)\([0-9]+, "[0-9]{8}"' "$2" ;;
	*)
		fail "calls $1?" ;;
	esac | sed 's/.*"\([0-9]*\)".*/\1/'
}

# count WHAT LOG WANT: the number of WHAT calls must be WANT.
count() {
	got=$(calls "$1" "$2" | wc -l | tr -d ' ')
	[ "$got" -eq "$3" ] || fail "$2: $got $1 calls, want $3"
}

# once WHAT LOG TIMES: WHAT was done TIMES times on each of the 2000 names.
once() {
	calls "$1" "$2" | sort | uniq -c | awk -v t="$3" '$1 != t' >"$T/bad"
	[ ! -s "$T/bad" ] || fail "$2: $1 not $3 times: $(head -n 3 "$T/bad")"
	calls "$1" "$2" | sort -u | cmp -s - "$T/names" ||
	    fail "$2: $1 not on exactly 00000000..00001999"
}

# All the phases but rmrf, once.
trace "$T/all" --seed 7 --phases create,open,list,liststat,delete
count creates "$T/all" 2000
count opens "$T/all" 2000
count unlinks "$T/all" 2000
count stats "$T/all" 2000
n=$(grep -c 'getdents64(' "$T/all" || true)
[ "$n" -ge 2 ] || fail "$n getdents64 calls for list and liststat"
once creates "$T/all" 1
once unlinks "$T/all" 1
once opens "$T/all" 1
once stats "$T/all" 1
# Creation and delete go in creation order.
calls creates "$T/all" | cmp -s - "$T/names" || fail "creates not in name order"
calls unlinks "$T/all" | cmp -s - "$T/names" || fail "delete not in creation order"

# rmrf removes every file, and nothing is opened for reading; as GNU
# rm's fts, it reads the whole directory (up to 100,000 entries) before
# it unlinks a file, after one batch read and dropped, as rm 9.1 does to
# learn whether the directory is empty; with --rmrf-batch 1, each
# getdents64 batch is unlinked before the next is read.
trace "$T/rmrf" --seed 7 --phases create,rmrf
count creates "$T/rmrf" 2000
count unlinks "$T/rmrf" 2000
count opens "$T/rmrf" 0
once unlinks "$T/rmrf" 1
# order LOG: how many getdents64 calls come after the first unlink.
order() {
	awk '/unlinkat\([0-9]+, "[0-9]+", 0\)/ { u = 1 }
	    u && /getdents64\(/ { g++ } END { print g + 0 }' "$1"
}
n=$(grep -c 'getdents64(' "$T/rmrf" || true)
[ "$n" -ge 3 ] || fail "rmrf: $n getdents64 calls for 2000 entries"
[ "$(order "$T/rmrf")" -eq 0 ] ||
    fail "rmrf: $(order "$T/rmrf") getdents64 calls after its first unlink"
# prelude LOG: the rewinds (s: lseek to 0) and getdents64 calls (g)
# between the last create and the first unlink, as one word.
prelude() {
	awk '/openat\(.*O_CREAT/ { w = ""; next }
	    /unlinkat\([0-9]+, "[0-9]+", 0\)/ { exit }
	    /lseek\([0-9]+, 0, SEEK_SET\)/ { w = w "s" }
	    /getdents64\(/ { w = w "g" }
	    END { print w }' "$1"
}
# As GNU rm 9.1, rmrf first reads one batch and starts again.
case $(prelude "$T/rmrf") in
sgsgg*) ;;
*) fail "rmrf: not one batch, then from the start: $(prelude "$T/rmrf")" ;;
esac
trace "$T/rmrf1" --seed 7 --phases create,rmrf --rmrf-batch 1
count unlinks "$T/rmrf1" 2000
[ "$(order "$T/rmrf1")" -ge 1 ] ||
    fail "--rmrf-batch 1: no getdents64 between the unlinks"
[ "$(prelude "$T/rmrf1")" = sg ] ||
    fail "--rmrf-batch 1: $(prelude "$T/rmrf1") before the first unlink"

# --repeat 2: everything twice.
trace "$T/rep" --seed 7 --repeat 2 --phases create,open,list,liststat,delete
count creates "$T/rep" 4000
count opens "$T/rep" 4000
count unlinks "$T/rep" 4000
count stats "$T/rep" 4000
once creates "$T/rep" 2
once opens "$T/rep" 2
once unlinks "$T/rep" 2

# The open order: a permutation, not creation order, fixed by the seed.
trace "$T/s7a" --seed 7 --phases create,open,delete
trace "$T/s7b" --seed 7 --phases create,open,delete
trace "$T/s8" --seed 8 --phases create,open,delete
calls opens "$T/s7a" >"$T/o7a"
calls opens "$T/s7b" >"$T/o7b"
calls opens "$T/s8" >"$T/o8"
[ "$(lines "$T/o7a")" -eq 2000 ] || fail "seed 7: $(lines "$T/o7a") opens"
sort "$T/o7a" | cmp -s - "$T/names" || fail "the open order is no permutation"
sort "$T/o8" | cmp -s - "$T/names" || fail "the open order is no permutation"
! cmp -s "$T/o7a" "$T/names" || fail "open goes in creation order, not random"
cmp -s "$T/o7a" "$T/o7b" || fail "the same seed gave two open orders"
! cmp -s "$T/o7a" "$T/o8" || fail "seeds 7 and 8 gave the same open order"
exit 0
