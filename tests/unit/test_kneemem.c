/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * test_kneemem: kneemem_find() over the targets of a results directory: the
 * targets with a memory limit and a knee in the first phase a limit
 * holds that has two of them, by memory, one per limit; the line fitted
 * to the knees' points and the bytes a cached file takes by it; no sweep
 * with fewer than two limits.
 */

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "report/kneemem.h"

#define NELEM(a)	(sizeof(a) / sizeof((a)[0]))

/* A target with metadata only: 'kv' holds key, value, ..., NULL. */
static void
target(struct results_target *t, const char *label, const char *const *kv)
{
	size_t	n = 0;

	memset(t, 0, sizeof(*t));
	t->label = (char *)label;
	while (kv[2 * n] != NULL)
		n++;
	t->meta = calloc(n, sizeof(*t->meta));
	assert_non_null(t->meta);
	for (t->nmeta = 0; t->nmeta < n; t->nmeta++) {
		t->meta[t->nmeta].key = (char *)kv[2 * t->nmeta];
		t->meta[t->nmeta].value = (char *)kv[2 * t->nmeta + 1];
	}
}

static void
test_kneemem(void **state)
{
	/* 64, 32 and 128 MiB; knees at 40k-45k, 20k-22k, 80k-90k files. */
	static const char *const a[] = { "config.memory-limit", "67108864",
		"knee_open", "45000", "knee_open_above", "40000", NULL };
	static const char *const b[] = { "config.memory-limit", "33554432",
		"knee_open", "22000", "knee_open_above", "20000", NULL };
	static const char *const c[] = { "config.memory-limit", "134217728",
		"knee_open", "90000", "knee_open_above", "80000", NULL };
	/* No limit; and a list knee only (open comes first). */
	static const char *const d[] = { "knee_open", "5000", NULL };
	static const char *const e[] = { "config.memory-limit", "16777216",
		"knee_list", "9000", NULL };
	struct results_target	t[5];
	struct results		rs = { t, 0 };
	struct kneemem		sw;
	double			per;
	size_t			i;

	(void)state;
	target(&t[0], "ext4-64M", a);
	target(&t[1], "ext4-32M", b);
	target(&t[2], "ext4-128M", c);
	target(&t[3], "ext4", d);
	target(&t[4], "ext4-16M", e);
	rs.nt = 2;
	rs.t = t + 3;			/* one limit with a knee: none */
	assert_int_equal(kneemem_find(&rs, &sw), 0);
	rs.t = t;
	rs.nt = 5;
	assert_int_equal(kneemem_find(&rs, &sw), 3);
	assert_string_equal(sw.phase, "open");
	assert_string_equal(sw.p[0].label, "ext4-32M");
	assert_string_equal(sw.p[1].label, "ext4-64M");
	assert_string_equal(sw.p[2].label, "ext4-128M");
	assert_true(sw.p[0].mem == 33554432 && sw.p[0].above == 20000 &&
	    sw.p[0].knee == 22000);
	assert_true(fabs(sw.p[1].mid - sqrt(40000.0 * 45000)) < 1e-6);
	assert_true(sw.fitted);
	/* The points lie on a line of about 660 files per MiB. */
	per = kneemem_bytes_per_file(&sw);
	assert_true(per > 1500 && per < 1700);
	assert_true(fabs(sw.a + sw.b * 67108864 - sw.p[1].mid) <
	    0.05 * sw.p[1].mid);
	/* A knee that does not move with memory: no line. */
	t[2].meta[1].value = (char *)"20000";
	t[2].meta[2].value = (char *)"19000";
	t[0].meta[1].value = (char *)"21000";
	t[0].meta[2].value = (char *)"19500";
	assert_int_equal(kneemem_find(&rs, &sw), 3);
	assert_false(sw.fitted);
	assert_true(isnan(kneemem_bytes_per_file(&sw)));
	for (i = 0; i < NELEM(t); i++)
		free(t[i].meta);
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test(test_kneemem),
	};

	return cmocka_run_group_tests_name("kneemem", tests, NULL, NULL);
}
