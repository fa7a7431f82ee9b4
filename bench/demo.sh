#!/bin/sh
# make demo: a real largedir run of about two minutes, with its results in
# build/demo/.  As root, a suite over filesystems largedir makes itself on
# loop images (ext2, ext4, ext4 without dir_index, xfs, btrfs, tmpfs) and
# an NFS server on 127.0.0.1 (nfs-loopback), about 15 s each; otherwise one run on a temporary directory of the
# filesystem that holds /var/tmp (or $LARGEDIR_DEMO_DIR).
set -eu
bin=${1:-build/largedir}
budget=${2:-110s}
out=build/demo/$(date -u +%Y%m%dT%H%M%SZ)

status=0
if [ "$(id -u)" = 0 ] && [ -e /dev/loop-control ]; then
	set -- configs/ext2.conf configs/ext4.conf configs/ext4-nodirindex.conf \
	    configs/xfs.conf configs/btrfs.conf configs/tmpfs.conf
	# NFS too: largedir's own client against NFS-Ganesha on 127.0.0.1,
	# exporting an ext4 image (tests/nfs-server.sh), if it can run here.
	nfs=build/demo-nfs
	sh tests/nfs-server.sh stop "$nfs" >/dev/null 2>&1 || true
	if sh tests/nfs-server.sh start "$nfs" 2G >build/demo-nfs.env \
	    2>build/demo-nfs.err; then
		trap 'sh tests/nfs-server.sh stop "$nfs" >/dev/null || true' \
		    EXIT INT TERM
		NFS_URL=
		eval "$(cat build/demo-nfs.env)"
		{
			echo "# make demo: the NFS server of tests/nfs-server.sh"
			echo "label = nfs-loopback"
			echo "description = largedir's NFSv3 client (libnfs) against NFS-Ganesha on 127.0.0.1, exporting ext4 on a loop image"
			echo "url = $NFS_URL"
		} >build/nfs-loopback.conf
		set -- "$@" build/nfs-loopback.conf
	else
		echo "demo: no NFS server here, so no NFS curve: $(tail -n 1 \
		    build/demo-nfs.err)"
	fi
	echo "demo: a suite of $# targets on loop images, $budget in all"
	echo "demo: $bin suite --total-budget $budget -o $out $*"
	echo
	"$bin" suite --total-budget "$budget" -o "$out" "$@" || status=$?
else
	parent=${LARGEDIR_DEMO_DIR:-/var/tmp}
	dir=$(mktemp -d "$parent/largedir-demo.XXXXXX")
	trap 'rmdir "$dir" 2>/dev/null || true' EXIT INT TERM
	echo "demo: not root, so no filesystems on loop images: measuring" \
	    "$parent's filesystem instead (run make demo as root for the suite)"
	echo "demo: $bin -b $budget -o $out $dir"
	echo
	"$bin" -b "$budget" -o "$out" "$dir" || status=$?
	[ ! -d "$out" ] || "$bin" plot "$out" || true
fi
echo
if [ -d "$out" ]; then
	echo "demo: in $out/: for each target LABEL.out (raw data for" \
	    "gnuplot), LABEL.csv, LABEL.json and the graph LABEL.png;" \
	    "the comparisons rates-PHASE.png:"
	(cd "$out" && ls -- *.out rates-*.png 2>/dev/null)
fi
exit "$status"
