/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * nfsrpc: NFSv3 over one TCP connection, through libnfs's raw RPC layer
 * (libnfs 4.0 cannot send a plain READDIR through its high-level API,
 * and counts nothing).  Every call is synchronous: it is sent, then the
 * connection is polled until its reply comes or the timeout passes, so
 * one call is in flight at a time, as one process doing system calls on
 * an NFS mount.  Each call is counted per procedure: calls, replies,
 * NFS errors, and the summed round-trip time.
 *
 * Replies are copied out of libnfs's buffers before the call returns:
 * file handles into struct nfsrpc_fh, directory entries into the
 * caller's struct nfsrpc_dirent array.  An NFS status other than NFS3_OK
 * comes back as -1 with the nearest errno and the status kept in
 * c->nfserr (nfs3_status_name() names it); a lost connection or a
 * timeout as -1 with errno EIO or ETIMEDOUT and a message in c->err.
 */

#ifndef LD_NFSRPC_H
#define LD_NFSRPC_H

#include <sys/types.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nfs3.h"
#include "util.h"

#define NFSRPC_FHSIZE	64		/* NFS3_FHSIZE */

enum nfsrpc_proc {
	NFSRPC_CREATE, NFSRPC_SETATTR, NFSRPC_LOOKUP, NFSRPC_ACCESS,
	NFSRPC_REMOVE, NFSRPC_READDIR, NFSRPC_READDIRPLUS, NFSRPC_MKDIR,
	NFSRPC_RMDIR, NFSRPC_WRITE, NFSRPC_COMMIT, NFSRPC_READ,
	NFSRPC_GETATTR, NFSRPC_FSINFO, NFSRPC_PATHCONF, NFSRPC_NPROC
};

/*
 * The counters, in the order of 'nfsrpc_counter_names': calls of each
 * procedure, then replies with an NFS error, the round trips summed, and
 * the bytes the NFS connection sent (and the server acknowledged) and
 * received, as the kernel's TCP_INFO counts them.
 */
#define NFSRPC_NCOUNTERS	(NFSRPC_NPROC + 4)
extern const char *const	nfsrpc_counter_names[];

struct nfsrpc_fh {
	uint32_t	len;
	char		data[NFSRPC_FHSIZE];
};

/* A directory entry as READDIR or READDIRPLUS returned it. */
struct nfsrpc_dirent {
	char		*name;		/* in the caller's name buffer */
	uint64_t	 fileid;
};

struct nfsrpc {
	struct rpc_context	*rpc;		/* the NFS connection */
	struct nfs3_url	 url;
	int			 timeout_ms;
	uint64_t		 count[NFSRPC_NCOUNTERS];
	int			 nfserr;	/* the last NFS status, or 0 */
	char			 err[LD_ERRLEN];	/* the last failure */
	struct nfsrpc_fh	 root;		/* the export, mounted */
	uint32_t		 rtmax, wtmax, dtpref;	/* FSINFO */
	uint32_t		 name_max, link_max;	/* PATHCONF */
	bool			 no_trunc, case_insensitive;
	uint64_t		 bytes[2];	/* of connections dropped */
};

int	nfsrpc_connect(struct nfsrpc *, const char *, int, char *);
void	nfsrpc_close(struct nfsrpc *);
void	nfsrpc_counters(struct nfsrpc *, uint64_t *);

int	nfsrpc_lookup(struct nfsrpc *, const struct nfsrpc_fh *, const char *,
	    struct nfsrpc_fh *, uint64_t *);
int	nfsrpc_access(struct nfsrpc *, const struct nfsrpc_fh *);
int	nfsrpc_getattr(struct nfsrpc *, const struct nfsrpc_fh *, uint64_t *,
	    uint32_t *);
int	nfsrpc_create(struct nfsrpc *, const struct nfsrpc_fh *, const char *,
	    bool, struct nfsrpc_fh *);
int	nfsrpc_setattr_mode(struct nfsrpc *, const struct nfsrpc_fh *,
	    uint32_t);
int	nfsrpc_write(struct nfsrpc *, const struct nfsrpc_fh *, uint64_t,
	    const char *, uint32_t, bool);
int	nfsrpc_commit(struct nfsrpc *, const struct nfsrpc_fh *);
ssize_t	nfsrpc_read(struct nfsrpc *, const struct nfsrpc_fh *, uint64_t,
	    char *, uint32_t, bool *);
int	nfsrpc_remove(struct nfsrpc *, const struct nfsrpc_fh *,
	    const char *);
int	nfsrpc_mkdir(struct nfsrpc *, const struct nfsrpc_fh *, const char *,
	    uint32_t, struct nfsrpc_fh *, uint64_t *);
int	nfsrpc_rmdir(struct nfsrpc *, const struct nfsrpc_fh *, const char *);

/* A directory being read: where the next READDIR(PLUS) starts. */
struct nfsrpc_dircursor {
	uint64_t	cookie;
	char		verf[8];
	bool		eof;
};

ssize_t	nfsrpc_readdir(struct nfsrpc *, const struct nfsrpc_fh *,
	    struct nfsrpc_dircursor *, bool, uint32_t, uint32_t,
	    struct nfsrpc_dirent *, size_t, char *, size_t);

#endif /* LD_NFSRPC_H */
