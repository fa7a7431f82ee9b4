/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * nfsenc: the XDR side of a call going out.  nfsenc_send() fills
 * libnfs's argument struct of one NFSv3 procedure from the fields of
 * struct nfsrpc_args that procedure reads, and has libnfs encode it and
 * queue it on the connection; libnfs encodes before it returns, so the
 * arguments may live on the caller's stack.  Only nfsrpc_send() calls it:
 * counting, connecting and the reply (nfsdec.c) are nfsrpc.c's.
 */

#ifndef LD_NFSENC_H
#define LD_NFSENC_H

#include <nfsc/libnfs.h>

#include "nfs/nfsrpc.h"

int	nfsenc_send(struct nfsrpc *, struct nfsrpc_call *, int,
	    const struct nfsrpc_args *, rpc_cb);

#endif /* LD_NFSENC_H */
