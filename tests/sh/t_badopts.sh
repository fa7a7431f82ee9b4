#!/bin/sh
# Bad command lines exit 2 with exactly one line on stderr that names the
# culprit, print nothing on stdout and create no outputs (text that is not
# UTF-8 among them, in a config file too); -h and -V work; earlier
# results are never overwritten.
# shellcheck source=/dev/null
. "$(dirname "$0")/lib.sh"

# Every command runs in an empty directory of its own, so a stray default
# outputs directory (results/...) would show.
case $LD in
/*) ;;
*) LD=$(pwd)/$LD ;;
esac
D=$T/dir
mkdir "$D" "$T/cwd"
printf 'a regular file\n' >"$T/file"
nfail=0

# bad CULPRIT ARG...: largedir ARG... must exit 2 with one line on stderr
# that contains CULPRIT, an empty stdout, and create nothing.
bad() {
	culprit=$1
	shift
	set +e
	(cd "$T/cwd" && exec "$LD" "$@") >"$T/stdout" 2>"$T/stderr"
	rc=$?
	set -e
	why=
	[ "$rc" = 2 ] || why="exit $rc, expected 2"
	[ ! -s "$T/stdout" ] || why="${why:+$why; }output on stdout"
	[ "$(lines "$T/stderr")" -eq 1 ] ||
	    why="${why:+$why; }$(lines "$T/stderr") lines on stderr"
	grep -qF -- "$culprit" "$T/stderr" ||
	    why="${why:+$why; }stderr does not name '$culprit'"
	[ ! -e "$T/res" ] || why="${why:+$why; }created the outputs directory"
	[ -z "$(ls -A "$T/cwd")" ] ||
	    why="${why:+$why; }created $(ls -A "$T/cwd") in the current directory"
	[ -z "$(ls -A "$D")" ] || why="${why:+$why; }created $(ls -A "$D") in DIR"
	if [ -n "$why" ]; then
		echo "FAIL: largedir $*: $why" >&2
		sed 's/^/    stderr: /' "$T/stderr" >&2
		nfail=$((nfail + 1))
	fi
	rm -rf "$T/res" "$T/cwd" "$D"
	mkdir "$T/cwd" "$D"
}

o="-o $T/res --label x"
s="-b 1s --start 10 -N 20"
# Text must be UTF-8, file names need not be: a config with a Latin-1
# description, and one that is fine.
lat1=$(printf 'caf\351 au lait')
printf 'path = %s\nlabel = u\ndescription = %s\n' "$D" "$lat1" >"$T/lat1.conf"
printf 'path = %s\nlabel = v\n' "$D" >"$T/ok.conf"
# $o is split on purpose: $T has no blanks (mktemp).
# shellcheck disable=SC2086
{
	bad --frobnicate $o --frobnicate "$D"
	bad -Z $o -Z "$D"
	bad "--growth '1'" $o --growth 1 "$D"
	bad "--growth '0.5'" $o --growth 0.5 "$D"
	bad "--growth 'abc'" $o --growth abc "$D"
	bad "--budget '-5'" $o --budget -5 "$D"
	bad "--budget '5x'" $o --budget 5x "$D"
	bad "--budget '0'" $o --budget 0 "$D"
	bad "--start '0'" $o --start 0 "$D"
	bad "--start '10x'" $o --start 10x "$D"
	bad "--start ''" $o --start '' "$D"
	bad --max-files $o --max-files 10 --start 100 "$D"
	bad "--repeat '0'" $o --repeat 0 "$D"
	bad "bogus" $o --phases bogus "$D"
	bad "--phases 'create,,open'" $o --phases create,,open "$D"
	bad "--phases 'open,'" $o --phases open, "$D"
	bad "--events 'task-clock,,page-faults': empty event name" $o \
	    --events task-clock,,page-faults "$D"
	bad "--phases 'delete,rmrf'" $o --phases delete,rmrf "$D"
	bad "--names 'foo'" $o --names foo "$D"
	bad "--name-len '0'" $o --name-len 0 "$D"
	bad "--name-len 3" $o --name-len 3 --max-files 5000 "$D"
	bad --name-len $o --names maildir --name-len 10 "$D"
	bad "--file-size '1.5x'" $o --file-size 1.5x "$D"
	bad "--fsync 'maybe'" $o --fsync maybe "$D"
	bad "--sync 'sometimes'" $o --sync sometimes "$D"
	bad "--cold 'warm'" $o --cold warm "$D"
	bad "--memory-limit '1k'" $o --memory-limit 1k "$D"
	bad "--events 'nosuchevent'" $o --events nosuchevent "$D"
	bad "--seed '-1'" $o --seed -1 "$D"
	bad "a/b" -o "$T/res" --label a/b "$D"
	bad directory $o
	bad "$T/nonexistent" $o "$T/nonexistent"
	bad "$T/file" $o "$T/file"
	bad "$T/file" $o "$D" "$T/file"
	bad --budget $o "$D" --budget
	bad -b $o "$D" -b
	bad "''" $o ''
	bad "-o $T/file: not a directory" -o "$T/file" --label x "$D"
	bad "-o $T/file/res: not a directory" -o "$T/file/res" --label x "$D"
	bad "--total-budget '0': must be more than 0" suite --total-budget 0 \
	    "$T/file"
	bad "--preset 'mbox'" $o --preset mbox "$D"
	bad "--layout 'deep'" $o --layout deep "$D"
	bad "--dirs goes with --layout tree" $o --dirs 5 "$D"
	bad "--phases mkdir goes with --layout tree" $o -p mkdir "$D"
	bad "--files-per-dir '0'" $o --layout tree --files-per-dir 0 "$D"
	# Not UTF-8: the key and the first bad byte, alike on the command
	# line, in a config and in a suite's config.  ($s: a short run, were
	# one accepted.)
	bad "--events: not valid UTF-8 (byte 4)" $o $s --events \
	    "$(printf 'cyc\377')" "$D"
	bad "$T/lat1.conf:3: description: not valid UTF-8 (byte 4)" \
	    -o "$T/res" $s -c "$T/lat1.conf"
	bad "--description: not valid UTF-8 (byte 4)" -o "$T/res" $s \
	    -c "$T/ok.conf" --description "$lat1"
	bad "--description-de: not valid UTF-8 (byte 3)" -o "$T/res" $s \
	    -c "$T/ok.conf" --description-de "$(printf 'Gr\374\337e')"
	bad "$T/lat1.conf:3: description: not valid UTF-8 (byte 4)" \
	    suite -o "$T/res" $s "$T/ok.conf" "$T/lat1.conf"
}
[ "$nfail" -eq 0 ] || fail "$nfail bad command lines misbehaved"

# -h: the usage on stdout, nothing on stderr, exit 0.
expect_exit 0 "$LD" -h >"$T/stdout" 2>"$T/stderr"
head -n 1 "$T/stdout" | grep -q '^usage: largedir ' || fail "-h: no usage"
grep -q -- '--cleanup' "$T/stdout" || fail "-h does not mention --cleanup"
[ ! -s "$T/stderr" ] || fail "-h wrote to stderr"
expect_exit 0 "$LD" --help >"$T/stdout2" 2>/dev/null
cmp -s "$T/stdout" "$T/stdout2" || fail "--help differs from -h"

# -V: one line with the version.
expect_exit 0 "$LD" -V >"$T/stdout" 2>"$T/stderr"
[ "$(lines "$T/stdout")" -eq 1 ] || fail "-V: $(lines "$T/stdout") lines"
grep -Eq '^largedir [0-9]+\.[0-9]+\.[0-9]+' "$T/stdout" ||
    fail "-V: no version in '$(cat "$T/stdout")'"
[ ! -s "$T/stderr" ] || fail "-V wrote to stderr"

# Earlier results are never overwritten, not even one of the three.
expect_exit 0 "$LD" -q -b 2s --start 100 --max-files 200 -o "$T/res" \
    --label x "$D" >/dev/null
for e in out csv json; do
	cksum <"$T/res/x.$e" >"$T/sum.$e"
done
set +e
"$LD" -q -b 2s --start 100 --max-files 200 -o "$T/res" --label x "$D" \
    >"$T/stdout" 2>"$T/stderr"
rc=$?
set -e
[ "$rc" = 2 ] || fail "second run into the same outputs: exit $rc, expected 2"
[ "$(lines "$T/stderr")" -eq 1 ] ||
    fail "second run: $(lines "$T/stderr") lines on stderr"
grep -qF "$T/res/x." "$T/stderr" ||
    fail "second run: stderr does not name the file: $(cat "$T/stderr")"
[ ! -s "$T/stdout" ] || fail "second run: output on stdout"
for e in out csv json; do
	[ "$(cksum <"$T/res/x.$e")" = "$(cat "$T/sum.$e")" ] ||
	    fail "second run changed the first run's x.$e"
done
[ -z "$(ls -A "$D")" ] || fail "second run left $(ls -A "$D") in DIR"
# Only the JSON is left: still refused, and nothing is written.
rm "$T/res/x.out" "$T/res/x.csv" "$T/res/x.summary"
expect_exit 2 "$LD" -q -b 2s --start 100 --max-files 200 -o "$T/res" \
    --label x "$D" 2>/dev/null
[ "$(ls -A "$T/res")" = x.json ] ||
    fail "third run wrote into $T/res: $(ls -A "$T/res")"
[ "$(cksum <"$T/res/x.json")" = "$(cat "$T/sum.json")" ] ||
    fail "third run changed x.json"

# An existing mount of a filesystem this kernel does not have, not
# there: the line says the kernel has none, and names the config beside
# it that measures it inside User-Mode Linux.
# (A filesystem largedir knows that this kernel lists not.)
nofs=
for fs in jfs vxfs reiserfs f2fs; do
	grep -qw "$fs" /proc/filesystems || { nofs=$fs; break; }
done
[ -n "$nofs" ] || fail "this kernel has jfs, vxfs, reiserfs and f2fs"
printf 'label = nofs\nfstype = %s\npath = %s/none\n' "$nofs" "$T" \
    >"$T/nofs.conf"
printf 'label = nofs-uml\nfstype = %s\nkernel = uml\n' "$nofs" \
    >"$T/nofs-uml.conf"
expect_exit 2 "$LD" -c "$T/nofs.conf" 2>"$T/err"
want="$T/nofs.conf: path $T/none: No such file or directory; this kernel has no $nofs (not in /proc/filesystems): $T/nofs-uml.conf measures it inside User-Mode Linux"
[ "$(cat "$T/err")" = "largedir: $want" ] ||
    fail "a kernel without the filesystem: $(cat "$T/err")"

# A budget without a unit: seconds, and the run says so.
expect_exit 0 "$LD" -q -b 2 -n 100 -N 100 -o "$T/bare" "$D" 2>"$T/err"
grep -qxF "largedir: warning: --budget 2: a number without a unit is taken as seconds, 2 s (the default is 30m)" \
    "$T/err" || fail "-b 2: $(cat "$T/err")"
