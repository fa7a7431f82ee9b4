/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * target_nfs: what a target with "source = HOST:/PATH" (an NFS export
 * largedir mounts through the kernel's client) needs from this machine,
 * and the words of a mount that failed.
 *
 * target_nfs_check() runs before anything is made (largedir.c calls it
 * where it checks /proc/filesystems for other targets): a kernel with an
 * NFS client, built in, loaded or loadable as a module when mount(2)
 * asks for it, and the mount helper of nfs-common, which libmount runs
 * (the kernel's own option parser needs the server's address resolved,
 * and mount.nfs does that).  While mount.nfs runs, target.c sends its
 * stderr to a log in the run directory (target_nfs_log_start() and
 * _end()), so that the one line largedir prints quotes it instead of
 * following it.
 */

#ifndef LD_TARGET_NFS_H
#define LD_TARGET_NFS_H

#include <stddef.h>

#define TARGET_NFS_LOG	"mount.log"	/* in the run directory */

int	target_nfs_check(const char *, const char *, char *);
int	target_nfs_log_start(const char *, int *, char *);
void	target_nfs_log_end(int, const char *, char *, size_t);
int	target_nfs_failed(const char *, const char *, int, char *);

#endif /* LD_TARGET_NFS_H */
