/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * compare: largedir compare [options] A B, the same work on two set-ups,
 * and the arithmetic of the comparison (see compare.h).  A front-end
 * module: every repetition is a largedir run of its own (one round of n
 * files, its own set-up and teardown, so a config with mkfs gets a new
 * filesystem each time), in the order A B, B A, ...; this module reads
 * their outputs back and writes the table.
 */

#include <sys/stat.h>
#include <sys/wait.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "compare.h"
#include "comparepage.h"
#include "config.h"
#include "gitid.h"	/* $(O)/gitid.h, from the Makefile */
#include "output.h"
#include "plot.h"
#include "report.h"
#include "results.h"
#include "sig.h"
#include "stats.h"
#include "target_conf.h"
#include "util.h"
#include "workload.h"

#define COMPARE_N	100000	/* files of each run, unless -n */
#define COMPARE_PAIRS	3	/* unless --repeat */
#define COMPARE_ARGS	(CONFIG_MAX_PASS + 32)

/*
 * Which set-up the 'i'-th repetition (from 0) of a comparison runs: A B,
 * then B A, then A B, ...
 */
enum compare_side
compare_side(unsigned i)
{
	return (i / 2 % 2 == 0) == (i % 2 == 0) ? COMPARE_A : COMPARE_B;
}

/* Whether 't' is a time a repetition can have taken. */
static int
usable(double t)
{
	return isfinite(t) && t > 0;
}

/*
 * The row of one phase from the times of 'k' pairs, 'a_ns[i]' and
 * 'b_ns[i]' (a pair where either is not a time, NAN for a repetition
 * that failed, does not count), each for 'entries' entries.  Return 0,
 * or -1 (EINVAL) when no pair counts.
 */
int
compare_row(const double *a_ns, const double *b_ns, size_t k,
    double entries, struct compare_row *row)
{
	double		a[COMPARE_MAX], b[COMPARE_MAX], pct[COMPARE_MAX];
	double		a_lo, a_hi, b_lo, b_hi, p_lo, p_hi;
	size_t		i, m = 0;

	for (i = 0; i < k && m < COMPARE_MAX; i++)
		if (usable(a_ns[i]) && usable(b_ns[i])) {
			a[m] = a_ns[i];
			b[m] = b_ns[i];
			pct[m++] = (b_ns[i] / a_ns[i] - 1) * 100;
		}
	if (m == 0) {
		errno = EINVAL;
		return -1;
	}
	a_lo = a_hi = a[0];
	b_lo = b_hi = b[0];
	p_lo = p_hi = pct[0];
	for (i = 1; i < m; i++) {
		a_lo = fmin(a_lo, a[i]);
		a_hi = fmax(a_hi, a[i]);
		b_lo = fmin(b_lo, b[i]);
		b_hi = fmax(b_hi, b[i]);
		p_lo = fmin(p_lo, pct[i]);
		p_hi = fmax(p_hi, pct[i]);
	}
	row->pairs = m;
	row->a_ns = stats_median(a, m);
	row->b_ns = stats_median(b, m);
	row->a_per_s = entries * 1e9 / row->a_ns;
	row->b_per_s = entries * 1e9 / row->b_ns;
	row->pct = (row->b_ns / row->a_ns - 1) * 100;
	row->spread = (p_hi - p_lo) / 2;
	if (m == 1)
		row->verdict = COMPARE_ONE_PAIR;
	else if (b_hi < a_lo)
		row->verdict = COMPARE_FASTER;
	else if (b_lo > a_hi)
		row->verdict = COMPARE_SLOWER;
	else
		row->verdict = COMPARE_NOISE;
	return 0;
}

const char *
compare_verdict_name(enum compare_verdict v)
{
	switch (v) {
	case COMPARE_FASTER:
		return "faster";
	case COMPARE_SLOWER:
		return "slower";
	case COMPARE_NOISE:
		return "within noise";
	case COMPARE_ONE_PAIR:
		return "one pair";
	}
	return "?";
}

/*
 * One line of the plain-text table into 'buf' for phase 'phase':
 *	mkdir       49.10s     1.0k/s     3m00s    278.2/s   +266.0% ±10.8%  slower
 */
void
compare_format(char *buf, size_t len, const char *phase,
    const struct compare_row *row)
{
	char	at[32], ar[32], bt[32], br[32];

	util_fmt_duration(at, sizeof(at), (uint64_t)llround(row->a_ns));
	util_fmt_duration(bt, sizeof(bt), (uint64_t)llround(row->b_ns));
	util_fmt_rate(ar, sizeof(ar), row->a_per_s);
	util_fmt_rate(br, sizeof(br), row->b_per_s);
	(void)snprintf(buf, len, "%-8s %9s %8s/s %9s %8s/s  %+7.1f%% "
	    "±%.1f%%  %s", phase, at, ar, bt, br, row->pct, row->spread,
	    compare_verdict_name(row->verdict));
}

/* ===== largedir compare ===== */

/* One side of the comparison: a config file or a directory. */
struct side {
	const char	*arg;		/* as given */
	bool		 dir;		/* a directory, not a config */
	char		 label[57];	/* of its runs, without ".PAIR" */
};

/* A comparison under way. */
struct compare {
	struct config	 cfg;
	struct side	 side[2];	/* A, B */
	char		*pass[CONFIG_MAX_PASS];	/* options for each run */
	size_t		 npass;
	const char	*out;		/* the comparison's directory */
	char		*runs;		/* out/runs: the runs' outputs */
	uint64_t	 n;
	uint64_t	 dirs;		/* the tree layout's, or 0 */
	unsigned	 pairs;
	char		 seed[32];
	char		 nbuf[32];
};

static void	side_init(struct side *, const char *, const char *);
static int	spawn(struct compare *, const struct side *, const char *,
		    bool, int *);
static void	read_run(struct compare *, const char *, double *,
		    double *);
static int	phase_row(const struct compare *, const double *, unsigned,
		    size_t, struct compare_row *);
static int	write_outputs(struct compare *, const double *,
		    const int *, unsigned, int, char **);
static double	entries(const struct compare *, size_t);
static void	usage(FILE *);
static char	*command_line(int, char **);
static void	write_page(struct compare *, const double *, unsigned, int,
		    char **);

/* "largedir compare ARG...", as a shell would need it typed (allocated). */
static char *
command_line(int argc, char **argv)
{
	char	*q = util_quote_argv(argc, argv), *cmd;

	cmd = xasprintf("largedir %s", q);	/* argv[0] is "compare" */
	free(q);
	return cmd;
}

/*
 * The comparison's page (comparepage.c) from the times 'ns' of the first
 * 'runs' repetitions; a failure is said and is no error.
 */
static void
write_page(struct compare *cm, const double *ns, unsigned runs, int argc,
    char **argv)
{
	struct compare_page	cp;
	char			errbuf[LD_ERRLEN], *cmd;
	size_t			i;

	memset(&cp, 0, sizeof(cp));
	cmd = command_line(argc, argv);
	cp.dir = cm->out;
	for (i = 0; i < 2; i++) {
		cp.label[i] = cm->side[i].label;
		cp.arg[i] = cm->side[i].arg;
	}
	cp.command = cmd;
	cp.seed = cm->seed;
	cp.version = LD_VERSION;
	cp.git = LD_GIT;
	cp.status = output_status_name(sig_count > 0 ? OUTPUT_INTERRUPTED :
	    OUTPUT_COMPLETE);
	cp.n = cm->n;
	cp.dirs = cm->dirs;
	cp.pairs = cm->pairs;
	cp.nphases = cm->cfg.nphases;
	for (i = 0; i < cm->cfg.nphases; i++) {
		cp.phase[i] = workload_phase_name(cm->cfg.phases[i]);
		cp.has[i] = phase_row(cm, ns, runs, cm->cfg.phases[i],
		    &cp.row[i]) == 0;
	}
	if (compare_page_write(&cp, errbuf) == -1)
		warnx("compare: %s", errbuf);
	else
		printf("page: %s/index.html and index.de.html\n", cm->out);
	free(cmd);
}

/* largedir compare -h */
static void
usage(FILE *fp)
{
	(void)fprintf(fp, "usage: largedir compare [options] A B\n\n"
	    "A and B are two target configs (configs/NAME.conf) or two "
	    "directories.\nEach repetition is one run of n files on a "
	    "target set up afresh, in the\norder A B, B A, A B, ...; the "
	    "table says per phase how B fares against A.\n\n"
	    "  -n, --start count   files of each run (%d)\n"
	    "      --dirs count    with --layout tree: directories of each "
	    "run\n"
	    "  -r, --repeat count  pairs of runs (%d)\n"
	    "  -o, --output path   the comparison's directory "
	    "(results/STAMP-compare)\n"
	    "  -s, --seed seed     seed of every run (random)\n\n"
	    "The options that describe the work (--phases, --layout, "
	    "--file-size, --fsync,\n--names, --cold, --sync, ...; see "
	    "largedir -h) are "
	    "passed on to every run.\nNot taken: what sets rounds or budgets "
	    "(-b, -g, -N, --warmup) and target\nkeys (put them in the "
	    "configs).\n", COMPARE_N, COMPARE_PAIRS);
}

/*
 * Side 's' is 'arg': a directory, labelled by its last component, or a
 * config file, read now (exit 2 with one line if it is neither), labelled
 * by its label or fstype; 'fallback' where that gives nothing.
 */
static void
side_init(struct side *s, const char *arg, const char *fallback)
{
	struct config		 c;
	struct target_conf	 tc;
	struct stat		 st;
	const char		*base, *l;
	char			 errbuf[LD_ERRLEN];
	size_t			 i, k = 0;

	memset(s, 0, sizeof(*s));
	s->arg = arg;
	if (stat(arg, &st) == 0 && S_ISDIR(st.st_mode)) {
		s->dir = true;
		base = strrchr(arg, '/') != NULL && strrchr(arg, '/')[1] !=
		    '\0' ? strrchr(arg, '/') + 1 : arg;
		for (i = 0; base[i] != '\0' && k + 1 < sizeof(s->label);
		    i++)
			if ((base[i] >= 'a' && base[i] <= 'z') || (base[i] >=
			    'A' && base[i] <= 'Z') || (base[i] >= '0' &&
			    base[i] <= '9') || base[i] == '_' || base[i] ==
			    '-' || (base[i] == '.' && k > 0))
				s->label[k++] = base[i];
		s->label[k] = '\0';
		if (k == 0)
			(void)snprintf(s->label, sizeof(s->label), "%s",
			    fallback);
		return;
	}
	config_init(&c);
	target_conf_init(&tc);
	if (config_load(&c, &tc, arg, errbuf) == -1)
		report_usage("compare: %s", errbuf);
	l = tc.label != NULL ? tc.label : tc.fstype != NULL ? tc.fstype :
	    fallback;
	(void)snprintf(s->label, sizeof(s->label), "%s", l);
	target_conf_free(&tc);
	config_free(&c);
}

/*
 * Run side 's' as a largedir of its own: with 'setup_only', only set it
 * up and take it down again; else one round of cm->n files, with the
 * outputs 'label' in cm->runs.  Store its wait status in '*ws'.
 */
static int
spawn(struct compare *cm, const struct side *s, const char *label,
    bool setup_only, int *ws)
{
	char	*args[COMPARE_ARGS];
	size_t	 na = 0, i;

	args[na++] = (char *)"largedir";
	if (!s->dir) {
		args[na++] = (char *)"-c";
		args[na++] = (char *)s->arg;
	}
	args[na++] = (char *)"-q";
	for (i = 0; i < cm->npass; i++)
		args[na++] = cm->pass[i];
	if (setup_only)
		args[na++] = (char *)"--setup-only";
	else {
		args[na++] = (char *)"-o";
		args[na++] = cm->runs;
		args[na++] = (char *)"-l";
		args[na++] = (char *)label;
		args[na++] = (char *)"-n";
		args[na++] = cm->nbuf;
		args[na++] = (char *)"-N";
		args[na++] = cm->nbuf;
		args[na++] = (char *)"--repeat=1";
		args[na++] = (char *)"--budget-policy=classic";
		args[na++] = (char *)"-s";
		args[na++] = cm->seed;
	}
	if (s->dir) {
		args[na++] = (char *)"--";
		args[na++] = (char *)s->arg;
	}
	args[na] = NULL;
	return sig_run_self(args, ws);
}

/*
 * The files ('*n') and each phase's time (ns[p], NAN where it has none)
 * of the run 'label' in cm->runs; all NAN if its outputs cannot be read.
 */
static void
read_run(struct compare *cm, const char *label, double *n, double *ns)
{
	struct results_target	 rt;
	char			 errbuf[LD_ERRLEN], col[64];
	size_t			 i, p;
	int			 fd, c;

	*n = NAN;
	for (p = 0; p < PHASE_COUNT; p++)
		ns[p] = NAN;
	memset(&rt, 0, sizeof(rt));
	if ((fd = open(cm->runs, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1)
		return;
	if (results_read_one(&rt, fd, cm->runs, label, errbuf) == 0 &&
	    rt.nrows > 0) {
		if ((c = results_col(&rt, "n")) != -1)
			*n = rt.cell[c];
		for (i = 0; i < cm->cfg.nphases; i++) {
			p = cm->cfg.phases[i];
			(void)snprintf(col, sizeof(col), "%s_ns",
			    workload_phase_name(p));
			if ((c = results_col(&rt, col)) != -1)
				ns[p] = rt.cell[c];
		}
	}
	results_target_free(&rt);
	(void)close(fd);
}

/*
 * The row of phase 'p' from the times 'ns' of the first 'runs'
 * repetitions (PHASE_COUNT each, in compare_side() order): compare_row().
 */
static int
phase_row(const struct compare *cm, const double *ns, unsigned runs,
    size_t p, struct compare_row *row)
{
	double		a[COMPARE_MAX], b[COMPARE_MAX];
	unsigned	pair, j;

	for (pair = 0; pair < cm->pairs && pair < COMPARE_MAX; pair++) {
		a[pair] = b[pair] = NAN;
		for (j = 2 * pair; j < 2 * pair + 2 && j < runs; j++)
			*(compare_side(j) == COMPARE_A ? &a[pair] :
			    &b[pair]) = ns[j * PHASE_COUNT + p];
	}
	return compare_row(a, b, pair, entries(cm, p), row);
}

/*
 * What phase 'p' of a run handles, which its rate counts: the files; in
 * a tree, the directories for mkdir, and files and directories for
 * delete.
 */
static double
entries(const struct compare *cm, size_t p)
{
	if (p == PHASE_MKDIR)
		return (double)cm->dirs;
	if (p == PHASE_DELETE)
		return (double)(cm->n + cm->dirs);
	return (double)cm->n;
}

/*
 * The comparison's outputs in cm->out, as "compare" .out, .csv, .json and
 * .summary: a row per repetition run (its pair, its place in the order,
 * its side, 0 for A and 1 for B, its files, each phase's time and rate,
 * and its exit status), and a summary row with each phase's figures of
 * compare_row() (verdict: 0 faster, 1 slower, 2 within noise, 3 one
 * pair); the table lines also as metadata, compare_PHASE.  'ns' holds
 * the times of the 'runs' repetitions that ran, PHASE_COUNT each, and
 * 'ws' their wait statuses.  Return 0, or -1 with a message printed.
 */
static int
write_outputs(struct compare *cm, const double *ns, const int *ws,
    unsigned runs, int argc, char **argv)
{
	/* A phase's summary columns, in the order the row fills them. */
	static const struct {
		const char	*suffix;
		int		 prec;
	} sum_cols[] = { { "pairs", -1 }, { "a_ns", -1 }, { "b_ns", -1 },
	    { "a_per_s", 1 }, { "b_per_s", 1 }, { "pct", 2 },
	    { "spread", 2 }, { "verdict", -1 } };
	struct output_doc	 doc;
	struct output_id	 ids[OUTPUT_NWRITERS];
	struct compare_row	 row;
	double			*v;
	char			 errbuf[LD_ERRLEN], col[64], line[160], *cmd;
	const char		*pn;
	size_t			 i, j, p, nc;
	unsigned		 r;
	int			 fd, rc = 0;

	output_doc_init(&doc);
	memset(ids, 0, sizeof(ids));
	doc.largedir = xstrdup(LD_VERSION);
	cmd = command_line(argc, argv);
	output_kv_set(&doc.meta, "version", "%s", LD_VERSION);
	output_kv_set(&doc.meta, "git", "%s", LD_GIT);
	output_kv_set(&doc.meta, "command", "%s", cmd);
	free(cmd);
	output_kv_set(&doc.meta, "a", "%s (%s)", cm->side[0].label,
	    cm->side[0].arg);
	output_kv_set(&doc.meta, "b", "%s (%s)", cm->side[1].label,
	    cm->side[1].arg);
	output_kv_set(&doc.meta, "n", "%" PRIu64, cm->n);
	if (cm->dirs != 0)
		output_kv_set(&doc.meta, "dirs", "%" PRIu64 " (%" PRIu64
		    " files in each)", cm->dirs, cm->cfg.files_per_dir);
	output_kv_set(&doc.meta, "pairs", "%u", cm->pairs);
	output_kv_set(&doc.meta, "seed", "%s", cm->seed);
	output_kv_set(&doc.meta, "runs", "%s: a largedir run each, labelled "
	    "LABEL.PAIR, with its environment", cm->runs);
	output_kv_set(&doc.meta, "order", "A B, B A, A B, ...: side 0 is A, "
	    "1 is B");
	output_kv_set(&doc.meta, "verdict", "0 faster, 1 slower, 2 within "
	    "noise (the repetitions' times overlap), 3 one pair");
	(void)output_table_col(&doc.rows, "pair", -1);
	(void)output_table_col(&doc.rows, "order", -1);
	(void)output_table_col(&doc.rows, "side", -1);
	(void)output_table_col(&doc.rows, "n", -1);
	for (i = 0; i < cm->cfg.nphases; i++) {
		pn = workload_phase_name(cm->cfg.phases[i]);
		(void)snprintf(col, sizeof(col), "%s_ns", pn);
		(void)output_table_col(&doc.rows, col, -1);
		(void)snprintf(col, sizeof(col), "%s_per_s", pn);
		(void)output_table_col(&doc.rows, col, 1);
	}
	(void)output_table_col(&doc.rows, "exit", -1);
	for (i = 0; i < cm->cfg.nphases; i++) {
		pn = workload_phase_name(cm->cfg.phases[i]);
		for (j = 0; j < sizeof(sum_cols) / sizeof(sum_cols[0]); j++) {
			(void)snprintf(col, sizeof(col), "%s_%s", pn,
			    sum_cols[j].suffix);
			(void)output_table_col(&doc.summary, col,
			    sum_cols[j].prec);
		}
	}
	for (r = 0; r < runs; r++) {
		v = output_table_row(&doc.rows);
		nc = 0;
		v[nc++] = r / 2 + 1;
		v[nc++] = r + 1;
		v[nc++] = compare_side(r) == COMPARE_A ? 0 : 1;
		v[nc++] = (double)cm->n;
		for (i = 0; i < cm->cfg.nphases; i++) {
			p = cm->cfg.phases[i];
			v[nc++] = ns[r * PHASE_COUNT + p];
			v[nc++] = entries(cm, p) * 1e9 / ns[r * PHASE_COUNT +
			    p];
		}
		v[nc++] = WIFEXITED(ws[r]) ? WEXITSTATUS(ws[r]) : 128 +
		    WTERMSIG(ws[r]);
	}
	v = output_table_row(&doc.summary);
	nc = 0;
	for (i = 0; i < cm->cfg.nphases; i++) {
		p = cm->cfg.phases[i];
		pn = workload_phase_name(p);
		if (phase_row(cm, ns, runs, p, &row) == -1) {
			for (j = 0; j < sizeof(sum_cols) / sizeof(sum_cols[0]);
			    j++)
				v[nc++] = NAN;
			continue;
		}
		v[nc++] = (double)row.pairs;
		v[nc++] = row.a_ns;
		v[nc++] = row.b_ns;
		v[nc++] = row.a_per_s;
		v[nc++] = row.b_per_s;
		v[nc++] = row.pct;
		v[nc++] = row.spread;
		v[nc++] = row.verdict;
		compare_format(line, sizeof(line), pn, &row);
		(void)snprintf(col, sizeof(col), "compare_%s", pn);
		output_kv_set(&doc.meta, col, "%s", line);
	}
	doc.status = sig_count > 0 ? OUTPUT_INTERRUPTED : OUTPUT_COMPLETE;
	if ((fd = open(cm->out, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1 ||
	    output_flush(fd, "compare", &doc, ids, errbuf) == -1) {
		warnx("compare: %s", fd == -1 ? strerror(errno) : errbuf);
		rc = -1;
	}
	if (fd != -1)
		(void)close(fd);
	output_ids_close(ids, OUTPUT_NWRITERS);
	output_doc_free(&doc);
	return rc;
}

/*
 * largedir compare [options] A B: check that both set-ups can be made,
 * then run the pairs, print the table and write the outputs.  Exits 0
 * when every run completed, EXIT_TARGET when a set-up failed (before
 * anything was measured, or in the middle: the runs so far are kept),
 * EXIT_SUITE when a run did not complete, 128 + signal when interrupted
 * (the signal is passed on to the run under way, which cleans up).
 */
int
compare_main(int argc, char **argv)
{
	struct compare		 cm;
	struct config_args	 a;
	struct compare_row	 row;
	const struct side	*sd;
	char			 errbuf[LD_ERRLEN], label[80], line[160];
	char			 stamp[32], st[64], count[32], dirs[32];
	double			*ns, files;
	int			*ws, status = 0;
	unsigned		 i, runs = 0;
	bool			 given_n = false, given_r = false;
	uint64_t		 seed;
	size_t			 k, p;
	time_t			 now;

	memset(&cm, 0, sizeof(cm));
	config_init(&cm.cfg);
	switch (config_parse_args(&cm.cfg, NULL, CONFIG_COMPARE, argc, argv,
	    &a, errbuf)) {
	case -1:
		report_usage("%s", errbuf);
	case CONFIG_ACT_HELP:
		usage(stdout);
		config_free(&cm.cfg);
		return 0;
	case CONFIG_ACT_VERSION:
		printf("largedir %s (%s)\n", LD_VERSION, LD_GIT);
		config_free(&cm.cfg);
		return 0;
	default:
		break;
	}
	if (config_check(&cm.cfg, errbuf) == -1)
		report_usage("%s", errbuf);
	if (a.nrest != 2)
		report_usage("compare: name two configs or directories, A and "
		    "B (got %d)", a.nrest);
	/* What every run gets; compare sets n, the repeat and the seed. */
	for (k = 0; k < a.ngiven; k++) {
		const char	*name = a.given[k].opt->name;

		if (strcmp(name, "start") == 0 || strcmp(name, "dirs") == 0)
			given_n = true;
		else if (strcmp(name, "repeat") == 0)
			given_r = true;
		if (strcmp(name, "start") == 0 || strcmp(name, "dirs") == 0 ||
		    strcmp(name, "repeat") == 0 || strcmp(name, "seed") == 0 ||
		    strcmp(name, "quiet") == 0)
			continue;
		cm.pass[cm.npass++] = a.given[k].value != NULL ?
		    xasprintf("--%s=%s", name, a.given[k].value) :
		    xasprintf("--%s", name);
	}
	cm.n = given_n ? cm.cfg.start : COMPARE_N;
	if (cm.cfg.layout == CONFIG_LAYOUT_TREE)
		cm.dirs = (cm.n + cm.cfg.files_per_dir - 1) /
		    cm.cfg.files_per_dir;
	cm.pairs = given_r ? cm.cfg.repeat : COMPARE_PAIRS;
	if (cm.pairs > COMPARE_MAX)
		report_usage("compare: --repeat: at most %d pairs",
		    COMPARE_MAX);
	seed = cm.cfg.seed;
	if (!cm.cfg.seed_set && getrandom(&seed, sizeof(seed), 0) !=
	    sizeof(seed))
		err(1, "getrandom");
	(void)snprintf(cm.seed, sizeof(cm.seed), "%" PRIu64, seed);
	(void)snprintf(cm.nbuf, sizeof(cm.nbuf), "%" PRIu64, cm.n);
	side_init(&cm.side[0], a.rest[0], "A");
	side_init(&cm.side[1], a.rest[1], "B");
	if (strcmp(cm.side[0].label, cm.side[1].label) == 0)
		for (i = 0; i < 2; i++) {
			(void)snprintf(label, sizeof(label), "%c-%s", "AB"[i],
			    cm.side[i].label);
			(void)snprintf(cm.side[i].label,
			    sizeof(cm.side[i].label), "%.56s", label);
		}
	cm.out = cm.cfg.output;
	if (cm.out == NULL) {
		now = time(NULL);
		(void)strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ",
		    gmtime(&now));
		cm.out = xasprintf("results/%s-compare", stamp);
	}
	cm.runs = xasprintf("%s/runs", cm.out);
	if (sig_setup(false) == -1)
		err(1, "sigaction");

	/* Both set-ups first: one that cannot be made, no measurement. */
	for (i = 0; i < 2 && sig_count == 0; i++) {
		sd = &cm.side[i];
		(void)fflush(stdout);
		if (spawn(&cm, sd, NULL, true, &status) == -1)
			err(1, "running largedir");
		if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
			printf("compare: %c is %s (%s): it can be set up\n",
			    "AB"[i], sd->label, sd->arg);
			continue;
		}
		if (sig_count > 0)
			break;
		warnx("compare: %c (%s) cannot be set up, as said above: "
		    "nothing measured", "AB"[i], sd->arg);
		return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
	}
	if (sig_count > 0)
		return 128 + sig_first;
	status = 0;
	if (util_mkdir_p(cm.runs) == -1)
		err(1, "mkdir %s", cm.runs);

	ns = xreallocarray(NULL, 2 * (size_t)cm.pairs * PHASE_COUNT,
	    sizeof(*ns));
	ws = xreallocarray(NULL, 2 * (size_t)cm.pairs, sizeof(*ws));
	for (i = 0; i < 2 * cm.pairs && sig_count == 0; i++) {
		sd = &cm.side[compare_side(i) == COMPARE_A ? 0 : 1];
		(void)snprintf(label, sizeof(label), "%s.%u", sd->label,
		    i / 2 + 1);
		printf("compare: pair %u of %u, %s ... ", i / 2 + 1, cm.pairs,
		    sd->label);
		(void)fflush(stdout);
		if (spawn(&cm, sd, label, false, &ws[i]) == -1)
			err(1, "running largedir");
		runs = i + 1;
		read_run(&cm, label, &files, &ns[i * PHASE_COUNT]);
		if (WIFEXITED(ws[i]) && WEXITSTATUS(ws[i]) == 0) {
			for (k = 0; k < cm.cfg.nphases; k++) {
				p = cm.cfg.phases[k];
				util_fmt_duration(st, sizeof(st), (uint64_t)
				    llround(ns[i * PHASE_COUNT + p]));
				printf("%s%s %s", k > 0 ? ", " : "",
				    workload_phase_name(p), st);
			}
			printf("\n");
			continue;
		}
		if (WIFSIGNALED(ws[i]))
			printf("killed by SIG%s\n", sigabbrev_np(WTERMSIG(
			    ws[i])));
		else
			printf("exit %d\n", WEXITSTATUS(ws[i]));
		if (WIFEXITED(ws[i]) && WEXITSTATUS(ws[i]) == EXIT_TARGET) {
			status = EXIT_TARGET;
			break;
		}
		status = EXIT_SUITE;
	}

	util_fmt_count(count, sizeof(count), cm.n);
	util_fmt_count(dirs, sizeof(dirs), cm.dirs);
	printf("\ncompare: B against A, %s files%s%s%s, %u pair%s (in %s)\n"
	    "%-8s %20.20s %20.20s  %s\n", count, cm.dirs != 0 ? " in " : "",
	    cm.dirs != 0 ? dirs : "", cm.dirs != 0 ? " directories" : "",
	    cm.pairs, cm.pairs == 1 ? "" : "s", cm.out, "phase",
	    cm.side[0].label, cm.side[1].label, "B against A");
	for (k = 0; k < cm.cfg.nphases; k++) {
		p = cm.cfg.phases[k];
		if (phase_row(&cm, ns, runs, p, &row) == -1) {
			printf("%-8s no pair ran it to the end\n",
			    workload_phase_name(p));
			continue;
		}
		compare_format(line, sizeof(line), workload_phase_name(p),
		    &row);
		printf("%s\n", line);
	}
	if (write_outputs(&cm, ns, ws, runs, argc, argv) == -1) {
		if (status == 0)
			status = 1;
	} else
		printf("results: %s/compare.out (.csv, .json)\n", cm.out);
	/* The graphs are extras: the table has said it all. */
	if (sig_count == 0 && runs > 0) {
		line[0] = '\0';
		for (k = 0; k < cm.cfg.nphases; k++)
			(void)snprintf(line + strlen(line), sizeof(line) -
			    strlen(line), "%s%s", k > 0 ? " " : "",
			    workload_phase_name(cm.cfg.phases[k]));
		if (plot_compare(cm.out, cm.side[0].label, cm.side[1].label,
		    line) == 0)
			printf("graphs: %s/compare-PHASE.png (and .svg)\n",
			    cm.out);
	}
	if (runs > 0)
		write_page(&cm, ns, runs, argc, argv);
	if (fflush(stdout) == EOF)
		err(1, "stdout");
	free(ns);
	free(ws);
	for (k = 0; k < cm.npass; k++)
		free(cm.pass[k]);
	free(cm.runs);
	if (cm.out != cm.cfg.output)
		free((char *)cm.out);
	config_free(&cm.cfg);
	if (sig_count > 0)
		return 128 + sig_first;
	return status;
}
