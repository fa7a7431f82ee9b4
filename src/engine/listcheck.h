/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * listcheck: a listing checking itself, untimed, beside the timed loop of
 * list, liststat and each pass of rmrf (workload.c): each of the round's
 * names must come exactly once.  A name that comes again, more entries
 * not ours than there can be, or the backend's ELOOP is a readdir loop
 * (loop_at, odd); a listing that ends without some of the names lost
 * entries (lost).  See workload.h for what the round does with them.
 */

#ifndef LD_LISTCHECK_H
#define LD_LISTCHECK_H

#include <sys/types.h>

#include <stdint.h>

#include "engine/workload.h"

struct listcheck {
	struct workload		*w;
	struct workload_result	*r;
	uint64_t		 entries;	/* all it saw */
	uint64_t		 ours;		/* names of ours, once each */
	uint64_t		 others;	/* entries not ours */
	uint64_t		 churned;	/* of them, --churn's */
	const char		*info;		/* a mailbox's names' info
						   now, or NULL */
};

void	listcheck_start(struct listcheck *, struct workload *,
	    struct workload_result *);
ssize_t	listcheck_batch(struct listcheck *, const char **, ssize_t,
	    uint64_t *, uint64_t *, unsigned char **, size_t *);
int	listcheck_eloop(struct listcheck *);
void	listcheck_end(struct listcheck *);

#endif /* LD_LISTCHECK_H */
