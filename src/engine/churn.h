/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * churn: a directory that changes while it is listed (--churn RATE).  A
 * child process creates files named NAMES_CHURN_PREFIX and a serial number in
 * the round directory, RATE a second, and once CHURN_KEEP of them exist
 * removes the oldest for each new one, until churn_stop(); then it
 * removes the rest.  It runs beside the list, liststat and rmrf phases,
 * on a connection of its own where the backend has one (its forked op),
 * so what it sends is not counted as the phase's.  What it did comes
 * back through shared memory, 'made' live, so a listing knows how many
 * names not its own it may see.
 */

#ifndef LD_CHURN_H
#define LD_CHURN_H

#include <sys/types.h>

#include <stdbool.h>
#include <stdint.h>

#include "backend/backend.h"

#define CHURN_KEEP	100		/* files it keeps at once */

/* What the child shares with its parent. */
struct churn_shared {
	volatile uint64_t	made;		/* files created so far, or
						   being created */
	volatile uint64_t	removed;	/* and removed */
	volatile int		stop;		/* the parent says: done */
	int			err;		/* errno if it failed */
	char			what[128];	/* doing what */
};

struct churn {
	struct churn_shared	*sh;		/* NULL until started */
	pid_t			 pid;		/* the child, or 0 */
};

int	churn_start(struct churn *, struct backend *, struct backend_dir *,
	    uint64_t, char *);
int	churn_stop(struct churn *, uint64_t *, uint64_t *, char *);
void	churn_free(struct churn *);

#endif /* LD_CHURN_H */
