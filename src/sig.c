/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * sig: see sig.h.  The handlers do nothing but set flags and, for a
 * child that measures a phase or runs a suite's target, kill(2) it with
 * the same signal and then SIGCONT: both are async-signal-safe.  A child
 * that someone stopped (SIGSTOP) would hold the signal pending, and
 * largedir would wait for it for good; SIGCONT wakes it to hear it, and
 * does nothing to a child that runs.
 *
 * Every signal whose default action ends the process (or ends it with a
 * core dump, but is sent from outside rather than raised by a fault:
 * SIGQUIT, SIGXCPU, SIGXFSZ) stops the run the way SIGTERM does, so the
 * run cleans up and exits 128 + the signal.  Faults (SIGSEGV, SIGBUS,
 * SIGILL, SIGFPE, SIGABRT, SIGSYS, SIGTRAP) keep their default: cleaning
 * up after a bug in largedir is not safe.  Neither can SIGKILL be
 * caught, nor SIGSTOP; what a kill -9 leaves, --cleanup removes.  The
 * progress timer ticks with SIGRTMIN, so an outside SIGALRM is just
 * another signal that stops the run.
 */

#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <string.h>
#include <time.h>
#include <stdio.h>
#include <unistd.h>

#include "sig.h"

volatile sig_atomic_t	sig_poll;
volatile sig_atomic_t	sig_first;
volatile sig_atomic_t	sig_count;
volatile sig_atomic_t	sig_tick;
volatile sig_atomic_t	sig_cont;
static volatile sig_atomic_t	child;	/* where signals go on, or 0 */
static pid_t			timer_pid;	/* the timer is this one's */

/* The signals that stop a run, besides the real-time ones. */
static const int	stopping[] = {
	SIGHUP, SIGINT, SIGQUIT, SIGPIPE, SIGALRM, SIGTERM, SIGUSR1, SIGUSR2,
	SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF, SIGIO, SIGPWR, SIGSTKFLT,
};

static void	on_signal(int);
static void	on_tick(int);
static void	on_cont(int);

static void
on_signal(int signo)
{
	if (sig_first == 0)
		sig_first = signo;
	sig_count++;
	sig_poll = 1;
	if (child != 0) {
		(void)kill(child, signo);	/* it stops its phase, too */
		(void)kill(child, SIGCONT);	/* even if it was stopped */
	}
}

static void
on_tick(int signo)
{
	(void)signo;
	sig_tick = 1;
	sig_poll = 1;
}

static void
on_cont(int signo)
{
	(void)signo;
	sig_cont++;
}

/*
 * Catch every signal that stops a run (see above) and SIGCONT, which
 * says the process was stopped; with 'progress', tick every
 * SIG_PROGRESS_MS.  Return 0, or -1 with errno from sigaction(2).
 */
int
sig_setup(bool progress)
{
	struct sigaction	sa;
	size_t			i;
	int			signo;

	memset(&sa, 0, sizeof(sa));
	(void)sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	sa.sa_handler = on_signal;
	for (i = 0; i < sizeof(stopping) / sizeof(stopping[0]); i++)
		if (sigaction(stopping[i], &sa, NULL) == -1)
			return -1;
	/* Some a tool may keep for itself (valgrind does): EINVAL. */
	for (signo = SIGRTMIN + 1; signo <= SIGRTMAX; signo++)
		if (sigaction(signo, &sa, NULL) == -1 && errno != EINVAL)
			return -1;
	sa.sa_handler = on_cont;
	if (sigaction(SIGCONT, &sa, NULL) == -1)
		return -1;
	sa.sa_handler = on_tick;
	if (sigaction(SIGRTMIN, &sa, NULL) == -1)
		return -1;
	if (progress)
		sig_arm_timer();
	return 0;
}

/*
 * Tick every SIG_PROGRESS_MS with SIGRTMIN.  A forked child has no timer
 * of its parent's and arms its own; arming twice in one process does
 * nothing.
 */
void
sig_arm_timer(void)
{
	struct sigevent		sev;
	struct itimerspec	its;
	timer_t			tid;

	if (timer_pid == getpid())
		return;
	memset(&sev, 0, sizeof(sev));
	sev.sigev_notify = SIGEV_SIGNAL;
	sev.sigev_signo = SIGRTMIN;
	if (timer_create(CLOCK_MONOTONIC, &sev, &tid) == -1)
		return;			/* no progress line, no harm */
	memset(&its, 0, sizeof(its));
	its.it_interval.tv_nsec = SIG_PROGRESS_MS * 1000000L;
	its.it_value = its.it_interval;
	if (timer_settime(tid, 0, &its, NULL) == 0)
		timer_pid = getpid();
}

/*
 * Pass every signal caught from now on to process 'pid' (0: to none; a
 * negative pid names a process group, as for kill(2)), each followed by
 * SIGCONT.  A signal that came before the call is passed on here, so a
 * child started just after it still hears of it.
 */
void
sig_forward(pid_t pid)
{
	child = pid;
	if (pid != 0 && sig_first != 0) {
		(void)kill(pid, sig_first);
		(void)kill(pid, SIGCONT);
	}
}

/*
 * Run largedir again (/proc/self/exe) with 'args' (args[0] its name) as
 * a child, and store its wait status in '*ws'.  The child runs in a
 * process group of its own, so that a signal from the terminal reaches
 * only this process, which passes it on once (sig_forward()): a second
 * one would abandon the child's clean-up.  Return 0, or -1 with errno if
 * it could not be started.
 */
int
sig_run_self(char *const args[], int *ws)
{
	pid_t	pid;

	if ((pid = fork()) == -1)
		return -1;
	if (pid == 0) {
		(void)setpgid(0, 0);
		(void)execv("/proc/self/exe", args);
		(void)fprintf(stderr, "largedir: exec /proc/self/exe: %s\n",
		    strerror(errno));
		_exit(127);
	}
	(void)setpgid(pid, pid);
	sig_forward(pid);
	while (waitpid(pid, ws, 0) == -1)
		if (errno != EINTR) {
			sig_forward(0);
			return -1;
		}
	sig_forward(0);
	return 0;
}
