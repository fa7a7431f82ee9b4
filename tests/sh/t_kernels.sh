#!/bin/sh
# largedir suite --kernels A,B (issue 28): each kernel = uml config runs
# once per User-Mode Linux kernel, labelled LABEL-RELEASE from the
# kernel's own --version, so that largedir table has a column per
# kernel.  Checked with stand-in kernels (scripts that answer --version
# and die when booted): the labels and the order of the targets, and the
# refusals (exit 2, one line): a config that is not kernel = uml, a
# kernel that names no release, two kernels of one release, an empty
# element, --kernels with a sweep of memory limits, and --kernels outside
# a suite.  Booting real kernels is bench's and publishing's (make
# uml-kernel), not a test's.
# shellcheck source=/dev/null
. "$(dirname "$0")/lib.sh"
need_root "the suite's targets make images"
need_dep mkfs.ext4 e2fsprogs
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}

# fake NAME RELEASE: a stand-in kernel that prints RELEASE for --version
# and otherwise exits 1 at once, as a kernel that cannot boot would.
# shellcheck disable=SC2016 # the $1 is the stand-in's own
fake() {
	printf '#!/bin/sh\n[ "$1" = --version ] && echo %s && exit 0\nexit 1\n' \
	    "$2" >"$T/$1"
	chmod +x "$T/$1"
}
fake k1 6.1.176
fake k2 6.12.57
fake k3 6.12.57
printf '#!/bin/sh\necho "Usage: linux [options]"\n' >"$T/k4"
chmod +x "$T/k4"
cat >"$T/u.conf" <<CONF
label = u
fstype = ext4
kernel = uml
mkfs = mkfs.ext4 -q -F
image_size = 64M
CONF
S=$T/scratch
mkdir "$S"

# one_line STATUS TEXT CMD...: CMD exits STATUS with TEXT as its only line.
one_line() {
	ol_st=$1 ol_text=$2
	shift 2
	expect_exit "$ol_st" "$@" >"$T/out" 2>"$T/err"
	[ "$(cat "$T/err")" = "largedir: $ol_text" ] ||
	    fail "$*: said '$(cat "$T/err")', expected '$ol_text'"
	[ ! -s "$T/out" ] || fail "$*: printed $(cat "$T/out")"
}
one_line 2 "suite: --kernels: $TOP/configs/ext4.conf is not kernel = uml" \
    "$LD" suite --kernels "$T/k1" -o "$T/o1" "$TOP/configs/ext4.conf"
one_line 2 "--kernels: $T/k4 --version: no kernel release (it printed 'Usage: linux [options]')" \
    "$LD" suite --kernels "$T/k1,$T/k4" -o "$T/o2" "$T/u.conf"
one_line 2 "--kernels: $T/k2 and $T/k3 are both Linux 6.12.57" \
    "$LD" suite --kernels "$T/k2,$T/k3" -o "$T/o3" "$T/u.conf"
one_line 2 "--kernels '$T/k1,': a list A,B,... has an empty element" \
    "$LD" suite --kernels "$T/k1," -o "$T/o4" "$T/u.conf"
one_line 2 "suite: --kernels or --memory-limit A,B: one sweep at a time" \
    "$LD" suite --kernels "$T/k1" --memory-limit 32M,64M -o "$T/o5" \
    "$T/u.conf"
expect_exit 2 "$LD" --kernels "$T/k1" -c "$T/u.conf" >"$T/out" 2>"$T/err"
grep -q "kernels goes with 'largedir suite'" "$T/err" ||
    fail "--kernels in a run: $(cat "$T/err")"
for o in o1 o2 o3 o4 o5; do
	[ ! -e "$T/$o" ] || fail "a refused suite made $T/$o"
done

# Two kernels: two targets, labelled by release, in the order given; the
# stand-ins cannot boot, so both fail, the suite says so and leaves
# nothing behind.
expect_exit 5 "$LD" suite --kernels "$T/k2,$T/k1" --scratch "$S" -b 5s \
    -o "$T/run" "$T/u.conf" >"$T/out" 2>"$T/err"
grep -q "^suite: target 1 of 2: u-6.12.57 ($T/u.conf)$" "$T/out" ||
    fail "no target u-6.12.57 first: $(cat "$T/out")"
grep -q "^suite: target 2 of 2: u-6.1.176 ($T/u.conf)$" "$T/out" ||
    fail "no target u-6.1.176 second: $(cat "$T/out")"
[ -z "$(ls -A "$S")" ] || fail "left in the scratch directory: $(ls -A "$S")"
! losetup -a | grep -q "$S/" || fail "a loop device is left"
exit 0
