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
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/sig.h"

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
static pid_t	spawn(const char *, char *const [], const char *, bool, int);
static pid_t	start_self(char *const [], int);
static int	reap(pid_t, int *);

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
 * For a loop that found sig_poll up: put it down again, unless a signal
 * came (then it stays up, so that every loop after this one stops at its
 * first look too), and say whether the progress timer ticked and no
 * signal came: time to draw the progress line.  sig_poll goes down
 * before the other flags are read, so a signal or a tick that comes
 * meanwhile puts it up again.
 */
bool
sig_polled(void)
{
	bool	tick;

	sig_poll = 0;
	tick = sig_tick != 0 && sig_count == 0;
	if (tick)
		sig_tick = 0;
	if (sig_count > 0)
		sig_poll = 1;
	return tick;
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
 * Fork a child in a process group of its own that runs 'file' (found in
 * PATH with 'path', else a path) with 'args', in the directory 'cwd'
 * unless it is NULL, with 'errfd' as its standard error unless it is -1.
 * Return its pid, or -1 with errno.
 */
static pid_t
spawn(const char *file, char *const args[], const char *cwd, bool path,
    int errfd)
{
	pid_t	pid;

	if ((pid = fork()) == -1)
		return -1;
	if (pid == 0) {
		(void)setpgid(0, 0);
		if (errfd != -1 && dup2(errfd, STDERR_FILENO) == -1)
			_exit(127);
		if (cwd != NULL && chdir(cwd) == -1) {
			(void)fprintf(stderr, "largedir: chdir %s: %s\n", cwd,
			    strerror(errno));
			_exit(126);
		}
		if (path)
			(void)execvp(file, args);
		else
			(void)execv(file, args);
		if (!path || errno != ENOENT)
			(void)fprintf(stderr, "largedir: exec %s: %s\n", file,
			    strerror(errno));
		_exit(127);
	}
	(void)setpgid(pid, pid);	/* whichever of the two comes first */
	return pid;
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

	if ((pid = start_self(args, -1)) == -1)
		return -1;
	return reap(pid, ws);
}

/*
 * sig_run_self(), with what the child writes to its standard error read
 * through a pipe and handed to 'got'('arg', the bytes, their number) as
 * it comes, for the caller to show and to keep what it needs.  The pipe
 * is read until it ends, or the child has ended and nothing more waits
 * in it: a process the child left behind, holding the pipe, keeps no one
 * waiting.  Return 0, or -1 with errno if the child could not be started.
 */
int
sig_run_self_err(char *const args[], int *ws,
    void (*got)(void *, const char *, size_t), void *arg)
{
	struct pollfd	pfd;
	char		buf[4096];
	ssize_t		n;
	pid_t		pid;
	int		p[2], r, e;
	bool		ended = false;

	if (pipe2(p, O_CLOEXEC) == -1)
		return -1;
	pid = start_self(args, p[1]);
	e = errno;
	(void)close(p[1]);
	if (pid == -1) {
		(void)close(p[0]);
		errno = e;
		return -1;
	}
	pfd.fd = p[0];
	pfd.events = POLLIN;
	for (;;) {
		if ((r = poll(&pfd, 1, ended ? 0 : 200)) == -1) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (r == 0) {
			if (ended || (r = waitpid(pid, ws, WNOHANG)) == -1)
				break;
			ended = r == pid;
			continue;
		}
		if ((n = read(p[0], buf, sizeof(buf))) == -1 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got(arg, buf, (size_t)n);
	}
	(void)close(p[0]);
	if (!ended)
		return reap(pid, ws);
	sig_forward(0);
	return 0;
}

/*
 * Start largedir again as a child, as sig_run_self() says, with 'errfd'
 * as its standard error unless it is -1, and pass signals on to it.
 * Return its process ID, or -1 with errno.
 */
static pid_t
start_self(char *const args[], int errfd)
{
	pid_t	pid;

	if ((pid = spawn("/proc/self/exe", args, NULL, false, errfd)) == -1)
		return -1;
	sig_forward(pid);
	return pid;
}

/*
 * Wait for the child 'pid' to end, store its wait status in '*ws' and
 * pass signals on no more.  Return 0, or -1 with errno from waitpid(2).
 */
static int
reap(pid_t pid, int *ws)
{
	while (waitpid(pid, ws, 0) == -1)
		if (errno != EINTR) {
			sig_forward(0);
			return -1;
		}
	sig_forward(0);
	return 0;
}

/*
 * Run the program 'args'[0] (found in PATH) with 'args' in the directory
 * 'cwd' (NULL: this one), with all it starts in a process group of its
 * own, and store its wait status in '*ws' (exit 127: it could not be
 * run).  For helpers that have nothing to clean up, such as gnuplot and
 * the shells and awk it runs: once a signal came (sig_count), the whole
 * group is sent SIGTERM and SIGCONT (a stopped helper would not hear the
 * SIGTERM, and some catch SIGINT), and SIGKILL after SIG_GRACE_MS, so
 * that nothing of it outlives the call.  Nothing is started if a signal
 * came before.  Return 0, or -1 with errno (EINTR: not started).
 */
int
sig_run_group(char *const args[], const char *cwd, int *ws)
{
	struct timespec	nap = { 0, 20 * 1000000L };
	pid_t		pid, got;
	long		waited_ms = -1;

	if (sig_count > 0) {
		errno = EINTR;
		return -1;
	}
	if ((pid = spawn(args[0], args, cwd, true, -1)) == -1)
		return -1;
	while ((got = waitpid(pid, ws, WNOHANG)) != pid) {
		if (got == -1 && errno != EINTR) {
			(void)kill(-pid, SIGKILL);
			return -1;
		}
		if (sig_count > 0 && waited_ms == -1) {
			(void)kill(-pid, SIGTERM);
			(void)kill(-pid, SIGCONT);
			waited_ms = 0;
		} else if (waited_ms >= SIG_GRACE_MS)
			(void)kill(-pid, SIGKILL);
		(void)nanosleep(&nap, NULL);
		if (waited_ms != -1)
			waited_ms += nap.tv_nsec / 1000000L;
	}
	if (waited_ms != -1)		/* what the leader left behind */
		(void)kill(-pid, SIGKILL);
	return 0;
}
