/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * mpistart: the start of a run as an MPI job (--mpi), in every rank:
 * what cannot go with it refused, MPI started, and every rank but 0 sent
 * to do its part (rankrun.c) while rank 0 goes on to run the run.
 */

#ifndef LD_MPISTART_H
#define LD_MPISTART_H

#include "run/setup.h"

int	mpistart(struct run *, int *, char ***);

#endif /* LD_MPISTART_H */
