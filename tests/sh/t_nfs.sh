#!/bin/sh
# The NFS backend (issue 10) against a real server: NFS-Ganesha on
# 127.0.0.1, started by tests/nfs-server.sh on a 64 MiB ext4 image.
#
# What each phase sends is counted exactly: creating n files is n CREATE
# (and n SETATTR unless --nfs-create guarded), opening them n LOOKUP and
# n ACCESS, liststat n LOOKUP besides the READDIRs (none with
# --nfs-readdir plus, which lists with READDIRPLUS alone), deleting them
# n REMOVE; halving --nfs-maxcount about doubles the READDIR or
# READDIRPLUS calls of a listing; with --nfs-window 8 the calls are the
# same, in flight together; with --clients 4, each on a connection of
# its own, the calls of all of them add up.  No call fails, the bytes each way are
# counted, the round line gives the calls per file, and 'url =' in a
# config file names a server as the command line does.  The backend
# conformance suite (tests/unit/test_backend.c) passes over NFS, the
# Maildir operations' case with it; and its test_maildir_calls counts
# every call each Maildir operation sends, exactly: a delivery CREATE,
# SETATTR (not with --nfs-create guarded), one WRITE (two and a COMMIT
# past the server's wsize; none for an empty one) and RENAME, the same
# with --fsync both; a rename LOOKUP and RENAME; readfile LOOKUP, ACCESS
# and a READ per rsize (none for an empty file).
#
# Bad input: a malformed URL is a usage error (exit 2), a server that does
# not answer a runtime failure (exit 1), an export the server refuses
# or exports read-only stops the run (exit 3); each says so in one line.  A full export stops
# the run with ENOSPC (exit 3), also with calls in flight; SIGINT and
# SIGTERM interrupt it (exit 130, 143); either way the rounds done are
# kept.  A run killed with SIGKILL leaves its work directory, which
# 'largedir cleanup nfs://...' removes, but not while a live run holds
# it, nor files it did not make.  A server that stops answering
# (SIGSTOP) makes the call time out and the run fail (exit 1), naming the
# call.  After every run the export is as empty as it was: largedir
# leaves nothing on the server.
# shellcheck source=/dev/null
. "$(dirname "$0")/lib.sh"
need_root "starts an NFS server on a loop device"
need_cmd jq
need_dep ganesha.nfsd nfs-ganesha
need_dep rpcbind rpcbind
S=$T/srv
bg=
trap '[ -z "$bg" ] || kill -9 "$bg" 2>/dev/null || true
    sh "$TOP/tests/nfs-server.sh" stop "$S" >/dev/null 2>&1 || true
    lib_cleanup' EXIT

set +e
sh "$TOP/tests/nfs-server.sh" start "$S" 64M >"$T/env" 2>"$T/srv.err"
rc=$?
set -e
case $rc in
0) ;;
77) skip "$(tail -n 1 "$T/srv.err")" ;;
*) fail "tests/nfs-server.sh start exit $rc: $(cat "$T/srv.err")" ;;
esac
NFS_URL='' NFS_URL_RO='' NFS_EXPORT='' NFS_PORT='' MNT_PORT='' NFS_PID=''
NFS_SERVER=''
eval "$(cat "$T/env")"
if [ -z "$NFS_URL" ] || [ ! -d "$NFS_EXPORT" ]; then
	fail "no server: $(cat "$T/env")"
fi

# empty WHAT: the export holds nothing (read on the server's side).
empty() {
	[ -z "$(ls -A "$NFS_EXPORT")" ] ||
	    fail "$1: left on the server: $(find "$NFS_EXPORT" | head -n 5)"
}

# run NAME OPTIONS...: a complete run on the export; outputs in $T/NAME.
run() {
	name=$1
	shift
	expect_exit 0 "$LD" --sync none -o "$T/$name" --label x "$@" \
	    "$NFS_URL" >"$T/$name.stdout" 2>"$T/stderr"
	check_outputs "$T/$name" x complete
	empty "$name"
}

# col NAME COLUMN [ROUND]: the value of COLUMN in ROUND (1) of run NAME.
col() {
	jq -r --arg c "$2" --argjson r "${3:-1}" \
	    '.rounds[] | select(.round == $r) | .[$c]' "$T/$1/x.json"
}

# expect NAME COLUMN=VALUE...: run NAME's round 1 has these values.
expect() {
	ex_name=$1
	shift
	for ex_kv in "$@"; do
		ex_got=$(col "$ex_name" "${ex_kv%%=*}")
		[ "$ex_got" = "${ex_kv#*=}" ] ||
		    fail "$ex_name: ${ex_kv%%=*} is $ex_got, expected ${ex_kv#*=}"
	done
}

# no_errors NAME: no call of run NAME failed, in any phase.
no_errors() {
	ne=$(jq '[.rounds[] | to_entries[] |
	    select(.key | endswith("_rpc_errors")) | .value] | add' \
	    "$T/$1/x.json")
	[ "$ne" = 0 ] || fail "$1: $ne calls failed"
}

P=create,open,liststat,list,delete

# ===== What each phase sends =====

run plain -n 1000 -N 1000 -p "$P"
expect plain create_ops=1000 \
    create_rpc_create=1000 create_rpc_setattr=1000 create_rpc_lookup=0 \
    open_rpc_lookup=1000 open_rpc_access=1000 open_rpc_create=0 \
    liststat_rpc_lookup=1000 liststat_rpc_readdirplus=0 \
    list_rpc_lookup=0 list_rpc_readdirplus=0 \
    delete_rpc_remove=1000 delete_rpc_lookup=0
[ "$(col plain list_rpc_readdir)" -ge 1 ] || fail "plain: list sent no READDIR"
[ "$(col plain liststat_rpc_readdir)" = "$(col plain list_rpc_readdir)" ] ||
    fail "plain: liststat and list read the directory differently"
no_errors plain
# --clients 4: each client on a connection of its own, the calls of all
# of them in the columns, every listing whole for each, nothing left.
run clients -n 1000 -N 1000 -p create,open,liststat,delete --clients 4
expect clients create_ops=1000 create_rpc_create=1000 \
    open_rpc_lookup=1000 liststat_rpc_lookup=4000 delete_rpc_remove=1000
no_errors clients
rd=$(awk -v r="$(col plain list_rpc_readdir)" 'BEGIN { printf "%.3g", r / 1000 }')
grep -qx " *calls/file  create 2  open 2  liststat 1  list $rd  delete 1" \
    "$T/plain.stdout" || fail "plain: no calls/file line: $(cat "$T/plain.stdout")"
for c in create_rpc_bytes_out create_rpc_bytes_in list_rpc_bytes_in; do
	[ "$(col plain $c)" -gt 0 ] || fail "plain: $c is $(col plain $c)"
done
jq -e '.meta.fstype == "nfs" and .meta.nfs_version == "3" and
    .meta.nfs_export == "'"$NFS_EXPORT"'" and
    (.meta.nfs_pathconf | startswith("name_max "))' "$T/plain/x.json" \
    >/dev/null ||
    fail "plain: the metadata do not describe the server"

run plus -n 1000 -N 1000 -p "$P" --nfs-create guarded --nfs-readdir plus
expect plus create_rpc_create=1000 create_rpc_setattr=0 \
    liststat_rpc_lookup=0 liststat_rpc_readdir=0 \
    list_rpc_lookup=0 list_rpc_readdir=0 delete_rpc_remove=1000
[ "$(col plus list_rpc_readdirplus)" -ge 1 ] ||
    fail "plus: list sent no READDIRPLUS"
no_errors plus

# Calls in flight (--nfs-window): the same calls, all of them answered.
run window -n 1000 -N 1000 -p "$P" --nfs-window 8
expect window create_rpc_create=1000 create_rpc_setattr=1000 \
    open_rpc_lookup=1000 open_rpc_access=1000 liststat_rpc_lookup=1000 \
    delete_rpc_remove=1000
no_errors window
jq -e '.meta.nfs_window == "8"' "$T/window/x.json" >/dev/null ||
    fail "window: nfs_window is $(jq .meta.nfs_window "$T/window/x.json")"

# The server named in a config file, and what serves it as the server
# script says (--server), on the page too.
printf 'label = viaconf\nurl = %s\n' "$NFS_URL" >"$T/nfs.conf"
case $NFS_SERVER in
"NFS-Ganesha V"*", FSAL VFS, ext4 on a loop image of 64M ("*" inodes), "*)
	;;
*) fail "the server script's NFS_SERVER: '$NFS_SERVER'" ;;
esac
expect_exit 0 "$LD" -q --sync none -n 100 -N 100 -p create,delete \
    -c "$T/nfs.conf" --server "$NFS_SERVER" -o "$T/conf" >"$T/stdout" \
    2>"$T/stderr"
jq -e --arg s "$NFS_SERVER" '.meta.target_kind == "url" and
    .meta.fstype == "nfs" and .meta.target_server == $s and
    .rounds[0].create_rpc_create == 100' "$T/conf/viaconf.json" >/dev/null ||
    fail "url =: $(jq -c .meta "$T/conf/viaconf.json")"
"$LD" page "$T/conf" >/dev/null
grep -q "served by: NFS-Ganesha V" "$T/conf/index.html" ||
    fail "the page does not say what serves the export"
empty conf

# File contents: one WRITE and one COMMIT per file, nothing else extra.
run write -n 200 -N 200 -p create,delete --file-size 4k
expect write create_rpc_write=200 create_rpc_commit=200 \
    create_rpc_create=200 delete_rpc_remove=200
no_errors write

# A tree (--layout tree): one MKDIR and one RMDIR per directory, a
# CREATE and a REMOVE per file, a READDIR at least per directory listed,
# nothing left.
run tree --layout tree --dirs 50 --files-per-dir 4 -N 200 -p list
expect tree mkdir_ops=50 mkdir_rpc_mkdir=50 create_rpc_create=200 \
    create_rpc_mkdir=0 delete_rpc_remove=200 delete_rpc_rmdir=50 \
    delete_ops=250 dirs=50
[ "$(col tree list_rpc_readdir)" -ge 50 ] ||
    fail "tree: $(col tree list_rpc_readdir) READDIRs for 50 directories"
no_errors tree

# A mailbox (--workload maildir), 4 KiB mails with --fsync both: a
# delivery is CREATE, SETATTR, one WRITE FILE_SYNC and a RENAME (fsync
# sends no more, the directory's nothing); a move or a flag is a LOOKUP
# and a RENAME; a read a LOOKUP, an ACCESS and one READ; an expunge a
# REMOVE.
run mail --workload maildir --file-size 4k --fsync both -n 200 -N 200
expect mail deliver_ops=200 deliver_rpc_create=200 deliver_rpc_setattr=200 \
    deliver_rpc_write=200 deliver_rpc_commit=0 deliver_rpc_rename=200 \
    move_rpc_lookup=200 move_rpc_rename=200 flag_rpc_lookup=200 \
    flag_rpc_rename=200 scan_ops=200 scan_rpc_lookup=200 \
    read_rpc_lookup=200 read_rpc_access=200 read_rpc_read=200 \
    expunge_rpc_remove=200 expunge_rpc_rename=0
no_errors mail

# ===== The backend conformance suite, over NFS =====

tb=$(dirname "$LD")/tests/test_backend
[ -x "$tb" ] || fail "no $tb (make unit builds it)"
LARGEDIR_NFS_URL=$NFS_URL "$tb" >"$T/conformance" 2>&1 ||
    fail "test_backend over NFS: $(tail -n 8 "$T/conformance")"
grep -q '^\[  PASSED  \] 10 test(s)\.$' "$T/conformance" ||
    fail "test_backend over NFS: $(tail -n 5 "$T/conformance")"
for t in test_maildir test_maildir_calls; do
	grep -q "^\[       OK \] $t\$" "$T/conformance" ||
	    fail "test_backend over NFS: $t did not pass"
done
# calls WHAT PROCS: test_maildir_calls saw the Maildir operation WHAT
# send exactly the calls PROCS, in the order of the counters.
calls() {
	grep -qxF "calls: $1: $2" "$T/conformance" || fail "maildir: $1 \
sent '$(sed -n "s/^calls: $1: //p" "$T/conformance")', expected '$2'"
}
calls 'deliver 0' 'create=1 setattr=1 rename=1'
calls 'deliver 4096' 'create=1 setattr=1 write=1 rename=1'
calls 'deliver wsize' 'create=1 setattr=1 write=1 rename=1'
calls 'deliver wsize+1' 'create=1 setattr=1 write=2 commit=1 rename=1'
calls 'deliver 4096, fsync both' 'create=1 setattr=1 write=1 rename=1'
calls 'deliver wsize+1, fsync both' \
    'create=1 setattr=1 write=2 commit=1 rename=1'
calls 'deliver 4096, guarded' 'create=1 write=1 rename=1'
calls 'rename' 'lookup=1 rename=1'
calls 'rename onto itself' 'lookup=1'
calls 'rename of none' 'lookup=1'
calls 'readfile 0' 'lookup=1 access=1'
calls 'readfile 4096' 'lookup=1 access=1 read=1'
calls 'readfile of none' 'lookup=1'
empty conformance

# ===== Listing sizes =====

# ratio NAME-BIG NAME-SMALL PROC: halving the reply size about doubles the
# calls of a listing of 3000 files: small >= 2 * big - 2, big >= 3.
ratio() {
	r_big=$(col "$1" "list_rpc_$3")
	r_small=$(col "$2" "list_rpc_$3")
	if [ "$r_big" -lt 3 ] || [ "$r_small" -lt $((2 * r_big - 2)) ]; then
		fail "$3: $r_big calls at the larger size, $r_small at half of it"
	fi
}
run m8 -n 3000 -N 3000 -p create,list,delete --nfs-maxcount 8k
run m4 -n 3000 -N 3000 -p create,list,delete --nfs-maxcount 4k
ratio m8 m4 readdir
# Ganesha sizes READDIRPLUS replies by maxcount alone (it ignores
# dircount), so maxcount is what is halved here too.
run d8 -n 3000 -N 3000 -p create,list,delete --nfs-readdir plus \
    --nfs-maxcount 16k
run d4 -n 3000 -N 3000 -p create,list,delete --nfs-readdir plus \
    --nfs-maxcount 8k
ratio d8 d4 readdirplus

# ===== Bad input, unreachable and refusing servers =====

# refused STATUS WHAT URL [OPTIONS...]: largedir exits STATUS with one
# line on stderr that contains WHAT, and leaves no outputs: nothing was
# measured, whether the input was wrong (2), the server could not be
# reached (1) or refused the work directory (3).
refused() {
	rf_st=$1 rf_what=$2 rf_url=$3
	shift 3
	expect_exit "$rf_st" "$LD" -q -n 10 -N 10 --nfs-timeout 5s \
	    -o "$T/refused" "$@" "$rf_url" >"$T/stdout" 2>"$T/stderr"
	grep -v 'warning: ' "$T/stderr" >"$T/errors" || true
	[ "$(lines "$T/errors")" -eq 1 ] ||
	    fail "$rf_url: stderr is not one line: $(cat "$T/stderr")"
	grep -qF -- "$rf_what" "$T/errors" ||
	    fail "$rf_url: stderr does not say '$rf_what': $(cat "$T/errors")"
	[ ! -e "$T/refused" ] ||
	    fail "$rf_url: outputs were written: $(ls -A "$T/refused")"
	empty "$rf_url"
}
refused 2 'no server, or no export' 'nfs://127.0.0.1'
refused 2 'only NFSv3' "nfs://127.0.0.1$NFS_EXPORT?version=4"
refused 2 "unknown 'nfsprot'" "nfs://127.0.0.1$NFS_EXPORT?nfsprot=1"
refused 2 'exclusive' "$NFS_URL" --nfs-create sometimes
refused 2 '--nfs-maxcount' "$NFS_URL" --nfs-maxcount 0
# Nothing listens on port 1 of this machine.
refused 1 '127.0.0.1' "nfs://127.0.0.1/x?nfsport=1&mountport=1"
refused 3 '/not-exported' \
    "nfs://127.0.0.1/not-exported?nfsport=$NFS_PORT&mountport=$MNT_PORT"
# A read-only export: the work directory's MKDIR fails.
refused 3 'Read-only file system (MKDIR: NFS3ERR_ROFS)' "$NFS_URL_RO"
[ -z "$(ls -A "$S/export-ro")" ] ||
    fail "the read-only export holds $(ls -A "$S/export-ro")"

# ===== A full export =====

# full NAME OPTIONS...: fill the export with 1 MiB files until it is full.
full() {
	fu_name=$1
	shift
	set +e
	"$LD" -q --sync none -n 10 -g 2 -p create,delete --file-size 1m \
	    -o "$T/$fu_name" --label x "$@" "$NFS_URL" >"$T/stdout" \
	    2>"$T/stderr"
	rc=$?
	set -e
	[ "$rc" = 3 ] ||
	    fail "$fu_name: exit $rc, expected 3: $(cat "$T/stderr")"
	grep -v 'warning: ' "$T/stderr" >"$T/errors" || true
	if [ "$(lines "$T/errors")" -ne 1 ] ||
	    ! grep -q 'No space left on device ([A-Z]*: NFS3ERR_NOSPC)' \
	    "$T/errors"; then
		fail "$fu_name: stderr: $(cat "$T/stderr")"
	fi
	jq -e '.status == "stopped" and .stop.errno == "ENOSPC" and
	    .stop.phase == "create" and (.rounds | length) >= 1' \
	    "$T/$fu_name/x.json" >/dev/null || fail "$fu_name: $(jq -c \
	    '{status, stop}' "$T/$fu_name/x.json")"
	empty "$fu_name"
}
full full
# With calls in flight, those after the one that failed are cleaned too.
full fullwindow --nfs-window 8

# ===== Killed runs and cleanup =====

# workdir NAME: the work directory run NAME recorded, once it has.
workdir() {
	jq -r '.meta.work_dir // empty' "$T/$1/x.json" 2>/dev/null
}

# started NAME: run NAME is in its second round or a later one, and has
# made a file of it (a kill just after its mkdir would leave no file to
# clean).  Any later round: on a busy machine the poll can miss a short
# second round.
started() {
	wd=$(workdir "$1")
	[ -n "$wd" ] || return 1
	for sd in "$NFS_EXPORT/${wd##*/}"/round-*; do
		case ${sd##*/} in
		round-0001-*) continue ;;
		esac
		[ -d "$sd" ] && [ -n "$(find "$sd" -mindepth 1 | head -n 1)" ] &&
		    return 0
	done
	return 1
}

# A live run is left alone by cleanup, and completes.
"$LD" -q --sync none -b 60s -n 500 -N 3000 -p create,delete \
    -o "$T/live" --label x "$NFS_URL" >"$T/stdout" 2>"$T/stderr" &
bg=$!
wait_for 60 started live
expect_exit 0 "$LD" cleanup "$NFS_URL" >"$T/cleanup" 2>&1
wd=$(workdir live)
grep -qx "kept $wd: in use by a running largedir" "$T/cleanup" ||
    fail "live: cleanup said: $(cat "$T/cleanup")"
set +e
wait "$bg"
rc=$?
set -e
bg=
[ "$rc" = 0 ] || fail "live: the run exited $rc: $(cat "$T/stderr")"
empty live

# SIGINT and SIGTERM: the run stops, says so, keeps the rounds done and
# removes what it made on the server.
for sig in INT TERM; do
	"$LD" -q --sync none -b 60s -n 500 -N 30000 -p create,delete \
	    -o "$T/sig$sig" --label x "$NFS_URL" >"$T/stdout" 2>"$T/stderr" &
	bg=$!
	wait_for 60 started "sig$sig"
	kill -"$sig" "$bg"
	set +e
	wait "$bg"
	rc=$?
	set -e
	bg=
	want=130
	[ "$sig" = INT ] || want=143
	[ "$rc" = "$want" ] || fail "SIG$sig: exit $rc, expected $want"
	check_outputs "$T/sig$sig" x interrupted
	[ "$K" -ge 1 ] || fail "SIG$sig: the rounds done were not kept"
	empty "SIG$sig"
done

# A server that stops answering: the call times out, the run fails
# (exit 1) naming the call, cannot clean up while the server sleeps, and
# says to run cleanup, which works once the server is back.
"$LD" -q --sync none -b 60s -n 500 -N 30000 -p create,delete \
    --nfs-timeout 2s -o "$T/stall" --label x "$NFS_URL" >"$T/stdout" \
    2>"$T/stderr" &
bg=$!
wait_for 60 started stall
kill -STOP "$NFS_PID"
set +e
wait "$bg"
rc=$?
set -e
bg=
kill -CONT "$NFS_PID"
[ "$rc" = 1 ] || fail "stall: exit $rc, expected 1: $(cat "$T/stderr")"
grep -v 'warning: ' "$T/stderr" >"$T/errors" || true
grep -q '^largedir: Connection timed out ([A-Z]*: no reply in 2 s): ' \
    "$T/errors" || fail "stall: stderr: $(cat "$T/errors")"
grep -q "run 'largedir --cleanup $NFS_URL'\$" "$T/errors" ||
    fail "stall: no word of cleanup: $(cat "$T/errors")"
jq -e '.status == "failed" and .stop.errno == "ETIMEDOUT"' \
    "$T/stall/x.json" >/dev/null || fail "stall: $(jq -c '{status, stop}' \
    "$T/stall/x.json")"
expect_exit 0 "$LD" cleanup "$NFS_URL" >"$T/cleanup" 2>&1
grep -q "^removed $(workdir stall) ([0-9]* files)\$" "$T/cleanup" ||
    fail "stall: cleanup said: $(cat "$T/cleanup")"
empty stall

# A killed one leaves its work directory, which cleanup removes, all but
# the files largedir did not make: put there on the server's side, before
# anything lists the directory through NFS (Ganesha would cache it).
"$LD" -q --sync none -b 60s -n 500 -N 30000 -p create,delete \
    -o "$T/killed" --label x "$NFS_URL" >"$T/stdout" 2>"$T/stderr" &
bg=$!
wait_for 60 started killed
# Stopped where a round directory holds files, then killed there: between
# two rounds there is none, and a busy machine may take a while to kill.
i=0
while kill -STOP "$bg" && ! started killed; do
	kill -CONT "$bg"
	i=$((i + 1))
	[ "$i" -lt 600 ] || fail "killed: never stopped inside a round"
	sleep 0.1
done
kill -9 "$bg"
wait "$bg" 2>/dev/null || true
bg=
wd=$(workdir killed)
sd=$NFS_EXPORT/${wd##*/}
for rd in "$sd"/round-*; do
	:
done
[ -d "$rd" ] || fail "killed: no round directory was left to clean"
echo foreign >"$NFS_EXPORT/top.txt"
echo foreign >"$sd/keep.txt"
echo foreign >"$rd/keep.txt"
expect_exit 0 "$LD" cleanup "$NFS_URL" >"$T/cleanup" 2>&1
grep -q "^kept $wd: [1-9][0-9]* files removed, 2 entries not made by largedir left in place\$" \
    "$T/cleanup" || fail "killed: cleanup said: $(cat "$T/cleanup")"
left=$(cd "$NFS_EXPORT" && find . ! -name '.largedir-*' | sort | tr '\n' ' ')
w=./${wd##*/}
want=". $w $w/keep.txt $w/${rd##*/} $w/${rd##*/}/keep.txt ./top.txt "
[ "$left" = "$want" ] || fail "killed: left on the server: $left"

# A mailbox killed while its mails move from new/ to cur/: cleanup finds
# them in both (tmp/, new/, cur/ are the round's), and keeps a foreign
# file in cur/ with the directories that hold it.  In a directory of its
# own, made on the server's side.
mkdir "$NFS_EXPORT/mbox"
mbox_url=$(printf '%s' "$NFS_URL" | sed 's|/export?|/export/mbox?|')
"$LD" -q --sync none --workload maildir --fsync none --file-size 0-2k \
    -n 3000 -N 3000 -o "$T/mkill" --label x "$mbox_url" \
    >"$T/stdout" 2>"$T/stderr" &
bg=$!
# moving: a mail is in cur/ already.
moving() {
	[ -n "$(find "$NFS_EXPORT/mbox" -path '*/cur/*' -type f | head -n 1)" ]
}
wait_for 60 moving mkill
# Stopped first, so that it is killed in the state moving saw.
i=0
while kill -STOP "$bg" && ! moving; do
	kill -CONT "$bg"
	i=$((i + 1))
	[ "$i" -lt 600 ] || fail "mailbox killed: never stopped while moving"
	sleep 0.1
done
kill -9 "$bg"
wait "$bg" 2>/dev/null || true
bg=
cur=$(find "$NFS_EXPORT/mbox" -type d -name cur)
echo foreign >"$cur/foreign.eml"
expect_exit 0 "$LD" cleanup "$mbox_url" >"$T/cleanup" 2>&1
grep -q "^kept .*: 3000 files removed, 1 entry not made by largedir left in place\$" \
    "$T/cleanup" || fail "mailbox killed: cleanup said: $(cat "$T/cleanup")"
[ -f "$cur/foreign.eml" ] || fail "mailbox killed: the foreign file went"
n=$(find "$NFS_EXPORT/mbox" -type f ! -name '.largedir-*' | wc -l)
[ "$n" -eq 1 ] || fail "mailbox killed: $n files left, expected 1"

