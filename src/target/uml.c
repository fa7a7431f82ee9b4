/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * uml: see uml.h.  What the target room knows of a User-Mode Linux
 * guest: whether its kernel can run and which release it is, what it
 * leaves in the run directory,
 * and how to kill one a killed run left; booting it and waiting for it
 * is run/guest.c's.
 */

#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
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

/*
 * The release of the UML kernel 'uml' ("6.12.57"), as its --version
 * prints it, into 'buf' ('len' bytes).  The kernel runs as a process of
 * its own with nothing but that option, for at most 10 s.  Return 0, or
 * -1 with errno and a message in 'err'.
 */
int
uml_release(const char *uml, char *buf, size_t len, char *err)
{
	struct timespec	 ts = { 0, POLL_NS };
	char		 out[128];
	ssize_t		 n;
	size_t		 got = 0;
	pid_t		 pid;
	int		 fd[2], st, i;

	if (uml_check(uml, err) == -1)
		return -1;
	if (pipe(fd) == -1)
		return util_syserr(err, "pipe");
	if ((pid = fork()) == -1) {
		(void)close(fd[0]);
		(void)close(fd[1]);
		return util_syserr(err, "fork");
	}
	if (pid == 0) {
		(void)dup2(fd[1], STDOUT_FILENO);
		(void)close(fd[0]);
		(void)close(fd[1]);
		if ((i = open("/dev/null", O_RDWR)) != -1) {
			(void)dup2(i, STDIN_FILENO);
			(void)dup2(i, STDERR_FILENO);
		}
		(void)setpgid(0, 0);
		execl(uml, uml, "--version", (char *)NULL);
		_exit(127);
	}
	(void)close(fd[1]);
	(void)fcntl(fd[0], F_SETFL, O_NONBLOCK);
	for (i = 0; i < 100; i++) {
		n = read(fd[0], out + got, sizeof(out) - 1 - got);
		if (n > 0 && (got += (size_t)n) < sizeof(out) - 1)
			continue;
		if (n == 0 || got == sizeof(out) - 1)
			break;
		(void)nanosleep(&ts, NULL);
	}
	(void)close(fd[0]);
	(void)kill(-pid, SIGKILL);
	(void)waitpid(pid, &st, 0);
	out[got] = '\0';
	out[strcspn(out, "\n")] = '\0';
	if (out[0] < '0' || out[0] > '9' || strspn(out, "0123456789"
	    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.+_-") !=
	    strlen(out) || strlen(out) >= len)
		return util_fail(err, EINVAL, "%s --version: no kernel release "
		    "(it printed '%.40s')", uml, out);
	(void)snprintf(buf, len, "%s", out);
	return 0;
}

/*
 * Whether the UML kernel 'uml' can run 'cpus' CPUs: User-Mode Linux runs
 * more than one from Linux 6.19 (CONFIG_SMP, ncpus=).  Return 0, or -1
 * with errno and a message in 'err'.
 */
int
uml_cpus_check(const char *uml, unsigned cpus, char *err)
{
	char	rel[64];
	int	major, minor;

	if (cpus <= 1)
		return 0;
	if (uml_release(uml, rel, sizeof(rel), err) == -1)
		return -1;
	if (sscanf(rel, "%d.%d", &major, &minor) != 2 ||
	    major * 1000 + minor < 6 * 1000 + 19)
		return util_fail(err, ENOTSUP, "uml_cpus %u: %s (Linux %s) "
		    "runs one CPU; User-Mode Linux runs more from Linux 6.19",
		    cpus, uml, rel);
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
