#!/bin/sh
# The graph scripts plot/rates.gp and plot/target.gp draw every results
# directory of tests/data/results (real largedir outputs, trimmed): for
# each fixture, rates-PHASE.svg and .png for each phase that has values
# and for no other, LABEL.svg and .png for every target, all non-empty,
# the PNGs with the PNG signature and the SVGs well-formed XML, while
# gnuplot exits 0 and prints nothing.  Also: a PHASE argument, rows cut
# short, a directory whose name needs quoting, the scripts called from
# another directory, knees and declines from the results' knee_PHASE
# keys, the exit status of the usage and missing-file errors, largedir
# plot on a comparison, every graph once more in German, and rounds whose
# open phase opened a random sample ringed.
# shellcheck source=/dev/null
. "$(dirname "$0")/lib.sh"
need_dep gnuplot gnuplot-nox
need_cmd awk
need_dep xmllint libxml2-utils
top=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
rates=$top/plot/rates.gp
target=$top/plot/target.gp
data=$top/tests/data/results
all_phases="create open list liststat delete rmrf"

# quiet CMD...: run CMD; fail unless it exits 0 with nothing on stdout
# or stderr.
quiet() {
	set +e
	"$@" >"$T/stdout" 2>"$T/stderr"
	rc=$?
	set -e
	[ "$rc" = 0 ] || fail "exit $rc: $*: $(cat "$T/stderr")"
	[ ! -s "$T/stderr" ] || fail "stderr from $*: $(cat "$T/stderr")"
	[ ! -s "$T/stdout" ] || fail "stdout from $*: $(cat "$T/stdout")"
}

# graph BASE: BASE.png and BASE.svg exist, are non-empty and are a PNG
# and an SVG document.
graph() {
	for e in png svg; do
		[ -s "$1.$e" ] || fail "$1.$e missing or empty"
	done
	[ "$(od -An -c -N 4 "$1.png" | tr -d ' ')" = '211PNG' ] ||
	    fail "$1.png: no PNG signature"
	xmllint --noout "$1.svg" 2>"$T/xml" ||
	    fail "$1.svg: not XML: $(head -n 3 "$T/xml")"
	grep -q '<svg' "$1.svg" || fail "$1.svg: no <svg"
	grep -q '</svg>' "$1.svg" || fail "$1.svg: no </svg>"
}

# check FIXTURE PHASES LABELS: plot a copy of FIXTURE; there must be a
# rates graph for each of PHASES and for no other phase, and a target
# graph for each of LABELS.
check() {
	d=$T/$1
	cp -R "$data/$1" "$d"
	quiet gnuplot -c "$rates" "$d"
	for p in $all_phases; do
		case " $2 " in
		*" $p "*)
			graph "$d/rates-$p"
			;;
		*)
			for e in png svg; do
				[ ! -e "$d/rates-$p.$e" ] ||
				    fail "$1: rates-$p.$e for an absent phase"
			done
			;;
		esac
	done
	for l in $3; do
		quiet gnuplot -c "$target" "$d" "$l"
		graph "$d/$l"
	done
}

check several "create open delete" "ext2 ext4-nodirindex tmpfs"
check one "create open delete" ext4
# tmpfs-full stopped on ENOSPC before its last round; tmpfs-empty
# stopped in its first round and has no rows at all.
check stopped "create open delete" "tmpfs-full tmpfs-empty xfs"
check single "create open delete" "btrfs xfs"
# x ran create,list,delete, ext4 create,open,delete.
check missing-phase "create open list delete" "ext4 x"
# r repeated each n three times and has a summary; r2 repeated twice
# after a warm-up round and has none.
check repeats "create open delete" "r r2"
# ext4-nodirindex has knee_create: 11389, knee_open: none and
# knee_delete: decline; tmpfs has no knee keys.
check knee "create open delete" "ext4-nodirindex tmpfs"
d=$T/knee
grep -q '>knee<' "$d/rates-create.svg" || fail "rates-create.svg: no knee"
grep -q '>knee<' "$d/ext4-nodirindex.svg" || fail "ext4-nodirindex.svg: no knee"
for f in rates-open rates-delete tmpfs; do
	if grep -q knee "$d/$f.svg"; then
		fail "$f.svg: a knee where there is none"
	fi
done
grep -q 'delete (decline)' "$d/ext4-nodirindex.svg" ||
    fail "ext4-nodirindex.svg: no decline in the key"
grep -q 'ext4-nodirindex (decline)' "$d/rates-delete.svg" ||
    fail "rates-delete.svg: no decline in the key"
if grep -q decline "$d/tmpfs.svg"; then
	fail "tmpfs.svg: a decline where there is none"
fi

# Only the phase asked for.
d=$T/one-phase
cp -R "$data/missing-phase" "$d"
quiet gnuplot -c "$rates" "$d" list
graph "$d/rates-list"
for p in create open delete; do
	[ ! -e "$d/rates-$p.svg" ] || fail "rates-$p.svg without being asked"
done

# A row cut short by a crash (the first 150 bytes of the last one, no
# newline) is left out, in the .out and in the summary.
d=$T/cut
cp -R "$data/repeats" "$d"
tail -n 1 "$d/r2.out" | cut -c 1-150 | tr -d '\n' >"$T/row"
cat "$T/row" >>"$d/r2.out"
printf '5 5062 3 100\n' >>"$d/r.summary"
quiet gnuplot -c "$rates" "$d"
graph "$d/rates-create"
for l in r r2; do
	quiet gnuplot -c "$target" "$d" "$l"
	graph "$d/$l"
done

# A directory name with a space and a quote, and the scripts called by
# a relative path from their own directory and from the top.
d="$T/it's a run"
cp -R "$data/several" "$d"
(cd "$top/plot" && quiet gnuplot -c rates.gp "$d" open)
graph "$d/rates-open"
(cd "$top" && quiet gnuplot -c plot/target.gp "$d" ext2)
graph "$d/ext2"

# largedir plot on a comparison (compare.out) draws compare-PHASE for
# each of its phases, as compare did, and nothing for a target named
# "compare"; the published graphs come out again.
d=$T/cmp
mkdir "$d"
pub=$top/results/20261202-ext4-flexbg-tree
cp "$pub/compare.out" "$pub/compare.summary" "$d/"
LARGEDIR_PLOT=$top/plot "$LD" plot "$d" >"$T/out" 2>"$T/err" ||
    fail "largedir plot on a comparison: $(cat "$T/err")"
grep -qxF "graphs: $d/compare-PHASE.png (and .svg)" "$T/out" ||
    fail "largedir plot on a comparison said: $(cat "$T/out")"
for p in mkdir create open delete; do
	graph "$d/compare-$p"
	cmp -s "$d/compare-$p.svg" "$pub/compare-$p.svg" ||
	    fail "compare-$p.svg differs from the published one"
done
if [ -e "$d/compare.png" ] || [ -e "$d/rates-create.png" ]; then
	fail "largedir plot drew a comparison as runs"
fi
# Every graph once more in German, NAME.de.svg and .png, for the German
# page: titles, axes and legends.
for p in mkdir create open delete; do
	graph "$d/compare-$p.de"
	grep -q "pro Sekunde, A und B" "$d/compare-$p.de.svg" ||
	    fail "compare-$p.de.svg is not in German"
done
d=$T/de
cp -R "$data/several" "$d"
LARGEDIR_PLOT=$top/plot "$LD" plot "$d" >/dev/null 2>"$T/err" ||
    fail "largedir plot: $(cat "$T/err")"
for g in rates-open ext2; do
	graph "$d/$g.de"
	grep -q "Dateien im Verzeichnis (n)" "$d/$g.de.svg" ||
	    fail "$g.de.svg has no German axis"
	! grep -q "Dateien im Verzeichnis" "$d/$g.svg" ||
	    fail "$g.svg is in German"
done
grep -q "Dateien pro Sekunde über der Verzeichnisgröße" "$d/rates-open.de.svg" ||
    fail "rates-open.de.svg has no German title"

# A round whose open phase opened a random sample (open_boxed_round_K,
# open_ops below n) is ringed in the open graphs, and only there.
d=$T/ring
cp -R "$data/several" "$d"
awk 'BEGIN { m = 0 }
/^#/ { print; next }
!m { m = 1; print "# open_boxed_round_2: 100 of 1500"; print; next }
{ if ($1 == 2) $25 = 100; print }' "$data/several/ext2.out" >"$d/ext2.out"
LARGEDIR_PLOT=$top/plot "$LD" plot "$d" >/dev/null 2>"$T/err" ||
    fail "largedir plot: $(cat "$T/err")"
for g in rates-open ext2; do
	grep -q "open a random sample (time box)" "$d/$g.svg" ||
	    fail "$g.svg rings no sampled round"
done
grep -q "Zufallsstichprobe" "$d/rates-open.de.svg" ||
    fail "rates-open.de.svg does not say it in German"
for g in rates-create tmpfs; do
	! grep -q "random sample" "$d/$g.svg" || fail "$g.svg rings a round"
done

# Errors: usage (2); no .out files, no such phase, no such label (1).
mkdir "$T/empty"
expect_exit 2 gnuplot -c "$rates" 2>/dev/null
expect_exit 2 gnuplot -c "$target" "$T/several" 2>/dev/null
expect_exit 1 gnuplot -c "$rates" "$T/empty" 2>/dev/null
expect_exit 1 gnuplot -c "$rates" "$T/several" rmrf 2>/dev/null
expect_exit 1 gnuplot -c "$target" "$T/several" nosuch 2>/dev/null
[ -z "$(ls "$T/empty")" ] || fail "files written into an empty directory"
exit 0
