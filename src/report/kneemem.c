/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * kneemem: see kneemem.h.
 */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/kneemem.h"

/* The phases a memory limit holds, in the order a sweep looks at them. */
static const char *const limited[] = { "open", "list", "liststat" };

static size_t	points(const struct results *, const char *, struct kneemem *);
static void	fit(struct kneemem *);

/*
 * Fill 'sw' from the targets of 'rs': of the phases a memory limit holds
 * (open, list, liststat), the first in which at least two targets with
 * different memory limits have a knee; its points by memory, and the
 * line fitted to them (fit()).  Return the number of points: fewer than
 * two is no sweep.
 */
size_t
kneemem_find(const struct results *rs, struct kneemem *sw)
{
	size_t	i;

	memset(sw, 0, sizeof(*sw));
	for (i = 0; i < sizeof(limited) / sizeof(limited[0]); i++) {
		if (points(rs, limited[i], sw) >= 2) {
			sw->phase = limited[i];
			fit(sw);
			return sw->n;
		}
	}
	memset(sw, 0, sizeof(*sw));
	return 0;
}

/*
 * The points of phase 'phase' into 'sw', by memory: the targets of 'rs'
 * with a memory limit and a knee in it, one per limit (the first).
 * Return their number.
 */
static size_t
points(const struct results *rs, const char *phase, struct kneemem *sw)
{
	struct kneemem_point	 pt;
	const struct results_target *t;
	const char		*m;
	char			 key[64], *end;
	size_t			 i, j;

	sw->n = 0;
	for (i = 0; i < rs->nt && sw->n < KNEEMEM_MAX; i++) {
		t = &rs->t[i];
		if ((m = results_meta(t, "config.memory-limit")) == NULL ||
		    !((pt.mem = strtod(m, &end)) > 0) || *end != '\0')
			continue;
		(void)snprintf(key, sizeof(key), "knee_%s", phase);
		if ((m = results_meta(t, key)) == NULL ||
		    !((pt.knee = strtod(m, &end)) > 0) || *end != '\0')
			continue;
		pt.above = results_knee_above(t, phase, pt.knee);
		pt.mid = pt.above > 0 && pt.above < pt.knee ?
		    sqrt(pt.above * pt.knee) : pt.knee;
		pt.label = t->label;
		for (j = 0; j < sw->n && sw->p[j].mem != pt.mem; j++)
			;
		if (j < sw->n)
			continue;	/* a limit twice: the first counts */
		for (j = sw->n; j > 0 && sw->p[j - 1].mem > pt.mem; j--)
			sw->p[j] = sw->p[j - 1];
		sw->p[j] = pt;
		sw->n++;
	}
	return sw->n;
}

/*
 * Fit mid = a + b * mem to the points of 'sw' by least squares; a line
 * that does not rise (b <= 0) is no fit.
 */
static void
fit(struct kneemem *sw)
{
	double	sx = 0, sy = 0, sxx = 0, sxy = 0, n = (double)sw->n, var;
	size_t	i;

	for (i = 0; i < sw->n; i++) {
		sx += sw->p[i].mem;
		sy += sw->p[i].mid;
		sxx += sw->p[i].mem * sw->p[i].mem;
		sxy += sw->p[i].mem * sw->p[i].mid;
	}
	var = sxx - sx * sx / n;
	sw->fitted = false;
	if (!(var > 0))
		return;
	sw->b = (sxy - sx * sy / n) / var;
	sw->a = (sy - sw->b * sx) / n;
	sw->fitted = sw->b > 0 && isfinite(sw->a);
}

/*
 * The memory a cached file takes, by the fitted line: the bytes each
 * further file in the caches costs (1 / b); NAN without a fit.
 */
double
kneemem_bytes_per_file(const struct kneemem *sw)
{
	return sw->fitted ? 1 / sw->b : NAN;
}
