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
 *
 * Everything here works through directory descriptors opened with
 * O_NOFOLLOW, so a symbolic link planted in the work directory cannot
 * lead the sweep anywhere else.
 */

#include <sys/stat.h>
#include <sys/types.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "marker.h"
#include "util.h"
#include "workdir.h"

static bool	round_dir_name(const char *);
static int	sweep_one(int, const char *, const char *,
		    struct backend_report *);
static int	sweep_round(int, const char *, enum names_kind, unsigned,
		    uint64_t *, uint64_t *);

/*
 * Create a fresh work directory inside 'parent' and mark it as ours,
 * recording the names of kind 'kind' and width 'len' that its rounds will
 * hold and the start time 'started' (ISO 8601).  Fill 'wd'.  Return 0, or
 * -1 with errno and a message in 'err' (LD_ERRLEN bytes).
 */
int
workdir_create(struct workdir *wd, const char *parent, enum names_kind kind,
    unsigned len, const char *started, char *err)
{
	char	*tmpl, *extra;
	int	 saved;

	memset(wd, 0, sizeof(*wd));
	wd->fd = -1;
	tmpl = xasprintf("%s%s" WORKDIR_PREFIX "XXXXXX", parent,
	    parent[strlen(parent) - 1] == '/' ? "" : "/");
	if (mkdtemp(tmpl) == NULL) {
		saved = errno;
		(void)snprintf(err, LD_ERRLEN, "create work directory in %s: "
		    "%s", parent, strerror(saved));
		free(tmpl);
		errno = saved;
		return -1;
	}
	wd->path = tmpl;
	if ((wd->fd = open(tmpl, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC)) == -1)
		goto fail;
	extra = xasprintf("version: %s\nstarted: %s\nnames: %s %u\n",
	    LD_VERSION, started, names_kind_name(kind), len);
	wd->marker = marker_text(wd->fd, WORKDIR_MAGIC, extra);
	free(extra);
	if (wd->marker == NULL ||
	    marker_put(wd->fd, WORKDIR_MARKER, wd->marker) == -1)
		goto fail;
	return 0;
fail:
	saved = errno;
	(void)snprintf(err, LD_ERRLEN, "set up work directory %s: %s", tmpl,
	    strerror(saved));
	if (wd->fd != -1)
		(void)close(wd->fd);
	(void)rmdir(tmpl);
	free(wd->marker);
	free(tmpl);
	memset(wd, 0, sizeof(*wd));
	wd->fd = -1;
	errno = saved;
	return -1;
}

/*
 * Close the work directory's descriptor, so the filesystem holding it can
 * be unmounted (--cold=remount); workdir_resume() opens it again.
 */
void
workdir_suspend(struct workdir *wd)
{
	if (wd->fd != -1)
		(void)close(wd->fd);
	wd->fd = -1;
}

/*
 * Open the work directory again after workdir_suspend(), and make sure it
 * is still ours: its marker must be one this process wrote, naming the
 * directory's own inode.  Return 0, or -1 with errno and a message in
 * 'err'.
 */
int
workdir_resume(struct workdir *wd, char *err)
{
	struct marker	 m;
	int		 saved;

	if (wd->fd != -1)
		return 0;
	if ((wd->fd = open(wd->path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC)) == -1)
		goto fail;
	if (marker_read(wd->fd, WORKDIR_MARKER, WORKDIR_MAGIC, &m) == -1 ||
	    m.pid != (long long)getpid()) {
		(void)close(wd->fd);
		wd->fd = -1;
		errno = ESTALE;
		goto fail;
	}
	return 0;
fail:
	saved = errno;
	(void)snprintf(err, LD_ERRLEN, "open work directory %s again: %s",
	    wd->path, saved == ESTALE ? "its marker is not ours any more" :
	    strerror(saved));
	errno = saved;
	return -1;
}

/*
 * Remove the work directory 'wd': its marker, then the directory itself,
 * which must be empty by now (the rounds clean up after themselves).
 * Return 0, or -1 with errno and a message in 'err'; the marker stays if
 * the directory cannot go, so --cleanup can still recognise it.
 */
int
workdir_remove(struct workdir *wd, char *err)
{
	int	saved;

	if (wd->path == NULL)
		return 0;
	if (unlinkat(wd->fd, WORKDIR_MARKER, 0) == -1 && errno != ENOENT)
		goto fail;
	if (rmdir(wd->path) == -1 && errno != ENOENT) {
		saved = errno;
		/* Put the marker back so --cleanup can find it. */
		(void)marker_put(wd->fd, WORKDIR_MARKER, wd->marker);
		errno = saved;
		goto fail;
	}
	(void)close(wd->fd);
	free(wd->path);
	free(wd->marker);
	memset(wd, 0, sizeof(*wd));
	wd->fd = -1;
	return 0;
fail:
	saved = errno;
	(void)snprintf(err, LD_ERRLEN, "remove work directory %s: %s",
	    wd->path, strerror(saved));
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
	if (wd->fd != -1)
		(void)close(wd->fd);
	free(wd->path);
	free(wd->marker);
	memset(wd, 0, sizeof(*wd));
	wd->fd = -1;
}

/* Whether 'name' is "round-K-R" as backend_round_name() writes it. */
static bool
round_dir_name(const char *name)
{
	const char	*p;

	if (strncmp(name, "round-", 6) != 0)
		return false;
	p = name + 6;
	if (*p < '0' || *p > '9')
		return false;
	while (*p >= '0' && *p <= '9')
		p++;
	if (*p++ != '-' || *p < '0' || *p > '9')
		return false;
	while (*p >= '0' && *p <= '9')
		p++;
	return *p == '\0';
}

/*
 * Empty round directory 'name' in 'wfd' of the names of kind 'kind' and
 * width 'len' and remove it, unless foreign entries keep it.  Count files
 * unlinked and entries kept.  Return -1 with errno if the directory could
 * not be read or removed for another reason.
 */
static int
sweep_round(int wfd, const char *name, enum names_kind kind, unsigned len,
    uint64_t *files, uint64_t *kept)
{
	struct dirent	*d;
	DIR		*dp;
	uint64_t	 pass, kept0 = *kept;
	int		 fd;

	if ((fd = openat(wfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC)) == -1)
		return -1;
	if ((dp = fdopendir(fd)) == NULL) {
		(void)close(fd);
		return -1;
	}
	/*
	 * Unlinking while reading may make a filesystem skip entries: read
	 * again until a pass removes nothing.
	 */
	do {
		pass = 0;
		*kept = kept0;
		rewinddir(dp);
		while ((d = readdir(dp)) != NULL) {
			if (strcmp(d->d_name, ".") == 0 ||
			    strcmp(d->d_name, "..") == 0)
				continue;
			if (names_match(kind, len, d->d_name) &&
			    unlinkat(fd, d->d_name, 0) == 0)
				pass++;
			else
				(*kept)++;
		}
		*files += pass;
	} while (pass > 0);
	(void)closedir(dp);
	/* With foreign entries in it, it stays: they were counted. */
	return *kept > kept0 ? 0 : unlinkat(wfd, name, AT_REMOVEDIR);
}

/* Sweep the work directory 'name' in 'pfd' (path 'path'). */
static int
sweep_one(int pfd, const char *name, const char *path,
    struct backend_report *r)
{
	struct marker	 m;
	struct dirent	*d;
	DIR		*dp;
	enum names_kind	 kind;
	const char	*errstr;
	unsigned	 len = 0;
	int		 wfd;

	if ((wfd = openat(pfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC)) == -1)
		return -1;
	errstr = "invalid";
	if (marker_read(wfd, WORKDIR_MARKER, WORKDIR_MAGIC, &m) == 0) {
		if (strncmp(m.names, "maildir", 7) == 0)
			errstr = NULL;
		else if (strncmp(m.names, "fixed ", 6) == 0)
			len = (unsigned)parse_num(m.names + 6, 1,
			    NAMES_MAX_LEN, &errstr);
	}
	if (errstr != NULL) {
		/* Not ours, or a copy of ours: not a word about it. */
		(void)close(wfd);
		return -1;
	}
	kind = len == 0 ? NAMES_MAILDIR : NAMES_FIXED;
	r->path = path;
	if (marker_alive(&m, &r->why)) {
		(void)close(wfd);
		return 0;
	}
	if ((dp = fdopendir(wfd)) == NULL) {
		(void)close(wfd);
		return -1;
	}
	while ((d = readdir(dp)) != NULL) {
		if (strcmp(d->d_name, ".") == 0 || strcmp(d->d_name, "..") == 0 ||
		    strcmp(d->d_name, WORKDIR_MARKER) == 0)
			continue;
		if (!round_dir_name(d->d_name) || sweep_round(wfd, d->d_name,
		    kind, len, &r->files, &r->kept) == -1)
			r->kept++;
	}
	if (r->kept == 0 && unlinkat(wfd, WORKDIR_MARKER, 0) == 0 &&
	    unlinkat(pfd, name, AT_REMOVEDIR) == 0)
		r->removed = true;
	(void)closedir(dp);
	return 0;
}

/*
 * largedir --cleanup: find the marked work directories in 'parent' that no
 * running largedir owns and remove what their runs created.  Call
 * 'report'(arg, ...) once for each work directory found.  Return the
 * number found, or -1 with errno and a message in 'err' if 'parent'
 * cannot be read.
 */
int
workdir_sweep(const char *parent, void (*report)(void *,
    const struct backend_report *), void *arg, char *err)
{
	struct backend_report	 r;
	struct dirent		*d;
	DIR			*dp;
	char			*path;
	int			 pfd, found = 0, saved;

	if ((pfd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1 ||
	    (dp = fdopendir(pfd)) == NULL) {
		saved = errno;
		(void)snprintf(err, LD_ERRLEN, "%s: %s", parent,
		    strerror(saved));
		if (pfd != -1)
			(void)close(pfd);
		errno = saved;
		return -1;
	}
	while ((d = readdir(dp)) != NULL) {
		if (strncmp(d->d_name, WORKDIR_PREFIX,
		    sizeof(WORKDIR_PREFIX) - 1) != 0)
			continue;
		memset(&r, 0, sizeof(r));
		path = xasprintf("%s/%s", parent, d->d_name);
		if (sweep_one(pfd, d->d_name, path, &r) == 0) {
			found++;
			report(arg, &r);
		}
		free(path);
	}
	(void)closedir(dp);
	return found;
}
