/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * record: see record.h.  The three tables below are the whole list of
 * columns a run writes; output.c's writers print whatever they hold.
 */

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "record/record.h"

/* A column: its name (or suffix), decimals (-1: integer), its field. */
struct column {
	const char	*name;
	int		 prec;
	size_t		 off;
};

#define REP(f, p)	{ #f, p, offsetof(struct rep_rec, f) }
#define PH(f, p)	{ #f, p, offsetof(struct phase_rec, f) }

/* The columns of a repetition, before the phases'. */
static const struct column rep_cols[] = {
	REP(round, -1), REP(rep, -1), REP(warmup, -1), REP(n, -1),
	REP(round_ns, -1), REP(sync_ns, -1),
	REP(load1_start, 2), REP(load1_end, 2),
};

/* The columns of each phase: "PHASE_" and the suffix. */
static const struct column phase_cols[] = {
	PH(ns, -1), PH(per_s, 1), PH(ops, -1), PH(user_ns, -1),
	PH(sys_ns, -1),
	PH(vcsw, -1), PH(ivcsw, -1), PH(inblock, -1), PH(oublock, -1),
	PH(p50_ns, -1), PH(p90_ns, -1), PH(p99_ns, -1), PH(p999_ns, -1),
	PH(max_ns, -1),
	PH(dentries, -1), PH(dentries_unused, -1), PH(inodes, -1),
	PH(dentry_objs, -1), PH(inode_objs, -1), PH(mem_avail_kib, -1),
	PH(sectors_read, -1), PH(sectors_written, -1),
	PH(cold_ns, -1), PH(memcg_peak_kib, -1), PH(stopped, -1),
	PH(loop, -1), PH(lost, -1), PH(churn_made, -1), PH(churn_removed, -1),
};

#define NELEM(a)	(sizeof(a) / sizeof((a)[0]))

_Static_assert(sizeof(struct phase_rec) % sizeof(double) == 0,
    "struct phase_rec holds doubles only (record_phase_init)");

static double	field(const void *, const struct column *);
static bool	tree(const enum phase *, size_t);
static void	sort_points(double *, double *, size_t);

/*
 * Say in the metadata 'kv' how the columns were measured: the clock, the
 * rusage deltas, the chained latencies and the cache counters.
 */
void
record_describe(struct kvlist *kv)
{
	kv_set(kv, "clock", "CLOCK_MONOTONIC");
	kv_set(kv, "rusage", "RUSAGE_SELF deltas per phase; blocks in "
	    "512-byte units");
	kv_set(kv, "latency", "per operation, chained: from the end of "
	    "the previous operation to the end of this one");
	kv_set(kv, "caches", "PHASE_dentries, _inodes, _dentry_objs, "
	    "_inode_objs and _mem_avail_kib are machine-wide, read at the "
	    "start of the phase; _sectors_read and _sectors_written are the "
	    "target device's, during the phase");
	kv_set(kv, "stopped", "PHASE_stopped is 1 when the phase lost "
	    "time: largedir was stopped (SIGCONT came), or more than %.0f%% "
	    "of its time, and over 1s, went neither to the CPU nor to waits "
	    "that would explain it (a paused machine)", 100 *
	    RECORD_LOST_SHARE);
	kv_set(kv, "listing", "every listing checks itself (list, "
	    "liststat, each pass of rmrf): PHASE_loop is the entry at which "
	    "it went round (a name came twice, more entries than there are, "
	    "or the server handed out a cookie twice; the listing stopped "
	    "there), else 0; PHASE_lost the files it never saw; empty for "
	    "the other phases");
	kv_set(kv, "churn", "with --churn, PHASE_churn_made and "
	    "PHASE_churn_removed count the files another process made and "
	    "removed in the directory while list, liststat or rmrf read it, "
	    "on a connection of its own where the backend has one; empty "
	    "otherwise");
}

/*
 * Whether phase 'ph' lost time to something other than its work: more
 * than RECORD_LOST_SHARE of its wall time, and more than a second, spent
 * neither on the CPU nor in context switches (voluntary or not) that
 * could each account for up to RECORD_SWITCH_NS of waiting.  A process
 * stopped by SIGSTOP, or a virtual machine paused by its host, loses
 * seconds with hardly a switch; a phase that waits for the disk switches
 * once per wait.
 */
bool
record_lost_time(const struct phase_rec *ph)
{
	double	lost;

	lost = ph->ns - ph->user_ns - ph->sys_ns;
	return lost > 1e9 && lost > RECORD_LOST_SHARE * ph->ns &&
	    (ph->vcsw + ph->ivcsw) * RECORD_SWITCH_NS < lost;
}

/* Say in the metadata 'kv' what --cold 'cold' did before the phases. */
void
record_describe_cold(struct kvlist *kv, enum config_cold cold)
{
	kv_set(kv, "cold", "%s%s", cold == CONFIG_COLD_NONE ? "none: each "
	    "phase sees what create left in the caches" : cold ==
	    CONFIG_COLD_DROP ? "drop: syncfs and drop_caches=2 (dentries and "
	    "inodes, not the page cache) before each phase after the first "
	    "(create; mkdir in a tree)" : cold == CONFIG_COLD_ALL ? "all: "
	    "syncfs and drop_caches=3 (dentries, inodes and the page cache) "
	    "before each phase after the first (create; mkdir in a tree)" :
	    "remount: unmount and mount before each phase after the first "
	    "(create; mkdir in a tree)", cold == CONFIG_COLD_NONE ? "" :
	    "; PHASE_cold_ns is its time, outside the phase");
}

/* Set every field of 'ph' to NAN: nothing measured yet. */
void
record_phase_init(struct phase_rec *ph)
{
	double	*f = (double *)ph;
	size_t	 i;

	for (i = 0; i < sizeof(*ph) / sizeof(double); i++)
		f[i] = NAN;
}

/*
 * Lay out the columns of 'doc': a repetition's own, then for each of the
 * 'np' phases 'phases' the phase columns and one per name of 'extra'
 * ('nextra' names: "cycles_user", ...); and the summary's round, n,
 * reps and per phase the median, min and max rate.  The tables must
 * have no columns yet.
 */
void
record_columns(struct output_doc *doc, const enum phase *phases, size_t np,
    const char *const *extra, size_t nextra)
{
	struct output_table	*t = &doc->rows, *s = &doc->summary;
	char			 name[96];
	const char		*pn;
	size_t			 i, j;

	for (j = 0; j < NELEM(rep_cols); j++) {
		(void)output_table_col(t, rep_cols[j].name, rep_cols[j].prec);
		if (strcmp(rep_cols[j].name, "n") == 0 && tree(phases, np))
			(void)output_table_col(t, "dirs", -1);
	}
	(void)output_table_col(s, "round", -1);
	(void)output_table_col(s, "n", -1);
	if (tree(phases, np))
		(void)output_table_col(s, "dirs", -1);
	(void)output_table_col(s, "reps", -1);
	for (i = 0; i < np; i++) {
		pn = phase_name(phases[i]);
		for (j = 0; j < NELEM(phase_cols); j++) {
			(void)snprintf(name, sizeof(name), "%s_%s", pn,
			    phase_cols[j].name);
			(void)output_table_col(t, name, phase_cols[j].prec);
		}
		for (j = 0; j < nextra && j < RECORD_MAX_EXTRA; j++) {
			(void)snprintf(name, sizeof(name), "%s_%s", pn,
			    extra[j]);
			/* Counts, but the rates of several clients. */
			(void)output_table_col(t, name, strstr(extra[j],
			    "_per_s") != NULL ? 1 : -1);
		}
		(void)snprintf(name, sizeof(name), "%s_per_s_median", pn);
		(void)output_table_col(s, name, 1);
		(void)snprintf(name, sizeof(name), "%s_per_s_min", pn);
		(void)output_table_col(s, name, 1);
		(void)snprintf(name, sizeof(name), "%s_per_s_max", pn);
		(void)output_table_col(s, name, 1);
	}
}

/*
 * Whether the 'np' phases 'phases' are of the tree layout (its first is
 * mkdir): then a row has a "dirs" column after "n".
 */
static bool
tree(const enum phase *phases, size_t np)
{
	return np > 0 && phases[0] == PHASE_MKDIR;
}

/* The field of 'rec' that column 'c' names. */
static double
field(const void *rec, const struct column *c)
{
	double	v;

	memcpy(&v, (const char *)rec + c->off, sizeof(v));
	return v;
}

/*
 * Add 'r' as a row of 'doc' laid out by record_columns() with the same
 * 'np' phases and 'nextra' extra values.
 */
void
record_rep(struct output_doc *doc, const struct rep_rec *r,
    const enum phase *phases, size_t np, size_t nextra)
{
	const struct phase_rec	*ph;
	double			*row;
	size_t			 i, j, c = 0;

	row = output_table_row(&doc->rows);
	for (j = 0; j < NELEM(rep_cols); j++) {
		row[c++] = field(r, &rep_cols[j]);
		if (strcmp(rep_cols[j].name, "n") == 0 && tree(phases, np))
			row[c++] = r->dirs;
	}
	for (i = 0; i < np; i++) {
		ph = &r->phase[phases[i]];
		for (j = 0; j < NELEM(phase_cols); j++)
			row[c++] = field(ph, &phase_cols[j]);
		for (j = 0; j < nextra && j < RECORD_MAX_EXTRA; j++)
			row[c++] = ph->extra[j];
	}
}

/*
 * Add 'r' as a row of the summary of 'doc' (the same 'np' phases), in
 * the order of n.
 */
void
record_round(struct output_doc *doc, const struct round_rec *r,
    const enum phase *phases, size_t np)
{
	struct output_table	*t;
	double			*row, tmp[4 + 3 * PHASE_COUNT + 1];
	size_t			 i, j, c = 0;

	row = output_table_row(&doc->summary);
	row[c++] = r->round;
	row[c++] = r->n;
	if (tree(phases, np))
		row[c++] = r->dirs;
	row[c++] = r->reps;
	for (i = 0; i < np; i++) {
		row[c++] = r->median[phases[i]];
		row[c++] = r->min[phases[i]];
		row[c++] = r->max[phases[i]];
	}
	/* By n: a round below a larger one (refine) goes in between. */
	t = &doc->summary;
	for (j = t->nrows - 1; j > 0 && t->cells[(j - 1) * t->ncols + 1] >
	    r->n; j--)
		;
	if (j + 1 < t->nrows) {
		memcpy(tmp, row, c * sizeof(*tmp));
		memmove(t->cells + (j + 1) * t->ncols, t->cells + j * t->ncols,
		    (t->nrows - 1 - j) * t->ncols * sizeof(*t->cells));
		memcpy(t->cells + j * t->ncols, tmp, c * sizeof(*tmp));
	}
}

/* Sort the 'm' points ('n', 'rate') by n: an insertion sort, m is small. */
static void
sort_points(double *n, double *rate, size_t m)
{
	double	x, y;
	size_t	i, j;

	for (i = 1; i < m; i++) {
		x = n[i];
		y = rate[i];
		for (j = i; j > 0 && n[j - 1] > x; j--) {
			n[j] = n[j - 1];
			rate[j] = rate[j - 1];
		}
		n[j] = x;
		rate[j] = y;
	}
}

/*
 * Find the knee of phase 'pn' in the rows 't' (stats_knee() with
 * 'fraction'): its rates against n, warm-up rows and rows without a rate
 * left out, sorted by n (a time-boxed round may be smaller than the one
 * before).  Return 0 with 'k' filled, or -1 if 't' has no such phase or
 * stats_knee() refuses.
 */
int
record_knee(const struct output_table *t, const char *pn, double fraction,
    struct stats_knee *k)
{
	const double	*row;
	double		*n, *rate;
	char		 name[64];
	size_t		 i, j, m, col = SIZE_MAX, cn = SIZE_MAX, cw = SIZE_MAX;
	int		 rc;

	(void)snprintf(name, sizeof(name), "%s_per_s", pn);
	for (i = 0; i < t->ncols; i++) {
		if (strcmp(t->cols[i].name, name) == 0)
			col = i;
		else if (strcmp(t->cols[i].name, "n") == 0)
			cn = i;
		else if (strcmp(t->cols[i].name, "warmup") == 0)
			cw = i;
	}
	if (col == SIZE_MAX || cn == SIZE_MAX || cw == SIZE_MAX)
		return -1;
	n = xreallocarray(NULL, t->nrows + 1, sizeof(*n));
	rate = xreallocarray(NULL, t->nrows + 1, sizeof(*rate));
	for (j = m = 0; j < t->nrows; j++) {
		row = t->cells + j * t->ncols;
		if (row[cw] != 0 || !isfinite(row[col]))
			continue;
		n[m] = row[cn];
		rate[m++] = row[col];
	}
	sort_points(n, rate, m);
	rc = stats_knee(n, rate, m, fraction, k);
	free(n);
	free(rate);
	return rc;
}
