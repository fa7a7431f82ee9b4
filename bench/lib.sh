# Sourced by the benchmarks (POSIX sh).  Gives: set -eu, LC_ALL=C, $here
# (bench/), $root (the source tree), $tmp (a scratch directory removed on
# exit, with anything bench_tmpfs mounted unmounted first), and
# bench_tmpfs, which finds a tmpfs for the runs.  The caller sets $ld.
# shellcheck disable=SC2034 # the variables are for the sourcing script
set -eu
LC_ALL=C
export LC_ALL

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/largedir-bench.XXXXXX")
mnt=
shm=
bench_cleanup() {
	if [ -n "$mnt" ]; then
		umount "$mnt" 2>/dev/null || umount -l "$mnt" || true
	fi
	[ -z "$shm" ] || rm -rf "$shm"
	rm -rf "$tmp"
}
trap bench_cleanup EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 141' PIPE
trap 'exit 143' TERM

# bench_tmpfs NAME OPTIONS: set $dir to a tmpfs directory for the runs and
# $where to a description of it: as root a private tmpfs mounted with
# OPTIONS, else a directory in /dev/shm.  NAME is the calling script's,
# for the error message.
bench_tmpfs() {
	if [ "$(id -u)" = 0 ] && mkdir "$tmp/fs" &&
	    mount -t tmpfs -o "$2" largedir-bench "$tmp/fs" 2>/dev/null; then
		mnt=$tmp/fs
		dir=$mnt
		where="a private tmpfs on $mnt"
	elif [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ]; then
		shm=$(mktemp -d /dev/shm/largedir-bench.XXXXXX)
		dir=$shm
		where="/dev/shm ($dir)"
	else
		echo "$1: need root (to mount a tmpfs) or a tmpfs on" \
		    "/dev/shm" >&2
		exit 1
	fi
}
