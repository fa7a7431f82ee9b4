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
#include <string.h>
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

/*
 * largedir cleanup [--scratch DIR] [DIR] ('argc' words of 'argv', argv[0]
 * "cleanup"): answer -h and return NULL, or return the arguments of the
 * run that does it, largedir --cleanup [--scratch DIR] [DIR] ('argc' + 1
 * words, to free; the words are argv's).
 */
char **
cleanup_verb_args(int argc, char **argv)
{
	char	**args;
	int	  i;

	if (argc == 2 && (strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "--help") == 0)) {
		if (printf("usage: largedir cleanup [--scratch dir] [dir]\n\n"
		    "Remove what runs killed without their teardown left: the "
		    "work directories\nof dead runs in dir (a directory or an "
		    "nfs:// URL), only the names\nthey made, and the targets' "
		    "mounts, loop devices, images and memory\ncgroups under "
		    "--scratch (/var/tmp/largedir).  A run still alive, and\n"
		    "anything largedir did not make, is kept.\n") < 0 ||
		    fflush(stdout) == EOF)
			err(1, "stdout");
		return NULL;
	}
	args = xreallocarray(NULL, (size_t)argc + 2, sizeof(*args));
	args[0] = (char *)"largedir";
	args[1] = (char *)"--cleanup";
	for (i = 1; i < argc; i++)
		args[i + 1] = argv[i];
	args[argc + 1] = NULL;
	return args;
}
