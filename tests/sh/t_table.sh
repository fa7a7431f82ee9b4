#!/bin/sh
# largedir table: the RPC table of the published NFS results
# (results/20261202-nfs), whose counts are checked against its .csv
# files, and of the fixtures of tests/data/table in text and Markdown;
# a .out, .json or .csv names its target; labels two arguments share get
# the argument in front; results without calls say so in one line, exit
# 0; bad input exits 2 with one line.  And the comparison page: the
# section shows in both languages where a target counted its calls, and
# pages of local filesystems stay byte for byte as before
# (tests/data/golden/page-local*.html).  That every published page is
# the one this build writes is t_published.sh's.
# shellcheck source=/dev/null
. "$(dirname "$0")/lib.sh"
cd "$TOP" || fail "cannot cd to $TOP"
NFS=results/20261202-nfs
D=tests/data/table

# block FILE HEADING: the rows of the block HEADING of a text table.
block() {
	awk -v h="$2" 'index($0, h) == 1 { on = 1; next } /^$/ { on = 0 }
	    on' "$1"
}
# row FILE HEADING ROW: that row of the block, spaces squeezed.
row() {
	block "$1" "$2" | awk -v r="$3" '$1 == r' | tr -s ' '
}

# The published run: every n, the listing phases, in order.
"$LD" table "$NFS" >"$T/nfs" || fail "table $NFS: exit $?"
[ "$(grep -c '^ls -f (list), n = ' "$T/nfs")" = 5 ] ||
    fail "not five list blocks: $(cat "$T/nfs")"
[ "$(grep -v '^ ' "$T/nfs" | grep -v '^$' | awk '{ print $NF, $(NF-1) }' |
    sort -u)" = "nfs-readdirplus nfs-readdir" ] || fail "column labels"
grep -v '^ ' "$T/nfs" | grep -v '^$' | sed 's/ *nfs-readdir .*//' >"$T/heads"
printf '%s\n' "ls -f (list), n = 100" "ls -lU (liststat), n = 100" \
    "rm -rf (rmrf), n = 100" >"$T/want"
[ "$(head -n 3 "$T/heads")" = "$(cat "$T/want")" ] ||
    fail "block order: $(cat "$T/heads")"
[ "$(tail -n 1 "$T/heads")" = "rm -rf (rmrf), n = 1,000,000" ] ||
    fail "last block: $(cat "$T/heads")"
# The counts, as nfs-readdir.csv and nfs-readdirplus.csv have them (one
# repetition per n): list at 1,000,000 made 1969 READDIR and 9902
# READDIRPLUS calls and took 24962744250 and 35052428528 ns; liststat
# looked up every file without READDIRPLUS and none with it.
for t in nfs-readdir nfs-readdirplus; do
	[ "$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	    $c["n"] == 1000000 { print $c["list_rpc_readdir"],
	    $c["list_rpc_readdirplus"], $c["liststat_rpc_lookup"] }' \
	    "$NFS/$t.csv")" = "$(case $t in nfs-readdir) echo 1969 0 1000000;;
	    *) echo 0 9902 0;; esac)" ] || fail "$t.csv is not as expected"
done
h="ls -f (list), n = 1,000,000"
[ "$(row "$T/nfs" "$h" READDIR)" = " READDIR 1,969 0" ] ||
    fail "READDIR: $(block "$T/nfs" "$h")"
[ "$(row "$T/nfs" "$h" READDIRPLUS)" = " READDIRPLUS 0 9,902" ] ||
    fail "READDIRPLUS: $(block "$T/nfs" "$h")"
[ "$(row "$T/nfs" "$h" real)" = " real 25.0 s 35.1 s" ] ||
    fail "real: $(block "$T/nfs" "$h")"
[ "$(row "$T/nfs" "ls -lU (liststat), n = 1,000,000" LOOKUP)" = \
    " LOOKUP 1,000,000 0" ] || fail "LOOKUP: $(cat "$T/nfs")"
[ "$(row "$T/nfs" "ls -f (list), n = 100,000" READDIR)" = " READDIR 197 0" ] ||
    fail "READDIR at 100,000: $(cat "$T/nfs")"
# No warm-ups here: nor loop and lost, nor GETATTR (never called).
! grep -Eq '^  (loop|lost|GETATTR) ' "$T/nfs" || fail "rows of nothing"

# Markdown, --n and --phases, and a target named by its .json file.
"$LD" table --format md --n 1000000 --phases list "$NFS/nfs-readdir.json" \
    "$NFS/nfs-readdirplus.out" >"$T/md" || fail "md: exit $?"
cat >"$T/want" <<'MD'
### ls -f (list), n = 1,000,000

| | nfs-readdir | nfs-readdirplus |
|---|---:|---:|
| real | 25.0 s | 35.1 s |
| user | 298 ms | 605 ms |
| sys | 182 ms | 713 ms |
| READDIR | 1,969 | 0 |
| READDIRPLUS | 0 | 9,902 |
MD
diff -u "$T/want" "$T/md" >&2 || fail "markdown"
"$LD" table --n 100 "$NFS/nfs-readdir.csv" >"$T/csv" || fail "csv: exit $?"
[ "$(grep -c ', n = 100  ' "$T/csv")" = 3 ] || fail "csv: $(cat "$T/csv")"

# The fixtures: local and NFS side by side, a target missing an n, loop
# and lost (test_table checks the whole text).
"$LD" table "$D/run" >"$T/run" || fail "run: exit $?"
[ "$(row "$T/run" "ls -f (list), n = 100" loop)" = " loop 0 0 57" ] ||
    fail "loop: $(cat "$T/run")"
[ "$(row "$T/run" "ls -f (list), n = 1,000" READDIR)" = " READDIR - 20 -" ] ||
    fail "missing n: $(cat "$T/run")"
"$LD" table "$D/old" >"$T/old" || fail "old: exit $?"
! grep -Eq '^  (loop|lost) ' "$T/old" || fail "old: $(cat "$T/old")"
# Two arguments with the same labels: ARG/LABEL.
"$LD" table --n 100 --phases list "$D/run" "$D/run/nfs-b.out" >"$T/two" ||
    fail "two: exit $?"
grep -q "nfs-a   *$D/run/nfs-b   *$D/run/nfs-b.out/nfs-b\$" "$T/two" ||
    fail "labels: $(cat "$T/two")"

# Nothing to show: one line, exit 0.
"$LD" table tests/data/page/run >"$T/out" 2>"$T/err" || fail "local: exit $?"
[ "$(cat "$T/out")" = "no calls to a server counted in tests/data/page/run: only NFS targets count them" ] ||
    fail "local: $(cat "$T/out")"
[ ! -s "$T/err" ] || fail "local: $(cat "$T/err")"
"$LD" table --n 5 "$NFS" >"$T/out" || fail "--n 5: exit $?"
[ "$(cat "$T/out")" = "nothing to show: no listing phase at the n asked for" ] ||
    fail "--n 5: $(cat "$T/out")"

# Bad input: exit 2, one line on stderr, nothing on stdout.
one_line() {
	ol_msg=$1
	shift
	expect_exit 2 "$LD" table "$@" >"$T/out" 2>"$T/err"
	[ ! -s "$T/out" ] || fail "$*: wrote to stdout: $(cat "$T/out")"
	[ "$(cat "$T/err")" = "largedir: $ol_msg" ] ||
	    fail "$*: '$(cat "$T/err")', expected 'largedir: $ol_msg'"
}
printf 'hello\n' >"$T/x.out"
one_line "table: $T/none: No such file or directory" "$T/none"
one_line "table: tests/sh: not largedir results (no .out files)" tests/sh
one_line "table: README.md: not largedir results (a results directory or a LABEL.out, .json or .csv)" README.md
one_line "table: $T/x.out: x.out is not largedir results (no columns n and warmup)" "$T/x.out"
one_line "table: $NFS/NOTES.json: No such file or directory" "$NFS/NOTES.json"
one_line "table: --format: html is neither text nor md" --format html "$NFS"
one_line "table: --n: 1e6 is invalid" --n 1e6 "$NFS"
one_line "table: --n: 0 is too small" --n 100,0 "$NFS"
one_line "table: --n: '1,,2' has an empty element" --n 1,,2 "$NFS"
one_line "table: --n: '100,' has an empty element" --n 100, "$NFS"
one_line "table: --n: ',100' has an empty element" --n ,100 "$NFS"
one_line "table: --n: no n given" --n '' "$NFS"
one_line "table: --phases: 'list,,rmrf' has an empty element" \
    --phases list,,rmrf "$NFS"
one_line "table: --phases: 'list,' has an empty element" --phases list, "$NFS"
one_line "table: --phases: no phase given" --phases '' "$NFS"
one_line "table: --phases: create is no listing phase (list, liststat or rmrf)" \
    --phases list,create "$NFS"
one_line "table: unknown option or missing value: --bogus" --bogus "$NFS"
one_line "usage: largedir table [--format text|md] [--phases list,liststat,rmrf] [--n n[,n...]] results ..."
expect_exit 0 "$LD" table -h >"$T/out"
grep -q '^usage: largedir table' "$T/out" || fail "-h: $(cat "$T/out")"

# The page: local filesystems as before, byte for byte.
cp -R tests/data/page/run "$T/local"
"$LD" page "$T/local" >/dev/null || fail "page local: exit $?"
cmp "$T/local/index.html" tests/data/golden/page-local.html ||
    fail "the English page of local filesystems changed"
cmp "$T/local/index.de.html" tests/data/golden/page-local.de.html ||
    fail "the German page of local filesystems changed"
# The section in both languages.
cp -R "$D/run" "$T/mixed"
"$LD" page "$T/mixed" >/dev/null || fail "page mixed: exit $?"
grep -q '<h2>Calls and times per listing</h2>' "$T/mixed/index.html" ||
    fail "no RPC table on the English page"
grep -q '<h2>Aufrufe und Zeiten je Auflistung</h2>' \
    "$T/mixed/index.de.html" || fail "no RPC table on the German page"
grep -q '<tr><td>loop</td><td class="num">0</td><td class="num">0</td><td class="num">57</td></tr>' \
    "$T/mixed/index.html" || fail "no loop row on the page"
exit 0
