#!/bin/sh
# The three outputs of a run: the exact CSV header, the .out header, rows
# that agree value by value across .out, .csv and .json, CRLF line ends,
# the JSON document's fixed members, and one stdout line per round; the
# listing check's columns (nothing looped or lost on a local directory).
# shellcheck source=/dev/null
. "$(dirname "$0")/lib.sh"
need_cmd jq

# header PHASE...: the expected column list, comma-separated.
header() {
	h=round,rep,warmup,n,round_ns,sync_ns,load1_start,load1_end
	for p in "$@"; do
		for s in ns per_s ops user_ns sys_ns vcsw ivcsw inblock \
		    oublock p50_ns p90_ns p99_ns p999_ns max_ns dentries \
		    dentries_unused inodes dentry_objs inode_objs \
		    mem_avail_kib sectors_read sectors_written cold_ns \
		    memcg_peak_kib stopped loop lost churn_made churn_removed; do
			h=$h,${p}_$s
		done
	done
	echo "$h"
}

mkdir "$T/d"
expect_exit 0 "$LD" --start 1000 --max-files 5000 --seed 42 \
    --events=none -o "$T/res" --label x "$T/d" >"$T/stdout"
for e in out csv json; do
	[ -s "$T/res/x.$e" ] || fail "x.$e missing or empty"
done
csv=$T/res/x.csv out=$T/res/x.out json=$T/res/x.json

# The CSV header, byte for byte (CRLF included).
hdr=$(header create open delete)
printf '%s\r\n' "$hdr" >"$T/want"
head -n 1 "$csv" >"$T/got"
cmp -s "$T/want" "$T/got" ||
    fail "CSV header: got '$(tr -d '\r' <"$T/got")', want '$hdr'"

# Every CSV line ends in CRLF, and there is one line per round.
[ "$(awk '!/\r$/' "$csv" | wc -l)" -eq 0 ] || fail "CSV line without CRLF"
[ "$(lines "$csv")" -eq 6 ] || fail "CSV has $(lines "$csv") lines, want 6"

# The .out header is the CSV header with spaces.
grep -v '^#' "$out" | head -n 1 >"$T/got"
echo "$hdr" | tr , ' ' >"$T/want"
cmp -s "$T/want" "$T/got" || fail ".out header: got '$(cat "$T/got")'"

# The rows of all three files, as comma-separated text, missing = empty.
tail -n +2 "$csv" | tr -d '\r' >"$T/rows.csv"
grep -v '^#' "$out" | tail -n +2 |
    awk -v OFS=, '{ $1 = $1; for (i = 1; i <= NF; i++) if ($i == "NaN") $i = ""
	print }' >"$T/rows.out"
jq -r '.columns as $c | .rounds[] | [.[$c[]]] |
    map(if . == null then "" else tostring end) | join(",")' "$json" \
    >"$T/rows.json"
[ "$(lines "$T/rows.out")" -eq 5 ] || fail ".out has $(lines "$T/rows.out") rows"
[ "$(lines "$T/rows.json")" -eq 5 ] || fail ".json has $(lines "$T/rows.json") rows"
cmp -s "$T/rows.csv" "$T/rows.out" || {
	diff "$T/rows.csv" "$T/rows.out" >&2 || true
	fail ".out and .csv rows differ"
}
# JSON numbers may be respelled by jq (26900.0 as 26900): compare values.
paste -d '|' "$T/rows.csv" "$T/rows.json" | awk -F'|' -v cols="$hdr" '
BEGIN { split(cols, name, ",") }
{
	nc = split($1, c, ","); nj = split($2, j, ",")
	if (nc != nj) { print "row " NR ": " nc " vs " nj " fields"; bad = 1 }
	for (i = 1; i <= nc; i++)
		if ((c[i] == "") != (j[i] == "") || c[i] + 0 != j[i] + 0) {
			print "row " NR " " name[i] ": csv " c[i] ", json " j[i]
			bad = 1
		}
}
END { exit bad }' >&2 || fail ".json and .csv rows differ"

# The rounds: n grows by 1.5, the last clamped to --max-files.
[ "$(cut -d, -f1-4 "$T/rows.csv" | tr '\n' ' ')" = \
    "1,1,0,1000 2,1,0,1500 3,1,0,2250 4,1,0,3375 5,1,0,5000 " ] ||
    fail "round,rep,warmup,n: $(cut -d, -f1-4 "$T/rows.csv" | tr '\n' ' ')"

# Per row: create_ops == n, and the percentiles rise to the maximum.
awk -F, -v cols="$hdr" '
BEGIN { m = split(cols, name, ","); for (i = 1; i <= m; i++) ix[name[i]] = i }
function v(k) { return $ix[k] + 0 }
{
	if ($ix["create_ops"] == "" || v("create_ops") != v("n")) {
		print "row " NR ": create_ops " $ix["create_ops"] ", n " $ix["n"]
		bad = 1
	}
	for (p = 1; p <= 3; p++) {
		ph = p == 1 ? "create" : p == 2 ? "open" : "delete"
		if (v(ph "_ops") != v("n")) {
			print "row " NR ": " ph "_ops " v(ph "_ops"); bad = 1
		}
		if (!(v(ph "_p50_ns") <= v(ph "_p90_ns") &&
		    v(ph "_p90_ns") <= v(ph "_p99_ns") &&
		    v(ph "_p99_ns") <= v(ph "_p999_ns") &&
		    v(ph "_p999_ns") <= v(ph "_max_ns"))) {
			print "row " NR ": " ph " percentiles not ordered"
			bad = 1
		}
	}
}
END { exit bad }' "$T/rows.csv" >&2 || fail "bad values in the rows"

# The JSON document.
jq -e --arg hdr "$hdr" '
	.format == 1 and .status == "complete" and .stop == null and
	(.meta | all(.seed, .command, .start_utc, .kernel, .fstype,
	    .cpu_model, .free_inodes; type == "string")) and
	.meta.seed == "42" and
	(.meta.command | test("--max-files 5000")) and
	(.meta.start_utc | test("^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z$")) and
	.config.phases == "create,open,delete" and
	(.columns | join(",")) == $hdr and
	[.summary[].n] == [1000, 1500, 2250, 3375, 5000] and
	[.summary[].round] == [1, 2, 3, 4, 5] and
	all(.summary[]; .reps == 1)' "$json" >/dev/null ||
    fail "JSON document lacks what it should have"

# The .out metadata says the same.
grep -qx '# format: 1' "$out" || fail ".out: no '# format: 1'"
grep -qx '# status: complete' "$out" || fail ".out: no '# status: complete'"
grep -qx '# seed: 42' "$out" || fail ".out: no '# seed: 42'"

# stdout: one "round" line per round, in order.
[ "$(grep -c '^round ' "$T/stdout")" -eq 5 ] ||
    fail "stdout has $(grep -c '^round ' "$T/stdout") round lines, want 5"
[ "$(awk '/^round / { printf "%s %s,", $2, $3 }' "$T/stdout")" = \
    "1 n=1,000,2 n=1,500,3 n=2,250,4 n=3,375,5 n=5,000," ] ||
    fail "stdout round lines: $(grep '^round ' "$T/stdout")"

# Other phases: their columns, in the order given, and no others.
expect_exit 0 "$LD" -q --start 1000 --max-files 1000 \
    --phases create,list,liststat,rmrf -o "$T/res" --label y "$T/d"
hdr=$(header create list liststat rmrf)
# The default --events add a column for each counter the kernel accepts,
# after each phase's fixed ones.
head -n 1 "$T/res/y.csv" | tr -d '\r' | tr , '\n' >"$T/cols"
grep -Ev '^(create|list|liststat|rmrf)_(cycles|instructions|context_switches|page_faults|task_clock)(_user|_kernel)?$' \
    "$T/cols" | paste -sd, >"$T/fixed"
[ "$(cat "$T/fixed")" = "$hdr" ] ||
    fail "CSV header for create,list,liststat,rmrf: $(cat "$T/fixed")"
ev=$(jq -r '.meta.events' "$T/res/y.json")
case $ev in
*"cycles("*"instructions("*"context-switches("*"page-faults("*"task-clock("*) ;;
*) fail "meta.events: '$ev'" ;;
esac
hdr=$(paste -sd, "$T/cols")
if head -n 1 "$T/res/y.csv" | grep -Eq '(^|,)(open|delete)_'; then
	fail "open or delete columns without those phases"
fi
[ "$(grep -v '^#' "$T/res/y.out" | head -n 1)" = "$(echo "$hdr" | tr , ' ')" ] ||
    fail ".out header for create,list,liststat,rmrf"
jq -e --arg hdr "$hdr" '(.columns | join(",")) == $hdr and
    .config.phases == "create,list,liststat,rmrf" and
    (.rounds | length) == 1 and .rounds[0].rmrf_ops == 1000 and
    .rounds[0].list_ops > 0 and .rounds[0].liststat_ops == 1000' \
    "$T/res/y.json" >/dev/null || fail "y.json columns or counts"
# Every listing saw each file once: no loop, nothing lost; the check is
# not a column of create.
jq -e '.rounds[0] | .list_loop == 0 and .list_lost == 0 and
    .liststat_loop == 0 and .liststat_lost == 0 and .rmrf_loop == 0 and
    .rmrf_lost == 0 and .create_loop == null' "$T/res/y.json" \
    >/dev/null || fail "y.json: listing check: $(jq -c '.rounds[0] |
    with_entries(select(.key | test("_lo(op|st)$")))' "$T/res/y.json")"

# Nothing is left in the directory under test.
[ -z "$(ls -A "$T/d")" ] || fail "left behind: $(ls -A "$T/d")"
exit 0
