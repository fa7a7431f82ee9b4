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
 *
 * and WORKDIR_ROUND holds one line, "round-0003-1 2250", rewritten before
 * each round directory is made: only one exists at a time, since a round
 * that cannot remove its directory stops the run.
 *
 * Everything here works through directory descriptors opened with
 * O_NOFOLLOW, so a symbolic link planted in the work directory cannot
 * lead the sweep anywhere else.
 */

#include <sys/random.h>
#include <sys/stat.h>
#include <sys/types.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "churn.h"
#include "marker.h"
#include "timing.h"
#include "util.h"
#include "workdir.h"

#define ROUND_TMP	".largedir-round.tmp"

static int	make_dir(int, char **);
static void	close_all(struct workdir *);
static void	unlock(struct workdir *);
static bool	same_dir(int, const char *, int);
static void	moved_to(int, char *, size_t);
static bool	round_dir_name(const char *);
static int	read_round(int, char *, size_t);
static int	sweep_one(int, const char *, const char *,
		    struct backend_report *);
static int	sweep_round(int, const char *, struct workdir_names *,
		    const char *, uint64_t, uint64_t *, uint64_t *);

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
	extra = xasprintf("version: %s\nstarted: %s\nnames: %s %u\nseed: %"
	    PRIu64 "\nfile_size: %" PRIu64 "\n", LD_VERSION, o->started,
	    names_kind_name(o->names), o->names == NAMES_FIXED ? o->name_len :
	    0, o->seed, o->file_size);
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
	if (wd->lockfd != -1)
		(void)close(wd->lockfd);
	if (wd->fd != -1)
		(void)close(wd->fd);
	if (wd->parentfd != -1)
		(void)close(wd->parentfd);
	free(wd->parent);
	free(wd->name);
	free(wd->path);
	free(wd->marker);
	memset(wd, 0, sizeof(*wd));
	wd->fd = wd->parentfd = wd->lockfd = -1;
}

/*
 * Record that round directory 'name' is about to be made for 'n' files,
 * 'per_dir' in each subdirectory (0: flat; backend_round_record()),
 * replacing the record of the round before (written whole, then renamed
 * into place).  Return 0, or -1 with errno.
 */
int
workdir_round(struct workdir *wd, const char *name, uint64_t n,
    uint64_t per_dir)
{
	char	buf[128];
	int	fd, len, rc = 0, saved;

	if ((len = backend_round_record(buf, sizeof(buf), name, n,
	    per_dir)) == -1)
		return -1;
	(void)unlinkat(wd->fd, ROUND_TMP, 0);
	if ((fd = openat(wd->fd, ROUND_TMP, O_WRONLY | O_CREAT | O_EXCL |
	    O_NOFOLLOW | O_CLOEXEC, 0644)) == -1)
		return -1;
	if (write(fd, buf, (size_t)len) != len)
		rc = -1;
	saved = errno;
	if (close(fd) == -1 && rc == 0) {
		rc = -1;
		saved = errno;
	}
	if (rc == 0 && renameat(wd->fd, ROUND_TMP, wd->fd, WORKDIR_ROUND) ==
	    -1) {
		rc = -1;
		saved = errno;
	}
	if (rc == -1)
		(void)unlinkat(wd->fd, ROUND_TMP, 0);
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

/* ===== --cleanup ===== */

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
 * Make 'wn' say what the marker 'm' of a dead run and its round record
 * 'record' (its text, or NULL if there is none) tell of the names it
 * made, for workdir_names_ours().  Return 0, or -1 if the marker does
 * not say how its names were made (not a work directory of ours).
 */
int
workdir_names_init(struct workdir_names *wn, const struct marker *m,
    char *record)
{
	const char	*errstr = "invalid";
	char		*sp, *end;
	uint64_t	 n;

	memset(wn, 0, sizeof(*wn));
	wn->m = *m;
	if (strncmp(m->names, "maildir", 7) == 0)
		errstr = NULL;
	else if (strncmp(m->names, "fixed ", 6) == 0)
		wn->len = (unsigned)parse_num(m->names + 6, 1, NAMES_MAX_LEN,
		    &errstr);
	if (errstr != NULL)
		return -1;
	wn->kind = wn->len == 0 ? NAMES_MAILDIR : NAMES_FIXED;
	/* "round-0003-1 2250\n", or "round-0003-1 2250 tree 15\n" */
	if (record == NULL || (sp = strchr(record, ' ')) == NULL ||
	    (size_t)(sp - record) >= sizeof(wn->round))
		return 0;
	*sp++ = '\0';
	if (*sp < '0' || *sp > '9' || !round_dir_name(record))
		return 0;
	errno = 0;
	n = strtoull(sp, &end, 10);
	if (errno != 0)
		return 0;
	if (strncmp(end, " tree ", 6) == 0) {
		sp = end + 6;
		if (*sp < '1' || *sp > '9')
			return 0;
		wn->per_dir = strtoull(sp, &end, 10);
		if (errno != 0 || wn->per_dir == 0)
			return 0;
	}
	if (*end != '\n') {
		wn->per_dir = 0;
		return 0;
	}
	(void)snprintf(wn->round, sizeof(wn->round), "%s", record);
	wn->n = n;
	return 0;
}

/*
 * Whether 'name' in round directory 'round' is a subdirectory the dead
 * run made there (the tree layout): if so, store its number in '*d'.
 */
bool
workdir_names_subdir(const struct workdir_names *wn, const char *round,
    const char *name, uint64_t *d)
{
	if (wn->per_dir == 0 || strcmp(round, wn->round) != 0 ||
	    backend_subdir_parse(name, d) == -1)
		return false;
	return *d <= (wn->n - (wn->n > 0)) / wn->per_dir;
}

/*
 * Whether 'name' in subdirectory 'd' of round directory 'round' is a
 * file the dead run made there: one of its names whose place in the
 * tree is 'd', or a --churn file.
 */
bool
workdir_names_in(struct workdir_names *wn, const char *round, uint64_t d,
    const char *name)
{
	uint64_t	idx;

	if (!workdir_names_ours(wn, round, name))
		return false;
	if (churn_match(name) || !wn->built)
		return true;	/* an old marker: by shape */
	return names_lookup(&wn->t, name, &idx) && idx / wn->per_dir == d;
}

/*
 * Whether 'name' in round directory 'round' is one the dead run made:
 * in the round it recorded, one of its names, rebuilt from the seed (the
 * first call builds them), or a --churn file; with a marker too old to
 * say how they were made, one of their shape; else none.
 */
bool
workdir_names_ours(struct workdir_names *wn, const char *round,
    const char *name)
{
	uint64_t	idx;

	if (!wn->m.has_seed)
		return names_match(wn->kind, wn->len, name);
	if (strcmp(round, wn->round) != 0)
		return false;
	if (churn_match(name))
		return true;	/* --churn's, left by a killed run */
	if (!wn->built) {
		if (names_build(&wn->t, wn->kind, wn->len, wn->n, wn->m.seed,
		    wn->m.file_size) == -1)
			return false;
		wn->built = true;
	}
	return names_lookup(&wn->t, name, &idx);
}

/* Free what 'wn' built. */
void
workdir_names_free(struct workdir_names *wn)
{
	if (wn->built)
		names_free(&wn->t);
	wn->built = false;
}

/*
 * Empty round directory 'name' in 'wfd' of what the dead run made there
 * (ours()) and remove it, unless foreign entries keep it; with 'round'
 * (the tree layout), 'name' is subdirectory 'sub' of round directory
 * 'round', and its files must be of that place.  The subdirectories of a
 * round directory are swept as they come, the same way, and removed
 * unless something foreign keeps them.  Count files unlinked
 * and entries kept.  Return -1 with errno if the directory could not be
 * read or removed for another reason.
 */
static int
sweep_round(int wfd, const char *name, struct workdir_names *wn,
    const char *round, uint64_t sub, uint64_t *files, uint64_t *kept)
{
	struct dirent	*d;
	DIR		*dp;
	uint64_t	 pass, kept0 = *kept, k, k0;
	int		 fd;
	bool		 mine;

	if ((fd = openat(wfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC)) == -1 || (dp = fdopendir(fd)) == NULL) {
		if (fd != -1)
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
			if (round == NULL && workdir_names_subdir(wn, name,
			    d->d_name, &k)) {
				k0 = *kept;
				if (sweep_round(fd, d->d_name, wn, name, k,
				    files, kept) == 0 && *kept == k0)
					pass++;	/* it is gone */
				else if (*kept == k0)
					(*kept)++;
				continue;
			}
			mine = round == NULL ? workdir_names_ours(wn, name,
			    d->d_name) : workdir_names_in(wn, round, sub,
			    d->d_name);
			if (mine && unlinkat(fd, d->d_name, 0) == 0) {
				pass++;
				(*files)++;
			} else
				(*kept)++;
		}
	} while (pass > 0);
	(void)closedir(dp);
	/* With foreign entries in it, it stays: they were counted. */
	return *kept > kept0 ? 0 : unlinkat(wfd, name, AT_REMOVEDIR);
}

/*
 * Sweep the work directory 'name' in 'pfd' (path 'path').  Return 0 if
 * it is one (r filled), -1 if it is none of ours.
 */
static int
sweep_one(int pfd, const char *name, const char *path,
    struct backend_report *r)
{
	struct workdir_names	 wn;
	struct marker		 m;
	struct dirent		*d;
	DIR			*dp;
	char			 host[256], rec[128];
	int			 wfd, held;
	bool			 isours;

	r->path = path;
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
	while ((d = readdir(dp)) != NULL) {
		if (strcmp(d->d_name, ".") == 0 ||
		    strcmp(d->d_name, "..") == 0 ||
		    strcmp(d->d_name, WORKDIR_MARKER) == 0 ||
		    strcmp(d->d_name, WORKDIR_ROUND) == 0)
			continue;
		if (strcmp(d->d_name, ROUND_TMP) == 0) {
			if (unlinkat(wfd, ROUND_TMP, 0) == -1)
				r->kept++;
			continue;
		}
		if (!round_dir_name(d->d_name) || sweep_round(wfd, d->d_name,
		    &wn, NULL, 0, &r->files, &r->kept) == -1)
			r->kept++;
	}
	workdir_names_free(&wn);
	if (r->kept == 0 && (unlinkat(wfd, WORKDIR_ROUND, 0) == 0 ||
	    errno == ENOENT) && unlinkat(wfd, WORKDIR_MARKER, 0) == 0 &&
	    unlinkat(pfd, name, AT_REMOVEDIR) == 0)
		r->removed = true;
	(void)closedir(dp);
	return 0;
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
