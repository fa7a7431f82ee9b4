# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The largedir authors
#
# rates.gp: compare the targets of one largedir run, one graph per phase.
#
#	gnuplot -c plot/rates.gp RESULTS_DIR [PHASE]
#
# Reads every LABEL.out in RESULTS_DIR (and LABEL.summary where there is
# one) and writes RESULTS_DIR/rates-PHASE.svg and .png for each phase
# that has values in some target, or only for PHASE: files per second
# against n on a log axis, one curve per target, named by its file, on
# a rate axis of the phase's own, from its rates in all targets
# (common.gp's ld_yaxis), so that a phase whose rates lie close together
# is not squashed by another's.
# Warm-up rows are left out.  A target that repeated each n is drawn as
# the medians with min-max bars of its summary (all its rows as points if
# it has none).  A target without rows, or without the phase, is left
# out of that graph; a run that stopped early draws the rounds it has.
# Where the results say where the knee of a curve is (knee_PHASE), a
# dashed line in the curve's colour marks it; a decline is named in the
# curve's title.  A round whose open phase opened a random sample, to end
# at the budget, is ringed in the open graph.  Prints nothing on success; exits 1 if there is nothing to draw, 2 on a
# usage error.

if (ARGC < 1 || ARGC > 2) {
	print "usage: gnuplot -c rates.gp RESULTS_DIR [PHASE]"
	exit status 2
}
# common.gp and scan.awk live next to this script.
ld_dirname(s) = strstrt(s, "/") == 0 ? "" : \
    s[1:strstrt(s, "/")] . ld_dirname(s[strstrt(s, "/") + 1:])
ld_here = ld_dirname(ARG0)
ld_dir = ARG1
load ld_here . "common.gp"

eval ld_scan(ld_dir, "*.out")
if (ld_nfiles == 0) {
	ld_msg = "rates.gp: no .out files in " . ld_dir
	ld_rc = 1
	eval ld_fail
}
if (ld_labels eq "") {
	ld_msg = "rates.gp: no finished rounds in " . ld_dir
	ld_rc = 1
	eval ld_fail
}
if (ARGC == 2) {
	if (words(ARG2) != 1 || !ld_in(" " . ld_phases . " ", ARG2)) {
		ld_msg = "rates.gp: no " . ARG2 . " phase in " . ld_dir
		ld_rc = 1
		eval ld_fail
	}
	ld_phases = ARG2
}

# Every graph of the run has the same x axis, and each target the same
# colour in all of them.
set xrange [ld_nmin / 1.25 : ld_nmax * 1.25]
eval ld_tics("x", ld_nmin, ld_nmax)

do for [p in ld_phases] {
	ld_ymin = value("ld_ymin_" . p)
	ld_ymax = value("ld_ymax_" . p)
	eval ld_yaxis
	set title sprintf(ld_tr("%s: %s per second against directory size", \
	    "%s: %s pro Sekunde über der Verzeichnisgröße"), p, ld_what(p))
	set ylabel sprintf(ld_tr("%s rate (%s)", "Rate von %s (%s)"), p, \
	    ld_unit(p))
	ld_cmd = ""
	unset arrow
	unset label
	k = 0
	ld_rings = ""
	do for [i = 1:words(ld_labels)] {
		l = word(ld_labels, i)
		if (ld_in(ld_has, l . ":" . p)) {
			ld_cmd = ld_cmd . (ld_cmd eq "" ? "plot " : ", ") . \
			    ld_clause(l, p, (i - 1) % 16 + 1, ld_title(l, p, l))
			ld_rings = ld_rings . ld_ring(l, p, ld_rings eq "" ? \
			    ld_ring_title : "")
			ld_mark = ld_knee(l, p, (i - 1) % 16 + 1, k + 1)
			if (ld_mark ne "") {
				k = k + 1
				eval ld_mark
			}
		}
	}
	ld_cmd = ld_cmd . ld_rings
	ld_graph = "rates-" . p
	eval ld_render
}
