/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * plan: what a round will cost, and the last rounds of a run.
 *
 * The cost model.  A round of n files run reps times takes reps * n *
 * c(n), the per-file cost c(n) = k * n^a with a in [0, 1]: a 0 is a
 * directory whose operations cost the same at any size (a hashed or
 * B-tree directory, as far as a few rounds can tell), a 1 a linear
 * directory, where a round takes time quadratic in n.  The cost is the
 * whole round's wall time divided by n and reps, so everything a round
 * does (every phase, --repeat, --cold, --memory-limit, the syncs) is in
 * it.  k and a are fitted to the last PLAN_HIST rounds by least squares
 * on log c against log n, each round weighing as much as its n: two
 * rounds or more see a cost that rises with n, and the latest and
 * largest rounds count most, where a knee shows first and where a fixed
 * cost of each round (the syncs, the outputs) no longer inflates the
 * cost of a file; a round also measures its cost more precisely the
 * longer it runs.  Then k is raised, if need be, until the model predicts
 * the latest round as dear as it was: a round that was fast by chance
 * does not make the next prediction optimistic, and a knee just crossed
 * is not averaged away.
 *
 * The margin.  Every prediction is checked against what the round then
 * took; the margin is the largest miss of the last PLAN_MISSES rounds,
 * as a share of the prediction, kept within [PLAN_MARGIN_MIN,
 * PLAN_MARGIN_MAX] (PLAN_MARGIN_MAX before any round was predicted).
 *
 * The rule (plan_make()).  Rounds grow by --growth, so the curve has its
 * points evenly spaced, until no more than PLAN_TAIL rounds at x growth
 * fit into what is left of the budget, each predicted with the margin
 * added: (1 + margin)^i for the i-th from now, as each round further
 * ahead is predicted from further away.  Those are the remaining rounds,
 * but the last is given all the time the ones before it leave: it grows
 * more than x growth, and the run ends at its budget with the largest n
 * the model says fits.  The last round is time-boxed (timing.c): it may
 * make up to three times the n planned, and its create phase stops when
 * the share of what is left that create took in the round before is
 * spent, so most of an error in its own prediction costs neither an
 * overrun nor unused time; the margin is there for the rounds before it.
 * (A round whose other phases slow down more than its create phase is
 * caught by the open phase's own time box, as far as open can give time
 * back: see timing_open_stop().)
 * When not even one round at x growth fits with the margin, the last is
 * the largest that fits without it, if it still grows by growth^(1/4), a
 * quarter of a step on the graph's log axis; a round closer than that
 * would add a point on top of the one before.
 *
 * The grid.  Rounds grow by growth but stop at every power of ten
 * (timing_next_n()), so the rounds of any two runs with the same --start
 * and --growth fall on the same n, and a run that got past a decade
 * measured it.  The stretched last round keeps that promise: where it
 * would pass a decade above the round before it, the decade becomes a
 * round of its own, and the last takes what is left after it, if that
 * still grows by growth^(1/4) from the decade (and passes no further
 * decade); to make room for it, the rounds planned between the one
 * before the plan and the decade may be left out, as long as the decade
 * is at most two steps (growth^2) above the round before it, a
 * prediction that far being less sure (plan_decade()).  Where not even
 * that fits, the decade is the last round, and the time it leaves goes
 * to rounds below it that fill in the curve (timing.c).  A run may so
 * end with a smaller largest n than it had time for, never without a
 * decade it had time for.
 */

#include <math.h>
#include <string.h>

#include "base/plan.h"
#include "base/timing.h"

/*
 * Tell 'c' that a round of 'n' files, run 'reps' times, took 'wall_ns'
 * in all, where 'pred_ns' had been predicted (NAN or 0: no prediction).
 * A round with no files or no repetitions says nothing about cost and
 * is ignored.
 */
void
plan_costs_add(struct plan_costs *c, uint64_t n, unsigned reps,
    uint64_t wall_ns, double pred_ns)
{
	if (n == 0 || reps == 0)
		return;
	if (c->len == PLAN_HIST) {
		memmove(c->n, c->n + 1, (PLAN_HIST - 1) * sizeof(c->n[0]));
		memmove(c->cost_ns, c->cost_ns + 1,
		    (PLAN_HIST - 1) * sizeof(c->cost_ns[0]));
		c->len--;
	}
	c->n[c->len] = n;
	/* A round faster than the clock can tell costs a little. */
	c->cost_ns[c->len++] = fmax((double)wall_ns, 1.0) /
	    ((double)n * reps);
	if (!(pred_ns > 0) || !isfinite(pred_ns))
		return;
	if (c->nmiss == PLAN_MISSES) {
		memmove(c->miss, c->miss + 1,
		    (PLAN_MISSES - 1) * sizeof(c->miss[0]));
		c->nmiss--;
	}
	c->miss[c->nmiss++] = fabs((double)wall_ns / pred_ns - 1);
}

/*
 * Fit the model 'm' to the rounds in 'c' (see the top of this file).
 * Return false, 'm' untouched, when 'c' has no round.
 */
bool
plan_fit(const struct plan_costs *c, struct plan_model *m)
{
	double		sw = 0, sx = 0, sy = 0, sxx = 0, sxy = 0, w, x, y;
	double		var, a, k;
	unsigned	i;

	if (c->len == 0)
		return false;
	for (i = 0; i < c->len; i++) {
		w = (double)c->n[i];
		x = log((double)c->n[i]);
		y = log(c->cost_ns[i]);
		sw += w;
		sx += w * x;
		sy += w * y;
		sxx += w * x * x;
		sxy += w * x * y;
	}
	var = sxx - sx * sx / sw;
	a = var > 1e-9 ? (sxy - sx * sy / sw) / var : 0;
	if (!(a > 0))
		a = 0;		/* also NaN */
	else if (a > 1)
		a = 1;
	k = exp((sy - a * sx) / sw);
	i = c->len - 1;
	k = fmax(k, c->cost_ns[i] / pow((double)c->n[i], a));
	m->k = k;
	m->a = a;
	return true;
}

/* The margin of the plans made now (see the top of this file). */
double
plan_margin(const struct plan_costs *c)
{
	double		e = 0;
	unsigned	i;

	if (c->nmiss == 0)
		return PLAN_MARGIN_MAX;
	for (i = 0; i < c->nmiss; i++)
		e = fmax(e, c->miss[i]);
	return fmin(fmax(e, PLAN_MARGIN_MIN), PLAN_MARGIN_MAX);
}

/*
 * The predicted wall time in nanoseconds of a round of 'n' files run
 * 'reps' times: reps * k * n^(1 + a).
 */
double
plan_time(const struct plan_model *m, uint64_t n, unsigned reps)
{
	return (double)reps * m->k * pow((double)n, 1 + m->a);
}

/*
 * The largest n below 'limit' whose round ('reps' repetitions) is
 * predicted to take no more than 'target_ns'; 0 if none.
 */
uint64_t
plan_fit_n(const struct plan_model *m, double target_ns, unsigned reps,
    uint64_t limit)
{
	double		fit;
	uint64_t	n;

	if (!(target_ns > 0) || !(m->k > 0) || reps == 0 || limit < 2)
		return 0;
	fit = floor(pow(target_ns / ((double)reps * m->k), 1 / (1 + m->a)));
	if (!(fit > 0))
		return 0;
	n = fit < (double)limit ? (uint64_t)fit : limit - 1;
	/* Rounding in pow() may leave n one off either way. */
	while (n > 0 && plan_time(m, n, reps) > target_ns)
		n--;
	while (n + 1 < limit && plan_time(m, n + 1, reps) <= target_ns)
		n++;
	return n;
}

/*
 * Put the decade 'd' into the plan 'p', whose last round, planned for
 * what its 'k' - 1 rounds before leave of 'left_ns', would pass it (see
 * the top of this file); 'margin' is the plan's.  Return the number of
 * rounds.
 */
static unsigned
plan_decade(const struct plan_model *m, double margin, uint64_t n_prev,
    uint64_t d, double growth, unsigned reps, double left_ns,
    uint64_t limit, struct plan *p, unsigned k)
{
	double		t = plan_time(m, d, reps), used[PLAN_ROUNDS];
	double		mult = 1 + margin;
	uint64_t	n;
	unsigned	j;

	/* The decade before the last, after as many of the k - 1 as fit. */
	for (j = 0, used[0] = 0; j + 1 < k; j++, mult *= 1 + margin)
		used[j + 1] = used[j] + plan_time(m, p->n[j], reps) * mult;
	for (j = k; j-- > 0; mult /= 1 + margin) {
		if ((double)d > (double)(j > 0 ? p->n[j - 1] : n_prev) *
		    growth * growth)
			break;		/* too far to predict */
		n = plan_fit_n(m, left_ns - used[j] - t * mult, reps,
		    limit < 10 * d + 1 ? limit : 10 * d + 1);
		if ((double)n >= ceil((double)d * pow(growth, 0.25)) &&
		    n > d) {
			p->n[j] = d;
			p->n[j + 1] = n;
			return j + 2;
		}
	}
	/* The decade is the last. */
	p->n[k - 1] = d;
	return k;
}

/*
 * Choose the remaining rounds after one of 'n_prev' files, when they
 * grow by 'growth' up to 'max' (0: no limit), run 'reps' times each,
 * and 'left_ns' of the budget are left: the rule at the top of this
 * file, with the model 'm' and the margin 'margin'.  PLAN_MADE fills
 * '*p'.
 */
enum plan_kind
plan_make(const struct plan_model *m, double margin, uint64_t n_prev,
    double growth, uint64_t max, unsigned reps, double left_ns,
    struct plan *p)
{
	uint64_t	n = n_prev, next = 0, limit, d;
	double		used = 0, t, mult = 1 + margin, last = 0;
	unsigned	k = 0, i;

	memset(p, 0, sizeof(*p));
	p->margin = margin;
	for (;;) {
		if ((next = timing_next_n(n, growth, max)) == 0)
			return PLAN_NONE;	/* --max-files comes first */
		t = plan_time(m, next, reps) * mult;
		if (used + t > left_ns)
			break;
		if (k == PLAN_TAIL)
			return PLAN_NONE;
		p->n[k++] = next;
		used += last = t;
		mult *= 1 + margin;
		n = next;
	}
	limit = max != 0 && max < UINT32_MAX ? max + 1 : UINT32_MAX;
	if (k == 0) {
		/*
		 * A smaller last round, if it is not on top of n_prev: the
		 * next on the grid if it fits without the margin.
		 */
		n = plan_fit_n(m, left_ns, reps, next + 1);
		if ((double)n < ceil((double)n_prev * pow(growth, 0.25)) ||
		    n <= n_prev)
			return PLAN_NOFIT;
		p->n[k++] = n;
	} else {
		/* The last takes what the others leave... */
		used -= last;
		n = plan_fit_n(m, left_ns - used, reps, limit);
		p->n[k - 1] = n > p->n[k - 1] ? n : p->n[k - 1];
		/* ... but passes no decade it has not measured. */
		d = timing_decade_above(k >= 2 ? p->n[k - 2] : n_prev);
		if (p->n[k - 1] > d)
			k = plan_decade(m, margin, n_prev, d, growth, reps,
			    left_ns, limit, p, k);
	}
	p->m = k;
	for (i = 0; i < k; i++)
		p->pred_ns[i] = plan_time(m, p->n[i], reps);
	return PLAN_MADE;
}
