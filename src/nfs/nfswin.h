/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * nfswin: per-file operations with up to W calls in flight on one
 * connection (--nfs-window), to measure what the server can do rather
 * than the round trip.  An operation is the chain of calls the NFS
 * backend sends for one file, one after the other (create: CREATE,
 * SETATTR unless guarded, WRITEs and a COMMIT for file contents; open:
 * LOOKUP then ACCESS; stat: LOOKUP; remove: REMOVE); the chains of
 * different files overlap, and a new one starts as soon as fewer than
 * W are under way.
 *
 * A failure comes back from the next nfswin_start() or from
 * nfswin_drain(), and only once every chain in flight has ended, so that
 * what exists on the server is settled when the caller cleans up: -1
 * with the errno of the first failure, and "PROC: why" in the
 * connection's err.
 */

#ifndef LD_NFSWIN_H
#define LD_NFSWIN_H

#include <stdbool.h>
#include <stdint.h>

#include "base/util.h"
#include "nfs/nfsrpc.h"

enum nfswin_op { NFSWIN_CREATE, NFSWIN_OPEN, NFSWIN_STAT, NFSWIN_REMOVE };

/* One chain under way. */
struct nfswin_slot {
	struct nfsrpc_call	 call;
	struct nfswin		*w;
	enum nfswin_op		 op;
	bool			 busy;
	struct nfsrpc_fh	 fh;		/* the file's, once known */
	uint64_t		 off;		/* written so far */
};

struct nfswin {
	struct nfsrpc		*c;
	struct nfswin_slot	*slots;
	unsigned		 size, busy;
	/* How create makes a file (as nfsb.c does one at a time). */
	bool			 guarded;
	uint64_t		 file_size;
	const char		*data;		/* 'chunk' bytes to write */
	uint32_t		 chunk;
	/* The first failure. */
	int			 err;		/* errno, or 0 */
	int			 nfserr;
	char			 why[LD_ERRLEN];
};

void	nfswin_init(struct nfswin *, struct nfsrpc *, unsigned);
void	nfswin_free(struct nfswin *);
int	nfswin_start(struct nfswin *, enum nfswin_op,
	    const struct nfsrpc_fh *, const char *);
int	nfswin_drain(struct nfswin *);

#endif /* LD_NFSWIN_H */
