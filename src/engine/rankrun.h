/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * rankrun: a run as an MPI job (--mpi), beside what one process does.
 * Rank 0 is largedir as ever: it makes the work directory, decides n and
 * the budget, writes the outputs.  Once its work directory exists it
 * tells the other ranks where it is and the seed (rankrun_hello()), and
 * learns their hosts; they attach to it and do each phase rank 0 tells
 * them (rankrun_worker(), measure.h), until it says the run is over.
 */

#ifndef LD_RANKRUN_H
#define LD_RANKRUN_H

#include <stdbool.h>
#include <stdint.h>

#include "backend/backend.h"
#include "base/kv.h"
#include "settings/config.h"

/* What rank 0 tells the other ranks before each phase (--mpi). */
struct ranks_cmd {
	int32_t		 op;		/* RANKS_PHASE, RANKS_END */
	int32_t		 phase;		/* enum phase */
	uint32_t	 k, rep;	/* the round, its repetition */
	uint64_t	 n;
	char		 dname[64];	/* the round directory */
};
#define RANKS_PHASE	1
#define RANKS_END	2

int	rankrun_hello(uint64_t *, char *, size_t, struct kvlist *);
void	rankrun_end(void);
int	rankrun_worker(struct config *, const struct backend_ops *,
	    const char *, struct backend_opts *, char *);

#endif /* LD_RANKRUN_H */
