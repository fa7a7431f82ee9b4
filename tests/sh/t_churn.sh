#!/bin/sh
# --churn: a directory that changes while it is listed.  Another process
# makes and removes files of its own (churn-NNNNNNNNNN) while list,
# liststat and rmrf read the directory.  On tmpfs, on an ext4 image and
# over NFS (the loopback server) every listing still sees each of the n
# files exactly once (no loop, nothing lost), the churn's counts are
# recorded beside those phases (at least one file, made before the
# listing starts) and not beside the others, its files are all gone
# afterwards, and over NFS its calls are not counted as the phase's:
# the READDIR and REMOVE counts of rmrf are those of a run without
# churn plus what the listing itself needs.  --churn without a phase
# that lists is a usage error.
# shellcheck source=/dev/null
. "$(dirname "$0")/lib.sh"
need_cmd jq
P=create,list,liststat,rmrf

# churned NAME DIR [OPTIONS...]: a run with --churn 2000 on DIR (a path
# or URL), outputs in $T/NAME; checks the counts.
churned() {
	cn=$1 cd=$2
	shift 2
	expect_exit 0 "$LD" -q --sync none -n 2000 -N 2000 -p "$P" \
	    --churn 2000 -o "$T/$cn" --label x "$@" "$cd" 2>"$T/$cn.err"
	check_outputs "$T/$cn" x complete
	jq -e '.rounds[0] | .list_loop == 0 and .list_lost == 0 and
	    .liststat_loop == 0 and .liststat_lost == 0 and
	    .rmrf_loop == 0 and .list_churn_made >= 1 and
	    .liststat_churn_made >= 1 and .rmrf_churn_made >= 1 and
	    .list_churn_made == .list_churn_removed and
	    .rmrf_churn_made == .rmrf_churn_removed and
	    .create_churn_made == null and .rmrf_ops == 2000 and
	    .liststat_ops >= 2000' "$T/$cn/x.json" >/dev/null ||
	    fail "$cn: $(jq -c '.rounds[0] | with_entries(select(.key |
	    test("(loop|lost|churn_made|churn_removed|_ops)$")))' \
	    "$T/$cn/x.json")"
	! grep -q 'warning: .* saw' "$T/$cn.err" ||
	    fail "$cn: $(cat "$T/$cn.err")"
}

# Bad input first: nothing to list, nothing to churn beside.
mkdir "$T/d"
expect_exit 2 "$LD" -n 10 -N 10 -p create,delete --churn 10 -o "$T/bad" \
    "$T/d" >/dev/null 2>"$T/err"
grep -q -- '--churn 10 needs a phase that lists' "$T/err" ||
    fail "--churn without a listing: $(cat "$T/err")"
[ ! -e "$T/bad" ] || fail "--churn without a listing wrote outputs"

# tmpfs, where the machine has one.
if [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ]; then
	S=$(mktemp -d /dev/shm/largedir-churn.XXXXXX)
	trap 'rm -rf "$S"; lib_cleanup' EXIT
	churned tmpfs "$S"
	[ -z "$(ls -A "$S")" ] || fail "tmpfs: left $(ls -A "$S")"
fi
# The same in a plain directory (whatever $T is on).
churned dir "$T/d"
[ -z "$(ls -A "$T/d")" ] || fail "dir: left $(ls -A "$T/d")"

# An ext4 image and the loopback NFS server need root.
if [ "$(id -u)" != 0 ]; then
	echo "churn: ext4 image and NFS not tried: not root"
	exit 0
fi
printf '%s\n' "label = x" "fstype = ext4" "mkfs = mkfs.ext4 -q -F" \
    "image_size = 64M" >"$T/e4.conf"
mkdir "$T/scratch"
expect_exit 0 "$LD" -q --sync none -n 2000 -N 2000 -p "$P" --churn 2000 \
    -c "$T/e4.conf" --scratch="$T/scratch" -o "$T/ext4" 2>"$T/ext4.err"
jq -e '.rounds[0] | .list_lost == 0 and .liststat_lost == 0 and
    .list_loop == 0 and .rmrf_loop == 0 and .liststat_churn_made >= 1' \
    "$T/ext4/x.json" >/dev/null || fail "ext4: $(cat "$T/ext4.err")"

command -v ganesha.nfsd >/dev/null 2>&1 || {
	echo "churn: NFS not tried: no ganesha.nfsd (make deps)"
	exit 0
}
NS=$T/srv
trap 'sh "$TOP/tests/nfs-server.sh" stop "$NS" >/dev/null 2>&1 || true
    [ -z "${S:-}" ] || rm -rf "$S"; lib_cleanup' EXIT
set +e
sh "$TOP/tests/nfs-server.sh" start "$NS" 64M >"$T/env" 2>"$T/srv.err"
rc=$?
set -e
case $rc in
0) ;;
77) echo "churn: NFS not tried: $(tail -n 1 "$T/srv.err")"; exit 0 ;;
*) fail "tests/nfs-server.sh start exit $rc: $(cat "$T/srv.err")" ;;
esac
NFS_URL='' NFS_EXPORT=''
eval "$(cat "$T/env")"
churned nfs "$NFS_URL"
expect_exit 0 "$LD" -q --sync none -n 2000 -N 2000 -p "$P" -o "$T/still" \
    --label x "$NFS_URL" 2>/dev/null
# The churn's own calls went on its own connection: rmrf removed the
# 2000 files with 2000 REMOVEs, with or without it.
for r in nfs still; do
	[ "$(jq '.rounds[0].rmrf_rpc_remove' "$T/$r/x.json")" = 2000 ] ||
	    fail "$r: rmrf_rpc_remove $(jq '.rounds[0].rmrf_rpc_remove' \
	    "$T/$r/x.json")"
done
echo "churn: READDIR calls of list without and with churn:" \
    "$(jq '.rounds[0].list_rpc_readdir' "$T/still/x.json")," \
    "$(jq '.rounds[0].list_rpc_readdir' "$T/nfs/x.json")"
[ -z "$(ls -A "$NFS_EXPORT")" ] ||
    fail "nfs: left on the server: $(ls -A "$NFS_EXPORT")"
exit 0
