/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * Unit tests for timing.c: the growth schedule, the schedule of a run on
 * a simulated machine, and the rusage snapshot, whose behaviour (not its
 * timings) is checked.  The cost model and the plan are test_plan.c's.
 */

#include <sys/resource.h>

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <setjmp.h>
#include <string.h>

#include <cmocka.h>

#include "base/timing.h"

#define NELEM(a)	(sizeof(a) / sizeof((a)[0]))
#define SEC		1000000000ULL

static void	check_near(double, double, double, const char *, int);

static void
check_near(double got, double want, double rel, const char *what, int line)
{
	if (!(fabs(got - want) <= rel * fabs(want)))
		fail_msg("line %d: %s: got %.17g, want %.17g", line, what,
		    got, want);
}

#define NEAR(got, want)	check_near((got), (want), 1e-12, #got, __LINE__)

/* ===== Growth ===== */

static void
test_next_n(void **state)
{
	static const struct {
		uint64_t	n;
		double		growth;
		uint64_t	max;
		uint64_t	want;
	} tab[] = {
		{ 1000, 1.5, 0, 1500 },
		{ 1500, 1.5, 0, 2250 },
		{ 2250, 1.5, 0, 3375 },
		{ 3375, 1.5, 0, 5062 },		/* floor */
		{ 1, 1.5, 0, 2 },		/* floor(1.5) = 1 -> n + 1 */
		{ 10, 1.01, 0, 11 },
		{ 1000, 1.01, 0, 1010 },
		{ 0, 1.5, 0, 1 },
		{ 1000, 1.0, 0, 1001 },
		{ 1000, 0.5, 0, 1001 },
		{ 1000, NAN, 0, 1001 },
		{ 1000, 2, 0, 2000 },
		{ 1000, 1.5, 1200, 1200 },	/* clamped to max */
		{ 1000, 1.5, 1500, 1500 },
		{ 1000, 1.5, 1501, 1500 },
		{ 1199, 1.01, 1200, 1200 },
		{ 1200, 1.5, 1200, 0 },		/* max reached */
		{ 1300, 1.5, 1200, 0 },
		{ 2863311530ULL, 1.5, 0, 4294967295ULL },
		{ 2863311531ULL, 1.5, 0, 0 },	/* past UINT32_MAX */
		{ 3000000000ULL, 1.5, 0, 0 },
		{ 3000000000ULL, 1.5, 4000000000ULL, 4000000000ULL },
		{ 4294967294ULL, 1.0, 0, 4294967295ULL },
		{ 4294967295ULL, 1.0, 0, 0 },
		{ 4294967295ULL, 1.5, 0, 0 },
		{ UINT64_MAX, 1.5, 0, 0 },
	};
	size_t		i;
	uint64_t	got;

	(void)state;
	for (i = 0; i < NELEM(tab); i++) {
		got = timing_next_n(tab[i].n, tab[i].growth, tab[i].max);
		if (got != tab[i].want)
			fail_msg("next_n(%llu, %g, %llu) = %llu, want %llu",
			    (unsigned long long)tab[i].n, tab[i].growth,
			    (unsigned long long)tab[i].max,
			    (unsigned long long)got,
			    (unsigned long long)tab[i].want);
	}
}

/* ===== Resource usage ===== */

static void
test_usage(void **state)
{
	struct timing_usage	u0, u1;
	struct rusage		ra, rb;
	volatile uint64_t	sink = 0;
	uint64_t		lo, hi, i;
	int			tries;

	(void)state;
	assert_int_equal(getrusage(RUSAGE_SELF, &ra), 0);
	assert_int_equal(timing_usage(&u0), 0);
	assert_int_equal(getrusage(RUSAGE_SELF, &rb), 0);

	/* The snapshot lies between two direct readings, in ns. */
	lo = (uint64_t)ra.ru_utime.tv_sec * 1000000000ULL +
	    (uint64_t)ra.ru_utime.tv_usec * 1000;
	hi = (uint64_t)rb.ru_utime.tv_sec * 1000000000ULL +
	    (uint64_t)rb.ru_utime.tv_usec * 1000;
	assert_in_range(u0.user_ns, lo, hi);
	lo = (uint64_t)ra.ru_stime.tv_sec * 1000000000ULL +
	    (uint64_t)ra.ru_stime.tv_usec * 1000;
	hi = (uint64_t)rb.ru_stime.tv_sec * 1000000000ULL +
	    (uint64_t)rb.ru_stime.tv_usec * 1000;
	assert_in_range(u0.sys_ns, lo, hi);
	assert_in_range(u0.vcsw, (uint64_t)ra.ru_nvcsw,
	    (uint64_t)rb.ru_nvcsw);
	assert_in_range(u0.ivcsw, (uint64_t)ra.ru_nivcsw,
	    (uint64_t)rb.ru_nivcsw);
	assert_in_range(u0.maxrss_kib, (uint64_t)ra.ru_maxrss,
	    (uint64_t)rb.ru_maxrss);
	assert_true(u0.maxrss_kib > 0);

	/* Burn CPU until the clock the kernel keeps moves. */
	for (tries = 0; tries < 1000; tries++) {
		for (i = 0; i < 1000000; i++)
			sink += i * i;
		assert_int_equal(timing_usage(&u1), 0);
		if (u1.user_ns + u1.sys_ns > u0.user_ns + u0.sys_ns)
			break;
	}
	assert_true(u1.user_ns + u1.sys_ns > u0.user_ns + u0.sys_ns);
	assert_true(u1.user_ns >= u0.user_ns);
	assert_true(u1.sys_ns >= u0.sys_ns);
	assert_true(u1.vcsw >= u0.vcsw);
	assert_true(u1.ivcsw >= u0.ivcsw);
	assert_true(u1.inblock >= u0.inblock);
	assert_true(u1.oublock >= u0.oublock);
	assert_true(u1.maxrss_kib >= u0.maxrss_kib);
}

static void
test_usage_diff(void **state)
{
	static const struct timing_usage	before = {
		.user_ns = 1000, .sys_ns = 5000, .vcsw = 10, .ivcsw = 7,
		.inblock = 100, .oublock = 3, .maxrss_kib = 9000
	}, after = {
		.user_ns = 4000, .sys_ns = 4000, .vcsw = 15, .ivcsw = 7,
		.inblock = 99, .oublock = 8, .maxrss_kib = 8000
	}, want = {
		.user_ns = 3000, .sys_ns = 0, .vcsw = 5, .ivcsw = 0,
		.inblock = 0, .oublock = 5, .maxrss_kib = 8000
	};
	struct timing_usage	out, a, b;

	(void)state;
	memset(&out, 0xa5, sizeof(out));
	timing_usage_diff(&before, &after, &out);
	assert_memory_equal(&out, &want, sizeof(out));

	/* 'out' may be either input. */
	a = after;
	timing_usage_diff(&before, &a, &a);
	assert_memory_equal(&a, &want, sizeof(a));
	b = before;
	timing_usage_diff(&b, &after, &b);
	assert_memory_equal(&b, &want, sizeof(b));
}

/* ===== The schedule of a whole run, on a fake clock ===== */

/* A fake clock: time moves only when the simulated rounds say so. */
static uint64_t
fake_now(void *arg)
{
	return *(uint64_t *)arg;
}

/*
 * A simulated machine: a file costs 'cost_ns' in create and as much in
 * the rest of the round (so create's share is one half), times 'slow'
 * from round 'slow_from' on.  sim_run() drives timing_sched over it as
 * largedir's round loop does and records every round it planned.
 */
struct sim {
	uint64_t		now;
	uint64_t		t0, budget_ns;
	enum timing_policy	policy;
	uint64_t		start, max;
	unsigned		repeat, warmup;
	double			cost_ns, slow;
	unsigned		slow_from;
	uint64_t		knee;		/* the rates fall past it;
						   0: no knee */
	/* what happened */
	struct timing_round	rounds[64];
	uint64_t		made[64];
	unsigned		nrounds;
	struct timing_round	last;
};

static void
sim_run(struct sim *m)
{
	struct timing_clock	clock = { fake_now, &m->now };
	struct timing_sched	s;
	struct timing_round	rd;
	uint64_t		made, deadline, lo, hi;
	double			c;
	unsigned		i;

	m->now = m->t0;
	timing_sched_init(&s, &clock, m->t0, m->budget_ns, m->policy,
	    m->start, m->max, 1.5, m->repeat, m->warmup);
	while (timing_sched_next(&s, &rd)) {
		assert_true(m->nrounds < NELEM(m->rounds));
		assert_int_equal(rd.k, m->nrounds + 1);
		c = m->cost_ns * (rd.k >= m->slow_from ? m->slow : 1);
		made = rd.n;
		if (rd.deadline) {
			/* Create stops at its deadline, in the first rep. */
			deadline = timing_create_deadline(rd.end_ns, m->now,
			    0.5, m->repeat);
			if ((double)(deadline - m->now) < made * c)
				made = (uint64_t)((deadline - m->now) / c) + 1;
		}
		m->now += (uint64_t)(2 * c * made * m->repeat);
		m->rounds[m->nrounds] = rd;
		m->made[m->nrounds++] = made;
		timing_sched_done(&s, made);
		/* The knee lies between the rounds around m->knee. */
		for (i = 0, lo = 0, hi = UINT64_MAX; i < m->nrounds; i++) {
			if (m->made[i] <= m->knee && m->made[i] > lo)
				lo = m->made[i];
			if (m->made[i] > m->knee && m->made[i] < hi)
				hi = m->made[i];
		}
		if (m->knee > 0 && lo > 0 && hi < UINT64_MAX)
			timing_sched_knee(&s, lo, hi);
	}
	m->last = rd;
}

/* The index of the round that grew last, -1 if none. */
static int
sim_last_grow(const struct sim *m)
{
	unsigned	i;

	for (i = m->nrounds; i-- > 0; )
		if (m->rounds[i].kind == TIMING_GROW)
			return (int)i;
	return -1;
}

static void
sim_init(struct sim *m, uint64_t budget_ns, double cost_ns)
{
	memset(m, 0, sizeof(*m));
	m->t0 = 5 * SEC;
	m->budget_ns = budget_ns;
	m->policy = TIMING_PREDICT;
	m->start = 1000;
	m->max = UINT32_MAX;
	m->repeat = 1;
	m->cost_ns = cost_ns;
	m->slow = 1;
	m->slow_from = UINT32_MAX;
}

/*
 * A steady machine: n grows by half each round on the grid (or jumps to
 * the decade, where the plan leaves a round out), the last growing
 * round is time-boxed, rounds that fill in below it may follow, and the
 * run ends inside its budget having used nearly all of it.
 */
static void
test_sched_steady(void **state)
{
	struct sim	m;
	int		i, last;

	(void)state;
	sim_init(&m, 60 * SEC, 10000);		/* 10 us a file, 20 a round */
	sim_run(&m);
	last = sim_last_grow(&m);
	assert_true(last >= 4);
	assert_int_equal(m.rounds[0].n, 1000);
	for (i = 1; i < last; i++) {
		assert_int_equal(m.rounds[i].kind, TIMING_GROW);
		assert_false(m.rounds[i].timebox);
		if (m.rounds[i].n != timing_decade_above(m.made[i - 1]))
			assert_int_equal(m.rounds[i].n,
			    timing_next_n(m.made[i - 1], 1.5, UINT32_MAX));
	}
	assert_true(m.rounds[last].timebox);
	for (i = last + 1; i < (int)m.nrounds; i++) {
		assert_int_equal(m.rounds[i].kind, TIMING_FILL);
		assert_true(m.made[i] < m.made[last]);
	}
	assert_int_equal(m.last.end, TIMING_END_BUDGET);
	assert_true(m.now - m.t0 <= m.budget_ns);
	assert_true(m.now - m.t0 >= m.budget_ns * 95 / 100);
}

/*
 * The grid: two machines, one a hundred times slower than the other,
 * with budgets from 10 s to an hour, each measured every power of ten up
 * to the largest n it reached, and so at every decade the slower passed
 * both have a round.  (A decade that is the last round may leave time no
 * round fits in: 90% of the budget here; test_plan.c holds the rule of
 * 95% for its machines.)
 */
static void
test_sched_grid(void **state)
{
	static const uint64_t	budgets_s[] = { 10, 15, 40, 100, 300, 900,
		3600 };
	struct sim		m;
	uint64_t		d, largest;
	unsigned		i, j, b, found;

	(void)state;
	for (b = 0; b < NELEM(budgets_s); b++) {
		for (j = 0; j < 2; j++) {
			sim_init(&m, budgets_s[b] * SEC, j == 0 ? 100 : 10000);
			sim_run(&m);
			for (i = 0, largest = 0; i < m.nrounds; i++)
				if (m.made[i] > largest)
					largest = m.made[i];
			for (d = 10000; d <= largest; d *= 10) {
				for (i = found = 0; i < m.nrounds; i++)
					found += m.made[i] == d;
				if (found != 1)
					print_error("%llus, %s: decade %llu "
					    "measured %u times\n",
					    (unsigned long long)budgets_s[b],
					    j == 0 ? "fast" : "slow",
					    (unsigned long long)d, found);
				assert_int_equal(found, 1);
			}
			if (largest == m.max)
				continue;	/* the budget did not bind */
			if (m.now - m.t0 < m.budget_ns * 9 / 10 ||
			    getenv("GRID_TRACE") != NULL)
				for (i = 0; i < m.nrounds; i++)
					print_message("%llus %s: round %u "
					    "kind %d n %llu made %llu end "
					    "%.1f%%\n", (unsigned long long)
					    budgets_s[b], j == 0 ? "fast" :
					    "slow", i + 1, m.rounds[i].kind,
					    (unsigned long long)m.rounds[i].n,
					    (unsigned long long)m.made[i],
					    100.0 * (double)(m.now - m.t0) /
					    (double)m.budget_ns);
			assert_true(m.now - m.t0 <= m.budget_ns);
			assert_true(m.now - m.t0 >= m.budget_ns * 9 / 10);
		}
	}
}

/*
 * A knee at 70,000 files: once rounds lie on both sides of it, rounds
 * between them halve the interval (on a log axis) until it is no wider
 * than TIMING_REFINE_RATIO, each marked TIMING_REFINE and never
 * measured twice; the run still ends inside its budget.
 */
static void
test_sched_refine(void **state)
{
	struct sim	m;
	uint64_t	lo = 0, hi = UINT64_MAX;
	unsigned	i, refined = 0;

	(void)state;
	sim_init(&m, 300 * SEC, 10000);
	m.knee = 70000;
	sim_run(&m);
	for (i = 0; i < m.nrounds; i++) {
		if (m.rounds[i].kind == TIMING_REFINE) {
			refined++;
			/* Inside the interval the rounds before left. */
			assert_true(m.rounds[i].n > lo && m.rounds[i].n < hi);
		}
		if (m.made[i] <= m.knee && m.made[i] > lo)
			lo = m.made[i];
		if (m.made[i] > m.knee && m.made[i] < hi)
			hi = m.made[i];
	}
	assert_true(refined >= 2);
	assert_true((double)hi / (double)lo <= TIMING_REFINE_RATIO);
	assert_true(lo <= m.knee && hi > m.knee);
	assert_true(m.now - m.t0 <= m.budget_ns);
	assert_true(m.now - m.t0 >= m.budget_ns * 95 / 100);
}

/*
 * The machine gets three times slower in the time-boxed last round: its
 * create phase still stops in time, so the run ends within the budget
 * (plus one file).
 */
static void
test_sched_slowdown(void **state)
{
	struct sim	m;
	unsigned	last;

	(void)state;
	sim_init(&m, 60 * SEC, 10000);
	sim_run(&m);
	last = (unsigned)sim_last_grow(&m) + 1;	/* the time-boxed one */
	assert_true(m.rounds[last - 1].timebox);
	sim_init(&m, 60 * SEC, 10000);
	m.slow = 3;
	m.slow_from = last;
	sim_run(&m);
	assert_true(m.nrounds >= last);
	assert_true(m.rounds[last - 1].timebox);
	assert_true(m.made[last - 1] < m.rounds[last - 1].n_about);
	assert_true(m.now - m.t0 <= m.budget_ns + 2 * 3 * 10000);
}

/* --max-files: rounds grow to it and the schedule ends there. */
static void
test_sched_max(void **state)
{
	struct sim	m;

	(void)state;
	sim_init(&m, 3600 * SEC, 1000);
	m.max = 5000;
	sim_run(&m);
	assert_int_equal(m.nrounds, 5);
	assert_int_equal(m.rounds[4].n, 5000);
	assert_int_equal(m.last.end, TIMING_END_MAX);
}

/* Warm-up rounds come first, all of the first n, and count as rounds. */
static void
test_sched_warmup(void **state)
{
	struct sim	m;

	(void)state;
	sim_init(&m, 3600 * SEC, 1000);
	m.max = 2250;
	m.warmup = 2;
	m.repeat = 3;
	sim_run(&m);
	assert_int_equal(m.nrounds, 5);
	assert_true(m.rounds[0].warmup && m.rounds[1].warmup);
	assert_false(m.rounds[2].warmup);
	assert_int_equal(m.rounds[0].n, 1000);
	assert_int_equal(m.rounds[1].n, 1000);
	assert_int_equal(m.rounds[2].n, 1000);
	assert_int_equal(m.rounds[3].n, 1500);
	/* The second warm-up round is predicted from the first. */
	assert_true(m.rounds[0].pred_ns == 0);
	check_near(m.rounds[1].pred_ns, 3 * 2 * 1000.0 * 1000, 0.01,
	    __FILE__, __LINE__);
}

/*
 * A plan, then a machine a hundred times faster: the next round misses
 * its prediction by far more than the margin, the plan is dropped, and
 * as every round up to --max-files now fits, n grows by the growth
 * factor again, said once (TIMING_PLAN_DROPPED), to --max-files.
 */
static void
test_sched_dropped(void **state)
{
	struct timing_clock	clock;
	struct timing_sched	s;
	struct timing_round	rd;
	uint64_t		now = SEC, n = 1000, max = 1000 << 12;
	unsigned		made = 0, dropped = 0, after = 0;
	double			cost = 10000;

	(void)state;
	clock.now = fake_now;
	clock.arg = &now;
	timing_sched_init(&s, &clock, now, 60 * SEC, TIMING_PREDICT, n, max,
	    2, 1, 0);
	while (timing_sched_next(&s, &rd)) {
		if (rd.plan_event == TIMING_PLAN_MADE) {
			made++;
			cost /= 100;	/* from this round on */
		}
		if (rd.plan_event == TIMING_PLAN_DROPPED) {
			dropped++;
			assert_true(rd.redo_took_ns < rd.redo_pred_ns / 10);
		}
		if (dropped > 0) {
			assert_int_equal(rd.n, n);	/* x2, not planned */
			assert_false(rd.timebox);
			after++;
		}
		now += (uint64_t)(cost * (double)rd.n);
		n = timing_next_n(rd.n, 2, max);
		timing_sched_done(&s, rd.n);
	}
	assert_int_equal(made, 1);
	assert_int_equal(dropped, 1);
	assert_true(after >= 1);
	assert_int_equal(rd.end, TIMING_END_MAX);
	assert_true(now - SEC < 60 * SEC);
}

/* classic: rounds start until the budget has passed, never time-boxed. */
static void
test_sched_classic(void **state)
{
	struct sim	m;
	unsigned	i;

	(void)state;
	sim_init(&m, 10 * SEC, 10000);
	m.policy = TIMING_CLASSIC;
	sim_run(&m);
	for (i = 0; i < m.nrounds; i++)
		assert_false(m.rounds[i].timebox);
	assert_int_equal(m.last.end, TIMING_END_BUDGET);
	assert_true(m.now - m.t0 >= m.budget_ns);
	assert_int_equal(m.last.left_ns, 0);
}

/*
 * The open phase's time box: what comes after open, predicted as the
 * ratio of it to open in the repetitions before (here 2: 5 s of open,
 * 10 s after it) times this open at its pace.  This round has 3M files.
 */
static void
test_open_stop(void **state)
{
	struct timing_shape	last, none;
	const uint64_t		n = 3000000, now = 100 * SEC;

	(void)state;
	memset(&last, 0, sizeof(last));
	memset(&none, 0, sizeof(none));
	assert_true(isnan(timing_shape_share(&last)));
	assert_true(isnan(timing_shape_ratio(&last)));
	timing_shape_add(&last, 20e9, 5e9, 5e9, 10e9);
	assert_true(timing_shape_share(&last) == 0.25);
	assert_true(timing_shape_ratio(&last) == 2);
	/* Without open, a share but no ratio. */
	timing_shape_add(&none, 20e9, 5e9, 0, 15e9);
	assert_true(timing_shape_share(&none) == 0.25);
	assert_true(isnan(timing_shape_ratio(&none)));

	/* As fast as before: the rest takes 3 x 10 s. */
	assert_false(timing_open_stop(&last, now + 31 * SEC, now, n, 1000000,
	    5 * SEC, 0, 0));
	assert_true(timing_open_stop(&last, now + 30 * SEC, now, n, 1000000,
	    5 * SEC, 0, 0));
	/* Open twice as slow per file (a knee): so is the rest, 60 s. */
	assert_true(timing_open_stop(&last, now + 59 * SEC, now, n, 1000000,
	    10 * SEC, 0, 0));
	assert_false(timing_open_stop(&last, now + 61 * SEC, now, n,
	    1000000, 10 * SEC, 0, 0));
	/* Faster: less. */
	assert_false(timing_open_stop(&last, now + 16 * SEC, now, n,
	    1000000, 2500 * 1000000ULL, 0, 0));
	/*
	 * A repetition to come: its create (20 s), its whole open (15 s)
	 * and its rest (30 s) too.
	 */
	assert_true(timing_open_stop(&last, now + 94 * SEC, now, n, 1000000,
	    5 * SEC, 20e9, 1));
	assert_false(timing_open_stop(&last, now + 96 * SEC, now, n,
	    1000000, 5 * SEC, 20e9, 1));
	/* Not before TIMING_OPEN_MIN files and a part of n, even when late. */
	assert_false(timing_open_stop(&last, now - SEC, now, 10000,
	    TIMING_OPEN_MIN - 1, SEC, 0, 0));
	assert_true(timing_open_stop(&last, now - SEC, now, 10000,
	    TIMING_OPEN_MIN, SEC, 0, 0));
	assert_false(timing_open_stop(&last, now - SEC, now, n,
	    n / TIMING_OPEN_PART - 1, SEC, 0, 0));
	assert_true(timing_open_stop(&last, now - SEC, now, n,
	    n / TIMING_OPEN_PART, SEC, 0, 0));
	/* Past the end: stop, whatever the prediction. */
	assert_true(timing_open_stop(&last, now, now, n, 1000000, 1, 0, 0));
	/*
	 * Over the last three, each by its time: a short repetition far
	 * off (a share of 0.9, a ratio of 1/9) counts little, and the
	 * oldest goes.
	 */
	timing_shape_add(&last, 1e9, 0.9e9, 0.09e9, 0.01e9);
	assert_true(fabs(timing_shape_share(&last) - 5.9 / 21) < 1e-12);
	assert_true(fabs(timing_shape_ratio(&last) - 10.01 / 5.09) < 1e-12);
	timing_shape_add(&last, 20e9, 5e9, 5e9, 10e9);
	timing_shape_add(&last, 20e9, 5e9, 5e9, 10e9);
	assert_true(fabs(timing_shape_share(&last) - 10.9 / 41) < 1e-12);
	timing_shape_add(&last, 20e9, 5e9, 5e9, 10e9);
	assert_true(fabs(timing_shape_share(&last) - 0.25) < 1e-12);
	assert_true(fabs(timing_shape_ratio(&last) - 2) < 1e-12);
	/* No open phase before, nothing to predict from: never. */
	assert_false(timing_open_stop(&none, now - SEC, now, n, 1000000,
	    5 * SEC, 0, 0));
	assert_int_equal(timing_budget_end(SEC, 100 * SEC),
	    SEC + (uint64_t)((1 - TIMING_SLACK) * 100 * SEC));
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test(test_next_n),
		cmocka_unit_test(test_usage),
		cmocka_unit_test(test_usage_diff),
		cmocka_unit_test(test_sched_steady),
		cmocka_unit_test(test_sched_grid),
		cmocka_unit_test(test_sched_refine),
		cmocka_unit_test(test_sched_slowdown),
		cmocka_unit_test(test_sched_max),
		cmocka_unit_test(test_sched_warmup),
		cmocka_unit_test(test_sched_classic),
		cmocka_unit_test(test_sched_dropped),
		cmocka_unit_test(test_open_stop),
	};

	return cmocka_run_group_tests_name("timing", tests, NULL, NULL);
}
