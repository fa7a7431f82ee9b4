/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * loop: see loop.h.  Devices are attached without LO_FLAGS_AUTOCLEAR, on
 * purpose: a run killed with kill -9 leaves its device attached, and
 * --cleanup finds it by its backing file instead of losing track of it.
 */

#include <sys/ioctl.h>
#include <sys/types.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/loop.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/util.h"
#include "machine/sysfile.h"
#include "target/loop.h"

#define RETRIES		10		/* for EBUSY, 100 ms apart */
#define RETRY_NS	100000000L

static void
nap(void)
{
	struct timespec	ts = { 0, RETRY_NS };

	(void)nanosleep(&ts, NULL);
}

/*
 * Attach the open image 'ifd' (path 'image', for the kernel's records) to
 * a free loop device, with direct I/O and 4 KiB blocks if the kernel takes
 * them, and store the device's path in '*dev' (a new string) and whether
 * it uses direct I/O in '*direct_io'.  Another process may take the
 * device LOOP_CTL_GET_FREE named before us: then LOOP_CONFIGURE says
 * EBUSY and we ask again.  Return 0, or -1 with errno and a message in
 * 'err'.  'ifd' stays open; the caller closes it.
 */
int
loop_attach(int ifd, const char *image, char **dev, bool *direct_io,
    char *err)
{
	struct loop_config	lc;
	struct loop_info64	li;
	char			name[32];
	int			ctl, lfd = -1, n, tries = 0, saved;
	bool			dio = true;

	if ((ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC)) == -1) {
		saved = errno;
		(void)snprintf(err, LD_ERRLEN, "open /dev/loop-control: %s",
		    strerror(saved));
		errno = saved;
		return -1;
	}
	for (;;) {
		if ((n = ioctl(ctl, LOOP_CTL_GET_FREE)) == -1) {
			saved = errno;
			(void)snprintf(err, LD_ERRLEN, "find a free loop "
			    "device: %s", strerror(saved));
			goto fail;
		}
		(void)snprintf(name, sizeof(name), "/dev/loop%d", n);
		memset(&lc, 0, sizeof(lc));
		lc.fd = (uint32_t)ifd;
		if (dio) {
			lc.info.lo_flags = LO_FLAGS_DIRECT_IO;
			lc.block_size = 4096;
		}
		(void)snprintf((char *)lc.info.lo_file_name, LO_NAME_SIZE,
		    "%s", image);
		if ((lfd = open(name, O_RDWR | O_CLOEXEC)) != -1 &&
		    ioctl(lfd, LOOP_CONFIGURE, &lc) == 0)
			break;
		saved = errno;
		if (lfd != -1)
			(void)close(lfd);
		lfd = -1;
		if (saved == EINVAL && dio)
			dio = false;
		else if ((saved == EBUSY || saved == ENOENT) &&
		    ++tries < RETRIES)
			nap();
		else {
			(void)snprintf(err, LD_ERRLEN, "attach %s to %s: %s",
			    image, name, strerror(saved));
			goto fail;
		}
	}
	*dev = xstrdup(name);
	/* The kernel may have turned direct I/O down quietly: ask it. */
	*direct_io = dio && ioctl(lfd, LOOP_GET_STATUS64, &li) == 0 &&
	    (li.lo_flags & LO_FLAGS_DIRECT_IO) != 0;
	(void)close(lfd);
	(void)close(ctl);
	return 0;
fail:
	(void)close(ctl);
	errno = saved;
	return -1;
}

/*
 * Detach loop device 'dev'; one that is not bound, or gone, is fine.
 * Retry while it is busy (udev may still hold it).  Return 0, or -1 with
 * errno.
 */
int
loop_detach(const char *dev)
{
	int	fd, i, saved;

	if ((fd = open(dev, O_RDONLY | O_CLOEXEC)) == -1)
		return errno == ENOENT || errno == ENXIO ? 0 : -1;
	for (i = 0; ioctl(fd, LOOP_CLR_FD) == -1 && errno != ENXIO; i++) {
		if (errno != EBUSY || i + 1 >= RETRIES) {
			saved = errno;
			(void)close(fd);
			errno = saved;
			return -1;
		}
		nap();
	}
	return close(fd);
}

/*
 * Detach every loop device backed by the file 'image' (a real path), as
 * /sys/block/loop* tells; name one of them in 'dev' ('len' bytes), or
 * leave it empty.  Return 0, or -1 with errno if one would not detach.
 */
int
loop_detach_backed(const char *image, char *dev, size_t len)
{
	struct dirent	*d;
	DIR		*dp;
	char		 path[300], back[PATH_MAX + 16], name[300];
	size_t		 n = strlen(image);
	int		 rc = 0;

	dev[0] = '\0';
	if ((dp = opendir("/sys/block")) == NULL)
		return errno == ENOENT ? 0 : -1;
	while ((d = readdir(dp)) != NULL) {
		if (strncmp(d->d_name, "loop", 4) != 0)
			continue;
		(void)snprintf(path, sizeof(path), "/sys/block/%s/loop/"
		    "backing_file", d->d_name);
		if (sysfile_read(path, back, sizeof(back)) <= 0)
			continue;
		back[strcspn(back, "\n")] = '\0';
		/* A deleted image still backs its device: "(deleted)". */
		if (strncmp(back, image, n) != 0 || (back[n] != '\0' &&
		    strcmp(back + n, " (deleted)") != 0))
			continue;
		(void)snprintf(name, sizeof(name), "/dev/%s", d->d_name);
		if (loop_detach(name) == -1)
			rc = -1;
		else
			(void)snprintf(dev, len, "%.*s", (int)len - 1, name);
	}
	(void)closedir(dp);
	return rc;
}
