/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * ranks: --mpi, the clients of a run as the ranks of an MPI job across
 * machines (mpirun -np K largedir --mpi ... DIR).  The transport only:
 * starting and ending MPI, a broadcast from rank 0, a barrier, a gather
 * to rank 0.  What the ranks say to each other is measure.c's.
 *
 * Only a build with MPI (make MPI=1) has it: ranks.c compiles to the
 * real thing with LD_MPI (and Open MPI's headers), and to functions that
 * fail with ENOTSUP without, so that the default build needs no MPI.
 */

#ifndef LD_RANKS_H
#define LD_RANKS_H

#include <stdbool.h>
#include <stddef.h>

bool	ranks_built(void);
int	ranks_start(int *, char ***, char *);
int	ranks_rank(void);
int	ranks_size(void);
int	ranks_bcast(void *, size_t);
int	ranks_barrier(void);
int	ranks_gather(const void *, size_t, void *);
void	ranks_end(void);

#endif /* LD_RANKS_H */
