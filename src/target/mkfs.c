/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * mkfs: see mkfs.h.  mkfs_run() holds SIGINT, SIGTERM and SIGPIPE back
 * from fork until sig.c knows the child, so that no signal slips in
 * between; the child takes the default actions back before it lets them
 * through, so a signal that came meanwhile stops it before mkfs starts.
 */

#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <blkid.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/sig.h"
#include "base/util.h"
#include "machine/mountinfo.h"
#include "target/mkfs.h"

static char	**split_cmd(const char *, const char *, char **);
static char	*joined(char *const *);
static int	spawn(char *const *, int, int, int *, char *);
static bool	failed(const char *, int, int, const char *, char *);

/*
 * Refuse block device 'dev' unless it is free: not mounted, not held open
 * exclusively, and (unless 'wipe') without any signature libblkid knows.
 * Return 0, or -1 with errno (EBUSY: mounted or in use, EEXIST: it holds
 * something) and a message naming the device in 'err'.
 */
int
mkfs_check_device(const char *dev, bool wipe, char *err)
{
	const struct mountinfo_entry	*e;
	struct mountinfo		 mi;
	struct stat			 st;
	blkid_probe			 pr;
	const char			*type, *usage = NULL;
	int				 fd, rc;

	if (stat(dev, &st) == -1)
		return util_syserr(err, "device %s", dev);
	if (!S_ISBLK(st.st_mode))
		return util_fail(err, EINVAL, "device %s: not a block device",
		    dev);
	if (mountinfo_load(MOUNTINFO_SELF, &mi) == -1)
		return util_syserr(err, "read " MOUNTINFO_SELF);
	e = mountinfo_by_dev(&mi, major(st.st_rdev), minor(st.st_rdev));
	if (e != NULL) {
		(void)util_fail(err, EBUSY, "device %s is mounted on %s: "
		    "refusing mkfs", dev, e->mountpoint);
		mountinfo_free(&mi);
		return -1;
	}
	mountinfo_free(&mi);
	if ((fd = open(dev, O_RDONLY | O_EXCL | O_CLOEXEC)) == -1) {
		if (errno == EBUSY)
			return util_fail(err, EBUSY, "device %s is in use: "
			    "refusing mkfs", dev);
		return util_syserr(err, "open %s", dev);
	}
	(void)close(fd);
	if (wipe)
		return 0;
	if ((pr = blkid_new_probe_from_filename(dev)) == NULL)
		return util_syserr(err, "probe %s", dev);
	(void)blkid_probe_enable_superblocks(pr, 1);
	(void)blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE |
	    BLKID_SUBLKS_USAGE);
	(void)blkid_probe_enable_partitions(pr, 1);
	rc = blkid_do_safeprobe(pr);
	if (rc == 0 && blkid_probe_lookup_value(pr, "TYPE", &type,
	    NULL) == 0) {
		(void)blkid_probe_lookup_value(pr, "USAGE", &usage, NULL);
		(void)util_fail(err, EEXIST, "device %s holds %s %s %s: "
		    "refusing mkfs (set wipe = yes to allow it)", dev, *type !=
		    '\0' && strchr("aeioux", *type) != NULL ? "an" : "a", type,
		    usage == NULL || strcmp(usage, "filesystem") == 0 ?
		    "filesystem" : "signature");
	} else if (rc == 0 && blkid_probe_lookup_value(pr, "PTTYPE", &type,
	    NULL) == 0)
		(void)util_fail(err, EEXIST, "device %s holds a %s partition "
		    "table: refusing mkfs (set wipe = yes to allow it)", dev,
		    type);
	else if (rc == 0 || rc == -2)
		(void)util_fail(err, EEXIST, "device %s holds %s: refusing "
		    "mkfs (set wipe = yes to allow it)", dev, rc == 0 ?
		    "a signature" : "conflicting signatures");
	else if (rc < 0)
		(void)util_fail(err, EIO, "probe %s for signatures failed",
		    dev);
	blkid_free_probe(pr);
	return rc == 1 ? 0 : -1;
}

/*
 * Run the mkfs command line 'cmd' on 'dev': split it on blanks, add
 * 'dev', fork and execvp with stdin from /dev/null and stdout and stderr
 * into the new file 'log'.  Store the command as run in '*as_run' (a new
 * string; the caller frees it).  A signal sig.c catches meanwhile is
 * passed on to mkfs (sig_forward()); the caller sees it in sig_count.
 * Return 0 when mkfs exits 0.  Else return -1 with errno and a message
 * in 'err'; when mkfs itself failed (EIO), the message quotes the last
 * line of its log and, if there is one, names 'log' and sets
 * '*keep_log' (false otherwise), so the caller can leave it for a person
 * to read.
 */
int
mkfs_run(const char *cmd, const char *dev, const char *log, char **as_run,
    bool *keep_log, char *err)
{
	char	**argv, *line;
	int	  fd, nul, status, rc = -1;

	*keep_log = false;
	*as_run = NULL;
	if ((argv = split_cmd(cmd, dev, &line)) == NULL)
		return util_fail(err, EINVAL, "mkfs: no program given");
	*as_run = joined(argv);
	nul = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if ((fd = open(log, O_RDWR | O_CREAT | O_TRUNC | O_NOFOLLOW |
	    O_CLOEXEC, 0644)) == -1 || nul == -1)
		(void)util_syserr(err, "create %s", log);
	else if (spawn(argv, nul, fd, &status, err) == 0) {
		if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
			rc = 0;
		else
			*keep_log = failed(argv[0], status, fd, log, err);
	}
	if (fd != -1)
		(void)close(fd);
	if (nul != -1)
		(void)close(nul);
	free(argv);
	free(line);
	return rc;
}

/*
 * The words of the command line 'cmd' (split on blanks, in a copy of it
 * stored in '*line'), then 'dev', then NULL.  Return them (the caller
 * frees them and '*line'), or NULL, with nothing to free, if 'cmd' has
 * no word.
 */
static char **
split_cmd(const char *cmd, const char *dev, char **line)
{
	char	**argv = NULL, *p, *save;
	size_t	  n = 0;

	*line = xstrdup(cmd);
	for (p = strtok_r(*line, " \t", &save); p != NULL;
	    p = strtok_r(NULL, " \t", &save)) {
		argv = xreallocarray(argv, n + 3, sizeof(*argv));
		argv[n++] = p;
	}
	if (n == 0) {
		free(*line);
		*line = NULL;
		return NULL;
	}
	argv[n++] = (char *)dev;
	argv[n] = NULL;
	return argv;
}

/* The words of 'argv' (ended by NULL) joined by blanks, allocated. */
static char *
joined(char *const *argv)
{
	char	*s, *p;
	size_t	 i, len = 0;

	for (i = 0; argv[i] != NULL; i++)
		len += strlen(argv[i]) + 1;
	p = s = xmalloc(len);
	for (i = 0; argv[i] != NULL; i++)
		p += snprintf(p, len - (size_t)(p - s), "%s%s", i == 0 ? "" :
		    " ", argv[i]);
	return s;
}

/*
 * Run 'argv' with stdin from 'nul' and stdout and stderr into 'fd', and
 * wait for it, passing on a signal sig.c catches meanwhile; its wait
 * status into '*status'.  Return 0, or -1 with errno and 'err' set when
 * it could not be forked or waited for.
 */
static int
spawn(char *const *argv, int nul, int fd, int *status, char *err)
{
	sigset_t	block, old;
	pid_t		pid;

	/* Held back until sig.c knows the child (see the top of the file). */
	(void)sigfillset(&block);
	(void)sigprocmask(SIG_BLOCK, &block, &old);
	if ((pid = fork()) == -1) {
		(void)util_syserr(err, "fork");
		(void)sigprocmask(SIG_SETMASK, &old, NULL);
		return -1;
	}
	if (pid == 0) {
		(void)signal(SIGINT, SIG_DFL);
		(void)signal(SIGTERM, SIG_DFL);
		(void)signal(SIGPIPE, SIG_DFL);
		(void)sigprocmask(SIG_SETMASK, &old, NULL);
		if (dup2(nul, 0) == -1 || dup2(fd, 1) == -1 ||
		    dup2(fd, 2) == -1)
			_exit(127);
		(void)execvp(argv[0], argv);
		dprintf(2, "execvp %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	sig_forward(pid);	/* and a signal that came already, now */
	(void)sigprocmask(SIG_SETMASK, &old, NULL);
	while (waitpid(pid, status, 0) == -1)
		if (errno != EINTR) {
			(void)util_syserr(err, "wait for %s", argv[0]);
			sig_forward(0);
			return -1;
		}
	sig_forward(0);
	return 0;
}

/*
 * mkfs ('prog') ended with wait status 'status', not 0: say so in 'err'
 * (errno EIO) with the last line of its log 'log' (open as 'fd'), which
 * says best what went wrong, and the log's name.  Return whether the log
 * is worth keeping: false when mkfs said nothing.
 */
static bool
failed(const char *prog, int status, int fd, const char *log, char *err)
{
	char	last[LD_ERRLEN], how[64], where[LD_ERRLEN];
	int	room;

	if (WIFEXITED(status))
		(void)snprintf(how, sizeof(how), "failed (exit %d)",
		    WEXITSTATUS(status));
	else
		(void)snprintf(how, sizeof(how), "killed by SIG%s",
		    sigabbrev_np(WTERMSIG(status)));
	mkfs_last_line(fd, last, sizeof(last));
	if (last[0] == '\0') {
		(void)util_fail(err, EIO, "%s %s with no output", prog, how);
		return false;
	}
	/* The log is named whole; the line gets the room that is left. */
	(void)snprintf(where, sizeof(where), "; log kept in %s until "
	    "largedir cleanup", log);
	room = LD_ERRLEN - 1 - (int)(strlen(prog) + strlen(how) +
	    strlen(where)) - 3;
	if (room < 16)
		room = 16;
	if (strlen(last) > (size_t)room && room > 3)
		(void)strcpy(last + room - 3, "...");
	(void)util_fail(err, EIO, "%s %s: %s%s", prog, how, last, where);
	return true;
}

/*
 * Copy the last line of the file open as 'fd' that shows something into
 * 'buf' ('size' bytes), as a terminal would show it: a backspace takes
 * back the character before it (mke2fs draws its progress counters so), a
 * carriage return ends a line, other control characters become blanks,
 * blanks at both ends go.  "" if no line shows anything.
 */
void
mkfs_last_line(int fd, char *buf, size_t size)
{
	struct stat	 st;
	char		 tail[4096], *line;
	ssize_t		 got;
	off_t		 from;
	size_t		 end, start, i, n;

	buf[0] = '\0';
	if (fstat(fd, &st) == -1)
		return;
	from = st.st_size > (off_t)sizeof(tail) ? st.st_size -
	    (off_t)sizeof(tail) : 0;
	if ((got = pread(fd, tail, sizeof(tail), from)) <= 0)
		return;
	line = xmalloc((size_t)got + 1);
	for (end = (size_t)got; end > 0; end = start) {
		for (start = end; start > 0 && tail[start - 1] != '\n' &&
		    tail[start - 1] != '\r'; start--)
			;
		for (i = start, n = 0; i < end; i++) {
			if (tail[i] == '\b') {
				if (n > 0)
					n--;
			} else if ((unsigned char)tail[i] < ' ' ||
			    tail[i] == 0x7f)
				line[n++] = ' ';
			else
				line[n++] = tail[i];
		}
		while (n > 0 && line[n - 1] == ' ')
			n--;
		line[n] = '\0';
		for (i = 0; line[i] == ' '; i++)
			;
		if (line[i] != '\0') {
			(void)snprintf(buf, size, "%s", line + i);
			break;
		}
		if (start > 0)
			start--;	/* past the line break */
	}
	free(line);
}
