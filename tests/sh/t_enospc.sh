#!/bin/sh
# A full filesystem stops the run cleanly: exit 3, the outputs say
# "stopped" with errno ENOSPC and the n of the round that failed, the
# finished rounds are kept, stderr has one line naming the reason, and
# nothing of largedir's is left on the filesystem: with too few data
# blocks.  Too few inodes do not get that far: largedir counts them at
# the start, and n grows no further than they allow (the run completes,
# exit 0, saying so and recording n_limit); a --start above them is
# refused before anything is made (exit 2, one line with the numbers),
# and so is a --clients with fewer inodes than clients, while the
# default --start is lowered to fit, with a warning.
# shellcheck source=/dev/null
. "$(dirname "$0")/lib.sh"
need_root "mounts a tmpfs"
need_cmd jq

# full CASE TMPFS-OPTIONS STOP-N ROUND-NS LARGEDIR-OPTIONS...: run on a
# tmpfs with TMPFS-OPTIONS until it is full; it must stop in the round of
# STOP-N files after finishing rounds of ROUND-NS files (a list).
full() {
	name=$1 opts=$2 stop_n=$3 ns=$4
	shift 4
	m=$T/$name res=$T/res-$name
	mount_tmpfs "$m" "$opts"
	printf 'foreign\n' >"$m/keep.txt"
	printf 'named like largedir'\''s own\n' >"$m/00000001"
	snapshot "$m" >"$T/before"

	expect_exit 3 "$LD" -b 60s "$@" -o "$res" --label x "$m" \
	    >"$T/stdout" 2>"$T/stderr"

	# stderr: one line with the reason (warnings about load aside).
	grep -v 'warning: ' "$T/stderr" >"$T/errors" || true
	[ "$(lines "$T/errors")" -eq 1 ] ||
	    fail "$name: stderr is not one line: $(cat "$T/errors")"
	grep -q 'No space left on device' "$T/errors" ||
	    fail "$name: stderr does not name the reason: $(cat "$T/errors")"

	j=$res/x.json
	jq -e . "$j" >/dev/null || fail "$name: $j is not valid JSON"
	[ "$(jq -r .status "$j")" = stopped ] ||
	    fail "$name: status '$(jq -r .status "$j")', expected stopped"
	[ "$(jq -r .stop.errno "$j")" = ENOSPC ] ||
	    fail "$name: stop.errno '$(jq -r .stop.errno "$j")'"
	[ "$(jq -r .stop.n "$j")" = "$stop_n" ] ||
	    fail "$name: stop.n $(jq -r .stop.n "$j"), expected $stop_n"
	[ "$(jq -r .stop.phase "$j")" = create ] ||
	    fail "$name: stop.phase '$(jq -r .stop.phase "$j")'"
	got=$(jq -r '[.rounds[].n] | map(tostring) | join(" ")' "$j")
	[ "$got" = "$ns" ] ||
	    fail "$name: finished rounds n=$got, expected $ns"
	grep -qx '# status: stopped' "$res/x.out" ||
	    fail "$name: .out does not say stopped"
	grep -qx '# stop_errno: ENOSPC' "$res/x.out" ||
	    fail "$name: .out has no stop_errno ENOSPC"
	grep -qx "# stop_n: $stop_n" "$res/x.out" ||
	    fail "$name: .out has no stop_n $stop_n"
	k=$(echo "$ns" | wc -w | tr -d ' ')
	[ "$(lines "$res/x.csv")" -eq $((k + 1)) ] ||
	    fail "$name: .csv has $(lines "$res/x.csv") lines, expected $((k + 1))"
	[ "$(grep -vc '^#' "$res/x.out")" -eq $((k + 1)) ] ||
	    fail "$name: .out has the wrong number of rows"

	snapshot "$m" >"$T/after"
	cmp -s "$T/before" "$T/after" || {
		diff "$T/before" "$T/after" >&2 || true
		fail "$name: the filesystem is not as it was"
	}
}

# 3000 inodes, less what the mount and the work directory use and the
# 64 largedir leaves: rounds of 1000 and 2000 files, then as many as fit.
m=$T/inodes res=$T/res-inodes
mount_tmpfs "$m" size=2m,nr_inodes=3000
printf 'foreign\n' >"$m/keep.txt"
snapshot "$m" >"$T/before"
room=$(( $(stat -f -c %d "$m") - 2 - 64 ))	# the work directory, its mark
"$LD" -b 60s --start 1000 -g 2 -o "$res" --label x "$m" >"$T/stdout" \
    2>"$T/stderr" || fail "inodes: exit $?: $(cat "$T/stderr")"
grep -qx "the filesystem's free inodes reached: done" "$T/stdout" ||
    fail "inodes: no end at the free inodes: $(cat "$T/stdout")"
got=$(jq -r '[.rounds[].n] | map(tostring) | join(" ")' "$res/x.json")
[ "$got" = "1000 2000 $room" ] ||
    fail "inodes: rounds n=$got, expected 1000 2000 $room"
grep -qx "# n_limit: $room (the filesystem's free inodes, less 64)" \
    "$res/x.out" || fail "inodes: no n_limit $room in the .out"
snapshot "$m" >"$T/after"
cmp -s "$T/before" "$T/after" || fail "inodes: the filesystem is not as it was"
# count N: N with thousands separators, as largedir prints counts.
count() {
	echo "$1" | awk '{ s = $1; o = ""
	    while (length(s) > 3) {
		o = "," substr(s, length(s) - 2) o; s = substr(s, 1, length(s) - 3)
	    }
	    print s o }'
}

# The first round must fit too: --start 5000 in 2000 inodes is refused,
# with the option and the numbers, and nothing is made; so is a
# config's start.
m=$T/start
mount_tmpfs "$m" size=8m,nr_inodes=2000
printf 'foreign\n' >"$m/keep.txt"
snapshot "$m" >"$T/before"
free=$(( $(stat -f -c %d "$m") - 2 ))	# less the work directory, its mark
want="largedir: --start 5000: the filesystem has $(count "$free") free inodes, room for n up to $(count $((free - 64))) (64 are kept back)"
expect_exit 2 "$LD" -b 60s -n 5000 -o "$T/res-start" --label x "$m" \
    >"$T/stdout" 2>"$T/stderr"
[ "$(cat "$T/stderr")" = "$want" ] ||
    fail "--start 5000: stderr is not '$want': $(cat "$T/stderr")"
[ ! -s "$T/stdout" ] || fail "--start 5000: output on stdout"
[ ! -e "$T/res-start" ] || fail "--start 5000: made $T/res-start"
unchanged "$m" "--start 5000"
printf 'path = %s\nstart = 5000\n' "$m" >"$T/start.conf"
expect_exit 2 "$LD" -b 60s -c "$T/start.conf" -o "$T/res-start" \
    --label x >/dev/null 2>"$T/stderr"
[ "$(cat "$T/stderr")" = "$want" ] ||
    fail "start = 5000: stderr is not '$want': $(cat "$T/stderr")"
[ ! -e "$T/res-start" ] || fail "start = 5000: made $T/res-start"
unchanged "$m" "start = 5000"

# The default --start (1000) in 500 inodes: lowered to what fits, one
# round, said on stderr and recorded.
umount "$m"
mount_tmpfs "$m" size=8m,nr_inodes=500
snapshot "$m" >"$T/before"
free=$(( $(stat -f -c %d "$m") - 2 ))
room=$((free - 64))
"$LD" -b 60s -o "$T/res-default" --label x "$m" >"$T/stdout" \
    2>"$T/stderr" || fail "default --start: exit $?: $(cat "$T/stderr")"
grep -qx "largedir: warning: --start 1000 (the default) lowered to $room: the filesystem has $free free inodes (64 are kept back)" \
    "$T/stderr" || fail "default --start: no warning: $(cat "$T/stderr")"
j=$T/res-default/x.json
[ "$(jq -c '[.rounds[].n]' "$j")" = "[$room]" ] ||
    fail "default --start: rounds $(jq -c '[.rounds[].n]' "$j")"
[ "$(jq -r '.config.start' "$j")" = "$room" ] ||
    fail "default --start: config.start $(jq -r '.config.start' "$j")"
grep -qx "# config.start: $room" "$T/res-default/x.out" ||
    fail "default --start: the .out does not record start $room"
unchanged "$m" "default --start"
# More clients than that: refused, naming --clients.
umount "$m"
mount_tmpfs "$m" size=8m,nr_inodes=100
free=$(( $(stat -f -c %d "$m") - 2 ))
expect_exit 2 "$LD" -b 60s --clients 64 -o "$T/res-clients" --label x \
    "$m" >/dev/null 2>"$T/stderr"
[ "$(cat "$T/stderr")" = "largedir: --clients 64: the filesystem has $free free inodes, room for n up to $((free - 64)) (64 are kept back)" ] ||
    fail "--clients 64: $(cat "$T/stderr")"
[ ! -e "$T/res-clients" ] || fail "--clients 64: made $T/res-clients"

# 1 MiB of 64 KiB files: 10 fit, 20 do not (nr_inodes is plenty).
full blocks size=1m,nr_inodes=100000 20 "10" --start 10 -g 2 \
    --file-size 64k
