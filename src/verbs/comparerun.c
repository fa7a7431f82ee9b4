/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * comparerun: see comparerun.h.  A run's outputs are labelled
 * SIDE.PAIR in the comparison's runs/ directory; a run that does not
 * complete says why in its stop reason, or else in the last line it
 * wrote on its standard error that is not a warning.
 */

#include <sys/wait.h>

#include <err.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/sig.h"
#include "base/util.h"
#include "engine/workload.h"
#include "record/results.h"
#include "report/report.h"
#include "verbs/comparerun.h"

#define COMPARE_RUN_ARGS	(CONFIG_MAX_PASS + 32)

/* What a run wrote on its stderr: its last line but warnings. */
struct tail {
	char	cur[LD_ERRLEN];		/* the line under way */
	size_t	len;
	char	last[LD_ERRLEN];	/* the last whole one, or "" */
};

static int	spawn(struct compare_run *, const struct compare_run_side *,
		    const char *, int *, struct tail *);
static void	relay(void *, const char *, size_t);
static void	tail_end(struct tail *);
static void	read_run(struct compare_run *, const char *, double *,
		    double *, char **);

/*
 * Run side 's' as a largedir of its own: with 'label' NULL, only set it
 * up and take it down again; else one round of cm->n files, with the
 * outputs 'label' in cm->runs, and what it writes on its standard error
 * shown through relay() into 't'.  Store its wait status in '*ws'.
 */
static int
spawn(struct compare_run *cm, const struct compare_run_side *s,
    const char *label, int *ws, struct tail *t)
{
	char	*args[COMPARE_RUN_ARGS];
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
 * Set side 's' up and take it down again, as a largedir of its own
 * (--setup-only), with what it says on its standard error going there.
 * Store its wait status in '*ws'.  Return 0, or -1 with errno if it could
 * not be run (sig_run_self()).
 */
int
compare_run_setup(struct compare_run *cm, const struct compare_run_side *s,
    int *ws)
{
	return spawn(cm, s, NULL, ws, NULL);
}

/*
 * Run repetition 'i' (in pairs_side() order), read its outputs back
 * and print its line.  Return 0 if it completed; else EXIT_TARGET if its
 * target could not be set up (which ends the comparison), or EXIT_SUITE;
 * cm->why[i] is then its own words: the stop reason of its outputs, else
 * the last line it wrote on its standard error, else NULL.  Exits 1 if
 * largedir cannot be run at all.
 */
int
compare_run_one(struct compare_run *cm, unsigned i)
{
	const struct compare_run_side	*sd;
	struct tail			 t;
	char				 label[80], st[64], *reason = NULL;
	double				 files;
	size_t				 k, p;
	int				*ws = &cm->ws[i];

	sd = &cm->side[pairs_side(i) == PAIRS_A ? 0 : 1];
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
	if (compare_run_completed(cm, i)) {
		for (k = 0; k < cm->cfg.nphases; k++) {
			p = cm->cfg.phases[k];
			util_fmt_duration(st, sizeof(st), (uint64_t)llround(
			    cm->ns[i * PHASE_COUNT + p]));
			printf("%s%s %s", k > 0 ? ", " : "",
			    phase_name(p), st);
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
read_run(struct compare_run *cm, const char *label, double *n, double *ns,
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
			    phase_name(p));
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

/* Whether repetition 'r' of 'cm' ran and completed. */
bool
compare_run_completed(const struct compare_run *cm, unsigned r)
{
	return r < cm->nrun && WIFEXITED(cm->ws[r]) &&
	    WEXITSTATUS(cm->ws[r]) == 0;
}

/* The pairs of 'cm' whose two runs completed. */
unsigned
compare_run_complete(const struct compare_run *cm)
{
	unsigned	pair, k = 0;

	for (pair = 0; pair < cm->pairs; pair++)
		if (compare_run_completed(cm, 2 * pair) &&
		    compare_run_completed(cm, 2 * pair + 1))
			k++;
	return k;
}

/* Wait status 'ws' as an exit status: 128 + the signal that killed it. */
int
compare_run_exit(int ws)
{
	return WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
}

/*
 * How comparison 'cm' ended: interrupted by a signal, failed when a pair
 * did not complete (a run failed, or did not run after one whose target
 * could not be set up), else complete.
 */
enum output_status
compare_run_outcome(const struct compare_run *cm)
{
	if (sig_count > 0)
		return OUTPUT_INTERRUPTED;
	return compare_run_complete(cm) == cm->pairs ? OUTPUT_COMPLETE :
	    OUTPUT_FAILED;
}

/*
 * The row of phase 'p' into '*row' from the times of the repetitions of
 * 'cm' that completed (a pair with one that did not counts for nothing):
 * pairs_row(), and its return value.
 */
int
compare_run_row(const struct compare_run *cm, size_t p,
    struct pairs_row *row)
{
	double		a[PAIRS_MAX], b[PAIRS_MAX];
	unsigned	pair, j;

	for (pair = 0; pair < cm->pairs && pair < PAIRS_MAX; pair++) {
		a[pair] = b[pair] = NAN;
		for (j = 2 * pair; j < 2 * pair + 2; j++) {
			if (!compare_run_completed(cm, j))
				continue;
			if (pairs_side(j) == PAIRS_A)
				a[pair] = cm->ns[j * PHASE_COUNT + p];
			else
				b[pair] = cm->ns[j * PHASE_COUNT + p];
		}
	}
	return pairs_row(a, b, pair, compare_run_entries(cm, p), row);
}

/*
 * What phase 'p' of a run handles, which its rate counts: the files; in
 * a tree, the directories for mkdir, and files and directories for
 * delete.
 */
double
compare_run_entries(const struct compare_run *cm, size_t p)
{
	if (p == PHASE_MKDIR)
		return (double)cm->dirs;
	if (p == PHASE_DELETE)
		return (double)(cm->n + cm->dirs);
	return (double)cm->n;
}

/* Free what 'cm' holds. */
void
compare_run_free(struct compare_run *cm)
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
