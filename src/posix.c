/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * posix: the backend for any mounted filesystem.  Every call is relative
 * to a directory descriptor (the work directory, and the round directory
 * inside it), so the kernel never walks a long path and a directory
 * renamed or removed under us is noticed instead of followed.
 *
 * The operations are exactly what the experiment names: create is
 * openat(O_CREAT|O_EXCL|O_WRONLY) [+ write] [+ fsync] + close, open is
 * openat(O_RDONLY) + close, delete is unlinkat, a listing is getdents64
 * into a 32 KiB buffer (what glibc's readdir uses), a stat is fstatat.
 */

#include <sys/stat.h>
#include <sys/types.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend.h"
#include "util.h"

#define DIRBUF_SIZE	32768		/* getdents64 buffer */
#define WRITE_CHUNK	(1U << 20)	/* largest single write(2) */

struct posix {
	int		 workfd;	/* the work directory (borrowed) */
	int		 dirfd;		/* current round directory, or -1 */
	char		*dirname;	/* its name in the work directory */
	char		*data;		/* what create writes */
	size_t		 datalen;
	char		*dirbuf;	/* getdents64 buffer */
	const char	**names;	/* the batch readdir returns */
};

static int	posix_enter(struct backend *, const char *);
static int	posix_leave(struct backend *, bool);
static int	posix_create(struct backend *, const char *);
static int	posix_open_close(struct backend *, const char *);
static int	posix_stat(struct backend *, const char *);
static int	posix_unlink(struct backend *, const char *);
static int	posix_rewind(struct backend *);
static ssize_t	posix_readdir(struct backend *, const char ***, bool *);
static int	posix_sync(struct backend *);
static int	posix_suspend(struct backend *);
static int	posix_resume(struct backend *, int);
static void	posix_close(struct backend *);

static const struct backend_ops posix_ops = {
	.name = "posix",
	.enter = posix_enter,
	.leave = posix_leave,
	.create = posix_create,
	.open = posix_open_close,
	.stat = posix_stat,
	.unlink = posix_unlink,
	.rewind = posix_rewind,
	.readdir = posix_readdir,
	.sync = posix_sync,
	.suspend = posix_suspend,
	.resume = posix_resume,
	.close = posix_close,
};

/*
 * Set up 'be' as a POSIX backend working inside the directory open as
 * 'workfd' (borrowed: the caller closes it after be->ops->close()), with
 * the options 'opts'.  Return 0; allocation failure dies.
 */
int
posix_open(struct backend *be, int workfd, const struct backend_opts *opts)
{
	struct posix	*px;

	px = xcalloc(1, sizeof(*px));
	px->workfd = workfd;
	px->dirfd = -1;
	px->datalen = opts->file_size < WRITE_CHUNK ? opts->file_size :
	    WRITE_CHUNK;
	px->data = xmalloc(px->datalen);
	memset(px->data, 'x', px->datalen);
	px->dirbuf = xmalloc(DIRBUF_SIZE);
	/* A dirent64 takes at least 24 bytes. */
	px->names = xreallocarray(NULL, DIRBUF_SIZE / 24 + 1,
	    sizeof(*px->names));
	be->ops = &posix_ops;
	be->opts = *opts;
	be->priv = px;
	return 0;
}

static int
posix_enter(struct backend *be, const char *name)
{
	struct posix	*px = be->priv;
	int		 fd, saved;

	if (mkdirat(px->workfd, name, 0700) == -1)
		return -1;
	if ((fd = openat(px->workfd, name, O_RDONLY | O_DIRECTORY |
	    O_CLOEXEC)) == -1) {
		saved = errno;
		(void)unlinkat(px->workfd, name, AT_REMOVEDIR);
		errno = saved;
		return -1;
	}
	px->dirfd = fd;
	free(px->dirname);
	px->dirname = xstrdup(name);
	return 0;
}

static int
posix_leave(struct backend *be, bool remove)
{
	struct posix	*px = be->priv;
	int		 rc = 0;

	if (px->dirname == NULL)
		return 0;
	if (px->dirfd != -1 && close(px->dirfd) == -1)
		rc = -1;
	px->dirfd = -1;
	if (remove && unlinkat(px->workfd, px->dirname, AT_REMOVEDIR) == -1)
		rc = -1;
	free(px->dirname);
	px->dirname = NULL;
	return rc;
}

static int
posix_create(struct backend *be, const char *name)
{
	struct posix	*px = be->priv;
	uint64_t	 left;
	ssize_t		 w;
	int		 fd, saved;

	if ((fd = openat(px->dirfd, name, O_CREAT | O_EXCL | O_WRONLY,
	    0644)) == -1)
		return -1;
	for (left = be->opts.file_size; left > 0; left -= (uint64_t)w) {
		w = write(fd, px->data, left < px->datalen ? left :
		    px->datalen);
		if (w == -1 && errno == EINTR) {
			w = 0;
			continue;
		}
		if (w <= 0) {
			if (w == 0)
				errno = EIO;
			goto fail;
		}
	}
	if ((be->opts.fsync & BACKEND_FSYNC_FILE) != 0 && fsync(fd) == -1)
		goto fail;
	if (close(fd) == -1)
		return -1;
	if ((be->opts.fsync & BACKEND_FSYNC_DIR) != 0 && fsync(px->dirfd) == -1)
		return -1;
	return 0;
fail:
	saved = errno;
	(void)close(fd);
	errno = saved;
	return -1;
}

static int
posix_open_close(struct backend *be, const char *name)
{
	struct posix	*px = be->priv;
	int		 fd;

	if ((fd = openat(px->dirfd, name, O_RDONLY)) == -1)
		return -1;
	return close(fd);
}

static int
posix_stat(struct backend *be, const char *name)
{
	struct posix	*px = be->priv;
	struct stat	 st;

	return fstatat(px->dirfd, name, &st, AT_SYMLINK_NOFOLLOW);
}

static int
posix_unlink(struct backend *be, const char *name)
{
	struct posix	*px = be->priv;

	if (unlinkat(px->dirfd, name, 0) == -1)
		return -1;
	if ((be->opts.fsync & BACKEND_FSYNC_DIR) != 0 && fsync(px->dirfd) == -1)
		return -1;
	return 0;
}

static int
posix_rewind(struct backend *be)
{
	struct posix	*px = be->priv;

	return lseek(px->dirfd, 0, SEEK_SET) == -1 ? -1 : 0;
}

static ssize_t
posix_readdir(struct backend *be, const char ***names, bool *end)
{
	struct posix	*px = be->priv;
	struct dirent64	*d;
	ssize_t		 len, off, k = 0;

	if ((len = getdents64(px->dirfd, px->dirbuf, DIRBUF_SIZE)) == -1)
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

	return syncfs(px->workfd);
}

/* Close the round directory, keeping its name; forget the work directory. */
static int
posix_suspend(struct backend *be)
{
	struct posix	*px = be->priv;
	int		 rc = 0;

	if (px->dirfd != -1 && close(px->dirfd) == -1)
		rc = -1;
	px->dirfd = -1;
	px->workfd = -1;
	return rc;
}

/* Work below 'workfd' again, in the round directory suspend() left. */
static int
posix_resume(struct backend *be, int workfd)
{
	struct posix	*px = be->priv;

	px->workfd = workfd;
	if (px->dirname == NULL || px->dirfd != -1)
		return 0;
	px->dirfd = openat(workfd, px->dirname, O_RDONLY | O_DIRECTORY |
	    O_NOFOLLOW | O_CLOEXEC);
	return px->dirfd == -1 ? -1 : 0;
}

static void
posix_close(struct backend *be)
{
	struct posix	*px = be->priv;

	if (px == NULL)
		return;
	(void)posix_leave(be, false);
	free(px->dirname);
	free(px->data);
	free(px->dirbuf);
	free(px->names);
	free(px);
	be->priv = NULL;
}
