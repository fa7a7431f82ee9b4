/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * budgetsay: what the time budget's schedule has a run say on the
 * terminal, and keep in its metadata: its plans, the time-boxed last
 * round, the rounds below the largest n, and why the rounds ended.
 * largedir.c calls it.
 */

#ifndef LD_BUDGETSAY_H
#define LD_BUDGETSAY_H

#include <stdint.h>

#include "base/timing.h"
#include "record/output.h"
#include "settings/config.h"

void	report_planned(struct output_doc *, const struct timing_round *);
void	report_timebox_done(struct output_doc *, unsigned, uint64_t,
	    uint64_t, uint64_t);
void	report_end(const struct config *, const struct timing_round *,
	    const char *);

#endif /* LD_BUDGETSAY_H */
