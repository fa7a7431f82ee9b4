/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * report: see report.h.
 *
 * The progress line is redrawn in place ("\r\033[K") on stderr; any
 * other line, on either stream, first clears it (report_clear()), so a
 * warning never lands in the middle of it.  Whether stderr is a terminal
 * and whether a progress line is up is terminal state: one terminal, so
 * it lives here, not in the run.
 */

#include <err.h>
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "memcg.h"
#include "report.h"
#include "target.h"
#include "timing.h"
#include "util.h"
#include "backend.h"

static bool	quiet;		/* -q */
static bool	tty;		/* progress lines on stderr */
static bool	shown;		/* a progress line is up */

/*
 * Set up reporting: 'be_quiet' for -q; progress lines only if
 * 'want_progress' and stderr is a terminal.
 */
void
report_init(bool be_quiet, bool want_progress)
{
	quiet = be_quiet;
	tty = !quiet && want_progress && isatty(STDERR_FILENO);
}

/* Whether -q silences the round lines. */
bool
report_quiet(void)
{
	return quiet;
}

/* Whether progress lines go to stderr (a terminal, and not -q). */
bool
report_tty(void)
{
	return tty;
}

/* Take the progress line down, if one is up. */
void
report_clear(void)
{
	if (shown)
		(void)fputs("\r\033[K", stderr);
	shown = false;
}

/* warnx(3), after clearing the progress line. */
void
report_warn(const char *fmt, ...)
{
	va_list	ap;

	report_clear();
	va_start(ap, fmt);
	vwarnx(fmt, ap);
	va_end(ap);
}

/*
 * Redraw the progress line: phase 'p' of the round 'pr' describes has
 * handled 'done' files by 'now' (timing_now()).  Only on a terminal.
 */
void
report_progress(const struct report_progress *pr, enum phase p,
    uint64_t done, uint64_t now)
{
	char		rate[32], elapsed[32], budget[32], eta[32], count[32];
	uint64_t	el;
	double		pct, left;

	if (!tty)
		return;
	el = now - pr->phase_t0_ns;
	util_fmt_rate(rate, sizeof(rate), el > 0 ? done * 1e9 / el : 0);
	util_fmt_duration(elapsed, sizeof(elapsed), now - pr->run_t0_ns);
	util_fmt_duration(budget, sizeof(budget), pr->budget_ns);
	pct = pr->n > 0 ? 100.0 * done / pr->n : 0;
	left = pr->round_pred_ns - (double)(now - pr->round_t0_ns);
	if (pr->round_pred_ns > 0 && left > 0)
		util_fmt_duration(eta, sizeof(eta), (uint64_t)left);
	else
		(void)strcpy(eta, "?");
	util_fmt_count(count, sizeof(count), pr->n);
	shown = true;
	(void)fprintf(stderr, "\r\033[Kround %u  n=%s  %s %3.0f%%  %s/s  "
	    "%s/%s  round ETA %s", pr->round, count, workload_phase_name(p),
	    pct > 100 ? 100 : pct, rate, elapsed, budget, eta);
}

/*
 * One line on stdout for the finished round 'k' of 'n' files: the median
 * rate 'med' of each of the 'np' phases 'phases' (indexed by phase),
 * with the spread from 'lo' to 'hi' over 'reps' repetitions, and the
 * round's wall time 'ns'.
 */
void
report_round(unsigned k, uint64_t n, bool warmup, const enum phase *phases,
    size_t np, const double *med, const double *lo, const double *hi,
    unsigned reps, uint64_t ns)
{
	char		count[32], rate[32], dur[32];
	enum phase	p;
	size_t		i;

	if (quiet)
		return;
	report_clear();
	util_fmt_count(count, sizeof(count), n);
	printf("%s %3u  n=%-11s", warmup ? "warmup" : "round", k, count);
	for (i = 0; i < np; i++) {
		p = phases[i];
		util_fmt_rate(rate, sizeof(rate), med[p]);
		printf("  %s %7s/s", workload_phase_name(p), rate);
		if (reps > 1 && med[p] > 0)
			printf(" ±%.1f%%", 50 * (hi[p] - lo[p]) / med[p]);
	}
	util_fmt_duration(dur, sizeof(dur), ns);
	printf("  %s\n", dur);
	(void)fflush(stdout);
}

/*
 * The knee line of phase 'pn': where its rates fall below 'fraction' of
 * their plateau for good, or that they decline from the start.  Flat
 * curves and short runs say nothing.
 */
void
report_knee(const char *pn, const struct stats_knee *k, double fraction)
{
	char	c[32], r1[32], r2[32];

	if (quiet)
		return;
	switch (k->shape) {
	case STATS_KNEE:
		util_fmt_count(c, sizeof(c), (uint64_t)k->n);
		util_fmt_rate(r1, sizeof(r1), k->before);
		util_fmt_rate(r2, sizeof(r2), k->after);
		printf("knee: %s falls below %.0f%% of its plateau from n=%s "
		    "on (%s/s before, %s/s after)\n", pn, 100 * fraction, c,
		    r1, r2);
		break;
	case STATS_DECLINE:
		printf("knee: %s declines from the start, without a "
		    "plateau\n", pn);
		break;
	case STATS_FLAT:
	case STATS_TOO_FEW:
		break;
	}
}

/*
 * The run cannot go on because of errno 'e': fill 'out' with the exit
 * status, the outcome the outputs record and the reason.
 *	- 128 + signal, interrupted: EINTR after a signal;
 *	- EXIT_STOPPED, stopped: the filesystem refused (ENOSPC, EDQUOT,
 *	  EMFILE, ENFILE, EROFS, EACCES, EPERM), the work directory
 *	  vanished (ENOENT, ESTALE or ENOTDIR with 'c'->vanished), or the
 *	  memory limit was reached (ENOMEM with 'c'->memory_limit);
 *	- 1, failed: anything else, which largedir did not expect.
 */
void
report_stop_status(int e, const struct report_cause *c,
    struct report_stop *out)
{
	out->status = 1;
	out->outcome = OUTPUT_FAILED;
	(void)snprintf(out->why, sizeof(out->why), "%s", strerror(e));
	switch (e) {
	case ENOMEM:
		if (!c->memory_limit)
			break;
		(void)strcpy(out->why, "out of memory");
		out->outcome = OUTPUT_STOPPED;
		out->status = EXIT_STOPPED;
		break;
	case EINTR:
		if (c->signo == 0)
			break;
		(void)snprintf(out->why, sizeof(out->why), "interrupted by "
		    "SIG%s", sigabbrev_np(c->signo));
		out->outcome = OUTPUT_INTERRUPTED;
		out->status = 128 + c->signo;
		break;
	case ENOENT:
	case ESTALE:
	case ENOTDIR:
		if (!c->vanished)
			break;
		(void)strcpy(out->why, "the work directory vanished");
		/* FALLTHROUGH */
	case ENOSPC:
	case EDQUOT:
	case EMFILE:
	case ENFILE:
	case EROFS:
	case EACCES:
	case EPERM:
		out->outcome = OUTPUT_STOPPED;
		out->status = EXIT_STOPPED;
		break;
	default:
		break;
	}
}

/* ===== --cleanup ===== */

/* What a backend's sweep() found in one work directory. */
void
report_sweep(void *arg, const struct backend_report *r)
{
	(void)arg;
	if (r->why != NULL)
		printf("kept %s: %s\n", r->path, r->why);
	else if (r->removed)
		printf("removed %s (%" PRIu64 " files)\n", r->path, r->files);
	else
		printf("kept %s: %" PRIu64 " files removed, %" PRIu64
		    " %s not made by largedir left in place\n", r->path,
		    r->files, r->kept, r->kept == 1 ? "entry" : "entries");
}

/* What memcg_sweep() found in one memory cgroup. */
void
report_memcg(void *arg, const struct memcg_report *r)
{
	(void)arg;
	if (r->why != NULL)
		printf("kept memory cgroup %s: %s\n", r->path, r->why);
	else
		printf("%s memory cgroup %s\n", r->removed ? "removed" :
		    "kept", r->path);
}

/* What target_sweep() found in one target run directory. */
void
report_target(void *arg, const struct target_report *r)
{
	(void)arg;
	if (r->why != NULL)
		printf("kept %s: %s\n", r->path, r->why);
	else
		printf("%s %s%s%s%s%s\n", r->removed ? "removed" : "kept",
		    r->path, r->unmounted ? " (unmounted)" : "",
		    r->loopdev != NULL ? " (detached " : "",
		    r->loopdev != NULL ? r->loopdev : "",
		    r->loopdev != NULL ? ")" : "");
}
