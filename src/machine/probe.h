/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * probe: what the machine and the filesystem under test are, recorded
 * with every result so a number can be traced to its setup: uname, CPU
 * model and count, memory, the clock source, the mount that holds the
 * directory under test (from /proc/self/mountinfo: fstype, the kernel
 * driver where it differs, source, mount and superblock options), its
 * free space and inodes (statvfs), and the load average.
 *
 * The readers of /proc files take their paths as parameters so tests can
 * point them at fixture files in tests/data/.  probe_fs_known() tells
 * whether the kernel can mount a filesystem type at all.
 */

#ifndef LD_PROBE_H
#define LD_PROBE_H

#include <stdbool.h>
#include <stdint.h>

#include "base/kv.h"

#define PROBE_FILESYSTEMS	"/proc/filesystems"
#define PROBE_CPUINFO		"/proc/cpuinfo"

/* One line of /proc/self/mountinfo, unescaped (\040 is a space again). */
struct probe_mount {
	unsigned	 major, minor;	/* st_dev of the mounted filesystem */
	char		*root;		/* the mount's root within the fs */
	char		*mountpoint;
	char		*mount_opts;	/* per-mount options: rw,noatime */
	char		*fstype;	/* as mounted: ext2, nfs4, fuse.sshfs */
	char		*source;	/* /dev/loop0, srv:/export, tmpfs */
	char		*super_opts;	/* superblock options */
	char		*driver;	/* the kernel driver serving it */
};

int	probe_mountinfo(const char *, unsigned, unsigned, const char *,
	    struct probe_mount *);
int	probe_mount(const char *, struct probe_mount *);
void	probe_mount_free(struct probe_mount *);

int	probe_cpu_model(const char *, char *, size_t);
int	probe_fs_known(const char *, const char *);
bool	probe_is_uml(const char *);
int	probe_loadavg(double *);

void	probe_system(struct kvlist *);
void	probe_target(const char *, struct kvlist *);
void	probe_storage(const char *, const char *, struct kvlist *);
uint64_t	probe_inodes_free(const char *);

#endif /* LD_PROBE_H */
