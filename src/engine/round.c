/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * round: see round.h.
 *
 * Order within a repetition: enter a fresh round directory; syncfs if
 * --sync=round; then for each phase: --cold (not before create), syncfs
 * if --sync=phase, the phase itself (measure.h: inline, limited, or by
 * the clients); then leave and remove the directory and add the row.
 */

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/sig.h"
#include "base/stats.h"
#include "base/timing.h"
#include "base/util.h"
#include "engine/clients.h"
#include "engine/maildir.h"
#include "engine/measure.h"
#include "engine/round.h"
#include "machine/probe.h"

/* A repetition's clock: what its row and the schedule learn from. */
struct rep_clock {
	uint64_t	t0;		/* its start */
	uint64_t	sync_ns;	/* in syncfs, --sync round or phase */
	uint64_t	open_end;	/* when its open ended, or 0 */
	double		open_ns;	/* what a whole open would have taken */
};

static int	run_rep(struct round *, unsigned, uint64_t, bool,
		    struct rep_rec *);
static int	rep_begin(struct round *, unsigned, uint64_t,
		    struct rep_clock *);
static int	run_phase(struct round *, size_t, unsigned, uint64_t *,
		    struct rep_clock *, struct rep_rec *);
static void	after_phase(struct round *, enum phase, unsigned, uint64_t *,
		    struct rep_clock *, const struct phase_out *);
static void	rep_row(struct round *, unsigned, uint64_t, bool,
		    const struct rep_clock *, struct rep_rec *);
static void	tree_build(struct round *, uint64_t);
static int	cold_step(struct round *, enum phase, uint64_t, double *);
static int	stop(struct round *, int, const char *, uint64_t,
		    const char *, ...) __attribute__((format(printf, 5, 6)));
static void	note(struct round *, enum round_note_kind, enum phase,
		    uint64_t, uint64_t, double, const char *);
static void	listing_broken(struct round *, enum phase, unsigned,
		    const struct phase_out *);
static int	listing_stop(struct round *, const struct round_listing *);
static void	busy_check(struct round *, enum phase,
		    const struct phase_rec *);

/* Make 'r' empty; the caller then sets the fields of the whole run. */
void
round_init(struct round *r)
{
	memset(r, 0, sizeof(*r));
}

/*
 * Run rounds as the schedule 's' plans them (timing_sched_next()), until
 * it ends or a round stops: before each, r->planned(r->arg, plan), after
 * each r->done(r->arg, plan, result), both outside the round's phases
 * but inside its time for the budget.  Return 0 when the schedule ended,
 * 'last' saying why, or -1 when a round stopped (r->stop).
 */
int
round_loop(struct round *r, struct timing_sched *s, struct timing_round *last)
{
	struct round_result	res;

	while (timing_sched_next(s, last)) {
		if (r->planned != NULL)
			r->planned(r->arg, last);
		r->end_ns = last->end_ns;
		if (round_run(r, last->k, last->n, last->warmup,
		    last->deadline, &res) == -1)
			return -1;
		if (r->done != NULL)
			r->done(r->arg, last, &res);
		timing_sched_done(s, res.n);
		if (res.broken)
			return listing_stop(r, &res.bad);
	}
	return 0;
}

/*
 * Run round 'k' of 'n' files ('warmup': a warm-up round, whose rows are
 * marked and which has no summary row), --repeat times.  With 'deadline',
 * the create phase of the first repetition stops in time for the round
 * to end at the budget (timing_create_deadline()), and the round's n is
 * what it made; and every open phase stops early if what comes after it
 * would end after the budget (timing_open_stop()), having opened a
 * random sample of the files.  Fill 'res'.  Return 0, or -1 with r->stop
 * saying why; the round directory may then still exist (r->in_round),
 * for round_clean().
 */
int
round_run(struct round *r, unsigned k, uint64_t n, bool warmup, bool deadline,
    struct round_result *res)
{
	const struct config	*cfg = r->cfg;
	struct round_rec	 rr;
	struct rep_rec		 rep_rec;
	unsigned		 rep, reps = cfg->repeat;
	enum phase		 p;
	double			 files[PHASE_COUNT];
	size_t			 i, j;

	r->k = k;
	r->n = n;
	r->t0_ns = timing_now();
	r->deadline = deadline;
	if (round_prepare(r, n) == -1) {
		memset(&r->stop, 0, sizeof(r->stop));
		r->stop.err = errno;
		(void)snprintf(r->stop.what, sizeof(r->stop.what), "names for "
		    "n=%" PRIu64, n);
		return -1;
	}
	r->broken = false;
	for (i = 0; i < cfg->nphases; i++) {
		p = cfg->phases[i];
		r->rates[p] = xreallocarray(r->rates[p], reps, sizeof(double));
	}
	memset(res, 0, sizeof(*res));
	memset(files, 0, sizeof(files));
	for (rep = 1; rep <= reps; rep++) {
		/* A time-boxed first repetition may have made fewer. */
		if (run_rep(r, rep, r->n, warmup, &rep_rec) == -1)
			return -1;
		record_rep(r->doc, &rep_rec, cfg->phases, cfg->nphases,
		    r->nperf + r->ncounters + clients_ncolumns(cfg->clients));
		for (i = 0; i < cfg->nphases; i++) {
			p = cfg->phases[i];
			r->rates[p][rep - 1] = rep_rec.phase[p].per_s;
			files[p] += (double)r->n;
			for (j = 0; j < r->be->ops->ncalls; j++)
				res->calls[p] +=
				    rep_rec.phase[p].extra[r->nperf + j];
		}
	}
	res->n = r->n;
	res->dirs = r->w.ndirs;
	res->reps = reps;
	for (i = 0; i < cfg->nphases; i++) {
		p = cfg->phases[i];
		res->median[p] = stats_median(r->rates[p], reps);
		res->min[p] = res->max[p] = r->rates[p][0];
		for (rep = 1; rep < reps; rep++) {
			res->min[p] = fmin(res->min[p], r->rates[p][rep]);
			res->max[p] = fmax(res->max[p], r->rates[p][rep]);
		}
		res->rates[p] = r->rates[p];
		res->calls[p] = r->be->ops->ncalls > 0 && files[p] > 0 ?
		    res->calls[p] / files[p] : NAN;
	}
	if (!warmup) {
		rr.round = k;
		rr.n = (double)r->n;
		rr.dirs = (double)r->w.ndirs;
		rr.reps = reps;
		memcpy(rr.median, res->median, sizeof(rr.median));
		memcpy(rr.min, res->min, sizeof(rr.min));
		memcpy(rr.max, res->max, sizeof(rr.max));
		record_round(r->doc, &rr, cfg->phases, cfg->nphases);
	}
	res->broken = r->broken;
	res->bad = r->bad;
	return 0;
}

/*
 * What every phase of a round of 'n' files works from, made untimed: the
 * names (from the seed, so every process that shares the round has the
 * same), the open order's and the listing check's room, and the
 * workload.  Return 0, or -1 with errno if the names cannot be made.
 */
int
round_prepare(struct round *r, uint64_t n)
{
	const struct config	*cfg = r->cfg;

	uint64_t		 i;

	names_free(&r->names);
	if (names_build_sized(&r->names, cfg->names, cfg->name_len, n,
	    cfg->seed, cfg->file_size, cfg->file_size_max) == -1)
		return -1;
	r->order = xreallocarray(r->order, n, sizeof(*r->order));
	r->seen = xreallocarray(r->seen, workload_seen_words(n),
	    sizeof(*r->seen));
	r->w.be = r->be;
	r->w.names = &r->names;
	r->w.order = r->order;
	r->w.seen = r->seen;
	r->w.n = n;
	r->w.mail_size = cfg->file_size;
	r->w.rmrf_batch = cfg->rmrf_batch;
	r->w.sizes = NULL;
	if (cfg->file_size_max > cfg->file_size) {
		/* Each delivery's size, as its name says (S=). */
		r->sizes = xreallocarray(r->sizes, n, sizeof(*r->sizes));
		for (i = 0; i < n; i++)
			r->sizes[i] = (uint32_t)names_mail_size(cfg->seed, i,
			    cfg->file_size, cfg->file_size_max);
		r->w.sizes = r->sizes;
	}
	tree_build(r, n);
	r->w.on_poll = r->on_poll;
	r->w.arg = r->arg;
	return 0;
}

/*
 * The tree layout: the subdirectories of a round of 'n' files, so many
 * that each holds --files-per-dir files (the last may hold fewer), with
 * their names, made untimed before the round; no handles yet.
 */
static void
tree_build(struct round *r, uint64_t n)
{
	uint64_t	d, per = r->cfg->files_per_dir;

	if (r->cfg->layout != CONFIG_LAYOUT_TREE)
		return;
	r->w.per_dir = per;
	r->w.ndirs = (n + per - 1) / per;
	r->sub = xreallocarray(r->sub, r->w.ndirs, sizeof(*r->sub));
	r->dnames = xreallocarray(r->dnames, r->w.ndirs, WORKLOAD_DNAME);
	for (d = 0; d < r->w.ndirs; d++)
		backend_subdir_name(r->dnames + d * WORKLOAD_DNAME,
		    WORKLOAD_DNAME, d);
	r->w.sub = r->sub;
	r->w.dnames = r->dnames;
}

/*
 * One repetition of the round: make the round directory, run every
 * phase, remove the directory, and fill 'rec'.  Return 0, or -1 with
 * r->stop set.
 */
static int
run_rep(struct round *r, unsigned rep, uint64_t n, bool warmup,
    struct rep_rec *rec)
{
	struct rep_clock	c;
	double			load0 = NAN, load1 = NAN;
	uint64_t		removed;
	size_t			i;

	memset(&c, 0, sizeof(c));
	if (rep_begin(r, rep, n, &c) == -1)
		return -1;
	(void)probe_loadavg(&load0);
	for (i = 0; i < r->cfg->nphases; i++)
		if (run_phase(r, i, rep, &n, &c, rec) == -1)
			return -1;
	(void)probe_loadavg(&load1);
	/*
	 * A listing that went round may have stopped rm -rf early; a
	 * mailbox's directories go now.
	 */
	if ((r->w.deleted < r->w.created || r->w.mbox[WORKLOAD_TMP] != NULL)
	    && workload_clean(&r->w, &removed) == -1)
		return stop(r, errno, "round", n, "removing the files left "
		    "after a listing went wrong");
	if (r->be->ops->rmdir(r->be, r->w.dir, true) == -1)
		return stop(r, errno, "round", n, "removing the round "
		    "directory");
	r->in_round = false;
	rep_row(r, rep, n, warmup, &c, rec);
	rec->load1_start = load0;
	rec->load1_end = load1;
	note(r, ROUND_NOTE_LOAD, PHASE_COUNT, 0, n, load0 > load1 ? load0 :
	    load1, NULL);
	return 0;
}

/*
 * Enter repetition 'rep' of a round of 'n' files: make its directory,
 * reset the workload's counts, start its clock 'c' and syncfs if
 * --sync=round.  Return 0, or -1 with r->stop set.
 */
static int
rep_begin(struct round *r, unsigned rep, uint64_t n, struct rep_clock *c)
{
	backend_round_name(r->dname, sizeof(r->dname), r->k, rep);
	if (r->be->ops->mkdir(r->be, r->dname, n, &r->w.dir) == -1)
		return stop(r, errno, "round", n, "creating the round "
		    "directory");
	r->in_round = true;
	r->w.created = r->w.deleted = 0;
	if (r->cfg->workload == CONFIG_WORKLOAD_MAILDIR &&
	    maildir_open(&r->w) == -1)
		return stop(r, errno, "round", n, "creating the mailbox's "
		    "tmp/, new/ and cur/");
	r->w.dirs_made = r->w.dirs_removed = 0;
	if (r->w.ndirs > 0)
		memset(r->sub, 0, r->w.ndirs * sizeof(*r->sub));
	r->rep = rep;
	r->create_ns = 0;
	c->t0 = timing_now();
	if (r->cfg->sync == CONFIG_SYNC_ROUND) {
		if (r->be->ops->sync(r->be) == -1)
			return stop(r, errno, "round", n, "syncfs");
		c->sync_ns += timing_now() - c->t0;
	}
	return 0;
}

/*
 * The 'i'-th phase of repetition 'rep': --cold (not before the first),
 * syncfs if --sync=phase, the phase itself (measure_phase()), and what
 * it tells (after_phase()); its record into 'rec'.  A create cut short
 * at a deadline makes the round that many files: '*n'.  Return 0, or -1
 * with r->stop set.
 */
static int
run_phase(struct round *r, size_t i, unsigned rep, uint64_t *n,
    struct rep_clock *c, struct rep_rec *rec)
{
	const struct config	*cfg = r->cfg;
	struct phase_out	 o;
	enum phase		 p = cfg->phases[i];
	double			 cold_ns = 0;
	uint64_t		 t;

	if (sig_count > 0)
		return stop(r, EINTR, phase_name(p), *n,
		    "before the phase");
	if (i > 0 && cold_step(r, p, *n, &cold_ns) == -1)
		return -1;
	if (cfg->sync == CONFIG_SYNC_PHASE) {
		t = timing_now();
		if (r->be->ops->sync(r->be) == -1)
			return stop(r, errno, phase_name(p), *n,
			    "syncfs");
		c->sync_ns += timing_now() - t;
	}
	if (measure_phase(r, p, rep, *n, &o) == -1) {
		maildir_done(&r->w, p, false);
		(void)stop(r, o.err, phase_name(p), *n, "%s",
		    o.what);
		r->stop.memory_limit = o.err == ENOMEM &&
		    strstr(o.what, "--memory-limit") != NULL;
		return -1;
	}
	o.rec.cold_ns = cold_ns;
	maildir_done(&r->w, p, true);
	after_phase(r, p, rep, n, c, &o);
	rec->phase[p] = o.rec;
	return 0;
}

/*
 * What phase 'p' of repetition 'rep' tells, from its outcome 'o': the
 * notes (time lost while stopped, an open cut short, a listing short or
 * broken, calls it cannot have made, entries not ours), the files a
 * time-boxed create made ('*n'), and the times the schedule learns from
 * (the create's into r->create_ns, the open's into 'c').
 */
static void
after_phase(struct round *r, enum phase p, unsigned rep, uint64_t *n,
    struct rep_clock *c, const struct phase_out *o)
{
	const struct config	*cfg = r->cfg;

	if (o->rec.stopped != 0)
		note(r, ROUND_NOTE_STOPPED, p, 0, *n, (o->rec.ns -
		    o->rec.user_ns - o->rec.sys_ns) / 1e9, NULL);
	if (phase_makes(p) && o->done < *n)
		r->n = r->w.n = *n = o->done;	/* time-boxed */
	if (phase_makes(p))
		r->create_ns = o->rec.ns;
	if (p == PHASE_OPEN) {
		c->open_end = timing_now();
		/* What a whole open would have taken. */
		c->open_ns = o->done > 0 ? o->rec.ns * *n / o->done : 0;
		if (o->done < *n)
			note(r, ROUND_NOTE_BOXED, p, o->done, *n, NAN, NULL);
	}
	if (o->loop_at != 0 || o->lost != 0)
		listing_broken(r, p, rep, o);
	else if ((p == PHASE_LIST || p == PHASE_LISTSTAT) &&
	    o->done != *n * (cfg->clients > 1 ? cfg->clients : 1) &&
	    cfg->churn == 0)
		note(r, ROUND_NOTE_SHORT_LIST, p, o->done, *n, NAN, NULL);
	busy_check(r, p, &o->rec);
	if (o->foreign > 0)
		note(r, ROUND_NOTE_FOREIGN, p, o->foreign, *n, NAN, NULL);
}

/*
 * The row of repetition 'rep' of a round of 'n' files into 'rec', and
 * its shape (the times of its create and open, and the rest) for the
 * schedule, by its clock 'c'.
 */
static void
rep_row(struct round *r, unsigned rep, uint64_t n, bool warmup,
    const struct rep_clock *c, struct rep_rec *rec)
{
	uint64_t	t;

	rec->round = r->k;
	rec->rep = rep;
	rec->warmup = warmup ? 1 : 0;
	rec->n = (double)n;
	rec->dirs = (double)r->w.ndirs;
	t = timing_now();
	rec->round_ns = (double)(t - c->t0);
	timing_shape_add(&r->last, rec->round_ns, r->create_ns,
	    c->open_ns, c->open_end != 0 ? (double)(t - c->open_end) : 0);
	rec->sync_ns = (double)c->sync_ns;
}

/*
 * --cold: before phase 'p' (after create), empty the caches the way
 * --cold says, untimed, and store how long it took in '*ns'.  Return 0,
 * or -1 with r->stop set.
 */
static int
cold_step(struct round *r, enum phase p, uint64_t n, double *ns)
{
	const char	*pn = phase_name(p);
	char		 errbuf[LD_ERRLEN];
	uint64_t	 t0 = timing_now();
	int		 e;

	switch (r->cfg->cold) {
	case CONFIG_COLD_NONE:
		return 0;
	case CONFIG_COLD_DROP:
	case CONFIG_COLD_ALL:
		if (r->be->ops->sync(r->be) == -1)
			return stop(r, errno, pn, n, "syncfs before dropping "
			    "the caches");
		/*
		 * 2: dentries and inodes, not the page cache; 3: the page
		 * cache too (a local directory's blocks, an NFS client's
		 * cached listing of a directory).
		 */
		if (util_write_file("/proc/sys/vm/drop_caches",
		    r->cfg->cold == CONFIG_COLD_ALL ? "3\n" : "2\n") == -1)
			return stop(r, errno, pn, n, "writing "
			    "/proc/sys/vm/drop_caches");
		break;
	case CONFIG_COLD_REMOUNT:
		/* Nothing of ours may hold the filesystem open. */
		if (r->be->ops->release(r->be) == -1)
			return stop(r, errno, pn, n, "closing the round "
			    "directory to remount");
		if (target_remount(r->target, errbuf) == -1 ||
		    r->be->ops->reacquire(r->be, errbuf) == -1) {
			e = errno;
			note(r, ROUND_NOTE_ERROR, p, 0, n, NAN, errbuf);
			return stop(r, e, pn, n, "remounting the target "
			    "(--cold=remount)");
		}
		break;
	}
	*ns = (double)(timing_now() - t0);
	return 0;
}

/*
 * The round cannot go on: errno 'e' in 'phase' of the round of 'n'
 * files, doing what 'fmt' says.  Fill r->stop, and find out whether the
 * work directory vanished when 'e' suggests it.  Return -1.
 */
static int
stop(struct round *r, int e, const char *phase, uint64_t n, const char *fmt,
    ...)
{
	va_list		 ap;
	const char	*d;

	memset(&r->stop, 0, sizeof(r->stop));
	r->stop.err = e;
	r->stop.phase = phase;
	r->stop.n = n;
	va_start(ap, fmt);
	(void)vsnprintf(r->stop.what, sizeof(r->stop.what), fmt, ap);
	va_end(ap);
	if (r->be->ops->detail != NULL && (d = r->be->ops->detail(r->be)) !=
	    NULL)
		(void)snprintf(r->stop.detail, sizeof(r->stop.detail), "%s", d);
	if (e == ENOENT || e == ESTALE || e == ENOTDIR)
		r->stop.vanished = r->be->ops->vanished(r->be, r->in_round ?
		    r->w.dir : NULL);
	errno = e;
	return -1;
}

/* Tell the caller something of note (see struct round_note). */
static void
note(struct round *r, enum round_note_kind kind, enum phase p,
    uint64_t count, uint64_t n, double load, const char *msg)
{
	struct round_note	rn;

	if (r->note == NULL)
		return;
	memset(&rn, 0, sizeof(rn));
	rn.kind = kind;
	rn.phase = p;
	rn.round = r->k;
	rn.count = count;
	rn.n = n;
	rn.load = load;
	rn.where = r->dname;
	rn.msg = msg;
	r->note(r->arg, &rn);
}

/*
 * Remove, untimed, what the unfinished round left: its files and its
 * directory (workload_clean() and the backend's leave).  Store how many
 * files were removed in '*removed'.  Return 0, or -1 with errno (EINTR
 * when a second signal abandoned it); a directory already gone is clean.
 */
int
round_clean(struct round *r, uint64_t *removed)
{
	*removed = 0;
	if (!r->in_round)
		return 0;
	if (workload_clean(&r->w, removed) == -1 ||
	    (r->be->ops->rmdir(r->be, r->w.dir, true) == -1 &&
	    errno != ENOENT))
		return -1;
	r->in_round = false;
	return 0;
}

/* Free what 'r' allocated (names, order, rates, the runner's mapping). */
void
round_free(struct round *r)
{
	size_t	i;

	names_free(&r->names);
	free(r->order);
	r->order = NULL;
	free(r->sizes);
	r->sizes = NULL;
	free(r->seen);
	r->seen = NULL;
	free(r->sub);
	r->sub = NULL;
	free(r->dnames);
	r->dnames = NULL;
	churn_free(&r->churn);
	for (i = 0; i < PHASE_COUNT; i++) {
		free(r->rates[i]);
		r->rates[i] = NULL;
	}
	runner_free(&r->runner);
}

/*
 * Phase 'p' of repetition 'rep' found its listing broken ('o'): keep the
 * first such finding of the round, and tell the caller.
 */
static void
listing_broken(struct round *r, enum phase p, unsigned rep,
    const struct phase_out *o)
{
	if (!r->broken) {
		r->broken = true;
		r->bad.phase = p;
		r->bad.rep = rep;
		r->bad.loop_at = o->loop_at;
		r->bad.lost = o->lost;
		(void)snprintf(r->bad.odd, sizeof(r->bad.odd), "%s", o->odd);
	}
	if (o->loop_at != 0)
		note(r, ROUND_NOTE_LOOP, p, o->loop_at, r->n, NAN, o->odd);
	else
		note(r, ROUND_NOTE_LOST, p, o->lost, r->n, NAN, o->odd);
}

/*
 * The round is recorded, but its listing 'b' went wrong: stop the run
 * (r->stop.listing; ELOOP for a loop, ENOENT for lost entries).  Return
 * -1.
 */
static int
listing_stop(struct round *r, const struct round_listing *b)
{
	char	count[32];

	if (b->loop_at != 0) {
		util_fmt_count(count, sizeof(count), b->loop_at);
		(void)stop(r, ELOOP, phase_name(b->phase), r->n,
		    "%s at entry %s (repetition %u)", b->odd, count, b->rep);
	} else {
		util_fmt_count(count, sizeof(count), b->lost);
		(void)stop(r, ENOENT, phase_name(b->phase), r->n,
		    "%s %s never listed, the first %s (repetition %u)", count,
		    b->lost == 1 ? "file" : "files", b->odd, b->rep);
	}
	r->stop.listing = true;
	r->stop.vanished = false;
	errno = r->stop.err;
	return -1;
}

/*
 * Phase 'p' counted calls ('rec') of a backend whose counters others
 * share (a kernel NFS mount): tell the caller if some cannot be the
 * phase's.
 */
static void
busy_check(struct round *r, enum phase p, const struct phase_rec *rec)
{
	uint64_t	 delta[BACKEND_MAX_COUNTERS];
	const char	*msg;
	size_t		 i;

	if (r->be->ops->busy == NULL || r->ncounters == 0)
		return;
	for (i = 0; i < r->ncounters && i < BACKEND_MAX_COUNTERS; i++)
		delta[i] = isnan(rec->extra[r->nperf + i]) ? 0 :
		    (uint64_t)rec->extra[r->nperf + i];
	if ((msg = r->be->ops->busy(r->be, phase_name(p), delta,
	    r->cfg->churn > 0)) != NULL)
		note(r, ROUND_NOTE_BUSY, p, 0, r->n, NAN, msg);
}
