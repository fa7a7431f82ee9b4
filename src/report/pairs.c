/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * pairs: see pairs.h.
 */

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "base/stats.h"
#include "base/util.h"
#include "report/pairs.h"

static int	usable(double);

/*
 * Which set-up the 'i'-th repetition (from 0) of a comparison runs: A B,
 * then B A, then A B, ...
 */
enum pairs_side
pairs_side(unsigned i)
{
	return (i / 2 % 2 == 0) == (i % 2 == 0) ? PAIRS_A : PAIRS_B;
}

/* Whether 't' is a time a repetition can have taken. */
static int
usable(double t)
{
	return isfinite(t) && t > 0;
}

/*
 * The row of one phase from the times of 'k' pairs, 'a_ns[i]' and
 * 'b_ns[i]' (a pair where either is not a time, NAN for a repetition
 * that failed, does not count), each for 'entries' entries.  Return 0,
 * or -1 (EINVAL) when no pair counts.
 */
int
pairs_row(const double *a_ns, const double *b_ns, size_t k,
    double entries, struct pairs_row *row)
{
	double		a[PAIRS_MAX], b[PAIRS_MAX], pct[PAIRS_MAX];
	double		a_lo, a_hi, b_lo, b_hi, p_lo, p_hi;
	size_t		i, m = 0;

	for (i = 0; i < k && m < PAIRS_MAX; i++)
		if (usable(a_ns[i]) && usable(b_ns[i])) {
			a[m] = a_ns[i];
			b[m] = b_ns[i];
			pct[m++] = (b_ns[i] / a_ns[i] - 1) * 100;
		}
	if (m == 0) {
		errno = EINVAL;
		return -1;
	}
	a_lo = a_hi = a[0];
	b_lo = b_hi = b[0];
	p_lo = p_hi = pct[0];
	for (i = 1; i < m; i++) {
		a_lo = fmin(a_lo, a[i]);
		a_hi = fmax(a_hi, a[i]);
		b_lo = fmin(b_lo, b[i]);
		b_hi = fmax(b_hi, b[i]);
		p_lo = fmin(p_lo, pct[i]);
		p_hi = fmax(p_hi, pct[i]);
	}
	row->pairs = m;
	row->a_ns = stats_median(a, m);
	row->b_ns = stats_median(b, m);
	row->a_per_s = entries * 1e9 / row->a_ns;
	row->b_per_s = entries * 1e9 / row->b_ns;
	row->pct = (row->b_ns / row->a_ns - 1) * 100;
	row->spread = (p_hi - p_lo) / 2;
	if (m == 1)
		row->verdict = PAIRS_ONE_PAIR;
	else if (b_hi < a_lo)
		row->verdict = PAIRS_FASTER;
	else if (b_lo > a_hi)
		row->verdict = PAIRS_SLOWER;
	else
		row->verdict = PAIRS_NOISE;
	return 0;
}

/* Verdict 'v' as the table says it: "faster", "within noise", ... */
const char *
pairs_verdict_name(enum pairs_verdict v)
{
	switch (v) {
	case PAIRS_FASTER:
		return "faster";
	case PAIRS_SLOWER:
		return "slower";
	case PAIRS_NOISE:
		return "within noise";
	case PAIRS_ONE_PAIR:
		return "one pair";
	}
	return "?";
}

/*
 * One line of the plain-text table into 'buf' ('len' bytes) for phase
 * 'phase' and its 'row':
 *	mkdir       49.10s     1.0k/s     3m00s    278.2/s   +266.0% ±10.8%  slower
 */
void
pairs_format(char *buf, size_t len, const char *phase,
    const struct pairs_row *row)
{
	char	at[32], ar[32], bt[32], br[32];

	util_fmt_duration(at, sizeof(at), (uint64_t)llround(row->a_ns));
	util_fmt_duration(bt, sizeof(bt), (uint64_t)llround(row->b_ns));
	util_fmt_rate(ar, sizeof(ar), row->a_per_s);
	util_fmt_rate(br, sizeof(br), row->b_per_s);
	(void)snprintf(buf, len, "%-8s %9s %8s/s %9s %8s/s  %+7.1f%% "
	    "±%.1f%%  %s", phase, at, ar, bt, br, row->pct, row->spread,
	    pairs_verdict_name(row->verdict));
}
