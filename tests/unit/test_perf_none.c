/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * Unit tests for perf_none, the perf API of "make PFM=0": the list checks
 * are those of perf.c (table-driven, the same cases), any name is taken,
 * nothing opens and there are no values.  The Makefile links this test
 * with perf_none.o in every build.
 */

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "base/util.h"
#include "machine/perf.h"

static const struct init_case {
	const char	*list;
	int		 want;		/* perf_init()'s return */
	size_t		 nitems;
	const char	*err;		/* on -1 */
} init_cases[] = {
	{ PERF_DEFAULT, 0, 5, NULL },
	{ "", 0, 0, NULL },
	{ "none", 0, 0, NULL },
	{ " none\t", 0, 0, NULL },
	{ " task-clock , page-faults ", 0, 2, NULL },
	/* Without libpfm4 any name will do. */
	{ "foo,bar:u", 0, 2, NULL },
	{ "cycles,cycles", -1, 0, "--events 'cycles': listed twice" },
	{ "cycles,instructions,Cycles", -1, 0,
	    "--events 'Cycles': the same column name as 'cycles'" },
	{ "cycles,,instructions", -1, 0,
	    "--events 'cycles,,instructions': empty event name" },
	{ ",cycles", -1, 0, "--events ',cycles': empty event name" },
	{ "cycles,", -1, 0, "--events 'cycles,': empty event name" },
	{ "cycles, ,instructions", -1, 0,
	    "--events 'cycles, ,instructions': empty event name" },
	{ ",", -1, 0, "--events ',': empty event name" },
	{ "e1,e2,e3,e4,e5,e6,e7,e8,e9,e10,e11,e12,e13,e14,e15,e16", 0, 16,
	    NULL },
	{ "e1,e2,e3,e4,e5,e6,e7,e8,e9,e10,e11,e12,e13,e14,e15,e16,e17", -1,
	    0, "--events 'e17': more than 16 events" },
	{ "cycles,x2345678901234567890123456789012345678901234567890"
	    "123456789012345", -1, 0, "--events 'x23456789012345678901234"
	    "5678901234567890...': event name longer than 63 characters" },
};

static void
test_init_table(void **state)
{
	struct perf	pf;
	char		err[LD_ERRLEN];
	size_t		i;

	(void)state;
	for (i = 0; i < sizeof(init_cases) / sizeof(init_cases[0]); i++) {
		const struct init_case	*c = &init_cases[i];

		print_message("'%s'\n", c->list);
		err[0] = '\0';
		errno = 0;
		assert_int_equal(perf_init(&pf, c->list, err), c->want);
		assert_int_equal(pf.nitems, c->nitems);
		if (c->want == -1) {
			assert_int_equal(errno, EINVAL);
			assert_string_equal(err, c->err);
		}
	}
	assert_int_equal(perf_init(&pf, NULL, err), 0);
	assert_int_equal(pf.nitems, 0);
}

/* Nothing opens, there are no values, and the line says why. */
static void
test_open(void **state)
{
	struct perf	pf;
	char		err[LD_ERRLEN], buf[256];
	double		v[1] = { 42 };

	(void)state;
	assert_int_equal(perf_init(&pf, PERF_DEFAULT, err), 0);
	assert_string_equal(perf_unavailable(&pf), "");
	perf_describe(&pf, buf, sizeof(buf));
	assert_string_equal(buf, "cycles(closed) instructions(closed) "
	    "context-switches(closed) page-faults(closed) "
	    "task-clock(closed)");

	assert_int_equal(perf_open(&pf), 0);
	assert_int_equal(perf_nvalues(&pf), 0);
	assert_string_equal(perf_unavailable(&pf), "cycles, instructions, "
	    "context-switches, page-faults, task-clock: largedir was built "
	    "without libpfm4 (make PFM=0)");
	perf_describe(&pf, buf, sizeof(buf));
	assert_string_equal(buf, "cycles(unavailable) "
	    "instructions(unavailable) context-switches(unavailable) "
	    "page-faults(unavailable) task-clock(unavailable)");
	perf_describe(&pf, buf, 8);
	assert_string_equal(buf, "cycles(");

	/* The rest does nothing, and writes no values. */
	perf_reopen(&pf);
	perf_start(&pf);
	perf_stop(&pf, v);
	assert_true(v[0] == 42);
	assert_int_equal(perf_nvalues(&pf), 0);
	perf_close(&pf);

	assert_int_equal(perf_init(&pf, "none", err), 0);
	assert_int_equal(perf_open(&pf), 0);
	assert_string_equal(perf_unavailable(&pf), "");
	perf_describe(&pf, buf, sizeof(buf));
	assert_string_equal(buf, "none");
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test(test_init_table),
		cmocka_unit_test(test_open),
	};

	return cmocka_run_group_tests_name("perf_none", tests, NULL, NULL);
}
