/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * measure: one phase of a repetition of a round (round.h), measured
 * inline, in a limited child inside the memory cgroup of --memory-limit
 * (the phases that read: the inodes create and the deletions dirty
 * cannot be reclaimed until they are written back, so a limit would kill
 * them, not the caches), or by the K clients of --clients (runner.h,
 * clients.h), or by the ranks of an MPI job (--mpi, ranks.h): rank 0
 * runs the run and tells the others each phase, which they measure in
 * measure_worker().  Either way the result is one struct phase_out: the
 * phase's record and counts.
 */

#ifndef LD_MEASURE_H
#define LD_MEASURE_H

#include <stdint.h>

#include "engine/round.h"
#include "record/record.h"

int	measure_phase(struct round *, enum phase, unsigned, uint64_t,
	    struct phase_out *);
int	measure_worker(struct round *, char *);
void	measure_ranks_end(void);

#endif /* LD_MEASURE_H */
