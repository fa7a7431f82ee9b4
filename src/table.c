/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * table: the RPC table of the classic NFS readdir investigations, and
 * "largedir table [--format text|md] [--phases LIST] [--n N[,N...]]
 * RESULTS...", which prints it (a front-end: it prints and returns the
 * exit status).  The comparison page shows the same blocks
 * (pagetable.c).
 *
 * One block per n and listing phase (list is ls -f, liststat ls -lU,
 * rmrf rm -rf), n ascending and the phases in that order within an n; a
 * column per target.  Its rows: real, user and sys, the medians of
 * PHASE_ns, _user_ns and _sys_ns over the repetitions of the round at
 * exactly that n (warm-ups left out); one row per NFSv3 procedure in the
 * order of their numbers (results_proc()), the median of its calls over
 * the same repetitions, for the procedures some column called; and loop
 * and lost, the largest PHASE_loop and _lost of the repetitions (one bad
 * repetition is not hidden by a median), when some column has one.
 * Targets that count no calls (local filesystems) keep their column, so
 * they can be compared with NFS: their calls are NAN, printed "-", as
 * is everything of a target with no round at that n.  Files written
 * before PHASE_loop and _lost existed simply lack those rows.
 *
 * Times print with three significant digits in s, ms, µs or ns, whichever
 * keeps the figure at 1 or more, and in whole seconds from 1,000 s on
 * (table_time()); counts as integers with thousands separators.
 */

#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report.h"
#include "results.h"
#include "stats.h"
#include "table.h"
#include "util.h"

#define NEAR	1.25	/* how far a page's n may be from a power of ten */
#define MAXDEC	15	/* 10^MAXDEC files: more than any run reaches */
#define GAP	3	/* spaces between the columns of the text */
#define CELL	48

struct cells {
	size_t	 nrows;
	double	*v;	/* scratch for the values of the repetitions */
};

static void	find_n(const struct results *, unsigned, const
		    struct table_want *, double **, size_t *);
static bool	has_phase(const struct results_target *, size_t);
static void	fill(const struct results_target *, size_t, double, double *,
		    double *);
static double	median_of(const struct results_target *, const size_t *,
		    size_t, int, double *);
static double	max_of(const struct results_target *, const size_t *,
		    size_t, int);
static int	cmp_double(const void *, const void *);
static void	cell(char *, size_t, const struct table_block *, size_t,
		    size_t);
static void	fmt_num(char *, size_t, double, int);
static size_t	width(const char *);
static void	pad(FILE *, size_t);
static void	heading(char *, size_t, const struct table_block *);
static void	put_text(FILE *, const struct table *,
		    const struct table_block *);
static void	put_md(FILE *, const struct table *,
		    const struct table_block *);
static void	put_md_text(FILE *, const char *);
static void	usage(void);
static unsigned	parse_phases(const char *);
static double	*parse_ns(const char *, size_t *);
static void	read_arg(struct results *, const char *);
static void	check_target(const struct results_target *, const char *);
static void	add_targets(struct results *, struct results *,
		    const char *);
static void	unique_labels(struct results *, char **, size_t);

static const char *const phase_names[TABLE_NPHASES] = {
	"list", "liststat", "rmrf"
};
static const char *const phase_cmds[TABLE_NPHASES] = {
	"ls -f", "ls -lU", "rm -rf"
};

/* ===== Building the blocks ===== */

/*
 * Whether some target of 'r' counted the calls of a listing phase: has
 * a PHASE_rpc_PROC column of list, liststat or rmrf.
 */
bool
table_has_calls(const struct results *r)
{
	size_t	i, c, p;

	for (i = 0; i < r->nt; i++)
		for (p = 0; p < TABLE_NPHASES; p++)
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
 * out.  't' keeps a pointer to 'r'; free it with table_free().
 */
void
table_build(struct table *t, const struct results *r,
    const struct table_want *want)
{
	struct table_block	*b;
	double			*ns, *scratch;
	size_t			 nn, k, p, i, row, cap = 0;
	unsigned		 phases = want->phases;

	memset(t, 0, sizeof(*t));
	t->r = r;
	for (p = 0; p < TABLE_NPHASES && want->phases == 0; p++)
		for (i = 0; i < r->nt; i++)
			if (has_phase(&r->t[i], p))
				phases |= 1U << p;
	find_n(r, phases, want, &ns, &nn);
	for (i = 0, k = 1; i < r->nt; i++)
		k = r->t[i].nrows > k ? r->t[i].nrows : k;
	scratch = xreallocarray(NULL, k, sizeof(*scratch));
	for (k = 0; k < nn; k++)
		for (p = 0; p < TABLE_NPHASES; p++) {
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
			    TABLE_NROWS * sizeof(*b->v));
			for (i = 0; i < r->nt; i++)
				fill(&r->t[i], p, ns[k], b->v + i *
				    TABLE_NROWS, scratch);
			for (i = 0; i < r->nt; i++)
				for (row = 0; row < TABLE_NROWS; row++)
					if (row < TABLE_PROC ? isfinite(
					    b->v[i * TABLE_NROWS + row]) :
					    b->v[i * TABLE_NROWS + row] >= 0.5)
						b->show[row] = true;
			if (b->show[TABLE_REAL])
				t->nb++;
			else
				free(b->v);
		}
	free(scratch);
	free(ns);
}

/* Free what 't' holds (not its results). */
void
table_free(struct table *t)
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
    const struct table_want *want, double **ns, size_t *nn)
{
	const struct results_target	*t;
	const double			*row;
	double				*all = NULL, d, dist, best;
	size_t				 i, k, j = 0, p, cap = 0, n = 0, m;
	int				 cn, cw, ct[TABLE_NPHASES];
	char				 col[32];
	bool				 ok;

	for (i = 0; i < r->nt; i++) {
		t = &r->t[i];
		if ((cn = results_col(t, "n")) == -1)
			continue;
		cw = results_col(t, "warmup");
		for (p = 0; p < TABLE_NPHASES; p++) {
			(void)snprintf(col, sizeof(col), "%s_ns",
			    phase_names[p]);
			ct[p] = (phases & (1U << p)) != 0 ?
			    results_col(t, col) : -1;
		}
		for (k = 0; k < t->nrows; k++) {
			row = t->cell + k * t->ncols;
			if ((cw != -1 && row[cw] > 0.0) || !(row[cn] > 0.0))
				continue;
			for (ok = false, p = 0; p < TABLE_NPHASES; p++)
				ok = ok || (ct[p] != -1 && isfinite(row[ct[p]]));
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
 * Fill the TABLE_NROWS values 'v' of target 't' in listing phase 'p' at
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

	for (k = 0; k < TABLE_NROWS; k++)
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
	v[TABLE_REAL] = median_of(t, rows, nr, ct, scratch);
	(void)snprintf(col, sizeof(col), "%s_user_ns", phase_names[p]);
	v[TABLE_USER] = median_of(t, rows, nr, results_col(t, col), scratch);
	(void)snprintf(col, sizeof(col), "%s_sys_ns", phase_names[p]);
	v[TABLE_SYS] = median_of(t, rows, nr, results_col(t, col), scratch);
	for (c = 0; c < (int)t->ncols; c++)
		if ((proc = results_proc(phase_names[p], t->col[c])) != -1)
			v[TABLE_PROC + proc] = median_of(t, rows, nr, c,
			    scratch);
	(void)snprintf(col, sizeof(col), "%s_loop", phase_names[p]);
	v[TABLE_LOOP] = max_of(t, rows, nr, results_col(t, col));
	(void)snprintf(col, sizeof(col), "%s_lost", phase_names[p]);
	v[TABLE_LOST] = max_of(t, rows, nr, results_col(t, col));
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
table_phase(const char *name)
{
	size_t	p;

	for (p = 0; p < TABLE_NPHASES; p++)
		if (strcmp(name, phase_names[p]) == 0)
			return (int)p;
	return -1;
}

/* The name of listing phase 'p' ("list"); static. */
const char *
table_phase_name(size_t p)
{
	return p < TABLE_NPHASES ? phase_names[p] : "?";
}

/* The classic command listing phase 'p' stands for ("ls -f"); static. */
const char *
table_phase_cmd(size_t p)
{
	return p < TABLE_NPHASES ? phase_cmds[p] : "?";
}

/* The name row 'row' prints with: "real", "READDIR", "loop"; static. */
const char *
table_row_name(size_t row)
{
	static const char *const times[] = { "real", "user", "sys" };

	if (row < TABLE_PROC)
		return times[row];
	if (row < TABLE_LOOP)
		return results_proc_name(row - TABLE_PROC);
	return row == TABLE_LOOP ? "loop" : row == TABLE_LOST ? "lost" : "?";
}

/*
 * How to print the time 'ns': '*v' in the unit '*unit' ("s", "ms" or
 * "\u00b5s", static) with '*dec' decimals, three significant digits in
 * the largest unit that keeps the figure at 1 or more, whole seconds
 * from 1,000 s on; 0 is "0 s".  Return false, and set nothing, if 'ns'
 * is no number.
 */
bool
table_time(double ns, double *v, int *dec, const char **unit)
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

/* Print into 'buf' 'v' with 'dec' decimals and thousands separators. */
static void
fmt_num(char *buf, size_t size, double v, int dec)
{
	char	tmp[CELL], *dot;
	size_t	nint, i, o = 0;

	(void)snprintf(tmp, sizeof(tmp), "%.*f", dec, v);
	dot = strchr(tmp, '.');
	nint = dot != NULL ? (size_t)(dot - tmp) : strlen(tmp);
	for (i = 0; tmp[i] != '\0' && o + 2 < size; i++) {
		if (i > 0 && i < nint && tmp[i - 1] != '-' &&
		    (nint - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = tmp[i];
	}
	buf[o] = '\0';
}

/* Print into 'buf' the value of target 'i' in row 'row' of block 'b'. */
static void
cell(char *buf, size_t size, const struct table_block *b, size_t i,
    size_t row)
{
	const char	*unit;
	double		 v, x = b->v[i * TABLE_NROWS + row];
	int		 dec;
	size_t		 len;

	if (!isfinite(x)) {
		(void)snprintf(buf, size, "-");
		return;
	}
	if (row < TABLE_PROC) {
		(void)table_time(x, &v, &dec, &unit);
		fmt_num(buf, size, v, dec);
		len = strlen(buf);
		(void)snprintf(buf + len, size - len, " %s", unit);
		return;
	}
	fmt_num(buf, size, floor(x + 0.5), 0);
}

/* The width of the UTF-8 text 's' on a terminal: its characters. */
static size_t
width(const char *s)
{
	size_t	w = 0;

	for (; *s != '\0'; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			w++;
	return w;
}

/* Print 'n' spaces. */
static void
pad(FILE *fp, size_t n)
{
	while (n-- > 0)
		(void)putc(' ', fp);
}

/* The heading of block 'b': "ls -f (list), n = 1,000". */
static void
heading(char *buf, size_t size, const struct table_block *b)
{
	char	n[CELL];

	fmt_num(n, sizeof(n), b->n, 0);
	(void)snprintf(buf, size, "%s (%s), n = %s", phase_cmds[b->phase],
	    phase_names[b->phase], n);
}

/* ===== Printing ===== */

/*
 * Print the blocks of 't' as 'format' asks: plain text with aligned
 * columns, or a Markdown pipe table under a heading line per block; an
 * empty line between blocks.  Errors show in ferror(3).
 */
void
table_put(FILE *fp, const struct table *t, enum table_format format)
{
	size_t	k;

	for (k = 0; k < t->nb; k++) {
		if (k > 0)
			(void)putc('\n', fp);
		if (format == TABLE_MD)
			put_md(fp, t, &t->b[k]);
		else
			put_text(fp, t, &t->b[k]);
	}
}

/* Print block 'b' as text: the heading and the labels, then the rows. */
static void
put_text(FILE *fp, const struct table *t, const struct table_block *b)
{
	char	 head[128], buf[CELL];
	size_t	*w, w0, i, row, x;

	heading(head, sizeof(head), b);
	w0 = width(head);
	w = xreallocarray(NULL, t->r->nt ? t->r->nt : 1, sizeof(*w));
	for (row = 0; row < TABLE_NROWS; row++)
		if (b->show[row] && (x = 2 + strlen(table_row_name(row))) > w0)
			w0 = x;
	for (i = 0; i < t->r->nt; i++) {
		w[i] = width(t->r->t[i].label);
		for (row = 0; row < TABLE_NROWS; row++) {
			if (!b->show[row])
				continue;
			cell(buf, sizeof(buf), b, i, row);
			w[i] = width(buf) > w[i] ? width(buf) : w[i];
		}
	}
	(void)fprintf(fp, "%s", head);
	pad(fp, w0 - width(head));
	for (i = 0; i < t->r->nt; i++) {
		pad(fp, GAP + w[i] - width(t->r->t[i].label));
		(void)fprintf(fp, "%s", t->r->t[i].label);
	}
	(void)putc('\n', fp);
	for (row = 0; row < TABLE_NROWS; row++) {
		if (!b->show[row])
			continue;
		(void)fprintf(fp, "  %s", table_row_name(row));
		pad(fp, w0 - 2 - strlen(table_row_name(row)));
		for (i = 0; i < t->r->nt; i++) {
			cell(buf, sizeof(buf), b, i, row);
			pad(fp, GAP + w[i] - width(buf));
			(void)fprintf(fp, "%s", buf);
		}
		(void)putc('\n', fp);
	}
	free(w);
}

/* Print block 'b' as a Markdown heading line and pipe table. */
static void
put_md(FILE *fp, const struct table *t, const struct table_block *b)
{
	char	head[128], buf[CELL];
	size_t	i, row;

	heading(head, sizeof(head), b);
	(void)fprintf(fp, "### %s\n\n|", head);
	for (i = 0; i < t->r->nt; i++) {
		(void)fprintf(fp, " | ");
		put_md_text(fp, t->r->t[i].label);
	}
	(void)fprintf(fp, " |\n|---|");
	for (i = 0; i < t->r->nt; i++)
		(void)fprintf(fp, "---:|");
	(void)putc('\n', fp);
	for (row = 0; row < TABLE_NROWS; row++) {
		if (!b->show[row])
			continue;
		(void)fprintf(fp, "| %s |", table_row_name(row));
		for (i = 0; i < t->r->nt; i++) {
			cell(buf, sizeof(buf), b, i, row);
			(void)fprintf(fp, " %s |", buf);
		}
		(void)putc('\n', fp);
	}
}

/* Print 's' for a Markdown table cell: '|' and '\' escaped. */
static void
put_md_text(FILE *fp, const char *s)
{
	for (; *s != '\0'; s++) {
		if (*s == '|' || *s == '\\')
			(void)putc('\\', fp);
		(void)putc(*s == '\n' || *s == '\t' ? ' ' : *s, fp);
	}
}

/* ===== largedir table ===== */

static void
usage(void)
{
	report_usage("usage: largedir table [--format text|md] "
	    "[--phases list,liststat,rmrf] [--n n[,n...]] results ...");
}

/* The bits of the listing phases 's' names ("list,rmrf"), or exit 2. */
static unsigned
parse_phases(const char *s)
{
	char		*copy, *tok, *last;
	unsigned	 bits = 0;
	int		 p;

	copy = xstrdup(s);
	for (tok = strtok_r(copy, ",", &last); tok != NULL;
	    tok = strtok_r(NULL, ",", &last)) {
		if ((p = table_phase(tok)) == -1)
			errx(2, "table: --phases: %s is no listing phase "
			    "(list, liststat or rmrf)", tok);
		bits |= 1U << p;
	}
	free(copy);
	if (bits == 0)
		errx(2, "table: --phases: no phase given");
	return bits;
}

/* The n of "N[,N...]" (allocated, their count in '*nn'), or exit 2. */
static double *
parse_ns(const char *s, size_t *nn)
{
	const char	*errstr;
	char		*copy, *tok, *last;
	double		*ns = NULL;
	long long	 v;

	*nn = 0;
	copy = xstrdup(s);
	for (tok = strtok_r(copy, ",", &last); tok != NULL;
	    tok = strtok_r(NULL, ",", &last)) {
		v = parse_num(tok, 1, LLONG_MAX, &errstr);
		if (errstr != NULL)
			errx(2, "table: --n: %s is %s", tok, errstr);
		ns = xreallocarray(ns, *nn + 1, sizeof(*ns));
		ns[(*nn)++] = (double)v;
	}
	free(copy);
	if (*nn == 0)
		errx(2, "table: --n: no n given");
	return ns;
}

/*
 * Add the targets of the argument 'arg' to 'all': a results directory
 * (every LABEL.out in it), or one target's LABEL.out, .json or .csv
 * (its LABEL.out is read).  Exit 2 naming 'arg' if it is none of these.
 */
static void
read_arg(struct results *all, const char *arg)
{
	struct results	 one;
	struct stat	 st;
	const char	*base, *ext;
	char		 err[LD_ERRLEN], *dir, *label;
	int		 dfd;

	if (stat(arg, &st) == -1)
		errx(2, "table: %s: %s", arg, strerror(errno));
	memset(&one, 0, sizeof(one));
	err[0] = '\0';
	if (S_ISDIR(st.st_mode)) {
		if ((dfd = open(arg, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) ==
		    -1)
			errx(2, "table: %s: %s", arg, strerror(errno));
		if (results_read(&one, dfd, arg, err) == -1 &&
		    errno == ENOENT)
			errx(2, "table: %s: not largedir results (no .out "
			    "files)", arg);
		else if (one.nt == 0 || err[0] != '\0')
			errx(2, "table: %s", err);
		(void)close(dfd);
		add_targets(all, &one, arg);
		return;
	}
	base = strrchr(arg, '/') != NULL ? strrchr(arg, '/') + 1 : arg;
	ext = strrchr(base, '.');
	if (!S_ISREG(st.st_mode) || ext == NULL || ext == base ||
	    (strcmp(ext, ".out") != 0 && strcmp(ext, ".json") != 0 &&
	    strcmp(ext, ".csv") != 0))
		errx(2, "table: %s: not largedir results (a results "
		    "directory or a LABEL.out, .json or .csv)", arg);
	dir = base == arg ? xstrdup(".") : xasprintf("%.*s",
	    (int)(base - arg), arg);
	label = xasprintf("%.*s", (int)(ext - base), base);
	if ((dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1)
		errx(2, "table: %s: %s", dir, strerror(errno));
	one.t = xcalloc(1, sizeof(*one.t));
	one.nt = 1;
	if (results_read_one(one.t, dfd, dir, label, err) == -1)
		errx(2, "table: %s: %s", arg, err);
	(void)close(dfd);
	add_targets(all, &one, arg);
	free(dir);
	free(label);
}

/* Exit 2 unless 't', read from 'arg', looks like largedir's results. */
static void
check_target(const struct results_target *t, const char *arg)
{
	if (results_col(t, "n") == -1 || results_col(t, "warmup") == -1)
		errx(2, "table: %s: %s.out is not largedir results (no "
		    "columns n and warmup)", arg, t->label);
}

/* Move the targets of 'one' (read from 'arg') to the end of 'all'. */
static void
add_targets(struct results *all, struct results *one, const char *arg)
{
	size_t	i;

	for (i = 0; i < one->nt; i++)
		check_target(&one->t[i], arg);
	all->t = xreallocarray(all->t, all->nt + one->nt + 1,
	    sizeof(*all->t));
	memcpy(all->t + all->nt, one->t, one->nt * sizeof(*one->t));
	all->nt += one->nt;
	free(one->t);
	memset(one, 0, sizeof(*one));
}

/*
 * Give targets of the same label from different arguments ('from[i]' is
 * target i's) the label ARG/LABEL, so every column says which it is.
 */
static void
unique_labels(struct results *r, char **from, size_t nfrom)
{
	char	*s;
	size_t	 i, j;
	bool	*dup;

	dup = xcalloc(r->nt ? r->nt : 1, sizeof(*dup));
	for (i = 0; i < r->nt; i++)
		for (j = 0; j < r->nt; j++)
			if (i != j && strcmp(r->t[i].label, r->t[j].label) == 0)
				dup[i] = true;
	for (i = 0; i < r->nt && i < nfrom; i++)
		if (dup[i]) {
			s = xasprintf("%s/%s", from[i], r->t[i].label);
			free(r->t[i].label);
			r->t[i].label = s;
		}
	free(dup);
}

/*
 * largedir table [--format text|md] [--phases LIST] [--n N[,N...]]
 * RESULTS...: print the RPC table of the targets of every RESULTS.
 * Return 0, also when there is nothing to show (one line says so); exit
 * 2 on a usage error or an argument that is no largedir results, 1 if
 * stdout fails.
 */
int
table_main(int argc, char **argv)
{
	static const struct option	longopts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ "n", required_argument, NULL, 'n' },
		{ "phases", required_argument, NULL, 'p' },
		{ NULL, 0, NULL, 0 }
	};
	struct table_want	 want;
	struct results		 r;
	struct table		 t;
	enum table_format	 format = TABLE_TEXT;
	double			*ns = NULL;
	char			**from = NULL;
	size_t			 i, k, before;
	int			 ch;

	memset(&want, 0, sizeof(want));
	memset(&r, 0, sizeof(r));
	opterr = 0;
	while ((ch = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (ch) {
		case 'f':
			if (strcmp(optarg, "text") == 0)
				format = TABLE_TEXT;
			else if (strcmp(optarg, "md") == 0)
				format = TABLE_MD;
			else
				errx(2, "table: --format: %s is neither text "
				    "nor md", optarg);
			break;
		case 'h':
			printf("usage: largedir table [--format text|md] "
			    "[--phases list,liststat,rmrf] [--n n[,n...]] "
			    "results ...\n");
			return fflush(stdout) == EOF ? 1 : 0;
		case 'n':
			free(ns);
			ns = parse_ns(optarg, &want.nn);
			want.n = ns;
			break;
		case 'p':
			want.phases = parse_phases(optarg);
			break;
		default:
			report_usage("table: unknown option or missing "
			    "value: %s", argv[optind - 1]);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 1)
		usage();
	for (k = 0; k < (size_t)argc; k++) {
		before = r.nt;
		read_arg(&r, argv[k]);
		from = xreallocarray(from, r.nt + 1, sizeof(*from));
		for (i = before; i < r.nt; i++)
			from[i] = argv[k];
	}
	unique_labels(&r, from, r.nt);
	if (!table_has_calls(&r))
		printf("no calls to a server counted in %s: only NFS targets "
		    "count them\n", argc == 1 ? argv[0] : "these results");
	else {
		table_build(&t, &r, &want);
		if (t.nb == 0)
			printf("nothing to show: no listing phase at the n "
			    "asked for\n");
		table_put(stdout, &t, format);
		table_free(&t);
	}
	free(from);
	free(ns);
	results_free(&r);
	if (fflush(stdout) == EOF || ferror(stdout))
		err(1, "stdout");
	return 0;
}
