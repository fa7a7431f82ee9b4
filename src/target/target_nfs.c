/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * target_nfs: see target_nfs.h.
 *
 * A kernel lists a filesystem in /proc/filesystems only once the driver
 * is in it, but mount(2) loads a missing one itself (request_module of
 * "fs-TYPE"), so an NFS client that is a module not loaded yet, as on
 * most distributions' kernels until the first NFS mount, still counts:
 * target_nfs_check() looks for its alias in the kernel's modules.alias.
 * A kernel without module support (no /proc/modules) has only what it
 * lists.  Nothing here loads a module or runs a program.
 *
 * Every path is under a 'root' parameter ("" on a live system), so the
 * unit tests point the checks at a directory of their own.
 */

#include <sys/stat.h>
#include <sys/utsname.h>

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "machine/probe.h"
#include "machine/sysfile.h"
#include "target/mkfs.h"
#include "target/target_nfs.h"

/* What alias_line() looks for. */
struct alias_scan {
	const char	*want;		/* "fs-nfs" */
	bool		 found;
};

static int	alias_line(void *, char *);
static int	loadable(const char *, const char *, char *, size_t);

/* sysfile_lines() callback: "alias fs-nfs nfs" names the module. */
static int
alias_line(void *arg, char *line)
{
	struct alias_scan	*a = arg;
	size_t			 n;

	if (strncmp(line, "alias ", 6) != 0)
		return 0;
	line += 6;
	n = strlen(a->want);
	a->found = strncmp(line, a->want, n) == 0 && (line[n] == ' ' ||
	    line[n] == '\t');
	return a->found ? 1 : 0;
}

/*
 * Whether the kernel under 'root' can load a module for filesystem
 * 'fstype' when a mount asks for it: it loads modules at all (it has
 * /proc/modules) and modules.alias of its release names "fs-FSTYPE".
 * Return 1 or 0, and on 0 say why in 'why' ('len' bytes).
 */
static int
loadable(const char *root, const char *fstype, char *why, size_t len)
{
	struct alias_scan	 a;
	struct utsname		 uts;
	char			*path, want[64];

	path = xasprintf("%s/proc/modules", root);
	if (access(path, F_OK) == -1) {
		free(path);
		(void)snprintf(why, len, "and it cannot load modules");
		return 0;
	}
	free(path);
	if (uname(&uts) == -1) {
		(void)snprintf(why, len, "and its release is unknown");
		return 0;
	}
	(void)snprintf(want, sizeof(want), "fs-%s", fstype);
	a.want = want;
	a.found = false;
	path = xasprintf("%s/lib/modules/%s/modules.alias", root,
	    uts.release);
	(void)sysfile_lines(path, alias_line, &a);
	free(path);
	if (!a.found)
		(void)snprintf(why, len, "no module %s in /lib/modules/%s",
		    want, uts.release);
	return a.found ? 1 : 0;
}

/*
 * Check that the machine under 'root' ("" for this one) can mount an
 * export with 'fstype' (nfs or nfs4): the kernel's client is listed in
 * root/proc/filesystems, or can be loaded (see the top of this file),
 * and root/sbin/mount.FSTYPE, which libmount runs, is there.  An
 * unreadable /proc/filesystems counts as listed: the mount will tell.
 * Return 0, or -1 with errno (ENODEV: no client in the kernel, ENOENT:
 * no mount.nfs) and one line saying so and what to do in 'err'.
 */
int
target_nfs_check(const char *root, const char *fstype, char *err)
{
	char	*path, why[256];
	bool	 v4;
	int	 known;

	v4 = strcmp(fstype, "nfs4") == 0;
	path = xasprintf("%s/proc/filesystems", root);
	known = probe_fs_known(path, fstype);
	free(path);
	if (known == 0 && !loadable(root, fstype, why, sizeof(why)))
		return util_fail(err, ENODEV, "this kernel has no NFS%s "
		    "client (no %s in /proc/filesystems, %s)", v4 ? "v4" : "",
		    fstype, why);
	path = xasprintf("%s/sbin/mount.%s", root, fstype);
	if (access(path, X_OK) == -1) {
		free(path);
		return util_fail(err, ENOENT, "no /sbin/mount.%s to mount NFS "
		    "exports with: install nfs-common (Debian, Ubuntu) or "
		    "nfs-utils", fstype);
	}
	free(path);
	return 0;
}

/*
 * Send this process's stderr, where mount.nfs will write, to the new
 * file 'log' (replaced if it exists) until target_nfs_log_end(), and
 * store a copy of the old stderr in '*saved'.  Return 0, or -1 with errno
 * and a message in 'err'; stderr is unchanged then.
 */
int
target_nfs_log_start(const char *log, int *saved, char *err)
{
	int	fd, e;

	if ((fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW |
	    O_CLOEXEC, 0600)) == -1)
		return util_syserr(err, "create %s", log);
	(void)fflush(stderr);
	if ((*saved = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3)) == -1 ||
	    dup2(fd, STDERR_FILENO) == -1) {
		e = errno;
		if (*saved != -1)
			(void)close(*saved);
		(void)close(fd);
		(void)unlink(log);
		errno = e;
		return util_syserr(err, "send stderr to %s", log);
	}
	(void)close(fd);
	return 0;
}

/*
 * Give stderr back ('saved', from target_nfs_log_start()), copy the
 * last line 'log' shows into 'line' ('len' bytes; "" if none) and
 * remove 'log'.
 */
void
target_nfs_log_end(int saved, const char *log, char *line, size_t len)
{
	int	fd;

	(void)dup2(saved, STDERR_FILENO);
	(void)close(saved);
	line[0] = '\0';
	if ((fd = open(log, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)) != -1) {
		mkfs_last_line(fd, line, len);
		(void)close(fd);
	}
	(void)unlink(log);
}

/*
 * Whether a mount of an NFS export that failed with errno 'e' and the
 * last line 'said' of mount.nfs ("" if it said nothing) failed because
 * the kernel has no NFS client: ENODEV, or mount.nfs's words for it.  If
 * so, write one line saying it into 'err', naming 'fstype', and return 1;
 * else return 0 and leave 'err' alone.
 */
int
target_nfs_failed(const char *fstype, const char *said, int e, char *err)
{
	if (e != ENODEV && strstr(said, "No such device") == NULL &&
	    strstr(said, "unknown filesystem type") == NULL)
		return 0;
	(void)util_fail(err, ENODEV, "this kernel has no NFS%s client (the "
	    "mount failed: %s)", strcmp(fstype, "nfs4") == 0 ? "v4" : "",
	    said[0] != '\0' ? said : strerror(e));
	return 1;
}
