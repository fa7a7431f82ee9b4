/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * parse: see parse.h.  The parsers follow strtonum(3): the whole string
 * must be the number (no leading blanks, no trailing garbage),
 * out-of-range values are refused, and on failure 'errstr' points to a
 * short phrase ("invalid", "too small", "too large") that the caller puts
 * after the option's name.
 */

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/parse.h"
#include "base/util.h"

static double	leading_number(const char *, const char **);

/*
 * Parse the decimal integer 's' in ['min', 'max'].  On success return it
 * and set '*errstr' to NULL; otherwise return 0 and point '*errstr' at
 * "invalid", "too small" or "too large" (errno EINVAL or ERANGE).
 */
long long
parse_num(const char *s, long long min, long long max, const char **errstr)
{
	char		*end;
	long long	 v;

	*errstr = "invalid";
	if (s == NULL || *s == '\0' || isspace((unsigned char)*s)) {
		errno = EINVAL;
		return 0;
	}
	errno = 0;
	v = strtoll(s, &end, 10);
	if (*end != '\0') {
		errno = EINVAL;
		return 0;
	}
	if ((errno == ERANGE && v == LLONG_MIN) || v < min) {
		*errstr = "too small";
		errno = ERANGE;
		return 0;
	}
	if ((errno == ERANGE && v == LLONG_MAX) || v > max) {
		*errstr = "too large";
		errno = ERANGE;
		return 0;
	}
	*errstr = NULL;
	return v;
}

/*
 * Parse the finite decimal number 's' into '*out'.  It must be greater
 * than 'gt' and at most 'max'.  Return 0, or -1 with '*errstr' set.
 */
int
parse_double(const char *s, double gt, double max, double *out,
    const char **errstr)
{
	char	*end;
	double	 v;

	*errstr = "invalid";
	if (s == NULL || *s == '\0' || isspace((unsigned char)*s)) {
		errno = EINVAL;
		return -1;
	}
	if (strpbrk(s, "xXpP") != NULL) {	/* strtod's hex floats */
		errno = EINVAL;
		return -1;
	}
	errno = 0;
	v = strtod(s, &end);
	if (*end != '\0' || !isfinite(v) || errno == ERANGE) {
		errno = EINVAL;
		return -1;
	}
	if (!(v > gt)) {
		*errstr = "too small";
		errno = ERANGE;
		return -1;
	}
	if (v > max) {
		*errstr = "too large";
		errno = ERANGE;
		return -1;
	}
	*errstr = NULL;
	*out = v;
	return 0;
}

/*
 * Split 's' into a non-negative decimal number (digits, optionally a
 * fraction) and the suffix after it.  Return the number, or -1 if there
 * is none or it does not fit.
 */
static double
leading_number(const char *s, const char **suffix)
{
	char	*end;
	double	 v;

	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno == ERANGE || !isfinite(v))
		return -1;
	/* strtod accepts hex and exponents; we want plain decimals. */
	for (const char *p = s; p < end; p++)
		if (!isdigit((unsigned char)*p) && *p != '.')
			return -1;
	*suffix = end;
	return v;
}

/*
 * Parse a byte count such as "0", "512", "4k", "1M", "2G", "1.5k",
 * "1KiB", "4kB" (binary multiples; "B", "b", "iB" may follow the letter)
 * into '*out', which must be at most 'max'.  Whole numbers are parsed as
 * integers, so every value up to 2^64 - 1 is exact; a fraction must come
 * to a whole number of bytes.  Return 0, or -1 with '*errstr'.
 */
int
parse_size(const char *s, uint64_t max, uint64_t *out, const char **errstr)
{
	static const char	 units[] = "kmgtpe";
	const char		*suf, *u;
	char			*end;
	uint64_t		 mul = 1, whole;
	double			 v;
	int			 shift = 0;

	*errstr = "invalid";
	if (s == NULL || (v = leading_number(s, &suf)) < 0) {
		errno = EINVAL;
		return -1;
	}
	if (*suf != '\0' && (u = strchr(units, tolower((unsigned char)*suf))) !=
	    NULL) {
		shift = 10 * (int)(u - units + 1);
		mul = (uint64_t)1 << shift;
		suf++;
	}
	if (*suf != '\0' && strcmp(suf, "B") != 0 && strcmp(suf, "b") != 0 &&
	    (shift == 0 || (strcmp(suf, "iB") != 0 && strcmp(suf, "ib") != 0))) {
		errno = EINVAL;
		return -1;
	}
	if (memchr(s, '.', (size_t)(suf - s)) == NULL) {
		errno = 0;
		whole = strtoull(s, &end, 10);
		if (errno == ERANGE || whole > max / mul) {
			*errstr = "too large";
			errno = ERANGE;
			return -1;
		}
		*out = whole * mul;
	} else {
		v = ldexp(v, shift);
		if (v != floor(v)) {
			errno = EINVAL;
			return -1;
		}
		if (v >= 18446744073709551616.0 || v > (double)max) {
			*errstr = "too large";
			errno = ERANGE;
			return -1;
		}
		*out = (uint64_t)v;
	}
	*errstr = NULL;
	return 0;
}

/*
 * Parse a duration such as "90s", "5m", "1h", "500ms", "1.5h" or a bare
 * number of seconds into nanoseconds in '*out_ns'; it must be positive
 * and at most 'max_ns'.  Units: ns, us, ms, s, m, h, d.  Return 0, or -1
 * with '*errstr' set.
 */
int
parse_duration(const char *s, uint64_t max_ns, uint64_t *out_ns,
    const char **errstr)
{
	static const struct {
		const char	*name;
		double		 ns;
	} units[] = {
		{ "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 },
		{ "", 1e9 }, { "m", 60e9 }, { "min", 60e9 }, { "h", 3600e9 },
		{ "d", 86400e9 },
	};
	const char	*suf;
	double		 v;
	size_t		 i;

	*errstr = "invalid";
	if (s == NULL || (v = leading_number(s, &suf)) < 0) {
		errno = EINVAL;
		return -1;
	}
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (strcmp(suf, units[i].name) == 0)
			break;
	if (i == sizeof(units) / sizeof(units[0])) {
		errno = EINVAL;
		return -1;
	}
	v *= units[i].ns;
	if (v < 1) {
		*errstr = "too small";
		errno = ERANGE;
		return -1;
	}
	if (v >= 18446744073709551616.0 || v > (double)max_ns) {
		*errstr = "too large";
		errno = ERANGE;
		return -1;
	}
	*errstr = NULL;
	*out_ns = (uint64_t)(v + 0.5) < (uint64_t)v ? (uint64_t)v :
	    (uint64_t)(v + 0.5);
	return 0;
}
