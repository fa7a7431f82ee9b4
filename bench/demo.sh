#!/bin/sh
# make demo: a real largedir run of about two minutes on a temporary
# directory of the filesystem that holds /var/tmp (or $LARGEDIR_DEMO_DIR),
# with its results in build/demo/.  Until largedir sets up filesystems on
# loop images itself, this is the default target.
set -eu
bin=${1:-build/largedir}
budget=${2:-110s}
parent=${LARGEDIR_DEMO_DIR:-/var/tmp}
out=build/demo/$(date -u +%Y%m%dT%H%M%SZ)

dir=$(mktemp -d "$parent/largedir-demo.XXXXXX")
trap 'rmdir "$dir" 2>/dev/null || true' EXIT INT TERM
echo "demo: largedir on $dir for $budget (the filesystem of $parent)"
echo "demo: $bin -b $budget -o $out $dir"
echo
status=0
"$bin" -b "$budget" -o "$out" "$dir" || status=$?
echo
for f in "$out"/*.out "$out"/*.csv "$out"/*.json; do
	[ -f "$f" ] && echo "demo: raw data: $f"
done
exit "$status"
