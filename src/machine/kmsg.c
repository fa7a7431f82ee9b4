/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * kmsg: what the kernel logged while largedir did something (see
 * kmsg.h).  /dev/kmsg hands out one record per read(2), "PRIO,SEQ,TIME,
 * FLAGS;TEXT\n" and perhaps " KEY=VALUE" lines; opened and moved to its
 * end before the call, it gives exactly what was logged since.  Without
 * it (no root, a kernel without it, a container) nothing is found, and
 * the caller says what it knows.
 */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "machine/kmsg.h"

/*
 * Open /dev/kmsg at its end, for kmsg_said() after the call whose
 * messages are wanted.  Return the descriptor, or -1.
 */
int
kmsg_start(void)
{
	int	fd;

	if ((fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC)) ==
	    -1)
		return -1;
	if (lseek(fd, 0, SEEK_END) == -1) {
		(void)close(fd);
		return -1;
	}
	return fd;
}

/*
 * Whether the record 'rec' ('len' bytes, as read from /dev/kmsg) is a
 * warning or worse whose text names 'a' or 'b' (either may be NULL or
 * empty; case does not matter, as the kernel writes "EXT4-fs" and
 * "BTRFS"): then its text, up to the end of its first line, goes into
 * 'buf' ('size' bytes) and 1 is returned; else 0.
 */
int
kmsg_parse(const char *rec, size_t len, const char *a, const char *b,
    char *buf, size_t size)
{
	char		 text[512];
	const char	*semi, *end;
	size_t		 n;
	int		 prio;

	if ((semi = memchr(rec, ';', len)) == NULL ||
	    sscanf(rec, "%d,", &prio) != 1 || (prio & 7) > 4)
		return 0;
	semi++;
	if ((end = memchr(semi, '\n', len - (size_t)(semi - rec))) == NULL)
		end = rec + len;
	n = (size_t)(end - semi);
	if (n >= sizeof(text))
		n = sizeof(text) - 1;
	memcpy(text, semi, n);
	text[n] = '\0';
	if (!((a != NULL && *a != '\0' && strcasestr(text, a) != NULL) ||
	    (b != NULL && *b != '\0' && strcasestr(text, b) != NULL)))
		return 0;
	(void)snprintf(buf, size, "%s", text);
	return 1;
}

/*
 * The last record logged since kmsg_start() gave 'fd' (-1: none) that
 * kmsg_parse() takes with 'a' and 'b', into 'buf' ('size' bytes), or ""
 * if there is none.  Closes 'fd'.
 */
void
kmsg_said(int fd, const char *a, const char *b, char *buf, size_t size)
{
	char	rec[8192];
	ssize_t	n;

	if (size > 0)
		buf[0] = '\0';
	if (fd == -1)
		return;
	for (;;) {
		n = read(fd, rec, sizeof(rec));
		if (n > 0) {
			(void)kmsg_parse(rec, (size_t)n, a, b, buf, size);
			continue;
		}
		/* EPIPE: records were overwritten; the next read goes on. */
		if (n == -1 && errno == EPIPE)
			continue;
		break;
	}
	(void)close(fd);
}
