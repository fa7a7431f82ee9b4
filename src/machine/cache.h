/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * cache: the state of the kernel's dentry and inode caches, free memory
 * and the target's block device counters, read before and after each
 * phase so the knee (where the directory stops fitting in the caches)
 * can be explained.  The counters are machine-wide, not per process.
 *
 * Every path is read below a root ("/" normally, a fixture directory in
 * the tests).  A field that cannot be read is -1.
 */

#ifndef LD_CACHE_H
#define LD_CACHE_H

#include <stdint.h>

/* One reading; see cache_read().  Fields that cannot be read are -1. */
struct cache_state {
	/* /proc/sys/fs/dentry-state, fields 1 and 2 */
	int64_t	nr_dentry, nr_unused;
	/* /proc/sys/fs/inode-nr, field 1 */
	int64_t	nr_inodes;
	/* /proc/slabinfo: active objects of "dentry" (root only) */
	int64_t	dentry_objs;
	/* active objects of the filesystem's inode cache (root only) */
	int64_t	inode_objs;
	/* /proc/meminfo: MemAvailable */
	int64_t	mem_available_kib;
	/* /sys/dev/block/MAJ:MIN/stat, fields 3 and 7 (block devices only) */
	int64_t	sectors_read, sectors_written;
};

const char	*cache_inode_slab(const char *);
int		 cache_read(const char *, const char *, unsigned, unsigned,
		    struct cache_state *);
void		 cache_diff(const struct cache_state *,
		    const struct cache_state *, int64_t *, int64_t *);

#endif /* LD_CACHE_H */
