/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/* mpistart: see mpistart.h. */

#include <err.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/sig.h"
#include "base/util.h"
#include "engine/rankrun.h"
#include "engine/ranks.h"
#include "report/report.h"
#include "run/mpistart.h"
#include "settings/config.h"

/*
 * --mpi, in every rank: start MPI (refusing first what cannot go with
 * it: a target of -c, a backend without attach, any events); the ranks
 * are the clients, so cfg.clients becomes their number and the settings
 * are checked again.  Return -1 in rank 0, which goes on to run the run,
 * and in every other rank the exit status of its part (rankrun_worker()
 * in r->dir).  Bad input exits 2 as report_usage() does.
 */
int
mpistart(struct run *r, int *argc, char ***argv)
{
	struct backend_opts	 bo;
	struct config		*cfg = &r->cfg;
	char			 errbuf[LD_ERRLEN];
	int			 rc;

	if (r->conf_path != NULL)
		report_usage("--mpi: not with -c (a target set up on one "
		    "machine); give a directory every rank mounts");
	if (r->ops->attach == NULL)
		report_usage("--mpi: not with the %s backend", r->ops->name);
	if (cfg->events != NULL && strcmp(cfg->events, "none") != 0)
		report_usage("--mpi: not with --events (the ranks' machines "
		    "may count different ones)");
	free(cfg->events);
	cfg->events = xstrdup("none");
	if (ranks_start(argc, argv, errbuf) == -1) {
		if (errno == ENOTSUP)
			report_usage("%s", errbuf);
		errx(1, "%s", errbuf);
	}
	cfg->clients = (unsigned)ranks_size();
	if (cfg->clients > CONFIG_MAX_CLIENTS || config_check(cfg, errbuf) ==
	    -1) {
		if (ranks_rank() == 0)
			warnx("%s", cfg->clients > CONFIG_MAX_CLIENTS ?
			    "--mpi: at most 64 ranks" : errbuf);
		ranks_end();
		exit(2);
	}
	if (ranks_rank() == 0)
		return -1;
	report_init(true, false);
	if (sig_setup(false) == -1)
		err(1, "sigaction");
	setup_backend_opts(r, &bo);
	rc = rankrun_worker(cfg, r->ops, r->dir, &bo, errbuf);
	if (rc == -1)
		warnx("%s", errbuf);
	ranks_end();
	return rc == -1 ? 1 : 0;
}
