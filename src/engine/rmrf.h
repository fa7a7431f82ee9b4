/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * rmrf: the rmrf phase, rm -rf of a round directory as GNU rm's fts does
 * it (see rmrf.c): read a batch of entries, unlink the round's among
 * them in the order they came, read on.
 */

#ifndef LD_RMRF_H
#define LD_RMRF_H

#include "engine/workload.h"

#define RMRF_FTS_BATCH	100000	/* gnulib fts: FTS_MAX_READDIR_ENTRIES */

int	rmrf_run(struct workload *, struct workload_result *);

#endif /* LD_RMRF_H */
