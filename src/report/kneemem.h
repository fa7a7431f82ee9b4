/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * kneemem: the knee against memory, from the targets of a results
 * directory that ran the same workload under different memory limits
 * (largedir suite --memory-limit A,B,...): for each target with a limit
 * (config.memory-limit) and a knee in the phase, the limit and the knee's
 * interval (knee_PHASE_above to knee_PHASE), and a straight line fitted
 * to them, whose slope says how many files each byte of the caches holds:
 * its inverse is the memory a cached file takes.  Pure arithmetic over
 * what results.c read; the page explains it, plot.c draws it.
 */

#ifndef LD_KNEEMEM_H
#define LD_KNEEMEM_H

#include <stdbool.h>
#include <stddef.h>

#include "record/results.h"

#define KNEEMEM_MAX	16		/* points: --memory-limit's most */

/* One target of the sweep. */
struct kneemem_point {
	const char	*label;
	double		 mem;		/* bytes */
	double		 above;		/* the round before the knee, NAN if
					   not known */
	double		 knee;		/* the first round below half */
	double		 mid;		/* the knee's point: between the two
					   on a log axis */
};

/* The sweep of a results directory. */
struct kneemem {
	const char		*phase;	/* open, list or liststat */
	size_t			 n;	/* points, by memory */
	struct kneemem_point	 p[KNEEMEM_MAX];
	bool			 fitted;	/* mid = a + b * mem, b > 0 */
	double			 a, b;
};

size_t	kneemem_find(const struct results *, struct kneemem *);
double	kneemem_bytes_per_file(const struct kneemem *);

#endif /* LD_KNEEMEM_H */
