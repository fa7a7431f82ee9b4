/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * runner: how a phase runs.  Inline, in largedir itself; or limited, in a
 * child process inside the memory cgroup of --memory-limit, so that the
 * dentries and inodes the phase brings into the caches count against
 * the limit and the OOM killer, if it comes, takes the child and not
 * largedir.  The child hands its struct phase_out back through a shared
 * mapping; signals reach it through sig_forward().  Or by K clients
 * (--clients): K child processes, limited too where the phase is, that
 * each measure their share once all of them are ready (a start barrier)
 * and hand it back through a shared mapping of K struct runner_client;
 * the caller adds them up.
 *
 * The measuring function is the same in every mode and never prints or
 * exits: it fills a struct phase_out and returns 0 or -1.
 */

#ifndef LD_RUNNER_H
#define LD_RUNNER_H

#include <sys/types.h>

#include <stdbool.h>
#include <stdint.h>

#include "base/stats.h"
#include "record/record.h"
#include "target/memcg.h"

/*
 * What one of K clients measured, in memory it shares with largedir: no
 * pointers.  The client's function fills it; 'progress' it updates as it
 * goes, for the progress line.
 */
struct runner_client {
	struct phase_out	 o;		/* its record and counts */
	struct stats_hist	 hist;		/* its latencies */
	uint64_t		 t_begin, t_end;	/* its loop, timing_now() */
	uint64_t		 created, deleted;	/* workload.h's bounds */
	volatile uint64_t	 progress;	/* files done so far */
	/* largedir's own: */
	pid_t			 pid;
	uint64_t		 stop_ns;	/* seen stopped then, or 0 */
	int			 stop_sig;	/* by this signal */
};

/*
 * A client stopped (SIGSTOP, SIGTSTP, SIGTTIN, SIGTTOU) this long is
 * taken for stuck: it is killed and named, and the phase fails as when a
 * client dies.  Not a deadline from the budget: a phase may run past the
 * budget's end by design (the first and the warm-up rounds,
 * --budget-policy classic, what follows a time-boxed create), while a
 * client that is stopped makes no progress at all, whatever the phase.
 * A shorter stop only marks the phase stopped.
 */
#define RUNNER_STOP_GRACE_S	10

struct runner {
	struct memcg		*memcg;		/* NULL: inline only */
	pid_t			 parent;	/* largedir */
	struct phase_out	*shared;	/* a child's results */
	bool			 in_child;	/* this is a limited child */
	unsigned		 nslots;	/* clients mapped in 'slots' */
	struct runner_client	*slots;		/* shared with the clients */
	/* Called in a limited child before the phase (timer, counters). */
	void			(*child_init)(void *);
	void			*child_arg;
};

typedef int	(*runner_fn)(void *, struct phase_out *);
typedef int	(*runner_cfn)(void *, unsigned, struct runner_client *);

void	runner_init(struct runner *, struct memcg *, void (*)(void *),
	    void *);
int	runner_run(struct runner *, bool, runner_fn, void *,
	    struct phase_out *);
int	runner_slots(struct runner *, unsigned);
int	runner_clients(struct runner *, unsigned, bool, runner_cfn, void *,
	    void (*)(void *, uint64_t), void *, struct phase_out *);
void	runner_peak_reset(const struct runner *);
double	runner_peak_kib(const struct runner *);
void	runner_free(struct runner *);

#endif /* LD_RUNNER_H */
