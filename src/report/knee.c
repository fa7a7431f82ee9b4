/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * knee: see knee.h.  Rates are recorded with one decimal, a knee's n as
 * a whole number.
 */

#include <stdio.h>

#include "record/record.h"
#include "report/knee.h"

/*
 * For every one of the 'np' phases 'phases', whether its rates in the
 * rows of 'doc' have a knee, decline from the start, or stay flat
 * (record_knee()): record it in the metadata of 'doc' (see knee.h), in
 * the order of 'phases', and store it in 'out[i]' ('np' of them).  A
 * phase whose rates the rows do not hold is not judged, and nothing is
 * recorded for it.
 */
void
knee_record(struct output_doc *doc, const enum phase *phases, size_t np,
    struct knee_phase *out)
{
	struct stats_knee	*k;
	const char		*pn;
	char			 key[64];
	size_t			 i;

	for (i = 0; i < np; i++) {
		pn = out[i].name = phase_name(phases[i]);
		k = &out[i].k;
		out[i].judged = record_knee(&doc->rows, pn, KNEE_FRACTION,
		    k) == 0;
		if (!out[i].judged)
			continue;
		(void)snprintf(key, sizeof(key), "knee_%s", pn);
		switch (k->shape) {
		case STATS_KNEE:
			kv_set(&doc->meta, key, "%.0f", k->n);
			(void)snprintf(key, sizeof(key), "knee_%s_above", pn);
			kv_set(&doc->meta, key, "%.0f", k->n_above);
			(void)snprintf(key, sizeof(key), "knee_%s_before", pn);
			kv_set(&doc->meta, key, "%.1f", k->before);
			(void)snprintf(key, sizeof(key), "knee_%s_after", pn);
			kv_set(&doc->meta, key, "%.1f", k->after);
			break;
		case STATS_DECLINE:
			kv_set(&doc->meta, key, "decline");
			break;
		case STATS_FLAT:
			kv_set(&doc->meta, key, "none");
			break;
		case STATS_TOO_FEW:
			kv_set(&doc->meta, key, "too-few-rounds");
			break;
		}
	}
}

/*
 * Of the knees the rows of 'doc' show in the 'np' phases 'phases', the
 * widest on a log axis: the rounds around it into '*lo' (the last at or
 * above the threshold) and '*hi' (the first below).  Return false, both
 * 0, if no phase has a knee.  During a run, after each round: the
 * schedule narrows it (timing_sched_knee()).
 */
bool
knee_widest(const struct output_doc *doc, const enum phase *phases,
    size_t np, uint64_t *lo, uint64_t *hi)
{
	struct stats_knee	k;
	size_t			i;

	*lo = *hi = 0;
	for (i = 0; i < np; i++) {
		if (record_knee(&doc->rows, phase_name(phases[i]),
		    KNEE_FRACTION, &k) != 0 || k.shape != STATS_KNEE ||
		    !(k.n_above > 0))
			continue;
		if (*lo == 0 || k.n / k.n_above > (double)*hi / (double)*lo) {
			*lo = (uint64_t)k.n_above;
			*hi = (uint64_t)k.n;
		}
	}
	return *lo != 0;
}
