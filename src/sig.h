/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * sig: the one place that catches signals.
 *
 * SIGINT, SIGTERM, SIGPIPE (a closed stdout, as in largedir | head) and
 * every other signal that would end the process from outside only set
 * flags: the phase loops see sig_poll go up, call their poll callback
 * outside the fast path, and stop; whoever runs a child process for a
 * phase (runner.c) or for mkfs (mkfs.c) names it with sig_forward(),
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

int	sig_setup(bool);
void	sig_arm_timer(void);
void	sig_forward(pid_t);
int	sig_run_self(char *const [], int *);
int	sig_run_self_err(char *const [], int *,
	    void (*)(void *, const char *, size_t), void *);
int	sig_run_group(char *const [], const char *, int *);

#endif /* LD_SIG_H */
