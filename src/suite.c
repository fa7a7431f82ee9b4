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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "gitid.h"	/* $(O)/gitid.h, from the Makefile */
#include "page.h"
#include "plot.h"
#include "report.h"
#include "results.h"
#include "sig.h"
#include "suite.h"
#include "target.h"
#include "util.h"
#include "workload.h"

#define SUITE_MAX	64	/* targets in one suite */

static const char	*suite_status(int, char *, size_t);
static void		 suite_mark_failed(const char *, const char *, int);

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
	struct config_args	 a;
	struct target_conf	 tc;
	struct config		 cfg, check;
	const char		*out;
	char			*labels[SUITE_MAX], *outbuf = NULL;
	char			 errbuf[LD_ERRLEN];
	char			 dstamp[32], st[32], cnt[32], rate[32];
	char			*args[256], *pass[CONFIG_MAX_PASS];
	char			*budget = NULL, *q, *cmd;
	struct results_target	 rt;
	double			 vals[PHASE_COUNT], n, at;
	time_t			 now;
	uint64_t		 share;
	int			 i, j, na, np = 0, nconf, ws[SUITE_MAX];
	int			 bad = 0, outfd;
	size_t			 k;

	config_init(&cfg);
	/* Checked here once, passed on to every target. */
	switch (config_parse_args(&cfg, NULL, CONFIG_SUITE, argc, argv, &a,
	    errbuf)) {
	case -1:
		report_usage("%s", errbuf);
	case CONFIG_ACT_HELP:
		if (config_usage(stdout) == -1)
			err(1, "stdout");
		config_free(&cfg);
		return 0;
	case CONFIG_ACT_VERSION:
		printf("largedir %s (%s)\n", LD_VERSION, LD_GIT);
		config_free(&cfg);
		return 0;
	default:
		break;
	}
	for (k = 0; k < a.ngiven; k++)
		pass[np++] = a.given[k].value != NULL ? xasprintf("--%s=%s",
		    a.given[k].opt->name, a.given[k].value) :
		    xasprintf("--%s", a.given[k].opt->name);
	if (config_check(&cfg, errbuf) == -1)
		report_usage("%s", errbuf);
	nconf = a.nrest;
	if (nconf == 0)
		report_usage("suite: name at least one config (see "
		    "configs/)");
	if (nconf > SUITE_MAX)
		report_usage("suite: at most %d configs", SUITE_MAX);
	/* Every config is read before anything runs: one typo, no suite. */
	for (i = 0; i < nconf; i++) {
		config_init(&check);
		target_conf_init(&tc);
		if (config_load(&check, &tc, a.rest[i], errbuf) == -1)
			report_usage("%s", errbuf);
		labels[i] = xstrdup(tc.label != NULL ? tc.label :
		    tc.fstype != NULL ? tc.fstype : "largedir");
		for (j = 0; j < i; j++)
			if (strcmp(labels[i], labels[j]) == 0)
				report_usage("suite: %s and %s have the "
				    "same label '%s'", a.rest[j],
				    a.rest[i], labels[i]);
		target_conf_free(&tc);
		config_free(&check);
	}
	out = cfg.output;
	if (out == NULL) {
		now = time(NULL);
		(void)strftime(dstamp, sizeof(dstamp), "%Y%m%dT%H%M%SZ",
		    gmtime(&now));
		out = outbuf = xasprintf("results/%s-suite", dstamp);
	}
	/* Each target's share, in whole ms so that a person can read it. */
	if (cfg.total_budget_ns != 0) {
		share = cfg.total_budget_ns / (uint64_t)nconf / 1000000;
		budget = share % 1000 == 0 ? xasprintf("--budget=%" PRIu64
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

	for (i = 0; i < nconf; i++)
		ws[i] = -1;
	for (i = 0; i < nconf && sig_count == 0; i++) {
		printf("suite: target %d of %d: %s (%s)\n", i + 1, nconf,
		    labels[i], a.rest[i]);
		(void)fflush(stdout);
		na = 0;
		args[na++] = (char *)"largedir";
		args[na++] = (char *)"-c";
		args[na++] = a.rest[i];
		args[na++] = (char *)"-o";
		args[na++] = (char *)out;
		for (j = 0; j < np; j++)
			args[na++] = pass[j];
		if (budget != NULL)
			args[na++] = budget;
		args[na] = NULL;
		if (sig_run_self(args, &ws[i]) == -1)
			err(1, "running the target");
		if (ws[i] != 0)
			suite_mark_failed(out, labels[i], ws[i]);
	}

	/* The summary: the largest n each target reached, and its rates. */
	outfd = open(out, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	memset(&rt, 0, sizeof(rt));
	printf("\nsuite: results in %s\n%-20s %-18s %12s", out, "target",
	    "status", "largest n");
	for (j = 0; j < (int)cfg.nphases; j++)
		printf(" %10s/s", workload_phase_name(cfg.phases[j]));
	printf("\n");
	for (i = 0; i < nconf; i++) {
		if (ws[i] == -1) {
			printf("%-20s %-18s\n", labels[i], "not run");
			bad = 1;
			continue;
		}
		if (!WIFEXITED(ws[i]) || WEXITSTATUS(ws[i]) != 0)
			bad = 1;
		(void)strcpy(cnt, "-");
		for (j = 0; j < PHASE_COUNT; j++)
			vals[j] = NAN;
		if (outfd != -1 && results_read_one(&rt, outfd, out,
		    labels[i], errbuf) == 0) {
			n = results_max_n(&rt);
			if (isfinite(n))
				util_fmt_count(cnt, sizeof(cnt), (uint64_t)n);
			for (j = 0; j < (int)cfg.nphases; j++)
				vals[j] = results_rate_at(&rt,
				    workload_phase_name(cfg.phases[j]), n,
				    &at);
		}
		results_target_free(&rt);
		printf("%-20s %-18s %12s", labels[i], suite_status(ws[i], st,
		    sizeof(st)), cnt);
		for (j = 0; j < (int)cfg.nphases; j++) {
			if (isnan(vals[j]))
				(void)strcpy(rate, "-");
			else
				util_fmt_rate(rate, sizeof(rate), vals[j]);
			printf(" %12s", rate);
		}
		printf("\n");
	}
	if (outfd != -1)
		(void)close(outfd);
	/* Graphs and the page are extras: the table has said it all. */
	if (sig_count == 0) {
		(void)plot_results(out, false);
		if (page_write(out, errbuf) == -1)
			warnx("%s", errbuf);
		else
			printf("page: %s/index.html and index.de.html\n", out);
	}
	if (fflush(stdout) == EOF)
		err(1, "stdout");
	config_free(&cfg);
	for (i = 0; i < nconf; i++)
		free(labels[i]);
	for (j = 0; j < np; j++)
		free(pass[j]);
	free(budget);
	free(outbuf);
	if (sig_count > 0)
		return 128 + sig_first;
	return bad ? EXIT_SUITE : 0;
}
