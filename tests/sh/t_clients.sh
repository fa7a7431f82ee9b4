#!/bin/sh
# --clients K: K processes share each round.  strace counts exactly n
# creates, opens and unlinks across all of them, each name once, each
# client on its own share (interleaved: names c mod K; blocked: a run of
# consecutive names), and a listing read whole by every client; nothing
# is left and foreign files stay.  The outputs add the clients' columns,
# one client's have none.  A round cut at the budget's deadline goes on
# with 2 x the fewest files either client made.  SIGINT stops them all (exit 130), a client
# killed by -9 is named and stops the run (exit 1), SIGTERM reaches a
# client that was stopped too (exit 143), one stopped for 10 s is killed
# and named (exit 1), and a largedir killed by -9 takes its clients along
# and leaves what --cleanup removes.  Then
# the same counts on a tmpfs and an ext4 image (root), and the clients of
# open inside the memory cgroup of --memory-limit.
# shellcheck source=/dev/null
. "$(dirname "$0")/lib.sh"
need_dep jq jq
need_strace

D=$T/dir
mkdir "$D"
printf 'keep me\n' >"$D/keep.txt"
printf 'named like largedir'\''s own\n' >"$D/00000005"
snapshot "$D" >"$T/before"

# counted WHERE DIR SPLIT: 4 clients over 1,000 files in DIR, traced;
# every count exact, every name once, each client on its share.
counted() {
	rm -f "$T/log"
	expect_exit 0 traced -f -o "$T/log" \
	    -e trace=openat,unlinkat,newfstatat,fstatat64,statx \
	    "$LD" -q --clients 4 --split "$3" -n 1000 -N 1000 --seed 3 \
	    --phases create,open,liststat,delete -o "$T/res-$1" --label c \
	    "$2"
	# Unfinished calls (strace -f) end in " <unfinished ...>", not ")".
	for what in 'create O_WRONLY\|O_CREAT\|O_EXCL' 'open O_RDONLY' \
	    'unlink 0[ )]'; do
		call=${what%% *} pat=${what#* }
		case $call in
		unlink) re="unlinkat\\([0-9]+, \"[0-9]{8}\", $pat" ;;
		*) re="openat\\([0-9]+, \"[0-9]{8}\", $pat" ;;
		esac
		grep -E "$re" "$T/log" >"$T/$call" || true
		[ "$(lines "$T/$call")" = 1000 ] ||
		    fail "$1: $(lines "$T/$call") ${call}s, want 1000"
		# Each name once; by four processes, none largedir itself.
		sed 's/^\([0-9]*\) .*"\([0-9]\{8\}\)".*/\1 \2/' "$T/$call" \
		    >"$T/$call.pn"
		[ "$(cut -d' ' -f2 "$T/$call.pn" | sort -u | wc -l |
		    tr -d ' ')" = 1000 ] || fail "$1: a name ${call}d twice"
		[ "$(cut -d' ' -f1 "$T/$call.pn" | sort -u | wc -l |
		    tr -d ' ')" = 4 ] || fail "$1: ${call}s not by 4 clients"
		[ "$call" = open ] && continue	# a random order: its share
		# interleaved: one residue mod 4 per client, 250 names each;
		# blocked: one run of 250 consecutive names per client.
		sort -k1,1 -k2,2n "$T/$call.pn" | awk -v how="$3" '
		    { n = $2 + 0
		      if (how == "interleaved") key = $1 " " n % 4
		      else { if ($1 != pid || n != last + 1) runs++
			     key = $1; pid = $1; last = n }
		      count[key]++ }
		    END { for (k in count) { keys++; if (count[k] != 250) bad++ }
			  if (keys != 4 || bad) exit 1
			  if (how == "blocked" && runs != 4) exit 1 }' ||
		    fail "$1: the ${call}s are not split $3"
	done
	# liststat: every client stats every file.
	got=$(grep -cE '(newfstatat|fstatat64|statx)\([0-9]+, "[0-9]{8}"' \
	    "$T/log" || true)
	[ "$got" = 4000 ] || fail "$1: $got stats, want 4 x 1000"
	j=$T/res-$1/c.json
	[ "$(jq -r '.rounds[0].create_ops' "$j")" = 1000 ] ||
	    fail "$1: create_ops $(jq -r '.rounds[0].create_ops' "$j")"
	[ "$(jq -r '.rounds[0].liststat_ops' "$j" | cut -d. -f1)" -ge 4 ] ||
	    fail "$1: liststat_ops"
	jq -e '.rounds[0] | .create_client_min_per_s <= .create_client_max_per_s
	    and .create_client4_per_s > 0 and .create_per_s > 0' "$j" \
	    >/dev/null || fail "$1: client columns $(jq -c .rounds[0] "$j")"
	[ "$(jq -r '.config.clients + " " + .config.split' "$j")" = "4 $3" ] ||
	    fail "$1: config $(jq -c .config "$j")"
}

counted interleaved "$D" interleaved
unchanged "$D" interleaved
counted blocked "$D" blocked
unchanged "$D" blocked

# One client: the outputs of before, no client columns or keys.
expect_exit 0 "$LD" -q -n 100 -N 100 -o "$T/res-one" --label o "$D"
jq -e '[.columns[] | select(test("client"))] == [] and
    (.config | has("clients") | not)' "$T/res-one/o.json" >/dev/null ||
    fail "one client: $(jq -c '[.columns[] | select(test("client"))]' \
    "$T/res-one/o.json")"
unchanged "$D" "one client"

# What clients cannot do (yet) is refused, before anything is made.
for bad in "--layout tree:--clients 2: not with --layout tree" \
    "-p rmrf:not with --phases rmrf" "--churn 5 -p list:not with --churn" \
    "--split blocked --clients 1:--split goes with --clients 2"; do
	opts=${bad%%:*} msg=${bad#*:}
	# shellcheck disable=SC2086 # the options are words
	expect_exit 2 "$LD" --clients 2 $opts -o "$T/refused" "$D" \
	    2>"$T/stderr"
	{ [ "$(lines "$T/stderr")" = 1 ] &&
	    grep -qF -- "$msg" "$T/stderr"; } || fail "$opts: $(cat "$T/stderr")"
done
[ ! -e "$T/refused" ] || fail "a refused run wrote outputs"

# --- the budget: a round too large for it stops creating at its
# deadline, and is trimmed to 2 x the fewest either client made (its ops
# count them all) ---
expect_exit 0 "$LD" -q --clients 2 -b 1s -n 3000000 --sync none \
    -o "$T/res-box" --label b "$D"
check_outputs "$T/res-box" b complete
jq -e '.rounds[-1] | (.n < 3000000) and (.n % 2 == 0) and
    (.create_ops >= .n) and (.open_ops <= .n) and (.delete_ops == .n)' \
    "$T/res-box/b.json" >/dev/null || fail "budget: $(jq -c '.rounds[-1] |
    {n, create_ops, open_ops, delete_ops}' "$T/res-box/b.json")"
unchanged "$D" budget

# clients_of PID: the client processes of largedir PID, one per line.
clients_of() {
	pgrep -P "$1" || true
}

# started NAME [N]: a run of 4 clients over N files (300,000) in the
# background ($bg, outputs $T/res-NAME, stderr $T/stderr-NAME), once it
# has made 1,000 of them; its clients in $T/pids.
started() {
	"$LD" -q --clients 4 -n "${2:-300000}" --sync none -o "$T/res-$1" \
	    --label "$1" "$D" >/dev/null 2>"$T/stderr-$1" &
	bg=$!
	wait_for 30 sh -c "ls '$D'/largedir.*/round-0001-1/00001000 \
	    >/dev/null 2>&1"
	clients_of "$bg" >"$T/pids"
	[ "$(lines "$T/pids")" = 4 ] || fail "$1: not 4 clients: $(cat "$T/pids")"
}

# ended: the exit status of $bg, in $rc.
ended() {
	set +e
	wait "$bg"
	rc=$?
	set -e
	bg=
}
trap '[ -z "${bg:-}" ] || kill -9 "$bg" 2>/dev/null || true; lib_cleanup' EXIT

# --- SIGINT: every client stops, exit 130, nothing left ---
started int
kill -INT "$bg"
ended
[ "$rc" = 130 ] || fail "SIGINT: exit $rc: $(cat "$T/stderr-int")"
check_outputs "$T/res-int" int interrupted
unchanged "$D" SIGINT

# --- kill -9 of one client: named, the run stops, nothing left ---
started one9
victim=$(sed -n 2p "$T/pids")
kill -9 "$victim"
ended
[ "$rc" = 1 ] || fail "a client killed: exit $rc: $(cat "$T/stderr-one9")"
grep -q "client [1-4] (pid $victim) died of SIGKILL" "$T/stderr-one9" ||
    fail "a client killed: $(cat "$T/stderr-one9")"
[ "$(lines "$T/stderr-one9")" = 1 ] ||
    fail "a client killed: not one line: $(cat "$T/stderr-one9")"
check_outputs "$T/res-one9" one9 failed
unchanged "$D" "a client killed"

# over: $bg has ended, reaped or not (called by wait_for).
# shellcheck disable=SC2317
over() {
	[ ! -e "/proc/$bg" ] ||
	    [ "$(cut -d' ' -f3 "/proc/$bg/stat" 2>/dev/null)" = Z ]
}

# --- SIGTERM while a client is stopped: the SIGCONT after it wakes the
# client, exit 143 within seconds (well before a stopped client is
# killed), nothing left ---
started stopterm
victim=$(sed -n 3p "$T/pids")
kill -STOP "$victim"
kill -TERM "$bg"
wait_for 5 over
ended
[ "$rc" = 143 ] || fail "SIGTERM, a client stopped: exit $rc: \
$(cat "$T/stderr-stopterm")"
check_outputs "$T/res-stopterm" stopterm interrupted
unchanged "$D" "SIGTERM, a client stopped"

# --- a client stopped and left so: killed after RUNNER_STOP_GRACE_S
# (10 s), named, the run stops (exit 1), nothing left ---
started stopped 100000
victim=$(sed -n 2p "$T/pids")
kill -STOP "$victim"
wait_for 20 over
ended
[ "$rc" = 1 ] || fail "a client stopped: exit $rc: $(cat "$T/stderr-stopped")"
grep -q "client [1-4] (pid $victim) stopped (SIGSTOP) for 10 s: killed" \
    "$T/stderr-stopped" || fail "a client stopped: $(cat "$T/stderr-stopped")"
[ "$(grep -vc 'warning: load average' "$T/stderr-stopped")" = 1 ] ||
    fail "a client stopped: not one line: $(cat "$T/stderr-stopped")"
check_outputs "$T/res-stopped" stopped failed
unchanged "$D" "a client stopped"

# --- kill -9 of largedir: its clients die too; --cleanup ---
started kill
kill -9 "$bg"
ended
# gone: none of the clients is left (called by wait_for).
# shellcheck disable=SC2317
gone() {
	while read -r p; do
		! kill -0 "$p" 2>/dev/null || return 1
	done <"$T/pids"
}
wait_for 10 gone
expect_exit 0 "$LD" --cleanup "$D" >"$T/stdout" 2>&1
grep -q '^removed ' "$T/stdout" || fail "cleanup: $(cat "$T/stdout")"
unchanged "$D" "kill -9 and --cleanup"

# --- the same counts on a tmpfs and an ext4 image ---
need_root "mounts a tmpfs and an ext4 image"
mount_tmpfs "$T/tmpfs" size=64m
counted tmpfs "$T/tmpfs" interleaved
[ -z "$(ls -A "$T/tmpfs")" ] || fail "tmpfs: left $(ls -A "$T/tmpfs")"
need_cmd mkfs.ext4 losetup
printf '%s\n' "label = e" "fstype = ext4" "mkfs = mkfs.ext4 -q -F" \
    "image_size = 64M" >"$T/ext4.conf"
rm -f "$T/log"
expect_exit 0 traced -f -o "$T/log" -e trace=openat,unlinkat \
    "$LD" -q -c "$T/ext4.conf" --scratch "$T/scratch" --clients 4 \
    -n 1000 -N 1000 --seed 3 -o "$T/res-ext4"
for what in 'O_WRONLY\|O_CREAT\|O_EXCL' 'O_RDONLY' '0[ )]'; do
	got=$(grep -cE "(openat|unlinkat)\\([0-9]+, \"[0-9]{8}\", $what" \
	    "$T/log" || true)
	[ "$got" = 1000 ] || fail "ext4: $got calls with $what, want 1000"
done
[ "$(jq -r .meta.fstype "$T/res-ext4/e.json")" = ext4 ] ||
    fail "ext4: not ext4"
# With --memory-limit every client of open joins the cgroup.
expect_exit 0 "$LD" -q -c "$T/ext4.conf" --scratch "$T/scratch" --clients 2 \
    --memory-limit 64M -n 1000 -N 1000 -o "$T/res-memcg"
jq -e '.rounds[0] | (.open_memcg_peak_kib > 0) and (.open_ops == 1000)' \
    "$T/res-memcg/e.json" >/dev/null ||
    fail "memory limit: $(jq -c '.rounds[0] | {open_memcg_peak_kib, open_ops}' \
    "$T/res-memcg/e.json")"
exit 0
