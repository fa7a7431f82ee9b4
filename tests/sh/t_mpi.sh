#!/bin/sh
# --mpi: the clients are the ranks of an MPI job.  The default build says
# in one line how to get it (exit 2) and writes nothing.  The MPI build
# ($O/largedir-mpi, which make check builds when Open MPI is installed),
# under mpirun -np 4, in a directory and (root) on a tmpfs: every phase
# handles exactly n files across the ranks (a listing: n entries each),
# the ranks' hosts and the clients' columns are recorded, nothing is left
# and foreign files stay; what acts on one machine is refused.  Against
# the loopback NFS server (root) each rank has a connection of its own,
# and the RPC columns count the calls of all of them.  A rank killed by -9 ends the job: mpirun
# names it, rank 0 stops, and --cleanup removes whatever it could not.
# shellcheck source=/dev/null
. "$(dirname "$0")/lib.sh"
need_dep jq jq

D=$T/dir
mkdir "$D"
printf 'keep me\n' >"$D/keep.txt"
printf 'named like largedir'\''s own\n' >"$D/00000005"
snapshot "$D" >"$T/before"

# The default build: one line, exit 2, no outputs.
expect_exit 2 "$LD" --mpi -o "$T/none" "$D" 2>"$T/err"
{ [ "$(lines "$T/err")" = 1 ] &&
    grep -q "built without MPI; build it with 'make MPI=1'" "$T/err"; } ||
    fail "default build: $(cat "$T/err")"
[ ! -e "$T/none" ] || fail "default build: outputs written"
expect_exit 2 "$LD" suite --mpi "$TOP/configs/tmpfs.conf" 2>"$T/err"
grep -q 'mpirun' "$T/err" || fail "suite --mpi: $(cat "$T/err")"

MPI=${O:-build}/largedir-mpi
need_dep mpirun openmpi-bin
[ -x "$MPI" ] || fail "no $MPI: make check builds it when Open MPI is" \
    "installed (make deps)"
for bad in "--clients 2:--mpi: not with --clients" \
    "--memory-limit 64M:--mpi: not with --memory-limit" \
    "--cold drop:--mpi: not with --cold" \
    "--events task-clock:--mpi: not with --events"; do
	opts=${bad%%:*} msg=${bad#*:}
	# shellcheck disable=SC2086 # the options are words
	expect_exit 2 "$MPI" --mpi $opts -o "$T/none" "$D" 2>"$T/err"
	grep -qF -- "$msg" "$T/err" || fail "$opts: $(cat "$T/err")"
done
[ ! -e "$T/none" ] || fail "a refused run wrote outputs"

# ranks K ARG...: largedir-mpi under mpirun with K ranks on this machine.
# Under make check SANITIZE=1, without LeakSanitizer: Open MPI keeps what
# it allocates until exit, and its libraries, built without frame
# pointers, leave those blocks unattributable (no suppression can name
# them); ASan's other checks stay on, and LeakSanitizer checks the same
# code of largedir's in the other tests' runs of the ASan build.
ranks() {
	rk_k=$1
	shift
	mpirun --allow-run-as-root --oversubscribe -np "$rk_k" \
	    -x ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	    "$MPI" --mpi "$@"
}

# counted NAME DIR: 4 ranks over 1,000 files in DIR: the counts, the
# record, nothing left.
counted() {
	expect_exit 0 ranks 4 -q -n 1000 -N 1000 -s 3 \
	    -p create,open,list,liststat,delete -o "$T/res-$1" --label m \
	    "$2" >"$T/out" 2>&1
	check_outputs "$T/res-$1" m complete
	jq -e '.rounds[0] | .create_ops == 1000 and .open_ops == 1000 and
	    .liststat_ops == 4000 and .delete_ops == 1000 and
	    .create_client4_per_s > 0 and
	    .create_client_min_per_s <= .create_client_max_per_s' \
	    "$T/res-$1/m.json" >/dev/null ||
	    fail "$1: counts: $(jq -c '.rounds[0] | {create_ops, open_ops,
	    liststat_ops, delete_ops}' "$T/res-$1/m.json")"
	jq -e '(.meta.mpi_ranks | startswith("4: ")) and
	    .config.clients == "4" and .config.events == "none"' \
	    "$T/res-$1/m.json" >/dev/null ||
	    fail "$1: record: $(jq -c '{r: .meta.mpi_ranks,
	    c: .config.clients}' "$T/res-$1/m.json")"
}
counted dir "$D"
unchanged "$D" "4 ranks"
if [ "$(id -u)" = 0 ]; then
	mount_tmpfs "$T/tmpfs" size=64m
	counted tmpfs "$T/tmpfs"
	[ -z "$(ls -A "$T/tmpfs")" ] || fail "tmpfs: left $(ls -A "$T/tmpfs")"
fi

# --- an NFS URL (root: the loopback server of tests/nfs-server.sh):
# every rank on a connection of its own, the calls of all of them ---
if [ "$(id -u)" = 0 ] && command -v ganesha.nfsd >/dev/null 2>&1; then
	S=$T/srv
	trap 'sh "$TOP/tests/nfs-server.sh" stop "$S" >/dev/null 2>&1 || true
	    lib_cleanup' EXIT
	sh "$TOP/tests/nfs-server.sh" start "$S" 64M >"$T/env" 2>"$T/srv.err" ||
	    fail "tests/nfs-server.sh start: $(cat "$T/srv.err")"
	NFS_URL='' NFS_EXPORT=''
	eval "$(cat "$T/env")"
	counted nfs "$NFS_URL"
	jq -e '.rounds[0] | .create_rpc_create == 1000 and
	    .liststat_rpc_lookup == 4000 and .delete_rpc_remove == 1000' \
	    "$T/res-nfs/m.json" >/dev/null || fail "nfs: calls $(jq -c \
	    '.rounds[0] | {create_rpc_create, liststat_rpc_lookup,
	    delete_rpc_remove}' "$T/res-nfs/m.json")"
	[ -z "$(ls -A "$NFS_EXPORT")" ] ||
	    fail "nfs: left on the server: $(ls -A "$NFS_EXPORT")"
	sh "$TOP/tests/nfs-server.sh" stop "$S" >/dev/null 2>&1 ||
	    fail "tests/nfs-server.sh stop"
	trap 'lib_cleanup' EXIT
fi

# --- a rank killed by -9: the job ends, the rank is named ---
bg=
trap '[ -z "${bg:-}" ] || kill -9 "$bg" 2>/dev/null || true; lib_cleanup' EXIT
ranks 4 -q -n 300000 --sync none -o "$T/res-kill" --label k "$D" \
    >"$T/out-kill" 2>&1 &
bg=$!
wait_for 30 sh -c "ls '$D'/largedir.*/round-0001-1/00001000 >/dev/null 2>&1"
victim=
for p in $(pgrep -f "$MPI --mpi"); do
	if tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null |
	    grep -qx 'OMPI_COMM_WORLD_RANK=2'; then
		victim=$p
	fi
done
[ -n "$victim" ] || fail "kill: no rank 2 among $(pgrep -f "$MPI --mpi")"
kill -9 "$victim"
set +e
wait "$bg"
rc=$?
set -e
bg=
[ "$rc" != 0 ] || fail "kill: mpirun exit 0"
grep -q "process rank 2 .*exited on signal 9" "$T/out-kill" ||
    fail "kill: the rank is not named: $(cat "$T/out-kill")"
st=$(jq -r .status "$T/res-kill/k.json")
case $st in
interrupted|running) ;;	# stopped, or killed before it could say so
*) fail "kill: status $st" ;;
esac
# no_ranks: none of the job's processes is left.
# shellcheck disable=SC2317
no_ranks() {
	! pgrep -f "$MPI --mpi" >/dev/null
}
wait_for 60 no_ranks
expect_exit 0 "$LD" --cleanup "$D" >"$T/stdout" 2>&1
unchanged "$D" "a rank killed, then --cleanup"
exit 0
