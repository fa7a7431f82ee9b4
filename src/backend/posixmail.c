/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/* posixmail: see posixmail.h. */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "backend/posixfs.h"
#include "backend/posixmail.h"

/*
 * A Maildir delivery (backend.h): the body into 'tmp', renamed into
 * 'new', whose directory is then opened, fsync'd and closed when --fsync
 * asks for it, as Dovecot and Postfix do.  Paths go through the round
 * directory, as a server's go through the Maildir.
 */
int
posix_deliver(struct backend *be, struct backend_dir *tmp,
    struct backend_dir *new, const char *name, uint64_t size)
{
	struct posix	*px = be->priv;
	const char	*path;
	int		 fd, saved;

	fd = posixfs_at(px, tmp, name, &path);
	if (posixfs_write(be, fd, path, size) == -1 ||
	    posix_rename(be, tmp, name, new, name) == -1)
		return -1;
	if ((be->opts.fsync & BACKEND_FSYNC_DIR) == 0)
		return 0;
	fd = posixfs_at(px, new, ".", &path);
	if ((fd = openat(fd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1)
		return -1;
	if (fsync(fd) == -1) {
		saved = errno;
		(void)close(fd);
		errno = saved;
		return -1;
	}
	return close(fd);
}

int
posix_rename(struct backend *be, struct backend_dir *fdir, const char *from,
    struct backend_dir *tdir, const char *to)
{
	struct posix	*px = be->priv;
	const char	*fpath, *tpath;
	int		 ffd, tfd;

	ffd = posixfs_at(px, fdir, from, &fpath);
	if (fpath == px->path) {
		/* posixfs_at() writes px->path again for 'to': keep 'from'. */
		memcpy(px->path2, px->path, sizeof(px->path2));
		fpath = px->path2;
	}
	tfd = posixfs_at(px, tdir, to, &tpath);
	return renameat(ffd, fpath, tfd, tpath);
}

/* Open 'name', read it to its end in READ_CHUNK pieces, close it. */
int
posix_readfile(struct backend *be, struct backend_dir *dir,
    const char *name)
{
	struct posix	*px = be->priv;
	const char	*path;
	ssize_t		 r;
	int		 fd, saved;

	fd = posixfs_at(px, dir, name, &path);
	if ((fd = openat(fd, path, O_RDONLY)) == -1)
		return -1;
	while ((r = read(fd, px->rbuf, READ_CHUNK)) != 0) {
		if (r == -1 && errno != EINTR) {
			saved = errno;
			(void)close(fd);
			errno = saved;
			return -1;
		}
	}
	return close(fd);
}
