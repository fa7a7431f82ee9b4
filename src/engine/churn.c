/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * churn: see churn.h.  The child paces itself on CLOCK_MONOTONIC with
 * absolute deadlines, so a slow call does not lower the rate it keeps
 * over time (it catches up, as fast as the filesystem lets it).  It dies
 * with its parent (PR_SET_PDEATHSIG), and stops at a signal to the
 * process group as the parent does.
 */

#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/names.h"
#include "base/sig.h"
#include "base/util.h"
#include "engine/churn.h"

#define NAME_LEN	32

static void	run_child(struct churn_shared *, struct backend *,
		    struct backend_dir *, uint64_t);
static void	churn_fmt(char *, uint64_t);
static bool	child_gone(const struct churn *);

/*
 * Start the churn of 'rate' files a second in directory 'dir' of 'be'.
 * Return 0, or -1 with errno and 'err'.
 */
int
churn_start(struct churn *c, struct backend *be, struct backend_dir *dir,
    uint64_t rate, char *err)
{
	pid_t	parent = getpid();

	if ((be->ops->flags & BACKEND_FORKS) == 0)
		return util_fail(err, ENOTSUP, "--churn: the %s backend "
		    "cannot be used by two processes", be->ops->name);
	if (c->sh == NULL) {
		c->sh = mmap(NULL, sizeof(*c->sh), PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		if (c->sh == MAP_FAILED) {
			c->sh = NULL;
			return util_syserr(err, "--churn: shared memory");
		}
	}
	memset((void *)c->sh, 0, sizeof(*c->sh));
	(void)fflush(stdout);
	(void)fflush(stderr);
	if ((c->pid = fork()) == -1) {
		c->pid = 0;
		return util_syserr(err, "--churn: fork");
	}
	if (c->pid == 0) {
		sig_forward(0);
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) == -1 ||
		    getppid() != parent)
			_exit(1);
		run_child(c->sh, be, dir, rate);
		_exit(c->sh->err != 0 ? 1 : 0);
	}
	/* The directory has changed before the listing starts. */
	while (c->sh->made == 0 && c->sh->err == 0 && !child_gone(c))
		(void)usleep(1000);
	return 0;
}

/* Whether the churn's child has exited already (it failed). */
static bool
child_gone(const struct churn *c)
{
	siginfo_t	si;

	memset(&si, 0, sizeof(si));
	return waitid(P_PID, (id_t)c->pid, &si, WEXITED | WNOHANG |
	    WNOWAIT) == -1 || si.si_pid != 0;
}

/*
 * Stop the churn and wait for its child, which removes what it left.
 * Store how many files it created and removed.  Return 0, or -1 with
 * errno and 'err' if it failed on the way.
 */
int
churn_stop(struct churn *c, uint64_t *made, uint64_t *removed, char *err)
{
	int	ws;

	*made = *removed = 0;
	if (c->pid == 0)
		return 0;
	c->sh->stop = 1;
	while (waitpid(c->pid, &ws, 0) == -1)
		if (errno != EINTR) {
			c->pid = 0;
			return util_syserr(err, "--churn: waitpid");
		}
	c->pid = 0;
	*made = c->sh->made;
	*removed = c->sh->removed;
	if (c->sh->err != 0)
		return util_fail(err, c->sh->err, "--churn: %s: %s",
		    c->sh->what, strerror(c->sh->err));
	if (!WIFEXITED(ws) || WEXITSTATUS(ws) != 0)
		return util_fail(err, ECHILD, "--churn: its process %s %d",
		    WIFSIGNALED(ws) ? "was killed by signal" : "exited",
		    WIFSIGNALED(ws) ? WTERMSIG(ws) : WEXITSTATUS(ws));
	return 0;
}

/* Stop a churn still running (a phase that failed) and let go of it. */
void
churn_free(struct churn *c)
{
	uint64_t	m, r;
	char		err[LD_ERRLEN];

	(void)churn_stop(c, &m, &r, err);
	if (c->sh != NULL)
		(void)munmap((void *)c->sh, sizeof(*c->sh));
	c->sh = NULL;
}

/* The name of churn file 'i'. */
static void
churn_fmt(char *buf, uint64_t i)
{
	(void)snprintf(buf, NAME_LEN, NAMES_CHURN_PREFIX "%010" PRIu64, i);
}

/* The child: create and remove at 'rate' until told to stop. */
static void
run_child(struct churn_shared *sh, struct backend *be,
    struct backend_dir *dir, uint64_t rate)
{
	struct timespec	 next;
	char		 name[NAME_LEN];
	const char	*op = "create";
	uint64_t	 step_ns = 1000000000ULL / rate;

	if (be->ops->forked(be) == -1) {
		sh->err = errno;
		(void)snprintf(sh->what, sizeof(sh->what), "its own "
		    "connection");
		return;
	}
	(void)clock_gettime(CLOCK_MONOTONIC, &next);
	while (!sh->stop && sig_count == 0) {
		/*
		 * Counted before the call: a listing may see the file as
		 * soon as the kernel has made it, and must never see more
		 * of them than 'made' (a loop, it would say).  A create
		 * that fails stops the churn; its unlink below finds the
		 * file or ENOENT.
		 */
		churn_fmt(name, sh->made);
		sh->made++;
		if (be->ops->create(be, dir, name) == -1)
			goto fail;
		if (sh->made - sh->removed > CHURN_KEEP) {
			churn_fmt(name, sh->removed);
			op = "unlink";
			if (be->ops->unlink(be, dir, name) == -1)
				goto fail;
			op = "create";
			sh->removed++;
		}
		next.tv_nsec += (long)(step_ns % 1000000000ULL);
		next.tv_sec += (time_t)(step_ns / 1000000000ULL);
		if (next.tv_nsec >= 1000000000L) {
			next.tv_nsec -= 1000000000L;
			next.tv_sec++;
		}
		while (!sh->stop && clock_nanosleep(CLOCK_MONOTONIC,
		    TIMER_ABSTIME, &next, NULL) == EINTR)
			continue;
	}
	/* What is left: nothing of the churn stays. */
	op = "unlink";
	while (sh->removed < sh->made) {
		churn_fmt(name, sh->removed);
		if (be->ops->unlink(be, dir, name) == -1 && errno != ENOENT)
			goto fail;
		sh->removed++;
	}
	return;
fail:
	sh->err = errno;
	(void)snprintf(sh->what, sizeof(sh->what), "%s %s", op, name);
}
