/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * nfsrpc: NFSv3 over one TCP connection, through libnfs's raw RPC layer
 * (libnfs 4.0 cannot send a plain READDIR through its high-level API,
 * and counts nothing).  A call is sent (nfsrpc_send()), then the
 * connection is polled (nfsrpc_wait()) until its reply comes, until
 * enough of several calls in flight are done, or until the timeout
 * passes.  nfsrpc_sync() does one call at a time, as one process doing
 * system calls on an NFS mount does; nfsproc.c has a function for each
 * procedure on top of it.  Each call is counted per procedure: calls,
 * NFS errors, the summed round-trip time, and the bytes each way.  The
 * arguments are encoded in nfsenc.c, the replies copied out in nfsdec.c;
 * this module is the connection and the calls in flight.
 *
 * Replies are copied out of libnfs's buffers before the callback
 * returns: file handles into struct nfsrpc_fh, directory entries into
 * the caller's struct nfsrpc_dirent array.  An NFS status other than
 * NFS3_OK comes back as -1 with the nearest errno and the status kept
 * in c->nfserr (nfs3_status_name() names it); a lost connection or a
 * timeout as -1 with errno EIO or ETIMEDOUT and a message in c->err.
 * Then the connection is dropped (the calls in flight are cancelled) and
 * the next call connects again.
 */

#ifndef LD_NFSRPC_H
#define LD_NFSRPC_H

#include <sys/types.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/util.h"
#include "nfs/nfs3.h"

#define NFSRPC_FHSIZE	64		/* NFS3_FHSIZE */

enum nfsrpc_proc {
	NFSRPC_CREATE, NFSRPC_SETATTR, NFSRPC_LOOKUP, NFSRPC_ACCESS,
	NFSRPC_REMOVE, NFSRPC_READDIR, NFSRPC_READDIRPLUS, NFSRPC_MKDIR,
	NFSRPC_RMDIR, NFSRPC_WRITE, NFSRPC_COMMIT, NFSRPC_READ,
	NFSRPC_GETATTR, NFSRPC_FSINFO, NFSRPC_PATHCONF, NFSRPC_RENAME,
	NFSRPC_NPROC
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

/* A directory being read: where the next READDIR(PLUS) starts. */
struct nfsrpc_dircursor {
	uint64_t	cookie;
	char		verf[8];
	bool		eof;
};

/*
 * What a call sends: the fields its procedure reads.  'fh' is the
 * object, or the directory 'name' is in ('to' and 'toname': RENAME's
 * other side); 'count' is the byte count of READ and WRITE and the
 * maxcount of READDIR(PLUS); 'flag' asks CREATE for GUARDED (else
 * EXCLUSIVE) and WRITE for FILE_SYNC (else UNSTABLE).
 */
struct nfsrpc_args {
	const struct nfsrpc_fh		*fh;
	const char			*name;
	const struct nfsrpc_fh		*to;		/* RENAME */
	const char			*toname;
	uint32_t			 mode;	/* CREATE, SETATTR, MKDIR */
	bool				 flag;
	uint64_t			 off;		/* READ, WRITE */
	uint32_t			 count;
	uint32_t			 dircount;	/* READDIRPLUS */
	const char			*data;		/* WRITE */
	const struct nfsrpc_dircursor	*cur;		/* READDIR(PLUS) */
};

/*
 * A call: where its results go (each pointer may be NULL: not wanted),
 * and once it is done, how it went.  'then', if set, is called when it
 * is done: its reply came, or the connection was dropped (status not
 * RPC_STATUS_SUCCESS).
 */
struct nfsrpc_call {
	struct nfsrpc		*c;
	int			 proc;		/* enum nfsrpc_proc, or -1 */
	bool			 done;
	int			 status;	/* RPC_STATUS_* */
	int			 nfserr;	/* nfsstat3 */
	uint64_t		 t0;
	struct nfsrpc_fh	*fh;		/* LOOKUP, CREATE, MKDIR, MNT */
	uint64_t		*fileid;	/* LOOKUP, MKDIR, GETATTR */
	uint32_t		*mode;		/* GETATTR */
	uint64_t		*size;		/* LOOKUP */
	struct nfsrpc_dircursor	*cur;		/* READDIR(PLUS) */
	struct nfsrpc_dirent	*ents;
	size_t			 maxents, nents;
	char			*names;
	size_t			 nameslen, namesused;
	char			*buf;		/* READ */
	uint32_t		 buflen;
	ssize_t			 got;
	bool			*eof;
	void			(*then)(struct nfsrpc_call *);
	void			*arg;		/* for 'then' */
};

struct nfsrpc {
	struct rpc_context	*rpc;		/* the NFS connection */
	struct nfs3_url		 url;
	int			 timeout_ms;
	uint64_t		 count[NFSRPC_NCOUNTERS];
	int			 nfserr;	/* the last NFS status, or 0 */
	char			 err[LD_ERRLEN];	/* the last failure */
	struct nfsrpc_fh	 root;		/* the export, mounted */
	uint32_t		 rtmax, wtmax, dtpref;	/* FSINFO */
	uint32_t		 rtpref, wtpref;
	uint32_t		 name_max, link_max;	/* PATHCONF */
	bool			 no_trunc, case_insensitive;
	uint64_t		 bytes[2];	/* of connections dropped */
	uint64_t		 serial;	/* CREATE EXCLUSIVEs sent, for
						   their verifiers */
};

int	nfsrpc_connect(struct nfsrpc *, const char *, int, char *);
void	nfsrpc_close(struct nfsrpc *);
void	nfsrpc_forked(struct nfsrpc *);
void	nfsrpc_counters(struct nfsrpc *, uint64_t *);
const char	*nfsrpc_proc_name(int);

/*
 * Calls that overlap: send them, then wait until enough are done; or
 * one call at a time (nfsrpc_sync(): send, wait, judge).
 */
int	nfsrpc_send(struct nfsrpc *, struct nfsrpc_call *, int,
	    const struct nfsrpc_args *);
int	nfsrpc_wait(struct nfsrpc *, bool (*)(void *), void *);
int	nfsrpc_judge(struct nfsrpc *, const struct nfsrpc_call *);
int	nfsrpc_sync(struct nfsrpc *, struct nfsrpc_call *, int,
	    const struct nfsrpc_args *);

#endif /* LD_NFSRPC_H */
