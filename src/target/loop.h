/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * loop: loop devices, through the kernel's own interface (loop-control's
 * LOOP_CTL_GET_FREE, LOOP_CONFIGURE, LOOP_CLR_FD) rather than losetup.
 * target.c attaches its images here; --cleanup finds the devices a
 * killed run left by their backing file in /sys/block/loop*.
 */

#ifndef LD_LOOP_H
#define LD_LOOP_H

#include <stdbool.h>
#include <stddef.h>

int	loop_attach(int, const char *, char **, bool *, char *);
int	loop_detach(const char *);
int	loop_detach_backed(const char *, char *, size_t);

#endif /* LD_LOOP_H */
