/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * stats: pure maths on measurements, called by the round loop and the
 * writers after a round has been timed.
 *
 * The histogram is filled by the inline stats_hist_add() in stats.h; here
 * it is reset and read back.  A percentile is reported as the midpoint of
 * the bucket that holds the nearest-rank value, clamped into the recorded
 * [min, max], so it is exact below 64 and within 1/64 of the true value
 * above (a bucket spans 1/32 of its octave).  The median, the MAD and the
 * outlier test work on a private sorted copy and never reorder the
 * caller's array.  Knee detection, called by main after the last round
 * for each phase, works on a private copy of the curve with repeated n
 * merged (see stats.h for the method).  Nothing here prints, exits or
 * keeps state.
 */

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/stats.h"
#include "base/util.h"

static int	cmp_double(const void *, const void *);
static double	median_sorted(const double *, size_t);
static double	*sorted_copy(const double *, size_t);
static void	median_mad(const double *, size_t, double *, double *);
static uint64_t	bucket_mid(unsigned);
static bool	usable(double);
static double	fit_slope(const double *, const double *, size_t);
static double	median_slope(const double *, const double *, size_t);
static bool	ascending(const double *, const double *, size_t);
static size_t	knee_points(const double *, const double *, size_t, double *,
		    double *, size_t *);
static void	knee_shape(const double *, const double *, const size_t *,
		    size_t, double, struct stats_knee *);

/* ===== Histogram ===== */

/*
 * Empty the histogram 'h': no values, every bucket zero, min at
 * UINT64_MAX and max at 0 so the first stats_hist_add() sets both.
 */
void
stats_hist_reset(struct stats_hist *h)
{
	memset(h->bucket, 0, sizeof(h->bucket));
	h->count = 0;
	h->min = UINT64_MAX;
	h->max = 0;
}

/* Add the values recorded in 'src' to 'dst', as if recorded there. */
void
stats_hist_merge(struct stats_hist *dst, const struct stats_hist *src)
{
	size_t	i;

	for (i = 0; i < STATS_NBUCKETS; i++)
		dst->bucket[i] += src->bucket[i];
	dst->count += src->count;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
}

/*
 * Return the middle of the value range of bucket 'i', the inverse of
 * stats_bucket().  Bucket i >= 32 lies in octave e = i / 32 + 4 and
 * covers [(32 + i % 32) << (e - 5), that + 2^(e - 5)).
 */
static uint64_t
bucket_mid(unsigned i)
{
	unsigned	shift;
	uint64_t	lo, width;

	if (i < STATS_SUB)
		return i;
	shift = i / STATS_SUB - 1;
	lo = (uint64_t)(STATS_SUB + i % STATS_SUB) << shift;
	width = (uint64_t)1 << shift;
	return lo + (width - 1) / 2;
}

/*
 * Return the 'p'th percentile (0 to 100) of the values in 'h' by the
 * nearest-rank definition: the value of rank ceil(p / 100 * count),
 * counted from 1 in ascending order.  The answer is the middle of the
 * bucket holding that rank, clamped into [min, max].  'p' <= 0 (or NaN)
 * gives the minimum, 'p' >= 100 the maximum, and an empty histogram 0.
 */
uint64_t
stats_hist_percentile(const struct stats_hist *h, double p)
{
	double		r;
	uint64_t	rank, seen, v;
	unsigned	i;

	if (h->count == 0)
		return 0;
	if (!(p > 0))
		return h->min;
	if (p >= 100)
		return h->max;

	/* p * count first: exact for whole p, so 90% of 10 is rank 9. */
	r = ceil(p * (double)h->count / 100);
	if (r < 1)
		rank = 1;
	else if (r >= (double)h->count)
		rank = h->count;
	else
		rank = (uint64_t)r;

	seen = 0;
	for (i = 0; i < STATS_NBUCKETS - 1; i++) {
		seen += h->bucket[i];
		if (seen >= rank)
			break;
	}
	v = bucket_mid(i);
	if (v < h->min)
		v = h->min;
	if (v > h->max)
		v = h->max;
	return v;
}

/* ===== Median, MAD and outliers ===== */

static int
cmp_double(const void *a, const void *b)
{
	double	x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Return a sorted copy of the 'n' values at 'v'; the caller frees it. */
static double *
sorted_copy(const double *v, size_t n)
{
	double	*s;

	s = xreallocarray(NULL, n, sizeof(*s));
	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	return s;
}

/* The median of the 'n' > 0 ascending values at 's'. */
static double
median_sorted(const double *s, size_t n)
{
	if (n % 2 == 1)
		return s[n / 2];
	return (s[n / 2 - 1] + s[n / 2]) / 2;
}

/*
 * Store the median and the median absolute deviation of the 'n' > 0
 * values at 'v' in '*med' and '*mad'.
 */
static void
median_mad(const double *v, size_t n, double *med, double *mad)
{
	double	*s;
	size_t	 i;

	s = sorted_copy(v, n);
	*med = median_sorted(s, n);
	for (i = 0; i < n; i++)
		s[i] = fabs(s[i] - *med);
	qsort(s, n, sizeof(*s), cmp_double);
	*mad = median_sorted(s, n);
	free(s);
}

/*
 * Return the median of the 'n' values at 'v' (the mean of the two middle
 * ones when 'n' is even), or NAN when 'n' is 0.  'v' is not modified.
 */
double
stats_median(const double *v, size_t n)
{
	double	*s, m;

	if (n == 0)
		return NAN;
	s = sorted_copy(v, n);
	m = median_sorted(s, n);
	free(s);
	return m;
}

/*
 * Return the median absolute deviation of the 'n' values at 'v': the
 * median of |v[i] - median|, unscaled.  NAN when 'n' is 0.
 */
double
stats_mad(const double *v, size_t n)
{
	double	med, mad;

	if (n == 0)
		return NAN;
	median_mad(v, n, &med, &mad);
	return mad;
}

/*
 * Flag the outliers among the 'n' values at 'v' by modified z-score
 * (Iglewicz and Hoaglin): z = 0.6745 * (v[i] - median) / MAD, and
 * 'flags'[i] is set when |z| > 'threshold' (3.5 is customary).  With
 * fewer than 3 values, or a MAD of 0 (most values equal), nothing is
 * flagged.  'flags' holds 'n' entries and is always fully written.
 * Return the number of values flagged.
 */
size_t
stats_outliers(const double *v, size_t n, double threshold, bool *flags)
{
	double	med, mad;
	size_t	i, k;

	for (i = 0; i < n; i++)
		flags[i] = false;
	if (n < 3)
		return 0;
	median_mad(v, n, &med, &mad);
	if (!(mad > 0) || !isfinite(mad))
		return 0;
	k = 0;
	for (i = 0; i < n; i++) {
		if (fabs(0.6745 * (v[i] - med) / mad) > threshold) {
			flags[i] = true;
			k++;
		}
	}
	return k;
}

/* ===== Swings ===== */

/*
 * Return true when 'cur' jumps away from both neighbours 'prev' and
 * 'next' in the same direction by more than 'factor' (> 1): a spike,
 * cur > factor * max(prev, next), or a dip, cur * factor < min(prev,
 * next).  That marks a noisy round.  A knee is not a swing: there the
 * next value stays down with 'cur'.  Any argument <= 0 or NaN gives false.
 */
bool
stats_swing(double prev, double cur, double next, double factor)
{
	double	hi, lo;

	if (!(prev > 0) || !(cur > 0) || !(next > 0) || !(factor > 0))
		return false;
	hi = prev > next ? prev : next;
	lo = prev < next ? prev : next;
	return cur > factor * hi || cur * factor < lo;
}

/* ===== Knee detection ===== */

/* True when 'x' is a positive finite number, so log(x) is finite. */
static bool
usable(double x)
{
	return x > 0 && isfinite(x);
}

/*
 * Return the least-squares slope of log('r') against log('x') over the
 * 'm' >= 2 points at 'x' and 'r', whose 'x' ascend strictly.
 */
static double
fit_slope(const double *x, const double *r, size_t m)
{
	double	mx, my, sxx, sxy, dx;
	size_t	i;

	mx = my = 0;
	for (i = 0; i < m; i++) {
		mx += log(x[i]);
		my += log(r[i]);
	}
	mx /= (double)m;
	my /= (double)m;
	sxx = sxy = 0;
	for (i = 0; i < m; i++) {
		dx = log(x[i]) - mx;
		sxx += dx * dx;
		sxy += dx * (log(r[i]) - my);
	}
	return sxy / sxx;
}

/*
 * Return the Theil-Sen slope of log('r') against log('x') over the 'm'
 * >= 2 points at 'x' and 'r', whose 'x' ascend strictly: the median of
 * the slopes between every two points.  Unlike least squares it ignores a
 * minority of points off the trend, such as the few points of a knee's
 * fall, and one noisy round.
 */
static double
median_slope(const double *x, const double *r, size_t m)
{
	double	*s, slope;
	size_t	 i, j, ns;

	s = xreallocarray(NULL, m * (m - 1) / 2, sizeof(*s));
	ns = 0;
	for (i = 0; i < m; i++)
		for (j = i + 1; j < m; j++)
			s[ns++] = (log(r[j]) - log(r[i])) /
			    (log(x[j]) - log(x[i]));
	slope = stats_median(s, ns);
	free(s);
	return slope;
}

/*
 * Classify the curve of the 'count' rates at 'rate' measured at the sizes
 * at 'n' into '*out': a knee, a decline, flat, or too few points.
 *
 * Pairs whose n or rate is not a positive finite number are ignored; the
 * others must come with 'n' ascending (equal n allowed, e.g. repetitions
 * of a round).  Each distinct n is one point whose rate is the median of
 * its rates.  With fewer than STATS_KNEE_MIN points the shape is
 * STATS_TOO_FEW.  The plateau is the median rate of the first three
 * points and the threshold is 'fraction' (in (0, 1); 0.5 is customary)
 * times the plateau.  The knee candidate is the point after the last one
 * at or above the threshold, so that every rate from it to the end lies
 * below the threshold; it is valid with at least three points before it
 * and at least two from it on, so a dip that recovers, or a drop at the
 * last point only, is never a knee.  The curve is a STATS_DECLINE when
 * the slope of log(rate) against log(n) is below STATS_KNEE_SLOPE (-0.5:
 * the rate falls faster than 1/sqrt(n)) both over all points, fitted by
 * least squares, and over the leading points, taken as the median of the
 * slopes between every two of them (Theil-Sen, which a few fallen or
 * noisy points cannot drag down).  The leading points are those before a
 * valid candidate, or else the first three.  This is decided before the
 * knee: a curve that falls from the start ends below the threshold too.
 * Otherwise a valid candidate makes a STATS_KNEE and anything else is
 * STATS_FLAT.
 *
 * For STATS_KNEE, 'out'->index is the index into 'n' and 'rate' of the
 * first pair at the knee point, 'n' its n, 'before' the median rate of
 * the points before it and 'after' that of the points from it on.  For
 * STATS_DECLINE, index is 0, 'n' the first point's n, 'before' its rate
 * and 'after' the last point's rate.  Otherwise index is 0 and 'n',
 * 'before' and 'after' are NAN.
 *
 * Return 0, or -1 with errno EINVAL when 'n', 'rate' or 'out' is NULL,
 * 'fraction' is not in (0, 1), or the usable n are not ascending; '*out'
 * is then untouched.
 */
int
stats_knee(const double *n, const double *rate, size_t count,
    double fraction, struct stats_knee *out)
{
	double	*pn, *pr;
	size_t	*first, m;

	if (n == NULL || rate == NULL || out == NULL ||
	    !(fraction > 0 && fraction < 1) || !ascending(n, rate, count)) {
		errno = EINVAL;
		return -1;
	}
	out->shape = STATS_TOO_FEW;
	out->index = 0;
	out->n = NAN;
	out->n_above = NAN;
	out->before = NAN;
	out->after = NAN;
	if (count == 0)
		return 0;
	pn = xreallocarray(NULL, count, sizeof(*pn));
	pr = xreallocarray(NULL, count, sizeof(*pr));
	first = xreallocarray(NULL, count, sizeof(*first));
	m = knee_points(n, rate, count, pn, pr, first);
	if (m >= STATS_KNEE_MIN)
		knee_shape(pn, pr, first, m, fraction, out);
	free(pn);
	free(pr);
	free(first);
	return 0;
}

/* Whether the usable n of the 'count' pairs at 'n' and 'rate' ascend. */
static bool
ascending(const double *n, const double *rate, size_t count)
{
	double	last = 0;
	size_t	i;

	for (i = 0; i < count; i++) {
		if (!usable(n[i]) || !usable(rate[i]))
			continue;
		if (n[i] < last)
			return false;
		last = n[i];
	}
	return true;
}

/*
 * Merge the usable pairs of 'n' and 'rate' ('count' of them, n ascending)
 * with equal n into one point: its n into 'pn', the median of their
 * rates into 'pr', the index of its first pair into 'first' (each room
 * for 'count').  Return the number of points.
 */
static size_t
knee_points(const double *n, const double *rate, size_t count, double *pn,
    double *pr, size_t *first)
{
	double	*v;
	size_t	 i, j, m = 0, nv;

	v = xreallocarray(NULL, count, sizeof(*v));
	for (i = 0; i < count; i = j) {
		if (!usable(n[i]) || !usable(rate[i])) {
			j = i + 1;
			continue;
		}
		nv = 0;
		for (j = i; j < count; j++) {
			if (!usable(n[j]) || !usable(rate[j]))
				continue;
			if (n[j] != n[i])
				break;
			v[nv++] = rate[j];
		}
		pn[m] = n[i];
		pr[m] = stats_median(v, nv);
		first[m] = i;
		m++;
	}
	free(v);
	return m;
}

/*
 * The shape of the 'm' points ('pn', 'pr', their first pairs 'first';
 * at least STATS_KNEE_MIN) into '*out', as stats_knee() says.
 */
static void
knee_shape(const double *pn, const double *pr, const size_t *first,
    size_t m, double fraction, struct stats_knee *out)
{
	double	limit;
	size_t	k, lead;
	bool	valid;

	/*
	 * The candidate k follows the last point at or above the limit.  The
	 * plateau is the median of three rates, so one of them is at or
	 * above the limit and k > 0.
	 */
	limit = fraction * stats_median(pr, 3);
	for (k = m; k > 0 && pr[k - 1] < limit; k--)
		continue;
	valid = k >= 3 && k + 2 <= m;
	lead = valid ? k : 3;

	if (fit_slope(pn, pr, m) < STATS_KNEE_SLOPE &&
	    median_slope(pn, pr, lead) < STATS_KNEE_SLOPE) {
		out->shape = STATS_DECLINE;
		out->n = pn[0];
		out->before = pr[0];
		out->after = pr[m - 1];
	} else if (valid) {
		out->shape = STATS_KNEE;
		out->index = first[k];
		out->n = pn[k];
		out->n_above = pn[k - 1];
		out->before = stats_median(pr, k);
		out->after = stats_median(pr + k, m - k);
	} else
		out->shape = STATS_FLAT;
}
