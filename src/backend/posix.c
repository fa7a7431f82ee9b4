/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * posix: the backend for any mounted filesystem.  Every call is relative
 * to a directory descriptor (the work directory, and the round
 * directories inside it), so the kernel never walks a long path and a
 * directory renamed or removed under us is noticed instead of followed.
 * The work directory and its mark are workdir.c's; its state and the
 * calls its operations share are posixfs.c's, a Maildir's operations
 * posixmail.c's.
 *
 * The operations are exactly what the experiment names: create is
 * openat(O_CREAT|O_EXCL|O_WRONLY) [+ write] [+ fsync] + close, open is
 * openat(O_RDONLY) + close, delete is unlinkat, a listing is getdents64
 * into a 32 KiB buffer (what glibc's readdir uses), a stat is fstatat.
 * It counts nothing of its own: the kernel's counters (rusage, the
 * caches, the block device) are read around every phase anyway.  On a
 * kernel NFS mount it counts what the client sent (knfs.c): refine()
 * gives the table of that NFS version, with the counters' names, and a
 * backend opened with it keeps the mount's struct knfs in its state.
 */

#include <sys/stat.h>
#include <sys/types.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend/backend.h"
#include "backend/knfs.h"
#include "backend/posix.h"
#include "backend/posixfs.h"
#include "backend/posixmail.h"
#include "backend/workdir.h"
#include "backend/workdir_sweep.h"
#include "base/util.h"

static int	posix_check(const char *, char *);
static const struct backend_ops *posix_refine(const char *,
		    struct kvlist *, char *);
static const struct backend_ops *nfs_table(struct knfs *,
		    struct kvlist *);
static unsigned	nfs_vers(const struct backend_ops *);
static void	count_nfs(struct backend *, const char *);
static void	posix_counters(struct backend *, uint64_t *);
static const char *posix_busy(struct backend *, const char *,
		    const uint64_t *, bool);
static int	posix_open(struct backend *, const char *, char *);
static int	posix_close(struct backend *, bool, char *);
static int	posix_attach(struct backend *, const char *, const char *,
		    char *);
static int	posix_enter(struct backend *, const char *,
		    struct backend_dir **);
static int	posix_mkdir(struct backend *, const char *, uint64_t,
		    struct backend_dir **);
static int	posix_subdir(struct backend *, struct backend_dir *,
		    const char *, struct backend_dir **);
static int	posix_rmdir(struct backend *, struct backend_dir *, bool);
static int	posix_create(struct backend *, struct backend_dir *,
		    const char *);
static int	posix_openclose(struct backend *, struct backend_dir *,
		    const char *);
static int	posix_stat(struct backend *, struct backend_dir *,
		    const char *);
static int	posix_unlink(struct backend *, struct backend_dir *,
		    const char *);
static int	posix_rewind(struct backend *, struct backend_dir *);
static ssize_t	posix_readdir(struct backend *, struct backend_dir *,
		    const char ***, bool *);
static int	posix_sync(struct backend *);
static int	posix_release(struct backend *);
static int	posix_reacquire(struct backend *, char *);
static bool	posix_vanished(struct backend *, struct backend_dir *);
static int	posix_forked(struct backend *);
static int	posix_sweep(const char *, void (*)(void *,
		    const struct backend_report *), void *, char *);

/* What every table of posix has. */
#define POSIX_OPS \
	.name = "posix", \
	.scheme = NULL, \
	.flags = BACKEND_LOCAL | BACKEND_FORKS | BACKEND_TREE | \
	    BACKEND_MEMLIMIT | BACKEND_RANKS | BACKEND_MAILDIR, \
	.check = posix_check, \
	.open = posix_open, \
	.close = posix_close, \
	.attach = posix_attach, \
	.enter = posix_enter, \
	.mkdir = posix_mkdir, \
	.subdir = posix_subdir, \
	.rmdir = posix_rmdir, \
	.create = posix_create, \
	.openclose = posix_openclose, \
	.stat = posix_stat, \
	.unlink = posix_unlink, \
	.deliver = posix_deliver, \
	.rename = posix_rename, \
	.readfile = posix_readfile, \
	.rewind = posix_rewind, \
	.readdir = posix_readdir, \
	.sync = posix_sync, \
	.release = posix_release, \
	.reacquire = posix_reacquire, \
	.forked = posix_forked, \
	.vanished = posix_vanished, \
	.sweep = posix_sweep

const struct backend_ops posix_ops = {
	POSIX_OPS,
	.refine = posix_refine,
};

/* On a kernel NFS mount: the client's counters, as knfs.c names them. */
static const struct backend_ops nfs3_ops = {
	POSIX_OPS,
	.counter_names = knfs_v3_names,
	.ncalls = KNFS_V3_NCALLS,
	.shared_counters = true,
	.counters = posix_counters,
	.busy = posix_busy,
};
static const struct backend_ops nfs4_ops = {
	POSIX_OPS,
	.counter_names = knfs_v4_names,
	.ncalls = KNFS_V4_NCALLS,
	.shared_counters = true,
	.counters = posix_counters,
	.busy = posix_busy,
};

/* The target must be a directory that exists. */
static int
posix_check(const char *target, char *err)
{
	return util_check_dir(target, err);
}

/*
 * The refine op: on a kernel NFS mount, the table that counts what its
 * client sent (posix_mount_ops()); else posix_ops.
 */
static const struct backend_ops *
posix_refine(const char *target, struct kvlist *meta, char *err)
{
	struct knfs	k;

	if (knfs_open_dir(&k, target, err) == -1)
		return &posix_ops;
	return nfs_table(&k, meta);
}

/*
 * The posix table for a directory on a filesystem of type 'fstype'
 * mounted on 'mountpoint', whose NFS counters are in 'file' (NULL:
 * /proc/self/mountstats): with the mount's counters when it is NFS, and
 * what the results should say of them added to 'meta'.  If it is NFS but
 * its counters cannot be read, return posix_ops and say why in 'err'
 * (else 'err' is "").
 */
const struct backend_ops *
posix_mount_ops(const char *fstype, const char *mountpoint, const char *file,
    struct kvlist *meta, char *err)
{
	struct knfs	k;

	if (knfs_open(&k, fstype, mountpoint, file, err) == -1)
		return &posix_ops;
	return nfs_table(&k, meta);
}

/*
 * The table of the NFS version of 'k' (posix_ops when it is not NFS),
 * with what the results should say of its counters added to 'meta'.
 * Closes 'k'.
 */
static const struct backend_ops *
nfs_table(struct knfs *k, struct kvlist *meta)
{
	const struct backend_ops	*ops;

	ops = k->vers == 3 ? &nfs3_ops : k->vers == 4 ? &nfs4_ops : &posix_ops;
	knfs_meta(k, meta);
	knfs_close(k);
	return ops;
}

/* The NFS version whose counters table 'ops' is, or 0. */
static unsigned
nfs_vers(const struct backend_ops *ops)
{
	return ops == &nfs3_ops ? 3 : ops == &nfs4_ops ? 4 : 0;
}

/*
 * Opened with the table of an NFS version: count the calls of the mount
 * 'target' is on, if it is one of that version still.  If not, or if its
 * counters cannot be read, they stay at zero.
 */
static void
count_nfs(struct backend *be, const char *target)
{
	struct posix	*px = be->priv;
	char		 err[LD_ERRLEN];
	unsigned	 vers;

	if ((vers = nfs_vers(be->ops)) != 0 &&
	    knfs_open_dir(&px->nfs, target, err) == 0 && px->nfs.vers != vers)
		knfs_close(&px->nfs);
}

/* The counters op: the mount's, or zeros when it cannot count them. */
static void
posix_counters(struct backend *be, uint64_t *values)
{
	struct posix	*px = be->priv;

	if (px->nfs.vers == 0)
		memset(values, 0, backend_ncounters(be->ops) *
		    sizeof(*values));
	else
		knfs_counters(&px->nfs, values);
}

/* The busy op: the calls knfs_unexplained() finds a phase cannot make. */
static const char *
posix_busy(struct backend *be, const char *phase, const uint64_t *delta,
    bool churn)
{
	struct posix	*px = be->priv;

	return knfs_unexplained(&px->nfs, phase, delta, churn);
}

/* Make and mark the work directory inside the directory 'target'. */
static int
posix_open(struct backend *be, const char *target, char *err)
{
	struct posix	*px;

	px = posixfs_new(be);
	if (workdir_create(&px->wd, target, &be->opts, err) == -1) {
		posixfs_free(px);
		return -1;
	}
	be->priv = px;
	be->workdir = xstrdup(px->wd.path);
	count_nfs(be, target);
	return 0;
}

/*
 * Another rank's: the work directory 'name' rank 0 made and marked in
 * 'target', opened as it is; close() leaves it to rank 0.
 */
static int
posix_attach(struct backend *be, const char *target, const char *name,
    char *err)
{
	struct posix	*px;
	char		*path;

	px = posixfs_new(be);
	path = xasprintf("%s/%s", target, name);
	if ((px->wd.fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC)) == -1) {
		(void)util_syserr(err, "--mpi: %s", path);
		free(path);
		posixfs_free(px);
		return -1;
	}
	px->wd.path = path;
	px->attached = true;
	be->priv = px;
	be->workdir = xstrdup(path);
	count_nfs(be, target);
	return 0;
}

/* Another rank's: the round directory 'name' rank 0 made. */
static int
posix_enter(struct backend *be, const char *name, struct backend_dir **dirp)
{
	struct posix	*px = be->priv;
	int		 fd;

	if ((fd = openat(px->wd.fd, name, O_RDONLY | O_DIRECTORY |
	    O_NOFOLLOW | O_CLOEXEC)) == -1)
		return -1;
	*dirp = posixfs_dir(px, fd, name);
	return 0;
}

/* Drop every handle (directories stay), then remove or keep the rest. */
static int
posix_close(struct backend *be, bool keep, char *err)
{
	struct posix	*px = be->priv;
	int		 rc = 0;

	while (px->dirs != NULL)
		(void)posix_rmdir(be, px->dirs, false);
	if (keep || px->attached)
		workdir_keep(&px->wd);
	else if (workdir_remove(&px->wd, err) == -1) {
		rc = -1;
		workdir_keep(&px->wd);	/* with its marker */
	}
	knfs_close(&px->nfs);
	posixfs_free(px);
	be->priv = NULL;
	return rc;
}

static int
posix_mkdir(struct backend *be, const char *name, uint64_t n,
    struct backend_dir **dirp)
{
	struct posix		*px = be->priv;
	int			 fd, saved;

	if (workdir_round(&px->wd, name, n, &be->opts) == -1 ||
	    mkdirat(px->wd.fd, name, 0700) == -1)
		return -1;
	if ((fd = openat(px->wd.fd, name, O_RDONLY | O_DIRECTORY |
	    O_NOFOLLOW | O_CLOEXEC)) == -1) {
		saved = errno;
		(void)unlinkat(px->wd.fd, name, AT_REMOVEDIR);
		errno = saved;
		return -1;
	}
	*dirp = posixfs_dir(px, fd, name);
	return 0;
}

/* mkdirat in the round directory; no descriptor yet (struct backend_dir). */
static int
posix_subdir(struct backend *be, struct backend_dir *parent,
    const char *name, struct backend_dir **dirp)
{
	struct backend_dir	*d;
	int			 saved;

	if (strlen(name) > NAME_MAX) {
		errno = ENAMETOOLONG;
		return -1;
	}
	if (mkdirat(parent->fd, name, 0700) == -1)
		return -1;
	if ((be->opts.fsync & BACKEND_FSYNC_DIR) != 0 &&
	    fsync(parent->fd) == -1) {
		saved = errno;
		(void)unlinkat(parent->fd, name, AT_REMOVEDIR);
		errno = saved;
		return -1;
	}
	d = xcalloc(1, sizeof(*d));
	d->fd = -1;
	d->name = xstrdup(name);
	d->namelen = strlen(name);
	d->parent = parent;
	*dirp = d;
	return 0;
}

static int
posix_rmdir(struct backend *be, struct backend_dir *dir, bool remove)
{
	struct posix		 *px = be->priv;
	struct backend_dir	**pp;
	int			  rc = 0;

	if (dir->parent != NULL) {
		if (remove && (unlinkat(dir->parent->fd, dir->name,
		    AT_REMOVEDIR) == -1 || ((be->opts.fsync &
		    BACKEND_FSYNC_DIR) != 0 && fsync(dir->parent->fd) == -1)))
			return -1;
		if (px->cur == dir)
			posixfs_sub_close(px);
		free(dir->name);
		free(dir);
		return 0;
	}
	if (remove && unlinkat(px->wd.fd, dir->name, AT_REMOVEDIR) == -1)
		return -1;		/* the handle stays, for another try */
	if (dir->fd != -1 && close(dir->fd) == -1)
		rc = -1;
	for (pp = &px->dirs; *pp != NULL; pp = &(*pp)->next)
		if (*pp == dir) {
			*pp = dir->next;
			break;
		}
	free(dir->name);
	free(dir);
	return rc;
}

static int
posix_create(struct backend *be, struct backend_dir *dir, const char *name)
{
	struct posix	*px = be->priv;
	const char	*path;
	int		 fd;

	fd = posixfs_at(px, dir, name, &path);
	if (posixfs_write(be, fd, path, be->opts.file_size) == -1)
		return -1;
	if ((be->opts.fsync & BACKEND_FSYNC_DIR) != 0 &&
	    ((fd = posixfs_dir_fd(px, dir)) == -1 || fsync(fd) == -1))
		return -1;
	return 0;
}

static int
posix_openclose(struct backend *be, struct backend_dir *dir,
    const char *name)
{
	const char	*path;
	int		 fd;

	fd = posixfs_at(be->priv, dir, name, &path);
	if ((fd = openat(fd, path, O_RDONLY)) == -1)
		return -1;
	return close(fd);
}

static int
posix_stat(struct backend *be, struct backend_dir *dir, const char *name)
{
	struct stat	 st;
	const char	*path;
	int		 fd;

	fd = posixfs_at(be->priv, dir, name, &path);
	return fstatat(fd, path, &st, AT_SYMLINK_NOFOLLOW);
}

static int
posix_unlink(struct backend *be, struct backend_dir *dir, const char *name)
{
	struct posix	*px = be->priv;
	const char	*path;
	int		 fd;

	fd = posixfs_at(px, dir, name, &path);
	if (unlinkat(fd, path, 0) == -1)
		return -1;
	if ((be->opts.fsync & BACKEND_FSYNC_DIR) != 0 && !be->opts.mailbox &&
	    ((fd = posixfs_dir_fd(px, dir)) == -1 || fsync(fd) == -1))
		return -1;
	return 0;
}

static int
posix_rewind(struct backend *be, struct backend_dir *dir)
{
	int	fd;

	if ((fd = posixfs_dir_fd(be->priv, dir)) == -1)
		return -1;
	return lseek(fd, 0, SEEK_SET) == -1 ? -1 : 0;
}

static ssize_t
posix_readdir(struct backend *be, struct backend_dir *dir,
    const char ***names, bool *end)
{
	struct posix	*px = be->priv;
	struct dirent64	*d;
	ssize_t		 len, off, k = 0;

	if ((len = getdents64(dir->fd, px->dirbuf, DIRBUF_SIZE)) == -1)
		return -1;
	*end = len == 0;
	for (off = 0; off < len; off += d->d_reclen) {
		d = (struct dirent64 *)(px->dirbuf + off);
		if (d->d_name[0] == '.' && (d->d_name[1] == '\0' ||
		    (d->d_name[1] == '.' && d->d_name[2] == '\0')))
			continue;
		px->names[k++] = d->d_name;
	}
	*names = px->names;
	return k;
}

static int
posix_sync(struct backend *be)
{
	struct posix	*px = be->priv;

	return syncfs(px->wd.fd);
}

/* Close every descriptor, keeping the names; see posix_reacquire(). */
static int
posix_release(struct backend *be)
{
	struct posix		*px = be->priv;
	struct backend_dir	*d;
	int			 rc = 0;

	posixfs_sub_close(px);
	for (d = px->dirs; d != NULL; d = d->next) {
		if (d->fd != -1 && close(d->fd) == -1)
			rc = -1;
		d->fd = -1;
	}
	workdir_suspend(&px->wd);
	return rc;
}

/*
 * Open the work directory again, check its mark (workdir_resume()), and
 * the round directories below it.
 */
static int
posix_reacquire(struct backend *be, char *err)
{
	struct posix		*px = be->priv;
	struct backend_dir	*d;
	int			 saved;

	if (workdir_resume(&px->wd, err) == -1)
		return -1;
	for (d = px->dirs; d != NULL; d = d->next) {
		if (d->fd != -1)
			continue;
		d->fd = openat(px->wd.fd, d->name, O_RDONLY | O_DIRECTORY |
		    O_NOFOLLOW | O_CLOEXEC);
		if (d->fd == -1) {
			saved = errno;
			(void)snprintf(err, LD_ERRLEN, "open %s/%s again: %s",
			    px->wd.path, d->name, strerror(saved));
			errno = saved;
			return -1;
		}
	}
	return 0;
}

/* Whether the work directory, or 'dir' in it (may be NULL), is gone. */
static bool
posix_vanished(struct backend *be, struct backend_dir *dir)
{
	struct posix	*px = be->priv;
	struct stat	 st;

	if (fstat(px->wd.fd, &st) == -1 || st.st_nlink == 0)
		return true;
	while (dir != NULL && dir->parent != NULL)
		dir = dir->parent;	/* the round directory */
	return dir != NULL && fstatat(px->wd.fd, dir->name, &st, 0) == -1;
}

static int
posix_sweep(const char *target, void (*report)(void *,
    const struct backend_report *), void *arg, char *err)
{
	return workdir_sweep(target, report, arg, err);
}

/*
 * A child beside the parent (--churn, --clients): openat(2) and
 * unlinkat(2) move no offset, but a listing does, and a forked
 * descriptor shares its offset with the parent's.  So every directory
 * open now gets a description of its own, under the same number.
 */
static int
posix_forked(struct backend *be)
{
	struct posix		*px = be->priv;
	struct backend_dir	*d;
	int			 fd, saved;

	for (d = px->dirs; d != NULL; d = d->next) {
		if (d->fd == -1)
			continue;
		if ((fd = openat(d->fd, ".", O_RDONLY | O_DIRECTORY |
		    O_CLOEXEC)) == -1)
			return -1;
		if (dup3(fd, d->fd, O_CLOEXEC) == -1) {
			saved = errno;
			(void)close(fd);
			errno = saved;
			return -1;
		}
		(void)close(fd);
	}
	return 0;
}
