/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * knee: after the rounds, the shape of each phase's rates against n in
 * the rows of a run's document (record_knee(), stats_knee()): a knee
 * (the rates fall below KNEE_FRACTION of their plateau and stay there),
 * a decline from the start, flat, or too few rounds to tell; recorded
 * in the document's metadata as knee_PHASE (the n of the knee: the first
 * round below the threshold, or "none", "decline", "too-few-rounds")
 * with knee_PHASE_above (the round before it, the last at or above the
 * threshold: the knee lies between the two), knee_PHASE_before and
 * knee_PHASE_after (the rates around a knee).
 *
 * largedir.c calls report_knees(), which calls knee_record() and says
 * what it found; the pages judge a knee with the same KNEE_FRACTION.
 * Nothing here prints.
 */

#ifndef LD_KNEE_H
#define LD_KNEE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/phase.h"
#include "base/stats.h"
#include "record/output.h"

#define KNEE_FRACTION	0.5	/* a knee: below half the plateau, for good */

/* What knee_record() found for one phase. */
struct knee_phase {
	const char		*name;		/* the phase's */
	bool			 judged;	/* its rows have its rates */
	struct stats_knee	 k;		/* if judged */
};

void	knee_record(struct output_doc *, const enum phase *, size_t,
	    struct knee_phase *);
bool	knee_widest(const struct output_doc *, const enum phase *, size_t,
	    uint64_t *, uint64_t *);

#endif /* LD_KNEE_H */
