/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * test_damon: damon_describe() over DAMON's sysfs tree (fixtures in
 * tests/data/damon/): a running kdamond with a pageout scheme is said,
 * with the idle time its minimum age and aggregation interval give, and
 * its other schemes are not; a kdamond that is off, a missing tree and
 * a buffer too small for the text say nothing or are cut, never overrun.
 */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "machine/damon.h"

#ifndef TEST_DATA
#define TEST_DATA "tests/data"
#endif
#define DATA	TEST_DATA "/damon/"

static void
test_damon(void **state)
{
	char	buf[256], small[12];

	(void)state;
	assert_int_equal(damon_describe(DATA "on", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "pageout of memory idle for 60 s or more "
	    "(kdamond 0, paddr)");
	assert_int_equal(damon_describe(DATA "off", buf, sizeof(buf)), -1);
	assert_string_equal(buf, "");
	assert_int_equal(damon_describe(DATA "none", buf, sizeof(buf)), -1);
	memset(small, 'x', sizeof(small));
	assert_int_equal(damon_describe(DATA "on", small, sizeof(small) - 1),
	    0);
	assert_int_equal(small[sizeof(small) - 1], 'x');
	assert_int_equal(strlen(small), sizeof(small) - 2);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_damon),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
