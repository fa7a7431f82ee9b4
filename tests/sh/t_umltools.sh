#!/bin/sh
# The phases named after tools send what the tools send (issue 28):
# bench/nfs-tools.sh runs ls -f, ls -lU and rm -rf, each on a fresh mount,
# and largedir's list, liststat and rmrf (--cold=all) in one User-Mode
# Linux guest, through its kernel NFS client against tests/nfs-server.sh,
# at n = 1,000, with nordirplus and with the default options.  Every
# procedure's count of each phase lies within SLACK calls of its tool's;
# both rm -rf and rmrf sent 1,000 REMOVEs, and listings READDIR (with
# nordirplus) or READDIRPLUS (without).  The kernel: $LARGEDIR_UML, else
# the one make uml-kernel built, else Debian's.
# shellcheck source=/dev/null
. "$(dirname "$0")/lib.sh"

# The most seen: on 6.12 with READDIRPLUS, rm -rf looked up 795 names and
# rmrf 800; the rest differ by the tools' walk to the directory (up to 3).
SLACK=5
need_root "the NFS server's loop device and the guest"
if ldd "$LD" 2>/dev/null | grep -q libasan; then
	skip "an ASan build cannot run inside User-Mode Linux"
fi
need_dep ganesha.nfsd nfs-ganesha
need_dep slirp-fullbolt slirp
need_dep jq jq
top=$(cd "$(dirname "$0")/../.." && pwd)
UMLK=$(uml_kernel)
[ -x "$UMLK" ] || skip "no UML kernel $UMLK (make uml-kernel)"

set +e
LARGEDIR_UML=$UMLK sh "$top/bench/nfs-tools.sh" -n 1000 -d "$T/out" "$LD" \
    >"$T/table" 2>"$T/err"
rc=$?
set -e
case $rc in
0) ;;
77) skip "$(cat "$T/table")" ;;
*) fail "bench/nfs-tools.sh exit $rc: $(cat "$T/err")" ;;
esac
cat "$T/table"
tsv=$T/out/counts.tsv

# count OPTS PHASE PROC COLUMN: a count (7 the tool's, 8 largedir's).
count() {
	awk -F '\t' -v o="$1" -v ph="$2" -v p="$3" -v c="$4" '
	    $2 == o && $3 == 1000 && $4 == ph && $6 == p { v = $c }
	    END { print v + 0 }' "$tsv"
}
for o in nordirplus none; do
	[ "$(count "$o" rmrf REMOVE 7)" = 1000 ] ||
	    fail "$o: rm -rf sent $(count "$o" rmrf REMOVE 7) REMOVEs"
	[ "$(count "$o" rmrf REMOVE 8)" = 1000 ] ||
	    fail "$o: rmrf sent $(count "$o" rmrf REMOVE 8) REMOVEs"
done
if [ "$(count nordirplus list READDIR 7)" = 0 ] ||
    [ "$(count nordirplus list READDIRPLUS 7)" != 0 ]; then
	fail "nordirplus: ls -f did not list with READDIR alone"
fi
[ "$(count none list READDIRPLUS 7)" -gt 0 ] ||
    fail "default options: ls -f sent no READDIRPLUS"
# Each procedure within SLACK calls of the tool's.
awk -F '\t' -v s="$SLACK" 'NR > 1 {
	d = $8 - $7
	if (d > s || d < -s)
		printf "%s, %s (%s): %s %d calls, the tool %d\n", $2, $4,
		    $5, $6, $8, $7
    }' "$tsv" >"$T/off"
[ ! -s "$T/off" ] ||
    fail "more than $SLACK calls from the tools: $(cat "$T/off")"
