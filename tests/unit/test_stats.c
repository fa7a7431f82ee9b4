/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * Unit tests for stats.c.  Histogram percentiles are checked against a
 * naive reference, a sorted array read by nearest rank (as SQLite checks
 * Bitvec against a plain bit array), over several seeded distributions;
 * the rest is table-driven.
 */

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/stats.h"
#include "base/util.h"

#define NPOINTS	12	/* rounds in a synthetic curve */
#define NVALUES	20011	/* odd and prime, so no percentile is "round" */
#define NELEM(a)	(sizeof(a) / sizeof((a)[0]))

static int	cmp_u64(const void *, const void *);
static uint64_t	ref_percentile(const uint64_t *, size_t, double);
static double	unit_double(uint64_t *);
static uint64_t	gen_uniform(uint64_t *);
static uint64_t	gen_exp(uint64_t *);
static uint64_t	gen_bimodal(uint64_t *);
static uint64_t	gen_constant(uint64_t *);
static uint64_t	gen_tiny(uint64_t *);
static uint64_t	gen_huge(uint64_t *);
static void	check_near(double, double, double, const char *, int);
static double	knee_n(size_t);
static void	check_shape(const char *, const struct stats_knee *,
		    enum stats_shape, size_t, double, double, double);

/* ===== Reference and generators ===== */

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t	x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* Nearest rank over the ascending array 's' of 'n' values, from scratch. */
static uint64_t
ref_percentile(const uint64_t *s, size_t n, double p)
{
	double	r;
	size_t	rank;

	if (n == 0)
		return 0;
	if (p <= 0)
		return s[0];
	if (p >= 100)
		return s[n - 1];
	r = ceil(p * (double)n / 100);
	rank = r < 1 ? 1 : (size_t)r;
	if (rank > n)
		rank = n;
	return s[rank - 1];
}

/* A double in (0, 1] from 53 random bits. */
static double
unit_double(uint64_t *st)
{
	return ((double)(util_splitmix64(st) >> 11) + 1) / 9007199254740992.0;
}

static uint64_t
gen_uniform(uint64_t *st)
{
	return 1 + util_below(st, 10000000);
}

/* Exponential with a mean of 50 us, as latencies roughly are. */
static uint64_t
gen_exp(uint64_t *st)
{
	return (uint64_t)(-log(unit_double(st)) * 50000);
}

/* Cache hits around 800 ns and misses around 3 ms, 9 to 1. */
static uint64_t
gen_bimodal(uint64_t *st)
{
	if (util_below(st, 10) != 0)
		return 700 + util_below(st, 200);
	return 2500000 + util_below(st, 1000000);
}

static uint64_t
gen_constant(uint64_t *st)
{
	(void)st;
	return 123456789;
}

static uint64_t
gen_tiny(uint64_t *st)
{
	return util_below(st, 32);
}

/* Around 2^60, across the octave boundary. */
static uint64_t
gen_huge(uint64_t *st)
{
	return (1ULL << 60) - (1ULL << 57) + util_below(st, 1ULL << 58);
}

static void
check_near(double got, double want, double eps, const char *what,
    int line)
{
	if (!(fabs(got - want) <= eps))
		fail_msg("line %d: %s: got %.17g, want %.17g (+-%g)", line,
		    what, got, want, eps);
}

#define NEAR(got, want, eps)	check_near((got), (want), (eps), #got, \
				    __LINE__)

/* ===== Histogram ===== */

static void
test_hist_distributions(void **state)
{
	static const struct {
		const char	*name;
		uint64_t	(*gen)(uint64_t *);
		bool		 exact;	/* all values below 32 */
	} dists[] = {
		{ "uniform", gen_uniform, false },
		{ "exponential", gen_exp, false },
		{ "bimodal", gen_bimodal, false },
		{ "constant", gen_constant, false },
		{ "tiny", gen_tiny, true },
		{ "huge", gen_huge, false },
	};
	static const double	ps[] = {
		0, 0.1, 1, 10, 25, 50, 75, 90, 99, 99.9, 99.99, 100
	};
	static struct stats_hist	h;
	uint64_t	*v, st, got, want, diff;
	size_t		 d, i, k;

	(void)state;
	v = xreallocarray(NULL, NVALUES, sizeof(*v));
	for (d = 0; d < NELEM(dists); d++) {
		st = 0x1234 + d;
		stats_hist_reset(&h);
		for (i = 0; i < NVALUES; i++) {
			v[i] = dists[d].gen(&st);
			stats_hist_add(&h, v[i]);
		}
		qsort(v, NVALUES, sizeof(*v), cmp_u64);
		assert_int_equal(h.count, NVALUES);
		assert_int_equal(h.min, v[0]);
		assert_int_equal(h.max, v[NVALUES - 1]);
		for (k = 0; k < NELEM(ps); k++) {
			got = stats_hist_percentile(&h, ps[k]);
			want = ref_percentile(v, NVALUES, ps[k]);
			diff = got > want ? got - want : want - got;
			if ((dists[d].exact || ps[k] == 0 || ps[k] == 100) ?
			    diff != 0 : diff > want / 32)
				fail_msg("%s p%g: got %llu, want %llu",
				    dists[d].name, ps[k],
				    (unsigned long long)got,
				    (unsigned long long)want);
		}
	}
	free(v);
}

/* Nearest rank on 1..10, where every bucket holds one exact value. */
static void
test_hist_rank(void **state)
{
	static const struct {
		double		p;
		uint64_t	want;
	} tab[] = {
		{ -1, 1 }, { 0, 1 }, { 5, 1 }, { 10, 1 }, { 10.5, 2 },
		{ 11, 2 }, { 50, 5 }, { 50.01, 6 }, { 89.9, 9 }, { 90, 9 },
		{ 91, 10 }, { 99.9, 10 }, { 100, 10 }, { 150, 10 },
	};
	static struct stats_hist	h;
	uint64_t	v;
	size_t		i;

	(void)state;
	stats_hist_reset(&h);
	for (v = 10; v >= 1; v--)
		stats_hist_add(&h, v);
	for (i = 0; i < NELEM(tab); i++)
		if (stats_hist_percentile(&h, tab[i].p) != tab[i].want)
			fail_msg("p%g: got %llu, want %llu", tab[i].p,
			    (unsigned long long)stats_hist_percentile(&h,
			    tab[i].p), (unsigned long long)tab[i].want);
}

/*
 * The value reported for a bucket lies in the middle of that bucket: put
 * 'v' between 0 and UINT64_MAX so the clamp cannot hide a wrong midpoint.
 */
static void
test_hist_midpoint(void **state)
{
	static struct stats_hist	h;
	uint64_t	st = 7, v, got, diff;
	int		i;

	(void)state;
	for (i = 0; i < 5000; i++) {
		v = util_splitmix64(&st) >> util_below(&st, 64);
		stats_hist_reset(&h);
		stats_hist_add(&h, 0);
		stats_hist_add(&h, v);
		stats_hist_add(&h, UINT64_MAX);
		got = stats_hist_percentile(&h, 50);
		if (stats_bucket(got) != stats_bucket(v))
			fail_msg("v %llu: got %llu from bucket %u, want %u",
			    (unsigned long long)v, (unsigned long long)got,
			    stats_bucket(got), stats_bucket(v));
		/* A midpoint is within half a bucket, 1/64 of 'v'. */
		diff = got > v ? got - v : v - got;
		if (diff > v / 64)
			fail_msg("v %llu: got %llu, off by more than 1/64",
			    (unsigned long long)v, (unsigned long long)got);
		if (v < 64)
			assert_int_equal(got, v);
	}
}

static void
test_hist_reset(void **state)
{
	static struct stats_hist	h;
	size_t	i;

	(void)state;
	memset(&h, 0xa5, sizeof(h));
	stats_hist_reset(&h);
	assert_int_equal(h.count, 0);
	assert_int_equal(h.min, UINT64_MAX);
	assert_int_equal(h.max, 0);
	for (i = 0; i < STATS_NBUCKETS; i++)
		assert_int_equal(h.bucket[i], 0);

	stats_hist_add(&h, 5);
	stats_hist_add(&h, 1000000);
	stats_hist_reset(&h);
	assert_int_equal(h.count, 0);
	assert_int_equal(h.bucket[stats_bucket(5)], 0);
	assert_int_equal(h.bucket[stats_bucket(1000000)], 0);
	stats_hist_add(&h, 777777);
	assert_int_equal(stats_hist_percentile(&h, 0), 777777);
	assert_int_equal(stats_hist_percentile(&h, 50), 777777);
	assert_int_equal(stats_hist_percentile(&h, 100), 777777);
}

static void
test_hist_empty(void **state)
{
	static struct stats_hist	h;

	(void)state;
	stats_hist_reset(&h);
	assert_int_equal(stats_hist_percentile(&h, 0), 0);
	assert_int_equal(stats_hist_percentile(&h, 50), 0);
	assert_int_equal(stats_hist_percentile(&h, 99.9), 0);
	assert_int_equal(stats_hist_percentile(&h, 100), 0);
}

static void
test_bucket_monotonic(void **state)
{
	uint64_t	v, st = 99, a, b;
	unsigned	e;
	int		i;

	(void)state;
	for (v = 0; v < STATS_SUB; v++)
		assert_int_equal(stats_bucket(v), v);
	/* Each step of 1 moves at most one bucket up. */
	for (v = 0; v < 1000000; v++) {
		a = stats_bucket(v);
		b = stats_bucket(v + 1);
		if (b < a || b > a + 1)
			fail_msg("bucket(%llu) = %llu, bucket(+1) = %llu",
			    (unsigned long long)v, (unsigned long long)a,
			    (unsigned long long)b);
	}
	for (e = 6; e < 64; e++) {
		v = 1ULL << e;
		assert_int_equal(stats_bucket(v - 1) + 1, stats_bucket(v));
		assert_int_equal(stats_bucket(v),
		    (e - STATS_SUB_BITS + 1) * STATS_SUB);
	}
	assert_int_equal(stats_bucket(UINT64_MAX), STATS_NBUCKETS - 1);
	for (i = 0; i < 100000; i++) {
		a = util_splitmix64(&st) >> util_below(&st, 64);
		b = util_splitmix64(&st) >> util_below(&st, 64);
		if ((a < b && stats_bucket(a) > stats_bucket(b)) ||
		    (a > b && stats_bucket(a) < stats_bucket(b)))
			fail_msg("not monotonic at %llu, %llu",
			    (unsigned long long)a, (unsigned long long)b);
	}
}

/* ===== Median, MAD, outliers ===== */

static void
test_median(void **state)
{
	static const struct {
		size_t	n;
		double	v[8];
		double	want;
	} tab[] = {
		{ 1, { 42 }, 42 },
		{ 3, { 3, 1, 2 }, 2 },
		{ 4, { 4, 1, 3, 2 }, 2.5 },
		{ 5, { 9, -1, 7, 7, 0.5 }, 7 },
		{ 6, { 10, 10, 1, 1, 1, 10 }, 5.5 },
		{ 2, { -3, -4 }, -3.5 },
		{ 7, { 1e9, 2, 3, 1, 5, 4, -1e9 }, 3 },
	};
	double	copy[8];
	size_t	i;

	(void)state;
	for (i = 0; i < NELEM(tab); i++) {
		memcpy(copy, tab[i].v, sizeof(copy));
		NEAR(stats_median(copy, tab[i].n), tab[i].want, 0);
		assert_memory_equal(copy, tab[i].v, sizeof(copy));
	}
	assert_true(isnan(stats_median(copy, 0)));
}

static void
test_mad(void **state)
{
	static const struct {
		size_t	n;
		double	v[8];
		double	want;
	} tab[] = {
		{ 1, { 5 }, 0 },
		{ 7, { 1, 1, 2, 2, 4, 6, 9 }, 1 },
		{ 4, { 1, 2, 3, 4 }, 1 },
		{ 5, { 5, 5, 5, 5, 100 }, 0 },
		{ 6, { 10, 11, 9, 10, 10.5, 9.5 }, 0.5 },
		{ 3, { -10, 0, 10 }, 10 },
	};
	double	copy[8];
	size_t	i;

	(void)state;
	for (i = 0; i < NELEM(tab); i++) {
		memcpy(copy, tab[i].v, sizeof(copy));
		NEAR(stats_mad(copy, tab[i].n), tab[i].want, 0);
		assert_memory_equal(copy, tab[i].v, sizeof(copy));
	}
	assert_true(isnan(stats_mad(copy, 0)));
}

static void
test_outliers(void **state)
{
	/* Median 10 and MAD 0.5 for the first six values of most rows. */
	static const struct {
		const char	*name;
		size_t		 n;
		double		 v[8];
		double		 threshold;
		size_t		 want;
		bool		 flags[8];
	} tab[] = {
		{ "none", 6, { 10, 11, 9, 10, 10.5, 9.5 }, 3.5, 0, { 0 } },
		{ "high", 7, { 10, 11, 9, 10, 10.5, 9.5, 30 }, 3.5, 1,
		    { 0, 0, 0, 0, 0, 0, 1 } },
		{ "low", 7, { 10, -20, 11, 9, 10, 10.5, 9.5 }, 3.5, 1,
		    { 0, 1, 0, 0, 0, 0, 0 } },
		{ "two", 8, { 40, 10, 11, 9, 10, 10.5, 9.5, -20 }, 3.5, 2,
		    { 1, 0, 0, 0, 0, 0, 0, 1 } },
		/* z = 0.6745 * 3 / 0.5 = 4.047 */
		{ "z4 at 3.5", 7, { 10, 11, 9, 10, 10.5, 9.5, 13 }, 3.5, 1,
		    { 0, 0, 0, 0, 0, 0, 1 } },
		{ "z4 at 4.1", 7, { 10, 11, 9, 10, 10.5, 9.5, 13 }, 4.1, 0,
		    { 0 } },
		{ "mad zero", 5, { 5, 5, 5, 5, 100 }, 3.5, 0, { 0 } },
		{ "two values", 2, { 1, 1000 }, 3.5, 0, { 0 } },
		/* Both z are 0.6745 here; too few values to judge. */
		{ "two, low threshold", 2, { 1, 1000 }, 0.5, 0, { 0 } },
		{ "empty", 0, { 0 }, 3.5, 0, { 0 } },
	};
	double	copy[8];
	bool	flags[8];
	size_t	i, j, got;

	(void)state;
	for (i = 0; i < NELEM(tab); i++) {
		memcpy(copy, tab[i].v, sizeof(copy));
		for (j = 0; j < 8; j++)
			flags[j] = true;
		got = stats_outliers(copy, tab[i].n, tab[i].threshold,
		    flags);
		if (got != tab[i].want)
			fail_msg("%s: %zu flagged, want %zu", tab[i].name,
			    got, tab[i].want);
		for (j = 0; j < tab[i].n; j++)
			if (flags[j] != tab[i].flags[j])
				fail_msg("%s: flag %zu is %d", tab[i].name, j,
				    flags[j]);
		for (; j < 8; j++)
			if (!flags[j])
				fail_msg("%s: wrote past n", tab[i].name);
		assert_memory_equal(copy, tab[i].v, sizeof(copy));
	}
}

static void
test_swing(void **state)
{
	static const struct {
		const char	*name;
		double		 prev, cur, next, factor;
		bool		 want;
	} tab[] = {
		{ "spike", 100, 200, 100, 1.5, true },
		{ "dip", 100, 50, 100, 1.5, true },
		{ "uneven dip", 100, 50, 80, 1.5, true },
		{ "uneven spike", 100, 190, 120, 1.5, true },
		{ "knee", 100, 50, 48, 1.5, false },
		{ "knee up", 100, 200, 210, 1.5, false },
		{ "flat", 100, 100, 100, 1.5, false },
		{ "trend", 100, 150, 225, 1.5, false },
		{ "small spike", 100, 149, 100, 1.5, false },
		{ "small dip", 100, 67, 100, 1.5, false },
		{ "dip under one", 100, 60, 80, 1.5, false },
		{ "spike over one", 100, 160, 120, 1.5, false },
		{ "zero prev", 0, 100, 100, 1.5, false },
		{ "zero cur", 100, 0, 100, 1.5, false },
		{ "zero next", 100, 100, 0, 1.5, false },
		{ "all zero", 0, 0, 0, 1.5, false },
		{ "negative", -100, 100, -100, 1.5, false },
		{ "nan cur", 100, NAN, 100, 1.5, false },
		{ "nan prev", NAN, 1000, 100, 1.5, false },
		{ "nan factor", 100, 1000, 100, NAN, false },
	};
	size_t	i;

	(void)state;
	for (i = 0; i < NELEM(tab); i++)
		if (stats_swing(tab[i].prev, tab[i].cur, tab[i].next,
		    tab[i].factor) != tab[i].want)
			fail_msg("%s: want %d", tab[i].name, tab[i].want);
}

/* ===== Knee detection ===== */

/* The n of round 'k' of a synthetic curve: 1000, growing by 1.5. */
static double
knee_n(size_t k)
{
	return 1000 * pow(1.5, (double)k);
}

/*
 * Fail unless 'got' has the shape 'shape' with 'index', 'n', 'before' and
 * 'after' (to 1e-9 relative); for STATS_FLAT and STATS_TOO_FEW the index
 * must be 0 and the rest NAN.
 */
static void
check_shape(const char *name, const struct stats_knee *got,
    enum stats_shape shape, size_t index, double n, double before,
    double after)
{
	if (got->shape != shape)
		fail_msg("%s: shape %d, want %d", name, (int)got->shape,
		    (int)shape);
	if (got->index != index)
		fail_msg("%s: index %zu, want %zu", name, got->index, index);
	if (shape == STATS_FLAT || shape == STATS_TOO_FEW) {
		if (!isnan(got->n) || !isnan(got->before) ||
		    !isnan(got->after))
			fail_msg("%s: n, before, after not NAN", name);
		return;
	}
	if (got->n != n)
		fail_msg("%s: n %.17g, want %.17g", name, got->n, n);
	if (!(fabs(got->before - before) <= 1e-9 * before))
		fail_msg("%s: before %.17g, want %.17g", name, got->before,
		    before);
	if (!(fabs(got->after - after) <= 1e-9 * after))
		fail_msg("%s: after %.17g, want %.17g", name, got->after,
		    after);
}

/*
 * Synthetic curves over n = 1000 * 1.5^k: round k has the rate
 * rate[k] * (n / 1000)^power, so power -1 is a 1/n decline.  Noise is
 * written into the rates as fixed factors.
 */
static void
test_knee_shapes(void **state)
{
	static const struct {
		const char		*name;
		size_t			 count;
		double			 rate[NPOINTS];
		double			 power;
		double			 fraction;
		enum stats_shape	 shape;
		size_t			 index;
		double			 before, after;
	} tab[] = {
		{ "flat +-10%", 12, { 110000, 90000, 105000, 95000, 108000,
		    92000, 110000, 90000, 104000, 96000, 109000, 91000 },
		    0, 0.5, STATS_FLAT, 0, 0, 0 },
		/* 200k up to n = 11391, then the caches are full. */
		{ "clear knee", 12, { 200000, 200000, 200000, 200000,
		    200000, 200000, 200000, 18000, 18000, 4000, 4000, 4000 },
		    0, 0.5, STATS_KNEE, 7, 200000, 4000 },
		/*
		 * +-25%, with the first three falling by 40%: a fit or
		 * an endpoint test over them would call it a decline.
		 */
		{ "noisy knee", 12, { 250000, 190000, 150000, 240000,
		    160000, 220000, 156000, 22500, 14400, 4800, 3000, 4400 },
		    0, 0.5, STATS_KNEE, 7, 190000, 4800 },
		/* 18000 is above 5% of 200k: the knee moves on. */
		{ "clear knee at 5%", 12, { 200000, 200000, 200000, 200000,
		    200000, 200000, 200000, 18000, 18000, 4000, 4000, 4000 },
		    0, 0.05, STATS_KNEE, 9, 200000, 4000 },
		/* Rates at exactly the limit are still up. */
		{ "at the limit", 12, { 200000, 200000, 200000, 200000,
		    200000, 100000, 100000, 4000, 4000, 4000, 4000, 4000 },
		    0, 0.5, STATS_KNEE, 7, 200000, 4000 },
		/* Two points make no plateau: it fell from the start. */
		{ "drop at the third", 12, { 200000, 200000, 4000, 4000,
		    4000, 4000, 4000, 4000, 4000, 4000, 4000, 4000 },
		    0, 0.5, STATS_DECLINE, 0, 200000, 4000 },
		/* A fall over the first rounds only, then level. */
		{ "settles", 12, { 1000000, 600000, 300000, 300000, 300000,
		    300000, 300000, 300000, 300000, 300000, 300000, 300000 },
		    0, 0.5, STATS_FLAT, 0, 0, 0 },
		{ "earliest knee", 12, { 200000, 200000, 200000, 4000, 4000,
		    4000, 4000, 4000, 4000, 4000, 4000, 4000 },
		    0, 0.5, STATS_KNEE, 3, 200000, 4000 },
		{ "two points after", 12, { 200000, 200000, 200000, 200000,
		    200000, 200000, 200000, 200000, 200000, 200000, 4000,
		    4000 }, 0, 0.5, STATS_KNEE, 10, 200000, 4000 },
		{ "one point after", 12, { 200000, 200000, 200000, 200000,
		    200000, 200000, 200000, 200000, 200000, 200000, 200000,
		    4000 }, 0, 0.5, STATS_FLAT, 0, 0, 0 },
		{ "dip recovers", 12, { 200000, 200000, 200000, 200000,
		    200000, 200000, 50000, 200000, 200000, 200000, 200000,
		    200000 }, 0, 0.5, STATS_FLAT, 0, 0, 0 },
		{ "dip recovers at the end", 12, { 200000, 200000, 200000,
		    200000, 200000, 200000, 200000, 200000, 200000, 50000,
		    50000, 200000 }, 0, 0.5, STATS_FLAT, 0, 0, 0 },
		/* A dip that recovered does not hide the later knee. */
		{ "dip, then knee", 12, { 200000, 200000, 200000, 60000,
		    200000, 200000, 200000, 200000, 20000, 20000, 20000,
		    20000 }, 0, 0.5, STATS_KNEE, 8, 200000, 20000 },
		{ "decline 1/n", 12, { 1e6, 1e6, 1e6, 1e6, 1e6, 1e6, 1e6,
		    1e6, 1e6, 1e6, 1e6, 1e6 }, -1, 0.5, STATS_DECLINE, 0,
		    1e6, 11561.019943888408 },
		{ "noisy decline", 12, { 1250000, 950000, 750000, 1200000,
		    800000, 1100000, 780000, 1250000, 800000, 1200000, 750000,
		    1100000 }, -1, 0.5, STATS_DECLINE, 0, 1250000,
		    12717.12193827725 },
		/* Declines from the start, then drops to a tenth. */
		{ "decline, then cliff", 12, { 1e6, 1e6, 1e6, 1e6, 1e6,
		    1e6, 1e6, 1e6, 1e5, 1e5, 1e5, 1e5 }, -1, 0.5,
		    STATS_DECLINE, 0, 1e6, 1156.1019943888408 },
		/* Falls like n^-0.2 (a growing tree), then a knee. */
		{ "slope, then knee", 12, { 200000, 200000, 200000, 200000,
		    200000, 200000, 200000, 200000, 10000, 10000, 10000,
		    10000 }, -0.2, 0.5, STATS_KNEE, 8, 150703.38624815815,
		    4632.159491550442 },
		{ "four points", 4, { 200000, 200000, 4000, 4000 }, 0, 0.5,
		    STATS_TOO_FEW, 0, 0, 0 },
		{ "five points", 5, { 200000, 200000, 200000, 4000, 4000 },
		    0, 0.5, STATS_KNEE, 3, 200000, 4000 },
		{ "none", 0, { 0 }, 0, 0.5, STATS_TOO_FEW, 0, 0, 0 },
	};
	struct stats_knee	got;
	double			n[NPOINTS], rate[NPOINTS];
	size_t			i, k;

	(void)state;
	for (i = 0; i < NELEM(tab); i++) {
		for (k = 0; k < tab[i].count; k++) {
			n[k] = knee_n(k);
			rate[k] = tab[i].rate[k] *
			    pow(n[k] / 1000, tab[i].power);
		}
		memset(&got, 0xa5, sizeof(got));
		if (stats_knee(n, rate, tab[i].count, tab[i].fraction,
		    &got) != 0)
			fail_msg("%s: returned -1", tab[i].name);
		check_shape(tab[i].name, &got, tab[i].shape, tab[i].index,
		    tab[i].shape == STATS_DECLINE ? n[0] :
		    knee_n(tab[i].index), tab[i].before, tab[i].after);
	}
}

/*
 * Repetitions: round k of the clear knee is measured (k % 3) + 1 times,
 * with outliers that only the median per n removes (one repetition of
 * round 8 is back up at the plateau).  The index is into the arrays.
 */
static void
test_knee_repeats(void **state)
{
	static const double	base[NPOINTS] = { 200000, 200000, 200000,
	    200000, 200000, 200000, 200000, 18000, 18000, 4000, 4000, 4000 };
	static const double	mult[3][3] = {
		{ 1 }, { 0.5, 1.5 }, { 10, 1, 0.1 }
	};
	struct stats_knee	got;
	double			n[3 * NPOINTS], rate[3 * NPOINTS];
	size_t			k, j, count;

	(void)state;
	count = 0;
	for (k = 0; k < NPOINTS; k++) {
		for (j = 0; j <= k % 3; j++) {
			n[count] = knee_n(k);
			rate[count++] = base[k] * mult[k % 3][j];
		}
	}
	assert_int_equal(count, 24);
	assert_int_equal(stats_knee(n, rate, count, 0.5, &got), 0);
	check_shape("repeats", &got, STATS_KNEE, 13, knee_n(7), 200000,
	    4000);

	/* Twelve measurements of four n are too few points. */
	for (k = 0; k < 12; k++) {
		n[k] = knee_n(k / 3);
		rate[k] = 200000;
	}
	assert_int_equal(stats_knee(n, rate, 12, 0.5, &got), 0);
	check_shape("four n", &got, STATS_TOO_FEW, 0, 0, 0, 0);
}

/*
 * Pairs with a rate or n that is NaN, infinite, zero or negative are left
 * out: the clear knee with such pairs mixed in keeps its knee, and its
 * index counts them.
 */
static void
test_knee_unusable(void **state)
{
	static const struct {
		double	n;		/* < 0: knee_n(-n - 1) */
		double	rate;
	} tab[] = {
		{ -1, 200000 }, { -2, 200000 }, { -2, NAN }, { -3, 200000 },
		{ -4, 0 }, { -4, 200000 }, { NAN, 5 }, { -5, 200000 },
		{ -6, 200000 }, { -7, 200000 }, { -8, -18000 },
		{ -8, 18000 }, { -9, 18000 }, { 0, 7 }, { -10, 4000 },
		{ -11, INFINITY }, { -11, 4000 }, { -12, 4000 },
		{ INFINITY, 1 },
	};
	struct stats_knee	got;
	double			n[NELEM(tab)], rate[NELEM(tab)];
	size_t			i;

	(void)state;
	for (i = 0; i < NELEM(tab); i++) {
		n[i] = tab[i].n < 0 ? knee_n((size_t)(-tab[i].n - 1)) :
		    tab[i].n;
		rate[i] = tab[i].rate;
	}
	assert_int_equal(stats_knee(n, rate, NELEM(tab), 0.5, &got), 0);
	check_shape("unusable", &got, STATS_KNEE, 11, knee_n(7), 200000,
	    4000);
}

/* Bad arguments fail with EINVAL and leave '*out' alone. */
static void
test_knee_errors(void **state)
{
	static const double	fractions[] = {
		0, 1, -0.5, 1.5, NAN, INFINITY
	};
	struct stats_knee	got, orig;
	double			n[NPOINTS], rate[NPOINTS];
	size_t			i;

	(void)state;
	for (i = 0; i < NPOINTS; i++) {
		n[i] = knee_n(i);
		rate[i] = 1000;
	}
	memset(&orig, 0xa5, sizeof(orig));
	got = orig;
	for (i = 0; i < NELEM(fractions); i++) {
		errno = 0;
		if (stats_knee(n, rate, NPOINTS, fractions[i], &got) != -1 ||
		    errno != EINVAL)
			fail_msg("fraction %g accepted", fractions[i]);
	}
	errno = 0;
	assert_int_equal(stats_knee(NULL, rate, NPOINTS, 0.5, &got), -1);
	assert_int_equal(errno, EINVAL);
	errno = 0;
	assert_int_equal(stats_knee(n, NULL, NPOINTS, 0.5, &got), -1);
	assert_int_equal(errno, EINVAL);
	errno = 0;
	assert_int_equal(stats_knee(n, rate, NPOINTS, 0.5, NULL), -1);
	assert_int_equal(errno, EINVAL);

	/* n must not go down. */
	n[6] = n[4];
	errno = 0;
	assert_int_equal(stats_knee(n, rate, NPOINTS, 0.5, &got), -1);
	assert_int_equal(errno, EINVAL);
	assert_memory_equal(&got, &orig, sizeof(got));

	/* A bad n in a left-out pair does not count. */
	rate[6] = NAN;
	assert_int_equal(stats_knee(n, rate, NPOINTS, 0.5, &got), 0);
	check_shape("n down, rate NAN", &got, STATS_FLAT, 0, 0, 0, 0);
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test(test_hist_distributions),
		cmocka_unit_test(test_hist_rank),
		cmocka_unit_test(test_hist_midpoint),
		cmocka_unit_test(test_hist_reset),
		cmocka_unit_test(test_hist_empty),
		cmocka_unit_test(test_bucket_monotonic),
		cmocka_unit_test(test_median),
		cmocka_unit_test(test_mad),
		cmocka_unit_test(test_outliers),
		cmocka_unit_test(test_swing),
		cmocka_unit_test(test_knee_shapes),
		cmocka_unit_test(test_knee_repeats),
		cmocka_unit_test(test_knee_unusable),
		cmocka_unit_test(test_knee_errors),
	};

	return cmocka_run_group_tests_name("stats", tests, NULL, NULL);
}
