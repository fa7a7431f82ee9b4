/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * workdir_sweep: see workdir_sweep.h.
 *
 * Everything here works through directory descriptors opened with
 * O_NOFOLLOW, so a symbolic link planted in the work directory cannot
 * lead the sweep anywhere else.  The walk is sweep.c's: the directory
 * the user named once (each work directory found is reported once), a
 * work directory once, a round directory in passes.  Which names are
 * the run's, and what becomes of each, is workdir_sweep_entry()'s, for
 * the NFS backend's sweep too; only how a directory is read, a file
 * unlinked and a directory removed is each backend's own.
 */

#include <sys/types.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend/marker.h"
#include "backend/sweep.h"
#include "backend/workdir.h"
#include "backend/workdir_names.h"
#include "backend/workdir_sweep.h"
#include "base/util.h"

static int	read_round(int, char *, size_t);
static int	sweep_one(void *, const char *, struct backend_report *);
static int	px_unlink(const struct workdir_sweeper *, const char *);
static int64_t	px_sweep(const struct workdir_sweeper *, const char *,
		    const char *, uint64_t);

/* Read the round record of the work directory 'wfd' into 'buf'. */
static int
read_round(int wfd, char *buf, size_t len)
{
	ssize_t	got;
	int	fd;

	if ((fd = openat(wfd, WORKDIR_ROUND, O_RDONLY | O_NOFOLLOW |
	    O_CLOEXEC)) == -1)
		return -1;
	got = read(fd, buf, len - 1);
	(void)close(fd);
	if (got <= 0)
		return -1;
	buf[got] = '\0';
	return 0;
}

/*
 * An entry of a directory of a dead run's work directory (a sweep
 * callback; 'arg' is the struct workdir_sweeper of that directory).  In
 * the work directory itself, the marker and the round record stay (the
 * caller removes them last), a round record half written goes, a round
 * directory is swept, and anything else is kept.  In a round directory,
 * a subdirectory of the run's tree is swept, a file the run made there
 * unlinked (and counted), anything else kept.  Return SWEEP_GONE, or
 * the entries kept.
 */
int64_t
workdir_sweep_entry(void *arg, const struct sweep_entry *e)
{
	const struct workdir_sweeper	*at = arg;
	uint64_t			 d;

	if (at->round == NULL) {
		if (strcmp(e->name, WORKDIR_MARKER) == 0 ||
		    strcmp(e->name, WORKDIR_ROUND) == 0)
			return 0;
		if (strcmp(e->name, WORKDIR_ROUND_TMP) == 0)
			return at->unlink(at, e->name) == 0 ? SWEEP_GONE : 1;
		if (!workdir_names_round_dir(e->name))
			return 1;
		return at->sweep(at, e->name, e->name, WORKDIR_NO_SUB);
	}
	switch (workdir_names_whose(at->wn, at->round, at->sub, e->name,
	    &d)) {
	case WORKDIR_SUBDIR:
		return at->sweep(at, e->name, at->round, d);
	case WORKDIR_OURS:
		if (at->unlink(at, e->name) == -1)
			return 1;
		(*at->files)++;
		return SWEEP_GONE;
	default:
		return 1;
	}
}

/* Unlink 'name' in the directory open as at->dir (an int). */
static int
px_unlink(const struct workdir_sweeper *at, const char *name)
{
	return unlinkat(*(const int *)at->dir, name, 0);
}

/*
 * Sweep 'name' in the directory open as at->dir, as round directory
 * 'round' (sub: WORKDIR_NO_SUB) or its subdirectory 'sub', in passes,
 * and remove it unless foreign entries keep it.  Return SWEEP_GONE, or
 * the entries kept: the foreign ones found inside, or 1 for a directory
 * that could not be read or removed.
 */
static int64_t
px_sweep(const struct workdir_sweeper *at, const char *name,
    const char *round, uint64_t sub)
{
	struct workdir_sweeper	 in = *at;
	struct sweep_dir	 sd;
	struct sweep_count	 n;
	DIR			*dp;
	int			 pfd = *(const int *)at->dir, fd;

	if ((fd = openat(pfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC)) == -1 || (dp = fdopendir(fd)) == NULL) {
		if (fd != -1)
			(void)close(fd);
		return 1;
	}
	in.round = round;
	in.sub = sub;
	in.dir = &fd;
	sweep_dir_posix(&sd, dp);
	/* Unreadable halfway: what is left keeps it, rmdir(2) says. */
	(void)sweep_walk(&sd, NULL, SWEEP_PASSES, workdir_sweep_entry, &in,
	    &n);
	(void)closedir(dp);
	if (n.kept > 0)
		return (int64_t)n.kept;
	return unlinkat(pfd, name, AT_REMOVEDIR) == 0 ? SWEEP_GONE : 1;
}

/*
 * Sweep the work directory 'name' in the directory open as '*arg' (an
 * int) into 'r'.  Return 0 if it is one (r filled), -1 if it is none of
 * ours.
 */
static int
sweep_one(void *arg, const char *name, struct backend_report *r)
{
	int			 pfd = *(int *)arg;
	struct workdir_names	 wn;
	struct marker		 m;
	struct workdir_sweeper	 ws = { &wn, NULL, WORKDIR_NO_SUB,
				    &r->files, NULL, px_unlink, px_sweep };
	struct sweep_dir	 sd;
	struct sweep_count	 n;
	DIR			*dp;
	char			 host[256], rec[128];
	int			 wfd, held;
	bool			 isours;

	if ((wfd = openat(pfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC)) == -1) {
		if (errno != EACCES && errno != EPERM)
			return -1;
		r->why = "it cannot be read (permission denied)";
		return 0;
	}
	isours = marker_read(wfd, WORKDIR_MARKER, WORKDIR_MAGIC, &m) == 0;
	if (!isours && (errno == EACCES || errno == EPERM)) {
		(void)close(wfd);
		r->why = "its marker cannot be read (permission denied)";
		return 0;
	}
	if (read_round(wfd, rec, sizeof(rec)) == -1)
		rec[0] = '\0';
	if (!isours || workdir_names_init(&wn, &m, *rec != '\0' ? rec :
	    NULL) == -1) {
		/* Not ours, or a copy of ours: not a word about it. */
		(void)close(wfd);
		return -1;
	}
	if (gethostname(host, sizeof(host)) == -1 ||
	    strcmp(host, m.host) != 0) {
		r->why = "made on another host: run --cleanup there";
		(void)close(wfd);
		return 0;
	}
	if ((held = marker_held(wfd, WORKDIR_MARKER)) != 0) {
		r->why = held == 1 ? "in use by a running largedir" :
		    "cannot tell whether its run is alive";
		(void)close(wfd);
		return 0;
	}
	if ((dp = fdopendir(wfd)) == NULL) {
		(void)close(wfd);
		return -1;
	}
	ws.dir = &wfd;
	sweep_dir_posix(&sd, dp);
	if (sweep_walk(&sd, NULL, SWEEP_ONCE, workdir_sweep_entry, &ws,
	    &n) == -1)
		n.kept++;		/* it cannot be read: it stays */
	r->kept = n.kept;
	workdir_names_free(&wn);
	if (r->kept == 0 && (unlinkat(wfd, WORKDIR_ROUND, 0) == 0 ||
	    errno == ENOENT) && unlinkat(wfd, WORKDIR_MARKER, 0) == 0 &&
	    unlinkat(pfd, name, AT_REMOVEDIR) == 0)
		r->removed = true;
	(void)closedir(dp);
	return 0;
}

/*
 * A name "largedir.*" in a directory being swept (a sweep callback; 'arg'
 * is a struct workdir_found): if it is a work directory of ours, sweep it
 * and report it.
 */
int64_t
workdir_sweep_found(void *arg, const struct sweep_entry *e)
{
	struct workdir_found	*wf = arg;
	struct backend_report	 r;
	char			*path;
	int			 rc;

	memset(&r, 0, sizeof(r));
	r.path = path = xasprintf("%s/%s", wf->base, e->name);
	if ((rc = wf->one(wf->one_arg, e->name, &r)) == 0)
		wf->report(wf->arg, &r);
	free(path);
	return rc == -1 ? 0 : r.removed ? SWEEP_GONE : 1;
}

/*
 * largedir --cleanup: find the marked work directories in 'parent' that no
 * running largedir owns and remove what their runs created.  Call
 * 'report'(arg, ...) once for each work directory found, also for one
 * that cannot be read.  Return the number found, or -1 with errno and a
 * message in 'err' if 'parent' cannot be read.
 */
int
workdir_sweep(const char *parent, void (*report)(void *,
    const struct backend_report *), void *arg, char *err)
{
	struct workdir_found	 wf = { parent, sweep_one, NULL, report, arg };
	struct sweep_dir	 sd;
	struct sweep_count	 n;
	DIR			*dp;
	int			 pfd, saved;

	if ((pfd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1 ||
	    (dp = fdopendir(pfd)) == NULL) {
		saved = errno;
		if (pfd != -1)
			(void)close(pfd);
		goto fail;
	}
	wf.one_arg = &pfd;
	sweep_dir_posix(&sd, dp);
	if (sweep_walk(&sd, WORKDIR_PREFIX, SWEEP_ONCE, workdir_sweep_found,
	    &wf, &n) == -1) {
		saved = errno;
		(void)closedir(dp);
		goto fail;
	}
	(void)closedir(dp);
	return (int)(n.kept + n.gone);
fail:
	(void)snprintf(err, LD_ERRLEN, "%s: %s", parent, strerror(saved));
	errno = saved;
	return -1;
}
