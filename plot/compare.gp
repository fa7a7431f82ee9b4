# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The largedir authors
#
# compare.gp: the graphs of one largedir compare, one per phase.
#
#	gnuplot -c plot/compare.gp COMPARE_DIR LABEL_A LABEL_B "PHASE..."
#
# Reads COMPARE_DIR/compare.out (a row per run) and compare.summary (the
# medians) and writes COMPARE_DIR/compare-PHASE.svg and .png for each
# PHASE: files per second of A and of B, each side's median as a bar and
# every run as a point on it, the pairs side by side in the order they
# ran, so that a run far from its side's others, or a drift from the
# first pair to the last, shows.  Prints nothing on success; exits 1 if
# there is nothing to draw, 2 on a usage error.

if (ARGC != 4) {
	print "usage: gnuplot -c compare.gp COMPARE_DIR LABEL_A LABEL_B PHASES"
	exit status 2
}
ld_dirname(s) = strstrt(s, "/") == 0 ? "" : \
    s[1:strstrt(s, "/")] . ld_dirname(s[strstrt(s, "/") + 1:])
ld_here = ld_dirname(ARG0)
ld_dir = ARG1
load ld_here . "common.gp"

ld_runs = ld_dir . "/compare.out"
ld_meds = ld_dir . "/compare.summary"
if (system("test -f " . ld_q(ld_runs) . " && echo y") ne "y") {
	ld_msg = "compare.gp: no compare.out in " . ld_dir
	ld_rc = 1
	eval ld_fail
}

# Each side at its place on x, the runs of pair k a little to the right
# of those of pair k - 1.
stats ld_runs using "pair" nooutput
ld_pairs = STATS_max
ld_x(side, pair) = side + (ld_pairs > 1 ? \
    ((pair - 1) / (ld_pairs - 1.0) - 0.5) * 0.4 : 0)
unset logscale x
unset grid
set grid ytics ls 100
set xrange [-0.6:1.6]
set xtics ("A: " . ARG2 0, "B: " . ARG3 1) noenhanced
set xlabel sprintf(ld_tr("the runs of each side, pair 1 to %d from " . \
    "left to right", "die Läufe jeder Seite, Paar 1 bis %d von links " . \
    "nach rechts"), ld_pairs)
set yrange [0:*]
set format y "%.0f"
set boxwidth 0.6
set style fill transparent solid 0.25 border

do for [p in ARG4] {
	set title sprintf(ld_tr("%s: %s per second, A and B", \
	    "%s: %s pro Sekunde, A und B"), p, ld_what(p))
	set ylabel sprintf(ld_tr("%s rate (%s)", "Rate von %s (%s)"), p, \
	    ld_unit(p))
	ld_cmd = sprintf("plot ld_meds using (0):\"%s_a_per_s\" with boxes " . \
	    "ls 1 title '%s', ld_meds using (1):\"%s_b_per_s\" " . \
	    "with boxes ls 2 title '%s', ld_runs using " . \
	    "(ld_x(column(\"side\"), column(\"pair\"))):" . \
	    "(column(\"%s_per_s\") > 0 ? column(\"%s_per_s\") : NaN) " . \
	    "with points ls 7 title '%s'", p, ld_tr("median of A", \
	    "Median von A"), p, ld_tr("median of B", "Median von B"), p, p, \
	    ld_tr("each run", "jeder Lauf"))
	ld_graph = "compare-" . p
	eval ld_render
}
