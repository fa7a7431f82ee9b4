/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * mkfs: giving a target its filesystem.  target.c asks here whether a
 * block device may be formatted (mkfs_check_device(): not mounted, not in
 * use, no signature libblkid knows unless wiping is allowed) and runs the
 * config's mkfs command on it (mkfs_run(): fork and execvp, never a
 * shell, the output into a log file).  A signal that sig.c catches while
 * mkfs runs is passed on to it.  When mkfs fails, the message quotes the
 * last line of its log that shows something (mkfs_last_line()) and names
 * the log, which the caller keeps.
 */

#ifndef LD_MKFS_H
#define LD_MKFS_H

#include <stdbool.h>
#include <stddef.h>

int	mkfs_check_device(const char *, bool, char *);
int	mkfs_run(const char *, const char *, const char *, char **, bool *,
	    char *);
void	mkfs_last_line(int, char *, size_t);

#endif /* LD_MKFS_H */
