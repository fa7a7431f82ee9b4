/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * target_image: see target_image.h.
 */

#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "target/loop.h"
#include "target/target_image.h"

static void	fmt_bytes(char *, size_t, uint64_t);

/* Write 'n' bytes as a person reads them: "512 KiB", "63.5 MiB". */
static void
fmt_bytes(char *buf, size_t len, uint64_t n)
{
	if (n < ((uint64_t)1 << 20))
		(void)snprintf(buf, len, "%" PRIu64 " KiB", n >> 10);
	else if (n < ((uint64_t)1 << 30))
		(void)snprintf(buf, len, "%.1f MiB", n / 1048576.0);
	else
		(void)snprintf(buf, len, "%.1f GiB", n / 1073741824.0);
}

/*
 * Refuse an image of 'size' bytes in 'scratch' unless the filesystem that
 * holds 'scratch' (or will: the nearest directory above it that exists)
 * has that much available to it, as df(1)'s Avail counts.  The image is
 * sparse, but mkfs and the run fill it, so all of it counts.  Return 0,
 * or -1 with errno (ENOSPC: too little room) and a message in 'err'.
 */
int
target_image_room(const char *scratch, uint64_t size, char *err)
{
	struct statvfs	 sv;
	uint64_t	 avail;
	char		*dir, *slash, need_s[32], avail_s[32];

	dir = xstrdup(scratch);
	while (statvfs(dir, &sv) == -1) {
		if (errno != ENOENT || strcmp(dir, "/") == 0 ||
		    strcmp(dir, ".") == 0) {
			(void)util_syserr(err, "scratch directory %s", scratch);
			free(dir);
			return -1;
		}
		if ((slash = strrchr(dir, '/')) == NULL)
			(void)strcpy(dir, ".");
		else if (slash == dir)
			slash[1] = '\0';
		else
			*slash = '\0';
	}
	free(dir);
	avail = (uint64_t)sv.f_bavail * sv.f_frsize;
	if (avail >= size)
		return 0;
	fmt_bytes(need_s, sizeof(need_s), size);
	fmt_bytes(avail_s, sizeof(avail_s), avail);
	return util_fail(err, ENOSPC, "scratch directory %s: %s free, the "
	    "image needs %s (sparse, but mkfs and the run fill it): use "
	    "another --scratch or a smaller image_size", scratch, avail_s,
	    need_s);
}

/*
 * Create t->conf.image_size bytes of sparse image, t->rundir/image (its
 * path into t->image).  Return its descriptor, open for reading and
 * writing, or -1 with errno and 'err' set.
 */
int
target_image_make(struct target *t, char *err)
{
	int	ifd, saved;

	t->image = xasprintf("%s/image", t->rundir);
	if ((ifd = open(t->image, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW |
	    O_CLOEXEC, 0600)) == -1)
		return util_syserr(err, "create %s", t->image);
	if (ftruncate(ifd, (off_t)t->conf.image_size) == -1) {
		(void)util_syserr(err, "size %s", t->image);
		saved = errno;
		(void)close(ifd);
		errno = saved;
		return -1;
	}
	return ifd;
}

/*
 * Create the sparse image (target_image_make()) and attach it to a free
 * loop device, with direct I/O if the kernel can (loop_attach()): the
 * device into t->loopdev, whether it has direct I/O into t->direct_io.
 * Return 0, or -1 with errno and 'err' set.
 */
int
target_image_attach(struct target *t, char *err)
{
	int	ifd, rc, saved;

	if ((ifd = target_image_make(t, err)) == -1)
		return -1;
	rc = loop_attach(ifd, t->image, &t->loopdev, &t->direct_io, err);
	saved = errno;
	(void)close(ifd);
	errno = saved;
	return rc;
}
