/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * kmsg: what the kernel logged while largedir did something, from
 * /dev/kmsg.  A failed mount(2) says only EINVAL; the filesystem says
 * which option it refused ("tmpfs: Unknown parameter 'x'", "EXT4-fs
 * (loop0): Unrecognized mount option ...") in the kernel log, and
 * kmsg_start() before and kmsg_said() after the call find that line.
 */

#ifndef LD_KMSG_H
#define LD_KMSG_H

#include <stddef.h>

int	kmsg_start(void);
void	kmsg_said(int, const char *, const char *, char *, size_t);
int	kmsg_parse(const char *, size_t, const char *, const char *, char *,
	    size_t);

#endif /* LD_KMSG_H */
