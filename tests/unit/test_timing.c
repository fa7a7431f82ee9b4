/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * Unit tests for timing.c: the growth schedule, the power-law prediction
 * and the budget planner fed with synthetic rounds, and the rusage
 * snapshot, whose behaviour (not its timings) is checked.
 */

#include <sys/resource.h>

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>

#include <cmocka.h>

#include "timing.h"

#define NELEM(a)	(sizeof(a) / sizeof((a)[0]))
#define SEC		1000000000ULL

/* A finished round, as timing_budget_add() takes it. */
struct round {
	uint64_t	n;
	unsigned	reps;
	uint64_t	wall_ns;
};

static void	feed(struct timing_budget *, const struct round *, size_t);
static double	target_of(const struct timing_budget *, uint64_t);
static void	check_near(double, double, double, const char *, int);

static void
feed(struct timing_budget *b, const struct round *r, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		timing_budget_add(b, r[i].n, r[i].reps, r[i].wall_ns);
}

/* What the planner may spend after 'elapsed_ns', computed independently. */
static double
target_of(const struct timing_budget *b, uint64_t elapsed_ns)
{
	return (double)b->budget_ns - (double)elapsed_ns -
	    TIMING_SLACK * (double)b->budget_ns;
}

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

/* ===== Prediction ===== */

static void
test_predict(void **state)
{
	static const struct {
		const char	*name;
		size_t		 nrounds;
		struct round	 r[3];
		uint64_t	 n;
		unsigned	 reps;
		double		 want;
	} tab[] = {
		{ "no rounds", 0, { { 0, 0, 0 } }, 1000, 1, 0 },
		{ "one round", 1, { { 1000, 1, 1000000 } }, 2000, 1, 2e6 },
		{ "one round, reps", 1, { { 1000, 4, 4000000 } }, 2000, 3,
		    6e6 },
		/* Per-file cost doubles with n: alpha 1, time ~ n^2. */
		{ "quadratic", 2, { { 1000, 1, 1000000 },
		    { 2000, 1, 4000000 } }, 4000, 1, 16e6 },
		{ "quadratic, reps", 2, { { 1000, 2, 2000000 },
		    { 2000, 2, 8000000 } }, 8000, 2, 128e6 },
		/* Cost falls with n: alpha 0, and the dearer round counts. */
		{ "falling cost", 2, { { 1000, 1, 2000000 },
		    { 2000, 1, 2000000 } }, 4000, 1, 8e6 },
		/* Cost quadruples: alpha 2, clamped to 1. */
		{ "steep cost", 2, { { 1000, 1, 1000000 },
		    { 2000, 1, 8000000 } }, 4000, 1, 32e6 },
		/* Cost doubles over a factor 4 in n: alpha 0.5. */
		{ "alpha half", 2, { { 1000, 1, 1000000 },
		    { 4000, 1, 8000000 } }, 16000, 1, 64e6 },
		{ "same n", 2, { { 1000, 1, 1000000 },
		    { 1000, 1, 2000000 } }, 2000, 1, 4e6 },
		{ "zero cost", 2, { { 1000, 1, 0 },
		    { 2000, 1, 4000000 } }, 4000, 1, 8e6 },
		/* Only the last two rounds count: alpha 1, not 0.5. */
		{ "window", 3, { { 1000, 1, 1000000 }, { 2000, 1, 2000000 },
		    { 4000, 1, 8000000 } }, 8000, 1, 32e6 },
		/* Empty rounds are ignored. */
		{ "empty round", 3, { { 1000, 1, 1000000 }, { 0, 1, 5 },
		    { 2000, 0, 5 } }, 2000, 1, 2e6 },
	};
	struct timing_budget	b;
	size_t			i;
	double			got;

	(void)state;
	for (i = 0; i < NELEM(tab); i++) {
		timing_budget_init(&b, 100 * SEC, TIMING_PREDICT);
		feed(&b, tab[i].r, tab[i].nrounds);
		got = timing_predict(&b, tab[i].n, tab[i].reps);
		if (!(fabs(got - tab[i].want) <= 1e-9 * tab[i].want))
			fail_msg("%s: predicted %.17g, want %.17g",
			    tab[i].name, got, tab[i].want);
	}
}

static void
test_budget_add(void **state)
{
	struct timing_budget	b;

	(void)state;
	memset(&b, 0xa5, sizeof(b));
	timing_budget_init(&b, 5 * SEC, TIMING_CLASSIC);
	assert_int_equal(b.budget_ns, 5 * SEC);
	assert_int_equal(b.policy, TIMING_CLASSIC);
	assert_int_equal(b.rounds, 0);
	assert_int_equal(b.n[0], 0);
	assert_int_equal(b.n[1], 0);
	assert_true(b.cost_ns[0] == 0 && b.cost_ns[1] == 0);

	timing_budget_add(&b, 1000, 3, 6000000);
	assert_int_equal(b.rounds, 1);
	assert_int_equal(b.n[1], 1000);
	NEAR(b.cost_ns[1], 2000);
	timing_budget_add(&b, 1500, 2, 9000000);
	assert_int_equal(b.rounds, 2);
	assert_int_equal(b.n[0], 1000);
	NEAR(b.cost_ns[0], 2000);
	assert_int_equal(b.n[1], 1500);
	NEAR(b.cost_ns[1], 3000);
	timing_budget_add(&b, 0, 2, 9000000);
	assert_int_equal(b.rounds, 2);
	assert_int_equal(b.n[1], 1500);
}

/* ===== Planning ===== */

static void
test_plan_classic(void **state)
{
	static const struct round	r[] = { { 1000, 1, 1000000 } };
	struct timing_budget	b;
	uint64_t		n;
	double			pred;

	(void)state;
	timing_budget_init(&b, 100 * SEC, TIMING_CLASSIC);
	assert_int_equal(timing_plan(&b, 0, 0, 1000, 1, &n, &pred),
	    TIMING_GO);
	assert_int_equal(n, 1000);
	feed(&b, r, NELEM(r));

	/* Classic starts a round even when it will overrun. */
	assert_int_equal(timing_plan(&b, 99 * SEC, 1000, 1000000000, 1, &n,
	    &pred), TIMING_GO);
	assert_int_equal(n, 1000000000);
	NEAR(pred, timing_predict(&b, 1000000000, 1));
	assert_true(pred > 1 * SEC);

	assert_int_equal(timing_plan(&b, 100 * SEC, 1000, 1500, 1, &n,
	    &pred), TIMING_STOP);
	assert_int_equal(timing_plan(&b, 200 * SEC, 1000, 1500, 1, &n,
	    &pred), TIMING_STOP);
	assert_int_equal(n, 1500);
}

static void
test_plan_go(void **state)
{
	static const struct round	r[] = { { 1000, 1, 1000000 } };
	struct timing_budget	b;
	uint64_t		n;
	double			pred;

	(void)state;
	/* No history: nothing to predict from, so go. */
	timing_budget_init(&b, 100 * SEC, TIMING_PREDICT);
	n = 1;
	pred = -1;
	assert_int_equal(timing_plan(&b, 50 * SEC, 0, 1000, 1, &n, &pred),
	    TIMING_GO);
	assert_int_equal(n, 1000);
	assert_true(pred == 0);
	/* Even inside the slack: only the budget itself stops it. */
	assert_int_equal(timing_plan(&b, 99 * SEC, 0, 1000, 1, &n, &pred),
	    TIMING_GO);
	assert_int_equal(timing_plan(&b, 100 * SEC, 0, 1000, 1, &n, &pred),
	    TIMING_STOP);

	/* 1500 files at 1 us each fit easily. */
	feed(&b, r, NELEM(r));
	assert_int_equal(timing_plan(&b, 10 * SEC, 1000, 1500, 1, &n,
	    &pred), TIMING_GO);
	assert_int_equal(n, 1500);
	NEAR(pred, 1.5e6);

	/* 97 s of room minus 2 s of slack: 95000000 files fit, one more not. */
	assert_int_equal(timing_plan(&b, 3 * SEC, 1000, 95000000, 1, &n,
	    &pred), TIMING_GO);
	assert_int_equal(n, 95000000);
	assert_int_not_equal(timing_plan(&b, 3 * SEC, 1000, 95000001, 1,
	    &n, &pred), TIMING_GO);
	assert_int_equal(timing_plan(&b, 100 * SEC, 1000, 1500, 1, &n,
	    &pred), TIMING_STOP);
}

/*
 * A round that does not fit shrinks to the largest n that does, as long
 * as that n is still larger than the last round.
 */
static void
test_plan_shrink(void **state)
{
	static const struct {
		const char	*name;
		size_t		 nrounds;
		struct round	 r[2];
		uint64_t	 budget_ns, elapsed_ns, n_prev, n_next;
		unsigned	 reps;
		uint64_t	 want;	/* 0: any n that passes the checks */
	} tab[] = {
		/* predict(n) = n^2 ns; target 98 s: n = 313049. */
		{ "quadratic", 2, { { 1000, 1, 1000000 },
		    { 2000, 1, 4000000 } }, 100 * SEC, 0, 200000, 400000, 1,
		    313049 },
		{ "quadratic late", 2, { { 1000, 1, 1000000 },
		    { 2000, 1, 4000000 } }, 100 * SEC, 90 * SEC, 50000, 100000,
		    1, 0 },
		{ "constant", 1, { { 1000, 1, 1000000 } }, 100 * SEC, 40 * SEC,
		    40000000, 60000000, 1, 58000000 },
		{ "alpha half, reps", 2, { { 1000, 3, 3000000 },
		    { 4000, 3, 24000000 } }, 100 * SEC, 30 * SEC, 100000,
		    10000000, 3, 0 },
		{ "just above prev", 2, { { 1000, 1, 1000000 },
		    { 2000, 1, 4000000 } }, 100 * SEC, 0, 313048, 469572, 1,
		    313049 },
		/*
		 * Target exactly predict(64000) = 1.536 s, where pow(64, 2/3)
		 * comes out just below 16: the fit must round up to 64000.
		 */
		{ "exact fit", 2, { { 1000, 3, 3000000 },
		    { 4000, 3, 24000000 } }, 100 * SEC, 96464000000ULL, 10000,
		    100000, 3, 64000 },
		/*
		 * Target one below predict(9e7) = 8.1e15, where the square
		 * root rounds up to 9e7: the fit must come down by one.
		 */
		{ "just short", 2, { { 1000, 1, 1000000 },
		    { 2000, 1, 4000000 } }, 10000000000000000ULL,
		    1700000000000001ULL, 1000000, 200000000, 1, 89999999 },
	};
	struct timing_budget	b;
	size_t			i;
	uint64_t		n;
	double			pred, target;
	enum timing_verdict	v;

	(void)state;
	for (i = 0; i < NELEM(tab); i++) {
		timing_budget_init(&b, tab[i].budget_ns, TIMING_PREDICT);
		feed(&b, tab[i].r, tab[i].nrounds);
		target = target_of(&b, tab[i].elapsed_ns);
		/* The table must describe a round that does not fit. */
		assert_true(timing_predict(&b, tab[i].n_next, tab[i].reps) >
		    target);
		v = timing_plan(&b, tab[i].elapsed_ns, tab[i].n_prev,
		    tab[i].n_next, tab[i].reps, &n, &pred);
		if (v != TIMING_SHRINK)
			fail_msg("%s: verdict %d", tab[i].name, v);
		if (n <= tab[i].n_prev || n >= tab[i].n_next)
			fail_msg("%s: n %llu", tab[i].name,
			    (unsigned long long)n);
		if (timing_predict(&b, n, tab[i].reps) > target ||
		    timing_predict(&b, n + 1, tab[i].reps) <= target)
			fail_msg("%s: n %llu is not the largest that fits",
			    tab[i].name, (unsigned long long)n);
		NEAR(pred, timing_predict(&b, n, tab[i].reps));
		if (tab[i].want != 0 && n != tab[i].want)
			fail_msg("%s: n %llu, want %llu", tab[i].name,
			    (unsigned long long)n,
			    (unsigned long long)tab[i].want);
	}
}

/*
 * A round that fits but leaves too little for another one is the last:
 * it grows to the largest n that fits, so the run ends near its budget
 * instead of up to a round early.
 */
static void
test_plan_stretch(void **state)
{
	static const struct round	r[] = {
		{ 1000, 1, 1000000 }, { 2000, 1, 4000000 }
	};
	struct timing_budget	b;
	uint64_t		n;
	double			pred, target;

	(void)state;
	/* predict(n) = n^2 ns; 98 s left after slack: 313049 fits. */
	timing_budget_init(&b, 100 * SEC, TIMING_PREDICT);
	feed(&b, r, NELEM(r));
	target = target_of(&b, 0);
	/* 250000 fits (62.5 s) but 35.5 s left is too little for 250001. */
	assert_int_equal(timing_plan(&b, 0, 166666, 250000, 1, &n, &pred),
	    TIMING_STRETCH);
	assert_int_equal(n, 313049);
	NEAR(pred, 313049.0 * 313049.0);
	assert_true(pred <= target);
	/* 200000 (40 s) leaves 58 s, enough for 200001: plain GO. */
	assert_int_equal(timing_plan(&b, 0, 133333, 200000, 1, &n, &pred),
	    TIMING_GO);
	assert_int_equal(n, 200000);
	/* Classic never stretches. */
	b.policy = TIMING_CLASSIC;
	assert_int_equal(timing_plan(&b, 0, 166666, 250000, 1, &n, &pred),
	    TIMING_GO);
	assert_int_equal(n, 250000);
}

static void
test_plan_stop(void **state)
{
	static const struct {
		const char	*name;
		uint64_t	 elapsed_ns, n_prev, n_next;
	} tab[] = {
		/* predict(n) = n^2 ns, and 313049 is the most that fits. */
		{ "prev + 1 too big", 0, 313049, 469573 },
		{ "prev too big", 0, 320000, 480000 },
		{ "late", 97 * SEC, 50000, 75000 },
		{ "inside slack", 99 * SEC, 10, 15 },
		{ "at budget", 100 * SEC, 10, 15 },
		{ "past budget", 101 * SEC, 10, 15 },
	};
	static const struct round	r[] = {
		{ 1000, 1, 1000000 }, { 2000, 1, 4000000 }
	};
	struct timing_budget	b;
	size_t			i;
	uint64_t		n;
	double			pred;
	enum timing_verdict	v;

	(void)state;
	timing_budget_init(&b, 100 * SEC, TIMING_PREDICT);
	feed(&b, r, NELEM(r));
	for (i = 0; i < NELEM(tab); i++) {
		v = timing_plan(&b, tab[i].elapsed_ns, tab[i].n_prev,
		    tab[i].n_next, 1, &n, &pred);
		if (v != TIMING_STOP)
			fail_msg("%s: verdict %d", tab[i].name, v);
		/* The caller reports the round that was refused. */
		assert_int_equal(n, tab[i].n_next);
		NEAR(pred, (double)tab[i].n_next * tab[i].n_next);
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
	uint64_t		made, deadline;
	double			c;

	m->now = m->t0;
	timing_sched_init(&s, &clock, m->t0, m->budget_ns, m->policy,
	    m->start, m->max, 1.5, m->repeat, m->warmup);
	while (timing_sched_next(&s, &rd)) {
		assert_true(m->nrounds < NELEM(m->rounds));
		assert_int_equal(rd.k, m->nrounds + 1);
		c = m->cost_ns * (rd.k >= m->slow_from ? m->slow : 1);
		made = rd.n;
		if (rd.timebox) {
			/* Create stops at its deadline, in the first rep. */
			deadline = timing_create_deadline(m->t0, m->budget_ns,
			    m->now, 0.5, m->repeat);
			if ((double)(deadline - m->now) < made * c)
				made = (uint64_t)((deadline - m->now) / c) + 1;
		}
		m->now += (uint64_t)(2 * c * made * m->repeat);
		m->rounds[m->nrounds] = rd;
		m->made[m->nrounds++] = made;
		timing_sched_done(&s, made);
	}
	m->last = rd;
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
 * A steady machine: n grows by half each round, the last round is
 * time-boxed, and the run ends inside its budget having used nearly all
 * of it.
 */
static void
test_sched_steady(void **state)
{
	struct sim	m;
	unsigned	i;

	(void)state;
	sim_init(&m, 60 * SEC, 10000);		/* 10 us a file, 20 a round */
	sim_run(&m);
	assert_true(m.nrounds >= 5);
	assert_int_equal(m.rounds[0].n, 1000);
	for (i = 1; i + 1 < m.nrounds; i++) {
		assert_false(m.rounds[i].timebox);
		assert_int_equal(m.rounds[i].n,
		    timing_next_n(m.made[i - 1], 1.5, UINT32_MAX));
	}
	assert_true(m.rounds[m.nrounds - 1].timebox);
	assert_int_equal(m.last.end, TIMING_END_BUDGET);
	assert_true(m.now - m.t0 <= m.budget_ns);
	assert_true(m.now - m.t0 >= m.budget_ns * 9 / 10);
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
	last = m.nrounds;			/* the time-boxed one */
	assert_true(m.rounds[last - 1].timebox);
	sim_init(&m, 60 * SEC, 10000);
	m.slow = 3;
	m.slow_from = last;
	sim_run(&m);
	assert_true(m.nrounds >= last);
	assert_true(m.rounds[last - 1].timebox);
	assert_true(m.made[last - 1] < m.rounds[last - 1].n);
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

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test(test_next_n),
		cmocka_unit_test(test_predict),
		cmocka_unit_test(test_budget_add),
		cmocka_unit_test(test_plan_classic),
		cmocka_unit_test(test_plan_go),
		cmocka_unit_test(test_plan_shrink),
		cmocka_unit_test(test_plan_stretch),
		cmocka_unit_test(test_plan_stop),
		cmocka_unit_test(test_usage),
		cmocka_unit_test(test_usage_diff),
		cmocka_unit_test(test_sched_steady),
		cmocka_unit_test(test_sched_slowdown),
		cmocka_unit_test(test_sched_max),
		cmocka_unit_test(test_sched_warmup),
		cmocka_unit_test(test_sched_classic),
	};

	return cmocka_run_group_tests_name("timing", tests, NULL, NULL);
}
