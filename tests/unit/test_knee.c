/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * test_knee: knee_record() judges each phase from the rows of a result
 * document and keeps what it found in the metadata: a knee with its n
 * and the rates around it, a flat phase as "none", too few rounds as
 * "too-few-rounds", and nothing for a phase the rows do not rate; and
 * knee_widest() gives the rounds around the knee.
 */

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "record/output.h"
#include "report/knee.h"

#define NELEM(a)	(sizeof(a) / sizeof((a)[0]))

/* Rows of 'm' rounds with create flat and open falling at n = 5062. */
static void
rows(struct output_doc *doc, size_t m)
{
	static const double	n[] = { 1000, 1500, 2250, 3375, 5062, 7593,
				    11390 };
	static const double	open[] = { 100000, 101000, 100500, 99000,
				    30000, 29000, 28000 };
	double			*row;
	size_t			 i;

	(void)output_table_col(&doc->rows, "round", -1);
	(void)output_table_col(&doc->rows, "warmup", -1);
	(void)output_table_col(&doc->rows, "n", -1);
	(void)output_table_col(&doc->rows, "create_per_s", 1);
	(void)output_table_col(&doc->rows, "open_per_s", 1);
	for (i = 0; i < m && i < NELEM(n); i++) {
		row = output_table_row(&doc->rows);
		row[0] = (double)i + 1;
		row[1] = 0;
		row[2] = n[i];
		row[3] = 50000 + (i % 2) * 1000;
		row[4] = open[i];
	}
}

static void
test_record(void **state)
{
	static const enum phase	phases[] = { PHASE_CREATE, PHASE_OPEN,
				    PHASE_LIST };
	struct output_doc	doc;
	struct knee_phase	kp[NELEM(phases)];
	uint64_t		lo, hi;

	(void)state;
	output_doc_init(&doc);
	rows(&doc, 7);
	knee_record(&doc, phases, NELEM(phases), kp);
	assert_string_equal(kp[0].name, "create");
	assert_true(kp[0].judged);
	assert_int_equal(kp[0].k.shape, STATS_FLAT);
	assert_string_equal(kv_get(&doc.meta, "knee_create"), "none");
	assert_true(kp[1].judged);
	assert_int_equal(kp[1].k.shape, STATS_KNEE);
	assert_string_equal(kv_get(&doc.meta, "knee_open"), "5062");
	assert_string_equal(kv_get(&doc.meta, "knee_open_above"), "3375");
	assert_string_equal(kv_get(&doc.meta, "knee_open_before"),
	    "100250.0");
	assert_string_equal(kv_get(&doc.meta, "knee_open_after"),
	    "29000.0");
	/* list has no column: not judged, nothing recorded. */
	assert_false(kp[2].judged);
	assert_null(kv_get(&doc.meta, "knee_list"));
	/* During a run: the rounds around the knee, for the schedule. */
	assert_true(knee_widest(&doc, phases, NELEM(phases), &lo, &hi));
	assert_true(lo == 3375 && hi == 5062);
	output_doc_free(&doc);

	output_doc_init(&doc);
	rows(&doc, 3);
	knee_record(&doc, phases, 2, kp);
	assert_false(knee_widest(&doc, phases, 2, &lo, &hi));
	assert_true(lo == 0 && hi == 0);
	assert_int_equal(kp[1].k.shape, STATS_TOO_FEW);
	assert_string_equal(kv_get(&doc.meta, "knee_open"),
	    "too-few-rounds");
	output_doc_free(&doc);
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test(test_record),
	};

	return cmocka_run_group_tests_name("knee", tests, NULL, NULL);
}
