/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * nfsb: the NFS backend.  It measures an NFSv3 server without a kernel
 * client: largedir [options] nfs://HOST/EXPORT[?nfsport=N&mountport=M]
 * speaks NFSv3 itself, one call at a time on one TCP connection
 * (nfsrpc.c), and sends for each operation what the Linux client sends
 * for the same system call on a name it has not cached:
 *
 *	create		CREATE EXCLUSIVE, then SETATTR of the mode
 *			(--nfs-create=guarded: one CREATE GUARDED);
 *			with --file-size, WRITE UNSTABLE and the COMMIT
 *			that close(2) brings
 *	open		LOOKUP, ACCESS
 *	stat		LOOKUP (with --nfs-readdir=plus, nothing: the
 *			listing brought the attributes)
 *	delete, rmrf	REMOVE
 *	list		READDIR until eof (--nfs-readdir=plus: READDIRPLUS)
 *	deliver		CREATE as create, one WRITE FILE_SYNC (past wsize:
 *			WRITEs UNSTABLE and a COMMIT), RENAME tmp to new
 *	rename		LOOKUP, RENAME
 *	readfile	LOOKUP, ACCESS, READ up to the size
 *
 * (the Maildir operations are nfsbmail.c's, which says why).
 * Every procedure is counted (nfsrpc_counter_names): the backend's
 * counters become the columns PHASE_rpc_lookup, ... of each phase.  The
 * work directory, its marker and the round record live on the server,
 * made with MKDIR, CREATE and WRITE, so largedir cleanup nfs://... finds
 * what a killed run left, as locally.  No lock can be held over NFSv3
 * without NLM, so a run there is alive while its pid on its host is.
 */

#ifndef LD_NFSB_H
#define LD_NFSB_H

#include "backend/backend.h"

extern const struct backend_ops	nfsb_ops;

#endif /* LD_NFSB_H */
