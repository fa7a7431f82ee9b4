/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * measure: one phase of a repetition of a round (round.h), measured
 * inline, in a limited child inside the memory cgroup of --memory-limit
 * (the phases that read: the inodes create and the deletions dirty
 * cannot be reclaimed until they are written back, so a limit would kill
 * them, not the caches), or by the K clients of --clients (runner.h,
 * clients.h), or by the ranks of an MPI job (--mpi, ranks.h): rank 0
 * runs the run and tells the others each phase (rankrun.h), which they
 * measure with measure_rank_begin() and measure_rank_share().  Either
 * way the result is one struct phase_out: the phase's record and counts.
 */

#ifndef LD_MEASURE_H
#define LD_MEASURE_H

#include <stdint.h>

#include "engine/round.h"
#include "record/record.h"

int	measure_phase(struct round *, enum phase, unsigned, uint64_t,
	    struct phase_out *);
void	measure_rank_begin(struct round *, enum phase, unsigned, uint64_t);
void	measure_rank_share(struct round *, enum phase, unsigned, uint64_t,
	    unsigned, struct runner_client *);

#endif /* LD_MEASURE_H */
