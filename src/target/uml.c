/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * uml: see uml.h.  What the target room knows of a User-Mode Linux
 * guest: whether its kernel can run, what it leaves in the run directory,
 * and how to kill one a killed run left; booting it and waiting for it
 * is run/guest.c's.
 */

#include <sys/types.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/util.h"
#include "target/uml.h"

#define POLL_NS		100000000L
#define DRAIN_TRIES	50		/* 5 s for the group to go */

/*
 * Whether the UML kernel 'uml' (NULL: UML_DEFAULT) can be run.  Return
 * 0, or -1 with errno and a message saying how to get it in 'err'.
 */
int
uml_check(const char *uml, char *err)
{
	if (uml == NULL)
		uml = UML_DEFAULT;
	if (access(uml, X_OK) == -1)
		return util_syserr(err, "no User-Mode Linux kernel %s (apt-get "
		    "install user-mode-linux slirp kmod; or set uml = PATH)",
		    uml);
	return 0;
}

/* Kill the process group 'pgid' and wait a little for it to be gone. */
void
uml_kill_group(pid_t pgid)
{
	struct timespec	ts = { 0, POLL_NS };
	int		i;

	for (i = 0; i < DRAIN_TRIES && kill(-pgid, SIGKILL) == 0; i++)
		(void)nanosleep(&ts, NULL);
}

/*
 * For largedir cleanup: kill what a run killed without its teardown left
 * of its guest in the run directory 'rundir': the process group of the
 * linux.uml whose pid its uml_dir holds, if that process still names
 * this uml_dir on its command line.
 */
void
uml_kill_left(const char *rundir)
{
	FILE	*fp;
	char	*path, *want, cmd[4096];
	size_t	 n, i;
	long	 pid;
	pid_t	 pgid;

	path = xasprintf("%s/uml/largedir/pid", rundir);
	fp = fopen(path, "r");
	free(path);
	if (fp == NULL)
		return;
	if (fscanf(fp, "%ld", &pid) != 1 || pid <= 1) {
		(void)fclose(fp);
		return;
	}
	(void)fclose(fp);
	path = xasprintf("/proc/%ld/cmdline", pid);
	fp = fopen(path, "r");
	free(path);
	if (fp == NULL)
		return;
	n = fread(cmd, 1, sizeof(cmd) - 1, fp);
	(void)fclose(fp);
	for (i = 0; i < n; i++)
		if (cmd[i] == '\0')
			cmd[i] = ' ';
	cmd[n] = '\0';
	want = xasprintf("uml_dir=%s/uml ", rundir);
	if (strstr(cmd, want) != NULL && (pgid = getpgid((pid_t)pid)) > 1)
		uml_kill_group(pgid);
	free(want);
}
