/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * stats: pure maths on measurements.  A log-linear latency histogram that
 * records one value in a few instructions and never allocates (HDR
 * histogram style: 32 linear sub-buckets per power of two, so a reported
 * percentile is within 1/32 of the true value), the median and spread of
 * repetitions, modified z-scores (MAD) for outliers, the "swing" test
 * that flags a round whose rate jumps away from both of its neighbours,
 * and knee detection on the rate-against-n curve of a phase.
 *
 * Knee detection (stats_knee()): repeated n are merged into one point,
 * the median of their rates.  With fewer than STATS_KNEE_MIN points the
 * shape is STATS_TOO_FEW.  The plateau is the median rate of the first
 * three points.  The knee candidate is the point after the last one whose
 * rate is at or above 'fraction' times the plateau, so every rate from it
 * to the end lies below that threshold and a dip that recovers is never a
 * candidate.  It counts only with at least three points before it and at
 * least two from it on.  The curve is a STATS_DECLINE when the slope of
 * log(rate) against log(n) is below STATS_KNEE_SLOPE (the rate falls
 * faster than 1/sqrt(n)) both over all points, fitted by least squares,
 * and over the leading points, as the median of the slopes between every
 * two of them (Theil-Sen); the leading points are those before the
 * candidate, or the first three when there is no valid candidate.  This
 * is checked first, since a curve that falls from the start also ends
 * below the threshold.  Otherwise a valid candidate is a STATS_KNEE, and
 * anything else is STATS_FLAT.
 */

#ifndef LD_STATS_H
#define LD_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define STATS_SUB_BITS	5			/* 32 sub-buckets per octave */
#define STATS_SUB	(1U << STATS_SUB_BITS)
#define STATS_NBUCKETS	((64 - STATS_SUB_BITS + 1) * STATS_SUB)

struct stats_hist {
	uint64_t	count;		/* values recorded */
	uint64_t	min;		/* smallest value, UINT64_MAX if none */
	uint64_t	max;		/* largest value, 0 if none */
	uint64_t	bucket[STATS_NBUCKETS];
};

/*
 * Bucket index of 'v': values below 32 have a bucket each; above, each
 * octave [2^e, 2^(e+1)) is cut into 32 equal sub-buckets.
 */
static inline unsigned
stats_bucket(uint64_t v)
{
	unsigned	e;

	if (v < STATS_SUB)
		return (unsigned)v;
	e = 63 - (unsigned)__builtin_clzll(v);
	return (e - STATS_SUB_BITS + 1) * STATS_SUB +
	    (unsigned)((v >> (e - STATS_SUB_BITS)) & (STATS_SUB - 1));
}

/*
 * Record the value 'v' (nanoseconds) in 'h'.  Inline because it sits in
 * the timed loop: a bucket increment and two compares.
 */
static inline void
stats_hist_add(struct stats_hist *h, uint64_t v)
{
	h->bucket[stats_bucket(v)]++;
	h->count++;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
}

void		stats_hist_reset(struct stats_hist *);
void		stats_hist_merge(struct stats_hist *,
		    const struct stats_hist *);
uint64_t	stats_hist_percentile(const struct stats_hist *, double);

double		stats_median(const double *, size_t);
double		stats_mad(const double *, size_t);
size_t		stats_outliers(const double *, size_t, double, bool *);
bool		stats_swing(double, double, double, double);

#define STATS_KNEE_MIN		5	/* distinct n needed to judge a shape */
#define STATS_KNEE_SLOPE	(-0.5)	/* log-log slope of a decline */

enum stats_shape {
	STATS_TOO_FEW,		/* fewer than STATS_KNEE_MIN distinct n */
	STATS_FLAT,		/* neither a knee nor a decline */
	STATS_KNEE,		/* a plateau, then a fall that lasts */
	STATS_DECLINE		/* falls from the start, no plateau */
};

struct stats_knee {
	enum stats_shape shape;
	size_t	 index;		/* first point after the knee (STATS_KNEE) */
	double	 n;		/* its n */
	double	 n_above;	/* the n before it, the last at or above
				   the threshold (STATS_KNEE) */
	double	 before;	/* plateau rate: median of the points before */
	double	 after;		/* median rate of the points from index on */
};

int		stats_knee(const double *, const double *, size_t, double,
		    struct stats_knee *);

#endif /* LD_STATS_H */
