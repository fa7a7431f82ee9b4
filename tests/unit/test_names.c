/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * Unit tests for names.c: fixed names are the zero-padded index at every
 * width, maildir names have the maildir shape and are unique, a larger
 * table starts with the smaller one (names depend on the index only),
 * names_lookup() finds every name and refuses near misses, and
 * names_match() recognises the shapes --cleanup relies on.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/names.h"

#define NELEM(a)	(sizeof(a) / sizeof((a)[0]))

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void
test_fixed(void **state)
{
	static const unsigned	widths[] = { 1, 3, 8, 12, 255 };
	struct names		t;
	char			want[300];
	uint64_t		i, n, idx;
	size_t			w;

	(void)state;
	for (w = 0; w < NELEM(widths); w++) {
		n = names_capacity(NAMES_FIXED, widths[w]);
		if (n > 2345)
			n = 2345;
		assert_int_equal(names_build(&t, NAMES_FIXED, widths[w], n, 1,
		    0), 0);
		assert_int_equal(t.n, n);
		for (i = 0; i < n; i++) {
			(void)snprintf(want, sizeof(want), "%0*" PRIu64,
			    (int)widths[w], i);
			assert_string_equal(names_get(&t, i), want);
			assert_true(names_lookup(&t, want, &idx));
			assert_int_equal(idx, i);
		}
		names_free(&t);
		assert_null(t.buf);
	}
}

static void
test_fixed_limits(void **state)
{
	struct names	t;

	(void)state;
	assert_int_equal(names_capacity(NAMES_FIXED, 3), 1000);
	assert_int_equal(names_capacity(NAMES_FIXED, 8), 100000000);
	assert_int_equal(names_capacity(NAMES_FIXED, 20), UINT32_MAX);
	assert_int_equal(names_capacity(NAMES_MAILDIR, 0), UINT32_MAX);
	assert_int_equal(names_build(&t, NAMES_FIXED, 3, 1000, 0, 0), 0);
	assert_string_equal(names_get(&t, 999), "999");
	names_free(&t);
	assert_int_equal(names_build(&t, NAMES_FIXED, 3, 1001, 0, 0), -1);
	assert_int_equal(errno, ERANGE);
	assert_int_equal(names_build(&t, NAMES_FIXED, 0, 10, 0, 0), -1);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(names_build(&t, NAMES_FIXED, 256, 10, 0, 0), -1);
	assert_int_equal(errno, EINVAL);
}

static void
test_lookup_refuses(void **state)
{
	static const char *const bad[] = {
		"", "0000000", "000000000", "00000100", "0000001x", "-0000001",
		"+0000001", " 0000001", "00000001 ", "abcdefgh", ".", "..",
		"00001234.M1P1Q1.mx1.example.org,S=0:2,",
	};
	struct names	t;
	uint64_t	idx;
	size_t		i;

	(void)state;
	assert_int_equal(names_build(&t, NAMES_FIXED, 8, 100, 0, 0), 0);
	for (i = 0; i < NELEM(bad); i++)
		if (names_lookup(&t, bad[i], &idx))
			fail_msg("'%s' taken for a name of the table", bad[i]);
	names_free(&t);
}

static void
test_maildir(void **state)
{
	struct names	 t, u;
	const char	**sorted;
	uint64_t	 i, n = 20000, idx;
	char		 near[128];

	(void)state;
	assert_int_equal(names_build(&t, NAMES_MAILDIR, 0, n, 42, 4096), 0);
	sorted = calloc(n, sizeof(*sorted));
	assert_non_null(sorted);
	for (i = 0; i < n; i++) {
		const char	*s = names_get(&t, i);

		assert_true(names_match(NAMES_MAILDIR, 0, s));
		assert_false(names_match(NAMES_FIXED, 8, s));
		assert_non_null(strstr(s, ",S=4096:2,"));
		assert_true(strlen(s) < t.stride);
		assert_true(names_lookup(&t, s, &idx));
		assert_int_equal(idx, i);
		sorted[i] = s;
	}
	/* All distinct. */
	qsort(sorted, n, sizeof(*sorted), cmp_str);
	for (i = 1; i < n; i++)
		assert_string_not_equal(sorted[i - 1], sorted[i]);
	free(sorted);

	/* A name with a valid Q but another body is not ours. */
	(void)snprintf(near, sizeof(near), "%s", names_get(&t, 7));
	near[0] = near[0] == '9' ? '8' : '9';
	assert_false(names_lookup(&t, near, &idx));

	/* Same seed: same names; the table of n is a prefix of 2n's. */
	assert_int_equal(names_build(&u, NAMES_MAILDIR, 0, 2 * n, 42, 4096),
	    0);
	for (i = 0; i < n; i += 997)
		assert_string_equal(names_get(&t, i), names_get(&u, i));
	names_free(&u);
	/* Another seed: other names. */
	assert_int_equal(names_build(&u, NAMES_MAILDIR, 0, n, 43, 4096), 0);
	assert_string_not_equal(names_get(&t, 5), names_get(&u, 5));
	names_free(&u);
	names_free(&t);
}

static void
test_match(void **state)
{
	static const struct {
		enum names_kind	 kind;
		unsigned	 len;
		const char	*name;
		bool		 want;
	} tab[] = {
		{ NAMES_FIXED, 8, "00000000", true },
		{ NAMES_FIXED, 8, "99999999", true },
		{ NAMES_FIXED, 8, "0000000", false },
		{ NAMES_FIXED, 8, "0000000a", false },
		{ NAMES_FIXED, 8, "keep.txt", false },
		{ NAMES_FIXED, 3, "123", true },
		{ NAMES_MAILDIR, 0,
		    "1700000000.M12P4321Q0.mx1.example.org,S=0:2,", true },
		{ NAMES_MAILDIR, 0,
		    "1700000000.M12P4321Q0.mx1.example.org,S=0:2,x", false },
		{ NAMES_MAILDIR, 0,
		    "1700000000.M12P4321Q0.mx2.example.org,S=0:2,", false },
		{ NAMES_MAILDIR, 0, "1700000000.M12P4321.mx1.example.org", false },
		{ NAMES_MAILDIR, 0, "00000001", false },
	};
	size_t	i;

	(void)state;
	for (i = 0; i < NELEM(tab); i++)
		if (names_match(tab[i].kind, tab[i].len, tab[i].name) !=
		    tab[i].want)
			fail_msg("names_match(%s, %u, '%s') != %d",
			    names_kind_name(tab[i].kind), tab[i].len,
			    tab[i].name, tab[i].want);
}

/*
 * A mailbox's sizes: within the range, the same for the same seed and
 * message, spread over it (log-uniform: about as many below the
 * geometric mean as above), and carried by the names (S=).
 */
static void
test_mail_size(void **state)
{
	struct names	t;
	uint64_t	i, s, below = 0;
	char		want[32];

	(void)state;
	assert_int_equal(names_mail_size(7, 3, 4096, 0), 4096);
	assert_int_equal(names_mail_size(7, 3, 4096, 4096), 4096);
	for (i = 0; i < 10000; i++) {
		s = names_mail_size(7, i, 1024, 65536);
		assert_true(s >= 1024 && s <= 65536);
		assert_int_equal(s, names_mail_size(7, i, 1024, 65536));
		below += s < 8192;
	}
	assert_true(below > 4500 && below < 5500);
	assert_true(names_mail_size(7, 1, 1024, 65536) !=
	    names_mail_size(8, 1, 1024, 65536) ||
	    names_mail_size(7, 2, 1024, 65536) !=
	    names_mail_size(8, 2, 1024, 65536));
	assert_int_equal(names_build_sized(&t, NAMES_MAILDIR, 0, 50, 7, 1024,
	    65536), 0);
	for (i = 0; i < 50; i++) {
		(void)snprintf(want, sizeof(want), ",S=%llu:2,",
		    (unsigned long long)names_mail_size(7, i, 1024, 65536));
		assert_non_null(strstr(names_get(&t, i), want));
	}
	names_free(&t);
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test(test_mail_size),
		cmocka_unit_test(test_fixed),
		cmocka_unit_test(test_fixed_limits),
		cmocka_unit_test(test_lookup_refuses),
		cmocka_unit_test(test_maildir),
		cmocka_unit_test(test_match),
	};

	return cmocka_run_group_tests_name("names", tests, NULL, NULL);
}
