#!/bin/sh
# Run largedir inside a User-Mode Linux guest on an NFS mount of the
# loopback server (tests/nfs-server.sh), so the kernel NFS client's
# counters (src/knfs.c) come from a real client on a host whose kernel
# has none.  The seed of issue 17's UML runner.
#
#   sh tests/uml/nfs-run.sh ENV_FILE OUT_DIR [N [NFS_OPTS]]
#
# ENV_FILE is what 'nfs-server.sh start' printed; OUT_DIR a new directory
# for the results (the guest's one writable host directory); N the
# number of files (default 1000); NFS_OPTS more mount options, comma-
# separated (e.g. nordirplus).  The guest (tests/uml/init.sh) boots with
# the host's root read-only as its root, mounts the export on its /mnt and
# runs build/largedir there; OUT_DIR gets largedir's files (x.json ...),
# mountstats.before and .after, init.log and the console in console.log.
# The environment may set PHASES (default create,open,list,liststat,
# delete), VERS (the NFS version, 3 or 4; default 3), COLD (largedir's
# --cold, default none; drop empties the client's caches before each
# phase after create), LABEL (largedir's --label, default x), and for a
# run of growing rounds instead of one of N files: MAX, START (default
# 100), GROWTH (default 10) and BUDGET (default 20m).
# A guest still running after TIMEOUT_S (default 300) seconds is killed
# with its process group (linux.uml and its slirp).
#
# Exit status: largedir's inside the guest; 1 when the guest did not get
# that far (the reason is in OUT_DIR/status, init.log or console.log);
# 2 usage error; 77 cannot run here (no linux.uml or slirp: apt-get
# install user-mode-linux slirp kmod).
set -eu
LC_ALL=C
export LC_ALL

UML=${UML:-/usr/bin/linux.uml}
SLIRP=${SLIRP:-/usr/bin/slirp-fullbolt}
TIMEOUT_S=${TIMEOUT_S:-300}
PHASES=${PHASES:-create,open,list,liststat,delete}
COLD=${COLD:-none}
VERS=${VERS:-3}
LABEL=${LABEL:-x}
MAX=${MAX:-}
START=${START:-100}
GROWTH=${GROWTH:-10}
BUDGET=${BUDGET:-20m}

if [ $# -lt 2 ] || [ $# -gt 4 ]; then
	echo "usage: nfs-run.sh ENV_FILE OUT_DIR [N [NFS_OPTS]]" >&2
	exit 2
fi
envfile=$1
out=$2
n=${3:-1000}
nfs_opts=${4:-}
for f in "$UML" "$SLIRP"; do
	if [ ! -x "$f" ]; then
		echo "nfs-run.sh: no $f (apt-get install user-mode-linux" \
		    "slirp kmod)" >&2
		exit 77
	fi
done

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
# shellcheck disable=SC1090 # the server's lines for eval
. "$envfile"
: "${NFS_EXPORT:?not in $envfile}" "${NFS_PORT:?}" "${MNT_PORT:?}"
if [ "$VERS" != 3 ]; then
	# v4 mounts the pseudo path: NFS_URL4's, nfs://HOST/PATH?...
	NFS_EXPORT=${NFS_URL4#nfs://*/}
	NFS_EXPORT=/${NFS_EXPORT%%\?*}
fi
mkdir "$out"
out=$(cd "$out" && pwd)

# UML keeps its pid and sockets in uml_dir/umid: a folder of our own,
# removed at the end, so a killed guest leaves nothing in ~/.uml.
umldir=$(mktemp -d /tmp/uml-run.XXXXXX)
trap 'rm -rf "$umldir"' EXIT

# The guest's memory is a file in TMPDIR; words VAR=value reach init's
# environment (none may hold a space).
rc=0
timeout -k 10 "$TIMEOUT_S" "$UML" mem=384M \
    rootfstype=hostfs rootflags=/ ro init="$here/init.sh" \
    uml_dir="$umldir" umid=largedir \
    eth0=slirp,,"$SLIRP" con=null con0=fd:0,fd:1 \
    OUT="$out" LARGEDIR="$top/build/largedir" EXPORT="$NFS_EXPORT" \
    NFS_PORT="$NFS_PORT" MNT_PORT="$MNT_PORT" NFS_OPTS="$nfs_opts" \
    N="$n" PHASES="$PHASES" COLD="$COLD" VERS="$VERS" LABEL="$LABEL" \
    MAX="$MAX" START="$START" GROWTH="$GROWTH" BUDGET="$BUDGET" \
    < /dev/null > "$out/console.log" 2>&1 || rc=$?
if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
	echo "nfs-run.sh: guest killed after $TIMEOUT_S s" >&2
	exit 1
fi
if [ ! -f "$out/status" ]; then
	echo "nfs-run.sh: the guest did not run largedir (see" \
	    "$out/console.log)" >&2
	exit 1
fi
status=$(cat "$out/status")
case $status in
[0-9]*)
	exit "$status"
	;;
*)
	echo "nfs-run.sh: $status" >&2
	exit 1
	;;
esac
