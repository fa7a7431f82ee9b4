/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * target_mount: mounting a target's filesystem and reading back what was
 * mounted.  target_mount() mounts through libmount (which runs
 * mount.nfs for an NFS export, its complaints going to the run
 * directory's mount.log, target_nfs.c) and, when the mount fails, says
 * why in one line: mount.nfs's last word, else the kernel's line from
 * /dev/kmsg (kmsg.c), else libmount's, else the errno.  After a mount,
 * what /proc/self/mountinfo shows on the mount point must be what was
 * asked for (target_mount_check()): a fresh filesystem of the config's
 * type from its source, reached by a lookup of the mount point.
 *
 * target.c calls it while setting up and for --cold=remount.
 */

#ifndef LD_TARGET_MOUNT_H
#define LD_TARGET_MOUNT_H

#include "machine/mountinfo.h"
#include "target/target.h"

int	target_mount(struct target *, const char *, char *);
int	target_mount_check(const struct mountinfo *, const char *,
	    const char *, const char *, unsigned, char *);

#endif /* LD_TARGET_MOUNT_H */
