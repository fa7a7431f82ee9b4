/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * rpctab: the blocks of the RPC table of the classic NFS readdir
 * investigations, built from results read back (results.c), for
 * "largedir table" (table.c, text and Markdown) and the comparison page
 * (pagetable.c, HTML).  It neither prints nor exits.
 *
 * One block per n and listing phase (list is ls -f, liststat ls -lU,
 * rmrf rm -rf), n ascending and the phases in that order within an n; a
 * column per target.  Its rows: real, user and sys, the medians of
 * PHASE_ns, _user_ns and _sys_ns over the repetitions of the round at
 * exactly that n (warm-ups left out); one row per NFS procedure in the
 * order of their numbers (results_proc()), the median of its calls over
 * the same repetitions, for the procedures some column called; and loop
 * and lost, the largest PHASE_loop and _lost of the repetitions (one bad
 * repetition is not hidden by a median), when some column has one.
 * Targets that count no calls (local filesystems) keep their column, so
 * they can be compared with NFS: their calls are NAN, as is everything
 * of a target with no round at that n.  Files written before PHASE_loop
 * and _lost existed simply lack those rows.  rpctab_time() is the one
 * rule for printing a time.
 */

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/stats.h"
#include "base/util.h"
#include "record/results.h"
#include "record/rpctab.h"

#define NEAR	1.25	/* how far a page's n may be from a power of ten */
#define MAXDEC	15	/* 10^MAXDEC files: more than any run reaches */

static void	find_n(const struct results *, unsigned, const
		    struct rpctab_want *, double **, size_t *);
static bool	has_phase(const struct results_target *, size_t);
static void	fill(const struct results_target *, size_t, double, double *,
		    double *);
static double	median_of(const struct results_target *, const size_t *,
		    size_t, int, double *);
static double	max_of(const struct results_target *, const size_t *,
		    size_t, int);
static int	cmp_double(const void *, const void *);

static const char *const phase_names[RPCTAB_NPHASES] = {
	"list", "liststat", "rmrf"
};
static const char *const phase_cmds[RPCTAB_NPHASES] = {
	"ls -f", "ls -lU", "rm -rf"
};

/* ===== Building the blocks ===== */

/*
 * Whether some target of 'r' counted the calls of a listing phase: has
 * a PHASE_rpc_PROC column of list, liststat or rmrf.
 */
bool
rpctab_has_calls(const struct results *r)
{
	size_t	i, c, p;

	for (i = 0; i < r->nt; i++)
		for (p = 0; p < RPCTAB_NPHASES; p++)
			for (c = 0; c < r->t[i].ncols; c++)
				if (results_proc(phase_names[p],
				    r->t[i].col[c]) != -1)
					return true;
	return false;
}

/*
 * Build in 't' the blocks of the targets of 'r' that 'want' asks for:
 * the phases of want->phases (0: those some target has a PHASE_ns column
 * of), at every n some target reached in a round that is no warm-up, or
 * only at the n of want->n, or (want->decades, for the page) only at the
 * n nearest each power of ten, within a factor of NEAR, and the largest
 * n if none is that near.  A block no target has a time for is left
 * out.  't' keeps a pointer to 'r'; free it with rpctab_free().
 */
void
rpctab_build(struct rpctab *t, const struct results *r,
    const struct rpctab_want *want)
{
	struct rpctab_block	*b;
	double			*ns, *scratch;
	size_t			 nn, k, p, i, row, cap = 0;
	unsigned		 phases = want->phases;

	memset(t, 0, sizeof(*t));
	t->r = r;
	for (p = 0; p < RPCTAB_NPHASES && want->phases == 0; p++)
		for (i = 0; i < r->nt; i++)
			if (has_phase(&r->t[i], p))
				phases |= 1U << p;
	find_n(r, phases, want, &ns, &nn);
	for (i = 0, k = 1; i < r->nt; i++)
		k = r->t[i].nrows > k ? r->t[i].nrows : k;
	scratch = xreallocarray(NULL, k, sizeof(*scratch));
	for (k = 0; k < nn; k++)
		for (p = 0; p < RPCTAB_NPHASES; p++) {
			if ((phases & (1U << p)) == 0)
				continue;
			if (t->nb == cap) {
				cap = cap == 0 ? 16 : cap * 2;
				t->b = xreallocarray(t->b, cap, sizeof(*t->b));
			}
			b = &t->b[t->nb];
			memset(b, 0, sizeof(*b));
			b->phase = p;
			b->n = ns[k];
			b->v = xreallocarray(NULL, r->nt ? r->nt : 1,
			    RPCTAB_NROWS * sizeof(*b->v));
			for (i = 0; i < r->nt; i++)
				fill(&r->t[i], p, ns[k], b->v + i *
				    RPCTAB_NROWS, scratch);
			for (i = 0; i < r->nt; i++)
				for (row = 0; row < RPCTAB_NROWS; row++)
					if (row < RPCTAB_PROC ? isfinite(
					    b->v[i * RPCTAB_NROWS + row]) :
					    b->v[i * RPCTAB_NROWS + row] >= 0.5)
						b->show[row] = true;
			if (b->show[RPCTAB_REAL])
				t->nb++;
			else
				free(b->v);
		}
	free(scratch);
	free(ns);
}

/* Free what 't' holds (not its results). */
void
rpctab_free(struct rpctab *t)
{
	size_t	k;

	for (k = 0; k < t->nb; k++)
		free(t->b[k].v);
	free(t->b);
	memset(t, 0, sizeof(*t));
}

/* Whether 't' has a PHASE_ns column of listing phase 'p'. */
static bool
has_phase(const struct results_target *t, size_t p)
{
	char	col[32];

	(void)snprintf(col, sizeof(col), "%s_ns", phase_names[p]);
	return results_col(t, col) != -1;
}

/*
 * Put into '*ns' (allocated) and '*nn' the n the blocks are for: those
 * of rows of 'r' that are no warm-up and have a time of one of 'phases',
 * ascending and each once, narrowed as 'want' asks.
 */
static void
find_n(const struct results *r, unsigned phases,
    const struct rpctab_want *want, double **ns, size_t *nn)
{
	const struct results_target	*t;
	const double			*row;
	double				*all = NULL, d, dist, best;
	size_t				 i, k, j = 0, p, cap = 0, n = 0, m;
	int				 cn, cw, ct[RPCTAB_NPHASES];
	char				 col[32];
	bool				 ok;

	for (i = 0; i < r->nt; i++) {
		t = &r->t[i];
		if ((cn = results_col(t, "n")) == -1)
			continue;
		cw = results_col(t, "warmup");
		for (p = 0; p < RPCTAB_NPHASES; p++) {
			(void)snprintf(col, sizeof(col), "%s_ns",
			    phase_names[p]);
			ct[p] = (phases & (1U << p)) != 0 ?
			    results_col(t, col) : -1;
		}
		for (k = 0; k < t->nrows; k++) {
			row = t->cell + k * t->ncols;
			if ((cw != -1 && row[cw] > 0.0) || !(row[cn] > 0.0))
				continue;
			for (ok = false, p = 0; p < RPCTAB_NPHASES; p++)
				ok = ok || (ct[p] != -1 &&
				    isfinite(row[ct[p]]));
			if (!ok)
				continue;
			if (n == cap) {
				cap = cap == 0 ? 64 : cap * 2;
				all = xreallocarray(all, cap, sizeof(*all));
			}
			all[n++] = row[cn];
		}
	}
	if (n > 0)
		qsort(all, n, sizeof(*all), cmp_double);
	for (k = 0, m = 0; k < n; k++)
		if (m == 0 || all[k] != all[m - 1])
			all[m++] = all[k];
	n = m;
	if (want->n != NULL) {
		for (k = 0, m = 0; k < n; k++)
			for (j = 0; j < want->nn; j++)
				if (all[k] == want->n[j]) {
					all[m++] = all[k];
					break;
				}
		n = m;
	}
	if (want->decades && n > 0) {
		/* Each power of ten takes the nearest n, in order. */
		for (m = 0, d = 1.0, i = 0; i <= MAXDEC; i++, d *= 10.0) {
			best = INFINITY;
			for (k = 0; k < n; k++)
				if (all[k] >= d / NEAR && all[k] <= d * NEAR &&
				    (dist = fabs(log(all[k] / d))) < best) {
					best = dist;
					j = k;
				}
			if (isfinite(best) && (m == 0 || all[j] != all[m - 1]))
				all[m++] = all[j];
		}
		if (m == 0)
			all[m++] = all[n - 1];
		n = m;
	}
	*ns = all;
	*nn = n;
}

/*
 * Fill the RPCTAB_NROWS values 'v' of target 't' in listing phase 'p' at
 * 'n' ('scratch' holds a value per row of 't').
 */
static void
fill(const struct results_target *t, size_t p, double n, double *v,
    double *scratch)
{
	const double	*row;
	size_t		*rows, nr = 0, k;
	char		 col[64];
	int		 cn, cw, ct, c, proc;

	for (k = 0; k < RPCTAB_NROWS; k++)
		v[k] = NAN;
	(void)snprintf(col, sizeof(col), "%s_ns", phase_names[p]);
	if ((cn = results_col(t, "n")) == -1 ||
	    (ct = results_col(t, col)) == -1 || t->nrows == 0)
		return;
	cw = results_col(t, "warmup");
	rows = xreallocarray(NULL, t->nrows, sizeof(*rows));
	for (k = 0; k < t->nrows; k++) {
		row = t->cell + k * t->ncols;
		if ((cw == -1 || !(row[cw] > 0.0)) && row[cn] == n &&
		    isfinite(row[ct]))
			rows[nr++] = k;
	}
	if (nr == 0) {
		free(rows);
		return;
	}
	v[RPCTAB_REAL] = median_of(t, rows, nr, ct, scratch);
	(void)snprintf(col, sizeof(col), "%s_user_ns", phase_names[p]);
	v[RPCTAB_USER] = median_of(t, rows, nr, results_col(t, col), scratch);
	(void)snprintf(col, sizeof(col), "%s_sys_ns", phase_names[p]);
	v[RPCTAB_SYS] = median_of(t, rows, nr, results_col(t, col), scratch);
	for (c = 0; c < (int)t->ncols; c++)
		if ((proc = results_proc(phase_names[p], t->col[c])) != -1)
			v[RPCTAB_PROC + proc] = median_of(t, rows, nr, c,
			    scratch);
	(void)snprintf(col, sizeof(col), "%s_loop", phase_names[p]);
	v[RPCTAB_LOOP] = max_of(t, rows, nr, results_col(t, col));
	(void)snprintf(col, sizeof(col), "%s_lost", phase_names[p]);
	v[RPCTAB_LOST] = max_of(t, rows, nr, results_col(t, col));
	free(rows);
}

/*
 * The median of column 'c' of the 'nr' rows 'rows' of 't' that are
 * numbers, or NAN if none is or 'c' is -1.
 */
static double
median_of(const struct results_target *t, const size_t *rows, size_t nr,
    int c, double *scratch)
{
	size_t	k, m = 0;
	double	x;

	for (k = 0; k < nr && c != -1; k++)
		if (isfinite(x = t->cell[rows[k] * t->ncols + (size_t)c]))
			scratch[m++] = x;
	return stats_median(scratch, m);
}

/* The largest of column 'c' of those rows, or NAN. */
static double
max_of(const struct results_target *t, const size_t *rows, size_t nr,
    int c)
{
	size_t	k;
	double	x, best = NAN;

	for (k = 0; k < nr && c != -1; k++)
		if (isfinite(x = t->cell[rows[k] * t->ncols + (size_t)c]) &&
		    (isnan(best) || x > best))
			best = x;
	return best;
}

/* qsort(3) order of doubles, ascending. */
static int
cmp_double(const void *a, const void *b)
{
	double	x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* ===== Names and numbers ===== */

/* The index of listing phase 'name' (list, liststat, rmrf), or -1. */
int
rpctab_phase(const char *name)
{
	size_t	p;

	for (p = 0; p < RPCTAB_NPHASES; p++)
		if (strcmp(name, phase_names[p]) == 0)
			return (int)p;
	return -1;
}

/* The name of listing phase 'p' ("list"); static. */
const char *
rpctab_phase_name(size_t p)
{
	return p < RPCTAB_NPHASES ? phase_names[p] : "?";
}

/* The classic command listing phase 'p' stands for ("ls -f"); static. */
const char *
rpctab_phase_cmd(size_t p)
{
	return p < RPCTAB_NPHASES ? phase_cmds[p] : "?";
}

/* The name row 'row' prints with: "real", "READDIR", "loop"; static. */
const char *
rpctab_row_name(size_t row)
{
	static const char *const times[] = { "real", "user", "sys" };

	if (row < RPCTAB_PROC)
		return times[row];
	if (row < RPCTAB_LOOP)
		return results_proc_name(row - RPCTAB_PROC);
	return row == RPCTAB_LOOP ? "loop" : row == RPCTAB_LOST ? "lost" : "?";
}

/*
 * How to print the time 'ns': '*v' in the unit '*unit' ("s", "ms" or
 * "\u00b5s", static) with '*dec' decimals, three significant digits in
 * the largest unit that keeps the figure at 1 or more, whole seconds
 * from 1,000 s on; 0 is "0 s".  Return false, and set nothing, if 'ns'
 * is no number.
 */
bool
rpctab_time(double ns, double *v, int *dec, const char **unit)
{
	static const char *const units[] = { "s", "ms", "\u00b5s", "ns" };
	double	s, r, scale, q;
	size_t	u;

	if (!isfinite(ns))
		return false;
	s = ns / 1e9;
	*unit = "s";
	*dec = 0;
	if (!(s > 0.0) || s >= 999.5) {
		*v = s > 0.0 ? round(s) : 0.0;
		return true;
	}
	q = pow(10.0, floor(log10(s)) - 2.0);
	r = round(s / q) * q;
	for (u = 0, scale = 1.0; u < 3 && r < scale * (1.0 - 1e-9); u++)
		scale /= 1000.0;
	*v = r / scale;
	*unit = units[u];
	*dec = *v >= 99.95 ? 0 : *v >= 9.995 ? 1 : 2;
	return true;
}
