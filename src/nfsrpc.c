/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * nfsrpc: see nfsrpc.h.
 *
 * One struct call per RPC: the procedure, where its results go, and
 * whether its reply came.  on_reply() is libnfs's callback for all of
 * them; every NFSv3 result starts with its nfsstat3, so the status is
 * read the same way for each, and the rest is copied out by procedure.
 * wait() polls the connection until the call is done, the timeout
 * passes (the connection is then dropped: ETIMEDOUT), or a signal
 * arrives (EINTR).
 */

#include <sys/socket.h>
#include <sys/types.h>

#include <linux/tcp.h>
#include <netinet/in.h>

#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <nfsc/libnfs.h>
#include <nfsc/libnfs-raw.h>
#include <nfsc/libnfs-raw-mount.h>
#include <nfsc/libnfs-raw-nfs.h>

#include "nfs3.h"
#include "nfsrpc.h"
#include "sig.h"
#include "timing.h"

const char *const nfsrpc_counter_names[] = {
	"rpc_create", "rpc_setattr", "rpc_lookup", "rpc_access",
	"rpc_remove", "rpc_readdir", "rpc_readdirplus", "rpc_mkdir",
	"rpc_rmdir", "rpc_write", "rpc_commit", "rpc_read", "rpc_getattr",
	"rpc_fsinfo", "rpc_pathconf", "rpc_errors", "rpc_rtt_ns",
	"rpc_bytes_out", "rpc_bytes_in", NULL
};
_Static_assert(NFSRPC_NCOUNTERS == 19, "nfsrpc_counter_names");

#define GRACE_NS	1000000000ULL	/* for a reply, after a signal */
#define C_ERRORS	NFSRPC_NPROC
#define C_RTT		(NFSRPC_NPROC + 1)
#define C_BYTES		(NFSRPC_NPROC + 2)	/* out, in */

/* One call in flight, and where its results go. */
struct call {
	struct nfsrpc		*c;
	int			 proc;		/* enum nfsrpc_proc, or -1 */
	bool			 done;
	int			 status;	/* RPC_STATUS_* */
	int			 nfserr;	/* nfsstat3 */
	uint64_t		 t0;
	struct nfsrpc_fh	*fh;		/* LOOKUP, CREATE, MKDIR, MNT */
	uint64_t		*fileid;
	uint32_t		*mode;
	struct nfsrpc_dircursor	*cur;		/* READDIR(PLUS) */
	struct nfsrpc_dirent	*ents;
	size_t			 maxents, nents;
	char			*names;
	size_t			 nameslen, namesused;
	char			*buf;		/* READ */
	uint32_t		 buflen;
	ssize_t			 got;
	bool			*eof;
};

static int	wait(struct nfsrpc *, struct rpc_context *, struct call *);
static void	on_reply(struct rpc_context *, int, void *, void *);
static void	on_done(struct rpc_context *, int, void *, void *);
static int	fail(struct nfsrpc *, struct call *, const char *);
static int	start(struct nfsrpc *, struct call *, int);
static void	put_fh(nfs_fh3 *, const struct nfsrpc_fh *);
static void	get_fh(struct nfsrpc_fh *, const nfs_fh3 *);
static void	copy_attr(struct call *, const post_op_attr *);
static void	copy_dir(struct call *, const void *, bool);
static int	mount_root(struct nfsrpc *, char *);
static int	reconnect(struct nfsrpc *);
static void	drop(struct nfsrpc *);
static void	tcp_bytes(struct nfsrpc *, uint64_t *);
static int	finish(struct nfsrpc *, struct call *, int, const char *);

/* ===== Connecting ===== */

/*
 * Connect 'c' to the server 'url' names, over TCP: mount its export
 * (through the portmapper, or the mountport of the URL), then connect to
 * its NFS service and ask FSINFO.  Calls time out after 'timeout_ms'.
 * Return 0, or -1 with errno and a message in 'err'.
 */
int
nfsrpc_connect(struct nfsrpc *c, const char *url, int timeout_ms, char *err)
{
	struct call	 call;
	FSINFO3args	 fa;
	PATHCONF3args	 pa;

	memset(c, 0, sizeof(*c));
	c->timeout_ms = timeout_ms;
	if (nfs3_parse_url(url, &c->url, err) == -1)
		return -1;
	memset(&call, 0, sizeof(call));
	memset(&fa, 0, sizeof(fa));
	if (mount_root(c, err) == -1)
		goto bad;
	if (start(c, &call, NFSRPC_FSINFO) == -1) {
		(void)util_fail(err, errno, "%s", c->err);
		goto bad;
	}
	put_fh(&fa.fsroot, &c->root);
	if (finish(c, &call, rpc_nfs3_fsinfo_async(c->rpc, on_reply, &fa,
	    &call), "FSINFO") == -1) {
		(void)util_fail(err, errno, "%s: %s", url, c->err);
		goto bad;
	}
	memset(&call, 0, sizeof(call));
	memset(&pa, 0, sizeof(pa));
	put_fh(&pa.object, &c->root);
	if (start(c, &call, NFSRPC_PATHCONF) == -1 || finish(c, &call,
	    rpc_nfs3_pathconf_async(c->rpc, on_reply, &pa, &call),
	    "PATHCONF") == -1) {
		(void)util_fail(err, errno, "%s: %s", url, c->err);
		goto bad;
	}
	return 0;
bad:
	nfsrpc_close(c);
	return -1;
}

/*
 * Connect to the NFS service (again, if a failed call dropped the
 * connection).  Return 0, or -1 with errno and a message in c->err.
 */
static int
reconnect(struct nfsrpc *c)
{
	struct call	call;
	char		why[LD_ERRLEN];
	int		rc, e = ECONNREFUSED;

	if ((c->rpc = rpc_init_context()) == NULL) {
		(void)snprintf(c->err, sizeof(c->err), "no RPC context");
		errno = ENOMEM;
		return -1;
	}
	memset(&call, 0, sizeof(call));
	call.c = c;
	call.proc = -1;
	*c->err = '\0';
	rc = c->url.nfsport != 0 ? rpc_connect_port_async(c->rpc,
	    c->url.host, c->url.nfsport, NFS_PROGRAM, NFS_V3, on_done,
	    &call) : rpc_connect_program_async(c->rpc, c->url.host,
	    NFS_PROGRAM, NFS_V3, on_done, &call);
	if (rc == 0 && wait(c, c->rpc, &call) == -1) {
		e = errno;	/* EINTR, ETIMEDOUT, EIO */
		if (e == EIO)
			e = ECONNREFUSED;
	} else if (rc == 0 && call.status == RPC_STATUS_SUCCESS)
		return 0;
	(void)snprintf(why, sizeof(why), "%s", *c->err != '\0' || c->rpc ==
	    NULL ? c->err : rpc_get_error(c->rpc));
	drop(c);
	(void)snprintf(c->err, sizeof(c->err), "%s: no NFSv3 service: %.200s",
	    c->url.host, why);
	errno = e;
	return -1;
}

/*
 * Drop the connection, if there is one: libnfs cancels the call in
 * flight (its struct call must still exist), and the next call connects
 * again.
 */
static void
drop(struct nfsrpc *c)
{
	uint64_t	b[2];

	if (c->rpc == NULL)
		return;
	tcp_bytes(c, b);
	c->bytes[0] += b[0];
	c->bytes[1] += b[1];
	rpc_destroy_context(c->rpc);
	c->rpc = NULL;
}

/* The bytes the NFS connection sent (acknowledged) and received so far. */
static void
tcp_bytes(struct nfsrpc *c, uint64_t *b)
{
	struct tcp_info	ti;
	socklen_t	len = sizeof(ti);
	int		fd;

	b[0] = b[1] = 0;
	memset(&ti, 0, sizeof(ti));
	if (c->rpc == NULL || (fd = rpc_get_fd(c->rpc)) == -1 ||
	    getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &len) == -1 ||
	    len < offsetof(struct tcp_info, tcpi_bytes_received) +
	    sizeof(ti.tcpi_bytes_received))
		return;
	b[0] = ti.tcpi_bytes_acked;
	b[1] = ti.tcpi_bytes_received;
}

/* The totals of the counters 'nfsrpc_counter_names' lists. */
void
nfsrpc_counters(struct nfsrpc *c, uint64_t *values)
{
	uint64_t	b[2];

	memcpy(values, c->count, sizeof(c->count));
	tcp_bytes(c, b);
	values[C_BYTES] = c->bytes[0] + b[0];
	values[C_BYTES + 1] = c->bytes[1] + b[1];
}

/*
 * Mount the export: the MOUNT service gives the root file handle of
 * the longest leading part of the URL's path the server exports; the
 * rest of the path is looked up from there once NFS is connected (here:
 * the whole path must be the export).
 */
static int
mount_root(struct nfsrpc *c, char *err)
{
	struct rpc_context	*m;
	struct call		 call;
	int			 rc;

	if ((m = rpc_init_context()) == NULL)
		return util_fail(err, ENOMEM, "libnfs: no RPC context");
	memset(&call, 0, sizeof(call));
	call.c = c;
	call.proc = -1;
	rc = c->url.mountport != 0 ? rpc_connect_port_async(m, c->url.host,
	    c->url.mountport, MOUNT_PROGRAM, MOUNT_V3, on_done, &call) :
	    rpc_connect_program_async(m, c->url.host, MOUNT_PROGRAM,
	    MOUNT_V3, on_done, &call);
	if (rc != 0 || wait(c, m, &call) == -1 ||
	    call.status != RPC_STATUS_SUCCESS) {
		(void)util_fail(err, ECONNREFUSED, "%s: no MOUNT service: %s",
		    c->url.host, *c->err != '\0' ? c->err : rpc_get_error(m));
		rpc_destroy_context(m);
		errno = ECONNREFUSED;
		return -1;
	}
	memset(&call, 0, sizeof(call));
	call.c = c;
	call.proc = -1;
	call.fh = &c->root;
	call.t0 = timing_now();
	if (rpc_mount3_mnt_async(m, on_done, c->url.path, &call) != 0 ||
	    wait(c, m, &call) == -1 || call.status != RPC_STATUS_SUCCESS ||
	    call.nfserr != 0) {
		(void)util_fail(err, call.nfserr != 0 ? nfs3_errno(call.nfserr) :
		    EIO, "nfs://%s%s: the server does not export it (%s)",
		    c->url.host, c->url.path, call.nfserr != 0 ?
		    nfs3_status_name(call.nfserr) : *c->err != '\0' ?
		    c->err : rpc_get_error(m));
		rc = errno;
		rpc_destroy_context(m);
		errno = rc;
		return -1;
	}
	rpc_destroy_context(m);
	return 0;
}

/* Close the connection and free what 'c' holds. */
void
nfsrpc_close(struct nfsrpc *c)
{
	drop(c);
	nfs3_url_free(&c->url);
}

/* ===== Calls ===== */

/*
 * Get 'call' ready for procedure 'proc' and count it, connecting first
 * if need be.  Return 0, or -1 with errno and a message in c->err.
 */
static int
start(struct nfsrpc *c, struct call *call, int proc)
{
	*c->err = '\0';
	c->nfserr = 0;
	if (c->rpc == NULL && reconnect(c) == -1)
		return -1;
	call->c = c;
	call->proc = proc;
	call->done = false;
	call->t0 = timing_now();
	c->count[proc]++;
	return 0;
}

/*
 * Poll 'rpc' until 'call' is done.  Return 0, or -1 with errno
 * ETIMEDOUT, EINTR (a signal came, and no reply in GRACE_NS after it) or
 * EIO (the connection failed), and a message in c->err.  On failure, the
 * NFS connection is dropped (the server may still answer the call),
 * while 'call' still exists.  A call answered after a signal returns 0:
 * the caller notices the signal as after a system call.
 */
static int
wait(struct nfsrpc *c, struct rpc_context *rpc, struct call *call)
{
	struct pollfd	pfd;
	uint64_t	deadline, now;
	char		why[LD_ERRLEN];
	int		n, ms, e = 0;
	bool		stopping = false;

	deadline = timing_now() + (uint64_t)c->timeout_ms * 1000000ULL;
	while (!call->done) {
		if ((now = timing_now()) >= deadline) {
			(void)snprintf(why, sizeof(why), stopping ?
			    "interrupted" : "no reply in %d s",
			    c->timeout_ms / 1000);
			if (!stopping)
				e = ETIMEDOUT;
			goto bad;
		}
		ms = (int)((deadline - now) / 1000000ULL);
		pfd.fd = rpc_get_fd(rpc);
		pfd.events = (short)rpc_which_events(rpc);
		pfd.revents = 0;
		n = poll(&pfd, 1, ms < 100 ? ms : 100);
		if (n == -1 && errno == EINTR) {
			/*
			 * A signal to stop: give the reply a moment, so the
			 * call's outcome is known (and the server is done
			 * with it before clean-up starts).
			 */
			if (sig_count != 0 && !stopping) {
				stopping = true;
				if (deadline > now + GRACE_NS)
					deadline = now + GRACE_NS;
				e = EINTR;
			}
			continue;
		}
		if (n == -1 || rpc_service(rpc, n > 0 ? pfd.revents : 0) < 0) {
			(void)snprintf(why, sizeof(why), "%s",
			    rpc_get_error(rpc));
			e = EIO;
			goto bad;
		}
	}
	return 0;
bad:
	if (rpc == c->rpc)
		drop(c);
	/* A MOUNT connection: mount_root() drops it. */
	(void)snprintf(c->err, sizeof(c->err), "%s", why);
	errno = e;
	return -1;
}

/* libnfs's callback for a connection or a MOUNT call. */
static void
on_done(struct rpc_context *rpc, int status, void *data, void *arg)
{
	struct call	*call = arg;
	mountres3	*res;

	(void)rpc;
	call->done = true;
	call->status = status;
	if (status == RPC_STATUS_ERROR && data != NULL && call->c != NULL)
		(void)snprintf(call->c->err, sizeof(call->c->err), "%s",
		    (const char *)data);
	if (status != RPC_STATUS_SUCCESS || call->fh == NULL || data == NULL)
		return;
	res = data;
	call->nfserr = (int)res->fhs_status;
	if (res->fhs_status == MNT3_OK) {
		call->fh->len = res->mountres3_u.mountinfo.fhandle.fhandle3_len;
		if (call->fh->len > NFSRPC_FHSIZE)
			call->fh->len = NFSRPC_FHSIZE;
		memcpy(call->fh->data,
		    res->mountres3_u.mountinfo.fhandle.fhandle3_val,
		    call->fh->len);
	}
}

/*
 * libnfs's callback for an NFS call: every result starts with its
 * nfsstat3; copy out what the procedure gives.
 */
static void
on_reply(struct rpc_context *rpc, int status, void *data, void *arg)
{
	struct call	*call = arg;
	struct nfsrpc	*c = call->c;

	(void)rpc;
	call->done = true;
	call->status = status;
	c->count[C_RTT] += timing_now() - call->t0;
	if (status != RPC_STATUS_SUCCESS) {
		c->count[C_ERRORS]++;
		(void)snprintf(c->err, sizeof(c->err), "%s", status ==
		    RPC_STATUS_ERROR && data != NULL ? (const char *)data :
		    "cancelled");
		return;
	}
	call->nfserr = (int)*(const nfsstat3 *)data;
	if (call->nfserr != NFS3_OK) {
		c->count[C_ERRORS]++;
		return;
	}
	switch (call->proc) {
	case NFSRPC_LOOKUP: {
		const LOOKUP3resok *ok = &((LOOKUP3res *)data)->LOOKUP3res_u.resok;

		if (call->fh != NULL)
			get_fh(call->fh, &ok->object);
		copy_attr(call, &ok->obj_attributes);
		break;
	}
	case NFSRPC_GETATTR: {
		const GETATTR3resok *ok =
		    &((GETATTR3res *)data)->GETATTR3res_u.resok;
		post_op_attr	 pa;

		pa.attributes_follow = 1;
		pa.post_op_attr_u.attributes = ok->obj_attributes;
		copy_attr(call, &pa);
		break;
	}
	case NFSRPC_CREATE: {
		const CREATE3resok *ok = &((CREATE3res *)data)->CREATE3res_u.resok;

		if (call->fh != NULL && ok->obj.handle_follows)
			get_fh(call->fh, &ok->obj.post_op_fh3_u.handle);
		break;
	}
	case NFSRPC_MKDIR: {
		const MKDIR3resok *ok = &((MKDIR3res *)data)->MKDIR3res_u.resok;

		if (call->fh != NULL && ok->obj.handle_follows)
			get_fh(call->fh, &ok->obj.post_op_fh3_u.handle);
		copy_attr(call, &ok->obj_attributes);
		break;
	}
	case NFSRPC_READ: {
		const READ3resok *ok = &((READ3res *)data)->READ3res_u.resok;
		uint32_t	 n = ok->data.data_len;

		if (n > call->buflen)
			n = call->buflen;
		memcpy(call->buf, ok->data.data_val, n);
		call->got = n;
		*call->eof = ok->eof != 0;
		break;
	}
	case NFSRPC_FSINFO: {
		const FSINFO3resok *ok = &((FSINFO3res *)data)->FSINFO3res_u.resok;

		c->rtmax = ok->rtmax;
		c->wtmax = ok->wtmax;
		c->dtpref = ok->dtpref;
		break;
	}
	case NFSRPC_PATHCONF: {
		const PATHCONF3resok *ok =
		    &((PATHCONF3res *)data)->PATHCONF3res_u.resok;

		c->name_max = ok->name_max;
		c->link_max = ok->linkmax;
		c->no_trunc = ok->no_trunc != 0;
		c->case_insensitive = ok->case_insensitive != 0;
		break;
	}
	case NFSRPC_READDIR:
		copy_dir(call, &((READDIR3res *)data)->READDIR3res_u.resok,
		    false);
		break;
	case NFSRPC_READDIRPLUS:
		copy_dir(call,
		    &((READDIRPLUS3res *)data)->READDIRPLUS3res_u.resok, true);
		break;
	default:
		break;
	}
}

/* Copy the file id and mode of 'pa', if there are any, where asked. */
static void
copy_attr(struct call *call, const post_op_attr *pa)
{
	if (!pa->attributes_follow)
		return;
	if (call->fileid != NULL)
		*call->fileid = pa->post_op_attr_u.attributes.fileid;
	if (call->mode != NULL)
		*call->mode = pa->post_op_attr_u.attributes.mode;
}

/* Copy a READDIR or READDIRPLUS reply 'ok' into the call's arrays. */
static void
copy_dir(struct call *call, const void *ok, bool plus)
{
	const READDIR3resok	*rd = ok;
	const READDIRPLUS3resok	*rp = ok;
	const entry3		*e = plus ? NULL : rd->reply.entries;
	const entryplus3	*ep = plus ? rp->reply.entries : NULL;
	const char		*name;
	uint64_t		 cookie, fileid;
	size_t			 len;

	memcpy(call->cur->verf, plus ? rp->cookieverf : rd->cookieverf, 8);
	call->cur->eof = plus ? rp->reply.eof != 0 : rd->reply.eof != 0;
	for (;;) {
		if (plus) {
			if (ep == NULL)
				break;
			name = ep->name;
			cookie = ep->cookie;
			fileid = ep->fileid;
			ep = ep->nextentry;
		} else {
			if (e == NULL)
				break;
			name = e->name;
			cookie = e->cookie;
			fileid = e->fileid;
			e = e->nextentry;
		}
		len = strlen(name) + 1;
		if (call->nents == call->maxents ||
		    call->namesused + len > call->nameslen) {
			/* No room: the next call starts here again. */
			call->cur->eof = false;
			return;
		}
		call->cur->cookie = cookie;
		if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
			continue;
		memcpy(call->names + call->namesused, name, len);
		call->ents[call->nents].name = call->names + call->namesused;
		call->ents[call->nents].fileid = fileid;
		call->nents++;
		call->namesused += len;
	}
}

/*
 * After a call: 0 if it succeeded; else -1 with errno, the NFS status
 * in c->nfserr and "PROC: why" in c->err.
 */
static int
fail(struct nfsrpc *c, struct call *call, const char *proc)
{
	c->nfserr = 0;
	if (call->status != RPC_STATUS_SUCCESS) {
		errno = EIO;
		return -1;
	}
	if (call->nfserr == NFS3_OK)
		return 0;
	c->nfserr = call->nfserr;
	(void)snprintf(c->err, sizeof(c->err), "%s: %s", proc,
	    nfs3_status_name(call->nfserr));
	errno = nfs3_errno(call->nfserr);
	return -1;
}

/*
 * The end of every procedure: 'sent' is what libnfs said to queueing
 * 'call'; wait for its reply and judge it (fail()).
 */
static int
finish(struct nfsrpc *c, struct call *call, int sent, const char *name)
{
	char	why[LD_ERRLEN];
	int	e;

	if (sent != 0) {
		(void)snprintf(c->err, sizeof(c->err), "%s: %s", name,
		    rpc_get_error(c->rpc));
		errno = EIO;
		return -1;
	}
	if (wait(c, c->rpc, call) == -1) {
		e = errno;
		(void)snprintf(why, sizeof(why), "%s", c->err);
		(void)snprintf(c->err, sizeof(c->err), "%s: %.200s", name, why);
		errno = e;
		return -1;
	}
	return fail(c, call, name);
}

static void
put_fh(nfs_fh3 *dst, const struct nfsrpc_fh *src)
{
	dst->data.data_len = src->len;
	dst->data.data_val = (char *)src->data;
}

static void
get_fh(struct nfsrpc_fh *dst, const nfs_fh3 *src)
{
	dst->len = src->data.data_len > NFSRPC_FHSIZE ? NFSRPC_FHSIZE :
	    src->data.data_len;
	memcpy(dst->data, src->data.data_val, dst->len);
}

/*
 * LOOKUP 'name' in directory 'dir'; store its handle in 'fh' and its
 * file id in 'fileid' (either may be NULL).  Return 0, or -1 with errno.
 */
int
nfsrpc_lookup(struct nfsrpc *c, const struct nfsrpc_fh *dir, const char *name,
    struct nfsrpc_fh *fh, uint64_t *fileid)
{
	struct call	call;
	LOOKUP3args	a;

	memset(&call, 0, sizeof(call));
	memset(&a, 0, sizeof(a));
	put_fh(&a.what.dir, dir);
	a.what.name = (char *)name;
	call.fh = fh;
	call.fileid = fileid;
	if (start(c, &call, NFSRPC_LOOKUP) == -1)
		return -1;
	return finish(c, &call, rpc_nfs3_lookup_async(c->rpc, on_reply, &a,
	    &call), "LOOKUP");
}

/* ACCESS of 'fh' for reading, as open(2) of a file for reading asks. */
int
nfsrpc_access(struct nfsrpc *c, const struct nfsrpc_fh *fh)
{
	struct call	call;
	ACCESS3args	a;

	memset(&call, 0, sizeof(call));
	memset(&a, 0, sizeof(a));
	put_fh(&a.object, fh);
	a.access = ACCESS3_READ;
	if (start(c, &call, NFSRPC_ACCESS) == -1)
		return -1;
	return finish(c, &call, rpc_nfs3_access_async(c->rpc, on_reply, &a,
	    &call), "ACCESS");
}

/* GETATTR of 'fh': its file id and mode, where asked (may be NULL). */
int
nfsrpc_getattr(struct nfsrpc *c, const struct nfsrpc_fh *fh, uint64_t *fileid,
    uint32_t *mode)
{
	struct call	call;
	GETATTR3args	a;

	memset(&call, 0, sizeof(call));
	memset(&a, 0, sizeof(a));
	put_fh(&a.object, fh);
	call.fileid = fileid;
	call.mode = mode;
	if (start(c, &call, NFSRPC_GETATTR) == -1)
		return -1;
	return finish(c, &call, rpc_nfs3_getattr_async(c->rpc, on_reply, &a,
	    &call), "GETATTR");
}

/*
 * CREATE 'name' in 'dir': EXCLUSIVE with a verifier of its own, as the
 * Linux client creates with O_EXCL (it then sets the mode with a
 * SETATTR, since the verifier took the place of the attributes), or
 * with 'guarded' GUARDED with mode 0644.  Store the handle in 'fh'.
 */
int
nfsrpc_create(struct nfsrpc *c, const struct nfsrpc_fh *dir, const char *name,
    bool guarded, struct nfsrpc_fh *fh)
{
	static uint64_t	serial;
	struct call	call;
	CREATE3args	a;
	uint64_t	verf;

	memset(&call, 0, sizeof(call));
	memset(&a, 0, sizeof(a));
	put_fh(&a.where.dir, dir);
	a.where.name = (char *)name;
	if (guarded) {
		a.how.mode = GUARDED;
		a.how.createhow3_u.obj_attributes.mode.set_it = 1;
		a.how.createhow3_u.obj_attributes.mode.set_mode3_u.mode = 0644;
	} else {
		a.how.mode = EXCLUSIVE;
		verf = ((uint64_t)getpid() << 32) ^ ++serial ^ timing_now();
		memcpy(a.how.createhow3_u.verf, &verf, sizeof(verf));
	}
	call.fh = fh;
	if (start(c, &call, NFSRPC_CREATE) == -1)
		return -1;
	return finish(c, &call, rpc_nfs3_create_async(c->rpc, on_reply, &a,
	    &call), "CREATE");
}

/* SETATTR of the mode of 'fh' to 'mode'. */
int
nfsrpc_setattr_mode(struct nfsrpc *c, const struct nfsrpc_fh *fh,
    uint32_t mode)
{
	struct call	call;
	SETATTR3args	a;

	memset(&call, 0, sizeof(call));
	memset(&a, 0, sizeof(a));
	put_fh(&a.object, fh);
	a.new_attributes.mode.set_it = 1;
	a.new_attributes.mode.set_mode3_u.mode = mode;
	if (start(c, &call, NFSRPC_SETATTR) == -1)
		return -1;
	return finish(c, &call, rpc_nfs3_setattr_async(c->rpc, on_reply, &a,
	    &call), "SETATTR");
}

/*
 * WRITE 'len' bytes of 'data' at 'off' into 'fh', UNSTABLE as a client
 * writes through its page cache, or FILE_SYNC with 'sync'.
 */
int
nfsrpc_write(struct nfsrpc *c, const struct nfsrpc_fh *fh, uint64_t off,
    const char *data, uint32_t len, bool sync)
{
	struct call	call;
	WRITE3args	a;

	memset(&call, 0, sizeof(call));
	memset(&a, 0, sizeof(a));
	put_fh(&a.file, fh);
	a.offset = off;
	a.count = len;
	a.stable = sync ? FILE_SYNC : UNSTABLE;
	a.data.data_len = len;
	a.data.data_val = (char *)data;
	if (start(c, &call, NFSRPC_WRITE) == -1)
		return -1;
	return finish(c, &call, rpc_nfs3_write_async(c->rpc, on_reply, &a,
	    &call), "WRITE");
}

/* COMMIT all of 'fh', as fsync(2) does. */
int
nfsrpc_commit(struct nfsrpc *c, const struct nfsrpc_fh *fh)
{
	struct call	call;
	COMMIT3args	a;

	memset(&call, 0, sizeof(call));
	memset(&a, 0, sizeof(a));
	put_fh(&a.file, fh);
	if (start(c, &call, NFSRPC_COMMIT) == -1)
		return -1;
	return finish(c, &call, rpc_nfs3_commit_async(c->rpc, on_reply, &a,
	    &call), "COMMIT");
}

/*
 * READ up to 'len' bytes of 'fh' at 'off' into 'buf'; '*eof' says the
 * file ends there.  Return the bytes read, or -1 with errno.
 */
ssize_t
nfsrpc_read(struct nfsrpc *c, const struct nfsrpc_fh *fh, uint64_t off,
    char *buf, uint32_t len, bool *eof)
{
	struct call	call;
	READ3args	a;

	memset(&call, 0, sizeof(call));
	memset(&a, 0, sizeof(a));
	put_fh(&a.file, fh);
	a.offset = off;
	a.count = len;
	call.buf = buf;
	call.buflen = len;
	call.eof = eof;
	if (start(c, &call, NFSRPC_READ) == -1)
		return -1;
	if (finish(c, &call, rpc_nfs3_read_async(c->rpc, on_reply, &a,
	    &call), "READ") == -1)
		return -1;
	return call.got;
}

/* REMOVE 'name' from 'dir'. */
int
nfsrpc_remove(struct nfsrpc *c, const struct nfsrpc_fh *dir, const char *name)
{
	struct call	call;
	REMOVE3args	a;

	memset(&call, 0, sizeof(call));
	memset(&a, 0, sizeof(a));
	put_fh(&a.object.dir, dir);
	a.object.name = (char *)name;
	if (start(c, &call, NFSRPC_REMOVE) == -1)
		return -1;
	return finish(c, &call, rpc_nfs3_remove_async(c->rpc, on_reply, &a,
	    &call), "REMOVE");
}

/*
 * MKDIR 'name' in 'dir' with 'mode'; store its handle in 'fh' and its
 * file id in 'fileid' (may be NULL).
 */
int
nfsrpc_mkdir(struct nfsrpc *c, const struct nfsrpc_fh *dir, const char *name,
    uint32_t mode, struct nfsrpc_fh *fh, uint64_t *fileid)
{
	struct call	call;
	MKDIR3args	a;

	memset(&call, 0, sizeof(call));
	memset(&a, 0, sizeof(a));
	put_fh(&a.where.dir, dir);
	a.where.name = (char *)name;
	a.attributes.mode.set_it = 1;
	a.attributes.mode.set_mode3_u.mode = mode;
	call.fh = fh;
	call.fileid = fileid;
	if (start(c, &call, NFSRPC_MKDIR) == -1)
		return -1;
	return finish(c, &call, rpc_nfs3_mkdir_async(c->rpc, on_reply, &a,
	    &call), "MKDIR");
}

/* RMDIR 'name' in 'dir'. */
int
nfsrpc_rmdir(struct nfsrpc *c, const struct nfsrpc_fh *dir, const char *name)
{
	struct call	call;
	RMDIR3args	a;

	memset(&call, 0, sizeof(call));
	memset(&a, 0, sizeof(a));
	put_fh(&a.object.dir, dir);
	a.object.name = (char *)name;
	if (start(c, &call, NFSRPC_RMDIR) == -1)
		return -1;
	return finish(c, &call, rpc_nfs3_rmdir_async(c->rpc, on_reply, &a,
	    &call), "RMDIR");
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
nfsrpc_readdir(struct nfsrpc *c, const struct nfsrpc_fh *dir,
    struct nfsrpc_dircursor *cur, bool plus, uint32_t dircount,
    uint32_t maxcount, struct nfsrpc_dirent *ents, size_t maxents,
    char *names, size_t nameslen)
{
	struct call		call;
	READDIR3args		a;
	READDIRPLUS3args	ap;
	int			sent;

	memset(&call, 0, sizeof(call));
	call.cur = cur;
	call.ents = ents;
	call.maxents = maxents;
	call.names = names;
	call.nameslen = nameslen;
	if (plus) {
		memset(&ap, 0, sizeof(ap));
		put_fh(&ap.dir, dir);
		ap.cookie = cur->cookie;
		memcpy(ap.cookieverf, cur->verf, 8);
		ap.dircount = dircount;
		ap.maxcount = maxcount;
		if (start(c, &call, NFSRPC_READDIRPLUS) == -1)
			return -1;
		sent = rpc_nfs3_readdirplus_async(c->rpc, on_reply, &ap,
		    &call);
	} else {
		memset(&a, 0, sizeof(a));
		put_fh(&a.dir, dir);
		a.cookie = cur->cookie;
		memcpy(a.cookieverf, cur->verf, 8);
		a.count = maxcount;
		if (start(c, &call, NFSRPC_READDIR) == -1)
			return -1;
		sent = rpc_nfs3_readdir_async(c->rpc, on_reply, &a, &call);
	}
	if (finish(c, &call, sent, plus ? "READDIRPLUS" : "READDIR") == -1)
		return -1;
	return (ssize_t)call.nents;
}
