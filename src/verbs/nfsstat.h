/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * nfsstat: largedir nfsstat, the RPC calls of the kernel's NFS mounts
 * from /proc/self/mountstats or saved copies (a front-end module: it
 * prints and returns an exit status).
 */

#ifndef LD_NFSSTAT_H
#define LD_NFSSTAT_H

int	nfsstat_main(int, char **);

#endif /* LD_NFSSTAT_H */
