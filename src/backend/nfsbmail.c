/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * nfsbmail: see nfsbmail.h.
 *
 * What the Linux client sends, and why (fs/nfs of 6.x, NFSv3, a mount
 * without wsize=, rsize= or nocto):
 *
 * open(O_CREAT|O_EXCL) looks the name up nowhere (nfs_lookup() leaves an
 * exclusive create to nfs_create()), and the file it made is open for
 * writing without an ACCESS.  write(2) only dirties pages; fsync(2) and
 * close(2) both write them back with WB_SYNC_ALL, for which a writeback
 * that fits in one WRITE (at most wsize bytes) with nothing waiting for a
 * COMMIT goes FILE_SYNC and needs no COMMIT (FLUSH_COND_STABLE in
 * nfs_generic_pgio()), while a larger one goes UNSTABLE in wsize pieces
 * and is COMMITted.  So a delivery sends the same calls with --fsync
 * file as without: the fsync writes, and the close finds nothing left.
 *
 * rename(2) from tmp/ finds the name there in the dentry cache (the
 * delivery just made it) and looks the target up nowhere (nfs_lookup()
 * skips a LOOKUP_RENAME_TARGET): RENAME alone.  A rename of a name not
 * cached, the rename op's, looks it up first.
 *
 * --fsync dir opens new/ through the round directory ("new/.": no
 * close-to-open revalidation of a last component "."), fsyncs it and
 * closes it: nfs_fsync_dir() sends nothing, since NFSv3's CREATE, REMOVE
 * and RENAME are done in stable storage before the server replies (RFC
 * 1813, 3.3.8), and a directory has no dirty pages.
 *
 * open(O_RDONLY) of a name not cached: LOOKUP, and ACCESS for the
 * permission to read.  read(2) knows the size from LOOKUP's attributes
 * and asks READ for the pages up to it, rsize bytes at most a call (the
 * read-ahead of a first read(2) of 64 KiB covers 256 KiB, so a file
 * longer than that may take more READs in the kernel than here); an
 * empty file is read without one.  close(2) of a file read sends nothing.
 */

#include <sys/types.h>

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "backend/nfsbfs.h"
#include "backend/nfsbmail.h"
#include "nfs/nfsproc.h"

#define PAGE		4096U

static int	put_body(struct nfsb *, const struct nfsrpc_fh *, uint64_t);

/*
 * Write 'size' bytes into the new file 'fh' as fsync(2) or close(2)
 * write them back: one WRITE FILE_SYNC up to wsize, else WRITEs UNSTABLE
 * of wsize bytes and a COMMIT; nothing for an empty file.
 */
static int
put_body(struct nfsb *nb, const struct nfsrpc_fh *fh, uint64_t size)
{
	uint64_t	off, left;
	uint32_t	len;

	if (size == 0)
		return 0;
	if (size <= nb->wsize)
		return nfsproc_write(&nb->c, fh, 0, nb->wbuf, (uint32_t)size,
		    true);
	for (off = 0, left = size; left > 0; off += len, left -= len) {
		len = left < nb->wsize ? (uint32_t)left : nb->wsize;
		if (nfsproc_write(&nb->c, fh, off, nb->wbuf, len, false) == -1)
			return -1;
	}
	return nfsproc_commit(&nb->c, fh);
}

/*
 * A Maildir delivery (backend.h) of 'size' bytes: 'name' created in
 * 'tmp', written, and renamed to 'name' in 'new'.  The fsync of the
 * file adds no call (see above), nor does the fsync of 'new' that
 * --fsync dir asks for: NFSv3 directory operations are synchronous on
 * the server, and the client's fsync of a directory sends nothing.
 */
int
nfsbmail_deliver(struct backend *be, struct backend_dir *tmp,
    struct backend_dir *new, const char *name, uint64_t size)
{
	struct nfsb		*nb = be->priv;
	struct nfsrpc_fh	 fh;

	if (nfsbfs_create(nb, tmp, name, &fh) == -1 ||
	    put_body(nb, &fh, size) == -1)
		return -1;
	return nfsproc_rename(&nb->c, &tmp->fh, name, &new->fh, name);
}

/*
 * rename(2) of 'from' in 'fdir', a name the client has not cached, to
 * 'to' in 'tdir': LOOKUP, then RENAME.  A name renamed onto itself is
 * the same dentry to the kernel, which then returns without a RENAME.
 */
int
nfsbmail_rename(struct backend *be, struct backend_dir *fdir,
    const char *from, struct backend_dir *tdir, const char *to)
{
	struct nfsb	*nb = be->priv;

	if (nfsproc_lookup(&nb->c, &fdir->fh, from, NULL, NULL) == -1)
		return -1;
	if (fdir == tdir && strcmp(from, to) == 0)
		return 0;
	return nfsproc_rename(&nb->c, &fdir->fh, from, &tdir->fh, to);
}

/*
 * Open 'name' in 'dir', read it to its end and close it: LOOKUP, ACCESS,
 * then READs of whole pages, rsize bytes at most, from 0 up to the size
 * LOOKUP gave (or, without attributes, up to eof); a READ that says eof
 * ends it early.  A READ that brings nothing before eof is EIO.
 */
int
nfsbmail_readfile(struct backend *be, struct backend_dir *dir,
    const char *name)
{
	struct nfsb		*nb = be->priv;
	struct nfsrpc_fh	 fh;
	uint64_t		 size = UINT64_MAX, off, left;
	uint32_t		 len;
	ssize_t			 got;
	bool			 eof = false;

	if (nfsproc_lookup_size(&nb->c, &dir->fh, name, &fh, &size) == -1 ||
	    nfsproc_access(&nb->c, &fh) == -1)
		return -1;
	for (off = 0; off < size && !eof; off += (uint64_t)got) {
		left = size - off;
		len = left >= nb->rsize ? nb->rsize :
		    (uint32_t)((left + PAGE - 1) & ~(uint64_t)(PAGE - 1));
		if (len > nb->rsize)
			len = nb->rsize;
		got = nfsproc_read(&nb->c, &fh, off, nb->rbuf, len, &eof);
		if (got == -1)
			return -1;
		if (got == 0 && !eof) {
			(void)snprintf(nb->c.err, sizeof(nb->c.err), "READ: "
			    "no bytes at %ju before eof", (uintmax_t)off);
			errno = EIO;
			return -1;
		}
	}
	return 0;
}
