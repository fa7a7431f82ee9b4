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
# The test's own stderr, for fail(): a helper whose output the test
# redirects (expect_exit ... 2>FILE) still says why it failed.
exec 8>&2

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
	echo "FAIL: $*" >&8
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

# need_dep CMD PACKAGE: fail unless CMD exists.  For what the tests
# declare they need (DEB_TEST in the Makefile), which make deps installs:
# its absence is a broken setup, not a reason to skip.
need_dep() {
	command -v "$1" >/dev/null 2>&1 ||
	    fail "needs $1: run 'make deps' (Debian package $2)"
}

# need_strace: fail unless strace is there (make deps installs it), skip
# where it cannot trace (a sandbox without ptrace).
need_strace() {
	need_dep strace strace
	strace -o /dev/null true 2>/dev/null || skip "strace cannot trace here"
}

# need_space DIR GIB WHY: skip unless the filesystem of DIR has GIB GiB
# free (largedir refuses to make an image larger than the space left).
need_space() {
	ns_kib=$(df -Pk "$1" | awk 'NR == 2 { print $4 }')
	[ "${ns_kib:-0}" -ge $(($2 * 1048576)) ] ||
	    skip "needs $2 GiB free in $1 ($3); $((${ns_kib:-0} / 1048576)) GiB there"
}

# mount_tmpfs DIR OPTIONS: a private tmpfs of our own, unmounted on exit.
mount_tmpfs() {
	mkdir -p "$1"
	mount -t tmpfs -o "$2" largedir-test "$1" ||
	    skip "cannot mount tmpfs on $1"
}

# expect_exit STATUS CMD...: run CMD, fail unless it exits with STATUS.
expect_exit() {
	ee_want=$1
	shift
	set +e
	"$@"
	ee_got=$?
	set -e
	[ "$ee_got" = "$ee_want" ] || fail "exit $ee_got, expected $ee_want: $*"
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

# unchanged DIR WHERE: DIR is as snapshot DIR >$T/before found it; fail
# naming WHERE if not.
unchanged() {
	snapshot "$1" >"$T/after"
	cmp -s "$T/before" "$T/after" || {
		diff "$T/before" "$T/after" >&2 || true
		fail "$2: the directory is not as it was"
	}
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

# check_outputs DIR LABEL STATUS: DIR/LABEL.{out,csv,json} exist, the JSON
# parses, both JSON and .out say STATUS, and the three agree on the
# columns and the number of rows, $K (and the JSON summary has one object
# per round that is not a warm-up, however many repetitions it has).
check_outputs() {
	j=$1/$2.json c=$1/$2.csv o=$1/$2.out
	for f in "$j" "$c" "$o"; do
		[ -s "$f" ] || fail "$f is missing or empty"
	done
	jq -e . "$j" >/dev/null || fail "$j is not valid JSON"
	got=$(jq -r .status "$j")
	[ "$got" = "$3" ] || fail "$j: status '$got', expected '$3'"
	grep -qx "# status: $3" "$o" || fail "$o has no '# status: $3' line"
	K=$(jq '.rounds | length' "$j")
	co_k=$(jq '[.rounds[] | select(.warmup == 0) | .round] | unique |
	    length' "$j")
	co_s=$(jq '.summary | length' "$j")
	[ "$co_s" = "$co_k" ] || fail "$j: $co_k rounds but $co_s summary rows"
	[ "$(head -n 1 "$c" | tr -d '\r')" = "$(jq -r '.columns | join(",")' "$j")" ] ||
	    fail "$c: the header is not the JSON's columns"
	[ "$(lines "$c")" -eq $((K + 1)) ] ||
	    fail "$c: $(lines "$c") lines for $K rounds"
	grep -v '^#' "$o" >"$T/data"
	[ "$(head -n 1 "$T/data")" = "$(jq -r '.columns | join(" ")' "$j")" ] ||
	    fail "$o: the header is not the JSON's columns"
	[ "$(lines "$T/data")" -eq $((K + 1)) ] ||
	    fail "$o: $(lines "$T/data") data lines for $K rounds"
}

# The UML kernel that make uml-kernel builds from Debian's linux-source-6.12
# (tests/uml/build-kernel.sh's default cache), for a CPU on which Debian's
# /usr/bin/linux.uml cannot run (AMX).  .ci/run builds it on such a CPU.
UML_BUILT=/var/cache/largedir/uml/linux-6.12

# uml_kernel: the UML kernel a guest test boots: $LARGEDIR_UML, else the
# built one where there is one, else Debian's.
uml_kernel() {
	if [ -n "${LARGEDIR_UML:-}" ]; then
		echo "$LARGEDIR_UML"
	elif [ -x "$UML_BUILT" ]; then
		echo "$UML_BUILT"
	else
		echo /usr/bin/linux.uml
	fi
}
