/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * sig: see sig.h.  The handlers do nothing but set flags and, for a
 * child that measures a phase or runs a suite's target, kill(2) it with
 * the same signal: both are async-signal-safe.
 */

#include <sys/time.h>
#include <sys/types.h>

#include <signal.h>
#include <string.h>

#include "sig.h"

volatile sig_atomic_t	sig_poll;
volatile sig_atomic_t	sig_first;
volatile sig_atomic_t	sig_count;
volatile sig_atomic_t	sig_tick;
static volatile sig_atomic_t	child;	/* where signals go on, or 0 */

static void	on_signal(int);
static void	on_alarm(int);

static void
on_signal(int signo)
{
	if (sig_first == 0)
		sig_first = signo;
	sig_count++;
	sig_poll = 1;
	if (child > 0)
		(void)kill(child, signo);	/* it stops its phase, too */
}

static void
on_alarm(int signo)
{
	(void)signo;
	sig_tick = 1;
	sig_poll = 1;
}

/*
 * Catch SIGINT, SIGTERM and SIGPIPE, and with 'progress' tick every
 * SIG_PROGRESS_MS.  Return 0, or -1 with errno from sigaction(2).
 */
int
sig_setup(bool progress)
{
	struct sigaction	sa;

	memset(&sa, 0, sizeof(sa));
	(void)sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	sa.sa_handler = on_signal;
	if (sigaction(SIGINT, &sa, NULL) == -1 ||
	    sigaction(SIGTERM, &sa, NULL) == -1 ||
	    sigaction(SIGPIPE, &sa, NULL) == -1)
		return -1;
	if (!progress)
		return 0;
	sa.sa_handler = on_alarm;
	if (sigaction(SIGALRM, &sa, NULL) == -1)
		return -1;
	sig_arm_timer();
	return 0;
}

/* Tick every SIG_PROGRESS_MS (a forked child must arm its own timer). */
void
sig_arm_timer(void)
{
	struct itimerval	it;

	memset(&it, 0, sizeof(it));
	it.it_interval.tv_usec = SIG_PROGRESS_MS * 1000;
	it.it_value = it.it_interval;
	(void)setitimer(ITIMER_REAL, &it, NULL);
}

/*
 * Pass every signal caught from now on to process 'pid' (0: to none).  A
 * signal that came before the call is passed on here, so a child started
 * just after it still hears of it.
 */
void
sig_forward(pid_t pid)
{
	child = pid;
	if (pid > 0 && sig_first != 0)
		(void)kill(pid, sig_first);
}
