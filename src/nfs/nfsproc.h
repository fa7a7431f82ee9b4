/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * nfsproc: one synchronous function per NFSv3 procedure largedir sends,
 * on a connection of nfsrpc.c.  Each returns 0 (or a count), or -1 with
 * errno and "PROC: why" in c->err; an NFS status other than NFS3_OK
 * comes back as the nearest errno, the status kept in c->nfserr.
 */

#ifndef LD_NFSPROC_H
#define LD_NFSPROC_H

#include <sys/types.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nfs/nfsrpc.h"

int	nfsproc_lookup(struct nfsrpc *, const struct nfsrpc_fh *, const char *,
	    struct nfsrpc_fh *, uint64_t *);
int	nfsproc_lookup_size(struct nfsrpc *, const struct nfsrpc_fh *,
	    const char *, struct nfsrpc_fh *, uint64_t *);
int	nfsproc_access(struct nfsrpc *, const struct nfsrpc_fh *);
int	nfsproc_getattr(struct nfsrpc *, const struct nfsrpc_fh *, uint64_t *,
	    uint32_t *);
int	nfsproc_create(struct nfsrpc *, const struct nfsrpc_fh *, const char *,
	    bool, struct nfsrpc_fh *);
int	nfsproc_setattr_mode(struct nfsrpc *, const struct nfsrpc_fh *,
	    uint32_t);
int	nfsproc_write(struct nfsrpc *, const struct nfsrpc_fh *, uint64_t,
	    const char *, uint32_t, bool);
int	nfsproc_commit(struct nfsrpc *, const struct nfsrpc_fh *);
ssize_t	nfsproc_read(struct nfsrpc *, const struct nfsrpc_fh *, uint64_t,
	    char *, uint32_t, bool *);
int	nfsproc_remove(struct nfsrpc *, const struct nfsrpc_fh *,
	    const char *);
int	nfsproc_mkdir(struct nfsrpc *, const struct nfsrpc_fh *, const char *,
	    uint32_t, struct nfsrpc_fh *, uint64_t *);
int	nfsproc_rmdir(struct nfsrpc *, const struct nfsrpc_fh *, const char *);
int	nfsproc_rename(struct nfsrpc *, const struct nfsrpc_fh *, const char *,
	    const struct nfsrpc_fh *, const char *);
ssize_t	nfsproc_readdir(struct nfsrpc *, const struct nfsrpc_fh *,
	    struct nfsrpc_dircursor *, bool, uint32_t, uint32_t,
	    struct nfsrpc_dirent *, size_t, char *, size_t);

#endif /* LD_NFSPROC_H */
