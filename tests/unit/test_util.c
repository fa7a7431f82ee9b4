/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * Unit tests for util.c: the strict parsers (table-driven, like fio's
 * unittests/lib/num2str.c, each row with its expected value or error
 * phrase), splitmix64 against outputs of the reference algorithm,
 * util_below's range, the human-readable formats as golden strings, the
 * UTF-8 check of whole strings and the splitting of comma lists.
 */

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/parse.h"
#include "base/util.h"

#define NELEM(a)	(sizeof(a) / sizeof((a)[0]))
#define SEC		NS_PER_S

static const char	*show(const char *);

/* A printable errstr for messages. */
static const char *
show(const char *s)
{
	return s == NULL ? "(null)" : s;
}

/* ===== Parsers ===== */

static void
test_parse_num(void **state)
{
	static const struct {
		const char	*s;
		long long	 min, max;
		long long	 want;
		const char	*err;
	} tab[] = {
		{ "0", 0, 10, 0, NULL },
		{ "42", 0, 100, 42, NULL },
		{ "-5", -10, 10, -5, NULL },
		{ "10", 0, 10, 10, NULL },
		{ "9223372036854775807", 0, LLONG_MAX, LLONG_MAX, NULL },
		{ "-9223372036854775808", LLONG_MIN, 0, LLONG_MIN, NULL },
		{ "", 0, 10, 0, "invalid" },
		{ " 1", 0, 10, 0, "invalid" },
		{ "1 ", 0, 10, 0, "invalid" },
		{ "1x", 0, 10, 0, "invalid" },
		{ "0x10", 0, 100, 0, "invalid" },
		{ "abc", 0, 10, 0, "invalid" },
		{ "-", 0, 10, 0, "invalid" },
		{ "1.5", 0, 10, 0, "invalid" },
		{ "99999999999999999999", 0, LLONG_MAX, 0, "too large" },
		{ "-99999999999999999999", LLONG_MIN, 0, 0, "too small" },
		{ "4", 5, 10, 0, "too small" },
		{ "-11", -10, 10, 0, "too small" },
		{ "11", 0, 10, 0, "too large" },
	};
	const char	*err;
	long long	 got;
	size_t		 i;

	(void)state;
	for (i = 0; i < NELEM(tab); i++) {
		err = "unset";
		errno = 0;
		got = parse_num(tab[i].s, tab[i].min, tab[i].max, &err);
		if (got != tab[i].want ||
		    (err == NULL) != (tab[i].err == NULL) ||
		    (err != NULL && strcmp(err, tab[i].err) != 0))
			fail_msg("parse_num(\"%s\") = %lld, %s; want %lld, %s",
			    tab[i].s, got, show(err), tab[i].want,
			    show(tab[i].err));
		if (tab[i].err != NULL)
			assert_int_equal(errno,
			    strcmp(tab[i].err, "invalid") == 0 ? EINVAL :
			    ERANGE);
	}
}

static void
test_parse_double(void **state)
{
	static const struct {
		const char	*s;
		double		 gt, max;
		double		 want;
		const char	*err;
	} tab[] = {
		{ "1.5", 0, 10, 1.5, NULL },
		{ "10", 0, 10, 10, NULL },
		{ "-0.5", -1, 1, -0.5, NULL },
		{ "1.01", 1, 100, 1.01, NULL },
		{ "1e3", 0, 1e6, 1000, NULL },	/* strtod syntax is fine */
		{ "1", 1, 10, 0, "too small" },	/* greater than 'gt' */
		{ "0.5", 1, 10, 0, "too small" },
		{ "10.5", 0, 10, 0, "too large" },
		{ "", 0, 10, 0, "invalid" },
		{ " 1.5", 0, 10, 0, "invalid" },
		{ "1.5 ", 0, 10, 0, "invalid" },
		{ "1.5x", 0, 10, 0, "invalid" },
		{ "1,5", 0, 10, 0, "invalid" },
		{ "x", 0, 10, 0, "invalid" },
		{ "nan", 0, 10, 0, "invalid" },
		{ "inf", 0, 10, 0, "invalid" },
		{ "-inf", -1e308, 10, 0, "invalid" },
		{ "1e999", 0, 1e308, 0, "invalid" },
		{ "0x10", 0, 100, 0, "invalid" },	/* hex floats: no */
		{ "0x1p3", 0, 100, 0, "invalid" },
	};
	const char	*err;
	double		 got;
	size_t		 i;
	int		 r;

	(void)state;
	for (i = 0; i < NELEM(tab); i++) {
		err = "unset";
		got = -12345;
		r = parse_double(tab[i].s, tab[i].gt, tab[i].max, &got, &err);
		if (tab[i].err == NULL) {
			if (r != 0 || err != NULL || got != tab[i].want)
				fail_msg("parse_double(\"%s\") = %d, %g, %s",
				    tab[i].s, r, got, show(err));
		} else if (r != -1 || err == NULL ||
		    strcmp(err, tab[i].err) != 0)
			fail_msg("parse_double(\"%s\") = %d, %s; want %s",
			    tab[i].s, r, show(err), tab[i].err);
	}
}

static void
test_parse_size(void **state)
{
	static const struct {
		const char	*s;
		uint64_t	 max;
		uint64_t	 want;
		const char	*err;
	} tab[] = {
		{ "0", UINT64_MAX, 0, NULL },
		{ "512", UINT64_MAX, 512, NULL },
		{ "4k", UINT64_MAX, 4096, NULL },
		{ "4K", UINT64_MAX, 4096, NULL },
		{ "1M", UINT64_MAX, 1048576, NULL },
		{ "2G", UINT64_MAX, 2147483648ULL, NULL },
		{ "1T", UINT64_MAX, 1ULL << 40, NULL },
		{ "15E", UINT64_MAX, 15ULL << 60, NULL },
		{ "1.5k", UINT64_MAX, 1536, NULL },
		{ "1.5GiB", UINT64_MAX, 3ULL << 29, NULL },
		{ "1KiB", UINT64_MAX, 1024, NULL },
		{ "1kB", UINT64_MAX, 1024, NULL },
		{ "1B", UINT64_MAX, 1, NULL },
		{ "4kb", UINT64_MAX, 4096, NULL },
		{ "9007199254740993", UINT64_MAX, 9007199254740993ULL, NULL },
		{ "18446744073709551615", UINT64_MAX, UINT64_MAX, NULL },
		{ "18446744073709551616", UINT64_MAX, 0, "too large" },
		{ "16E", UINT64_MAX, 0, "too large" },
		{ "1000", 1000, 1000, NULL },
		{ "k", UINT64_MAX, 0, "invalid" },
		{ "-1", UINT64_MAX, 0, "invalid" },
		{ "1x", UINT64_MAX, 0, "invalid" },
		{ "1.3", UINT64_MAX, 0, "invalid" },	/* not whole bytes */
		{ "0.5k", UINT64_MAX, 512, NULL },
		{ "1kk", UINT64_MAX, 0, "invalid" },
		{ "1KiBx", UINT64_MAX, 0, "invalid" },
		{ " 1", UINT64_MAX, 0, "invalid" },
		{ "1 ", UINT64_MAX, 0, "invalid" },
		{ "", UINT64_MAX, 0, "invalid" },
		{ "1e3", UINT64_MAX, 0, "invalid" },
		{ "0x10", UINT64_MAX, 0, "invalid" },
		{ "16E", UINT64_MAX, 0, "too large" },
		{ "99999999999999999999999", UINT64_MAX, 0, "too large" },
		{ "1k", 1000, 0, "too large" },
		{ "1001", 1000, 0, "too large" },
	};
	const char	*err;
	uint64_t	 got;
	size_t		 i;
	int		 r;

	(void)state;
	for (i = 0; i < NELEM(tab); i++) {
		err = "unset";
		got = 12345;
		r = parse_size(tab[i].s, tab[i].max, &got, &err);
		if (tab[i].err == NULL) {
			if (r != 0 || err != NULL || got != tab[i].want)
				fail_msg("parse_size(\"%s\") = %d, %llu, %s",
				    tab[i].s, r, (unsigned long long)got,
				    show(err));
		} else if (r != -1 || err == NULL ||
		    strcmp(err, tab[i].err) != 0)
			fail_msg("parse_size(\"%s\") = %d, %s; want %s",
			    tab[i].s, r, show(err), tab[i].err);
	}
}

static void
test_parse_duration(void **state)
{
	static const struct {
		const char	*s;
		uint64_t	 max_ns;
		uint64_t	 want;
		const char	*err;
	} tab[] = {
		{ "90s", UINT64_MAX / 2, 90 * SEC, NULL },
		{ "5m", UINT64_MAX / 2, 300 * SEC, NULL },
		{ "2min", UINT64_MAX / 2, 120 * SEC, NULL },
		{ "1h", UINT64_MAX / 2, 3600 * SEC, NULL },
		{ "500ms", UINT64_MAX / 2, 500 * NS_PER_MS, NULL },
		{ "1.5h", UINT64_MAX / 2, 5400 * SEC, NULL },
		{ "30", UINT64_MAX / 2, 30 * SEC, NULL },
		{ "0.25", UINT64_MAX / 2, SEC / 4, NULL },
		{ "1d", UINT64_MAX / 2, 86400 * SEC, NULL },
		{ "100us", UINT64_MAX / 2, 100 * NS_PER_US, NULL },
		{ "7ns", UINT64_MAX / 2, 7, NULL },
		{ "1h", 3600 * SEC, 3600 * SEC, NULL },
		{ "-5", UINT64_MAX / 2, 0, "invalid" },
		{ "5x", UINT64_MAX / 2, 0, "invalid" },
		{ "", UINT64_MAX / 2, 0, "invalid" },
		{ "m", UINT64_MAX / 2, 0, "invalid" },
		{ "5 m", UINT64_MAX / 2, 0, "invalid" },
		{ " 5m", UINT64_MAX / 2, 0, "invalid" },
		{ "1e3s", UINT64_MAX / 2, 0, "invalid" },
		{ "0x10s", UINT64_MAX / 2, 0, "invalid" },
		{ "0", UINT64_MAX / 2, 0, "too small" },
		{ "0ms", UINT64_MAX / 2, 0, "too small" },
		{ "0.5ns", UINT64_MAX / 2, 0, "too small" },
		{ "2h", 3600 * SEC, 0, "too large" },
		{ "3601s", 3600 * SEC, 0, "too large" },
		{ "99999999999999999999d", UINT64_MAX / 2, 0, "too large" },
		{ "10000000000s", UINT64_MAX, 10000000000ULL * SEC, NULL },
		{ "18446744074s", UINT64_MAX, 0, "too large" },
	};
	const char	*err;
	uint64_t	 got;
	size_t		 i;
	int		 r;

	(void)state;
	for (i = 0; i < NELEM(tab); i++) {
		err = "unset";
		got = 12345;
		r = parse_duration(tab[i].s, tab[i].max_ns, &got, &err);
		if (tab[i].err == NULL) {
			if (r != 0 || err != NULL || got != tab[i].want)
				fail_msg("parse_duration(\"%s\") = %d, %llu, "
				    "%s", tab[i].s, r,
				    (unsigned long long)got, show(err));
		} else if (r != -1 || err == NULL ||
		    strcmp(err, tab[i].err) != 0)
			fail_msg("parse_duration(\"%s\") = %d, %s; want %s",
			    tab[i].s, r, show(err), tab[i].err);
	}
}

/* ===== Randomness ===== */

static void
test_splitmix64(void **state)
{
	/* From the reference algorithm (Steele, Lea and Flood; Vigna). */
	static const uint64_t	seed0[] = {
		0xe220a8397b1dcdafULL, 0x6e789e6aa1b965f4ULL,
		0x06c45d188009454fULL, 0xf88bb8a8724c81ecULL,
		0x1b39896a51a8749bULL,
	};
	uint64_t	st = 0;
	size_t		i;

	(void)state;
	for (i = 0; i < NELEM(seed0); i++)
		assert_int_equal(util_splitmix64(&st), seed0[i]);
	/* The state is a Weyl sequence: it moves by the golden gamma. */
	assert_int_equal(st, 5 * 0x9e3779b97f4a7c15ULL);
	st = 42;
	assert_int_equal(util_splitmix64(&st), 0xbdd732262feb6e95ULL);
}

static void
test_below(void **state)
{
	static const uint64_t	bounds[] = {
		1, 2, 3, 7, 10, 1000, (1ULL << 63) + 1, UINT64_MAX
	};
	uint64_t	st, a, b, r;
	size_t		i, j;
	unsigned	seen[7];

	(void)state;
	st = 1;
	for (i = 0; i < NELEM(bounds); i++)
		for (j = 0; j < 10000; j++)
			if ((r = util_below(&st, bounds[i])) >= bounds[i])
				fail_msg("util_below(%llu) = %llu",
				    (unsigned long long)bounds[i],
				    (unsigned long long)r);

	/* Every value of a small bound comes up, roughly evenly. */
	memset(seen, 0, sizeof(seen));
	for (j = 0; j < 7000; j++)
		seen[util_below(&st, 7)]++;
	for (i = 0; i < 7; i++)
		assert_in_range(seen[i], 800, 1200);

	/*
	 * No modulo bias: with a bound of 3 * 2^62, a plain r % bound would
	 * put half the draws below 2^62 instead of a third.
	 */
	for (j = 0, r = 0; j < 3000; j++)
		if (util_below(&st, 3ULL << 62) < 1ULL << 62)
			r++;
	assert_in_range(r, 850, 1150);

	/* Same seed, same sequence. */
	a = b = 12345;
	for (j = 0; j < 100; j++)
		assert_int_equal(util_below(&a, 1000), util_below(&b, 1000));
}

/* ===== Formatting ===== */

static void
test_fmt_duration(void **state)
{
	static const struct {
		uint64_t	 ns;
		const char	*want;
	} tab[] = {
		{ 0, "0ns" },
		{ 850, "850ns" },
		{ 999, "999ns" },
		{ 1000, "1.0us" },
		{ 12345, "12.3us" },
		{ 4560000, "4.56ms" },
		{ 7890000000ULL, "7.89s" },
		{ 59400000000ULL, "59.40s" },
		{ 60 * SEC, "1m00s" },
		{ 125 * SEC, "2m05s" },
		{ 125 * SEC + SEC / 2, "2m06s" },
		{ 3720 * SEC, "1h02m" },
		{ 100 * 3600 * SEC, "100h00m" },
		{ 999949, "999.9us" },		/* the unit follows rounding */
		{ 999999, "1.00ms" },
		{ 999995000, "1.00s" },
		{ 59999000000ULL, "1m00s" },
	};
	char	buf[32];
	size_t	i;

	(void)state;
	for (i = 0; i < NELEM(tab); i++) {
		util_fmt_duration(buf, sizeof(buf), tab[i].ns);
		assert_string_equal(buf, tab[i].want);
	}
}

static void
test_fmt_rate(void **state)
{
	static const struct {
		double		 rate;
		const char	*want;
	} tab[] = {
		{ 0, "0.0" },
		{ 12.34, "12.3" },
		{ 999.9, "999.9" },
		{ 1000, "1.0k" },
		{ 350100, "350.1k" },
		{ 2500000, "2.50M" },
		{ 3e9, "3.00G" },
		{ 999.96, "1.0k" },		/* the unit follows rounding */
		{ 999999, "1.00M" },
	};
	char	buf[32];
	size_t	i;

	(void)state;
	for (i = 0; i < NELEM(tab); i++) {
		util_fmt_rate(buf, sizeof(buf), tab[i].rate);
		assert_string_equal(buf, tab[i].want);
	}
}

static void
test_fmt_count(void **state)
{
	static const struct {
		uint64_t	 v;
		const char	*want;
	} tab[] = {
		{ 0, "0" },
		{ 7, "7" },
		{ 999, "999" },
		{ 1000, "1,000" },
		{ 12345, "12,345" },
		{ 123456, "123,456" },
		{ 1234567, "1,234,567" },
		{ UINT64_MAX, "18,446,744,073,709,551,615" },
	};
	char	buf[32];
	size_t	i;

	(void)state;
	for (i = 0; i < NELEM(tab); i++) {
		util_fmt_count(buf, sizeof(buf), tab[i].v);
		assert_string_equal(buf, tab[i].want);
	}
	/* A short buffer is still terminated inside its length. */
	memset(buf, 'x', sizeof(buf));
	util_fmt_count(buf, 4, 1234567);
	assert_true(strlen(buf) < 4);
	assert_int_equal(buf[4], 'x');
}

/* Whole strings: well-formed UTF-8, or the offset of the first bad byte. */
static void
test_utf8_valid(void **state)
{
	static const struct {
		const char	*s;
		bool		 ok;
		size_t		 bad;
	} tab[] = {
		{ "", true, 0 },
		{ "plain ASCII, 7 bits", true, 0 },
		{ "gr\xc3\xbc\xc3\x9f" "e", true, 0 },	/* grüße */
		{ "\xe2\x82\xac \xf0\x9f\x98\x80", true, 0 }, /* € 😀 */
		{ "\xef\xbf\xbd", true, 0 },			/* U+FFFD */
		{ "\xf4\x8f\xbf\xbf", true, 0 },		/* U+10FFFF */
		{ "caf\xe9", false, 3 },			/* Latin-1 */
		{ "caf\xe9 au lait", false, 3 },
		{ "\xff", false, 0 },
		{ "ok \x80", false, 3 },	/* a stray continuation */
		{ "\xc0\xaf", false, 0 },		/* overlong '/' */
		{ "\xe0\x80\xaf", false, 0 },	/* overlong, 3 bytes */
		{ "ab\xed\xa0\x80", false, 2 },	/* a surrogate */
		{ "\xf4\x90\x80\x80", false, 0 },	/* above U+10FFFF */
		{ "\xc3\xbc\xe2\x82", false, 2 },	/* cut short */
		{ "x\xf0\x9f\x98", false, 1 },
	};
	size_t	i, bad;

	(void)state;
	for (i = 0; i < NELEM(tab); i++) {
		bad = 12345;
		if (util_utf8_valid(tab[i].s, &bad) != tab[i].ok)
			fail_msg("row %zu: not %s", i, tab[i].ok ? "valid" :
			    "refused");
		assert_int_equal(bad, tab[i].ok ? 12345 : tab[i].bad);
		assert_int_equal(util_utf8_valid(tab[i].s, NULL), tab[i].ok);
	}
}

/* Comma lists: the elements, or NULL for an empty one anywhere. */
static void
test_list_split(void **state)
{
	static const struct {
		const char	*s;
		size_t		 n;		/* 0: refused */
		const char	*want[4];
	} tab[] = {
		{ "a", 1, { "a" } },
		{ "create,open,delete", 3, { "create", "open", "delete" } },
		{ "1, 2", 2, { "1", " 2" } },		/* blanks are kept */
		{ " ", 1, { " " } },
		{ "", 0, { NULL } },
		{ ",", 0, { NULL } },
		{ "1,,2", 0, { NULL } },
		{ ",1", 0, { NULL } },
		{ "1,", 0, { NULL } },
		{ "a,b,,", 0, { NULL } },
	};
	char	**v;
	size_t	  i, j, n;

	(void)state;
	for (i = 0; i < NELEM(tab); i++) {
		n = 12345;
		errno = 0;
		v = util_list_split(tab[i].s, &n);
		if (tab[i].n == 0) {
			if (v != NULL)
				fail_msg("'%s' accepted", tab[i].s);
			assert_int_equal(errno, EINVAL);
			assert_int_equal(n, 12345);
			continue;
		}
		if (v == NULL)
			fail_msg("'%s' refused", tab[i].s);
		assert_int_equal(n, tab[i].n);
		for (j = 0; j < n; j++)
			assert_string_equal(v[j], tab[i].want[j]);
		assert_null(v[n]);
		free(v);
	}
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test(test_parse_num),
		cmocka_unit_test(test_parse_double),
		cmocka_unit_test(test_parse_size),
		cmocka_unit_test(test_parse_duration),
		cmocka_unit_test(test_splitmix64),
		cmocka_unit_test(test_below),
		cmocka_unit_test(test_fmt_duration),
		cmocka_unit_test(test_fmt_rate),
		cmocka_unit_test(test_fmt_count),
		cmocka_unit_test(test_utf8_valid),
		cmocka_unit_test(test_list_split),
	};

	return cmocka_run_group_tests_name("util", tests, NULL, NULL);
}
