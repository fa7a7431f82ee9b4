/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * table: "largedir table [--format text|md] [--phases LIST] [--n N[,N...]]
 * RESULTS...", the RPC table of the classic NFS readdir investigations
 * (a front-end: it prints and returns the exit status).  rpctab.c builds
 * the blocks; this prints them as plain text with aligned columns or as
 * Markdown pipe tables.  A value that is NAN prints as "-".
 *
 * Times print with three significant digits in s, ms, µs or ns, whichever
 * keeps the figure at 1 or more, and in whole seconds from 1,000 s on
 * (rpctab_time()); counts as integers with thousands separators.
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

#include "base/parse.h"
#include "base/util.h"
#include "record/results.h"
#include "record/rpctab.h"
#include "report/report.h"
#include "verbs/table.h"

#define GAP	3	/* spaces between the columns of the text */
#define CELL	48

static void	cell(char *, size_t, const struct rpctab_block *, size_t,
		    size_t);
static void	fmt_num(char *, size_t, double, int);
static size_t	width(const char *);
static void	pad(FILE *, size_t);
static void	heading(char *, size_t, const struct rpctab_block *);
static void	put_text(FILE *, const struct rpctab *,
		    const struct rpctab_block *);
static void	put_md(FILE *, const struct rpctab *,
		    const struct rpctab_block *);
static void	put_md_text(FILE *, const char *);
static void	usage(void);
static int	help(void);
static unsigned	parse_phases(const char *);
static double	*parse_ns(const char *, size_t *);
static void	read_arg(struct results *, const char *);
static void	check_target(const struct results_target *, const char *);
static void	add_targets(struct results *, struct results *,
		    const char *);
static void	unique_labels(struct results *, char **, size_t);

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
cell(char *buf, size_t size, const struct rpctab_block *b, size_t i,
    size_t row)
{
	const char	*unit;
	double		 v, x = b->v[i * RPCTAB_NROWS + row];
	int		 dec;
	size_t		 len;

	if (!isfinite(x)) {
		(void)snprintf(buf, size, "-");
		return;
	}
	if (row < RPCTAB_PROC) {
		(void)rpctab_time(x, &v, &dec, &unit);
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
heading(char *buf, size_t size, const struct rpctab_block *b)
{
	char	n[CELL];

	fmt_num(n, sizeof(n), b->n, 0);
	(void)snprintf(buf, size, "%s (%s), n = %s", rpctab_phase_cmd(b->phase),
	    rpctab_phase_name(b->phase), n);
}

/* ===== Printing ===== */

/*
 * Print the blocks of 't' as 'format' asks: plain text with aligned
 * columns, or a Markdown pipe table under a heading line per block; an
 * empty line between blocks.  Errors show in ferror(3).
 */
void
table_put(FILE *fp, const struct rpctab *t, enum table_format format)
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
put_text(FILE *fp, const struct rpctab *t, const struct rpctab_block *b)
{
	char	 head[128], buf[CELL];
	size_t	*w, w0, i, row, x;

	heading(head, sizeof(head), b);
	w0 = width(head);
	w = xreallocarray(NULL, t->r->nt ? t->r->nt : 1, sizeof(*w));
	for (row = 0; row < RPCTAB_NROWS; row++)
		if (b->show[row] && (x = 2 + strlen(rpctab_row_name(row))) > w0)
			w0 = x;
	for (i = 0; i < t->r->nt; i++) {
		w[i] = width(t->r->t[i].label);
		for (row = 0; row < RPCTAB_NROWS; row++) {
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
	for (row = 0; row < RPCTAB_NROWS; row++) {
		if (!b->show[row])
			continue;
		(void)fprintf(fp, "  %s", rpctab_row_name(row));
		pad(fp, w0 - 2 - strlen(rpctab_row_name(row)));
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
put_md(FILE *fp, const struct rpctab *t, const struct rpctab_block *b)
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
	for (row = 0; row < RPCTAB_NROWS; row++) {
		if (!b->show[row])
			continue;
		(void)fprintf(fp, "| %s |", rpctab_row_name(row));
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

/* largedir table -h: the usage and what it prints; the exit status. */
static int
help(void)
{
	printf("usage: largedir table [--format text|md] [--phases "
	    "list,liststat,rmrf] [--n n[,n...]] results ...\n\nThe calls to "
	    "an NFS server per listing, by procedure, with the times, of\n"
	    "the finished runs named (results directories or their .out, "
	    ".json or .csv\nfiles): a block per n and listing phase, a "
	    "column per target; text or\nMarkdown (--format md).  --n takes "
	    "the n nearest those asked for, --phases\nthe phases.\n");
	return fflush(stdout) == EOF ? 1 : 0;
}

/* ===== largedir table ===== */

static void
usage(void)
{
	report_usage("usage: largedir table [--format text|md] "
	    "[--phases list,liststat,rmrf] [--n n[,n...]] results ...");
}

/*
 * The bits of the listing phases 's' names ("list,rmrf"), or exit 2: for
 * an empty list or element too, as util_list_split() refuses them.
 */
static unsigned
parse_phases(const char *s)
{
	char		**names;
	unsigned	  bits = 0;
	size_t		  i, n;
	int		  p;

	if (*s == '\0')
		errx(2, "table: --phases: no phase given");
	if ((names = util_list_split(s, &n)) == NULL)
		errx(2, "table: --phases: '%s' has an empty element", s);
	for (i = 0; i < n; i++) {
		if ((p = rpctab_phase(names[i])) != -1)
			bits |= 1U << p;
		else
			errx(2, "table: --phases: %s is no listing phase "
			    "(list, liststat or rmrf)", names[i]);
	}
	free(names);
	return bits;
}

/*
 * The n of "N[,N...]" (allocated, their count in '*nn'), or exit 2: for
 * an empty list or element too, as util_list_split() refuses them.
 */
static double *
parse_ns(const char *s, size_t *nn)
{
	const char	 *errstr;
	char		**items;
	double		 *ns;
	long long	  v;
	size_t		  i;

	if (*s == '\0')
		errx(2, "table: --n: no n given");
	if ((items = util_list_split(s, nn)) == NULL)
		errx(2, "table: --n: '%s' has an empty element", s);
	ns = xreallocarray(NULL, *nn, sizeof(*ns));
	for (i = 0; i < *nn; i++) {
		v = parse_num(items[i], 1, LLONG_MAX, &errstr);
		if (errstr != NULL)
			errx(2, "table: --n: %s is %s", items[i], errstr);
		ns[i] = (double)v;
	}
	free(items);
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
	struct rpctab_want	 want;
	struct results		 r;
	struct rpctab		 t;
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
			return help();
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
	if (!rpctab_has_calls(&r))
		printf("no calls to a server counted in %s: only NFS targets "
		    "count them\n", argc == 1 ? argv[0] : "these results");
	else {
		rpctab_build(&t, &r, &want);
		if (t.nb == 0)
			printf("nothing to show: no listing phase at the n "
			    "asked for\n");
		table_put(stdout, &t, format);
		rpctab_free(&t);
	}
	free(from);
	free(ns);
	results_free(&r);
	if (fflush(stdout) == EOF || ferror(stdout))
		err(1, "stdout");
	return 0;
}
