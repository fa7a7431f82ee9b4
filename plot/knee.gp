# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The largedir authors
#
# knee.gp: the knee against memory, for a sweep of memory limits.
#
#	gnuplot -c plot/knee.gp RESULTS_DIR PHASE A B
#
# Reads RESULTS_DIR/knee.dat, which largedir plot writes from the
# targets of a sweep (largedir suite --memory-limit A,B,...): a header
# line, then per target its label, memory limit in MiB, the rounds around
# the knee of PHASE (the last above half the plateau, the first below),
# the knee's point between them, and the fitted line's value there.  A and
# B are the line, n = A + B * MiB (B = 0: none).  Writes
# RESULTS_DIR/knee.svg and .png: each target's knee as a bar from the
# round above to the round below, through its point, and the line, with
# the memory a cached file takes by it (1 / B) in its title.  Prints
# nothing on success; exits 2 on a usage error.

if (ARGC != 4) {
	print "usage: gnuplot -c knee.gp RESULTS_DIR PHASE A B"
	exit status 2
}
ld_dirname(s) = strstrt(s, "/") == 0 ? "" : \
    s[1:strstrt(s, "/")] . ld_dirname(s[strstrt(s, "/") + 1:])
ld_here = ld_dirname(ARG0)
ld_dir = ARG1
load ld_here . "common.gp"

ld_phase = ARG2
ld_a = real(ARG3)
ld_b = real(ARG4)
ld_graph = "knee"
ld_data = ld_dir . "/knee.dat"

unset logscale x
set xlabel ld_tr("memory limit (MiB)", "Speichergrenze (MiB)")
set ylabel sprintf(ld_tr("files in the directory at the knee of %s", \
    "Dateien im Verzeichnis am Knick von %s"), ld_phase)
set title sprintf(ld_tr("%s: where the rate falls below half, against " . \
    "the memory the caches may use", "%s: wo die Rate unter die Hälfte " . \
    "fällt, über dem Speicher, den die Caches nutzen dürfen"), ld_phase)
stats ld_data using 2 nooutput
set xrange [0:STATS_max * 1.1]
set yrange [0:*]
set format y "%.0s%c"
set key inside top left Left reverse

ld_fit = ld_b > 0
ld_cmd = "plot ld_data using 2:5:3:4 with yerrorbars ls 1 title '" . \
    ld_tr("knee: between the rounds around it", \
    "Knick: zwischen den Runden um ihn herum") . "'"
if (ld_fit) {
	ld_cmd = ld_cmd . ", ld_a + ld_b * x with lines ls 2 title '" . \
	    sprintf(ld_tr("fitted: %.0f bytes per cached file", \
	    "angepasst: %.0f Bytes je Datei im Cache"), 1048576 / ld_b) . "'"
}
eval ld_render
