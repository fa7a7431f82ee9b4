/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * nfsbmail: the Maildir operations of the NFS backend (backend.h:
 * deliver, rename, readfile), as the calls the Linux NFSv3 client sends
 * for posixmail.c's system calls, with the caches cold as nfsb.c's
 * other operations have them (a round directory's handle is known, a
 * file's name is not) but for what the same operation just put there:
 *
 *	deliver   CREATE in tmp as create sends it (--nfs-create: EXCLUSIVE
 *		  and SETATTR, or GUARDED); the body in one WRITE FILE_SYNC,
 *		  or, larger than wsize, WRITEs UNSTABLE and a COMMIT;
 *		  RENAME tmp/NAME to new/NAME.  --fsync file or dir sends
 *		  nothing more.
 *	rename    LOOKUP of the old name, RENAME
 *	readfile  LOOKUP, ACCESS, READs up to the size LOOKUP gave
 *		  (none for an empty file)
 *
 * They wait for their replies one call at a time, also with
 * --nfs-window: a delivery's calls depend on each other.
 */

#ifndef LD_NFSBMAIL_H
#define LD_NFSBMAIL_H

#include <stdint.h>

#include "backend/backend.h"

int	nfsbmail_deliver(struct backend *, struct backend_dir *,
	    struct backend_dir *, const char *, uint64_t);
int	nfsbmail_rename(struct backend *, struct backend_dir *, const char *,
	    struct backend_dir *, const char *);
int	nfsbmail_readfile(struct backend *, struct backend_dir *,
	    const char *);

#endif /* LD_NFSBMAIL_H */
