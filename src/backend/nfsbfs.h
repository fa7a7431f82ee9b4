/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * nfsbfs: the state of the NFS backend (nfsb.c, nfsbmail.c) and the
 * calls its operations share: a round directory's handle, the
 * connection and settings, a new file made as --nfs-create says, and
 * the sizes of the READs and WRITEs a file's contents go in.
 */

#ifndef LD_NFSBFS_H
#define LD_NFSBFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "backend/backend.h"
#include "base/u64set.h"
#include "nfs/nfsrpc.h"
#include "nfs/nfswin.h"

#define CHUNK		(64U << 10)	/* bytes of one WRITE of create */

/* A round directory on the server, or a subdirectory of one. */
struct backend_dir {
	struct nfsrpc_fh	 fh;
	char			*name;
	struct nfsrpc_dircursor	 cur;
	struct backend_dir	*parent;	/* a subdirectory's, or NULL */
	struct backend_dir	*next;
};

struct nfsb {
	struct nfsrpc		 c;
	struct nfsrpc_fh	 work;		/* the work directory */
	uint64_t		 workino;
	char			*workname;
	char			*marker;
	struct backend_dir	*dirs;
	bool			 guarded;	/* --nfs-create=guarded */
	bool			 plus;		/* --nfs-readdir=plus */
	uint32_t		 dircount, maxcount;
	bool			 sizes_given;	/* else as Linux asks */
	size_t			 maxents;	/* in one reply, at most */
	char			*data;		/* what create writes */
	struct nfsrpc_dirent	*ents;		/* the last batch */
	char			*names;
	const char		**batch;
	size_t			 nbatch, statpos;
	unsigned		 window;	/* --nfs-window */
	struct nfswin		 win;		/* with window > 1 */
	bool			 overlap;	/* in a phase: use 'win' */
	bool			 attached;	/* another rank's: keep it */
	/* The cookies a listing went on from, to see it go round. */
	struct u64set		 cookies;
	unsigned long		 replies;	/* since the rewind */
	/* A Maildir's files (nfsbmail.c): the Linux client's wsize, rsize. */
	uint32_t		 wsize, rsize;
	char			*wbuf;		/* 'wsize' bytes a delivery
						   writes */
	char			*rbuf;		/* 'rsize' bytes readfile
						   reads into */
};

int	nfsbfs_create(struct nfsb *, struct backend_dir *, const char *,
	    struct nfsrpc_fh *);
void	nfsbfs_io_init(struct nfsb *);
void	nfsbfs_io_free(struct nfsb *);

#endif /* LD_NFSBFS_H */
