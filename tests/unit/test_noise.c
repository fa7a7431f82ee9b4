/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * test_noise: the noise checks find what they should, say so once per
 * run (the load on its own, a swing and an outlier together) and keep
 * it in the metadata; the notes that add to a key (a phase stopped, NFS
 * counters driven up, an open cut short) join their cases.
 */

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "record/output.h"
#include "report/noise.h"

/*
 * A busy machine: more load than CPUs (and than largedir's own clients
 * add), said once, recorded.
 */
static void
test_load(void **state)
{
	struct output_doc	doc;
	struct noise		ns;

	(void)state;
	output_doc_init(&doc);
	memset(&ns, 0, sizeof(ns));
	assert_false(noise_load(&ns, &doc, 1, 3.5, 4));
	assert_false(noise_load(&ns, &doc, 1, NAN, 4));
	assert_false(noise_load(&ns, &doc, 1, 5, 0));
	assert_null(kv_get(&doc.meta, "warning_load"));
	assert_true(noise_load(&ns, &doc, 2, 5, 4));
	assert_string_equal(kv_get(&doc.meta, "warning_load"),
	    "load 5.00 on 4 CPUs in round 2");
	assert_false(noise_load(&ns, &doc, 3, 9, 4));
	assert_string_equal(kv_get(&doc.meta, "warning_load"),
	    "load 5.00 on 4 CPUs in round 2");
	output_doc_free(&doc);

	/*
	 * Four clients of largedir waiting for the disk on 2 CPUs: a load
	 * of 5 is theirs; more is another program's.
	 */
	output_doc_init(&doc);
	memset(&ns, 0, sizeof(ns));
	ns.own = 4;
	assert_false(noise_load(&ns, &doc, 1, 5, 2));
	assert_true(noise_load(&ns, &doc, 2, 5.5, 2));
	assert_string_equal(kv_get(&doc.meta, "warning_load"),
	    "load 5.50 on 2 CPUs in round 2");
	output_doc_free(&doc);

	/*
	 * In a UML guest: largedir blocked on an NFS server and the guest
	 * kernel's threads make a load over 1 on its one CPU; no warning.
	 */
	output_doc_init(&doc);
	memset(&ns, 0, sizeof(ns));
	ns.own = 1;
	ns.guest = true;
	assert_false(noise_load(&ns, &doc, 1, 1.3, 1));
	assert_false(noise_load(&ns, &doc, 2, 9, 1));
	assert_null(kv_get(&doc.meta, "warning_load"));
	output_doc_free(&doc);
}

/* A round far off both neighbours, then no word of an outlier. */
static void
test_swing_outliers(void **state)
{
	static const enum phase	phases[] = { PHASE_CREATE, PHASE_OPEN };
	static const double	reps[] = { 100, 101, 99, 100, 10 };
	struct output_doc	doc;
	struct round_result	res;
	struct noise		ns;
	double			med[PHASE_COUNT];
	enum phase		which = PHASE_COUNT;
	unsigned		k;

	(void)state;
	output_doc_init(&doc);
	memset(&ns, 0, sizeof(ns));
	memset(med, 0, sizeof(med));
	for (k = 1; k <= 3; k++) {
		med[PHASE_CREATE] = 1000;
		med[PHASE_OPEN] = k == 2 ? 10 : 1000;
		assert_int_equal(noise_swing(&ns, &doc, k, phases, 2, med,
		    &which), k == 3);
	}
	assert_int_equal(which, PHASE_OPEN);
	assert_string_equal(kv_get(&doc.meta, "warning_swing"),
	    "round 2 open");
	assert_int_equal(ns.nrates, 3);
	assert_true(ns.rates[PHASE_CREATE][2] == 1000);

	/* Noise was said: an outlier now is not said again. */
	memset(&res, 0, sizeof(res));
	res.reps = 5;
	res.rates[PHASE_OPEN] = reps;
	res.rates[PHASE_CREATE] = reps;
	assert_false(noise_outliers(&ns, &doc, 4, phases, 2, &res, &which));
	assert_null(kv_get(&doc.meta, "warning_outliers"));
	noise_free(&ns);
	assert_int_equal(ns.nrates, 0);
	assert_null(ns.rates[PHASE_OPEN]);

	/* A fresh run: the outlier is said, in the first phase with one. */
	assert_true(noise_outliers(&ns, &doc, 4, phases, 2, &res, &which));
	assert_int_equal(which, PHASE_CREATE);
	assert_string_equal(kv_get(&doc.meta, "warning_outliers"),
	    "round 4 create");
	/* Fewer than 3 repetitions: nothing to judge by. */
	memset(&ns, 0, sizeof(ns));
	res.reps = 2;
	assert_false(noise_outliers(&ns, &doc, 5, phases, 2, &res, &which));
	output_doc_free(&doc);
}

/* The notes that join their cases under one key. */
static void
test_notes(void **state)
{
	struct output_doc	doc;
	char			what[200];
	int			i;

	(void)state;
	output_doc_init(&doc);
	noise_stopped(&doc, 1, "create", 2.5);
	noise_stopped(&doc, 2, "open", 1);
	assert_string_equal(kv_get(&doc.meta, "warning_stopped"),
	    "round 1 create 2.50s; round 2 open 1.00s");

	noise_boxed(&doc, 3, 5, 10);
	noise_boxed(&doc, 3, 6, 10);
	assert_string_equal(kv_get(&doc.meta, "open_boxed_round_3"),
	    "5 of 10; 6 of 10");

	assert_true(noise_busy(&doc, 1, "list", "READDIRPLUS"));
	assert_false(noise_busy(&doc, 2, "open", "LOOKUP"));
	assert_string_equal(kv_get(&doc.meta, "warning_busy"),
	    "round 1 list: READDIRPLUS; round 2 open: LOOKUP");
	/* Past 1000 bytes it stops growing. */
	memset(what, 'x', sizeof(what) - 1);
	what[sizeof(what) - 1] = '\0';
	for (i = 0; i < 10; i++)
		assert_false(noise_busy(&doc, 3, "open", what));
	assert_true(strlen(kv_get(&doc.meta, "warning_busy")) < 1300);
	output_doc_free(&doc);
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test(test_load),
		cmocka_unit_test(test_swing_outliers),
		cmocka_unit_test(test_notes),
	};

	return cmocka_run_group_tests_name("noise", tests, NULL, NULL);
}
