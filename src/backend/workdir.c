/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * workdir: see workdir.h.
 *
 * The marker (marker.c) adds to host, pid and inode:
 *
 *	version: 0.1.0
 *	started: 2026-11-29T19:40:00Z
 *	names: fixed 8
 *	seed: 42
 *	file_size: 0
 *	file_size_max: 0
 *
 * and WORKDIR_ROUND holds one line, "round-0003-1 2250", rewritten before
 * each round directory is made: only one exists at a time, since a round
 * that cannot remove its directory stops the run.
 *
 * Everything here works through directory descriptors opened with
 * O_NOFOLLOW, as the sweep does (workdir_sweep.c).
 */

#include <sys/random.h>
#include <sys/stat.h>
#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend/marker.h"
#include "backend/workdir.h"
#include "base/timing.h"
#include "base/util.h"

static int	make_dir(int, char **);
static void	close_all(struct workdir *);
static void	unlock(struct workdir *);
static bool	same_dir(int, const char *, int);
static void	moved_to(int, char *, size_t);

/*
 * Make a new directory "largedir.XXXXXX" in 'parentfd' with a random
 * suffix, mode 0700, and store its name in '*name' (a new string).
 * Return 0, or -1 with errno.
 */
static int
make_dir(int parentfd, char **name)
{
	static const char	 chars[] = "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	uint64_t		 r;
	char			 suffix[7];
	int			 tries, i;

	for (tries = 0; tries < 100; tries++) {
		if (getrandom(&r, sizeof(r), 0) != (ssize_t)sizeof(r))
			r = timing_now() ^ ((uint64_t)getpid() << 32) ^
			    (uint64_t)tries;
		for (i = 0; i < 6; i++, r /= sizeof(chars) - 1)
			suffix[i] = chars[r % (sizeof(chars) - 1)];
		suffix[6] = '\0';
		*name = xasprintf(WORKDIR_PREFIX "%s", suffix);
		if (mkdirat(parentfd, *name, 0700) == 0)
			return 0;
		free(*name);
		*name = NULL;
		if (errno != EEXIST)
			return -1;
	}
	errno = EEXIST;
	return -1;
}

/*
 * Create a fresh work directory inside 'parent' and mark it as ours,
 * recording how the names of its rounds are made ('o': kind, width,
 * seed, file size) and the start time; lock the marker.  Fill 'wd'.
 * Return 0, or -1 with errno and a message in 'err' (LD_ERRLEN bytes).
 */
int
workdir_create(struct workdir *wd, const char *parent,
    const struct backend_opts *o, char *err)
{
	char	*extra;
	int	 saved;

	memset(wd, 0, sizeof(*wd));
	wd->fd = wd->parentfd = wd->lockfd = -1;
	if ((wd->parentfd = open(parent, O_RDONLY | O_DIRECTORY |
	    O_CLOEXEC)) == -1 || make_dir(wd->parentfd, &wd->name) == -1) {
		saved = errno;
		(void)snprintf(err, LD_ERRLEN, "create work directory in %s: "
		    "%s", parent, strerror(saved));
		close_all(wd);
		errno = saved;
		return -1;
	}
	wd->parent = xstrdup(parent);
	wd->path = xasprintf("%s%s%s", parent, parent[strlen(parent) - 1] ==
	    '/' ? "" : "/", wd->name);
	if ((wd->fd = openat(wd->parentfd, wd->name, O_RDONLY | O_DIRECTORY |
	    O_NOFOLLOW | O_CLOEXEC)) == -1)
		goto fail;
	extra = workdir_mark_extra(o);
	wd->marker = marker_text(wd->fd, WORKDIR_MAGIC, extra);
	free(extra);
	if (wd->marker == NULL ||
	    marker_put(wd->fd, WORKDIR_MARKER, wd->marker) == -1 ||
	    (wd->lockfd = marker_lock(wd->fd, WORKDIR_MARKER)) == -1)
		goto fail;
	return 0;
fail:
	saved = errno;
	(void)snprintf(err, LD_ERRLEN, "set up work directory %s: %s",
	    wd->path, strerror(saved));
	unlock(wd);		/* as in workdir_remove() */
	if (wd->fd != -1)
		(void)unlinkat(wd->fd, WORKDIR_MARKER, 0);
	(void)unlinkat(wd->parentfd, wd->name, AT_REMOVEDIR);
	close_all(wd);
	errno = saved;
	return -1;
}

/* Close the descriptor that holds the marker's lock, if it is open. */
static void
unlock(struct workdir *wd)
{
	if (wd->lockfd != -1)
		(void)close(wd->lockfd);
	wd->lockfd = -1;
}

/* Close what 'wd' holds open, free what it owns, and make it empty. */
static void
close_all(struct workdir *wd)
{
	workdir_suspend(wd);
	free(wd->parent);
	free(wd->name);
	free(wd->path);
	free(wd->marker);
	memset(wd, 0, sizeof(*wd));
	wd->fd = wd->parentfd = wd->lockfd = -1;
}

/*
 * What a work directory's mark says beyond the host, pid and inode, for
 * a backend opened with 'o': the version, the start, and how the names
 * were made (kind, width, seed, the sizes maildir names carry), so that
 * --cleanup can tell its names from others.  The caller frees it.
 */
char *
workdir_mark_extra(const struct backend_opts *o)
{
	return xasprintf("version: %s\nstarted: %s\nnames: %s %u\nseed: %"
	    PRIu64 "\nfile_size: %" PRIu64 "\nfile_size_max: %" PRIu64 "\n",
	    LD_VERSION, o->started, names_kind_name(o->names),
	    o->names == NAMES_FIXED ? o->name_len : 0, o->seed, o->file_size,
	    o->file_size_max);
}

/*
 * Record that round directory 'name' is about to be made for 'n' files,
 * in the layout of the backend's options 'o' (backend_round_record()),
 * replacing the record of the round before (written whole, then renamed
 * into place).  Return 0, or -1 with errno.
 */
int
workdir_round(struct workdir *wd, const char *name, uint64_t n,
    const struct backend_opts *o)
{
	char	buf[128];
	int	fd, len, rc = 0, saved;

	if ((len = backend_round_record(buf, sizeof(buf), name, n, o)) == -1)
		return -1;
	(void)unlinkat(wd->fd, WORKDIR_ROUND_TMP, 0);
	if ((fd = openat(wd->fd, WORKDIR_ROUND_TMP, O_WRONLY | O_CREAT |
	    O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644)) == -1)
		return -1;
	if (write(fd, buf, (size_t)len) != len)
		rc = -1;
	saved = errno;
	if (close(fd) == -1 && rc == 0) {
		rc = -1;
		saved = errno;
	}
	if (rc == 0 && renameat(wd->fd, WORKDIR_ROUND_TMP, wd->fd,
	    WORKDIR_ROUND) == -1) {
		rc = -1;
		saved = errno;
	}
	if (rc == -1)
		(void)unlinkat(wd->fd, WORKDIR_ROUND_TMP, 0);
	errno = saved;
	return rc;
}

/*
 * Close the work directory's descriptors, the lock on its marker and its
 * parent's included, so the filesystem holding it can be unmounted
 * (--cold=remount); workdir_resume() opens them again.  Until then, the
 * run looks gone to --cleanup.
 */
void
workdir_suspend(struct workdir *wd)
{
	if (wd->lockfd != -1)
		(void)close(wd->lockfd);
	if (wd->fd != -1)
		(void)close(wd->fd);
	if (wd->parentfd != -1)
		(void)close(wd->parentfd);
	wd->fd = wd->parentfd = wd->lockfd = -1;
}

/*
 * Open the work directory again after workdir_suspend(), and make sure it
 * is still ours: its marker must be one this process wrote, naming the
 * directory's own inode; lock it again.  Return 0, or -1 with errno and
 * a message in 'err'.
 */
int
workdir_resume(struct workdir *wd, char *err)
{
	struct marker	 m;
	int		 saved;

	if (wd->fd != -1)
		return 0;
	if ((wd->parentfd = open(wd->parent, O_RDONLY | O_DIRECTORY |
	    O_CLOEXEC)) == -1 || (wd->fd = openat(wd->parentfd, wd->name,
	    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) == -1)
		goto fail;
	if (marker_read(wd->fd, WORKDIR_MARKER, WORKDIR_MAGIC, &m) == -1 ||
	    m.pid != (long long)getpid()) {
		errno = ESTALE;
		goto fail;
	}
	if ((wd->lockfd = marker_lock(wd->fd, WORKDIR_MARKER)) == -1)
		goto fail;
	return 0;
fail:
	saved = errno;
	(void)snprintf(err, LD_ERRLEN, "open work directory %s again: %s",
	    wd->path, saved == ESTALE ? "its marker is not ours any more" :
	    strerror(saved));
	workdir_suspend(wd);
	errno = saved;
	return -1;
}

/* Whether 'name' in 'parentfd' is the directory open as 'fd'. */
static bool
same_dir(int parentfd, const char *name, int fd)
{
	struct stat	there, ours;

	return fstatat(parentfd, name, &there, AT_SYMLINK_NOFOLLOW) == 0 &&
	    fstat(fd, &ours) == 0 && S_ISDIR(there.st_mode) &&
	    there.st_dev == ours.st_dev && there.st_ino == ours.st_ino;
}

/* Where the directory open as 'fd' is now, or "" if that is unknown. */
static void
moved_to(int fd, char *buf, size_t len)
{
	char		link[64];
	ssize_t		n;

	(void)snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, buf, len - 1);
	if (n <= 0 || strstr(buf, " (deleted)") != NULL) {
		buf[0] = '\0';
		return;
	}
	buf[n] = '\0';
}

/*
 * Remove the work directory 'wd': its round record and marker, then the
 * directory itself, which must be empty by now (the rounds clean up
 * after themselves), by its name in its parent, after checking that the
 * name still is our directory.  Return 0, or -1 with errno and a message
 * in 'err'; the marker stays (or is put back) if the directory cannot
 * go, so --cleanup can still recognise it.  A work directory someone
 * moved away is left where it went, with its marker: EXDEV, and 'err'
 * names its new place if it can be found.  One that someone removed is
 * as clean as it gets: 0.
 */
int
workdir_remove(struct workdir *wd, char *err)
{
	struct stat	st;
	char		where[PATH_MAX];
	int		saved;

	if (wd->path == NULL)
		return 0;
	if (fstat(wd->fd, &st) == 0 && st.st_nlink == 0) {
		close_all(wd);		/* someone removed it already */
		return 0;
	}
	if (!same_dir(wd->parentfd, wd->name, wd->fd)) {
		moved_to(wd->fd, where, sizeof(where));
		(void)snprintf(err, LD_ERRLEN, "work directory %s was moved%s"
		    "%s: left there, with its marker", wd->path, *where !=
		    '\0' ? " to " : " away", where);
		close_all(wd);
		errno = EXDEV;
		return -1;
	}
	if (unlinkat(wd->fd, WORKDIR_ROUND, 0) == -1 && errno != ENOENT)
		goto fail;
	/*
	 * Let go of the marker's lock before removing it: an NFS client
	 * renames a file that is still open to .nfsXXXX instead, and the
	 * directory would not be empty.  A --cleanup that now finds the
	 * marker free removes what is left, as this does.
	 */
	unlock(wd);
	if (unlinkat(wd->fd, WORKDIR_MARKER, 0) == -1 && errno != ENOENT)
		goto fail;
	if (unlinkat(wd->parentfd, wd->name, AT_REMOVEDIR) == -1 &&
	    errno != ENOENT) {
		saved = errno;
		/* Put the marker back so --cleanup can find it. */
		(void)marker_put(wd->fd, WORKDIR_MARKER, wd->marker);
		errno = saved;
		goto fail;
	}
	close_all(wd);
	return 0;
fail:
	saved = errno;
	(void)snprintf(err, LD_ERRLEN, "remove work directory %s: %s",
	    wd->path, strerror(saved));
	close_all(wd);
	errno = saved;
	return -1;
}

/*
 * Let go of 'wd' without removing it: the directory keeps its marker, so
 * largedir --cleanup can finish what this run could not.
 */
void
workdir_keep(struct workdir *wd)
{
	close_all(wd);
}
