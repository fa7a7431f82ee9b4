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
 *
 * K clients: the same, K times over, in a process group of their own
 * that signals reach as one (sig_forward() of the negative group id).
 * Each says it is ready on a pipe and blocks reading another; when all
 * are ready largedir closes that one, and they start together.  A client
 * that dies is named, and the others are stopped with SIGTERM (and
 * SIGCONT, should one be stopped): their loops end as at Ctrl-C, and
 * largedir cleans up after all of them.  largedir waits with WUNTRACED
 * and WCONTINUED, so it sees a client stop and go on; one stopped for
 * RUNNER_STOP_GRACE_S is killed, and named as one that died.
 */

#include <sys/mman.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/sig.h"
#include "base/timing.h"
#include "engine/runner.h"

static int	run_limited(struct runner *, runner_fn, void *,
		    struct phase_out *);
static void	limited_child(struct runner *, runner_fn, void *)
		    __attribute__((noreturn));
static void	client_main(struct runner *, unsigned, bool, int, int,
		    runner_cfn, void *);
static int	clients_ready(struct runner *, unsigned, int,
		    struct phase_out *);
static void	clients_wait(struct runner *, unsigned, pid_t,
		    void (*)(void *, uint64_t), void *, struct phase_out *);
static void	client_died(struct runner *, unsigned, int, uint64_t,
		    struct phase_out *);
static bool	stop_seen(struct runner_client *, int);
static bool	stop_deadline(struct runner *, unsigned, sig_atomic_t *,
		    struct phase_out *);
static void	stop_others(pid_t);
static void	nap(void);

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
	if (pid == 0)
		limited_child(r, fn, arg);
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

/*
 * The limited child of run_limited(): join the memory cgroup, measure
 * into the shared page, and exit.
 */
static void
limited_child(struct runner *r, runner_fn fn, void *arg)
{
	sig_forward(0);
	r->in_child = true;
	/* Measuring for a largedir killed by -9 is of no use. */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) == -1 || getppid() != r->parent)
		_exit(1);
	if (memcg_enter(r->memcg) == -1) {
		r->shared->err = errno;
		(void)snprintf(r->shared->what, sizeof(r->shared->what),
		    "joining the memory cgroup %s", r->memcg->dir);
		_exit(1);
	}
	if (r->child_init != NULL)
		r->child_init(r->child_arg);
	(void)fn(arg, r->shared);
	r->shared->done_ok = 1;
	_exit(0);
}

/*
 * Make r->slots hold 'k' slots, all zero, in memory shared with the
 * processes forked from now on (kept, and grown when more are asked
 * for, until runner_free()): the clients' here, and the ranks' of --mpi
 * (rankrun.c, measure.c), whose buffers must outlive a collective a
 * signal broke off.  Return 0, or -1 with errno (r->slots is then NULL).
 */
int
runner_slots(struct runner *r, unsigned k)
{
	if (r->nslots < k) {
		if (r->slots != NULL)
			(void)munmap(r->slots, r->nslots * sizeof(*r->slots));
		r->nslots = 0;
		r->slots = mmap(NULL, k * sizeof(*r->slots), PROT_READ |
		    PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		if (r->slots == MAP_FAILED) {
			r->slots = NULL;
			return -1;
		}
		r->nslots = k;
	}
	memset(r->slots, 0, k * sizeof(*r->slots));
	return 0;
}

/*
 * Run 'fn'('arg', c, slot) in 'k' client processes at once, c = 0 to
 * k - 1, each limited like run_limited()'s child if 'limited' and 'r' has
 * a memory cgroup; while they run, call 'poll'('poll_arg', files done by
 * all) when the progress timer ticked (the progress line).  Their
 * results are in r->slots[0 .. k - 1].  Return 0 when every client got
 * to the end (its slot's o.err says how its phase went), or -1 with
 * o->err and o->what: a client could not be started, or died (ECHILD,
 * or ENOMEM when the OOM killer took it under the limit); the others
 * were stopped then.
 */
int
runner_clients(struct runner *r, unsigned k, bool limited, runner_cfn fn,
    void *arg, void (*poll_fn)(void *, uint64_t), void *poll_arg,
    struct phase_out *o)
{
	pid_t		 pid, pgid = 0;
	unsigned	 c;
	int		 ready[2], go[2];

	memset(o, 0, sizeof(*o));
	if (runner_slots(r, k) == -1) {
		o->err = errno;
		(void)snprintf(o->what, sizeof(o->what), "mapping memory for "
		    "%u clients", k);
		return -1;
	}
	if (limited && r->memcg != NULL)
		(void)memcg_peak_reset(r->memcg);	/* of all of them */
	if (pipe2(ready, O_CLOEXEC) == -1) {
		o->err = errno;
		(void)snprintf(o->what, sizeof(o->what), "a pipe for the "
		    "clients");
		return -1;
	}
	if (pipe2(go, O_CLOEXEC) == -1) {
		o->err = errno;
		(void)close(ready[0]);
		(void)close(ready[1]);
		(void)snprintf(o->what, sizeof(o->what), "a pipe for the "
		    "clients");
		return -1;
	}
	(void)fflush(stdout);
	(void)fflush(stderr);
	for (c = 0; c < k; c++) {
		if ((pid = fork()) == -1) {
			o->err = errno;
			(void)snprintf(o->what, sizeof(o->what), "forking "
			    "client %u of %u", c + 1, k);
			break;
		}
		if (pid == 0) {
			(void)close(ready[0]);
			(void)close(go[1]);
			(void)setpgid(0, pgid);
			client_main(r, c, limited, ready[1], go[0], fn, arg);
		}
		/* Both set it, so that neither has to wait for the other. */
		(void)setpgid(pid, pgid);
		if (pgid == 0) {
			pgid = pid;
			sig_forward(-pgid);
		}
		r->slots[c].pid = pid;
	}
	(void)close(ready[1]);
	(void)close(go[0]);
	if (c < k || clients_ready(r, k, ready[0], o) == -1) {
		if (pgid != 0)		/* before they could start */
			(void)kill(-pgid, SIGKILL);
		k = c;
	}
	(void)close(go[1]);		/* they start */
	(void)close(ready[0]);
	clients_wait(r, k, pgid, poll_fn, poll_arg, o);
	sig_forward(0);
	return o->err != 0 ? -1 : 0;
}

/*
 * A client: leave with largedir, join the cgroup if 'limited', say it is
 * ready on 'ready', wait for 'go' to close, measure, and tell how it went
 * in its slot.  Never returns.
 */
static void
client_main(struct runner *r, unsigned c, bool limited, int ready, int go,
    runner_cfn fn, void *arg)
{
	struct runner_client	*slot = &r->slots[c];
	char			 b;

	sig_forward(0);
	r->in_child = limited && r->memcg != NULL;
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) == -1 || getppid() != r->parent)
		_exit(1);
	if (r->in_child && memcg_enter(r->memcg) == -1) {
		slot->o.err = errno;
		(void)snprintf(slot->o.what, sizeof(slot->o.what), "client "
		    "%u joining the memory cgroup %s", c + 1, r->memcg->dir);
		_exit(1);
	}
	if (r->child_init != NULL)
		r->child_init(r->child_arg);
	if (write(ready, "r", 1) != 1)
		_exit(1);
	while (read(go, &b, 1) == -1 && errno == EINTR)
		;
	(void)close(ready);
	(void)close(go);
	(void)fn(arg, c, slot);
	slot->o.done_ok = 1;
	_exit(0);
}

/*
 * Wait until all 'k' clients said they are ready on 'fd'.  Return 0, or
 * -1 with o->err and o->what if one ended before.
 */
static int
clients_ready(struct runner *r, unsigned k, int fd, struct phase_out *o)
{
	struct pollfd	 pfd = { .fd = fd, .events = POLLIN };
	sig_atomic_t	 cont = sig_cont;
	unsigned	 got = 0, c;
	ssize_t		 len;
	char		 buf[64];
	int		 ws;

	while (got < k) {
		if (poll(&pfd, 1, 100) > 0) {
			if ((len = read(fd, buf, sizeof(buf))) > 0)
				got += (unsigned)len;
			else if (len == 0)
				break;		/* all ended */
			continue;
		}
		for (c = 0; c < k; c++)
			if (waitpid(r->slots[c].pid, &ws, WNOHANG | WUNTRACED |
			    WCONTINUED) > 0 && !stop_seen(&r->slots[c], ws)) {
				client_died(r, c, ws, 0, o);
				r->slots[c].pid = 0;	/* reaped */
				return -1;
			}
		if (stop_deadline(r, k, &cont, o))
			return -1;	/* killed: the caller reaps it */
	}
	if (got == k)
		return 0;
	o->err = ECHILD;
	(void)snprintf(o->what, sizeof(o->what), "the clients ended before "
	    "the phase");
	return -1;
}

/*
 * Reap the 'k' clients of group 'pgid', calling 'poll_fn' with the files
 * done when the progress timer ticked.  The first that died, or was
 * stopped too long and killed, goes into 'o' (unless it holds an error
 * already), and the others are stopped then.
 */
static void
clients_wait(struct runner *r, unsigned k, pid_t pgid,
    void (*poll_fn)(void *, uint64_t), void *poll_arg, struct phase_out *o)
{
	uint64_t	 oom0 = 0, done;
	sig_atomic_t	 cont = sig_cont;
	unsigned	 left = 0, c;
	pid_t		 pid;
	int		 ws;

	if (r->memcg != NULL)
		(void)memcg_oom_kills(r->memcg, &oom0);
	for (c = 0; c < k; c++)
		left += r->slots[c].pid != 0;
	while (left > 0) {
		if ((pid = waitpid(-pgid, &ws, WNOHANG | WUNTRACED |
		    WCONTINUED)) == -1) {
			if (errno == EINTR)
				continue;
			break;			/* ECHILD: none left */
		}
		if (pid == 0) {
			if (sig_poll != 0 && sig_polled() && poll_fn != NULL) {
				for (c = 0, done = 0; c < k; c++)
					done += r->slots[c].progress;
				poll_fn(poll_arg, done);
			}
			if (stop_deadline(r, k, &cont, o))
				stop_others(pgid);
			nap();
			continue;
		}
		for (c = 0; c < k && r->slots[c].pid != pid; c++)
			;
		if (c == k || stop_seen(&r->slots[c], ws))
			continue;
		left--;
		if (WIFEXITED(ws) && r->slots[c].o.done_ok)
			continue;
		if (o->err == 0) {
			client_died(r, c, ws, oom0, o);
			stop_others(pgid);
		}
	}
}

/*
 * Client 'c' ended with wait status 'ws' before it was done: say which
 * and how in 'o'.  Killed by SIGKILL while the cgroup's OOM kills went up
 * from 'oom0' is the limit.
 */
static void
client_died(struct runner *r, unsigned c, int ws, uint64_t oom0,
    struct phase_out *o)
{
	struct runner_client	*slot = &r->slots[c];
	uint64_t		 oom1 = 0;
	int			 sig;

	if (WIFEXITED(ws) && slot->o.err != 0) {
		o->err = slot->o.err;
		(void)snprintf(o->what, sizeof(o->what), "%s", slot->o.what);
		return;
	}
	if (r->memcg != NULL)
		(void)memcg_oom_kills(r->memcg, &oom1);
	sig = WIFSIGNALED(ws) ? WTERMSIG(ws) : 0;
	o->err = sig == SIGKILL && oom1 > oom0 ? ENOMEM : ECHILD;
	if (o->err == ENOMEM)
		(void)snprintf(o->what, sizeof(o->what), "client %u was "
		    "killed by the OOM killer under --memory-limit", c + 1);
	else if (sig != 0)
		(void)snprintf(o->what, sizeof(o->what), "client %u (pid %d) "
		    "died of SIG%s", c + 1, (int)slot->pid, sigabbrev_np(sig));
	else
		(void)snprintf(o->what, sizeof(o->what), "client %u (pid %d) "
		    "exited %d", c + 1, (int)slot->pid, WEXITSTATUS(ws));
}

/*
 * Whether wait status 'ws' (of waitpid() with WUNTRACED | WCONTINUED)
 * says that the client of 'slot' stopped or went on, rather than ended:
 * then note since when it is stopped (the first time largedir saw it),
 * or that it is not.  A client that ended is not stopped either.
 */
static bool
stop_seen(struct runner_client *slot, int ws)
{
	if (WIFSTOPPED(ws)) {
		if (slot->stop_ns == 0)
			slot->stop_ns = timing_now();
		slot->stop_sig = WSTOPSIG(ws);
		return true;
	}
	slot->stop_ns = 0;
	return WIFCONTINUED(ws);
}

/*
 * Kill the first of the 'k' clients that has been stopped for
 * RUNNER_STOP_GRACE_S, and say so in 'o' unless it holds an error
 * already.  '*cont' is sig_cont when the stops were last timed: if
 * largedir itself was stopped since, that time was no client's, and the
 * stops are timed again from now.  Return whether one was killed.
 */
static bool
stop_deadline(struct runner *r, unsigned k, sig_atomic_t *cont,
    struct phase_out *o)
{
	struct runner_client	*s;
	uint64_t		 now = timing_now();
	unsigned		 c;
	bool			 again = *cont != sig_cont;

	*cont = sig_cont;
	for (c = 0; c < k; c++) {
		s = &r->slots[c];
		if (s->pid == 0 || s->stop_ns == 0)
			continue;
		if (again)
			s->stop_ns = now;
		if (now - s->stop_ns < RUNNER_STOP_GRACE_S * 1000000000ULL)
			continue;
		(void)kill(s->pid, SIGKILL);	/* not reaped: still ours */
		s->stop_ns = 0;
		if (o->err == 0) {
			o->err = ECHILD;
			(void)snprintf(o->what, sizeof(o->what), "client %u "
			    "(pid %d) stopped (SIG%s) for %d s: killed", c + 1,
			    (int)s->pid, sigabbrev_np(s->stop_sig),
			    RUNNER_STOP_GRACE_S);
		}
		return true;
	}
	return false;
}

/*
 * The clients of group 'pgid' stop, as at Ctrl-C: SIGTERM, then SIGCONT
 * for one that is stopped.
 */
static void
stop_others(pid_t pgid)
{
	(void)kill(-pgid, SIGTERM);
	(void)kill(-pgid, SIGCONT);
}

/* Sleep a little between looks at the clients: 20 ms. */
static void
nap(void)
{
	struct timespec	ts = { 0, 20 * 1000000L };

	(void)nanosleep(&ts, NULL);
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
	if (r->slots != NULL)
		(void)munmap(r->slots, r->nslots * sizeof(*r->slots));
	r->slots = NULL;
	r->nslots = 0;
}
