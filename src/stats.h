/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * stats: pure maths on measurements.  A log-linear latency histogram that
 * records one value in a few instructions and never allocates (HDR
 * histogram style: 32 linear sub-buckets per power of two, so a reported
 * percentile is within 1/32 of the true value), the median and spread of
 * repetitions, modified z-scores (MAD) for outliers, and the "swing" test
 * that flags a round whose rate jumps away from both of its neighbours.
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
uint64_t	stats_hist_percentile(const struct stats_hist *, double);

double		stats_median(const double *, size_t);
double		stats_mad(const double *, size_t);
size_t		stats_outliers(const double *, size_t, double, bool *);
bool		stats_swing(double, double, double, double);

#endif /* LD_STATS_H */
