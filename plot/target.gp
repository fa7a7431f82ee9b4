# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The largedir authors
#
# target.gp: all phases of one target of a largedir run in one graph.
#
#	gnuplot -c plot/target.gp RESULTS_DIR LABEL
#
# Reads RESULTS_DIR/LABEL.out (and LABEL.summary if there is one) and
# writes RESULTS_DIR/LABEL.svg and .png: files per second against n on a
# logarithmic axis, with the rate axis every target's graph of the
# directory shares (common.gp's ld_yaxis: logarithmic where the rates of
# all its targets span more than a factor of 10, as list's and create's
# do), one
# curve per phase, in the same colour in every target's graph.  The title
# names the label, the description if the run has one, and why the run
# stopped if it did not complete.  Warm-up rows are left out; repetitions
# are drawn as in rates.gp.  A target without rows gets a graph that says
# so, so a page that shows every target has no hole.  Knees and declines
# are marked, and rounds whose open phase opened a random sample ringed,
# as in rates.gp.  Prints nothing on
# success; exits 1 if LABEL.out is missing, 2 on a usage error.

if (ARGC != 2) {
	print "usage: gnuplot -c target.gp RESULTS_DIR LABEL"
	exit status 2
}
# common.gp and scan.awk live next to this script.
ld_dirname(s) = strstrt(s, "/") == 0 ? "" : \
    s[1:strstrt(s, "/")] . ld_dirname(s[strstrt(s, "/") + 1:])
ld_here = ld_dirname(ARG0)
ld_dir = ARG1
ld_label = ARG2
load ld_here . "common.gp"

ld_base = ld_dir . "/" . ld_label
ld_graph = ld_label
# The page's rate axis: the rates of every target in the directory.
eval ld_scan(ld_dir, "*.out")
ld_page_ymin = ld_ymin
ld_page_ymax = ld_ymax
eval ld_scan(ld_dir, ld_label . ".out")
if (ld_nfiles == 0) {
	ld_msg = "target.gp: no " . ld_base . ".out with a header line"
	ld_rc = 1
	eval ld_fail
}

# The text of the title is data: it is read into strings and never
# evaluated, whatever quotes it holds.
ld_status = ld_meta(ld_dir, ld_label . ".out", "status")
ld_desc = ld_meta(ld_dir, ld_label . ".out", ld_tr("", \
    "description_de target_description_de ") . \
    "description target_description")
ld_stop = ld_meta(ld_dir, ld_label . ".out", "stop_reason")
ld_title = sprintf(ld_tr("%s: files per second against directory size", \
    "%s: Dateien pro Sekunde über der Verzeichnisgröße"), ld_label)
if (ld_desc ne "") {
	ld_title = ld_title . "\n" . ld_desc
}
# The run's end in words; the reason as recorded.
ld_ended(s) = !ld_de ? s : s eq "stopped" ? "gestoppt" : \
    s eq "interrupted" ? "unterbrochen" : s eq "failed" ? \
    "fehlgeschlagen" : s
if (ld_status ne "complete" && ld_status ne "") {
	ld_title = ld_title . ld_tr("\nrun ", "\nLauf ") . \
	    ld_ended(ld_status) . (ld_stop ne "" ? ": " . ld_stop : "")
}
set title ld_title
set ylabel ld_tr("rate (files/s)", "Rate (Dateien/s)")

if (ld_labels eq "") {
	# Nothing to draw: an empty frame that says why.
	unset logscale x
	set xrange [0:1]
	set yrange [0:1]
	unset xtics
	unset ytics
	unset grid
	set border 15
	unset key
	set label 1 ld_tr("no finished rounds", "keine abgeschlossene Runde") \
	    at graph 0.5, 0.5 center
	ld_cmd = "plot -1 notitle"
	eval ld_render
	exit
}

set xrange [ld_nmin / 1.25 : ld_nmax * 1.25]
eval ld_tics("x", ld_nmin, ld_nmax)
ld_ymin = ld_page_ymin
ld_ymax = ld_page_ymax
eval ld_yaxis

ld_cmd = ""
k = 0
do for [p in ld_phases] {
	ld_cmd = ld_cmd . (ld_cmd eq "" ? "plot " : ", ") . \
	    ld_clause(ld_label, p, ld_rank(p), ld_title(ld_label, p, p)) . \
	    ld_ring(ld_label, p, ld_ring_title)
	ld_mark = ld_knee(ld_label, p, ld_rank(p), k + 1)
	if (ld_mark ne "") {
		k = k + 1
		eval ld_mark
	}
}
eval ld_render
