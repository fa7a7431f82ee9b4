/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * ranks: see ranks.h.  Errors come back as MPI_ERRORS_RETURN makes them:
 * an MPI call that fails returns -1 with errno EIO, and the caller says
 * which step it was.  A rank that dies ends the whole job (mpirun's
 * rule): the others then hear SIGTERM, leave the collective they wait in
 * (wait_for()) and stop as at Ctrl-C.  This rank and the job's size
 * are asked of MPI each time, so this module keeps nothing of its own:
 * MPI's state is the only state, and only between MPI_Init and
 * MPI_Finalize is there a rank at all (running()).
 */

#include <errno.h>
#include <stdio.h>
#include <time.h>

#include "base/sig.h"
#include "base/util.h"
#include "engine/ranks.h"

#ifdef LD_MPI

#include <mpi.h>

static bool	running(void);
static int	wait_for(MPI_Request *);

/* Whether MPI has started and not yet ended. */
static bool
running(void)
{
	int	started = 0, ended = 0;

	return MPI_Initialized(&started) == MPI_SUCCESS && started &&
	    MPI_Finalized(&ended) == MPI_SUCCESS && !ended;
}

/*
 * Wait for the collective 'req', looking at the signals every 50 us: a
 * rank that died leaves the others waiting in it for ever (MPI cannot
 * tell), and mpirun then sends them SIGTERM, which must end the wait so
 * that rank 0 can clean up.  Return 0, or -1 with errno EINTR (a signal)
 * or EIO.
 */
static int
wait_for(MPI_Request *req)
{
	struct timespec	nap = { 0, 50000 };
	int		done = 0;

	for (;;) {
		if (MPI_Test(req, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS) {
			errno = EIO;
			return -1;
		}
		if (done)
			return 0;
		if (sig_count > 0) {
			errno = EINTR;
			return -1;
		}
		(void)nanosleep(&nap, NULL);
	}
}

/* Whether this build has MPI. */
bool
ranks_built(void)
{
	return true;
}

/*
 * Start MPI ('argc', 'argv' as main() has them), its calls to return
 * their errors.  Return 0, or -1 with errno and 'err'.
 */
int
ranks_start(int *argc, char ***argv, char *err)
{
	int	me, n;

	if (MPI_Init(argc, argv) != MPI_SUCCESS ||
	    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN) !=
	    MPI_SUCCESS || MPI_Comm_rank(MPI_COMM_WORLD, &me) !=
	    MPI_SUCCESS || MPI_Comm_size(MPI_COMM_WORLD, &n) != MPI_SUCCESS)
		return util_fail(err, EIO, "--mpi: MPI cannot start (run "
		    "largedir under mpirun)");
	return 0;
}

/* This rank, from 0; -1 outside MPI_Init .. MPI_Finalize. */
int
ranks_rank(void)
{
	int	me;

	if (!running() || MPI_Comm_rank(MPI_COMM_WORLD, &me) != MPI_SUCCESS)
		return -1;
	return me;
}

/* The number of ranks in the job; 0 outside MPI_Init .. MPI_Finalize. */
int
ranks_size(void)
{
	int	n;

	if (!running() || MPI_Comm_size(MPI_COMM_WORLD, &n) != MPI_SUCCESS)
		return 0;
	return n;
}

/* Give every rank rank 0's 'len' bytes at 'buf'.  Return 0, or -1. */
int
ranks_bcast(void *buf, size_t len)
{
	MPI_Request	req;

	if (MPI_Ibcast(buf, (int)len, MPI_BYTE, 0, MPI_COMM_WORLD, &req) !=
	    MPI_SUCCESS) {
		errno = EIO;
		return -1;
	}
	return wait_for(&req);
}

/* Wait for every rank.  Return 0, or -1. */
int
ranks_barrier(void)
{
	MPI_Request	req;

	if (MPI_Ibarrier(MPI_COMM_WORLD, &req) != MPI_SUCCESS) {
		errno = EIO;
		return -1;
	}
	return wait_for(&req);
}

/*
 * Gather every rank's 'len' bytes at 'mine' into rank 0's 'all' (size x
 * len bytes, in rank order; ignored elsewhere).  Return 0, or -1.
 */
int
ranks_gather(const void *mine, size_t len, void *all)
{
	MPI_Request	req;

	if (MPI_Igather(mine, (int)len, MPI_BYTE, all, (int)len, MPI_BYTE, 0,
	    MPI_COMM_WORLD, &req) != MPI_SUCCESS) {
		errno = EIO;
		return -1;
	}
	return wait_for(&req);
}

/* End MPI, once; after ranks_start() only. */
void
ranks_end(void)
{
	if (running())
		(void)MPI_Finalize();
}

#else /* !LD_MPI: the default build */

bool
ranks_built(void)
{
	return false;
}

int
ranks_start(int *argc, char ***argv, char *err)
{
	(void)argc;
	(void)argv;
	return util_fail(err, ENOTSUP, "--mpi: this largedir was built "
	    "without MPI; build it with 'make MPI=1' (Debian: libopenmpi-dev "
	    "and openmpi-bin)");
}

int
ranks_rank(void)
{
	return 0;
}

int
ranks_size(void)
{
	return 1;
}

int
ranks_bcast(void *buf, size_t len)
{
	(void)buf;
	(void)len;
	errno = ENOTSUP;
	return -1;
}

int
ranks_barrier(void)
{
	errno = ENOTSUP;
	return -1;
}

int
ranks_gather(const void *mine, size_t len, void *all)
{
	(void)mine;
	(void)len;
	(void)all;
	errno = ENOTSUP;
	return -1;
}

void
ranks_end(void)
{
}

#endif /* LD_MPI */
