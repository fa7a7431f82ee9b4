/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * suite: largedir suite [options] CONFIG..., the same workload on every
 * target in turn.  A front-end module: each target runs in a largedir
 * process of its own (its own set-up, teardown, exit status and outputs,
 * all in one run directory), and the suite prints one summary line per
 * target, then draws the graphs and writes the page.
 */

#include <sys/types.h>
#include <sys/wait.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/sig.h"
#include "base/util.h"
#include "engine/workload.h"
#include "page/page.h"
#include "record/results.h"
#include "report/report.h"
#include "settings/config.h"
#include "target/target.h"
#include "target/uml.h"
#include "verbs/plot.h"
#include "verbs/suite.h"

#define SUITE_MAX	64	/* targets in one suite */

/* A suite under way. */
struct suite {
	struct config		 cfg;
	struct config_args	 a;
	int			 nconf;		/* the configs, a.rest[i] */
	int			 nt;		/* the targets: each config,
						   once per memory limit */
	int			 conf[SUITE_MAX];	/* target's config */
	char			*limit[SUITE_MAX];	/* --memory-limit=,
							   or NULL */
	char			*uml[SUITE_MAX];	/* --uml=, or NULL */
	char			*labels[SUITE_MAX];
	int			 ws[SUITE_MAX];	/* wait statuses, -1: not run */
	char			*pass[CONFIG_MAX_PASS];	/* options for each */
	int			 np;
	const char		*out;		/* the suite's directory */
	char			*outbuf;	/* out, when made here */
	char			*budget;	/* --budget=SHARE, or NULL */
};

static const char	*suite_status(int, char *, size_t);
static void		 suite_mark_failed(const char *, const char *, int);
static bool		 options(struct suite *, int, char **);
static int		 usage(FILE *);
static void		 read_configs(struct suite *);
static void		 prepare(struct suite *, int, char **);
static void		 run_targets(struct suite *);
static void		 summary_line(const struct suite *, int, int);
static bool		 summary(const struct suite *);
static void		 suite_free(struct suite *);

/* What the exit status 'ws' of a target's largedir says, for the table. */
static const char *
suite_status(int ws, char *buf, size_t len)
{
	if (WIFSIGNALED(ws)) {
		(void)snprintf(buf, len, "killed by SIG%s",
		    sigabbrev_np(WTERMSIG(ws)));
		return buf;
	}
	switch (WEXITSTATUS(ws)) {
	case 0:
		return "complete";
	case EXIT_STOPPED:
		return "stopped by the fs";
	case EXIT_TARGET:
		return "not set up";
	case 128 + SIGINT:
	case 128 + SIGTERM:
		return "interrupted";
	default:
		(void)snprintf(buf, len, "failed (exit %d)", WEXITSTATUS(ws));
		return buf;
	}
}

/*
 * A target that ended with 'ws' and left neither outputs nor LABEL.failed
 * (it died before it could say why there) gets a LABEL.failed with its
 * status, so that the page lists it: the suite's output holds its message.
 */
static void
suite_mark_failed(const char *out, const char *label, int ws)
{
	char	*json, *failed, st[32];
	FILE	*fp;

	json = xasprintf("%s/%s.json", out, label);
	failed = xasprintf("%s/%s.failed", out, label);
	if (access(json, F_OK) == -1 && errno == ENOENT &&
	    util_mkdir_p(out) == 0 && (fp = fopen(failed, "wx")) != NULL) {
		(void)fprintf(fp, "%s; its message is in the suite's output\n",
		    suite_status(ws, st, sizeof(st)));
		(void)fclose(fp);
	}
	free(json);
	free(failed);
}

/*
 * Read the options of largedir suite ('argc' words of 'argv') into
 * su->cfg and su->a, and keep the ones every target gets: exit 2 with
 * one line on a usage error.  Return false when they asked only for -h
 * or -V, which is answered then.
 */
static bool
options(struct suite *su, int argc, char **argv)
{
	char	errbuf[LD_ERRLEN];
	size_t	k;

	/* Checked here once, passed on to every target. */
	if (!report_parsed(config_parse_args(&su->cfg, NULL, CONFIG_SUITE,
	    argc, argv, &su->a, errbuf), errbuf, usage))
		return false;
	for (k = 0; k < su->a.ngiven; k++)
		if (su->cfg.nmemory_limits < 2 || strcmp(
		    su->a.given[k].opt->name, "memory-limit") != 0)
			su->pass[su->np++] = su->a.given[k].value != NULL ?
			    xasprintf("--%s=%s", su->a.given[k].opt->name,
			    su->a.given[k].value) : xasprintf("--%s",
			    su->a.given[k].opt->name);
	if (config_check(&su->cfg, errbuf) == -1)
		report_usage("%s", errbuf);
	return true;
}

/*
 * --kernels A,B,...: the UML kernels into 'path' (to free) and their
 * releases into 'rel' (room for SUITE_MAX each); return how many, 0
 * without the option.  Exit 2 with one line for an empty element, two
 * kernels of one release, or one whose release cannot be read.
 */
static int
kernels(const struct suite *su, char **path, char (*rel)[64])
{
	char	errbuf[LD_ERRLEN], **el;
	size_t	n, i, j;

	if (su->cfg.kernels == NULL)
		return 0;
	if ((el = util_list_split(su->cfg.kernels, &n)) == NULL)
		report_usage("--kernels '%s': a list A,B,... has an empty "
		    "element", su->cfg.kernels);
	if (n > SUITE_MAX)
		report_usage("--kernels: at most %d kernels", SUITE_MAX);
	for (i = 0; i < n; i++) {
		if (uml_release(el[i], rel[i], sizeof(rel[i]), errbuf) == -1)
			report_usage("--kernels: %s", errbuf);
		for (j = 0; j < i; j++)
			if (strcmp(rel[i], rel[j]) == 0)
				report_usage("--kernels: %s and %s are both "
				    "Linux %s", el[j], el[i], rel[i]);
		path[i] = xstrdup(el[i]);
	}
	free(el);	/* and the elements, which live in its block */
	return (int)n;
}

/*
 * Read every config before anything runs (one typo, no suite) and label
 * each target: a config's label; with several memory limits one target
 * per limit, LABEL-LIMIT ("ext4-64M"); with --kernels one per kernel,
 * LABEL-RELEASE ("nfs3-uml-6.12.57").  Exit 2 with one line when a
 * config cannot be read, --kernels names a config that is not
 * kernel = uml, or two targets have the same label.
 */
static void
read_configs(struct suite *su)
{
	struct target_conf	tc;
	struct config		check;
	char			errbuf[LD_ERRLEN], lim[32], *kpath[SUITE_MAX];
	char			krel[SUITE_MAX][64];
	const char		*base;
	unsigned		nl = su->cfg.nmemory_limits > 1 ?
				    su->cfg.nmemory_limits : 1, l;
	int			i, j, nk;

	su->nconf = su->a.nrest;
	if (su->nconf == 0)
		report_usage("suite: name at least one config (see "
		    "configs/)");
	nk = kernels(su, kpath, krel);
	if (nk > 0 && nl > 1)
		report_usage("suite: --kernels or --memory-limit A,B: one "
		    "sweep at a time");
	if (su->nconf * (int)nl * (nk > 0 ? nk : 1) > SUITE_MAX)
		report_usage("suite: at most %d targets (configs times "
		    "memory limits or kernels)", SUITE_MAX);
	for (i = 0; i < su->nconf; i++) {
		config_init(&check);
		target_conf_init(&tc);
		if (config_load(&check, &tc, su->a.rest[i], errbuf) == -1)
			report_usage("%s", errbuf);
		if (nk > 0 && !tc.kernel_uml)
			report_usage("suite: --kernels: %s is not kernel = uml",
			    su->a.rest[i]);
		base = tc.label != NULL ? tc.label : tc.fstype != NULL ?
		    tc.fstype : "largedir";
		for (l = 0; nk > 0 && l < (unsigned)nk; l++, su->nt++) {
			su->conf[su->nt] = i;
			su->labels[su->nt] = xasprintf("%s-%s", base, krel[l]);
			su->uml[su->nt] = xasprintf("--uml=%s", kpath[l]);
		}
		for (l = 0; nk == 0 && l < nl; l++, su->nt++) {
			su->conf[su->nt] = i;
			if (nl == 1) {
				su->labels[su->nt] = xstrdup(base);
				continue;
			}
			util_fmt_size(lim, sizeof(lim),
			    su->cfg.memory_limits[l]);
			su->labels[su->nt] = xasprintf("%s-%s", base, lim);
			su->limit[su->nt] = xasprintf("--memory-limit=%s",
			    lim);
		}
		target_conf_free(&tc);
		config_free(&check);
	}
	for (i = 0; i < nk; i++)
		free(kpath[i]);
	for (i = 0; i < su->nt; i++)
		for (j = 0; j < i; j++)
			if (strcmp(su->labels[i], su->labels[j]) == 0)
				report_usage("suite: %s and %s have the "
				    "same label '%s'", su->a.rest[su->conf[j]],
				    su->a.rest[su->conf[i]], su->labels[i]);
}

/*
 * The suite's directory (results/STAMP-suite unless -o), each target's
 * share of --total-budget, and the command as the user typed it ('argc'
 * words of 'argv'), which each target records, in the environment.
 */
static void
prepare(struct suite *su, int argc, char **argv)
{
	char		 dstamp[32], *q, *cmd;
	time_t		 now;
	uint64_t	 share;

	su->out = su->cfg.output;
	if (su->out == NULL) {
		now = time(NULL);
		(void)strftime(dstamp, sizeof(dstamp), "%Y%m%dT%H%M%SZ",
		    gmtime(&now));
		su->out = su->outbuf = xasprintf("results/%s-suite", dstamp);
	}
	/* Each target's share, in whole ms so that a person can read it. */
	if (su->cfg.total_budget_ns != 0) {
		share = su->cfg.total_budget_ns / (uint64_t)su->nt / 1000000;
		su->budget = share % 1000 == 0 ? xasprintf("--budget=%" PRIu64
		    "s", share / 1000) : xasprintf("--budget=%" PRIu64 "ms",
		    share);
	}
	if (sig_setup(false) == -1)
		err(1, "sigaction");
	/* Each target records the command as the user typed it. */
	q = util_quote_argv(argc, argv);	/* argv[0] is "suite" */
	cmd = xasprintf("largedir %s", q);
	if (setenv(SUITE_COMMAND_ENV, cmd, 1) == -1)
		err(1, "setenv");
	free(q);
	free(cmd);
}

/* Run each target in turn, as a largedir of its own, until a signal. */
static void
run_targets(struct suite *su)
{
	char	*args[256];
	int	 i, j, na;

	for (i = 0; i < su->nt; i++)
		su->ws[i] = -1;
	for (i = 0; i < su->nt && sig_count == 0; i++) {
		printf("suite: target %d of %d: %s (%s)\n", i + 1, su->nt,
		    su->labels[i], su->a.rest[su->conf[i]]);
		(void)fflush(stdout);
		na = 0;
		args[na++] = (char *)"largedir";
		args[na++] = (char *)"-c";
		args[na++] = su->a.rest[su->conf[i]];
		args[na++] = (char *)"-o";
		args[na++] = (char *)su->out;
		for (j = 0; j < su->np; j++)
			args[na++] = su->pass[j];
		if (su->budget != NULL)
			args[na++] = su->budget;
		if (su->limit[i] != NULL)
			args[na++] = su->limit[i];
		if (su->uml[i] != NULL)
			args[na++] = su->uml[i];
		if (su->limit[i] != NULL || su->uml[i] != NULL) {
			args[na++] = (char *)"--label";
			args[na++] = su->labels[i];
		}
		args[na] = NULL;
		if (sig_run_self(args, &su->ws[i]) == -1)
			err(1, "running the target");
		if (su->ws[i] != 0)
			suite_mark_failed(su->out, su->labels[i], su->ws[i]);
	}
}

/*
 * The summary line of target 'i': its status, the largest n it reached
 * and its rates there, from its outputs in the directory 'outfd' (-1:
 * none could be read).
 */
static void
summary_line(const struct suite *su, int i, int outfd)
{
	struct results_target	rt;
	double			vals[PHASE_COUNT], n, at;
	char			errbuf[LD_ERRLEN], st[32], cnt[32], rate[32];
	int			j;

	memset(&rt, 0, sizeof(rt));
	(void)strcpy(cnt, "-");
	for (j = 0; j < PHASE_COUNT; j++)
		vals[j] = NAN;
	if (outfd != -1 && results_read_one(&rt, outfd, su->out,
	    su->labels[i], errbuf) == 0) {
		n = results_max_n(&rt);
		if (isfinite(n))
			util_fmt_count(cnt, sizeof(cnt), (uint64_t)n);
		for (j = 0; j < (int)su->cfg.nphases; j++)
			vals[j] = results_rate_at(&rt,
			    phase_name(su->cfg.phases[j]), n, &at);
	}
	results_target_free(&rt);
	printf("%-20s %-18s %12s", su->labels[i], suite_status(su->ws[i], st,
	    sizeof(st)), cnt);
	for (j = 0; j < (int)su->cfg.nphases; j++) {
		if (isnan(vals[j]))
			(void)strcpy(rate, "-");
		else
			util_fmt_rate(rate, sizeof(rate), vals[j]);
		printf(" %12s", rate);
	}
	printf("\n");
}

/*
 * The summary: the largest n each target reached, and its rates.
 * Return whether a target did not complete (or did not run).
 */
static bool
summary(const struct suite *su)
{
	int	i, j, outfd;
	bool	bad = false;

	outfd = open(su->out, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	printf("\nsuite: results in %s\n%-20s %-18s %12s", su->out, "target",
	    "status", "largest n");
	for (j = 0; j < (int)su->cfg.nphases; j++)
		printf(" %10s/s", phase_name(su->cfg.phases[j]));
	printf("\n");
	for (i = 0; i < su->nt; i++) {
		if (su->ws[i] == -1) {
			printf("%-20s %-18s\n", su->labels[i], "not run");
			bad = true;
			continue;
		}
		if (!WIFEXITED(su->ws[i]) || WEXITSTATUS(su->ws[i]) != 0)
			bad = true;
		summary_line(su, i, outfd);
	}
	if (outfd != -1)
		(void)close(outfd);
	return bad;
}

/* Free what 'su' holds. */
static void
suite_free(struct suite *su)
{
	int	i;

	config_free(&su->cfg);
	for (i = 0; i < su->nt; i++) {
		free(su->labels[i]);
		free(su->limit[i]);
		free(su->uml[i]);
	}
	for (i = 0; i < su->np; i++)
		free(su->pass[i]);
	free(su->budget);
	free(su->outbuf);
}

/* largedir suite -h; returns 0, or -1 if it could not be printed. */
static int
usage(FILE *fp)
{
	return fprintf(fp, "usage: largedir suite [options] [--total-budget "
	    "duration] file ...\n\n"
	    "Each file is a target's config (configs/NAME.conf).  The same "
	    "workload runs\non every target in turn, each as a largedir of "
	    "its own, into one results\ndirectory; then the graphs and the "
	    "page are made there.\n\n"
	    "  -b, --budget duration     each target's budget (30m)\n"
	    "      --total-budget duration\n"
	    "                            the suite's, split evenly among the "
	    "targets\n"
	    "  -o, --output path         the suite's directory "
	    "(results/STAMP-suite)\n"
	    "      --memory-limit A,B,...\n"
	    "                            each target once per limit, "
	    "labelled LABEL-A...:\n"
	    "                            the knee against memory "
	    "(a graph and the page)\n"
	    "      --kernels PATH,...    each kernel = uml target once per "
	    "UML kernel,\n"
	    "                            labelled LABEL-RELEASE: a column "
	    "per kernel\n\n"
	    "The options of a run (largedir -h) are passed on to every "
	    "target.\n") < 0 ? -1 : 0;
}

/*
 * largedir suite [options] CONFIG...: the same workload on each target in
 * turn, every one in a largedir process of its own (its own setup,
 * teardown, exit status and outputs, all in one run directory), then one
 * summary line per target.  --total-budget splits a budget evenly.  A
 * target that fails is reported and the suite goes on.  Exits 0 when every
 * target completed, EXIT_SUITE when one did not, 128 + signal when
 * interrupted: the signal is passed on to the target running then, which
 * stops and cleans up, and the suite runs no other.
 */
int
suite_main(int argc, char **argv)
{
	struct suite	su;
	char		errbuf[LD_ERRLEN];
	bool		bad;

	memset(&su, 0, sizeof(su));
	config_init(&su.cfg);
	if (!options(&su, argc, argv)) {
		suite_free(&su);
		return 0;
	}
	read_configs(&su);
	prepare(&su, argc, argv);
	run_targets(&su);
	bad = summary(&su);
	/* Graphs and the page are extras: the table has said it all. */
	if (sig_count == 0) {
		(void)plot_results(su.out, false);
		if (page_write(su.out, errbuf) == -1)
			warnx("%s", errbuf);
		else
			printf("page: %s/index.html and index.de.html\n",
			    su.out);
	}
	if (fflush(stdout) == EOF)
		err(1, "stdout");
	suite_free(&su);
	if (sig_count > 0)
		return 128 + sig_first;
	return bad ? EXIT_SUITE : 0;
}
