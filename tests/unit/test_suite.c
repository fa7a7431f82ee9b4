/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * Unit tests for suite.c: reading back the row with the largest n from a
 * largedir CSV file, as the suite's summary table does.
 */

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "suite.h"

static char	path[64];

static void
write_file(const char *text)
{
	FILE	*fp;

	(void)strcpy(path, "/tmp/largedir-unit.XXXXXX");
	assert_true(mkstemp(path) >= 0);
	fp = fopen(path, "w");
	assert_non_null(fp);
	assert_int_equal(fputs(text, fp) >= 0, 1);
	assert_int_equal(fclose(fp), 0);
}

static void
test_largest_n(void **state)
{
	const char	*cols[] = { "create_per_s", "open_per_s", "missing" };
	double		 v[3];

	(void)state;
	/* Repetitions and a time-boxed last round smaller than its peak. */
	write_file("round,rep,n,create_per_s,open_per_s\r\n"
	    "1,1,1000,100.5,200.0\r\n"
	    "2,1,1500,90.0,\r\n"
	    "3,1,3375,80.0,150.0\r\n"
	    "4,1,2250,85.0,160.0\r\n");
	assert_int_equal(suite_read_csv(path, cols, 3, v), 4);
	assert_true(v[0] == 80.0);
	assert_true(v[1] == 150.0);
	assert_true(isnan(v[2]));
	(void)unlink(path);
}

static void
test_empty_and_bad(void **state)
{
	const char	*cols[] = { "create_per_s" };
	double		 v[1];

	(void)state;
	write_file("round,rep,n,create_per_s\r\n");
	assert_int_equal(suite_read_csv(path, cols, 1, v), 0);
	assert_true(isnan(v[0]));
	(void)unlink(path);

	write_file("round,rep,create_per_s\r\n1,1,5\r\n");
	assert_int_equal(suite_read_csv(path, cols, 1, v), -1);
	assert_int_equal(errno, EINVAL);
	(void)unlink(path);

	write_file("");
	assert_int_equal(suite_read_csv(path, cols, 1, v), -1);
	assert_int_equal(errno, EINVAL);
	(void)unlink(path);

	assert_int_equal(suite_read_csv("/nonexistent/x.csv", cols, 1, v), -1);
	assert_int_equal(errno, ENOENT);
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test(test_largest_n),
		cmocka_unit_test(test_empty_and_bad),
	};

	return cmocka_run_group_tests_name("suite", tests, NULL, NULL);
}
