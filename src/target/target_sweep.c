/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * target_sweep: largedir cleanup for targets.  The run directories of
 * killed runs in the scratch directory (see target.c for what one holds)
 * are recognised by their marker, which a live run holds locked, then
 * taken apart in the teardown's order with target.c's own steps: unmount
 * (stacked mounts too), detach the loop device backed by the image,
 * remove the files largedir made, the marker last.
 */

#include <sys/types.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend/marker.h"
#include "backend/sweep.h"
#include "base/util.h"
#include "target/loop.h"
#include "target/target.h"
#include "target/uml.h"

/* What target_sweep() walks the scratch directory with. */
struct scratch_sweep {
	const char	*scratch;
	void		(*report)(void *, const struct target_report *);
	void		*arg;
};

static int	sweep_one(const char *, struct target_report *, char *,
		    size_t);
static int64_t	found_entry(void *, const struct sweep_entry *);

/* Sweep run directory 'path' into 'r'; -1 if it is not a marked one. */
static int
sweep_one(const char *path, struct target_report *r, char *dev, size_t len)
{
	struct marker	 m;
	char		*real, *mnt, *image, host[256];
	int		 dfd, i, rc, held;
	bool		 lazy;

	if ((dfd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC)) == -1)
		return -1;
	if (marker_read(dfd, TARGET_MARKER, TARGET_MAGIC, &m) == -1) {
		/* Not ours, or a copy of ours: not a word about it. */
		(void)close(dfd);
		return -1;
	}
	r->path = path;
	/* A run holds its marker locked for as long as it lives. */
	if (gethostname(host, sizeof(host)) == -1 ||
	    strcmp(host, m.host) != 0)
		r->why = "made on another host: run --cleanup there";
	else if ((held = marker_held(dfd, TARGET_MARKER)) != 0)
		r->why = held == 1 ? "in use by a running largedir" :
		    "cannot tell whether its run is alive";
	(void)close(dfd);
	if (r->why != NULL)
		return 0;
	if ((real = realpath(path, NULL)) == NULL) {
		r->why = "cannot resolve its path";
		return 0;
	}
	uml_kill_left(real);	/* kernel = uml: a guest still running */
	mnt = xasprintf("%s/mnt", real);
	image = xasprintf("%s/image", real);
	/* Mounts may be stacked: unmount until none is left. */
	for (i = 0; i < 8 && target_is_mounted(mnt) == 1; i++) {
		if (target_umount(mnt, &lazy) == -1) {
			r->why = "its mount point cannot be unmounted";
			goto out;
		}
		r->unmounted = true;
	}
	if (loop_detach_backed(image, dev, len) == -1) {
		r->why = "its loop device cannot be detached";
		goto out;
	}
	if (dev[0] != '\0')
		r->loopdev = dev;
	if ((rc = target_clean_rundir(real, false)) == 0)
		r->removed = true;
	else if (rc == 1)
		r->why = "holds files largedir did not make";
	else
		r->why = "cannot be removed";
out:
	free(image);
	free(mnt);
	free(real);
	return 0;
}

/*
 * A name "target.*" in the scratch directory (a sweep callback;
 * 'arg' is a struct scratch_sweep): if it is a marked run directory,
 * take it apart and report it.
 */
static int64_t
found_entry(void *arg, const struct sweep_entry *e)
{
	struct scratch_sweep	*ss = arg;
	struct target_report	 r;
	char			*path, dev[64];
	int			 rc;

	memset(&r, 0, sizeof(r));
	path = xasprintf("%s%s%s", ss->scratch,
	    ss->scratch[strlen(ss->scratch) - 1] == '/' ? "" : "/", e->name);
	if ((rc = sweep_one(path, &r, dev, sizeof(dev))) == 0)
		ss->report(ss->arg, &r);
	free(path);
	return rc == -1 ? 0 : r.removed ? SWEEP_GONE : 1;
}

/*
 * largedir --cleanup: find the marked run directories in 'scratch' that
 * no running largedir owns, unmount their mount points, detach the loop
 * devices backed by their images and remove what largedir made.  Call
 * 'report'(arg, ...) once for each run directory found; the strings in
 * the report live until 'report' returns.  Return the number found (0
 * when 'scratch' does not exist), or -1 with errno and a message in 'err'
 * if 'scratch' cannot be read.
 */
int
target_sweep(const char *scratch, void (*report)(void *,
    const struct target_report *), void *arg, char *err)
{
	struct scratch_sweep	 ss = { scratch, report, arg };
	struct sweep_dir	 sd;
	struct sweep_count	 n;
	DIR			*dp;
	int			 rc;

	if ((dp = opendir(scratch)) == NULL) {
		if (errno == ENOENT)
			return 0;
		return util_syserr(err, "%s", scratch);
	}
	sweep_dir_posix(&sd, dp);
	/* Every name first, then each: removing while reading may skip. */
	rc = sweep_walk(&sd, TARGET_PREFIX, SWEEP_ONCE, found_entry, &ss, &n);
	if (rc == -1)
		rc = util_syserr(err, "%s", scratch);
	else
		rc = (int)(n.kept + n.gone);
	(void)closedir(dp);
	return rc;
}
