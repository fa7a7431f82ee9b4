/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * measure: see measure.h.
 *
 * Every way of measuring begins and ends the same, untimed: open's
 * random order is drawn (from the seed, the round and the repetition, so
 * a rerun with the same seed opens the files in the same order), and
 * the backend's counters and the caches are read before the phase and
 * after it (phase_begin(), phase_end()).  In between, one loop
 * (measure()), or K clients' loops (measure_clients()).
 */

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
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
#include "engine/rankrun.h"
#include "engine/ranks.h"
#include "machine/cache.h"

_Static_assert(PERF_MAX_VALUES + BACKEND_MAX_COUNTERS + 2 + CONFIG_MAX_CLIENTS
    <= RECORD_MAX_EXTRA, "room for every event, counter and client column "
    "in struct phase_rec");

/* What measure() needs: a runner_fn takes one pointer. */
struct measure_arg {
	struct round	*r;
	enum phase	 p;
	unsigned	 rep;
	uint64_t	 n;
	bool		 forked;	/* a client forked from largedir */
};

static int	measure(void *, struct phase_out *);
static void	phase_begin(struct round *, const struct measure_arg *,
		    uint64_t *, struct cache_state *);
static void	phase_end(struct round *, const uint64_t *,
		    const struct cache_state *, bool, struct phase_rec *);
static void	phase_failed(struct round *, const struct measure_arg *,
		    uint64_t, int, struct phase_out *);
static void	phase_record(const struct workload_result *, enum phase,
		    struct phase_out *);
static int	measure_clients(struct round *, const struct measure_arg *,
		    bool, struct phase_out *);
static void	merge(struct round *, const struct measure_arg *,
		    const struct runner_client *, struct phase_out *);
static uint64_t	create_deadline(const struct round *,
		    const struct measure_arg *);
static int	trim(struct round *, const struct measure_arg *,
		    struct phase_out *);
static int	client_measure(void *, unsigned, struct runner_client *);
static int	measure_ranks(struct round *, const struct measure_arg *,
		    struct phase_out *);
static int	rank_share(const struct measure_arg *, unsigned,
		    struct runner_client *);
static int	ranks_fail(struct round *, const struct measure_arg *,
		    struct phase_out *, const char *);
static bool	client_box(void *, uint64_t, uint64_t, uint64_t);
static void	client_poll(void *, enum phase, uint64_t);
static void	client_progress(void *, uint64_t);
static bool	open_box(void *, uint64_t, uint64_t, uint64_t);
static double	cache_value(int64_t);

/*
 * Phase 'p' of repetition 'rep' into 'o', limited where --memory-limit
 * asks.  Return 0, or -1 with o->err and o->what.
 */
int
measure_phase(struct round *r, enum phase p, unsigned rep, uint64_t n,
    struct phase_out *o)
{
	struct measure_arg	 ma = { r, p, rep, n, false };
	bool			 limited;
	int			 rc;

	limited = phase_reads(p);
	if (r->cfg->mpi)
		return measure_ranks(r, &ma, o);
	if (r->cfg->clients > 1) {
		ma.forked = true;
		return measure_clients(r, &ma, limited, o);
	}
	rc = runner_run(&r->runner, limited, measure, &ma, o);
	if (limited && r->runner.memcg != NULL && o->deleted > r->w.deleted)
		r->w.deleted = o->deleted;
	return rc;
}

/*
 * Measure a phase (a runner_fn; 'arg' is a struct measure_arg) into 'o':
 * its record and counts.  Return 0, or -1 with o->err and o->what.
 */
static int
measure(void *arg, struct phase_out *o)
{
	const struct measure_arg	*ma = arg;
	struct workload_result		*res;
	struct round			*r = ma->r;
	struct phase_rec		*c = &o->rec;
	struct cache_state		 cs0;
	uint64_t			 made, removed;
	uint64_t			 k0[BACKEND_MAX_COUNTERS];
	sig_atomic_t			 cont0;
	char				 errbuf[LD_ERRLEN];
	bool				 churning;
	int				 rc;

	memset(o, 0, sizeof(*o));
	record_phase_init(c);
	phase_begin(r, ma, k0, &cs0);
	churning = r->cfg->churn > 0 && (ma->p == PHASE_LIST ||
	    ma->p == PHASE_LISTSTAT || ma->p == PHASE_RMRF);
	if (churning) {
		if (churn_start(&r->churn, r->be, r->w.dir, r->cfg->churn,
		    errbuf) == -1) {
			o->err = errno;
			(void)snprintf(o->what, sizeof(o->what), "%.*s",
			    (int)sizeof(o->what) - 1, errbuf);
			return -1;
		}
		r->w.others_made = &r->churn.sh->made;
	}
	runner_peak_reset(&r->runner);
	r->phase_t0_ns = timing_now();
	r->w.deadline_ns = create_deadline(r, ma);
	r->w.open_box = ma->p == PHASE_OPEN && r->deadline ? open_box : NULL;
	r->w.box_arg = r;
	res = xmalloc(sizeof(*res));	/* 15 KiB of histogram */
	cont0 = sig_cont;
	perf_start(r->perf);
	rc = workload_run(&r->w, ma->p, res);
	if (rc == -1)
		phase_failed(r, ma, res->done, errno, o);
	perf_stop(r->perf, c->extra);
	if (churning) {
		r->w.others_made = NULL;
		if (churn_stop(&r->churn, &made, &removed, errbuf) == -1 &&
		    rc == 0) {
			o->err = errno;
			(void)snprintf(o->what, sizeof(o->what), "%.*s",
			    (int)sizeof(o->what) - 1, errbuf);
			rc = -1;
		}
		c->churn_made = (double)made;
		c->churn_removed = (double)removed;
	}
	o->deleted = r->w.deleted;
	if (rc == 0)
		phase_record(res, ma->p, o);
	free(res);
	if (rc == -1)
		return -1;
	c->memcg_peak_kib = runner_peak_kib(&r->runner);
	c->stopped = sig_cont != cont0 || record_lost_time(c) ? 1 : 0;
	phase_end(r, k0, &cs0, true, c);
	return 0;
}

/*
 * What every measurement of a phase does first, untimed: draw open's
 * random order, and read the backend's counters into 'k0' and the caches
 * into 'cs0'.
 */
static void
phase_begin(struct round *r, const struct measure_arg *ma, uint64_t *k0,
    struct cache_state *cs0)
{
	uint64_t	state;

	if (phase_shuffled(ma->p)) {
		/* Untimed, and after create: n is known by now. */
		state = r->cfg->seed ^ ((uint64_t)r->k << 32 | ma->rep);
		if (ma->p != PHASE_OPEN)
			state ^= (uint64_t)ma->p << 56;	/* an order each */
		workload_shuffle(r->order, ma->n, util_splitmix64(&state));
	}
	if (r->ncounters > 0)
		r->be->ops->counters(r->be, k0);
	(void)cache_read("/", r->inode_slab, r->dev_major, r->dev_minor, cs0);
}

/*
 * And last: the backend's counters since 'k0' (if 'counters': clients
 * count their own, on connections of their own) and the caches at 'cs0'
 * (the start) with what the disk did since, into 'c'.
 */
static void
phase_end(struct round *r, const uint64_t *k0, const struct cache_state *cs0,
    bool counters, struct phase_rec *c)
{
	struct cache_state	cs1;
	uint64_t		k1[BACKEND_MAX_COUNTERS];
	int64_t			sr, sw;
	size_t			i;

	if (counters && r->ncounters > 0) {
		r->be->ops->counters(r->be, k1);
		for (i = 0; i < r->ncounters; i++)
			c->extra[r->nperf + i] = (double)(k1[i] - k0[i]);
	}
	(void)cache_read("/", r->inode_slab, r->dev_major, r->dev_minor,
	    &cs1);
	cache_diff(cs0, &cs1, &sr, &sw);
	c->dentries = cache_value(cs0->nr_dentry);
	c->dentries_unused = cache_value(cs0->nr_unused);
	c->inodes = cache_value(cs0->nr_inodes);
	c->dentry_objs = cache_value(cs0->dentry_objs);
	c->inode_objs = cache_value(cs0->inode_objs);
	c->mem_avail_kib = cache_value(cs0->mem_available_kib);
	c->sectors_read = cache_value(sr);
	c->sectors_written = cache_value(sw);
}

/*
 * The phase's loop failed with 'e' after 'done': say so in 'o', in what
 * the phase counts (a tree's directories too).
 */
static void
phase_failed(struct round *r, const struct measure_arg *ma, uint64_t done,
    int e, struct phase_out *o)
{
	char	d[32], all[32];

	o->err = e;
	util_fmt_count(d, sizeof(d), done);
	util_fmt_count(all, sizeof(all), ma->p == PHASE_MKDIR ? r->w.ndirs :
	    ma->p == PHASE_DELETE && r->w.per_dir != 0 ? ma->n + r->w.ndirs :
	    ma->n);
	(void)snprintf(o->what, sizeof(o->what), "after %s of %s %s", d, all,
	    ma->p == PHASE_MKDIR ? "directories" : ma->p == PHASE_DELETE &&
	    r->w.per_dir != 0 ? "files and directories" : "files");
}

/* What the loop of phase 'p' measured ('res') into 'o' and its record. */
static void
phase_record(const struct workload_result *res, enum phase p,
    struct phase_out *o)
{
	struct phase_rec	*c = &o->rec;

	o->done = res->done;
	o->foreign = res->foreign;
	o->loop_at = res->loop_at;
	o->lost = res->lost;
	(void)snprintf(o->odd, sizeof(o->odd), "%s", res->odd);
	if (p == PHASE_LIST || p == PHASE_LISTSTAT || p == PHASE_RMRF ||
	    p == PHASE_SCAN) {
		c->loop = (double)res->loop_at;
		c->lost = (double)res->lost;
	}
	c->ns = (double)res->elapsed_ns;
	c->per_s = res->elapsed_ns > 0 ? res->done * 1e9 / res->elapsed_ns :
	    NAN;
	c->ops = (double)res->ops;
	c->user_ns = (double)res->usage.user_ns;
	c->sys_ns = (double)res->usage.sys_ns;
	c->vcsw = (double)res->usage.vcsw;
	c->ivcsw = (double)res->usage.ivcsw;
	c->inblock = (double)res->usage.inblock;
	c->oublock = (double)res->usage.oublock;
	c->p50_ns = (double)stats_hist_percentile(&res->hist, 50);
	c->p90_ns = (double)stats_hist_percentile(&res->hist, 90);
	c->p99_ns = (double)stats_hist_percentile(&res->hist, 99);
	c->p999_ns = (double)stats_hist_percentile(&res->hist, 99.9);
	c->max_ns = (double)res->hist.max;
}

/*
 * Measure a phase with the --clients K clients (runner_clients()), each
 * its share of the names (a listing: the whole directory), into 'o': the
 * record of all of them (clients_merge()).  A create that met its
 * deadline is trimmed (trim()).  Return 0, or -1 with o->err and o->what;
 * either way w.created and w.deleted bound what the clients left.
 */
static int
measure_clients(struct round *r, const struct measure_arg *ma, bool limited,
    struct phase_out *o)
{
	struct cache_state	 cs0;
	struct phase_out	 fail;
	uint64_t		 k0[BACKEND_MAX_COUNTERS];
	unsigned		 k = r->cfg->clients;

	phase_begin(r, ma, k0, &cs0);
	r->phase_t0_ns = timing_now();
	if (runner_clients(&r->runner, k, limited, client_measure,
	    (void *)ma, client_progress, (void *)ma, &fail) == -1 &&
	    r->runner.slots == NULL) {
		*o = fail;
		return -1;
	}
	merge(r, ma, r->runner.slots, o);
	if (fail.err != 0) {		/* a client died: that says more */
		o->err = fail.err;
		(void)snprintf(o->what, sizeof(o->what), "%s", fail.what);
	}
	if (o->err != 0)
		return -1;
	/* A kernel mount's counters are the machine's: all clients'. */
	phase_end(r, k0, &cs0, r->be->ops->shared_counters, &o->rec);
	if (phase_makes(ma->p) && o->done < ma->n && trim(r, ma, o) == -1)
		return -1;
	return 0;
}

/*
 * The record of a phase the K clients or ranks measured, from their
 * 'slots' (clients_merge()), and what clean-up must try after it
 * (clients_bounds()).
 */
static void
merge(struct round *r, const struct measure_arg *ma,
    const struct runner_client *slots, struct phase_out *o)
{
	uint64_t	made, gone;

	clients_merge(slots, r->cfg->clients, r->nperf + r->ncounters, o);
	clients_bounds(slots, r->cfg->clients, ma->n, &made, &gone);
	if (phase_makes(ma->p))
		r->w.created = made;
	else if (phase_removes(ma->p))
		r->w.deleted = gone;
	o->deleted = r->w.deleted;
}

/*
 * When the create phase of the first repetition must stop for the round
 * to end at r->end_ns, the budget's end as the schedule has it
 * (timing_create_deadline()), or 0.
 */
static uint64_t
create_deadline(const struct round *r, const struct measure_arg *ma)
{
	if (!phase_makes(ma->p) || !r->deadline || ma->rep != 1)
		return 0;
	return timing_create_deadline(r->end_ns, r->phase_t0_ns,
	    timing_shape_share(&r->last), r->cfg->repeat);
}

/*
 * The clients' create met its deadline (interleaved: each client stopped
 * where it was): keep the names below K x the fewest any client made,
 * which are every client's first, and remove the rest, untimed, so that
 * the round goes on with those n.  The create rate stays that of all the
 * files made.  Return 0, or -1 with o->err and o->what.
 */
static int
trim(struct round *r, const struct measure_arg *ma, struct phase_out *o)
{
	const struct runner_client	*slots = r->runner.slots;
	unsigned			 k = r->cfg->clients, c;
	uint64_t			 m = UINT64_MAX, i;

	for (c = 0; c < k; c++)
		if (slots[c].o.done < m)
			m = slots[c].o.done;
	for (c = 0; c < k; c++)
		for (i = c + m * k; i < ma->n && i < slots[c].created;
		    i += k)
			if ((r->w.mbox[WORKLOAD_TMP] != NULL ?
			    maildir_remove(&r->w, i) : r->be->ops->unlink(r->be,
			    r->w.dir, names_get(&r->names, i))) == -1 &&
			    errno != ENOENT) {
				o->err = errno;
				(void)snprintf(o->what, sizeof(o->what),
				    "removing the files made after the "
				    "deadline");
				return -1;
			}
	o->done = m * k;
	r->w.created = o->done;
	return 0;
}

/*
 * One client's part of measure_clients() (a runner_cfn, in client 'c'):
 * its share of the phase into 'slot'.
 */
static int
client_measure(void *arg, unsigned c, struct runner_client *slot)
{
	const struct measure_arg	*ma = arg;
	struct workload_result		*res;
	struct round			*r = ma->r;
	const struct workload_share	*sh;
	uint64_t			 k0[BACKEND_MAX_COUNTERS];
	uint64_t			 k1[BACKEND_MAX_COUNTERS];
	sig_atomic_t			 cont0;
	char				 done[32], all[32];
	size_t				 i;
	bool				 own;
	int				 rc, e;

	record_phase_init(&slot->o.rec);
	/*
	 * A forked client takes the backend over: a listing's position, for
	 * one, must be its own (largedir refuses --clients with a backend
	 * that has no forked op).  An MPI rank has its own already.
	 */
	if (ma->forked && r->be->ops->forked(r->be) == -1) {
		slot->o.err = errno;
		(void)snprintf(slot->o.what, sizeof(slot->o.what), "taking "
		    "the directories over from largedir");
		return -1;
	}
	if (ma->p == PHASE_LIST || ma->p == PHASE_LISTSTAT ||
	    ma->p == PHASE_SCAN)
		r->w.share.step = 0;	/* each reads the whole directory */
	else
		clients_share(r->cfg->split, r->cfg->clients, c, ma->n,
		    &r->w.share);
	sh = &r->w.share;
	/* Time-boxed as one client, but for a blocked split (timing.h). */
	r->w.deadline_ns = create_deadline(r, ma);
	r->w.open_box = ma->p == PHASE_OPEN && r->deadline ? client_box :
	    NULL;
	r->w.box_arg = r;
	r->w.on_poll = client_poll;
	r->w.arg = slot;
	cont0 = sig_cont;
	own = r->ncounters > 0 && !r->be->ops->shared_counters;
	if (own)			/* its own connection's */
		r->be->ops->counters(r->be, k0);
	res = xmalloc(sizeof(*res));
	perf_start(r->perf);
	slot->t_begin = timing_now();
	rc = workload_run(&r->w, ma->p, res);
	e = errno;
	slot->t_end = timing_now();
	if (rc == -1) {
		slot->o.err = e;
		util_fmt_count(done, sizeof(done), res->done);
		util_fmt_count(all, sizeof(all), sh->step == 0 ? ma->n :
		    (sh->end - sh->first + sh->step - 1) / sh->step);
		(void)snprintf(slot->o.what, sizeof(slot->o.what), "after %s "
		    "of its %s files", done, all);
	}
	perf_stop(r->perf, slot->o.rec.extra);
	if (own) {
		r->be->ops->counters(r->be, k1);
		for (i = 0; i < r->ncounters; i++)
			slot->o.rec.extra[r->nperf + i] = (double)(k1[i] -
			    k0[i]);
	}
	phase_record(res, ma->p, &slot->o);
	slot->hist = res->hist;
	free(res);
	slot->created = r->w.created;
	slot->deleted = r->w.deleted;
	slot->o.rec.memcg_peak_kib = runner_peak_kib(&r->runner);
	slot->o.rec.stopped = sig_cont != cont0 ||
	    record_lost_time(&slot->o.rec) ? 1 : 0;
	return rc;
}

/*
 * A client's open box (struct workload): open_box() of the files all
 * clients opened, as this client's share suggests.
 */
static bool
client_box(void *arg, uint64_t done, uint64_t now, uint64_t elapsed_ns)
{
	struct round	*r = arg;

	return open_box(r, done * r->cfg->clients, now, elapsed_ns);
}

/*
 * A client's poll callback (struct workload), at a tick of its progress
 * timer: keep its count for the progress line that largedir draws.
 */
static void
client_poll(void *arg, enum phase p, uint64_t done)
{
	struct runner_client	*slot = arg;

	(void)p;
	slot->progress = done;
}

/* While the clients run: largedir's progress line, with their files. */
static void
client_progress(void *arg, uint64_t done)
{
	const struct measure_arg	*ma = arg;

	ma->r->on_poll(ma->r->arg, ma->p, done);
}

/*
 * Measure a phase with the ranks of an MPI job (--mpi): tell them the
 * phase, start together at a barrier, each its share (rank 0 too, here),
 * end at a barrier, and gather their slots to add up as the clients'.
 * The span is rank 0's time from barrier to barrier, as mdtest takes it:
 * the ranks' clocks are those of different machines.  No time box (the
 * budget's deadline is rank 0's clock too).  Return 0, or -1 with o->err
 * and o->what.
 */
static int
measure_ranks(struct round *r, const struct measure_arg *ma,
    struct phase_out *o)
{
	struct runner_client		*slots, *mine;
	struct ranks_cmd		 cmd;
	struct cache_state		 cs0;
	uint64_t			 k0[BACKEND_MAX_COUNTERS];
	uint64_t			 t0, t1;
	unsigned			 k = r->cfg->clients;
	size_t				 i;

	/* The ranks' slots, then rank 0's own, sent from there. */
	if (runner_slots(&r->runner, k + 1) == -1)
		return ranks_fail(r, ma, o, "mapping memory for the ranks");
	slots = r->runner.slots;
	mine = &slots[k];
	phase_begin(r, ma, k0, &cs0);
	memset(&cmd, 0, sizeof(cmd));
	cmd.op = RANKS_PHASE;
	cmd.phase = (int32_t)ma->p;
	cmd.k = r->k;
	cmd.rep = ma->rep;
	cmd.n = ma->n;
	(void)snprintf(cmd.dname, sizeof(cmd.dname), "%s", r->dname);
	if (ranks_bcast(&cmd, sizeof(cmd)) == -1 || ranks_barrier() == -1)
		return ranks_fail(r, ma, o, "starting the phase on the "
		    "ranks");
	r->phase_t0_ns = t0 = timing_now();
	(void)rank_share(ma, 0, mine);
	if (ranks_barrier() == -1)
		return ranks_fail(r, ma, o, "ending the phase on the "
		    "ranks");
	t1 = timing_now();
	if (ranks_gather(mine, sizeof(*mine), slots) == -1)
		return ranks_fail(r, ma, o, "gathering what the ranks "
		    "measured");
	merge(r, ma, slots, o);
	o->rec.ns = (double)(t1 - t0);
	o->rec.per_s = t1 > t0 ? o->done * 1e9 / (double)(t1 - t0) : NAN;
	if (o->err != 0)
		return -1;
	phase_end(r, k0, &cs0, false, &o->rec);
	/* A kernel mount's counters are one machine's: not the job's. */
	for (i = 0; r->be->ops->shared_counters && i < r->ncounters; i++)
		o->rec.extra[r->nperf + i] = NAN;
	return 0;
}

/*
 * Rank 'c''s share of a phase into 'slot', in this process, leaving the
 * round's workload as it was: client_measure() sets it up for the share.
 */
static int
rank_share(const struct measure_arg *ma, unsigned c,
    struct runner_client *slot)
{
	struct workload	saved = ma->r->w;
	int		rc;

	memset(slot, 0, sizeof(*slot));
	rc = client_measure((void *)(uintptr_t)ma, c, slot);
	slot->o.done_ok = 1;
	ma->r->w = saved;
	return rc;
}

/*
 * For a rank but 0 (rankrun.c): what a phase's measurement does first,
 * before the barrier that starts it (phase 'p' of repetition 'rep' of 'n'
 * names), and then its share 'c' of the phase into 'slot'.
 */
void
measure_rank_begin(struct round *r, enum phase p, unsigned rep, uint64_t n)
{
	struct measure_arg	ma = { r, p, rep, n, false };
	struct cache_state	cs0;
	uint64_t		k0[BACKEND_MAX_COUNTERS];

	phase_begin(r, &ma, k0, &cs0);	/* open's order */
}

void
measure_rank_share(struct round *r, enum phase p, unsigned rep, uint64_t n,
    unsigned c, struct runner_client *slot)
{
	struct measure_arg	ma = { r, p, rep, n, false };

	(void)rank_share(&ma, c, slot);
}

/*
 * An MPI call of 'what' failed (a signal, or a rank that died) in phase
 * 'p' of 'n' names: say so in 'o', and let clean-up try every name,
 * since what the other ranks did is not known.  Return -1.
 */
static int
ranks_fail(struct round *r, const struct measure_arg *ma, struct phase_out *o,
    const char *what)
{
	o->err = errno != 0 ? errno : EIO;
	(void)snprintf(o->what, sizeof(o->what), "%s", what);
	if (phase_makes(ma->p))
		r->w.created = ma->n;
	else if (phase_removes(ma->p))
		r->w.deleted = 0;
	o->deleted = r->w.deleted;
	return -1;
}

/*
 * The open phase's time box (struct workload): whether to stop after
 * 'done' files at 'now', 'elapsed_ns' into the phase, for the round to
 * end at r->end_ns (timing_open_stop()).
 */
static bool
open_box(void *arg, uint64_t done, uint64_t now, uint64_t elapsed_ns)
{
	struct round	*r = arg;

	return timing_open_stop(&r->last, r->end_ns, now, r->n, done,
	    elapsed_ns, r->create_ns, r->cfg->repeat - r->rep);
}

/* A cache counter as a cell: NAN where it could not be read. */
static double
cache_value(int64_t v)
{
	return v < 0 ? NAN : (double)v;
}
