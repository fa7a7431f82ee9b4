/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * knfs: what the kernel's NFS client sent for each phase, when the
 * directory under test is on an NFS mount (a path on one, or an export a
 * config mounts).  The posix backend measures as on any filesystem; knfs
 * gives it the counters of the mount from /proc/self/mountstats
 * (mountstats.c), read before and after each phase, under the names the
 * libnfs backend uses: PHASE_rpc_PROC for the calls of each procedure
 * (lower case; v4: the operations these workloads use, the rest in
 * rpc_other), then the transmissions, major timeouts, bytes, queue,
 * round-trip and execute times and errors of all of them, then the
 * client's events worth having (nfs_dentryrevalidate, nfs_vfsgetdents,
 * ...).  The counts are the whole mount's: another process using it
 * adds to them, and knfs_unexplained() names calls a phase cannot have
 * made.
 *
 * The posix backend keeps a struct knfs in its own state and has a
 * const ops table for each version (posix.c), whose counter names are
 * knfs_v3_names or knfs_v4_names.
 */

#ifndef LD_KNFS_H
#define LD_KNFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/kv.h"

#define KNFS_MAX	64	/* counters of a mount, at most */
#define KNFS_V3_NCALLS	22	/* the calls among the v3 counters */
#define KNFS_V4_NCALLS	24	/* and the v4 ones (with rpc_other) */

/* The counters of one kernel NFS mount. */
struct knfs {
	unsigned	 vers;			/* 3 or 4; 0: none */
	char		*mountpoint;
	char		*file;			/* /proc/self/mountstats */
	uint64_t	 last[KNFS_MAX];	/* the last good read */
	char		 busy[256];		/* knfs_unexplained()'s */
};

extern const char *const	knfs_v3_names[];
extern const char *const	knfs_v4_names[];

int	knfs_open(struct knfs *, const char *, const char *, const char *,
	    char *);
int	knfs_open_dir(struct knfs *, const char *, char *);
void	knfs_close(struct knfs *);
int	knfs_read(const struct knfs *, uint64_t *, char *);
void	knfs_counters(struct knfs *, uint64_t *);
const char *const *knfs_names(const struct knfs *);
const char	*knfs_unexplained(struct knfs *, const char *,
		    const uint64_t *, bool);
void	knfs_meta(const struct knfs *, struct kvlist *);

#endif /* LD_KNFS_H */
