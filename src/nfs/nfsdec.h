/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * nfsdec: the XDR side of a reply coming in.  libnfs decodes a reply
 * into its own structs and frees them when its callback returns;
 * nfsdec_reply() copies out, before that, what the call asked for: file
 * handles into struct nfsrpc_fh, file ids and modes, the bytes READ
 * brought, a READDIR(PLUS) reply's entries into the call's arrays, and
 * FSINFO's and PATHCONF's sizes into the connection.  Only nfsrpc.c's
 * reply callback calls it, for a reply whose status is NFS3_OK.
 */

#ifndef LD_NFSDEC_H
#define LD_NFSDEC_H

#include "nfs/nfsrpc.h"

void	nfsdec_reply(struct nfsrpc_call *, const void *);

#endif /* LD_NFSDEC_H */
