/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * largedir: how does a filesystem cope when one directory grows very
 * large?  Round after round, it creates n files in a fresh directory,
 * opens, lists and deletes them (the phases asked for), timing each, and
 * raises n until the time budget is spent.  The outputs are rewritten
 * whole after every round, so the rounds measured survive whatever stops
 * the run; and whatever stops it, largedir removes what it created and
 * nothing else.
 *
 * This file holds the verbs and the story of a run, from its set-up to
 * its teardown: run_main() takes the steps of src/run/setup.c (what a
 * run needs, and whether it can start) and of src/run/meta.c (what its
 * outputs say), one line each, and said() says what they have to say.
 * The rounds are round_loop()'s (src/engine/round.c), as
 * src/base/timing.c plans them; what a person reads is
 * src/report/report.c's, and each other verb is a module of its own in
 * src/verbs/ (ARCHITECTURE.md).  The state of a run is one struct
 * run (setup.h), passed by pointer; tidy(), at exit, finds it through
 * 'tidy_run'.
 */

#include <sys/random.h>

#include <err.h>
#include <errno.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/sig.h"
#include "base/timing.h"
#include "base/util.h"
#include "engine/measure.h"
#include "engine/rankrun.h"
#include "engine/ranks.h"
#include "engine/round.h"
#include "page/page.h"
#include "report/budgetsay.h"
#include "report/knee.h"
#include "report/report.h"
#include "run/guest.h"
#include "run/meta.h"
#include "run/mpistart.h"
#include "run/setup.h"
#include "settings/config.h"
#include "verbs/cleanup.h"
#include "verbs/compare.h"
#include "verbs/nfsstat.h"
#include "verbs/plot.h"
#include "verbs/suite.h"
#include "verbs/table.h"

/* What a verb other than the run itself does. */
struct verb {
	const char	*name;
	int		(*main)(int, char **);
};

static struct run	*tidy_run;	/* for tidy(), at exit */

static int	verb_cleanup(int, char **);
static int	verb_help(int, char **);
static int	run_main(int, char **);
static void	parse_args(struct run *, int, char **, bool *);
static void	said(struct run *, int, struct setup_say *);
static void	hooks(struct run *);
static void	child_init(void *);
static void	setup_signals(void);
static void	say_start(struct run *);
static int	run_rounds(struct run *);
static void	on_planned(void *, const struct timing_round *);
static void	on_done(void *, const struct timing_round *,
		    const struct round_result *);
static int	stop_run(struct run *);
static void	on_poll(void *, enum phase, uint64_t);
static void	on_note(void *, const struct round_note *);
static void	flush_outputs(struct run *);
static void	tidy(void);
static void	warn_line(bool, const char *);

static const struct verb verbs[] = {
	{ "suite", suite_main },
	{ "compare", compare_main },
	{ "plot", plot_main },
	{ "page", page_main },
	{ "cleanup", verb_cleanup },
	{ "nfsstat", nfsstat_main },
	{ "table", table_main },
	{ "help", verb_help },
	{ NULL, NULL }
};

int
main(int argc, char *argv[])
{
	const struct verb	*v;

	(void)setlocale(LC_NUMERIC, "C");
	for (v = verbs; argc > 1 && v->name != NULL; v++)
		if (strcmp(argv[1], v->name) == 0)
			return v->main(argc - 1, argv + 1);
	return run_main(argc, argv);
}

/* ===== The verbs ===== */

/* largedir help [VERB]: largedir -h, or VERB's -h. */
static int
verb_help(int argc, char **argv)
{
	const struct verb	*v;
	char			*args[] = { NULL, (char *)"--help", NULL };

	for (v = verbs; argc == 2 && v->name != NULL; v++)
		if (strcmp(argv[1], v->name) == 0 && v->main != verb_help) {
			args[0] = (char *)v->name;
			return v->main(2, args);
		}
	if (argc > 2 || (argc == 2 && strcmp(argv[1], "run") != 0 &&
	    strcmp(argv[1], "-h") != 0 && strcmp(argv[1], "--help") != 0))
		report_usage("help: no verb '%s' (suite, compare, plot, page, "
		    "cleanup, nfsstat, table)", argv[1]);
	if (config_usage(stdout) == -1 || fflush(stdout) == EOF)
		err(1, "stdout");
	return 0;
}

/* largedir cleanup [--scratch DIR] [DIR]: largedir --cleanup, spelt out. */
static int
verb_cleanup(int argc, char **argv)
{
	char	**args;
	int	  rc;

	if ((args = cleanup_verb_args(argc, argv)) == NULL)
		return 0;	/* -h, answered */
	rc = run_main(argc + 1, args);
	free(args);
	return rc;
}

/*
 * largedir [options] DIR, or -c FILE: the run.  Returns its exit status;
 * errors on the way exit through err(3), and tidy() removes what was
 * made so far.  Each step of the set-up is one line: its checks are in
 * its own function (src/run/setup.c, src/run/meta.c), and said() says what it
 * has to say.
 */
static int
run_main(int argc, char **argv)
{
	static struct run	 run;	/* static: tidy() runs after main */
	struct run		*r = &run;
	struct setup_say	 s;
	bool			 cleanup = false;
	int			 status;

	setup_init(r);
	parse_args(r, argc, argv, &cleanup);
	if (cleanup)
		return cleanup_main(r->dir, r->cfg.scratch);
	if (config_check(&r->cfg, s.line) == -1)
		report_usage("%s", s.line);
	if (!r->cfg.seed_set && getrandom(&r->cfg.seed, sizeof(r->cfg.seed),
	    0) != sizeof(r->cfg.seed))
		err(1, "getrandom");
	report_init(r->cfg.quiet, true);
	tidy_run = r;
	*s.line = '\0';
	if (r->conf_path != NULL) {
		setup_signals();	/* mkfs may take a while */
		said(r, setup_target(r, &s), &s);
		if (r->cfg.setup_only)
			return setup_only_say(r);	/* tidy() undoes it */
		if (r->tconf.kernel_uml && r->tconf.path == NULL)
			return guest_main(&r->target, &r->cfg, r->conf_path,
			    argc, argv);	/* tidy() tears it down */
		/* The budget is for measuring: it starts after mkfs. */
		r->t0_ns = timing_now();
	}
	said(r, setup_backend(r, &s), &s);
	if (r->cfg.setup_only)
		return setup_only_say(r);
	if (r->cfg.mpi && (status = mpistart(r, &argc, &argv)) != -1)
		return status;		/* a rank but 0: its part is done */
	said(r, setup_cold(r, &s), &s);
	setup_label(r);
	said(r, setup_events(r, &s), &s);
	said(r, meta_init(r, argc, argv, &s), &s);
	setup_signals();	/* before anything exists that needs removing */
	said(r, setup_workdir(r, &s), &s);
	said(r, setup_memcg(r, &s), &s);
	hooks(r);
	said(r, setup_limit(r, &s), &s);
	if (r->cfg.mpi && rankrun_hello(&r->cfg.seed, r->be.workdir, 0,
	    &r->doc.meta) == -1)
		errx(1, "--mpi: the other ranks cannot hear rank 0");
	/* Only now: a run that cannot start leaves no outputs. */
	said(r, meta_open(r, &s), &s);
	say_start(r);

	status = run_rounds(r);
	if (r->cfg.mpi)
		rankrun_end();	/* the other ranks are done */

	if (r->doc.status == OUTPUT_RUNNING)
		r->doc.status = OUTPUT_COMPLETE;
	report_knees(&r->doc, r->cfg.phases, r->cfg.nphases);
	flush_outputs(r);
	tidy();
	if (status == 0 && r->left)
		status = 1;		/* it said what it left, and where */
	ranks_end();
	if (!r->cfg.quiet)
		printf("results: %s/%s.out (.csv, .json)\n", r->outdir,
		    r->label);
	if (fflush(stdout) == EOF || ferror(stdout)) {
		/* A reader that went away (largedir | head) is no error. */
		if (errno == EPIPE || sig_first == SIGPIPE)
			return status != 0 ? status : 128 + SIGPIPE;
		err(1, "stdout");
	}
	return status;
}

/* ===== Set-up ===== */

/*
 * Read the command line into the run (setup_args()); -h and -V end
 * here, and so does a usage error.
 */
static void
parse_args(struct run *r, int argc, char **argv, bool *cleanup)
{
	struct setup_say	s;

	memset(&s, 0, sizeof(s));
	if (!report_parsed(setup_args(r, argc, argv, cleanup, &s), s.line,
	    config_usage))
		exit(0);
	if (*s.line != '\0')
		report_warn("%s", s.line);	/* the run goes on */
}

/*
 * What a set-up step returned ('rc') and said ('s'): a warning is printed
 * and the run goes on; a failure exits with its status and line, as
 * report_usage() does for a usage error.  Once there is a target or a
 * work directory to take down, tidy() is registered to do it at exit.
 */
static void
said(struct run *r, int rc, struct setup_say *s)
{
	if ((r->target_up || r->be.ops != NULL) && !r->held) {
		if (atexit(tidy) != 0)
			err(1, "atexit");
		r->held = true;
	}
	if (rc == 0) {
		if (*s->line != '\0')
			report_warn("%s", s->line);
		*s->line = '\0';
		return;
	}
	if (s->status == EXIT_USAGE)
		report_usage("%s", s->line);
	errx(s->status, "%s", s->line);
}

/* What the round calls back (the story's), and how a phase runs. */
static void
hooks(struct run *r)
{
	struct round	*rd = &r->round;

	rd->on_poll = on_poll;
	rd->note = on_note;
	rd->planned = on_planned;
	rd->done = on_done;
	rd->arg = r;
	runner_init(&rd->runner, r->memcg.dir != NULL ? &r->memcg : NULL,
	    child_init, r);
}

/* In a limited child: its own progress timer and event counters. */
static void
child_init(void *arg)
{
	struct run	*r = arg;

	if (report_tty())
		sig_arm_timer();
	perf_reopen(&r->perf);
}

static void
setup_signals(void)
{
	if (sig_setup(report_tty()) == -1)
		err(1, "sigaction");
}

/* The run's first lines: what it measures, where, with what. */
static void
say_start(struct run *r)
{
	struct report_start	start;

	start.cfg = &r->cfg;
	start.doc = &r->doc;
	start.dir = r->dir;
	start.workdir = r->be.workdir;
	start.memcg = r->memcg.dir;
	start.unavailable = perf_unavailable(&r->perf);
	report_start(&start);
}

/* ===== The rounds ===== */

/*
 * Run rounds until the budget, --max-files or the filesystem says stop
 * (timing.c plans them, round.c runs them).  Return the exit status.
 */
static int
run_rounds(struct run *r)
{
	struct timing_sched	s;
	struct timing_round	last;
	int			rc;

	timing_sched_init(&s, &timing_monotonic, r->t0_ns, r->cfg.budget_ns,
	    r->cfg.policy, r->cfg.start, r->max_n, r->cfg.growth,
	    r->cfg.repeat, r->cfg.warmup);
	/* Blocked clients' shares cannot end at a deadline together. */
	s.nobox = r->cfg.mpi || (r->cfg.clients > 1 &&
	    r->cfg.split == CONFIG_SPLIT_BLOCKED);
	/* Only while the rounds run: cleared before 's' goes. */
	/* cppcheck-suppress autoVariables */
	r->sched = &s;
	r->noise.own = r->cfg.mpi ? 1 : r->cfg.clients;
	r->noise.guest = r->tconf.kernel_uml;	/* the run in the guest */
	rc = round_loop(&r->round, &s, &last);
	r->sched = NULL;
	if (rc == -1)
		return stop_run(r);
	report_end(&r->cfg, &last, r->max_why);
	return 0;
}

/* Before a round: what the schedule planned, said and recorded. */
static void
on_planned(void *arg, const struct timing_round *plan)
{
	struct run	*r = arg;

	r->round_pred_ns = plan->pred_ns;
	r->timebox = plan->timebox;
	report_planned(&r->doc, plan);
}

/*
 * After a round: check it for noise, record a time-boxed round that
 * stopped short, write the outputs, and print its line.
 */
static void
on_done(void *arg, const struct timing_round *plan,
    const struct round_result *res)
{
	struct run	*r = arg;
	uint64_t	 lo, hi;

	if (!plan->warmup) {
		/* Where the knee lies, for the schedule to narrow it. */
		(void)knee_widest(&r->doc, r->cfg.phases, r->cfg.nphases, &lo,
		    &hi);
		if (r->sched != NULL)
			timing_sched_knee(r->sched, lo, hi);
		report_outliers(&r->noise, &r->doc, plan->k, r->cfg.phases,
		    r->cfg.nphases, res);
		report_swing(&r->noise, &r->doc, plan->k, r->cfg.phases,
		    r->cfg.nphases, res->median);
		if (plan->timebox)
			report_timebox_done(&r->doc, plan->k, plan->n_about,
			    plan->n, res->n);
	}
	flush_outputs(r);
	report_round(plan->k, plan->warmup, r->cfg.phases, r->cfg.nphases,
	    res, timing_now() - r->round.t0_ns);
}

/*
 * The round stopped (r->round.stop says why): record why in the outputs
 * (meta_stop()), say it in one line, and return the exit status.
 */
static int
stop_run(struct run *r)
{
	const struct round_stop	*st = &r->round.stop;
	int			 status;

	if (st->phase == NULL)
		errx(1, "%s: %s", st->what, strerror(st->err));
	status = meta_stop(r);
	flush_outputs(r);
	report_warn("%s", r->doc.stop_reason);
	return status;
}

/*
 * Called by the phase loops when the progress timer ticked: redraw the
 * progress line.  (A signal stops the loops by itself: sig_stop().)
 */
static void
on_poll(void *arg, enum phase p, uint64_t done)
{
	struct run		*r = arg;
	struct report_progress	 pr;
	uint64_t		 now = timing_now();

	pr.round = r->round.k;
	pr.n = r->round.n;
	pr.total = p == PHASE_MKDIR ? r->round.w.ndirs :
	    p == PHASE_DELETE ? pr.n + r->round.w.ndirs : pr.n;
	pr.boxed = phase_makes(p) && r->timebox && r->round.rep == 1;
	pr.run_t0_ns = r->t0_ns;
	pr.budget_ns = r->cfg.budget_ns;
	pr.round_t0_ns = r->round.t0_ns;
	pr.round_pred_ns = r->round_pred_ns;
	pr.phase_t0_ns = r->round.phase_t0_ns;
	report_progress(&pr, p, done, now);
}

/* What a round tells on its way (struct round_note). */
static void
on_note(void *arg, const struct round_note *rn)
{
	struct run	*r = arg;

	report_note(&r->noise, &r->doc, r->be.workdir, rn);
}

/* ===== Leaving ===== */

/* Rewrite all outputs; a failure here is fatal (the results are gone). */
static void
flush_outputs(struct run *r)
{
	struct setup_say	s;

	s.status = 0;
	s.line[0] = '\0';
	if (meta_flush(r, &s) == -1)
		errx(s.status, "%s", s.line);
}

/*
 * Remove what the run created, on every way out: the normal end, a stop,
 * and err(3) anywhere (atexit): setup_teardown(), and the outputs say so
 * if the run is leaving while it runs.  Never exits (exit from an atexit
 * handler is undefined).  Idempotent.
 */
static void
tidy(void)
{
	struct run	*r = tidy_run;
	char		 errbuf[LD_ERRLEN];

	if (r == NULL || getpid() != r->pid)
		return;		/* a limited child that died through err(3) */
	setup_teardown(r, warn_line);
	/* Leaving through err(3): say so in the outputs. */
	if (meta_failed(r, errbuf) == -1)
		warnx("%s", errbuf);
	(void)fflush(stdout);
}

/* A line of the teardown, after the progress line if 'clear' says so. */
static void
warn_line(bool clear, const char *line)
{
	if (clear)
		report_clear();
	warnx("%s", line);
}
