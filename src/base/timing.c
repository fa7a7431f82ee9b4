/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * timing: resource usage snapshots, the growth schedule and the time
 * budget, called by the round loop in largedir.c between rounds.
 *
 * timing_usage() is the only function here that asks the kernel anything.
 * The rest is pure: the schedule (timing_sched_next(), _done()) reads
 * the time from a clock it is given, a test's or the monotonic one, and
 * leaves the cost model and the plan of the last rounds to plan.c.
 */

#include <sys/resource.h>
#include <sys/time.h>

#include <errno.h>
#include <math.h>
#include <string.h>

#include "base/timing.h"

static uint64_t	sub_sat(uint64_t, uint64_t);
static uint64_t	tv_ns(const struct timeval *);
static void	said(const struct timing_sched *, struct timing_round *,
		    enum timing_plan_event);

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

/* The smallest power of ten above 'n' (10 for 0 to 9). */
uint64_t
timing_decade_above(uint64_t n)
{
	uint64_t	d = 10;

	while (d <= n && d <= UINT64_MAX / 10)
		d *= 10;
	return d;
}

/*
 * Return the number of files of the round after one of 'n' files:
 * floor('n' * 'growth'), but at least 'n' + 1, and at most 'max' unless
 * 'max' is 0 (no limit); and never past a power of ten, which is a
 * round of its own: the grid every run's rounds share, so that any two
 * runs that got past a decade both measured it.  From the decade on,
 * rounds grow from it.  Return 0 when there is no further round: 'n' has
 * reached 'max', or the next round would not fit the uint32_t indices
 * of the name table.
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
	if (timing_decade_above(n) < next)
		next = timing_decade_above(n);
	if (max != 0 && next > max)
		next = max;
	if (next > UINT32_MAX)
		return 0;
	return next;
}

/* ===== Budget ===== */

/*
 * When the rounds of a run that started at 'run_t0_ns' with budget
 * 'budget_ns' must end: TIMING_SLACK before the budget.  The schedule
 * asks once (timing_sched_init()) and hands it to every round it plans
 * (timing_round.end_ns), whose deadlines keep it.
 */
uint64_t
timing_budget_end(uint64_t run_t0_ns, uint64_t budget_ns)
{
	return run_t0_ns + (uint64_t)((1 - TIMING_SLACK) * (double)budget_ns);
}

/*
 * When the create phase with a deadline (timing_round.deadline) of a run
 * whose rounds must end at 'end_ns' (timing_round.end_ns), starting at
 * 'now', must stop: when the share of what is left until then that
 * create took in the repetition before ('share'; the rest of the round
 * takes the remainder) is spent, divided among the 'repeat'
 * repetitions.  A share that is no share (below 5%, 100% or more, NAN)
 * counts as half.  The rule assumes that the other phases slow down
 * with n as create does.  Where they slow down more (a cache
 * knee crossed by the last round, which may be three or four times any
 * round before it), the open phase's own time box catches it
 * (timing_open_stop()); without an open phase such a round ends after
 * the budget.
 */
uint64_t
timing_create_deadline(uint64_t end_ns, uint64_t now, double share,
    unsigned repeat)
{
	if (!(share > 0.05 && share < 1))
		share = 0.5;
	if (end_ns <= now)
		return now;
	return now + (uint64_t)((double)(end_ns - now) * share / repeat);
}

/*
 * Keep in 'sh' how a repetition's time fell: 'round_ns' in all,
 * 'create_ns' in create, 'open_ns' in open (0: it had none) and
 * 'after_ns' after open.
 */
void
timing_shape_add(struct timing_shape *sh, double round_ns, double create_ns,
    double open_ns, double after_ns)
{
	unsigned	i;

	if (round_ns > 0) {
		i = sh->nshares++ % TIMING_SHAPE_LEN;
		sh->round_ns[i] = round_ns;
		sh->create_ns[i] = create_ns;
	}
	if (open_ns > 0) {
		i = sh->nratios++ % TIMING_SHAPE_LEN;
		sh->open_ns[i] = open_ns;
		sh->after_ns[i] = after_ns;
	}
}

/* The sum of the first min(n, TIMING_SHAPE_LEN) of 'v'. */
static double
sum3(const double *v, unsigned n)
{
	double		s = 0;
	unsigned	i;

	for (i = 0; i < n && i < TIMING_SHAPE_LEN; i++)
		s += v[i];
	return s;
}

/* Create's share of the repetitions 'sh' keeps, in all; NAN if none. */
double
timing_shape_share(const struct timing_shape *sh)
{
	if (sh->nshares == 0)
		return NAN;
	return sum3(sh->create_ns, sh->nshares) / sum3(sh->round_ns,
	    sh->nshares);
}

/* The ratio of the time after open to open in them; NAN if none. */
double
timing_shape_ratio(const struct timing_shape *sh)
{
	if (sh->nratios == 0)
		return NAN;
	return sum3(sh->after_ns, sh->nratios) / sum3(sh->open_ns,
	    sh->nratios);
}

/*
 * Whether the open phase of a round with a deadline, having opened
 * 'done' of its 'n' files in 'elapsed_ns', must stop at 'now' for the
 * round to end by 'end_ns' (timing_budget_end()).  What comes after open
 * is predicted to take its ratio to open in the last repetitions
 * (timing_shape_ratio()) times a whole open at this open's pace: the
 * ratio stays when open and delete slow down together, as they do past
 * a cache knee, which create may not feel.  'create_ns' is
 * this repetition's create phase and 'reps_left' the repetitions still
 * to come, each a create, a whole open and the rest.  Open stops no
 * earlier than TIMING_OPEN_MIN files and 1/TIMING_OPEN_PART of n; the
 * files it opened are a random sample, in the random order, and its
 * rate is theirs.  Without a ratio (no open phase before), never.
 */
bool
timing_open_stop(const struct timing_shape *sh, uint64_t end_ns,
    uint64_t now, uint64_t n, uint64_t done, uint64_t elapsed_ns,
    double create_ns, unsigned reps_left)
{
	double	ratio = timing_shape_ratio(sh), open, rest;

	if (!(ratio >= 0) || done < TIMING_OPEN_MIN ||
	    done < n / TIMING_OPEN_PART || elapsed_ns == 0)
		return false;
	if (now >= end_ns)
		return true;
	open = (double)elapsed_ns / (double)done * (double)n;
	rest = ratio * open + reps_left * (create_ns + (1 + ratio) * open);
	return (double)now + rest >= (double)end_ns;
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
	s->policy = policy;
	s->t0_ns = t0_ns;
	s->budget_ns = budget_ns;
	s->end_ns = timing_budget_end(t0_ns, budget_ns);
	s->growth = growth;
	s->repeat = repeat;
	s->warmup = warmup;
	s->max = max;
	s->n = start;
}

/*
 * Before round 'rd': the plan event 'ev', and the round before it, whose
 * time against its prediction is why a plan is redone or dropped.
 */
static void
said(const struct timing_sched *s, struct timing_round *rd,
    enum timing_plan_event ev)
{
	rd->plan_event = ev;
	rd->redo_k = s->last_k;
	rd->redo_took_ns = s->last_took_ns;
	rd->redo_pred_ns = s->last_pred_ns;
}

/* Keep 'n' among the rounds made, in order, once. */
static void
made_add(struct timing_sched *s, uint64_t n)
{
	unsigned	i = s->nmade;

	if (n == 0 || s->nmade == TIMING_MADE_MAX)
		return;
	while (i > 0 && s->made[i - 1] > n)
		i--;
	if (i > 0 && s->made[i - 1] == n)
		return;
	memmove(s->made + i + 1, s->made + i, (s->nmade - i) *
	    sizeof(s->made[0]));
	s->made[i] = n;
	s->nmade++;
}

/*
 * The round that halves the knee's interval (timing_sched_knee()) on a
 * log axis, or 0 if it needs none: it is no wider than
 * TIMING_REFINE_RATIO, or its middle was measured.
 */
static uint64_t
refine_n(const struct timing_sched *s)
{
	uint64_t	m;
	unsigned	i;

	if (s->knee_lo == 0 || !((double)s->knee_hi / (double)s->knee_lo >
	    TIMING_REFINE_RATIO))
		return 0;
	m = (uint64_t)floor(sqrt((double)s->knee_lo * (double)s->knee_hi));
	if (m <= s->knee_lo || m >= s->knee_hi)
		return 0;
	for (i = 0; i < s->nmade; i++)
		if (s->made[i] == m)
			return 0;
	return m;
}

/*
 * Make 'rd' the round that halves the knee's interval (refine_n()), if
 * there is one and it is predicted to take no more than 'limit_ns', its
 * prediction multiplied by 'mult'.  Return whether it did.
 */
static bool
refine(const struct timing_sched *s, double limit_ns, double mult,
    struct timing_round *rd)
{
	uint64_t	m = refine_n(s);

	if (m == 0 || plan_time(&s->model, m, s->repeat) * mult > limit_ns)
		return false;
	rd->kind = TIMING_REFINE;
	rd->n = m;
	rd->gap_lo = s->knee_lo;
	rd->gap_hi = s->knee_hi;
	return true;
}

/*
 * The rounds have grown as far as the budget lets them, and 'left_ns'
 * is left: choose a round below the largest n to spend it on, into
 * 'rd'.  The knee's refinement first (refine_n()), if it fits; else the
 * largest n that fits in the highest gap between two rounds made that
 * has room for it: a gap at least sqrt(growth) wide on the log axis,
 * the round at least a quarter step (growth^(1/4)) from either end, and
 * predicted to take at least 1% of the budget.  Such a round takes all
 * that is left, or as much as its gap allows, so only a few come.
 * Without a time box (s->nobox), with the margin.  Return false if there
 * is none.
 */
static bool
fill_n(const struct timing_sched *s, double left_ns, struct timing_round *rd)
{
	double		mult = s->nobox ? 1 + plan_margin(&s->costs) : 1;
	double		step = pow(s->growth, 0.25);
	uint64_t	m, lo, hi;
	unsigned	i;

	if (s->ended)
		return false;
	if (refine(s, left_ns, mult, rd))
		return true;
	for (i = s->nmade; i-- > 1; ) {
		lo = (uint64_t)ceil((double)s->made[i - 1] * step);
		hi = (uint64_t)floor((double)s->made[i] / step);
		if ((double)s->made[i] / (double)s->made[i - 1] <
		    sqrt(s->growth) || hi < lo)
			continue;
		m = plan_fit_n(&s->model, left_ns / mult, s->repeat, hi + 1);
		if (m >= lo && plan_time(&s->model, m, s->repeat) >=
		    (double)s->budget_ns / 100) {
			rd->kind = TIMING_FILL;
			rd->n = m;
			rd->gap_lo = s->made[i - 1];
			rd->gap_hi = s->made[i];
			return true;
		}
	}
	return false;
}

/*
 * Make 'rd', the plan's last round, time-boxed: it may make up to
 * TIMING_TIMEBOX_FACTOR times the n planned, but no more than --max-files
 * and the decade at or above the n planned (plan.c: the grid).
 */
static void
timebox(const struct timing_sched *s, struct timing_round *rd)
{
	uint64_t	d = timing_decade_above(rd->n - 1);

	rd->timebox = true;
	rd->n_about = rd->n;
	rd->n = rd->n > s->max / TIMING_TIMEBOX_FACTOR ? s->max :
	    TIMING_TIMEBOX_FACTOR * rd->n;
	if (rd->n > d)
		rd->n = d;
}

/*
 * Tell 's' where the knee of the rates lies: between the rounds of
 * 'lo' and 'hi' files (0, 0: none), so that rounds inside halve the
 * interval until it is no wider than TIMING_REFINE_RATIO: while n grows,
 * when such a round costs no more than a tenth of what is left, and with
 * the time the growing rounds could not use.
 */
void
timing_sched_knee(struct timing_sched *s, uint64_t lo, uint64_t hi)
{
	s->knee_lo = lo < hi ? lo : 0;
	s->knee_hi = lo < hi ? hi : 0;
}

/*
 * Plan the next round into 'rd'.  Return true to run it, or false when
 * the schedule has ended: rd->end says why, rd->n is the round that
 * would have come next, rd->pred_ns its predicted time and rd->left_ns
 * what is left of the budget.
 *
 * Warm-up rounds come first, all of the first n.  Then, under
 * TIMING_PREDICT, rounds grow by the growth factor until plan_make()
 * makes the plan of the last ones (plan.c), which is followed until a
 * round misses its prediction by more than the plan's margin, or it ends
 * with time left; then it is made again.  Its last round is time-boxed:
 * on a busy machine a prediction can be off by a factor of two or more,
 * so the round may make up to TIMING_TIMEBOX_FACTOR times the n planned,
 * and its create phase stops in time for the whole round to end at the
 * budget (timing_create_deadline()), its open phase where what comes
 * after it would not (timing_open_stop()).  Every round under
 * TIMING_PREDICT has these limits, so even a round far slower than
 * planned ends at the budget; unless s->nobox (a round whose phases
 * cannot stop early, as --clients with --split blocked): then the last
 * round is the plan's n, and ends near the budget as far as the plan is
 * right.  A round that refines the knee (timing_sched_knee()) comes
 * before the growing rounds when it costs no more than a tenth of what
 * is left, and no plan is being followed.  When no growing round fits
 * any more, the time left goes to rounds below the largest n that fill
 * in the curve (fill_n()), with the limits every round has.
 * TIMING_CLASSIC starts rounds at x growth until the budget has passed.
 */
bool
timing_sched_next(struct timing_sched *s, struct timing_round *rd)
{
	uint64_t	now = s->clock->now(s->clock->arg), elapsed;
	double		left;
	unsigned	i;

	memset(rd, 0, sizeof(*rd));
	rd->end_ns = s->end_ns;
	rd->left_ns = s->t0_ns + s->budget_ns > now ? s->t0_ns +
	    s->budget_ns - now : 0;
	if (s->ended) {
		rd->end = TIMING_END_MAX;
		return false;
	}
	rd->k = s->k + 1;
	rd->n = s->n;
	s->have_model = plan_fit(&s->costs, &s->model);
	if (s->have_model)
		rd->pred_ns = plan_time(&s->model, s->n, s->repeat);
	if (s->k < s->warmup) {
		rd->warmup = true;
		goto run;
	}
	elapsed = now - s->t0_ns;
	if (elapsed >= s->budget_ns) {
		rd->end = TIMING_END_BUDGET;
		return false;
	}
	if (s->policy == TIMING_CLASSIC)
		goto run;
	rd->deadline = !s->nobox;
	if (!s->have_model)
		goto run;
	left = (double)s->end_ns - (double)now;
	/* A knee is cheap to refine while n grows. */
	if (!s->plan_on && refine(s, left / 10, 1, rd))
		goto fill;
	if (!s->plan_on) {
		switch (plan_make(&s->model, plan_margin(&s->costs),
		    s->n_prev, s->growth, s->max, s->repeat, left, &s->plan)) {
		case PLAN_NONE:
			if (s->plan_missed)
				said(s, rd, TIMING_PLAN_DROPPED);
			s->plan_missed = false;
			goto run;
		case PLAN_NOFIT:
			if (fill_n(s, left, rd))
				goto fill;
			rd->end = TIMING_END_BUDGET;
			return false;
		case PLAN_MADE:
			break;
		}
		s->plan_on = true;
		s->plan_missed = false;
		s->plan_i = 0;
		said(s, rd, s->plans++ == 0 ? TIMING_PLAN_MADE :
		    TIMING_PLAN_REDONE);
		rd->plan = s->plan;
		rd->plan_end_ns = (double)elapsed;
		for (i = 0; i < s->plan.m; i++)
			rd->plan_end_ns += s->plan.pred_ns[i];
	}
	rd->n = s->plan.n[s->plan_i];
	rd->pred_ns = s->plan.pred_ns[s->plan_i];
	if (s->plan_i + 1 == s->plan.m && !s->nobox)
		timebox(s, rd);
	goto run;
fill:
	rd->pred_ns = plan_time(&s->model, rd->n, s->repeat);
run:
	s->k++;
	s->cur = *rd;
	s->round_t0_ns = now;
	return true;
}

/*
 * The round timing_sched_next() planned is done, having made 'n_made'
 * files (fewer than planned if its create phase met its deadline): learn
 * its cost, check it against the plan, and grow n for the next, or end
 * the schedule when n cannot grow.
 */
void
timing_sched_done(struct timing_sched *s, uint64_t n_made)
{
	uint64_t	elapsed;
	double		pred;

	elapsed = s->clock->now(s->clock->arg) - s->round_t0_ns;
	/* What was said before the round, unless it made another n. */
	if (n_made == s->cur.n && s->cur.pred_ns > 0)
		pred = s->cur.pred_ns;
	else
		pred = s->have_model ? plan_time(&s->model, n_made,
		    s->repeat) : 0;
	if (!s->cur.warmup)
		made_add(s, n_made);
	if (s->cur.kind != TIMING_GROW)
		return;		/* it says nothing about growing further */
	plan_costs_add(&s->costs, n_made, s->repeat, elapsed, pred);
	s->last_k = s->cur.k;
	s->last_took_ns = (double)elapsed;
	s->last_pred_ns = pred;
	if (s->cur.warmup)
		return;
	if (s->plan_on && ++s->plan_i < s->plan.m && (n_made != s->cur.n ||
	    !(fabs((double)elapsed / pred - 1) <= s->plan.margin)))
		s->plan_missed = true;
	if (s->plan_on && (s->plan_i == s->plan.m || s->plan_missed))
		s->plan_on = false;
	/* A round cut short by its deadline does not restart the growth. */
	if (n_made > s->n_prev)
		s->n_prev = n_made;
	s->n = timing_next_n(s->n_prev, s->growth, s->max);
	if (s->n == 0)
		s->ended = true;
}
