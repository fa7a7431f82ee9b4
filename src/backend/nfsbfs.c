/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/* nfsbfs: see nfsbfs.h. */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "backend/nfsbfs.h"
#include "base/util.h"
#include "nfs/nfsproc.h"

#define IO_MIN		1024U		/* NFS_MIN_FILE_IO_SIZE */
#define IO_DEF		4096U		/* NFS_DEF_FILE_IO_SIZE */
#define IO_MAX		(1U << 20)	/* NFS_MAX_FILE_IO_SIZE */
#define PAGE		4096U

static uint32_t	io_size(uint32_t);
static uint32_t	io_pick(uint32_t, uint32_t);

/*
 * Create 'name' in 'dir' as open(O_CREAT|O_EXCL) on the Linux client
 * does, which looks nothing up first: CREATE EXCLUSIVE and a SETATTR of
 * the mode (the verifier took the attributes' place), or with
 * --nfs-create=guarded one CREATE GUARDED.  Store its handle in 'fh'.
 * Return 0, or -1 with errno (EEXIST: the name is there).
 */
int
nfsbfs_create(struct nfsb *nb, struct backend_dir *dir, const char *name,
    struct nfsrpc_fh *fh)
{
	if (nfsproc_create(&nb->c, &dir->fh, name, nb->guarded, fh) == -1)
		return -1;
	if (!nb->guarded && nfsproc_setattr_mode(&nb->c, fh, 0644) == -1)
		return -1;
	return 0;
}

/*
 * An I/O size the Linux client takes from the server (nfs_io_size(),
 * over TCP): below 1 KiB its default, 4 KiB; at most 1 MiB; whole pages
 * (one at least).
 */
static uint32_t
io_size(uint32_t size)
{
	if (size < IO_MIN)
		size = IO_DEF;
	else if (size > IO_MAX)
		size = IO_MAX;
	return size < PAGE ? PAGE : size & ~(PAGE - 1);
}

/*
 * The client's rsize or wsize on a mount that does not set it
 * (nfs_server_set_fsinfo()): the server's preferred size, within its
 * largest if it names one of 512 bytes or more (and here, where a page
 * is more than that largest, the largest itself: a call must not ask
 * for more than the server takes).
 */
static uint32_t
io_pick(uint32_t pref, uint32_t max)
{
	uint32_t	size = io_size(pref);

	if (max >= 512 && size > max)
		size = io_size(max);
	return max >= 512 && size > max ? max : size;
}

/*
 * The sizes of the WRITEs and READs of a Maildir's files, from the
 * server's FSINFO as the Linux client picks them, and their buffers:
 * what a delivery writes ('x's) and what readfile reads into.
 */
void
nfsbfs_io_init(struct nfsb *nb)
{
	nb->wsize = io_pick(nb->c.wtpref, nb->c.wtmax);
	nb->rsize = io_pick(nb->c.rtpref, nb->c.rtmax);
	nb->wbuf = xmalloc(nb->wsize);
	memset(nb->wbuf, 'x', nb->wsize);
	nb->rbuf = xmalloc(nb->rsize);
}

void
nfsbfs_io_free(struct nfsb *nb)
{
	free(nb->wbuf);
	free(nb->rbuf);
	nb->wbuf = nb->rbuf = NULL;
}
