/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * budgetsay: what the time budget's schedule has a run say on the
 * terminal: its plans, the time-boxed last round, the rounds below the
 * largest n, and why the rounds ended; and what the metadata keep of the
 * time-boxed round.  largedir.c calls it.
 */

#ifndef LD_BUDGETSAY_H
#define LD_BUDGETSAY_H

#include <stddef.h>
#include <stdint.h>

#include "base/timing.h"
#include "record/output.h"
#include "settings/config.h"

void	report_plan(const struct timing_round *, char *, size_t);
void	report_refine(const struct timing_round *, char *, size_t);
void	report_timebox(uint64_t, uint64_t);
void	report_timebox_done(struct output_doc *, unsigned, uint64_t,
	    uint64_t, uint64_t);
void	report_end(const struct config *, const struct timing_round *,
	    const char *);

#endif /* LD_BUDGETSAY_H */
