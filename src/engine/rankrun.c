/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * rankrun: see rankrun.h.
 */

#include <err.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/sig.h"
#include "base/util.h"
#include "engine/measure.h"
#include "engine/rankrun.h"
#include "engine/ranks.h"
#include "engine/round.h"

#define HOST_LEN	64

static int	phases(struct round *, char *);

/* What rank 0 tells the others once (rankrun_hello()). */
struct hello {
	uint64_t	seed;
	char		workdir[NAME_MAX + 1];	/* its name in the target */
};

/*
 * Rank 0 tells every rank the seed '*seed' and the name of the work
 * directory 'workdir' (in the directory under test, which every rank was
 * given: a path, or an NFS URL); another rank learns them into '*seed'
 * and 'workdir' ('len' bytes).  Then every rank says its host, and rank 0
 * records them in 'meta' as mpi_ranks ("4: vm1 vm1 vm2 vm2").  Return 0,
 * or -1 with errno (an MPI call failed).
 */
int
rankrun_hello(uint64_t *seed, char *workdir, size_t len,
    struct kvlist *meta)
{
	struct hello		 h;
	const char		*base;
	char			 host[HOST_LEN], *all, *list, *old;
	int			 i, k = ranks_size();

	memset(&h, 0, sizeof(h));
	if (ranks_rank() == 0) {
		h.seed = *seed;
		base = strrchr(workdir, '/');
		(void)snprintf(h.workdir, sizeof(h.workdir), "%s", base !=
		    NULL ? base + 1 : workdir);
	}
	if (ranks_bcast(&h, sizeof(h)) == -1)
		return -1;
	if (ranks_rank() != 0) {
		*seed = h.seed;
		(void)snprintf(workdir, len, "%s", h.workdir);
	}
	memset(host, 0, sizeof(host));
	if (gethostname(host, sizeof(host) - 1) == -1)
		(void)strcpy(host, "?");
	all = xcalloc((size_t)k, sizeof(host));
	if (ranks_gather(host, sizeof(host), all) == -1) {
		free(all);
		return -1;
	}
	if (ranks_rank() == 0 && meta != NULL) {
		list = xasprintf("%d:", k);
		for (i = 0; i < k; i++) {
			all[(size_t)i * HOST_LEN + HOST_LEN - 1] = '\0';
			old = list;
			list = xasprintf("%s %s", old, all + (size_t)i *
			    HOST_LEN);
			free(old);
		}
		kv_set(meta, "mpi_ranks", "%s", list);
		free(list);
	}
	free(all);
	return 0;
}

/*
 * A rank but 0, all run long: learn the seed and the work directory,
 * attach to it in 'target' with 'ops', and do the phases rank 0 tells
 * (phases()) until the run is over.  'cfg' is what this rank
 * read from the same command line.  Return 0, or -1 with errno and 'err'.
 */
int
rankrun_worker(struct config *cfg, const struct backend_ops *ops,
    const char *target, struct backend_opts *bo, char *err)
{
	struct round		 rd;
	struct perf		 pf;
	struct backend		 be;
	char			 workdir[NAME_MAX + 1] = "", msg[LD_ERRLEN];
	int			 rc;

	if (rankrun_hello(&cfg->seed, workdir, sizeof(workdir), NULL) == -1)
		return util_fail(err, errno, "--mpi: rank %d cannot hear rank "
		    "0", ranks_rank());
	bo->seed = cfg->seed;
	/* --mpi counts no events: the ranks' machines may differ in them. */
	if (perf_init(&pf, "none", msg) == -1)
		return util_fail(err, EINVAL, "%s", msg);
	if (backend_attach(&be, ops, target, workdir, bo, err) == -1)
		return -1;
	round_init(&rd);
	rd.cfg = cfg;
	rd.be = &be;
	rd.perf = &pf;
	/* The extras as rank 0 lays them out: no events, the counters. */
	rd.nperf = 0;
	rd.ncounters = ops->shared_counters ? 0 : backend_ncounters(ops);
	runner_init(&rd.runner, NULL, NULL, NULL);
	rc = phases(&rd, err);
	round_free(&rd);
	if (backend_close(&be, true, msg) == -1 && rc == 0)
		rc = util_fail(err, errno, "%s", msg);
	return rc;
}

/*
 * An MPI rank but 0 (--mpi): do the phases rank 0 tells, each rank its
 * share, until it says the run is over.  'r' is set up for
 * round_prepare(), its backend attached to rank 0's work directory.  A
 * phase that fails here is told to rank 0 in the rank's slot; only the
 * transport failing ends the loop.  Return 0, or -1 with errno and
 * 'err'.
 */
static int
phases(struct round *r, char *err)
{
	struct runner_client		*mine;
	struct ranks_cmd		 cmd;
	struct backend_dir		*dir = NULL;
	uint64_t			 n = 0;
	unsigned			 me = (unsigned)ranks_rank();
	char				 cur[sizeof(cmd.dname)] = "";
	int				 rc = 0;

	if (runner_slots(&r->runner, 1) == -1)
		return util_syserr(err, "--mpi: rank %u: mapping memory", me);
	mine = r->runner.slots;
	for (;;) {
		if (ranks_bcast(&cmd, sizeof(cmd)) == -1) {
			rc = util_syserr(err, "--mpi: rank %u cannot hear "
			    "rank 0", me);
			break;
		}
		if (cmd.op != RANKS_PHASE)
			break;			/* RANKS_END */
		cmd.dname[sizeof(cmd.dname) - 1] = '\0';
		memset(mine, 0, sizeof(*mine));
		if (cmd.n != n && round_prepare(r, cmd.n) == -1) {
			mine->o.err = errno;
			(void)snprintf(mine->o.what, sizeof(mine->o.what),
			    "rank %u: names for n=%" PRIu64, me, cmd.n);
		} else
			n = cmd.n;
		if (mine->o.err == 0 && strcmp(cmd.dname, cur) != 0) {
			if (dir != NULL)
				(void)r->be->ops->rmdir(r->be, dir, false);
			dir = NULL;
			*cur = '\0';
			if (r->be->ops->enter(r->be, cmd.dname, &dir) == -1) {
				mine->o.err = errno;
				(void)snprintf(mine->o.what,
				    sizeof(mine->o.what), "rank %u: entering "
				    "%s", me, cmd.dname);
			} else
				(void)snprintf(cur, sizeof(cur), "%s",
				    cmd.dname);
		}
		r->w.dir = dir;
		r->k = cmd.k;
		if (mine->o.err == 0)
			measure_rank_begin(r, (enum phase)cmd.phase, cmd.rep,
			    cmd.n);
		if (ranks_barrier() == -1) {
			rc = util_syserr(err, "--mpi: rank %u: the start of "
			    "a phase", me);
			break;
		}
		if (mine->o.err == 0)
			measure_rank_share(r, (enum phase)cmd.phase, cmd.rep,
			    cmd.n, me, mine);
		mine->o.done_ok = 1;
		if (ranks_barrier() == -1 ||
		    ranks_gather(mine, sizeof(*mine), NULL) == -1) {
			rc = util_syserr(err, "--mpi: rank %u: the end of a "
			    "phase", me);
			break;
		}
	}
	if (dir != NULL)
		(void)r->be->ops->rmdir(r->be, dir, false);
	return rc;
}

/* Rank 0: the run is over; the other ranks leave phases(). */
void
rankrun_end(void)
{
	struct ranks_cmd	cmd;

	memset(&cmd, 0, sizeof(cmd));
	cmd.op = RANKS_END;
	(void)ranks_bcast(&cmd, sizeof(cmd));
}
