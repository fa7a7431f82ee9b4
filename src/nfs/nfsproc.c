/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * nfsproc: see nfsproc.h.  Each function fills a struct nfsrpc_args and
 * makes one synchronous call (nfsrpc_sync()).
 */

#include <sys/types.h>

#include <stdbool.h>
#include <stdint.h>

#include "nfs/nfsproc.h"

/*
 * LOOKUP 'name' in directory 'dir'; store its handle in 'fh' and its
 * file id in 'fileid' (either may be NULL).  Return 0, or -1 with errno.
 */
int
nfsproc_lookup(struct nfsrpc *c, const struct nfsrpc_fh *dir, const char *name,
    struct nfsrpc_fh *fh, uint64_t *fileid)
{
	struct nfsrpc_call	cl = { .fh = fh, .fileid = fileid };
	struct nfsrpc_args	a = { .fh = dir, .name = name };

	return nfsrpc_sync(c, &cl, NFSRPC_LOOKUP, &a);
}

/*
 * LOOKUP 'name' in directory 'dir' as nfsproc_lookup() does, storing
 * the handle in 'fh' and the file's size in 'size' (left as it was if
 * the reply has no attributes).  Return 0, or -1 with errno.
 */
int
nfsproc_lookup_size(struct nfsrpc *c, const struct nfsrpc_fh *dir,
    const char *name, struct nfsrpc_fh *fh, uint64_t *size)
{
	struct nfsrpc_call	cl = { .fh = fh, .size = size };
	struct nfsrpc_args	a = { .fh = dir, .name = name };

	return nfsrpc_sync(c, &cl, NFSRPC_LOOKUP, &a);
}

/* ACCESS of 'fh' for reading, as open(2) of a file for reading asks. */
int
nfsproc_access(struct nfsrpc *c, const struct nfsrpc_fh *fh)
{
	struct nfsrpc_call	cl = { 0 };
	struct nfsrpc_args	a = { .fh = fh };

	return nfsrpc_sync(c, &cl, NFSRPC_ACCESS, &a);
}

/* GETATTR of 'fh': its file id and mode, where asked (may be NULL). */
int
nfsproc_getattr(struct nfsrpc *c, const struct nfsrpc_fh *fh, uint64_t *fileid,
    uint32_t *mode)
{
	struct nfsrpc_call	cl = { .fileid = fileid, .mode = mode };
	struct nfsrpc_args	a = { .fh = fh };

	return nfsrpc_sync(c, &cl, NFSRPC_GETATTR, &a);
}

/*
 * CREATE 'name' in 'dir', EXCLUSIVE, or with 'guarded' GUARDED with mode
 * 0644 (see nfsrpc_send() in nfsrpc.c).  Store the handle in 'fh'.
 */
int
nfsproc_create(struct nfsrpc *c, const struct nfsrpc_fh *dir, const char *name,
    bool guarded, struct nfsrpc_fh *fh)
{
	struct nfsrpc_call	cl = { .fh = fh };
	struct nfsrpc_args	a = { .fh = dir, .name = name,
				      .flag = guarded, .mode = 0644 };

	return nfsrpc_sync(c, &cl, NFSRPC_CREATE, &a);
}

/* SETATTR of the mode of 'fh' to 'mode'. */
int
nfsproc_setattr_mode(struct nfsrpc *c, const struct nfsrpc_fh *fh,
    uint32_t mode)
{
	struct nfsrpc_call	cl = { 0 };
	struct nfsrpc_args	a = { .fh = fh, .mode = mode };

	return nfsrpc_sync(c, &cl, NFSRPC_SETATTR, &a);
}

/*
 * WRITE 'len' bytes of 'data' at 'off' into 'fh', UNSTABLE as a client
 * writes through its page cache, or FILE_SYNC with 'sync'.
 */
int
nfsproc_write(struct nfsrpc *c, const struct nfsrpc_fh *fh, uint64_t off,
    const char *data, uint32_t len, bool sync)
{
	struct nfsrpc_call	cl = { 0 };
	struct nfsrpc_args	a = { .fh = fh, .off = off, .data = data,
				      .count = len, .flag = sync };

	return nfsrpc_sync(c, &cl, NFSRPC_WRITE, &a);
}

/* COMMIT all of 'fh', as fsync(2) does. */
int
nfsproc_commit(struct nfsrpc *c, const struct nfsrpc_fh *fh)
{
	struct nfsrpc_call	cl = { 0 };
	struct nfsrpc_args	a = { .fh = fh };

	return nfsrpc_sync(c, &cl, NFSRPC_COMMIT, &a);
}

/*
 * READ up to 'len' bytes of 'fh' at 'off' into 'buf'; '*eof' says the
 * file ends there.  Return the bytes read, or -1 with errno.
 */
ssize_t
nfsproc_read(struct nfsrpc *c, const struct nfsrpc_fh *fh, uint64_t off,
    char *buf, uint32_t len, bool *eof)
{
	struct nfsrpc_call	cl = { .buf = buf, .buflen = len, .eof = eof };
	struct nfsrpc_args	a = { .fh = fh, .off = off, .count = len };

	if (nfsrpc_sync(c, &cl, NFSRPC_READ, &a) == -1)
		return -1;
	return cl.got;
}

/* REMOVE 'name' from 'dir'. */
int
nfsproc_remove(struct nfsrpc *c, const struct nfsrpc_fh *dir, const char *name)
{
	struct nfsrpc_call	cl = { 0 };
	struct nfsrpc_args	a = { .fh = dir, .name = name };

	return nfsrpc_sync(c, &cl, NFSRPC_REMOVE, &a);
}

/*
 * MKDIR 'name' in 'dir' with 'mode'; store its handle in 'fh' and its
 * file id in 'fileid' (may be NULL).
 */
int
nfsproc_mkdir(struct nfsrpc *c, const struct nfsrpc_fh *dir, const char *name,
    uint32_t mode, struct nfsrpc_fh *fh, uint64_t *fileid)
{
	struct nfsrpc_call	cl = { .fh = fh, .fileid = fileid };
	struct nfsrpc_args	a = { .fh = dir, .name = name, .mode = mode };

	return nfsrpc_sync(c, &cl, NFSRPC_MKDIR, &a);
}

/* RMDIR 'name' in 'dir'. */
int
nfsproc_rmdir(struct nfsrpc *c, const struct nfsrpc_fh *dir, const char *name)
{
	struct nfsrpc_call	cl = { 0 };
	struct nfsrpc_args	a = { .fh = dir, .name = name };

	return nfsrpc_sync(c, &cl, NFSRPC_RMDIR, &a);
}

/*
 * RENAME 'from' in directory 'fdir' to 'to' in directory 'tdir' (which
 * may be 'fdir'), replacing a file of that name as rename(2) does.
 */
int
nfsproc_rename(struct nfsrpc *c, const struct nfsrpc_fh *fdir,
    const char *from, const struct nfsrpc_fh *tdir, const char *to)
{
	struct nfsrpc_call	cl = { 0 };
	struct nfsrpc_args	a = { .fh = fdir, .name = from, .to = tdir,
				      .toname = to };

	return nfsrpc_sync(c, &cl, NFSRPC_RENAME, &a);
}

/*
 * Read the next entries of directory 'dir' from where 'cur' is: one
 * READDIR (maxcount 'maxcount'), or with 'plus' one READDIRPLUS
 * (dircount 'dircount', maxcount 'maxcount').  Store at most 'maxents'
 * entries, without "." and "..", in 'ents', their names in 'names'
 * ('nameslen' bytes), and move 'cur' on (cur->eof: the directory is
 * done).  Return how many there are, or -1 with errno.
 */
ssize_t
nfsproc_readdir(struct nfsrpc *c, const struct nfsrpc_fh *dir,
    struct nfsrpc_dircursor *cur, bool plus, uint32_t dircount,
    uint32_t maxcount, struct nfsrpc_dirent *ents, size_t maxents,
    char *names, size_t nameslen)
{
	struct nfsrpc_call	cl = { .cur = cur, .ents = ents,
				       .maxents = maxents, .names = names,
				       .nameslen = nameslen };
	struct nfsrpc_args	a = { .fh = dir, .cur = cur,
				      .dircount = dircount, .count = maxcount };

	if (nfsrpc_sync(c, &cl, plus ? NFSRPC_READDIRPLUS : NFSRPC_READDIR, &a) ==
	    -1)
		return -1;
	return (ssize_t)cl.nents;
}
