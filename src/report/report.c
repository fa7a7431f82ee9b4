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
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend/backend.h"
#include "base/sig.h"
#include "base/timing.h"
#include "base/util.h"
#include "gitid.h"	/* $(O)/gitid.h, from the Makefile */
#include "report/knee.h"
#include "report/report.h"
#include "target/memcg.h"
#include "target/target.h"

static bool	quiet;		/* -q */
static bool	tty;		/* progress lines on stderr */
static bool	shown;		/* a progress line is up */

static void	report_broken(const struct round_listing *);
static void	report_load(struct noise *, struct output_doc *, unsigned,
		    double);
static void	report_stopped(struct output_doc *, unsigned, const char *,
		    double);
static void	report_boxed(struct output_doc *, unsigned, uint64_t,
		    uint64_t);
static void	report_busy(struct output_doc *, unsigned, const char *,
		    const char *);

/*
 * The operand of a verb that takes one results directory ('argc' words
 * of 'argv', the verb first), checked, with the signals caught: NULL
 * after -h or --help, which print 'usage' and 'about' on stdout (the
 * caller exits 0).  A usage error ends the process (exit 2).
 */
const char *
report_dir_verb(int argc, char **argv, const char *usage, const char *about)
{
	char	errbuf[LD_ERRLEN];

	if (argc == 2 && (strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "--help") == 0)) {
		if (printf("%s\n\n%s", usage, about) < 0 ||
		    fflush(stdout) == EOF)
			err(1, "stdout");
		return NULL;
	}
	if (argc != 2)
		report_usage("%s", usage);
	if (util_check_dir(argv[1], errbuf) == -1)
		report_usage("%s", errbuf);
	if (sig_setup(false) == -1)
		err(1, "sigaction");
	return argv[1];
}

/*
 * What parsing a verb's options came to: 'rc' from config_parse_args()
 * (or setup_args()), with its message in 'why'.  A usage error ends the
 * process (exit 2, report_usage()); -h prints 'help'(stdout) and -V the
 * version.  Return whether the verb goes on (false: it printed what was
 * asked for, and the caller exits 0).
 */
bool
report_parsed(int rc, const char *why, int (*help)(FILE *))
{
	switch (rc) {
	case -1:
		report_usage("%s", why);
	case CONFIG_ACT_HELP:
		if (help(stdout) == -1 || fflush(stdout) == EOF)
			err(1, "stdout");
		return false;
	case CONFIG_ACT_VERSION:
		printf("largedir %s (%s)\n", LD_VERSION, LD_GIT);
		return false;
	default:
		return true;
	}
}

/*
 * A usage or config error: print the message like errx(3), on one line
 * whatever it quotes (a control character in a value the user gave is
 * shown escaped, \n, \t or \xHH), and exit EXIT_USAGE.
 */
void
report_usage(const char *fmt, ...)
{
	va_list		 ap;
	char		 msg[4096], out[4 * sizeof(msg)], *o = out;
	const char	*p;

	va_start(ap, fmt);
	(void)vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	for (p = msg; *p != '\0'; p++) {
		if (*p == '\n')
			o += sprintf(o, "\\n");
		else if (*p == '\t')
			o += sprintf(o, "\\t");
		else if (*p == '\r')
			o += sprintf(o, "\\r");
		else if ((unsigned char)*p < 0x20 || *p == 0x7f)
			o += sprintf(o, "\\x%02x", (unsigned char)*p);
		else
			*o++ = *p;
	}
	*o = '\0';
	report_clear();
	(void)fflush(stdout);
	(void)fprintf(stderr, "%s: %s\n", program_invocation_short_name, out);
	exit(EXIT_USAGE);
}

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
	char		made[32];
	uint64_t	el;
	double		pct, left;

	if (!tty)
		return;
	el = now - pr->phase_t0_ns;
	util_fmt_rate(rate, sizeof(rate), el > 0 ? done * 1e9 / el : 0);
	util_fmt_duration(elapsed, sizeof(elapsed), now - pr->run_t0_ns);
	util_fmt_duration(budget, sizeof(budget), pr->budget_ns);
	pct = pr->total > 0 ? 100.0 * done / pr->total : 0;
	left = pr->round_pred_ns - (double)(now - pr->round_t0_ns);
	if (pr->round_pred_ns > 0 && left > 0)
		util_fmt_duration(eta, sizeof(eta), (uint64_t)left);
	else
		(void)strcpy(eta, "?");
	util_fmt_count(count, sizeof(count), pr->n);
	shown = true;
	if (pr->boxed) {
		/* Time-boxed: it makes what fits, not a share of n. */
		util_fmt_count(made, sizeof(made), done);
		(void)fprintf(stderr, "\r\033[Kround %u  n=%s at most  %s %s "
		    "made  %s/s  %s/%s  ends at the budget", pr->round, count,
		    phase_name(p), made, rate, elapsed, budget);
		return;
	}
	(void)fprintf(stderr, "\r\033[Kround %u  n=%s  %s %3.0f%%  %s/s  "
	    "%s/%s  round ETA %s", pr->round, count, phase_name(p),
	    pct > 100 ? 100 : pct, rate, elapsed, budget, eta);
}

/*
 * One line on stdout for the finished round 'k' of 'n' files: the median
 * rate 'med' of each of the 'np' phases 'phases' (indexed by phase),
 * with the spread from 'lo' to 'hi' over 'reps' repetitions, and the
 * round's wall time 'ns'.
 */
void
report_round(unsigned k, bool warmup, const enum phase *phases, size_t np,
    const struct round_result *res, uint64_t ns)
{
	const double	*med = res->median;
	char		 count[32], rate[32], dur[32], spread[32];
	enum phase	 p;
	size_t		 i;

	if (quiet)
		return;
	report_clear();
	util_fmt_count(count, sizeof(count), res->n);
	printf("%s %3u  n=%-11s", warmup ? "warmup" : "round", k, count);
	if (res->dirs > 0) {
		util_fmt_count(count, sizeof(count), res->dirs);
		printf(" dirs=%-9s", count);
	}
	for (i = 0; i < np; i++) {
		p = phases[i];
		util_fmt_rate(rate, sizeof(rate), med[p]);
		printf("  %s %7s/s", phase_name(p), rate);
		/* Padded: the round lines stay aligned (± is 2 bytes). */
		if (res->reps > 1 && med[p] > 0) {
			(void)snprintf(spread, sizeof(spread), "±%.1f%%", 50 *
			    (res->max[p] - res->min[p]) / med[p]);
			printf(" %-8s", spread);
		}
	}
	util_fmt_duration(dur, sizeof(dur), ns);
	printf("  %s\n", dur);
	/* A backend that counts calls to a server: how many per file. */
	if (np > 0 && !isnan(res->calls[phases[0]])) {
		printf("%*s", 21, "calls/file");
		for (i = 0; i < np; i++)
			printf("  %s %.3g", phase_name(phases[i]),
			    res->calls[phases[i]]);
		printf("\n");
	}
	if (res->broken)
		report_broken(&res->bad);
	(void)fflush(stdout);
}

/* Under the round line: the listing of the round that went wrong. */
static void
report_broken(const struct round_listing *b)
{
	char	count[32];

	if (b->loop_at != 0) {
		util_fmt_count(count, sizeof(count), b->loop_at);
		printf("%*s  %s LOOP at entry %s: %s\n", 21, "listing",
		    phase_name(b->phase), count, b->odd);
	} else {
		util_fmt_count(count, sizeof(count), b->lost);
		printf("%*s  %s LOST %s, the first %s\n", 21, "listing",
		    phase_name(b->phase), count, b->odd);
	}
}

/* ===== The run ===== */

/* The lines that open a run: what is measured where, and how. */
void
report_start(const struct report_start *st)
{
	const struct config	*cfg = st->cfg;
	const char		*fs, *drv;
	char			 tmp[32];
	bool			 other;

	if (!quiet) {
		/* Say when another driver serves it (ext2 by ext4). */
		if ((fs = kv_get(&st->doc->meta, "fstype")) == NULL)
			fs = "?";
		drv = kv_get(&st->doc->meta, "driver");
		other = drv != NULL && strcmp(drv, fs) != 0;
		util_fmt_duration(tmp, sizeof(tmp), cfg->budget_ns);
		printf("largedir %s: %s%s%s%s at %s, work directory %s\n",
		    LD_VERSION, fs, other ? " (served by the " : "",
		    other ? drv : "", other ? " driver)" : "", st->dir,
		    st->workdir);
		printf("seed %" PRIu64 ", budget %s (%s), growth %g, phases "
		    "%s\n", cfg->seed, tmp, kv_get(&st->doc->config,
		    "budget-policy"), cfg->growth,
		    kv_get(&st->doc->config, "phases"));
		if (cfg->preset != CONFIG_PRESET_CLASSIC)
			printf("preset %s\n", cfg->preset_note);
		if (cfg->layout == CONFIG_LAYOUT_TREE)
			printf("tree: %" PRIu64 " files in each directory; "
			    "mkdir counts directories, delete files and "
			    "directories\n", cfg->files_per_dir);
		if (cfg->clients > 1)
			printf("clients: %u %s share each round, %s; a rate "
			    "counts them all, first start to last end\n",
			    cfg->clients, cfg->mpi ? "MPI ranks" :
			    "processes", kv_get(&st->doc->config,
			    "split"));
		if (cfg->cold != CONFIG_COLD_NONE)
			printf("cold caches: %s before each phase after "
			    "%s, untimed\n", cfg->cold == CONFIG_COLD_DROP ?
			    "syncfs and drop_caches=2" : cfg->cold ==
			    CONFIG_COLD_ALL ? "syncfs and drop_caches=3" :
			    "unmount and mount",
			    phase_name(cfg->phases[0]));
		if (st->memcg != NULL)
			printf("memory limit: %g MiB for the phases that "
			    "read the directory, in %s\n",
			    cfg->memory_limit / 1048576.0, st->memcg);
		(void)fflush(stdout);
	}
	/* Said once the run is under way, not before an error. */
	if (*st->unavailable != '\0' && !quiet)
		warnx("warning: events not counted: %s", st->unavailable);
}

/*
 * After the rounds: for every one of the 'np' phases 'phases', whether
 * its rates in the rows of 'doc' have a knee, decline from the start, or
 * stay flat, as knee_record() finds and records it in the metadata of
 * 'doc'.  Said on stdout unless quiet.
 */
void
report_knees(struct output_doc *doc, const enum phase *phases, size_t np)
{
	struct knee_phase	 kp[PHASE_COUNT];
	const struct stats_knee	*k;
	char			 a[32], c[32], r1[32], r2[32];
	char			 flat[128] = "", few[128] = "";
	size_t			 i;

	if (np > PHASE_COUNT)
		np = PHASE_COUNT;
	knee_record(doc, phases, np, kp);
	if (quiet)
		return;
	for (i = 0; i < np; i++) {
		k = &kp[i].k;
		if (!kp[i].judged)
			continue;
		switch (k->shape) {
		case STATS_KNEE:
			util_fmt_count(a, sizeof(a), (uint64_t)k->n_above);
			util_fmt_count(c, sizeof(c), (uint64_t)k->n);
			util_fmt_rate(r1, sizeof(r1), k->before);
			util_fmt_rate(r2, sizeof(r2), k->after);
			printf("knee: %s falls below %.0f%% of its plateau "
			    "between n=%s and n=%s (%s/s before, %s/s after)\n",
			    kp[i].name, 100 * KNEE_FRACTION, a, c, r1, r2);
			break;
		case STATS_DECLINE:
			printf("knee: %s declines from the start, without a "
			    "plateau\n", kp[i].name);
			break;
		case STATS_FLAT:
			(void)snprintf(flat + strlen(flat), sizeof(flat) -
			    strlen(flat), "%s%s", *flat != '\0' ? ", " : "",
			    kp[i].name);
			break;
		case STATS_TOO_FEW:
			(void)snprintf(few + strlen(few), sizeof(few) -
			    strlen(few), "%s%s", *few != '\0' ? ", " : "",
			    kp[i].name);
			break;
		}
	}
	if (*flat != '\0')
		printf("knee: none in %s (never below %.0f%% of the plateau)\n",
		    flat, 100 * KNEE_FRACTION);
	if (*few != '\0')
		printf("knee: too few rounds to tell for %s (it takes %d)\n",
		    few, STATS_KNEE_MIN);
}

/* ===== Noise ===== */

/*
 * Round 'k' saw load average 'load': warn once when it says other
 * programs compete (more than one per CPU); noise_load() records it in
 * 'doc'.
 */
static void
report_load(struct noise *ns, struct output_doc *doc, unsigned k,
    double load)
{
	long	cpus = sysconf(_SC_NPROCESSORS_ONLN);

	if (noise_load(ns, doc, k, load, cpus))
		report_warn("warning: load average %.2f on %ld CPUs in round "
		    "%u: other programs compete with largedir, so rates may "
		    "be low and noisy; measure on an idle machine (--repeat "
		    "shows the spread)", load, cpus, k);
}

/*
 * Warn once when one of 3 or more repetitions of round 'k' ('res', the
 * 'np' phases 'phases') is an outlier by its modified z-score
 * (noise_outliers(), which records it in 'doc').
 */
void
report_outliers(struct noise *ns, struct output_doc *doc, unsigned k,
    const enum phase *phases, size_t np, const struct round_result *res)
{
	enum phase	p;

	if (noise_outliers(ns, doc, k, phases, np, res, &p))
		report_warn("warning: outliers among the %u repetitions of "
		    "round %u (%s): the machine may be busy; rerun on a quiet "
		    "system", res->reps, k, phase_name(p));
}

/*
 * Keep round 'k''s median rates 'med' of the 'np' phases 'phases' and
 * warn once when the round before it swings far off both of its
 * neighbours (noise_swing(), which records it in 'doc').
 */
void
report_swing(struct noise *ns, struct output_doc *doc, unsigned k,
    const enum phase *phases, size_t np, const double *med)
{
	enum phase	p;

	if (noise_swing(ns, doc, k, phases, np, med, &p))
		report_warn("warning: the %s rate of round %u is more than "
		    "%.0fx off both neighbouring rounds: the machine may be "
		    "busy or the filesystem working in the background; rerun, "
		    "or use --repeat 3 to see the spread",
		    phase_name(p), k - 1, NOISE_SWING);
}

/*
 * Phase 'pn' of round 'k' lost time to something else than its work
 * (record_lost_time(), or a SIGCONT): about 'lost_s' seconds went
 * neither to the CPU nor to the filesystem.  Warn every time;
 * noise_stopped() records it in 'doc'.
 */
static void
report_stopped(struct output_doc *doc, unsigned k, const char *pn,
    double lost_s)
{
	report_warn("warning: %s in round %u lost about %.2fs while largedir "
	    "was stopped or the machine paused: its rate is too low; rerun "
	    "that round", pn, k, lost_s);
	noise_stopped(doc, k, pn, lost_s);
}

/*
 * Round 'k''s open phase stopped after 'done' of its 'n' files, for the
 * round to end at the budget (timing_open_stop()): say so; noise_boxed()
 * records it in 'doc'.
 */
static void
report_boxed(struct output_doc *doc, unsigned k, uint64_t done, uint64_t n)
{
	char	c1[32], c2[32];

	util_fmt_count(c1, sizeof(c1), done);
	util_fmt_count(c2, sizeof(c2), n);
	if (!quiet)
		printf("budget: round %u opened %s of its %s files (a random "
		    "sample) so that it ends at the budget\n", k, c1, c2);
	noise_boxed(doc, k, done, n);
}

/*
 * Round 'k''s phase 'pn' counted calls it cannot have made ('what'): the
 * counters are shared, and something else used the mount.  Warn once;
 * noise_busy() keeps every case in 'doc'.
 */
static void
report_busy(struct output_doc *doc, unsigned k, const char *pn,
    const char *what)
{
	if (noise_busy(doc, k, pn, what))
		report_warn("warning: round %u, %s counted calls it does not "
		    "make (%s): something else used the NFS mount, so its "
		    "counts are too high", k, pn, what);
}

/*
 * What a round tells on its way ('rn', see struct round_note): warn, and
 * keep in 'noise' and the metadata of 'doc' what the checks need;
 * 'workdir' is the work directory the round directories are in.
 */
void
report_note(struct noise *noise, struct output_doc *doc,
    const char *workdir, const struct round_note *rn)
{
	char	count[32], of[32];

	switch (rn->kind) {
	case ROUND_NOTE_SHORT_LIST:
		util_fmt_count(count, sizeof(count), rn->count);
		util_fmt_count(of, sizeof(of), rn->n);
		report_warn("warning: %s saw %s entries in a directory of %s "
		    "files", phase_name(rn->phase), count, of);
		break;
	case ROUND_NOTE_FOREIGN:
		report_warn("warning: %" PRIu64 " entries in %s/%s were not "
		    "made by largedir and were left alone", rn->count,
		    workdir, rn->where);
		break;
	case ROUND_NOTE_LOAD:
		report_load(noise, doc, rn->round, rn->load);
		break;
	case ROUND_NOTE_ERROR:
		report_warn("%s", rn->msg);
		break;
	case ROUND_NOTE_STOPPED:
		report_stopped(doc, rn->round, phase_name(rn->phase),
		    rn->load);
		break;
	case ROUND_NOTE_LOOP:
		util_fmt_count(count, sizeof(count), rn->count);
		report_warn("warning: round %u, %s: a readdir loop: %s at "
		    "entry %s", rn->round, phase_name(rn->phase),
		    rn->msg, count);
		break;
	case ROUND_NOTE_BUSY:
		report_busy(doc, rn->round, phase_name(rn->phase),
		    rn->msg);
		break;
	case ROUND_NOTE_BOXED:
		report_boxed(doc, rn->round, rn->count, rn->n);
		break;
	case ROUND_NOTE_LOST:
		util_fmt_count(count, sizeof(count), rn->count);
		util_fmt_count(of, sizeof(of), rn->n);
		report_warn("warning: round %u, %s: %s of %s files never "
		    "listed, the first %s", rn->round,
		    phase_name(rn->phase), count, of, rn->msg);
		break;
	}
}

/* ===== Stopping ===== */

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
