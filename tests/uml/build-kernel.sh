#!/bin/sh
# Build a User-Mode Linux kernel that largedir can boot (uml = PATH, or
# --uml PATH), from Debian's linux-source-VERSION, with the config
# fragment tests/uml/uml.config and the patches tests/uml/*.patch (so
# far one: xstate-size.patch, without which UML cannot start a process
# on a CPU with AMX), for a matrix of kernels (issue 28).
#
#   sh tests/uml/build-kernel.sh VERSION [CACHE]
#
# VERSION is the Debian package's (6.1, 6.12).  CACHE (default
# /var/cache/largedir/uml, never inside the source tree) holds the
# unpacked source in src-VERSION and the kernel, stripped, as
# linux-RELEASE (RELEASE is what uname -r will say, e.g. 6.12.57), with
# linux-VERSION a link to the newest.  The last line printed is the
# kernel's path.  A kernel already built from the same source, fragment
# and patches is not built again.
#
# Needs the package linux-source-VERSION (installed when run as root),
# gcc, make, flex, bison, bc and xz.  About 9 minutes on two idle cores;
# the kernel is about 12 MB.  Exit 0 with the path, 1 when the build
# fails (the log's last lines on stderr), 2 on bad arguments.
set -eu
LC_ALL=C
export LC_ALL

usage() {
	echo "usage: sh tests/uml/build-kernel.sh VERSION [CACHE]" >&2
	exit 2
}
say() {
	echo "build-kernel: $*" >&2
}
case $# in
1 | 2) ;;
*) usage ;;
esac
version=$1
case $version in
*[!0-9.]*) usage ;;
esac
printf '%s\n' "$version" | grep -qx '[0-9]\{1,2\}\.[0-9]\{1,3\}' || usage
cache=${2:-/var/cache/largedir/uml}
case $cache in
/*) ;;
*) say "CACHE must be an absolute path: $cache"; exit 2 ;;
esac
top=$(cd "$(dirname "$0")/../.." && pwd)
frag=$top/tests/uml/uml.config
case $cache/ in
"$top"/*) say "CACHE $cache is inside the source tree"; exit 2 ;;
esac

pkg=linux-source-$version
tarball=/usr/src/$pkg.tar.xz
if [ ! -f "$tarball" ]; then
	if [ "$(id -u)" != 0 ]; then
		say "no $tarball: apt-get install $pkg (as root)"
		exit 1
	fi
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$pkg" \
	    flex bison bc xz-utils gcc make patch >/dev/null
fi
[ -f "$tarball" ] || { say "$pkg did not install $tarball"; exit 1; }

mkdir -p "$cache"
src=$cache/src-$version
patches=$(ls "$top"/tests/uml/*.patch 2>/dev/null || true)
# shellcheck disable=SC2086 # one name a line, none with blanks
stamp=$(cat "$tarball" "$frag" $patches | cksum | cut -d' ' -f1)
if [ ! -f "$src/.largedir-src" ] ||
    [ "$(cat "$src/.largedir-src")" != "$stamp" ]; then
	rm -rf "$src"
	mkdir -p "$src"
	tar -xJf "$tarball" -C "$src" --strip-components=1
	for p in $patches; do
		patch -d "$src" -p1 -s <"$p" ||
		    { say "$p does not apply to $pkg"; exit 1; }
	done
	echo "$stamp" >"$src/.largedir-src"
fi

log=$cache/build-$version.log
jobs=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
(
	cd "$src"
	make ARCH=um x86_64_defconfig
	scripts/kconfig/merge_config.sh -m .config "$frag"
	make ARCH=um olddefconfig
	# Every line of the fragment must have survived olddefconfig.
	grep '^CONFIG_' "$frag" | while IFS= read -r line; do
		grep -qx "$line" .config ||
		    { echo "not in .config: $line" >&2; exit 1; }
	done
	make ARCH=um -j"$jobs" linux
) >"$log" 2>&1 || {
	say "the build failed; the end of $log:"
	tail -n 20 "$log" >&2
	exit 1
}
release=$(make -s -C "$src" ARCH=um kernelrelease 2>/dev/null)
[ -n "$release" ] || { say "no kernel release from $src"; exit 1; }
out=$cache/linux-$release
strip -o "$out.new" "$src/linux"
mv -f "$out.new" "$out"
ln -sfn "linux-$release" "$cache/linux-$version"
echo "$out"
