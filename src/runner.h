/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * runner: how a phase runs.  Inline, in largedir itself; or limited, in a
 * child process inside the memory cgroup of --memory-limit, so that the
 * dentries and inodes the phase brings into the caches count against
 * the limit and the OOM killer, if it comes, takes the child and not
 * largedir.  The child hands its struct phase_out back through a shared
 * mapping; signals reach it through sig_forward().  A mode with K client
 * processes and a start barrier belongs here too.
 *
 * The measuring function is the same in both modes and never prints or
 * exits: it fills a struct phase_out and returns 0 or -1.
 */

#ifndef LD_RUNNER_H
#define LD_RUNNER_H

#include <sys/types.h>

#include <stdbool.h>
#include <stdint.h>

#include "memcg.h"
#include "record.h"

struct runner {
	struct memcg		*memcg;		/* NULL: inline only */
	pid_t			 parent;	/* largedir */
	struct phase_out	*shared;	/* a child's results */
	bool			 in_child;	/* this is a limited child */
	/* Called in a limited child before the phase (timer, counters). */
	void			(*child_init)(void *);
	void			*child_arg;
};

typedef int	(*runner_fn)(void *, struct phase_out *);

void	runner_init(struct runner *, struct memcg *, void (*)(void *),
	    void *);
int	runner_run(struct runner *, bool, runner_fn, void *,
	    struct phase_out *);
void	runner_peak_reset(const struct runner *);
double	runner_peak_kib(const struct runner *);
void	runner_free(struct runner *);

#endif /* LD_RUNNER_H */
