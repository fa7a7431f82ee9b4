# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The largedir authors
#
# scan.awk: read the largedir results named on the command line (LABEL.out,
# and LABEL.summary next to it if there is one) and print gnuplot
# assignments that tell common.gp what there is to draw.  The graph
# scripts run it through system() and eval its output, so that a file
# without rows, a phase without values or a single round never reaches a
# plot command (gnuplot would warn, or fail on an empty range).
#
#	awk -f scan.awk DIR/a.out DIR/b.out ...
#	awk -v ld_keys='KEY...' -f scan.awk DIR/a.out
#
# Files that cannot be read or whose name is not a largedir label are
# left out.  Columns are found by name in each file's header line.
# Printed (each value only from rows that are not warm-up rows, with a
# positive n and a positive rate):
#
#	ld_nfiles	how many files had a header line
#	ld_labels	the labels with at least one value, sorted
#	ld_phases	the phases with at least one value in some file, in
#			largedir's order; phases it does not know come last
#	ld_has		" L:P ..." for each label L with values for phase P
#	ld_sum		" L:P ..." where L.summary has a median, min and max
#	ld_rep		" L ..." for each label with repetitions (an n twice)
#	ld_cut		" L ..." for each label whose .out or .summary has a
#			row of the wrong width (cut off by a crash)
#	ld_nmin ld_nmax	the smallest and largest n
#	ld_ymin ld_ymax	the smallest and largest rate, over all phases
#	ld_ymin_P ld_ymax_P	the same for phase P alone, for each phase
#	ld_kneen	" L:P=N ..." where L's "# knee_P: N" gives a knee at
#			n = N (a positive number) and L has values for P
#	ld_decline	" L:P ..." where L's "# knee_P: decline"
#	ld_sampled	" L ..." where L has an open_boxed_round_K key: a
#			round whose open phase opened a random sample
#
# Other knee_P values (none, too-few-rounds...) and knee_P_before and
# knee_P_after are not drawn.
#
# All on one line, for eval, separated by "; ".  Only names that scan.awk
# checked (labels, phases) and numbers are in it: text a person wrote
# (a description, a stop reason) never goes through gnuplot's parser.
# That comes with ld_keys instead: the value of the first of the keys
# (words) that the last file has, as it is, for system() to return as a
# string.

BEGIN {
	if (ld_keys != "") {
		print_key(ld_keys)
		exit 0
	}
	nknown = split("create open list liststat delete rmrf mkdir", known, " ")
	for (i = 1; i <= nknown; i++)
		rank[known[i]] = i
	nphases = 0
	labels = has = sum = rep = cut = ""
	kneen = decline = sampled = ""
	nmin = nmax = ymin = ymax = ""
	nfiles = 0
	# By label, whatever order the shell's glob had in its locale.
	for (a = 2; a < ARGC; a++) {
		arg = ARGV[a]
		for (b = a - 1; b >= 1 && labelof(ARGV[b]) > labelof(arg); b--)
			ARGV[b + 1] = ARGV[b]
		ARGV[b + 1] = arg
	}
	for (a = 1; a < ARGC; a++)
		scan(ARGV[a])
	# Phases in largedir's order, unknown ones after them, as found.
	order = ""
	for (i = 1; i <= nknown; i++)
		if (known[i] in found)
			order = order " " known[i]
	for (i = 1; i <= nphases; i++)
		if (!(phase[i] in rank))
			order = order " " phase[i]
	printf "ld_nfiles = %d; ", nfiles
	printf "ld_labels = '%s'; ", substr(labels, 2)
	printf "ld_phases = '%s'; ", substr(order, 2)
	printf "ld_has = '%s '; ", has
	printf "ld_sum = '%s '; ", sum
	printf "ld_rep = '%s '; ", rep
	printf "ld_cut = '%s '; ", cut
	printf "ld_nmin = %s; ld_nmax = %s; ", num(nmin), num(nmax)
	printf "ld_ymin = %s; ld_ymax = %s; ", num(ymin), num(ymax)
	for (i = 1; i <= nphases; i++)
		printf "ld_ymin_%s = %s; ld_ymax_%s = %s; ", phase[i],
		    num(pymin[phase[i]]), phase[i], num(pymax[phase[i]])
	printf "ld_kneen = '%s '; ", kneen
	printf "ld_decline = '%s '; ", decline
	printf "ld_sampled = '%s '; ", sampled
	printf "\n"
	exit 0
}

# scan(path): read one LABEL.out and its LABEL.summary.
function scan(path,    label, line, nf, f, col, ncol, i, p, v, n,
    count, seen, fhas, fphases, fnphases, meta, key, hdr, sumpath, ok,
    short, k) {
	if (path !~ /\.out$/)
		return
	label = labelof(path)
	if (label !~ /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/)
		return
	hdr = 0
	fnphases = 0
	ok = 0
	while ((getline line < path) > 0) {
		if (line ~ /^#/) {
			# "# key: value"
			key = line
			sub(/^# */, "", key)
			i = index(key, ": ")
			if (i > 0)
				meta[substr(key, 1, i - 1)] = substr(key, i + 2)
			continue
		}
		nf = split(line, f, " ")
		if (nf == 0)
			continue
		if (!hdr) {
			hdr = 1
			ncol = nf
			for (i = 1; i <= nf; i++) {
				col[f[i]] = i
				if (f[i] ~ /^[a-z0-9]+_per_s$/) {
					p = f[i]
					sub(/_per_s$/, "", p)
					fphases[++fnphases] = p
				}
			}
			if (!("n" in col) || !("warmup" in col))
				break
			continue
		}
		# A short line is a row cut off by a crash: skip it.
		if (nf != ncol) {
			short = 1
			continue
		}
		if (f[col["warmup"]] != "0" || !pos(f[col["n"]]))
			continue
		n = f[col["n"]] + 0
		for (i = 1; i <= fnphases; i++) {
			p = fphases[i]
			v = f[col[p "_per_s"]]
			if (!pos(v))
				continue
			v += 0
			fhas[p] = 1
			ok = 1
			nmin = min(nmin, n)
			nmax = max(nmax, n)
			ymin = min(ymin, v)
			ymax = max(ymax, v)
			pymin[p] = min(pymin[p], v)
			pymax[p] = max(pymax[p], v)
		}
		if (++count[n] == 2)
			seen = 1
	}
	close(path)
	if (!hdr)
		return
	nfiles++
	if (!ok)
		return
	labels = labels " " label
	if (seen)
		rep = rep " " label
	for (key in meta)
		if (key ~ /^open_boxed_round_[0-9]+$/) {
			sampled = sampled " " label
			break
		}
	for (i = 1; i <= fnphases; i++) {
		p = fphases[i]
		if (!(p in fhas))
			continue
		has = has " " label ":" p
		k = ("knee_" p) in meta ? meta["knee_" p] : ""
		if (pos(k))
			kneen = kneen " " label ":" p "=" num(k + 0)
		else if (k == "decline")
			decline = decline " " label ":" p
		if (!(p in found)) {
			found[p] = 1
			phase[++nphases] = p
		}
	}
	sumpath = path
	sub(/\.out$/, ".summary", sumpath)
	if (scan_summary(sumpath, label, fhas) || short)
		cut = cut " " label
}

# scan_summary(path, label, fhas): note the phases of 'label' for which
# the summary at 'path' has a usable median with its min and max.
# Return whether it has a row of the wrong width.
function scan_summary(path, label, fhas,    line, nf, f, col, hdr, ncol,
    p, i, done, short) {
	hdr = 0
	while ((getline line < path) > 0) {
		if (line ~ /^#/)
			continue
		nf = split(line, f, " ")
		if (nf == 0)
			continue
		if (!hdr) {
			hdr = 1
			ncol = nf
			for (i = 1; i <= nf; i++)
				col[f[i]] = i
			if (!("n" in col))
				break
			continue
		}
		if (nf != ncol)
			short = 1
		if (nf != ncol || !pos(f[col["n"]]))
			continue
		for (p in fhas) {
			if (p in done || !((p "_per_s_median") in col) ||
			    !((p "_per_s_min") in col) ||
			    !((p "_per_s_max") in col))
				continue
			if (pos(f[col[p "_per_s_median"]]) &&
			    pos(f[col[p "_per_s_min"]]) &&
			    pos(f[col[p "_per_s_max"]])) {
				done[p] = 1
				sum = sum " " label ":" p
			}
		}
	}
	close(path)
	return short
}

# labelof(path): the label part of 'path', for sorting.
function labelof(path) {
	sub(/.*\//, "", path)
	sub(/\.out$/, "", path)
	return path
}

# pos(s): whether 's' is a plain decimal number above zero (not NaN).
function pos(s) {
	return s ~ /^[0-9]*\.?[0-9]+([eE][-+]?[0-9]+)?$/ && s + 0 > 0
}

function min(a, b) {
	return (a == "" || b < a) ? b : a
}

function max(a, b) {
	return (a == "" || b > a) ? b : a
}

# num(x): 'x' for gnuplot, NaN if there was none.
function num(x) {
	return x == "" ? "NaN" : sprintf("%.17g", x)
}

# print_key(keys): print the value of the first of 'keys' (words) that
# the "# key: value" lines of the last file named hold, as it is.
function print_key(keys,    k, nk, a, line, i, key, meta, path) {
	path = ARGV[ARGC - 1]
	if (ARGC < 2 || labelof(path) !~ /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/)
		return
	while ((getline line < path) > 0) {
		if (line !~ /^#/)
			continue
		key = line
		sub(/^# */, "", key)
		i = index(key, ": ")
		if (i > 0)
			meta[substr(key, 1, i - 1)] = substr(key, i + 2)
	}
	close(path)
	nk = split(keys, k, " ")
	for (a = 1; a <= nk; a++)
		if (k[a] in meta) {
			print meta[k[a]]
			return
		}
}
