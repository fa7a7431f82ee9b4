#!/bin/sh
# largedir compare: A and B run in pairs, A B then B A, each run a largedir
# of its own (one round of n files, the same seed) on a target set up
# afresh; the table has a line per phase; the outputs hold every run in
# that order, with a graph per phase and a page in both languages (which
# largedir page writes again from them, byte for byte), and each run
# keeps its own outputs in runs/.  A set-up that cannot be made
# stops the comparison before anything is measured (exit 4, a line naming
# the side and the kernel's naming the option, nothing mounted, no
# outputs); an interrupt keeps the runs that finished (exit 130); a bad
# command line exits 2 with one line.  A run that fails (its outputs'
# name taken, so it exits 2 and writes none; a tmpfs too small for n
# files, which stops it with ENOSPC) is reported and the comparison goes
# on without it: exit 5, status failed, only the pairs whose two runs
# completed counted, and the run, its exit status and its own words (its
# last line on stderr, or its outputs' stop reason) in compare.out, the
# JSON, and both pages.  On two small ext4 images, a tree
# (--layout tree) with --cold=remount: a mkdir line counting
# directories, every run remounted before each phase after mkdir; and
# configs/ext4-ireserve.conf's mount options on this kernel: exit 4,
# the option named, nothing mounted.  Directories need no root; targets
# with a set-up do.
# shellcheck source=/dev/null
. "$(dirname "$0")/lib.sh"
need_cmd jq
need_dep gnuplot gnuplot-nox
top=$(cd "$(dirname "$0")/../.." && pwd)
need_dep xmllint libxml2-utils

# conf NAME LINE...: write the config $T/NAME.conf.
conf() {
	name=$1
	shift
	printf '%s\n' "$@" >"$T/$name.conf"
}

# refuse WHAT ARG...: largedir compare ARG... exits 2 with one line
# holding WHAT, and writes nothing.
refuse() {
	what=$1
	shift
	set +e
	"$LD" compare -o "$T/refused" "$@" >"$T/out" 2>"$T/err"
	rc=$?
	set -e
	[ "$rc" = 2 ] || fail "compare $*: exit $rc, expected 2"
	[ "$(lines "$T/err")" = 1 ] || fail "compare $*: $(cat "$T/err")"
	grep -q -- "$what" "$T/err" || fail "compare $*: $(cat "$T/err")"
	[ ! -e "$T/refused" ] || fail "compare $*: made outputs"
}
mkdir "$T/da" "$T/db"
refuse "name two configs or directories" "$T/da"
refuse "name two configs or directories" "$T/da" "$T/db" "$T/db"
refuse "compare: --budget does not go" -b 5m "$T/da" "$T/db"
refuse "compare: --growth does not go" --growth 2 "$T/da" "$T/db"
refuse "compare: --max-files does not go" -N 10 "$T/da" "$T/db"
refuse "compare: --mount-options does not go" --mount-options=ro \
    "$T/da" "$T/db"
refuse "no-such.conf" "$T/da" "$T/no-such.conf"
"$LD" compare -h | grep -q "^usage: largedir compare" ||
    fail "compare -h: no usage line"

# compared DIR STATUS: DIR/compare.{out,csv,json} exist and say STATUS;
# K is the number of runs they hold.
compared() {
	for f in out csv json; do
		[ -s "$1/compare.$f" ] || fail "$1/compare.$f is missing"
	done
	[ "$(jq -r .status "$1/compare.json")" = "$2" ] ||
	    fail "$1: status $(jq -r .status "$1/compare.json"), not $2"
	grep -qx "# status: $2" "$1/compare.out" || fail "$1: .out status"
	K=$(jq '.rounds | length' "$1/compare.json")
	[ "$(($(lines "$1/compare.csv") - 1))" = "$K" ] ||
	    fail "$1: the .csv and the .json differ"
}

# same_page DIR: largedir page writes DIR's pages again, byte for byte,
# from a copy of its files, and says nothing on stderr.
same_page() {
	rm -rf "$T/again"
	cp -R "$1" "$T/again"
	rm -f "$T/again/index.html" "$T/again/index.de.html"
	"$LD" page "$T/again" >/dev/null 2>"$T/err" ||
	    fail "largedir page $1: exit $?: $(cat "$T/err")"
	[ ! -s "$T/err" ] || fail "largedir page $1: $(cat "$T/err")"
	for f in index.html index.de.html; do
		cmp -s "$1/$f" "$T/again/$f" ||
		    fail "largedir page $1 writes another $f"
	done
}

# sides FILE: the side column of FILE's rows (0 A, 1 B), in order.
sides() {
	awk '$1 == "pair" { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
	    h && /^[0-9]/ { printf "%s", $c["side"] }' "$1"
}

# Two directories: the runs happen in them, and leave nothing there.
"$LD" compare -n 500 -r 2 -s 7 -o "$T/dirs" "$T/da" "$T/db" \
    >"$T/out" 2>"$T/err" || fail "dirs: exit $?: $(cat "$T/out" "$T/err")"
for p in create open delete; do
	grep -q "^$p  " "$T/out" || fail "dirs: no line for $p: $(cat "$T/out")"
	# A graph per phase, in both formats.
	[ -s "$T/dirs/compare-$p.png" ] || fail "dirs: no compare-$p.png"
	xmllint --noout "$T/dirs/compare-$p.svg" ||
	    fail "dirs: compare-$p.svg is not well-formed"
done
compared "$T/dirs" complete
# The page, in both languages, with a row per phase.
for f in index.html index.de.html; do
	xmllint --html --noout "$T/dirs/$f" || fail "dirs: $f is not HTML"
	[ "$(grep -c '<tr><td>\(create\|open\|delete\)</td>' \
	    "$T/dirs/$f")" = 3 ] || fail "dirs: $f has not a row per phase"
done
grep -q "B gegen A" "$T/dirs/index.de.html" || fail "dirs: German page"
! grep -Eq "<td>(faster|slower|within noise|one pair)</td>" \
    "$T/dirs/index.de.html" || fail "dirs: English verdicts on the German page"
same_page "$T/dirs"
[ "$K" = 4 ] || fail "dirs: $K rows, expected 4"
[ "$(sides "$T/dirs/compare.out")" = 0110 ] ||
    fail "dirs: sides $(sides "$T/dirs/compare.out"), expected A B B A"
for r in da.1 db.1 db.2 da.2; do
	check_outputs "$T/dirs/runs" "$r" complete
	[ "$(jq -r '.rounds[0].n' "$T/dirs/runs/$r.json")" = 500 ] ||
	    fail "$r: not a round of 500 files"
	[ "$(jq -r '.meta.seed' "$T/dirs/runs/$r.json")" = 7 ] ||
	    fail "$r: not seed 7"
done
for d in "$T/da" "$T/db"; do
	[ -z "$(ls -A "$d")" ] || fail "dirs: left $(ls -A "$d") in $d"
done
jq -e '.summary[0].create_pairs == 2 and .summary[0].create_verdict <= 2' \
    "$T/dirs/compare.json" >/dev/null || fail "dirs: summary $(jq -c \
    .summary "$T/dirs/compare.json")"

# has WHAT FILE TEXT: FILE holds TEXT (a fixed string), or fail on WHAT.
has() {
	grep -qF -- "$3" "$2" || fail "$1: $2 does not say '$3'"
}

# A run that fails: pair 2's B finds its outputs' name taken by a
# dangling link, exits 2 and writes nothing.  The comparison goes on.
mkdir -p "$T/fail/runs"
ln -s "$T/nowhere" "$T/fail/runs/db.2.csv"
why="$T/fail/runs/db.2.csv exists: choose another -o or --label"
set +e
"$LD" compare -n 300 -r 3 -s 7 -o "$T/fail" "$T/da" "$T/db" \
    >"$T/out" 2>"$T/err"
rc=$?
set -e
[ "$rc" = 5 ] || fail "failed run: exit $rc: $(cat "$T/out" "$T/err")"
has "failed run" "$T/err" "largedir: $why"
has "failed run" "$T/out" "compare: pair 2 of 3, db ... exit 2: $why"
has "failed run" "$T/out" "compare: B against A, 300 files, 2 of 3 pairs \
complete"
compared "$T/fail" failed
[ "$K" = 6 ] || fail "failed run: $K rows, expected 6"
has "failed run" "$T/fail/compare.out" "# pairs: 3 (2 complete)"
has "failed run" "$T/fail/compare.out" "# why_3: $why"
jq -e --arg why "$why" '.meta.why_3 == $why and .rounds[2].exit == 2 and
    .rounds[2].pair == 2 and .rounds[2].side == 1 and
    .summary[0].create_pairs == 2 and .summary[0].delete_pairs == 2' \
    "$T/fail/compare.json" >/dev/null ||
    fail "failed run: $(jq -c '{meta, summary}' "$T/fail/compare.json")"
has "failed run" "$T/fail/index.html" "3 pairs of runs planned, 2 of them \
complete"
has "failed run" "$T/fail/index.html" "status: failed."
has "failed run" "$T/fail/index.html" "<li>pair 2, B (db.2): exit status 2: \
$why</li>"
has "failed run" "$T/fail/index.de.html" "3 Paare von Läufen geplant, davon \
2 vollständig"
has "failed run" "$T/fail/index.de.html" "Status: fehlgeschlagen."
has "failed run" "$T/fail/index.de.html" "<li>Paar 2, B (db.2): Exit-Status \
2: $why</li>"
for f in index.html index.de.html; do
	xmllint --html --noout "$T/fail/$f" || fail "failed run: $f is not HTML"
done
same_page "$T/fail"

need_root "targets with a set-up mount"
# nothing_left: nothing of largedir's in the scratch dir or mount table.
nothing_left() {
	[ -z "$(ls -A "$T/scratch" 2>/dev/null)" ] ||
	    fail "$1: left $(ls -A "$T/scratch")"
	! grep -q "$T/scratch" /proc/self/mounts || fail "$1: left a mount"
}
conf a "label = ca" "fstype = tmpfs" "mount_options = size=64m,nr_inodes=300k"
conf b "label = cb" "fstype = tmpfs" "mount_options = size=96m,nr_inodes=300k"
conf bad "label = cbad" "fstype = tmpfs" "mount_options = no_such_option=1"
conf full "label = cfull" "fstype = tmpfs" \
    "mount_options = size=1m,nr_inodes=300k"

# Two targets: each run sets up its own (a mount point of its own).
"$LD" compare -n 2000 -r 2 --scratch "$T/scratch" -o "$T/tm" \
    "$T/a.conf" "$T/b.conf" >"$T/out" 2>"$T/err" ||
    fail "targets: exit $?: $(cat "$T/out" "$T/err")"
compared "$T/tm" complete
[ "$(cat "$T/tm/runs"/*.out | grep -c '^# mountpoint: ')" = 4 ] ||
    fail "targets: not four runs with a mount point"
[ "$(cat "$T/tm/runs"/*.out | grep '^# mountpoint: ' | sort -u | wc -l |
    tr -d ' ')" = 4 ] || fail "targets: a mount point used twice"
nothing_left targets

# A target too small for the files' data (2,000 of 4 KiB on 1 MiB): B
# stops with ENOSPC (exit 3), and its outputs' stop reason is the
# comparison's word for it.  (Too few inodes would refuse -n at once.)
set +e
"$LD" compare -n 2000 -r 1 -s 3 --file-size 4k --scratch "$T/scratch" \
    -o "$T/full" "$T/a.conf" "$T/full.conf" >"$T/out" 2>"$T/err"
rc=$?
set -e
[ "$rc" = 5 ] || fail "full: exit $rc: $(cat "$T/out" "$T/err")"
compared "$T/full" failed
why=$(sed -n 's/^# stop_reason: //p' "$T/full/runs/cfull.1.out")
case $why in
"No space left on device: create in round 1 (n=2,000), after "*) ;;
*) fail "full: cfull.1 stopped for '$why'" ;;
esac
has full "$T/out" "compare: pair 1 of 1, cfull ... exit 3: $why"
has full "$T/out" "compare: B against A, 2,000 files, 0 of 1 pairs complete"
has full "$T/full/compare.out" "# why_2: $why"
has full "$T/full/index.html" "<li>pair 1, B (cfull.1): exit status 3: $why"
has full "$T/full/index.de.html" "<li>Paar 1, B (cfull.1): Exit-Status 3: \
Kein Platz mehr auf dem Gerät: create in Runde 1 (n=2.000)"
same_page "$T/full"
nothing_left full

# A set-up the kernel refuses: exit 4 before anything is measured.
set +e
"$LD" compare -n 100 --scratch "$T/scratch" -o "$T/badout" \
    "$T/a.conf" "$T/bad.conf" >"$T/out" 2>"$T/err"
rc=$?
set -e
[ "$rc" = 4 ] || fail "bad set-up: exit $rc: $(cat "$T/out" "$T/err")"
grep -q "B ($T/bad.conf) cannot be set up" "$T/err" ||
    fail "bad set-up: $(cat "$T/err")"
grep -q "the kernel says: tmpfs: Unknown parameter 'no_such_option'" \
    "$T/err" || fail "bad set-up: the option is not named: $(cat "$T/err")"
[ ! -e "$T/badout" ] || fail "bad set-up: made outputs"
nothing_left "bad set-up"

# Interrupted in its third run: the two finished runs are kept.
"$LD" compare -n 300000 -r 3 --scratch "$T/scratch" -o "$T/int" \
    "$T/a.conf" "$T/b.conf" >"$T/out" 2>"$T/err" &
pid=$!
wait_for 120 test -s "$T/int/runs/cb.2.out"
kill -INT "$pid"
set +e
wait "$pid"
rc=$?
set -e
[ "$rc" = 130 ] || fail "interrupted: exit $rc: $(cat "$T/out" "$T/err")"
compared "$T/int" interrupted
if [ "$K" -lt 2 ] || [ "$K" -gt 3 ]; then
	fail "interrupted: $K rows"
fi
nothing_left interrupted

# Two small ext4 images, a tree, cold caches: mkdir counts directories,
# every phase after it follows a remount, and nothing is left.
conf e1 "label = e1" "fstype = ext4" "mkfs = mkfs.ext4 -q -F" \
    "mount_options = noatime" "image_size = 64M"
conf e2 "label = e2" "fstype = ext4" "mkfs = mkfs.ext4 -q -F -O ^flex_bg" \
    "mount_options = noatime" "image_size = 64M"
"$LD" compare --layout tree --dirs 200 --files-per-dir 5 -p list -r 1 \
    --cold=remount -s 3 --scratch "$T/scratch" -o "$T/ext4" \
    "$T/e1.conf" "$T/e2.conf" >"$T/out" 2>"$T/err" ||
    fail "ext4 tree: exit $?: $(cat "$T/out" "$T/err")"
compared "$T/ext4" complete
[ "$K" = 2 ] || fail "ext4 tree: $K runs"
same_page "$T/ext4"
grep -q '^compare: B against A, 1,000 files in 200 directories, 1 pair' \
    "$T/out" || fail "ext4 tree: no summary line: $(cat "$T/out")"
for p in mkdir create list delete; do
	grep -q "^$p " "$T/out" || fail "ext4 tree: no $p line"
done
# Rates per entry: 200 directories for mkdir, 1,200 entries for delete.
jq -e '.rounds | all(.mkdir_per_s * .mkdir_ns / 1e9 | . > 199.9 and
    . < 200.1) and all(.delete_per_s * .delete_ns / 1e9 | . > 1199.9 and
    . < 1200.1)' "$T/ext4/compare.json" >/dev/null ||
    fail "ext4 tree: rates not per entry: $(jq -c .rounds "$T/ext4/compare.json")"
for f in "$T/ext4/runs"/*.json; do
	jq -e '.config.cold == "remount" and .config.layout == "tree" and
	    (.rounds[0] | .dirs == 200 and .mkdir_cold_ns == 0 and
	    .create_cold_ns > 0 and .list_cold_ns > 0 and
	    .delete_cold_ns > 0)' "$f" >/dev/null ||
	    fail "ext4 tree: $f: not remounted before each phase after mkdir"
done
nothing_left "ext4 tree"

# configs/ext4-ireserve.conf's mount options on a small image: this
# kernel has no dir_ireserve, so the comparison stops before measuring.
conf ire "label = ire" "fstype = ext4" "mkfs = mkfs.ext4 -q -F" \
    "$(grep '^mount_options' "$top/configs/ext4-ireserve.conf")" \
    "image_size = 64M"
grep -q dir_ireserve=low "$T/ire.conf" ||
    fail "configs/ext4-ireserve.conf no longer asks for dir_ireserve=low"
set +e
"$LD" compare --layout tree --dirs 200 --scratch "$T/scratch" \
    -o "$T/ireout" "$T/e1.conf" "$T/ire.conf" >"$T/out" 2>"$T/err"
rc=$?
set -e
[ "$rc" = 4 ] || fail "ireserve: exit $rc: $(cat "$T/out" "$T/err")"
grep -q "B ($T/ire.conf) cannot be set up" "$T/err" ||
    fail "ireserve: $(cat "$T/err")"
grep -q "the kernel says: ext4: Unknown parameter 'dir_ireserve'" "$T/err" ||
    fail "ireserve: the option is not named: $(cat "$T/err")"
[ ! -e "$T/ireout" ] || fail "ireserve: made outputs"
nothing_left ireserve
