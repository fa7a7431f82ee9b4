/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * runner: see runner.h.
 *
 * A limited child: fork(2), PR_SET_PDEATHSIG so a largedir killed by -9
 * takes it along, join the memory cgroup, child_init(), measure into the
 * shared mapping, set done_ok, _exit(0).  The parent forwards signals to
 * it while it runs and reads what it left.  A child killed by SIGKILL
 * while the cgroup's OOM kill count went up was killed by the limit:
 * that is ENOMEM, as is an ENOMEM the phase itself met.
 */

#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "runner.h"
#include "sig.h"

static int	run_limited(struct runner *, runner_fn, void *,
		    struct phase_out *);

/*
 * Set up 'r': phases may run limited inside 'memcg' (NULL: never), and a
 * limited child calls 'child_init'('arg') (may be NULL) before its phase.
 */
void
runner_init(struct runner *r, struct memcg *memcg, void (*child_init)(void *),
    void *arg)
{
	memset(r, 0, sizeof(*r));
	r->memcg = memcg;
	r->parent = getpid();
	r->child_init = child_init;
	r->child_arg = arg;
}

/*
 * Run 'fn'('arg', 'o'): inline, or in a limited child if 'limited' and
 * 'r' has a memory cgroup.  Return what 'fn' returns: 0, or -1 with
 * o->err and o->what saying what failed (ENOMEM when the limit stopped
 * it, EINTR after a signal, ECHILD when the child died otherwise).
 */
int
runner_run(struct runner *r, bool limited, runner_fn fn, void *arg,
    struct phase_out *o)
{
	if (!limited || r->memcg == NULL)
		return fn(arg, o);
	return run_limited(r, fn, arg, o);
}

static int
run_limited(struct runner *r, runner_fn fn, void *arg, struct phase_out *o)
{
	uint64_t	 oom0 = 0, oom1 = 0;
	pid_t		 pid;
	int		 ws, sig;

	memset(o, 0, sizeof(*o));
	if (r->shared == NULL) {
		/* Touched here, so it is charged to largedir, not the child. */
		r->shared = mmap(NULL, sizeof(*r->shared), PROT_READ |
		    PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		if (r->shared == MAP_FAILED) {
			r->shared = NULL;
			o->err = errno;
			(void)snprintf(o->what, sizeof(o->what), "mapping "
			    "memory for the limited child");
			return -1;
		}
	}
	memset(r->shared, 0, sizeof(*r->shared));
	(void)memcg_oom_kills(r->memcg, &oom0);
	(void)fflush(stdout);
	(void)fflush(stderr);
	if ((pid = fork()) == -1) {
		o->err = errno;
		(void)snprintf(o->what, sizeof(o->what), "forking the limited "
		    "child");
		return -1;
	}
	if (pid == 0) {
		sig_forward(0);
		r->in_child = true;
		/* Measuring for a largedir killed by -9 is of no use. */
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) == -1 ||
		    getppid() != r->parent)
			_exit(1);
		if (memcg_enter(r->memcg) == -1) {
			r->shared->err = errno;
			(void)snprintf(r->shared->what,
			    sizeof(r->shared->what), "joining the memory "
			    "cgroup %s", r->memcg->dir);
			_exit(1);
		}
		if (r->child_init != NULL)
			r->child_init(r->child_arg);
		(void)fn(arg, r->shared);
		r->shared->done_ok = 1;
		_exit(0);
	}
	sig_forward(pid);
	while (waitpid(pid, &ws, 0) == -1) {
		if (errno != EINTR) {
			sig_forward(0);
			o->err = errno;
			(void)snprintf(o->what, sizeof(o->what), "waiting for "
			    "the limited child");
			return -1;
		}
	}
	sig_forward(0);
	*o = *r->shared;
	if (WIFEXITED(ws) && o->done_ok) {
		/* "after N of M files", and why it ran short. */
		if (o->err == ENOMEM && strlen(o->what) + 24 <
		    sizeof(o->what))
			(void)strcat(o->what, ", under --memory-limit");
		return o->err != 0 ? -1 : 0;
	}
	if (WIFEXITED(ws) && o->err != 0)
		return -1;
	(void)memcg_oom_kills(r->memcg, &oom1);
	sig = WIFSIGNALED(ws) ? WTERMSIG(ws) : 0;
	o->err = sig == SIGKILL && oom1 > oom0 ? ENOMEM : sig_count > 0 ?
	    EINTR : ECHILD;
	if (o->err == ENOMEM)
		(void)snprintf(o->what, sizeof(o->what), "killed by the OOM "
		    "killer under --memory-limit");
	else
		(void)snprintf(o->what, sizeof(o->what), "the child measuring "
		    "it %s %d", sig != 0 ? "died of signal" : "exited",
		    sig != 0 ? sig : WEXITSTATUS(ws));
	return -1;
}

/* In a limited child: start the memory cgroup's peak from here. */
void
runner_peak_reset(const struct runner *r)
{
	if (r->in_child)
		(void)memcg_peak_reset(r->memcg);
}

/* In a limited child: the cgroup's peak in KiB; elsewhere NAN. */
double
runner_peak_kib(const struct runner *r)
{
	uint64_t	peak;

	if (!r->in_child || memcg_peak(r->memcg, &peak) == -1)
		return NAN;
	return (double)(peak / 1024);
}

/* Unmap what 'r' mapped. */
void
runner_free(struct runner *r)
{
	if (r->shared != NULL)
		(void)munmap(r->shared, sizeof(*r->shared));
	r->shared = NULL;
}
