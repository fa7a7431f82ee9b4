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
 * made.  One mount per process: the state is this module's.
 */

#ifndef LD_KNFS_H
#define LD_KNFS_H

#include <stdbool.h>
#include <stdint.h>

#include "backend.h"
#include "output.h"

const struct backend_ops *knfs_for_dir(const char *, struct output_kvlist *,
	    char *);
const struct backend_ops *knfs_ops(const char *, const char *, const char *,
	    char *);
int	knfs_read(const char *, uint64_t *, char *);
const char *const *knfs_names(void);
const char	*knfs_unexplained(const char *, const uint64_t *, bool);
void	knfs_meta(struct output_kvlist *);
void	knfs_reset(void);

#endif /* LD_KNFS_H */
