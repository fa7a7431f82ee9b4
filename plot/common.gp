# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The largedir authors
#
# common.gp: what rates.gp and target.gp share.  They set ld_here (their
# own directory, from ARG0) and load this file.  It gives:
#
#	ld_scan(dir, name) a gnuplot command that sets ld_labels, ld_phases,
#			 ld_has, ... (see scan.awk) for the regular files in
#			 directory 'dir' whose names match the find(1)
#			 pattern 'name' ("*.out"); run it with eval
#	ld_meta(dir, name, keys) the value of the first of 'keys' that
#			 the file 'name' in 'dir' has, as a string: never
#			 evaluated
#	ld_q(s)		 's' quoted for the shell
#	ld_in(list, w)	 whether word 'w' is in the " a b " list 'list'
#	ld_rank(p)	 the place of phase 'p' in largedir's order
#	ld_clause(...)	 one plot clause for one target and phase
#	ld_title(l, p, t) the legend title 't' of the curve, with
#			 " (decline)" if the knee search found a decline
#	ld_knee(l, p, ls, k) a command marking the knee of the curve, if
#			 it has one, as arrow and label 100 + k
#	ld_tics(axis, lo, hi)	a command setting labelled tics on a log axis
#	ld_render	 a command drawing ld_cmd into ld_graph.svg and .png
#	ld_fail		 a command printing ld_msg and exiting with ld_rc
#
# and the look every graph shares: 900x600 pixels, a grid, the key below
# the graph, eight colours (Okabe and Ito's, which stay apart for colour-
# blind readers) with a point type each; lines 9-16 repeat them dashed.
# Columns are addressed by name only: every largedir file has a header.

# ===== Reading the results =====

ld_scanner = ld_here . "scan.awk"

# 's' in single quotes, each ' written as '\''.
ld_q(s) = strstrt(s, "'") == 0 ? "'" . s . "'" : \
    "'" . s[1:strstrt(s, "'") - 1] . "'\\'" . ld_q(s[strstrt(s, "'") + 1:])

# The C locale makes awk read "0.5" as a number whatever LANG says.
# find(1) names only regular files (not links), exactly as they are, so
# that a FIFO or a device with a result's name never blocks the scan; a
# directory named "-x" is not taken for an option.
ld_find(dir, name) = "LC_ALL=C; export LC_ALL; find " . \
    ld_q((dir[1:1] eq "-" ? "./" : "") . dir) . " -maxdepth 1 -type f " . \
    "-name " . ld_q(name) . " -print0 | xargs -0 awk "
ld_scan(dir, name) = system(ld_find(dir, name) . "-f " . ld_q(ld_scanner))
ld_meta(dir, name, keys) = system(ld_find(dir, name) . "-v ld_keys=" . \
    ld_q(keys) . " -f " . ld_q(ld_scanner))

ld_in(list, w) = strstrt(list, " " . w . " ") > 0

# A rate axis from the smallest and largest rate, ld_ymin and ld_ymax:
# logarithmic where they span more than a factor of 10, linear from 0
# otherwise.  rates.gp gives each phase's graph the rates of that phase
# in all targets, target.gp every target's graph those of all phases and
# targets.
ld_yaxis = "if (ld_ymax > 10 * ld_ymin) { \
	set logscale y 10; ld_ylo = ld_ymin / 1.5; ld_yhi = ld_ymax * 1.5; \
	set yrange [ld_ylo : ld_yhi]; eval ld_tics(\"y\", ld_ylo, ld_yhi) \
    } else { \
	unset logscale y; set yrange [0 : ld_ymax * 1.15]; \
	set ytics autofreq; set format y \"%.0f\" }"

# The language of the graphs: English, or with -e "ld_lang='de'" German,
# with the graphs named NAME.de.svg and .png and numbers written with a
# decimal comma.  ld_tr(en, de) is the text in it.
ld_de = exists("ld_lang") && ld_lang eq "de"
ld_tr(en, de) = ld_de ? de : en
ld_dec(s) = ld_de && strstrt(s, ".") > 0 ? \
    s[1:strstrt(s, ".") - 1] . "," . s[strstrt(s, ".") + 1:] : s

ld_known = " create open list liststat delete rmrf mkdir "
ld_rank(p) = ld_in(ld_known, p) ? \
    words(ld_known[1:strstrt(ld_known, " " . p . " ")]) + 1 : 8
# What a phase's rate counts: a tree's mkdir makes directories.
ld_what(p) = p eq "mkdir" ? ld_tr("directories", "Verzeichnisse") : \
    ld_tr("files", "Dateien")
ld_unit(p) = p eq "mkdir" ? ld_tr("dirs/s", "Verz./s") : \
    ld_tr("files/s", "Dateien/s")

# The data files of label 'l'.  If a crash cut a row short, gnuplot
# would warn about it, so such a file is read through a filter that drops
# the rows not as wide as the header.
ld_outf(l) = ld_rows(ld_dir . "/" . l . ".out", l)
ld_sumf(l) = ld_rows(ld_dir . "/" . l . ".summary", l)
ld_rows(f, l) = ld_in(ld_cut, l) ? \
    "< awk '/^#/ { next } h == 0 { h = NF } NF == h' " . ld_q(f) : f
set datafile columnheaders
ld_rate(p) = column("warmup") == 0 && column(p . "_per_s") > 0 ? \
    column(p . "_per_s") : NaN

# One clause of a plot command: phase 'p' of label 'l' in line style 'ls',
# titled 't'.  With repetitions the summary's medians with min-max bars,
# else all rows as points; without repetitions one point per round on a
# line, in the order of n (a round that refines the knee or fills in
# comes after larger ones).  Warm-up rows are left out.
ld_clause(l, p, ls, t) = \
    ld_in(ld_rep, l) && ld_in(ld_sum, l . ":" . p) ? \
	sprintf("ld_sumf('%s') using \"n\":\"%s_per_s_median\":" . \
	    "\"%s_per_s_min\":\"%s_per_s_max\" with yerrorlines " . \
	    "ls %d title '%s'", l, p, p, p, ls, t) : \
	sprintf("ld_outf('%s') using \"n\":(ld_rate('%s')) %s " . \
	    "ls %d title '%s'", l, p, \
	    ld_in(ld_rep, l) ? "with points" : \
	    "smooth unique with linespoints", ls, t)

# The rounds of label 'l' whose open phase opened a random sample to end
# at the budget (open_ops below n), ringed: a clause to add to a plot
# command for phase 'p' (empty unless it is open and 'l' has such a
# round), titled 't' (empty: none).
ld_ring(l, p, t) = p ne "open" || !ld_in(ld_sampled, l) ? "" : sprintf( \
    ", ld_outf('%s') using \"n\":(column(\"warmup\") == 0 && " . \
    "column(\"open_ops\") < column(\"n\") ? ld_rate('open') : NaN) " . \
    "with points pt 6 ps 2.4 lw 1.5 lc rgb '#000000' %s", l, \
    t eq "" ? "notitle" : "title '" . t . "'")
ld_ring_title = ld_tr("open a random sample (time box)", \
    "open einer Zufallsstichprobe (Zeitfenster)")

# The value of key 'k' in the " k=v ..." list 'list', NaN if none.
ld_look(list, k) = strstrt(list, " " . k . "=") == 0 ? NaN : \
    word(list[strstrt(list, " " . k . "=") + strlen(k) + 2:], 1) + 0

ld_title(l, p, t) = t . (ld_in(ld_decline, l . ":" . p) ? \
    ld_tr(" (decline)", " (Rückgang)") : "")

# The knee of phase 'p' of label 'l' (drawn in line style 'ls'): a dashed
# line in the curve's colour at x = n of the knee, the whole height of
# the graph, and "knee" beside it at the top.  'k' counts the knees of
# one graph: their labels are stacked so that they do not overlap.  An
# empty command if the curve has no knee.
ld_knee(l, p, ls, k) = \
    strstrt(ld_kneen, " " . l . ":" . p . "=") == 0 ? "" : sprintf( \
    "set arrow %d from first %.17g, graph 0 to first %.17g, graph 1 " . \
    "nohead lc rgb '%s' lw 1.5 dt 2 front; " . \
    "set label %d '" . ld_tr("knee", "Knick") . "' at first %.17g, " . \
    "graph %g offset char 0.4, 0 " . \
    "left textcolor rgb '%s' font ',10' front", \
    100 + k, ld_look(ld_kneen, l . ":" . p), \
    ld_look(ld_kneen, l . ":" . p), word(ld_colours, (ls - 1) % 8 + 1), \
    100 + k, ld_look(ld_kneen, l . ":" . p), 0.97 - 0.05 * (k - 1), \
    word(ld_colours, (ls - 1) % 8 + 1))

# ===== The look =====

ld_colours = "#0072b2 #d55e00 #009e73 #cc79a7 #e69f00 #56b4e9 #000000 #8c6d31"
array ld_points[8] = [7, 5, 9, 11, 13, 15, 6, 4]
do for [i = 1:16] {
	ld_dt = i > 8 ? 2 : 1
	set style line i lc rgb word(ld_colours, (i - 1) % 8 + 1) lw 2 \
	    pt ld_points[(i - 1) % 8 + 1] ps 1 dt ld_dt
}
set style line 100 lc rgb "#d0d0d0" lw 1 dt 1
set grid xtics ytics ls 100
set border 3 lw 1
set tics nomirror out
set key outside below center horizontal Left reverse noenhanced
set bars small
set logscale x 10
set xlabel ld_tr("files in the directory (n)", "Dateien im Verzeichnis (n)")
set offsets 0, 0, 0, 0

# Log-axis tics from 'lo' to 'hi', labelled 1k, 1.5k, 2M...: at 1, 1.5,
# 2, 3, 5 and 7 times each power of ten if the axis spans a decade or
# less, at 1, 2 and 5 times up to five decades, else at the powers.
ld_tics(axis, lo, hi) = sprintf("set %stics (%s)", axis, ld_ticlist( \
    floor(log10(lo) + 1e-9), ceil(log10(hi) - 1e-9), \
    log10(hi / lo) <= 1 ? "1 1.5 2 3 5 7" : \
    log10(hi / lo) <= 5 ? "1 2 5" : "1"))
ld_ticlist(e, last, m) = e > last ? "" : \
    ld_ticdecade(e, m, 1) . (e < last ? ", " . ld_ticlist(e + 1, last, m) : "")
ld_ticdecade(e, m, i) = ld_tic(word(m, i) * 10.0 ** e) . \
    (i < words(m) ? ", " . ld_ticdecade(e, m, i + 1) : "")
ld_tic(v) = sprintf("\"%s\" %.0f", ld_dec(ld_si(v)), v)
ld_si(v) = v >= 1e9 ? sprintf("%gG", v / 1e9) : v >= 1e6 ? \
    sprintf("%gM", v / 1e6) : v >= 1e3 ? sprintf("%gk", v / 1e3) : \
    sprintf("%g", v)

# pngcairo if this gnuplot has it, else libgd's png (which has no
# antialiasing but needs no cairo).
ld_pngterm = strstrt(GPVAL_TERMINALS, " pngcairo ") > 0 ? \
    "pngcairo size 900,600 noenhanced font 'Sans,11' background rgb 'white'" : \
    "png size 900,600 noenhanced background rgb 'white'"
# In SVG the font is a CSS family: "sans-serif" is the generic one.
ld_svgterm = "svg size 900,600 fixed noenhanced font 'sans-serif,12' " . \
    "background rgb 'white'"

# Graphs go into the results directory, or where largedir asks for them:
# with -e "ld_outsub='NAME'" into its subdirectory NAME, a private one
# largedir made, from which it moves them in without following a link
# someone else put under a graph's name.
ld_out = exists("ld_outsub") ? ld_dir . "/" . ld_outsub : ld_dir

# Draw the plot command ld_cmd into ld_graph.svg and ld_graph.png in
# ld_out.
ld_render = "set terminal " . ld_svgterm . "; " . \
    "set output ld_out . '/' . ld_graph . ld_tr('', '.de') . '.svg'; " . \
    "eval ld_cmd; set terminal " . ld_pngterm . "; " . \
    "set output ld_out . '/' . ld_graph . ld_tr('', '.de') . '.png'; " . \
    "eval ld_cmd; unset output"

# Print ld_msg to stderr (where gnuplot's print goes) and exit with ld_rc.
ld_fail = "print ld_msg; exit status ld_rc"
