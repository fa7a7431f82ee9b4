/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * cleanup: largedir cleanup [--scratch DIR] [DIR], also spelt --cleanup.
 * A front-end module: the sweeps of target.c, memcg.c and the backend
 * decide what is ours and dead, and report.c says, one line each, what
 * was removed or kept and why.
 */

#include <err.h>
#include <stdio.h>
#include <unistd.h>

#include "backend/backend.h"
#include "base/util.h"
#include "report/report.h"
#include "target/memcg.h"
#include "target/target.h"
#include "verbs/cleanup.h"

/*
 * Remove what killed runs left: targets (mounts, loop devices, images)
 * in 'scratch' (NULL: TARGET_SCRATCH), the memory cgroups of
 * --memory-limit runs, and, if 'dir' is not NULL, the work directories
 * in 'dir'.  Return the exit status.
 */
int
cleanup_main(const char *dir, const char *scratch)
{
	const struct backend_ops	*ops;
	char				 errbuf[LD_ERRLEN];
	int				 found;

	if (scratch == NULL)
		scratch = TARGET_SCRATCH;
	if ((found = target_sweep(scratch, report_target, NULL, errbuf)) ==
	    -1)
		errx(1, "%s", errbuf);
	if (found == 0 && dir == NULL)
		printf("no largedir targets in %s\n", scratch);
	/* The memory cgroups of --memory-limit runs that were killed. */
	if (geteuid() == 0 && memcg_sweep("/", report_memcg, NULL, errbuf) ==
	    -1)
		warnx("%s", errbuf);
	if (dir != NULL) {
		if ((ops = backend_for(dir)) == NULL)
			report_usage("%s: no backend for this kind of "
			    "target", dir);
		/* A directory must be one; a URL's sweep judges it. */
		if ((ops->flags & BACKEND_LOCAL) != 0 &&
		    ops->check(dir, errbuf) == -1)
			report_usage("%s", errbuf);
		if ((found = ops->sweep(dir, report_sweep, NULL, errbuf)) ==
		    -1)
			errx(1, "%s", errbuf);
		if (found == 0)
			printf("no largedir work directories in %s\n", dir);
	}
	if (fflush(stdout) == EOF)
		err(1, "stdout");
	return 0;
}
