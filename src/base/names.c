/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * names: see names.h.
 *
 * Maildir names follow the Maildir specification's "time.MusecPpidQn.host"
 * form plus the ",S=size" and ":2," info that Dovecot and Courier append:
 *
 *	1764412345.M123456P54321Q1234.mx1.example.org,S=0:2,
 *
 * time counts up as if 1000 messages arrived per second from a fixed
 * epoch, M (microseconds) and P (pid) come from the seed, and Q is the
 * file's index, which makes every name unique and lets names_lookup()
 * find it again.  The host is fixed so the length of a name never depends
 * on the machine.
 */

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/names.h"
#include "base/util.h"

#define MAILDIR_EPOCH	UINT64_C(1700000000)	/* 2023-11-14, ten digits */
#define MAILDIR_HOST	"mx1.example.org"
#define MAILDIR_MAX	96		/* longest maildir name + NUL */

static uint64_t	 pow10_u64(unsigned);
static int	 maildir_name(char *, size_t, uint64_t, uint64_t, uint64_t,
		    uint64_t);
static uint64_t	 maildir_usec(uint64_t, uint64_t);
static bool	 parse_digits(const char **, uint64_t *);

static uint64_t
pow10_u64(unsigned e)
{
	uint64_t	v = 1;

	while (e-- > 0) {
		if (v > UINT64_MAX / 10)
			return UINT64_MAX;
		v *= 10;
	}
	return v;
}

/*
 * How many distinct names of kind 'kind' and width 'len' exist: 10^len
 * for fixed names, capped by the uint32_t the shuffle uses; 2^32 - 1 for
 * maildir names.
 */
uint64_t
names_capacity(enum names_kind kind, unsigned len)
{
	uint64_t	cap;

	if (kind == NAMES_MAILDIR)
		return UINT32_MAX;
	cap = pow10_u64(len);
	return cap < UINT32_MAX ? cap : UINT32_MAX;
}

/* The M (microseconds) field of maildir name 'i': scattered, repeatable. */
static uint64_t
maildir_usec(uint64_t usec_base, uint64_t i)
{
	return (usec_base + i * 7919) % 1000000;
}

/* Format maildir name 'i' into 'buf'; return its length. */
static int
maildir_name(char *buf, size_t len, uint64_t i, uint64_t usec, uint64_t pid,
    uint64_t size)
{
	return snprintf(buf, len, "%" PRIu64 ".M%" PRIu64 "P%" PRIu64
	    "Q%" PRIu64 "." MAILDIR_HOST ",S=%" PRIu64 NAMES_INFO,
	    MAILDIR_EPOCH + i / 1000, usec, pid, i, size);
}

/*
 * Fill 't' with 'n' names of kind 'kind' ('len' characters wide for fixed
 * names; ignored for maildir), derived from 'seed' and 'size_bytes' (the
 * file size maildir names carry).  Return 0, or -1 with errno ERANGE if
 * 'n' exceeds names_capacity(), EINVAL for a bad width.  Free with
 * names_free().
 */
int
names_build(struct names *t, enum names_kind kind, unsigned len, uint64_t n,
    uint64_t seed, uint64_t size_bytes)
{
	return names_build_sized(t, kind, len, n, seed, size_bytes, 0);
}

/*
 * names_build(), with maildir names that carry the size of message i as
 * names_mail_size() draws it between 'size_bytes' and 'size_max' (0:
 * 'size_bytes' for all).
 */
int
names_build_sized(struct names *t, enum names_kind kind, unsigned len,
    uint64_t n, uint64_t seed, uint64_t size_bytes, uint64_t size_max)
{
	uint64_t	 state = seed, usec_base, pid, i;
	char		 tmp[MAILDIR_MAX], digits[NAMES_MAX_LEN + 1];
	char		*p, *d;
	int		 w;

	memset(t, 0, sizeof(*t));
	if (kind == NAMES_FIXED && (len == 0 || len > NAMES_MAX_LEN)) {
		errno = EINVAL;
		return -1;
	}
	if (n > names_capacity(kind, len)) {
		errno = ERANGE;
		return -1;
	}
	t->kind = kind;
	t->n = n;
	if (kind == NAMES_FIXED) {
		t->len = len;
		t->stride = len + 1;
		t->buf = xreallocarray(NULL, n, t->stride);
		/*
		 * Count in decimal in place: the same bytes as n snprintf
		 * calls, at a fraction of the cost for a 10^7-entry table.
		 */
		memset(digits, '0', len);
		digits[len] = '\0';
		for (i = 0, p = t->buf; i < n; i++, p += t->stride) {
			memcpy(p, digits, len + 1);
			for (d = digits + len - 1; d >= digits && *d == '9'; d--)
				*d = '0';
			if (d >= digits)
				(*d)++;
		}
		return 0;
	}
	usec_base = util_below(&state, 1000000);
	pid = 1000 + util_below(&state, 4194304 - 1000);
	/*
	 * The widest name is the last one with a six-digit M field: size
	 * the stride by it.
	 */
	w = maildir_name(tmp, sizeof(tmp), n == 0 ? 0 : n - 1, 999999, pid,
	    size_max > size_bytes ? size_max : size_bytes);
	t->stride = (size_t)w + 1;
	t->buf = xreallocarray(NULL, n, t->stride);
	for (i = 0; i < n; i++)
		(void)maildir_name(t->buf + i * t->stride, t->stride, i,
		    maildir_usec(usec_base, i), pid, names_mail_size(seed, i,
		    size_bytes, size_max));
	return 0;
}

/*
 * The size of message 'i' of a run of seed 'seed' whose sizes range from
 * 'min' to 'max' bytes (max 0 or not above min: all 'min'): drawn
 * log-uniformly, so that a decade of small mails is as common as one of
 * large ones, as in a real spool, and repeatable from the seed alone.
 */
uint64_t
names_mail_size(uint64_t seed, uint64_t i, uint64_t min, uint64_t max)
{
	uint64_t	state;
	double		u, lo;

	if (max <= min)
		return min;
	state = seed ^ UINT64_C(0x6d61696c2d73697a) ^
	    i * UINT64_C(0x9e3779b97f4a7c15);
	u = (double)(util_splitmix64(&state) >> 11) * 0x1p-53;
	lo = log((double)(min > 0 ? min : 1));
	return (uint64_t)llround(exp(lo + u * (log((double)max) - lo)));
}

/* Free the table 't'. */
void
names_free(struct names *t)
{
	free(t->buf);
	memset(t, 0, sizeof(*t));
}

/* Read decimal digits at '*s' into '*v', advancing '*s'; false if none. */
static bool
parse_digits(const char **s, uint64_t *v)
{
	const char	*p = *s;

	*v = 0;
	if (*p < '0' || *p > '9')
		return false;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (*v > (UINT64_MAX - 9) / 10)
			return false;
		*v = *v * 10 + (uint64_t)(*p - '0');
	}
	*s = p;
	return true;
}

/*
 * Whether 'name' is one of the names in 't'; if so store its index in
 * '*index'.  Constant time: the index is parsed from the name and, but
 * for fixed names (exactly len digits), the table entry compared in
 * full.
 */
bool
names_lookup(const struct names *t, const char *name, uint64_t *index)
{
	const char	*p, *q;
	uint64_t	 i;

	if (t->kind == NAMES_FIXED) {
		/* len digits below n are the name of file i, no other. */
		p = name;
		if (!parse_digits(&p, &i) || (size_t)(p - name) != t->len ||
		    *p != '\0' || i >= t->n)
			return false;
		*index = i;
		return true;
	} else {
		if ((q = strchr(name, 'Q')) == NULL)
			return false;
		p = q + 1;
		if (!parse_digits(&p, &i))
			return false;
	}
	if (i >= t->n || strcmp(names_get(t, i), name) != 0)
		return false;
	*index = i;
	return true;
}

/*
 * names_lookup() for a Maildir's names, which the table holds as cur/
 * spells them ("...,S=4096:2,"): whether 'name' is one of them with the
 * info 'info' in place of ":2," ("" in new/, ":2,S" once flagged).
 */
bool
names_lookup_info(const struct names *t, const char *name, const char *info,
    uint64_t *index)
{
	const char	*p, *q, *s;
	uint64_t	 i;
	size_t		 len;

	if (t->kind != NAMES_MAILDIR || (q = strchr(name, 'Q')) == NULL)
		return false;
	p = q + 1;
	if (!parse_digits(&p, &i) || i >= t->n)
		return false;
	s = names_get(t, i);
	len = strlen(s) - (sizeof(NAMES_INFO) - 1);
	if (strncmp(s, name, len) != 0 || strcmp(name + len, info) != 0)
		return false;
	*index = i;
	return true;
}

/*
 * Whether 'name' has the shape of a name of kind 'kind' and width 'len',
 * without a table: used by --cleanup, which has only the marker's word
 * for what a dead run created.
 */
bool
names_match(enum names_kind kind, unsigned len, const char *name)
{
	const char	*p = name;
	uint64_t	 v;

	if (kind == NAMES_FIXED)
		return parse_digits(&p, &v) && (size_t)(p - name) == len &&
		    *p == '\0';
	if (!parse_digits(&p, &v) || strncmp(p, ".M", 2) != 0)
		return false;
	p += 2;
	if (!parse_digits(&p, &v) || *p++ != 'P' || !parse_digits(&p, &v) ||
	    *p++ != 'Q' || !parse_digits(&p, &v))
		return false;
	if (strncmp(p, "." MAILDIR_HOST ",S=", sizeof(MAILDIR_HOST) + 3) != 0)
		return false;
	p += sizeof(MAILDIR_HOST) + 3;
	/* As in cur/, in new/ (no info) or flagged (a Maildir's). */
	return parse_digits(&p, &v) && (strcmp(p, NAMES_INFO) == 0 ||
	    *p == '\0' || strcmp(p, NAMES_INFO "S") == 0);
}

/* The name of 'kind' as options and outputs spell it. */
const char *
names_kind_name(enum names_kind kind)
{
	return kind == NAMES_MAILDIR ? "maildir" : "fixed";
}

/* Whether 'name' is one the churn makes. */
bool
names_churn_prefix(const char *name)
{
	return strncmp(name, NAMES_CHURN_PREFIX,
	    sizeof(NAMES_CHURN_PREFIX) - 1) == 0;
}

/*
 * Whether 'name' is exactly the shape of a churn file's name: a run that
 * was killed may leave some, and cleanup removes them.
 */
bool
names_churn_match(const char *name)
{
	size_t	i, p = sizeof(NAMES_CHURN_PREFIX) - 1;

	if (!names_churn_prefix(name) || strlen(name) != p + 10)
		return false;
	for (i = p; i < p + 10; i++)
		if (name[i] < '0' || name[i] > '9')
			return false;
	return true;
}
