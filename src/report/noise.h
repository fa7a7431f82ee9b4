/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * noise: what makes a run's rates less than they seem, found in its
 * rounds and kept in the metadata of its document: a busy machine (the
 * load average), a round far off both neighbours, an outlier among the
 * repetitions of a round, a phase that lost time while largedir was
 * stopped, NFS counters that something else drove up, and an open phase
 * cut short to end at the budget (a sample, not every file).
 *
 * The checks that warn (load, swing, outliers, busy) say so once per run:
 * a function returns true when the caller should warn now, and records
 * what it found in the metadata whether it warns or not.  Nothing here
 * prints: report.c says what these functions find, largedir.c calls it
 * after each round (report_outliers(), report_swing()) and for each note
 * of a round (report_note()).
 */

#ifndef LD_NOISE_H
#define LD_NOISE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/phase.h"
#include "engine/round.h"
#include "record/output.h"

#define NOISE_SWING	2.0	/* a rate this far off both neighbours */
#define NOISE_OUTLIER_Z	3.5	/* modified z-score of a noisy repetition */

/* What the checks have seen so far in a run (all zero at first). */
struct noise {
	bool	 warned_noise, warned_load;
	unsigned own;		/* largedir's processes on this machine
				   (--clients): the load counts them */
	bool	 guest;		/* in a UML guest, whose load is its own */
	double	*rates[PHASE_COUNT];	/* median per round */
	size_t	 nrates;
};

bool	noise_load(struct noise *, struct output_doc *, unsigned, double,
	    long);
bool	noise_outliers(struct noise *, struct output_doc *, unsigned,
	    const enum phase *, size_t, const struct round_result *,
	    enum phase *);
bool	noise_swing(struct noise *, struct output_doc *, unsigned,
	    const enum phase *, size_t, const double *, enum phase *);
void	noise_stopped(struct output_doc *, unsigned, const char *, double);
bool	noise_busy(struct output_doc *, unsigned, const char *, const char *);
void	noise_boxed(struct output_doc *, unsigned, uint64_t, uint64_t);
void	noise_free(struct noise *);

#endif /* LD_NOISE_H */
