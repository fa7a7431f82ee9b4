#!/bin/sh
# A results directory is a scratch directory others may write into, and
# its files are text others wrote.  What plot, page and table make of
# that:
# - FIFOs named like results (LABEL.out, LABEL.summary, LABEL.failed,
#   compare.out), a link to a device: nothing blocks, the real targets
#   are drawn and paged, nothing is left behind;
# - quotes, backquotes, $(...) and system(...) in a description and a
#   stop reason reach the graph's title as they are, and run nothing;
# - bytes that are not UTF-8 become U+FFFD in the SVG and the pages;
# - SIGTERM (and SIGINT) to plot while gnuplot hangs: largedir exits
#   128 + the signal within seconds, and neither gnuplot nor anything it
#   started, nor the private directory, outlives it;
# - a suite whose output directory holds a FIFO finishes (root).
# shellcheck source=/dev/null
. "$(dirname "$0")/lib.sh"
need_dep gnuplot gnuplot-nox
need_dep xmllint libxml2-utils
need_cmd iconv mkfifo timeout
top=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
LARGEDIR_PLOT=$top/plot
export LARGEDIR_PLOT

# run SECONDS CMD...: run CMD with a time limit; status in $rc (124:
# it hung).
run() {
	rs_t=$1
	shift
	set +e
	timeout -k 2 "$rs_t" "$@" >"$T/out" 2>"$T/err"
	rc=$?
	set -e
}

# leftovers DIR: fail if DIR holds a temporary file or directory of
# largedir's (.plot.*, .index.html.*, ...).
leftovers() {
	for f in "$1"/.[!.]*; do
		[ -e "$f" ] || [ -L "$f" ] || continue
		fail "left behind: $f"
	done
}

# dead PID: no process PID is running (a zombie that init has not reaped
# yet is dead).
dead() {
	case $(ps -o stat= -p "$1" 2>/dev/null) in
	'' | Z*) return 0 ;;
	esac
	return 1
}

# utf8 FILE: FILE is valid UTF-8.
utf8() {
	iconv -f UTF-8 -t UTF-8 "$1" >/dev/null 2>&1 ||
	    fail "$1 is not valid UTF-8"
}

# ===== FIFOs and links with the names of results =====
d=$T/fifo
cp -R "$top/tests/data/results/several" "$d"
mkfifo "$d/zz.out" "$d/ext2.summary" "$d/gone.failed" "$d/compare.out"
ln -s /dev/zero "$d/zero.out"
ln -s /dev/zero "$d/tmpfs.summary"
run 20 "$LD" plot "$d"
[ "$rc" = 0 ] || fail "plot with FIFOs: exit $rc: $(cat "$T/err")"
for g in rates-create ext2 ext4-nodirindex tmpfs; do
	xmllint --noout "$d/$g.svg" || fail "$g.svg: not XML"
done
for g in zz zero; do
	[ ! -e "$d/$g.svg" ] || fail "plot drew the planted $g.out"
done
run 20 "$LD" page "$d"
[ "$rc" = 0 ] || fail "page with FIFOs: exit $rc: $(cat "$T/err")"
grep -q 'ext4-nodirindex' "$d/index.html" || fail "page lacks a target"
! grep -q 'gone' "$d/index.html" || fail "page read the FIFO gone.failed"
run 20 "$LD" table "$d"
[ "$rc" = 0 ] || fail "table with FIFOs: exit $rc: $(cat "$T/err")"
for f in zz.out ext2.summary gone.failed compare.out; do
	[ -p "$d/$f" ] || fail "the FIFO $f was removed or replaced"
done
leftovers "$d"

# A comparison's directory whose compare.out is a FIFO is no comparison.
d=$T/cmpfifo
mkdir "$d"
mkfifo "$d/compare.out"
run 20 "$LD" page "$d"
[ "$rc" = 1 ] || fail "page of a FIFO compare.out: exit $rc"
grep -q 'no .out files' "$T/err" || fail "page: $(cat "$T/err")"
leftovers "$d"

# ===== Text others wrote =====
d=$T/text
cp -R "$top/tests/data/results/several" "$d"
# Quotes of every kind, a command substitution, gnuplot's system(), and
# bytes that are no UTF-8 (Latin-1, a control character).
q="the ''quoted'' word \\' \$(touch $T/pwned1) \`touch $T/pwned2\`"
printf '# description: %s\n' "$q system('touch $T/pwned3') end" >"$T/meta"
printf '# stop_reason: caf\351 \377\001 done\n# status: interrupted\n' \
    >>"$T/meta"
grep -v '^# status:\|^# description:\|^# stop_reason:' "$d/ext2.out" |
    cat "$T/meta" - >"$T/ext2.out"
mv "$T/ext2.out" "$d/ext2.out"
run 30 "$LD" plot "$d"
[ "$rc" = 0 ] || fail "plot with quotes: exit $rc: $(cat "$T/err")"
for f in "$T"/pwned*; do
	[ ! -e "$f" ] || fail "text in a description ran a command: $f"
done
xmllint --noout "$d/ext2.svg" || fail "ext2.svg: not XML"
utf8 "$d/ext2.svg"
grep -F "$q" "$d/ext2.svg" >/dev/null ||
    fail "ext2.svg: the description is not in the title as written"
# U+FFFD (UTF-8 ef bf bd) for each of the three bytes.
r=$(printf '\357\277\275')
grep -F "caf$r $r$r done" "$d/ext2.svg" >/dev/null ||
    fail "ext2.svg: not U+FFFD for the bytes"
run 20 "$LD" page "$d"
[ "$rc" = 0 ] || fail "page with quotes: exit $rc: $(cat "$T/err")"
for p in index.html index.de.html; do
	utf8 "$d/$p"
	grep -q 'caf&#xfffd; &#xfffd;&#xfffd; done' "$d/$p" ||
	    fail "$p: not U+FFFD for the bytes"
done
leftovers "$d"

# ===== A signal while gnuplot hangs =====
# A gnuplot that hangs with a child of its own, as one blocked on a FIFO
# did, and that ignores SIGINT as a gnuplot in its plot loop may.
mkdir "$T/bin"
cat >"$T/bin/gnuplot" <<EOF
#!/bin/sh
trap '' INT
echo \$\$ >>"$T/pids"
sleep 300 &
echo \$! >>"$T/pids"
wait
EOF
chmod +x "$T/bin/gnuplot"
for sig in TERM INT; do
	d=$T/sig$sig
	cp -R "$top/tests/data/results/several" "$d"
	rm -f "$T/pids"
	PATH=$T/bin:$PATH "$LD" plot "$d" >"$T/out" 2>"$T/err" &
	pid=$!
	wait_for 10 test -s "$T/pids"
	sleep 0.3
	kill -s "$sig" "$pid"
	t0=$(date +%s)
	set +e
	wait "$pid"
	rc=$?
	set -e
	[ $(($(date +%s) - t0)) -le 5 ] || fail "SIG$sig: plot took too long"
	case $sig in
	TERM) want=143 ;;
	INT) want=130 ;;
	esac
	[ "$rc" = "$want" ] || fail "SIG$sig: plot exit $rc, expected $want"
	while read -r p; do
		wait_for 2 dead "$p"
	done <"$T/pids"
	leftovers "$d"
done

# ===== A suite into a directory with a FIFO =====
need_root "a suite's target mounts a tmpfs"
printf '%s\n' "label = hs" "fstype = tmpfs" \
    "mount_options = size=64m,nr_inodes=100k" >"$T/hs.conf"
d=$T/suite
mkdir "$d"
mkfifo "$d/zz.out" "$d/yy.failed"
run 90 "$LD" suite --total-budget 1s -q --scratch "$T/scratch" -o "$d" \
    "$T/hs.conf"
[ "$rc" = 0 ] || fail "suite with a FIFO: exit $rc: $(cat "$T/err")"
xmllint --noout "$d/hs.svg" || fail "suite: hs.svg: not XML"
[ -s "$d/index.html" ] || fail "suite: no page"
leftovers "$d"
echo "ok"
