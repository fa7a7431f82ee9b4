/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * Unit tests for pairs.c: the A B B A order of the repetitions, and
 * the rows of the table (medians, rates, percent, spread, verdicts) on
 * figures worked out by hand, among them the dir_ireserve measurements
 * that the comparison is modelled on.
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

#include "report/pairs.h"

#define SEC	1e9

static void	check_near(double, double, const char *, int);

static void
check_near(double got, double want, const char *what, int line)
{
	if (!(fabs(got - want) <= 1e-9 * fmax(1, fabs(want))))
		fail_msg("line %d: %s: got %.17g, want %.17g", line, what,
		    got, want);
}

#define NEAR(got, want)	check_near((got), (want), #got, __LINE__)

/* A B, B A, A B, B A: drift falls on both alike. */
static void
test_order(void **state)
{
	static const enum pairs_side	want[] = { PAIRS_A, PAIRS_B,
		PAIRS_B, PAIRS_A, PAIRS_A, PAIRS_B, PAIRS_B,
		PAIRS_A };
	unsigned			i, a = 0;

	(void)state;
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		assert_int_equal(pairs_side(i), want[i]);
	/* Each pair has one of each, for any number of pairs. */
	for (i = 0; i < 2000; i += 2) {
		assert_int_not_equal(pairs_side(i), pairs_side(i + 1));
		a += pairs_side(i) == PAIRS_A;
	}
	assert_int_equal(a, 500);
}

/*
 * 50,000 directories made in 49.1 s on A and 2m59.7s on B, with two
 * more pairs around them: B takes 3.66 times as long, +266.0%; the
 * pairs' own percentages are 266.0, 277.1 and 255.6, so +- 10.75.
 */
static void
test_slower(void **state)
{
	const double		a[] = { 49.1 * SEC, 48.0 * SEC, 50.2 * SEC };
	const double		b[] = { 179.7 * SEC, 181.0 * SEC,
				    178.5 * SEC };
	struct pairs_row	row;
	char			line[128];

	(void)state;
	assert_int_equal(pairs_row(a, b, 3, 50000, &row), 0);
	assert_int_equal(row.pairs, 3);
	NEAR(row.a_ns, 49.1 * SEC);
	NEAR(row.b_ns, 179.7 * SEC);
	NEAR(row.a_per_s, 50000 / 49.1);
	NEAR(row.b_per_s, 50000 / 179.7);
	NEAR(row.pct, (179.7 / 49.1 - 1) * 100);
	NEAR(row.spread, ((181.0 / 48.0) - (178.5 / 50.2)) * 100 / 2);
	assert_int_equal(row.verdict, PAIRS_SLOWER);
	pairs_format(line, sizeof(line), "mkdir", &row);
	assert_string_equal(line, "mkdir       49.10s     1.0k/s     3m00s    "
	    "278.2/s   +266.0% ±10.8%  slower");
}

/* The other way round, and the pairs' order does not matter. */
static void
test_faster(void **state)
{
	const double		a[] = { 1458 * SEC, 1470 * SEC, 1449 * SEC,
				    1462 * SEC };
	const double		b[] = { 1268 * SEC, 1281 * SEC, 1259 * SEC,
				    1275 * SEC };
	struct pairs_row	row;

	(void)state;
	assert_int_equal(pairs_row(a, b, 4, 750000, &row), 0);
	NEAR(row.a_ns, 1460 * SEC);		/* (1458 + 1462) / 2 */
	NEAR(row.b_ns, 1271.5 * SEC);		/* (1268 + 1275) / 2 */
	NEAR(row.pct, (1271.5 / 1460 - 1) * 100);
	assert_true(row.pct < -12.9 && row.pct > -13.0);
	assert_int_equal(row.verdict, PAIRS_FASTER);
	assert_string_equal(pairs_verdict_name(row.verdict), "faster");
}

/* Ranges that overlap, however far the medians: within noise. */
static void
test_noise(void **state)
{
	const double		a[] = { 10 * SEC, 12 * SEC, 11 * SEC };
	const double		b[] = { 11.9 * SEC, 13 * SEC, 12.5 * SEC };
	const double		c[] = { 12.1 * SEC, 13 * SEC, 12.5 * SEC };
	struct pairs_row	row;

	(void)state;
	assert_int_equal(pairs_row(a, b, 3, 1000, &row), 0);
	assert_int_equal(row.verdict, PAIRS_NOISE);
	assert_true(row.pct > 13);
	assert_string_equal(pairs_verdict_name(row.verdict),
	    "within noise");
	/* B's fastest just above A's slowest: slower. */
	assert_int_equal(pairs_row(a, c, 3, 1000, &row), 0);
	assert_int_equal(row.verdict, PAIRS_SLOWER);
}

/*
 * A repetition that failed (NAN) takes its pair out; one pair left has
 * no verdict; none left is an error.
 */
static void
test_missing(void **state)
{
	const double		a[] = { 1 * SEC, NAN, 1.1 * SEC, 0 };
	const double		b[] = { 2 * SEC, 2 * SEC, NAN, 3 * SEC };
	struct pairs_row	row;

	(void)state;
	assert_int_equal(pairs_row(a, b, 4, 10, &row), 0);
	assert_int_equal(row.pairs, 1);
	NEAR(row.pct, 100);
	NEAR(row.spread, 0);
	assert_int_equal(row.verdict, PAIRS_ONE_PAIR);
	errno = 0;
	assert_int_equal(pairs_row(a + 1, b + 1, 3, 10, &row), -1);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(pairs_row(a, b, 0, 10, &row), -1);
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_slower),
		cmocka_unit_test(test_faster),
		cmocka_unit_test(test_noise),
		cmocka_unit_test(test_missing),
	};

	return cmocka_run_group_tests_name("pairs", tests, NULL, NULL);
}
