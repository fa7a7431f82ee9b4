#!/bin/sh
# Do two largedir binaries give the same run?  For restructurings that
# must not change behaviour: both run the same fixed-seed workloads on a
# tmpfs (rounds bounded by --max-files, not by time), and what they print
# and write is compared after masking what differs between any two runs:
# times, rates, latencies, cache and rusage counts, timestamps, paths.
# Everything else (metadata keys and fixed values, settings, column
# names, row counts, round, rep, warmup, n, operation counts, messages,
# exit status) must be byte-identical.
#
#	sh bench/same.sh OLD_BINARY NEW_BINARY
#
# Prints one line per case and exits 1 if any differs (with the diff).
set -eu
LC_ALL=C
export LC_ALL
[ $# -eq 2 ] || { echo "usage: sh bench/same.sh OLD NEW" >&2; exit 2; }
OLD=$1 NEW=$2
T=$(mktemp -d "${TMPDIR:-/tmp}/largedir-same.XXXXXX")
trap 'rm -rf "$T"' EXIT

# mask FILE: what cannot be the same in two runs, replaced by a word.
mask() {
	python3 - "$1" "$T" <<'EOF'
import json, re, sys
path, tmp = sys.argv[1], sys.argv[2]
text = open(path, encoding="utf-8", errors="replace").read()
text = text.replace(tmp, "TMP")
# Work directory and run-dependent suffixes.
text = re.sub(r"largedir\.[A-Za-z0-9]{6}", "largedir.XXXXXX", text)
text = re.sub(r"largedir\.[0-9]+", "largedir.PID", text)
# Values that vary from run to run, by key, in all three forms.
VARY = ("start_utc", "elapsed_s", "peak_rss_kib", "git", "command",
        "load", "warning_load", "warning_swing", "warning_outliers",
        "knee_", "mem_", "uptime", "boot", "free")
def vary(k):
    return any(k.startswith(v) for v in VARY)
# Columns that hold measurements: masked; the others must match.
KEEP = re.compile(r"^(round|rep|warmup|n|reps|[a-z]+_ops)$")
if path.endswith(".json"):
    d = json.loads(text)
    for k in list(d.get("meta", {})):
        if vary(k):
            del d["meta"][k]
    cols = d.get("columns", [])
    def rows(rs, cs):
        out = []
        for r in rs:
            if isinstance(r, dict):
                out.append({k: (v if KEEP.match(k) else "V") for k, v in r.items()})
            else:
                out.append([v if KEEP.match(c) else "V" for c, v in zip(cs, r)])
        return out
    for key in ("rounds", "summary"):
        if key in d:
            cs = d.get("summary_columns", cols) if key == "summary" else cols
            d[key] = rows(d[key], cs)
    print(json.dumps(d, indent=1, sort_keys=False))
    sys.exit(0)
sep = "," if path.endswith(".csv") else None
cols = None
for line in text.splitlines():
    if line.startswith("# "):
        k = line[2:].split(":", 1)[0]
        if not vary(k):
            print(line)
        continue
    if line.startswith("#") or not line.strip():
        print(line)
        continue
    f = line.split(sep) if sep else line.split()
    if cols is None and (path.endswith((".out", ".csv", ".summary"))):
        cols = f
        print(line)
        continue
    if cols is not None and len(f) == len(cols):
        print(" ".join(v if KEEP.match(c) else "V" for c, v in zip(cols, f)))
        continue
    # Human output: mask numbers with units, durations and rates.
    if re.search(r"warning: (load average|the [a-z]+ rate of round|outliers)", line) or line.startswith("knee: "):
        continue
    line = re.sub(r" *[0-9][0-9.,]*(k|M|G)?/s", " R/s", line)
    # The spread is padded to a width (%-8s): its blanks vary with it.
    line = re.sub(r"±[0-9.]+% *", "±P% ", line)
    line = re.sub(r"\b[0-9][0-9.]*(ns|µs|us|ms|s|m[0-9]+s|h[0-9]+m)\b", "D", line)
    line = re.sub(r"\b[0-9]+m[0-9]+s\b", "D", line)
    line = re.sub(r"load average [0-9.]+", "load average L", line)
    # The padding of the columns follows the widths of what was masked.
    line = re.sub(r" {2,}", " ", line)
    print(line)
EOF
}

# case NAME ARGS...: run both binaries, compare.
bad=0
same() {
	name=$1
	shift
	for b in old new; do
		if [ "$b" = old ]; then bin=$OLD; else bin=$NEW; fi
		# The same paths for both, so they print the same.
		rm -rf "$T/run"
		mkdir -p "$T/run/dir"
		set +e
		"$bin" "$@" -o "$T/run/res" --label x "$T/run/dir" \
		    >"$T/run/stdout" 2>"$T/run/stderr"
		echo "exit $?" >"$T/run/status"
		set -e
		for f in "$T/run"/stdout "$T/run"/stderr "$T/run"/status \
		    "$T/run"/res/*; do
			[ -f "$f" ] || continue
			mask "$f" >"$f.masked"
		done
		rm -rf "$T/$b-$name"
		mv "$T/run" "$T/$b-$name"
	done
	d=$(cd "$T/old-$name" && find . -name '*.masked' | sort |
	    while read -r f; do
		cmp -s "$f" "$T/new-$name/$f" || echo "$f"
	done)
	if [ -z "$d" ] && [ "$(cd "$T/old-$name" && find . -name '*.masked' |
	    sort)" = "$(cd "$T/new-$name" && find . -name '*.masked' | sort)" ]
	then
		echo "same:    $name"
	else
		echo "differs: $name"
		for f in $d; do
			diff "$T/old-$name/$f" "$T/new-$name/$f" | head -n 20
		done
		bad=1
	fi
}

same classic -s 42 -b 60s --start 200 -N 3000 --sync none
same phases -s 7 -b 60s --start 300 -N 2000 -p create,open,list,liststat,rmrf \
    -r 3 --warmup 1 --sync round
same maildir -s 9 -b 60s --start 100 -N 500 --names maildir --file-size 1k \
    --fsync file -q
same badopt -s 1 --growth 1
same quiet -s 3 -b 60s --start 50 -N 80 -q -p create,list,delete
exit $bad
