/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * marker: see marker.h.  A marker reads:
 *
 *	largedir work directory
 *	host: vm
 *	pid: 4242
 *	inode: 1234567
 *	version: 0.1.0
 *	...
 *
 * Everything is opened relative to the directory's descriptor with
 * O_NOFOLLOW, so a symbolic link planted as a marker is never followed.
 */

#include <sys/stat.h>
#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend/marker.h"
#include "base/parse.h"
#include "base/util.h"
#include "machine/sysfile.h"

static bool	process_gone(long long);
static int	parse_u64(const char *, uint64_t *);

/*
 * The text of a marker for directory 'dirfd': the line 'magic', then this
 * host, this pid and the directory's inode, then 'extra' ("key: value\n"
 * lines, or NULL).  Return a new string, or NULL with errno.
 */
char *
marker_text(int dirfd, const char *magic, const char *extra)
{
	struct stat	st;

	if (fstat(dirfd, &st) == -1)
		return NULL;
	return marker_format((uint64_t)st.st_ino, magic, extra);
}

/*
 * The text of a marker for a directory whose inode (file id) is 'ino',
 * as marker_text() writes it; for directories that are not local (NFS).
 * Return a new string.
 */
char *
marker_format(uint64_t ino, const char *magic, const char *extra)
{
	char	host[256];

	if (gethostname(host, sizeof(host)) == -1)
		(void)strcpy(host, "unknown");
	host[sizeof(host) - 1] = '\0';
	return xasprintf("%s\nhost: %s\npid: %ld\ninode: %" PRIu64 "\n%s",
	    magic, host, (long)getpid(), ino, extra != NULL ? extra : "");
}

/*
 * Write 'text' as the new file 'file' in directory 'dirfd'.  Return 0, or
 * -1 with errno; a partly written marker is removed again.
 */
int
marker_put(int dirfd, const char *file, const char *text)
{
	size_t	len = strlen(text);
	int	fd, rc, saved;

	if ((fd = openat(dirfd, file, O_WRONLY | O_CREAT | O_EXCL |
	    O_NOFOLLOW | O_CLOEXEC, 0644)) == -1)
		return -1;
	errno = EIO;
	rc = write(fd, text, len) == (ssize_t)len ? 0 : -1;
	saved = errno;
	if (close(fd) == -1 && rc == 0) {
		rc = -1;
		saved = errno;
	}
	if (rc == -1)
		(void)unlinkat(dirfd, file, 0);
	errno = saved;
	return rc;
}

/*
 * Read marker 'file' of directory 'dirfd' into 'm'.  It counts only if
 * it starts with the line 'magic', names a host, a pid and an inode, and
 * that inode is the directory's own.  Return 0, or -1 if it does not.
 */
int
marker_read(int dirfd, const char *file, const char *magic,
    struct marker *m)
{
	struct stat	 st;
	char		 buf[MARKER_MAX];
	ssize_t		 len;
	int		 fd;

	memset(m, 0, sizeof(*m));
	if ((fd = openat(dirfd, file, O_RDONLY | O_NOFOLLOW |
	    O_CLOEXEC)) == -1)
		return -1;
	len = read(fd, buf, sizeof(buf) - 1);
	(void)close(fd);
	if (len <= 0 || fstat(dirfd, &st) == -1)
		return -1;
	buf[len] = '\0';
	return marker_parse(buf, magic, (uint64_t)st.st_ino, m);
}

/*
 * Parse the marker text 'buf' (changed in place) into 'm', as
 * marker_read() does; 'ino' is the inode (file id) of the directory it
 * was found in.  Return 0, or -1 if it is no marker of that directory.
 */
int
marker_parse(char *buf, const char *magic, uint64_t ino, struct marker *m)
{
	char		*line, *save, *v;
	const char	*errstr;
	size_t		 mlen = strlen(magic);
	int		 seen = 0, seed_seen = 0;

	memset(m, 0, sizeof(*m));
	if (strncmp(buf, magic, mlen) != 0 || buf[mlen] != '\n')
		return -1;
	for (line = strtok_r(buf + mlen + 1, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		if ((v = strstr(line, ": ")) == NULL)
			continue;
		*v = '\0';
		v += 2;
		if (strcmp(line, "host") == 0) {
			(void)snprintf(m->host, sizeof(m->host), "%s", v);
			seen |= 1;
		} else if (strcmp(line, "pid") == 0) {
			m->pid = parse_num(v, 1, INT_MAX, &errstr);
			if (errstr == NULL)
				seen |= 2;
		} else if (strcmp(line, "inode") == 0) {
			m->inode = (uint64_t)parse_num(v, 1, LLONG_MAX,
			    &errstr);
			if (errstr == NULL)
				seen |= 4;
		} else if (strcmp(line, "names") == 0)
			(void)snprintf(m->names, sizeof(m->names), "%s", v);
		else if (strcmp(line, "seed") == 0)
			seed_seen |= parse_u64(v, &m->seed) == 0 ? 1 : 0;
		else if (strcmp(line, "file_size") == 0)
			seed_seen |= parse_u64(v, &m->file_size) == 0 ? 2 : 0;
		else if (strcmp(line, "file_size_max") == 0)
			(void)parse_u64(v, &m->file_size_max);
	}
	m->has_seed = seed_seen == 3;
	return seen == 7 && m->inode == ino ? 0 : -1;
}

/* Whether process 'pid' is gone: no such process, or a zombie. */
static bool
process_gone(long long pid)
{
	char	 path[64], buf[512], *p;

	if (kill((pid_t)pid, 0) == -1 && errno == ESRCH)
		return true;
	(void)snprintf(path, sizeof(path), "/proc/%lld/stat", pid);
	if (sysfile_line(path, buf, sizeof(buf)) == -1)
		return errno == ENOENT;
	/* "pid (comm) S ...": the state follows the last ')'. */
	return (p = strrchr(buf, ')')) != NULL && p[1] == ' ' &&
	    (p[2] == 'Z' || p[2] == 'X');
}

/*
 * Whether the run that wrote marker 'm' may still be running: it was made
 * on another host (which this one cannot tell), by this very process, or
 * its pid lives and is largedir (not a stranger that reused the pid, not
 * a zombie nobody reaped).  If so, point '*why' at the reason.
 */
bool
marker_alive(const struct marker *m, const char **why)
{
	char	 host[256], path[64], comm[64];
	bool	 largedir;

	if (gethostname(host, sizeof(host)) == -1 ||
	    strcmp(host, m->host) != 0) {
		*why = "made on another host: run --cleanup there";
		return true;
	}
	if (m->pid == getpid()) {
		*why = "in use by this largedir";
		return true;
	}
	if (process_gone(m->pid))
		return false;
	(void)snprintf(path, sizeof(path), "/proc/%lld/comm", m->pid);
	largedir = sysfile_line(path, comm, sizeof(comm)) == 0 &&
	    strncmp(comm, "largedir", 8) == 0;
	if (largedir)
		*why = "in use by a running largedir";
	return largedir;
}

/* Read the decimal 'v' into '*out'.  Return 0, or -1 if it is not one. */
static int
parse_u64(const char *v, uint64_t *out)
{
	char	*end;

	if (*v < '0' || *v > '9')
		return -1;
	errno = 0;
	*out = strtoull(v, &end, 10);
	return errno != 0 || *end != '\0' ? -1 : 0;
}

/*
 * Lock marker 'file' of directory 'dirfd' for as long as the returned
 * descriptor stays open: a shared open file description lock, which a
 * fork(2) child shares and exec(2) (O_CLOEXEC) does not pass on.  Return
 * the descriptor, or -1 with errno.
 */
int
marker_lock(int dirfd, const char *file)
{
	struct flock	fl;
	int		fd, saved;

	if ((fd = openat(dirfd, file, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)) ==
	    -1)
		return -1;
	memset(&fl, 0, sizeof(fl));
	fl.l_type = F_RDLCK;
	fl.l_whence = SEEK_SET;
	if (fcntl(fd, F_OFD_SETLK, &fl) == -1) {
		saved = errno;
		(void)close(fd);
		errno = saved;
		return -1;
	}
	return fd;
}

/*
 * Whether marker 'file' of directory 'dirfd' is locked by a run that is
 * alive (marker_lock()), this one included.  Return 1 or 0, or -1 with
 * errno if it cannot be told.
 */
int
marker_held(int dirfd, const char *file)
{
	struct flock	fl;
	int		fd, saved, rc;

	if ((fd = openat(dirfd, file, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)) ==
	    -1)
		return -1;
	memset(&fl, 0, sizeof(fl));
	fl.l_type = F_WRLCK;	/* conflicts with any lock */
	fl.l_whence = SEEK_SET;
	rc = fcntl(fd, F_OFD_GETLK, &fl) == -1 ? -1 : fl.l_type != F_UNLCK;
	saved = errno;
	(void)close(fd);
	errno = saved;
	return rc;
}