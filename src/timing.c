/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * timing: resource usage snapshots, the growth schedule and the time
 * budget, called by the round loop in largedir.c between rounds.
 *
 * timing_usage() is the only function here that asks the kernel anything.
 * The rest is pure: the budget remembers the per-file cost of the last
 * two rounds and fits a power law through them, cost(n) = c1 * (n /
 * n1)^alpha with alpha in [0, 1], so a round of n files is predicted to
 * take reps * n * cost(n).  alpha 0 is a directory whose operations cost
 * the same at any size (a hashed or B-tree directory, as far as a few
 * rounds can tell); alpha 1 is a linear directory, where a round takes
 * time quadratic in n.  timing_plan() uses the prediction to start only
 * rounds that fit the budget, and to shrink the last one so that it
 * fills what is left.
 */

#include <sys/resource.h>
#include <sys/time.h>

#include <errno.h>
#include <math.h>
#include <string.h>

#include "timing.h"

static uint64_t	sub_sat(uint64_t, uint64_t);
static uint64_t	tv_ns(const struct timeval *);
static double	alpha(const struct timing_budget *);

/* ===== Resource usage ===== */

static uint64_t
tv_ns(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000000000ULL +
	    (uint64_t)tv->tv_usec * 1000ULL;
}

/* 'a' - 'b', or 0 when 'b' is larger. */
static uint64_t
sub_sat(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

/*
 * Fill 'u' from getrusage(RUSAGE_SELF): user and system CPU time in
 * nanoseconds, context switches, block I/O and the peak RSS in KiB.
 * Return 0, or -1 with errno set (and 'u' untouched).
 */
int
timing_usage(struct timing_usage *u)
{
	struct rusage	ru;

	if (getrusage(RUSAGE_SELF, &ru) == -1)
		return -1;
	u->user_ns = tv_ns(&ru.ru_utime);
	u->sys_ns = tv_ns(&ru.ru_stime);
	u->vcsw = (uint64_t)ru.ru_nvcsw;
	u->ivcsw = (uint64_t)ru.ru_nivcsw;
	u->inblock = (uint64_t)ru.ru_inblock;
	u->oublock = (uint64_t)ru.ru_oublock;
	u->maxrss_kib = (uint64_t)ru.ru_maxrss;
	return 0;
}

/*
 * Store in 'out' what was used between the snapshots 'before' and
 * 'after': each counter's difference, 0 where it went backwards.  The
 * peak RSS is not a counter, so 'out' gets the one of 'after'.  'out' may
 * be the same struct as 'before' or 'after'.
 */
void
timing_usage_diff(const struct timing_usage *before,
    const struct timing_usage *after, struct timing_usage *out)
{
	struct timing_usage	d;

	d.user_ns = sub_sat(after->user_ns, before->user_ns);
	d.sys_ns = sub_sat(after->sys_ns, before->sys_ns);
	d.vcsw = sub_sat(after->vcsw, before->vcsw);
	d.ivcsw = sub_sat(after->ivcsw, before->ivcsw);
	d.inblock = sub_sat(after->inblock, before->inblock);
	d.oublock = sub_sat(after->oublock, before->oublock);
	d.maxrss_kib = after->maxrss_kib;
	*out = d;
}

/* ===== Growth ===== */

/*
 * Return the number of files of the round after one of 'n' files:
 * floor('n' * 'growth'), but at least 'n' + 1, and at most 'max' unless
 * 'max' is 0 (no limit).  Return 0 when there is no further round: 'n'
 * has reached 'max', or the next round would not fit the uint32_t
 * indices of the name table.
 */
uint64_t
timing_next_n(uint64_t n, double growth, uint64_t max)
{
	double		prod;
	uint64_t	next;

	if (max != 0 && n >= max)
		return 0;
	if (n >= UINT32_MAX)
		return 0;
	prod = floor((double)n * growth);
	if (prod > (double)UINT32_MAX)
		next = (uint64_t)UINT32_MAX + 1;
	else if (prod > (double)n)
		next = (uint64_t)prod;
	else
		next = n + 1;	/* also when 'growth' is NaN */
	if (max != 0 && next > max)
		next = max;
	if (next > UINT32_MAX)
		return 0;
	return next;
}

/* ===== Budget ===== */

/*
 * Start the budget 'b' of 'budget_ns' nanoseconds under 'policy', with no
 * rounds known.
 */
void
timing_budget_init(struct timing_budget *b, uint64_t budget_ns,
    enum timing_policy policy)
{
	memset(b, 0, sizeof(*b));
	b->budget_ns = budget_ns;
	b->policy = policy;
}

/*
 * Tell 'b' that a round of 'n' files, run 'reps' times, took 'wall_ns'
 * in all.  Its per-file cost becomes the latest; the one before is kept
 * for the power law.  A round with no files or no repetitions says
 * nothing about cost and is ignored.
 */
void
timing_budget_add(struct timing_budget *b, uint64_t n, unsigned reps,
    uint64_t wall_ns)
{
	if (n == 0 || reps == 0)
		return;
	b->n[0] = b->n[1];
	b->cost_ns[0] = b->cost_ns[1];
	b->n[1] = n;
	b->cost_ns[1] = (double)wall_ns / ((double)n * reps);
	b->rounds++;
}

/*
 * The exponent of the per-file cost in n, from the last two rounds:
 * log(c1 / c0) / log(n1 / n0) clamped into [0, 1]; 0 with fewer than two
 * rounds, two rounds of the same n, or a cost that is not positive.
 */
static double
alpha(const struct timing_budget *b)
{
	double	a;

	if (b->rounds < 2 || b->n[0] == b->n[1] || b->n[0] == 0 ||
	    b->n[1] == 0 || !(b->cost_ns[0] > 0) || !(b->cost_ns[1] > 0))
		return 0;
	a = log(b->cost_ns[1] / b->cost_ns[0]) /
	    log((double)b->n[1] / (double)b->n[0]);
	if (!(a > 0))
		return 0;	/* also NaN */
	if (a > 1)
		return 1;
	return a;
}

/*
 * The prediction is reps * k * n^(1 + alpha): per-file cost follows a
 * power law through the last two rounds, and 'k' is taken from whichever
 * of them was dearer, so a round that was fast by chance (a falling cost
 * is usually noise: writeback, a neighbour going idle) does not make the
 * next prediction optimistic.  Store alpha in '*a' and return k.
 */
static double
coef(const struct timing_budget *b, double *a)
{
	double	k;

	*a = alpha(b);
	k = b->cost_ns[1] / pow((double)b->n[1], *a);
	if (b->rounds >= 2 && b->n[0] > 0 && b->cost_ns[0] > 0)
		k = fmax(k, b->cost_ns[0] / pow((double)b->n[0], *a));
	return k;
}

/*
 * Return the predicted wall time in nanoseconds of a round of 'n' files
 * run 'reps' times, from the rounds 'b' has seen (see coef()).  0 when no
 * round is known.
 */
double
timing_predict(const struct timing_budget *b, uint64_t n, unsigned reps)
{
	double	a, k;

	if (b->rounds == 0 || b->n[1] == 0)
		return 0;
	k = coef(b, &a);
	return (double)reps * k * pow((double)n, 1 + a);
}

/*
 * The largest n below 'limit' whose round ('reps' repetitions) is
 * predicted to fit in 'target_ns', solving reps * k * n^(1 + alpha) =
 * target for n.  0 if none.
 */
static uint64_t
fit_n(const struct timing_budget *b, double target_ns, unsigned reps,
    uint64_t limit)
{
	double		a, k, fit;
	uint64_t	n;

	if (!(target_ns > 0) || !(b->cost_ns[1] > 0) || reps == 0)
		return 0;
	k = coef(b, &a);
	fit = floor(pow(target_ns / ((double)reps * k), 1 / (1 + a)));
	if (!(fit > 0))
		return 0;
	n = fit < (double)limit ? (uint64_t)fit : limit - 1;
	/* Rounding in pow() may leave n one off either way. */
	while (n > 0 && timing_predict(b, n, reps) > target_ns)
		n--;
	while (n + 1 < limit && timing_predict(b, n + 1, reps) <= target_ns)
		n++;
	return n;
}

/*
 * Decide the round after one of 'n_prev' files, when the growth schedule
 * asks for 'n_next' files run 'reps' times and 'elapsed_ns' of the budget
 * 'b' have passed.  '*n_out' gets the n to run and '*predicted_ns' its
 * predicted wall time.
 *
 * TIMING_CLASSIC goes on until the budget has passed.  TIMING_PREDICT
 * keeps TIMING_SLACK of the budget in reserve and sizes the last round to
 * use up the rest, so a run ends close to its budget instead of up to a
 * round early:
 *	- TIMING_GO: 'n_next' fits, with room for a round after it;
 *	- TIMING_STRETCH: 'n_next' fits but leaves too little for another
 *	  round, so this last round runs the largest n that fits instead;
 *	- TIMING_SHRINK: 'n_next' does not fit, the largest n that does is
 *	  still above 'n_prev': the last round runs that;
 *	- TIMING_STOP: nothing above 'n_prev' fits; '*n_out' is 'n_next'
 *	  and '*predicted_ns' its prediction, for the caller's message.
 * Without a finished round it can only say GO.
 */
enum timing_verdict
timing_plan(const struct timing_budget *b, uint64_t elapsed_ns,
    uint64_t n_prev, uint64_t n_next, unsigned reps, uint64_t *n_out,
    double *predicted_ns)
{
	double		target;
	uint64_t	n;

	*n_out = n_next;
	*predicted_ns = timing_predict(b, n_next, reps);
	if (elapsed_ns >= b->budget_ns)
		return TIMING_STOP;
	if (b->policy == TIMING_CLASSIC || b->rounds == 0)
		return TIMING_GO;

	target = (double)(b->budget_ns - elapsed_ns) -
	    TIMING_SLACK * (double)b->budget_ns;
	if (*predicted_ns <= target) {
		if (target - *predicted_ns >= timing_predict(b, n_next + 1,
		    reps))
			return TIMING_GO;
		n = fit_n(b, target, reps, UINT32_MAX);
		if (n <= n_next)
			return TIMING_GO;
		*n_out = n;
		*predicted_ns = timing_predict(b, n, reps);
		return TIMING_STRETCH;
	}
	n = fit_n(b, target, reps, n_next);
	if (n <= n_prev)
		return TIMING_STOP;
	*n_out = n;
	*predicted_ns = timing_predict(b, n, reps);
	return TIMING_SHRINK;
}

/*
 * When the time-boxed create phase of a run that started at 'run_t0_ns'
 * with budget 'budget_ns', starting at 'now', must stop: when the share
 * of what is left of the budget (less TIMING_SLACK) that create took in
 * the repetition before ('share'; the rest of the round takes the
 * remainder) is spent, divided among the 'repeat' repetitions.  A share
 * that is no share (below 5%, 100% or more, NAN) counts as half.
 */
uint64_t
timing_create_deadline(uint64_t run_t0_ns, uint64_t budget_ns, uint64_t now,
    double share, unsigned repeat)
{
	double	end;

	end = (double)run_t0_ns + (1 - TIMING_SLACK) * budget_ns;
	if (!(share > 0.05 && share < 1))
		share = 0.5;
	if (end <= (double)now)
		return now;
	return now + (uint64_t)((end - (double)now) * share / repeat);
}

/* ===== The schedule of a run ===== */

static uint64_t
monotonic(void *arg)
{
	(void)arg;
	return timing_now();
}

const struct timing_clock timing_monotonic = { monotonic, NULL };

/*
 * Start the schedule 's' of a run that started at 't0_ns' on 'clock':
 * budget 'budget_ns' under 'policy', rounds from 'start' files growing
 * by 'growth' up to 'max', each run 'repeat' times, after 'warmup'
 * warm-up rounds of 'start' files.
 */
void
timing_sched_init(struct timing_sched *s, const struct timing_clock *clock,
    uint64_t t0_ns, uint64_t budget_ns, enum timing_policy policy,
    uint64_t start, uint64_t max, double growth, unsigned repeat,
    unsigned warmup)
{
	memset(s, 0, sizeof(*s));
	s->clock = clock;
	timing_budget_init(&s->b, budget_ns, policy);
	s->t0_ns = t0_ns;
	s->budget_ns = budget_ns;
	s->growth = growth;
	s->repeat = repeat;
	s->warmup = warmup;
	s->max = max;
	s->n = start;
}

/*
 * Plan the next round into 'rd'.  Return true to run it, or false when
 * the schedule has ended: rd->end says why, rd->n is the round that
 * would have come next, rd->pred_ns its predicted time and rd->left_ns
 * what is left of the budget.
 *
 * Warm-up rounds come first, all of the first n.  Then timing_plan()
 * decides; its last round is time-boxed (TIMING_STRETCH or _SHRINK): on
 * a busy machine a prediction can be off by a factor of two or more, so
 * instead of trusting it, the round may make up to TIMING_TIMEBOX_FACTOR
 * times the predicted n, and its create phase stops in time for the
 * whole round to end at the budget (timing_create_deadline()).  A
 * time-boxed round that made every file it could before its deadline ran
 * faster than predicted: if what is left would run it again (so the next
 * can grow past it), the next round is time-boxed too, instead of a tiny
 * round at the end that would only add a stray point to the curve.
 */
bool
timing_sched_next(struct timing_sched *s, struct timing_round *rd)
{
	enum timing_verdict	v;
	uint64_t		now = s->clock->now(s->clock->arg), n_run;
	double			pred;

	memset(rd, 0, sizeof(*rd));
	rd->left_ns = s->t0_ns + s->budget_ns > now ? s->t0_ns +
	    s->budget_ns - now : 0;
	if (s->ended) {
		rd->end = TIMING_END_MAX;
		return false;
	}
	rd->k = s->k + 1;
	if (s->k < s->warmup) {
		rd->n = s->n;
		rd->warmup = true;
		rd->pred_ns = timing_predict(&s->b, s->n, s->repeat);
	} else {
		v = timing_plan(&s->b, now - s->t0_ns, s->n_prev, s->n,
		    s->repeat, &n_run, &pred);
		if (v == TIMING_STOP && s->capped_ns > 0 && (double)now +
		    (double)s->capped_ns < (double)s->t0_ns +
		    (1 - TIMING_SLACK) * s->budget_ns)
			v = TIMING_STRETCH;
		rd->n = n_run;
		rd->pred_ns = pred;
		if (v == TIMING_STOP) {
			rd->end = TIMING_END_BUDGET;
			return false;
		}
		rd->timebox = v == TIMING_SHRINK || v == TIMING_STRETCH;
		if (rd->timebox) {
			rd->n_about = n_run;
			rd->n = n_run > s->max / TIMING_TIMEBOX_FACTOR ?
			    s->max : TIMING_TIMEBOX_FACTOR * n_run;
		}
	}
	s->k++;
	s->cur = *rd;
	s->round_t0_ns = now;
	return true;
}

/*
 * The round timing_sched_next() planned is done, having made 'n_made'
 * files (fewer than planned if time-boxed): learn its cost and grow n
 * for the next, or end the schedule when n cannot grow.
 */
void
timing_sched_done(struct timing_sched *s, uint64_t n_made)
{
	uint64_t	elapsed;

	elapsed = s->clock->now(s->clock->arg) - s->round_t0_ns;
	if (s->cur.warmup) {
		timing_budget_add(&s->b, s->cur.n, s->repeat, elapsed);
		return;
	}
	s->capped_ns = s->cur.timebox && n_made == s->cur.n ? elapsed : 0;
	timing_budget_add(&s->b, n_made, s->repeat, elapsed);
	s->n_prev = n_made;
	s->n = timing_next_n(n_made, s->growth, s->max);
	if (s->n == 0)
		s->ended = true;
}