# Sourced by every shell test (POSIX sh).  Gives: set -eu, LC_ALL=C, a
# scratch directory $T removed on exit (with anything mounted on it
# unmounted first), $LD (the largedir binary), and helpers.  A test exits
# 0 to pass, 77 to skip (after printing why), anything else to fail.
set -eu
LC_ALL=C
export LC_ALL
# shellcheck disable=SC2034 # used by the tests that source this file
LD=${LARGEDIR:?LARGEDIR must name the largedir binary}
T=$(mktemp -d "${TMPDIR:-/tmp}/largedir-test.XXXXXX")

lib_cleanup() {
	# Unmount whatever a test mounted under $T, deepest first.
	if [ -r /proc/self/mounts ]; then
		awk -v t="$T" '$2 ~ "^"t { print $2 }' /proc/self/mounts |
		    sort -r | while read -r m; do umount "$m" || true; done
	fi
	rm -rf "$T"
}
trap lib_cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

skip() {
	echo "skipped: $*"
	exit 77
}

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# need_root REASON: skip unless root.
need_root() {
	[ "$(id -u)" = 0 ] || skip "needs root ($*)"
}

# need_cmd CMD...: skip unless every command exists.
need_cmd() {
	for c in "$@"; do
		command -v "$c" >/dev/null 2>&1 || skip "needs $c"
	done
}

# mount_tmpfs DIR OPTIONS: a private tmpfs of our own, unmounted on exit.
mount_tmpfs() {
	mkdir -p "$1"
	mount -t tmpfs -o "$2" largedir-test "$1" ||
	    skip "cannot mount tmpfs on $1"
}

# expect_exit STATUS CMD...: run CMD, fail unless it exits with STATUS.
expect_exit() {
	want=$1
	shift
	set +e
	"$@"
	got=$?
	set -e
	[ "$got" = "$want" ] || fail "exit $got, expected $want: $*"
}

# lines FILE: number of lines in FILE.
lines() {
	wc -l <"$1" | tr -d ' '
}

# traced ARG...: strace ARG..., without LeakSanitizer, which cannot run
# under ptrace (make check SANITIZE=1); ASan's other checks stay on.
traced() {
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	    strace "$@"
}

# snapshot DIR: every path under DIR, then the checksum of every file.
snapshot() {
	(cd "$1" && find . | sort && find . -type f -exec cksum {} + | sort)
}

# wait_for SECONDS CMD...: poll CMD until it succeeds; fail after SECONDS.
wait_for() {
	wf_n=$(($1 * 20))
	shift
	until "$@"; do
		wf_n=$((wf_n - 1))
		[ "$wf_n" -gt 0 ] || fail "timed out waiting for: $*"
		sleep 0.05
	done
}
