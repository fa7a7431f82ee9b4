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
	unsigned	 nrun;		/* the repetitions that ran */
	double		*ns;		/* their times, PHASE_COUNT each */
	int		*ws;		/* their wait statuses */
	char		**why;		/* one that did not complete: why */
	char		 seed[32];
	char		 nbuf[32];
};

/* What a run wrote on its stderr: its last line but warnings. */
struct tail {
	char	cur[LD_ERRLEN];		/* the line under way */
	size_t	len;
	char	last[LD_ERRLEN];	/* the last whole one, or "" */
};

static void	side_init(struct side *, const char *, const char *);
static int	spawn(struct compare *, const struct side *, const char *,
		    int *, struct tail *);
static void	relay(void *, const char *, size_t);
static void	tail_end(struct tail *);
static int	run_one(struct compare *, unsigned);
static void	read_run(struct compare *, const char *, double *,
		    double *, char **);
static bool	completed(const struct compare *, unsigned);
static unsigned	complete_pairs(const struct compare *);
static int	exit_status(int);
static enum output_status	outcome(const struct compare *);
static int	phase_row(const struct compare *, size_t,
		    struct compare_row *);
static int	write_outputs(struct compare *, int, char **);
static double	entries(const struct compare *, size_t);
static void	usage(FILE *);
static char	*command_line(int, char **);
static void	write_page(struct compare *, int, char **);
static void	print_table(const struct compare *);
static void	compare_free(struct compare *);

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
 * The comparison's page (comparepage.c) from the repetitions that ran; a
 * failure to write it is said and is no error.
 */
static void
write_page(struct compare *cm, int argc, char **argv)
{
	struct compare_page	 cp;
	struct compare_failure	*fail;
	char			 errbuf[LD_ERRLEN], *cmd;
	size_t			 i;
	unsigned		 r;

	memset(&cp, 0, sizeof(cp));
	fail = xreallocarray(NULL, cm->nrun, sizeof(*fail));
	for (r = 0; r < cm->nrun; r++)
		if (!completed(cm, r)) {
			fail[cp.nfailed].pair = r / 2 + 1;
			fail[cp.nfailed].side = compare_side(r) == COMPARE_A ?
			    0 : 1;
			fail[cp.nfailed].exit = exit_status(cm->ws[r]);
			fail[cp.nfailed++].why = cm->why[r];
		}
	cp.failed = fail;
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
	cp.status = output_status_name(outcome(cm));
	cp.n = cm->n;
	cp.dirs = cm->dirs;
	cp.pairs = cm->pairs;
	cp.complete = complete_pairs(cm);
	cp.nphases = cm->cfg.nphases;
	for (i = 0; i < cm->cfg.nphases; i++) {
		cp.phase[i] = workload_phase_name(cm->cfg.phases[i]);
		cp.has[i] = phase_row(cm, cm->cfg.phases[i], &cp.row[i]) == 0;
	}
	if (compare_page_write(&cp, errbuf) == -1)
		warnx("compare: %s", errbuf);
	else
		printf("page: %s/index.html and index.de.html\n", cm->out);
	free(fail);
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
 * Run side 's' as a largedir of its own: with 'label' NULL, only set it
 * up and take it down again; else one round of cm->n files, with the
 * outputs 'label' in cm->runs, and what it writes on its standard error
 * shown through relay() into 't'.  Store its wait status in '*ws'.
 */
static int
spawn(struct compare *cm, const struct side *s, const char *label, int *ws,
    struct tail *t)
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
	if (label == NULL)
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
	if (label == NULL)
		return sig_run_self(args, ws);
	return sig_run_self_err(args, ws, relay, t);
}

/*
 * What a run writes on its standard error, 'n' bytes at 'buf': shown as
 * it comes, and its last line kept in 'arg' (a struct tail), which says
 * why when the run does not complete.
 */
static void
relay(void *arg, const char *buf, size_t n)
{
	struct tail	*t = arg;
	size_t		 i;

	(void)fwrite(buf, 1, n, stderr);
	for (i = 0; i < n; i++)
		if (buf[i] == '\n')
			tail_end(t);
		else if (t->len + 1 < sizeof(t->cur)) {
			t->cur[t->len++] = buf[i];
			t->cur[t->len] = '\0';
		}
}

/*
 * The end of the line under way in 't': it is the last line, without
 * the program's name, unless it is empty or a warning (the load of the
 * machine, ...), which says nothing of why a run failed.
 */
static void
tail_end(struct tail *t)
{
	const char	*s = t->cur;

	if (strncmp(s, "largedir: ", 10) == 0)
		s += 10;
	if (t->len > 0 && strncmp(s, "warning: ", 9) != 0)
		(void)snprintf(t->last, sizeof(t->last), "%s", s);
	t->len = 0;
	t->cur[0] = '\0';
}

/*
 * Run repetition 'i' (in compare_side() order), read its outputs back
 * and print its line.  Return 0 if it completed; else EXIT_TARGET if its
 * target could not be set up (which ends the comparison), or EXIT_SUITE;
 * cm->why[i] is then its own words: the stop reason of its outputs, else
 * the last line it wrote on its standard error, else NULL.
 */
static int
run_one(struct compare *cm, unsigned i)
{
	const struct side	*sd;
	struct tail		 t;
	char			 label[80], st[64], *reason = NULL;
	double			 files;
	size_t			 k, p;
	int			*ws = &cm->ws[i];

	sd = &cm->side[compare_side(i) == COMPARE_A ? 0 : 1];
	(void)snprintf(label, sizeof(label), "%s.%u", sd->label, i / 2 + 1);
	printf("compare: pair %u of %u, %s ... ", i / 2 + 1, cm->pairs,
	    sd->label);
	(void)fflush(stdout);
	memset(&t, 0, sizeof(t));
	if (spawn(cm, sd, label, ws, &t) == -1)
		err(1, "running largedir");
	tail_end(&t);
	cm->nrun = i + 1;
	read_run(cm, label, &files, &cm->ns[i * PHASE_COUNT], &reason);
	if (completed(cm, i)) {
		for (k = 0; k < cm->cfg.nphases; k++) {
			p = cm->cfg.phases[k];
			util_fmt_duration(st, sizeof(st), (uint64_t)llround(
			    cm->ns[i * PHASE_COUNT + p]));
			printf("%s%s %s", k > 0 ? ", " : "",
			    workload_phase_name(p), st);
		}
		printf("\n");
		free(reason);
		return 0;
	}
	cm->why[i] = reason != NULL ? reason : t.last[0] != '\0' ?
	    xstrdup(t.last) : NULL;
	if (WIFSIGNALED(*ws))
		printf("killed by SIG%s", sigabbrev_np(WTERMSIG(*ws)));
	else
		printf("exit %d", WEXITSTATUS(*ws));
	printf("%s%s\n", cm->why[i] != NULL ? ": " : "", cm->why[i] != NULL ?
	    cm->why[i] : "");
	return WIFEXITED(*ws) && WEXITSTATUS(*ws) == EXIT_TARGET ?
	    EXIT_TARGET : EXIT_SUITE;
}

/*
 * The files ('*n') and each phase's time (ns[p], NAN where it has none)
 * of the run 'label' in cm->runs, all NAN if its outputs cannot be read;
 * and its stop reason, if they have one, into '*reason' (allocated).
 */
static void
read_run(struct compare *cm, const char *label, double *n, double *ns,
    char **reason)
{
	struct results_target	 rt;
	const char		*v;
	char			 errbuf[LD_ERRLEN], col[64];
	size_t			 i, p;
	int			 fd, c;

	*n = NAN;
	for (p = 0; p < PHASE_COUNT; p++)
		ns[p] = NAN;
	memset(&rt, 0, sizeof(rt));
	if ((fd = open(cm->runs, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1)
		return;
	if (results_read_one(&rt, fd, cm->runs, label, errbuf) == 0) {
		for (i = 0; i < cm->cfg.nphases && rt.nrows > 0; i++) {
			p = cm->cfg.phases[i];
			(void)snprintf(col, sizeof(col), "%s_ns",
			    workload_phase_name(p));
			if ((c = results_col(&rt, col)) != -1)
				ns[p] = rt.cell[c];
		}
		if (rt.nrows > 0 && (c = results_col(&rt, "n")) != -1)
			*n = rt.cell[c];
		if ((v = results_meta(&rt, "stop_reason")) != NULL)
			*reason = xstrdup(v);
	}
	results_target_free(&rt);
	(void)close(fd);
}

/* Whether repetition 'r' ran and completed. */
static bool
completed(const struct compare *cm, unsigned r)
{
	return r < cm->nrun && WIFEXITED(cm->ws[r]) &&
	    WEXITSTATUS(cm->ws[r]) == 0;
}

/* The pairs whose two runs completed. */
static unsigned
complete_pairs(const struct compare *cm)
{
	unsigned	pair, k = 0;

	for (pair = 0; pair < cm->pairs; pair++)
		if (completed(cm, 2 * pair) && completed(cm, 2 * pair + 1))
			k++;
	return k;
}

/* Wait status 'ws' as an exit status: 128 + the signal that killed it. */
static int
exit_status(int ws)
{
	return WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
}

/*
 * How the comparison ended: interrupted by a signal, failed when a pair
 * did not complete (a run failed, or did not run after one whose target
 * could not be set up), else complete.
 */
static enum output_status
outcome(const struct compare *cm)
{
	if (sig_count > 0)
		return OUTPUT_INTERRUPTED;
	return complete_pairs(cm) == cm->pairs ? OUTPUT_COMPLETE :
	    OUTPUT_FAILED;
}

/*
 * The row of phase 'p' from the times of the repetitions that completed
 * (a pair with one that did not counts for nothing): compare_row().
 */
static int
phase_row(const struct compare *cm, size_t p, struct compare_row *row)
{
	double		a[COMPARE_MAX], b[COMPARE_MAX];
	unsigned	pair, j;

	for (pair = 0; pair < cm->pairs && pair < COMPARE_MAX; pair++) {
		a[pair] = b[pair] = NAN;
		for (j = 2 * pair; j < 2 * pair + 2; j++) {
			if (!completed(cm, j))
				continue;
			if (compare_side(j) == COMPARE_A)
				a[pair] = cm->ns[j * PHASE_COUNT + p];
			else
				b[pair] = cm->ns[j * PHASE_COUNT + p];
		}
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
 * pair); the table lines also as metadata, compare_PHASE, and for each
 * run that did not complete, why_ORDER, its own words, if it had any.
 * Return 0, or -1 with a message printed.
 */
static int
write_outputs(struct compare *cm, int argc, char **argv)
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
	if (complete_pairs(cm) == cm->pairs)
		output_kv_set(&doc.meta, "pairs", "%u", cm->pairs);
	else
		output_kv_set(&doc.meta, "pairs", "%u (%u complete)",
		    cm->pairs, complete_pairs(cm));
	output_kv_set(&doc.meta, "seed", "%s", cm->seed);
	output_kv_set(&doc.meta, "runs", "%s: a largedir run each, labelled "
	    "LABEL.PAIR, with its environment", cm->runs);
	output_kv_set(&doc.meta, "order", "A B, B A, A B, ...: side 0 is A, "
	    "1 is B");
	output_kv_set(&doc.meta, "verdict", "0 faster, 1 slower, 2 within "
	    "noise (the repetitions' times overlap), 3 one pair");
	for (r = 0; r < cm->nrun; r++)
		if (!completed(cm, r) && cm->why[r] != NULL) {
			(void)snprintf(col, sizeof(col), "why_%u", r + 1);
			output_kv_set(&doc.meta, col, "%s", cm->why[r]);
		}
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
	for (r = 0; r < cm->nrun; r++) {
		v = output_table_row(&doc.rows);
		nc = 0;
		v[nc++] = r / 2 + 1;
		v[nc++] = r + 1;
		v[nc++] = compare_side(r) == COMPARE_A ? 0 : 1;
		v[nc++] = (double)cm->n;
		for (i = 0; i < cm->cfg.nphases; i++) {
			p = cm->cfg.phases[i];
			v[nc++] = cm->ns[r * PHASE_COUNT + p];
			v[nc++] = entries(cm, p) * 1e9 / cm->ns[r *
			    PHASE_COUNT + p];
		}
		v[nc++] = exit_status(cm->ws[r]);
	}
	v = output_table_row(&doc.summary);
	nc = 0;
	for (i = 0; i < cm->cfg.nphases; i++) {
		p = cm->cfg.phases[i];
		pn = workload_phase_name(p);
		if (phase_row(cm, p, &row) == -1) {
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
	doc.status = outcome(cm);
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
	const struct side	*sd;
	char			 errbuf[LD_ERRLEN], label[80], line[160];
	char			 stamp[32];
	int			 status = 0, rc;
	unsigned		 i;
	bool			 given_n = false, given_r = false;
	uint64_t		 seed;
	size_t			 k;
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
		if (spawn(&cm, sd, NULL, &status, NULL) == -1)
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
		compare_free(&cm);
		return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
	}
	if (sig_count > 0) {
		compare_free(&cm);
		return 128 + sig_first;
	}
	status = 0;
	if (util_mkdir_p(cm.runs) == -1)
		err(1, "mkdir %s", cm.runs);

	cm.ns = xreallocarray(NULL, 2 * (size_t)cm.pairs * PHASE_COUNT,
	    sizeof(*cm.ns));
	cm.ws = xreallocarray(NULL, 2 * (size_t)cm.pairs, sizeof(*cm.ws));
	cm.why = xreallocarray(NULL, 2 * (size_t)cm.pairs, sizeof(*cm.why));
	memset(cm.why, 0, 2 * (size_t)cm.pairs * sizeof(*cm.why));
	for (i = 0; i < 2 * cm.pairs && sig_count == 0; i++)
		if ((rc = run_one(&cm, i)) != 0) {
			status = rc;
			if (rc == EXIT_TARGET)
				break;
		}

	print_table(&cm);
	if (write_outputs(&cm, argc, argv) == -1) {
		if (status == 0)
			status = 1;
	} else
		printf("results: %s/compare.out (.csv, .json)\n", cm.out);
	/* The graphs are extras: the table has said it all. */
	if (sig_count == 0 && cm.nrun > 0) {
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
	if (cm.nrun > 0)
		write_page(&cm, argc, argv);
	if (fflush(stdout) == EOF)
		err(1, "stdout");
	compare_free(&cm);
	if (sig_count > 0)
		return 128 + sig_first;
	return status;
}

/*
 * The table on stdout: a line saying what was compared and how many
 * pairs of runs completed, then a line per phase.
 */
static void
print_table(const struct compare *cm)
{
	struct compare_row	row;
	char			count[32], dirs[32], pairs[32], line[160];
	unsigned		done = complete_pairs(cm);
	size_t			k, p;

	util_fmt_count(count, sizeof(count), cm->n);
	util_fmt_count(dirs, sizeof(dirs), cm->dirs);
	if (done == cm->pairs)
		(void)snprintf(pairs, sizeof(pairs), "%u pair%s", cm->pairs,
		    cm->pairs == 1 ? "" : "s");
	else
		(void)snprintf(pairs, sizeof(pairs), "%u of %u pairs complete",
		    done, cm->pairs);
	printf("\ncompare: B against A, %s files%s%s%s, %s (in %s)\n"
	    "%-8s %20.20s %20.20s  %s\n", count, cm->dirs != 0 ? " in " : "",
	    cm->dirs != 0 ? dirs : "", cm->dirs != 0 ? " directories" : "",
	    pairs, cm->out, "phase", cm->side[0].label, cm->side[1].label,
	    "B against A");
	for (k = 0; k < cm->cfg.nphases; k++) {
		p = cm->cfg.phases[k];
		if (phase_row(cm, p, &row) == -1) {
			printf("%-8s no pair ran it to the end\n",
			    workload_phase_name(p));
			continue;
		}
		compare_format(line, sizeof(line), workload_phase_name(p),
		    &row);
		printf("%s\n", line);
	}
}

/* Free what 'cm' holds. */
static void
compare_free(struct compare *cm)
{
	size_t	k;

	for (k = 0; k < cm->npass; k++)
		free(cm->pass[k]);
	for (k = 0; cm->why != NULL && k < cm->nrun; k++)
		free(cm->why[k]);
	free(cm->why);
	free(cm->ns);
	free(cm->ws);
	free(cm->runs);
	if (cm->out != cm->cfg.output)
		free((char *)cm->out);
	config_free(&cm->cfg);
}
