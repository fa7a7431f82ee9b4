/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/* posixfs: see posixfs.h. */

#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend/posixfs.h"
#include "base/util.h"

/* A struct posix with its buffers, for 'be''s options. */
struct posix *
posixfs_new(const struct backend *be)
{
	struct posix	*px;

	px = xcalloc(1, sizeof(*px));
	px->wd.fd = px->wd.parentfd = px->wd.lockfd = -1;
	/* One write(2) for any body up to WRITE_CHUNK that --file-size
	   allows, and a delivery of any size still written whole. */
	px->datalen = be->opts.file_size_max > be->opts.file_size ?
	    be->opts.file_size_max : be->opts.file_size;
	if (px->datalen < READ_CHUNK)
		px->datalen = READ_CHUNK;
	if (px->datalen > WRITE_CHUNK)
		px->datalen = WRITE_CHUNK;
	px->data = xmalloc(px->datalen);
	memset(px->data, 'x', px->datalen);
	px->dirbuf = xmalloc(DIRBUF_SIZE);
	px->rbuf = xmalloc(READ_CHUNK);
	/* A dirent64 takes at least 24 bytes. */
	px->names = xreallocarray(NULL, DIRBUF_SIZE / 24 + 1,
	    sizeof(*px->names));
	return px;
}

/* Free 'px' and its buffers. */
void
posixfs_free(struct posix *px)
{
	free(px->data);
	free(px->dirbuf);
	free(px->rbuf);
	free(px->names);
	free(px);
}

/* A handle of directory 'name', open as 'fd', in px->dirs. */
struct backend_dir *
posixfs_dir(struct posix *px, int fd, const char *name)
{
	struct backend_dir	*d;

	d = xcalloc(1, sizeof(*d));
	d->fd = fd;
	d->name = xstrdup(name);
	d->namelen = strlen(name);
	d->next = px->dirs;
	px->dirs = d;
	return d;
}

/*
 * Where 'name' in 'dir' is: return the descriptor to start from and
 * store the path from there in '*path' (the name itself, or through a
 * subdirectory "d00000012/NAME" in px->path).
 */
int
posixfs_at(struct posix *px, struct backend_dir *dir, const char *name,
    const char **path)
{
	size_t	len;

	if (dir->parent == NULL) {
		*path = name;
		return dir->fd;
	}
	len = strlen(name);
	if (len > NAME_MAX)
		len = NAME_MAX + 1;	/* the kernel says ENAMETOOLONG */
	memcpy(px->path, dir->name, dir->namelen);
	px->path[dir->namelen] = '/';
	memcpy(px->path + dir->namelen + 1, name, len);
	px->path[dir->namelen + 1 + len] = '\0';
	*path = px->path;
	return dir->parent->fd;
}

/*
 * The descriptor of 'dir', opening a subdirectory's (and closing the
 * one opened before), or -1 with errno.
 */
int
posixfs_dir_fd(struct posix *px, struct backend_dir *dir)
{
	if (dir->parent == NULL || px->cur == dir)
		return dir->fd;
	posixfs_sub_close(px);
	dir->fd = openat(dir->parent->fd, dir->name, O_RDONLY | O_DIRECTORY |
	    O_NOFOLLOW | O_CLOEXEC);
	if (dir->fd != -1)
		px->cur = dir;
	return dir->fd;
}

/* Close the descriptor of the subdirectory that has one. */
void
posixfs_sub_close(struct posix *px)
{
	if (px->cur == NULL)
		return;
	(void)close(px->cur->fd);
	px->cur->fd = -1;
	px->cur = NULL;
}

/*
 * Create 'path' from 'dfd' (exclusive), write 'size' bytes into it,
 * fsync it if --fsync says so, and close it.
 */
int
posixfs_write(struct backend *be, int dfd, const char *path, uint64_t size)
{
	struct posix	*px = be->priv;
	uint64_t	 left;
	ssize_t		 w;
	int		 fd, saved;

	if ((fd = openat(dfd, path, O_CREAT | O_EXCL | O_WRONLY, 0644)) == -1)
		return -1;
	for (left = size; left > 0; left -= (uint64_t)w) {
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
	return close(fd);
fail:
	saved = errno;
	(void)close(fd);
	errno = saved;
	return -1;
}
