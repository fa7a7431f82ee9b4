/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * sig: the one place that catches signals.
 *
 * SIGINT, SIGTERM, SIGPIPE (a closed stdout, as in largedir | head) and
 * every other signal that would end the process from outside only set
 * flags, and every loop that can be stopped stops by reading them: a
 * phase loop loads sig_poll once per operation and, when it is up, asks
 * sig_polled() and sig_stop() outside the fast path; a loop of anything
 * else reads sig_count (or sig_stop()) each time round.  No loop is
 * stopped by a callback: the phase loops' callback (struct workload's
 * on_poll) only draws the progress line when the timer ticked.  Whoever
 * runs a child process for a phase (runner.c) or for mkfs (mkfs.c) names
 * it with sig_forward(),
 * and the handler passes the signal on, then SIGCONT, so that a child
 * someone stopped hears it too; sig_run_self() runs largedir again that
 * way, for a suite's targets and a comparison's runs (sig_run_self_err():
 * with the child's standard error through a pipe, so that a comparison
 * keeps the last word of a run that failed).  sig_run_group() runs a
 * helper such as gnuplot, with what it starts, in a process group that a
 * signal ends as a whole.
 * SIGCONT counts in sig_cont: the process was stopped, and a phase that
 * was running lost that time.  On a terminal, SIGRTMIN ticks every
 * SIG_PROGRESS_MS so the progress line can be redrawn.
 *
 * The flags are plain volatile sig_atomic_t objects, read directly in the
 * loops: one load per operation, no call.
 */

#ifndef LD_SIG_H
#define LD_SIG_H

#include <sys/types.h>

#include <signal.h>
#include <stdbool.h>

#define SIG_PROGRESS_MS	250	/* progress line refresh */
#define SIG_GRACE_MS	2000	/* sig_run_group(): SIGTERM to SIGKILL */

extern volatile sig_atomic_t	sig_poll;	/* something to look at */
extern volatile sig_atomic_t	sig_first;	/* the first signal, or 0 */
extern volatile sig_atomic_t	sig_count;	/* signals so far */
extern volatile sig_atomic_t	sig_tick;	/* the progress timer fired */
extern volatile sig_atomic_t	sig_cont;	/* SIGCONTs so far */

/*
 * Whether a loop must stop: a signal came.  A clean-up ('cleanup') gives
 * up only at the second, so that after the first it still removes what
 * the run made.
 */
static inline bool
sig_stop(bool cleanup)
{
	return sig_count > (cleanup ? 1 : 0);
}

bool	sig_polled(void);
int	sig_setup(bool);
void	sig_arm_timer(void);
void	sig_forward(pid_t);
int	sig_run_self(char *const [], int *);
int	sig_run_self_err(char *const [], int *,
	    void (*)(void *, const char *, size_t), void *);
int	sig_run_group(char *const [], const char *, int *);

#endif /* LD_SIG_H */
