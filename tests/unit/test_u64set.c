/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * test_u64set: the set the NFS backend sees a listing go round with.  A
 * number added once is new, a second time known, across the table's
 * growth (100,000 numbers, a few of them colliding in the low bits); 0
 * always counts as known; clear() forgets everything and keeps the table.
 */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "base/u64set.h"

#define MANY	100000

static void
test_add(void **state)
{
	struct u64set	s = { 0 };
	uint64_t	i;
	size_t		cap;

	(void)state;
	assert_true(u64set_add(&s, 0));
	assert_int_equal(s.n, 0);
	/* Cookies like a server's: small steps, and big ones alike. */
	for (i = 1; i <= MANY; i++) {
		assert_false(u64set_add(&s, i * 512));
		assert_false(u64set_add(&s, i << 40 | 7));
	}
	assert_int_equal(s.n, 2 * MANY);
	assert_true(s.cap >= 4 * MANY);
	for (i = 1; i <= MANY; i++) {
		assert_true(u64set_add(&s, i * 512));
		assert_true(u64set_add(&s, i << 40 | 7));
	}
	assert_false(u64set_add(&s, 513));
	assert_int_equal(s.n, 2 * MANY + 1);
	cap = s.cap;
	u64set_clear(&s);
	assert_int_equal(s.n, 0);
	assert_int_equal(s.cap, cap);
	assert_false(u64set_add(&s, 512));
	assert_true(u64set_add(&s, 512));
	u64set_free(&s);
	assert_null(s.slots);
	/* Clearing an empty set, and freeing it, are fine. */
	u64set_clear(&s);
	u64set_free(&s);
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test(test_add),
	};

	return cmocka_run_group_tests_name("u64set", tests, NULL, NULL);
}
