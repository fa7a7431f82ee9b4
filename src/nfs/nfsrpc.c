/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * nfsrpc: see nfsrpc.h.
 *
 * One struct nfsrpc_call per RPC: the procedure, where its results go,
 * and whether its reply came.  nfsrpc_send() counts a call and has
 * nfsenc.c encode it from struct nfsrpc_args; on_reply() is libnfs's
 * callback for all of them: every NFSv3 result starts with its nfsstat3,
 * so the status is read and counted the same way for each, and nfsdec.c
 * copies the rest out by procedure.
 * poll_until() services the connection until a condition holds (a call
 * is done, a window has room), the timeout passes (the connection is
 * then dropped: ETIMEDOUT), or a signal arrives (EINTR).
 */

#include <sys/socket.h>
#include <sys/types.h>

#include <linux/tcp.h>
#include <netinet/in.h>

#include <errno.h>
#include <stddef.h>
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

#include "base/sig.h"
#include "base/timing.h"
#include "nfs/nfs3.h"
#include "nfs/nfsdec.h"
#include "nfs/nfsenc.h"
#include "nfs/nfsrpc.h"

const char *const nfsrpc_counter_names[] = {
	"rpc_create", "rpc_setattr", "rpc_lookup", "rpc_access",
	"rpc_remove", "rpc_readdir", "rpc_readdirplus", "rpc_mkdir",
	"rpc_rmdir", "rpc_write", "rpc_commit", "rpc_read", "rpc_getattr",
	"rpc_fsinfo", "rpc_pathconf", "rpc_rename", "rpc_errors",
	"rpc_rtt_ns", "rpc_bytes_out", "rpc_bytes_in", NULL
};
_Static_assert(NFSRPC_NCOUNTERS == 20, "nfsrpc_counter_names");

#define GRACE_NS	1000000000ULL	/* for a reply, after a signal */
#define C_ERRORS	NFSRPC_NPROC
#define C_RTT		(NFSRPC_NPROC + 1)
#define C_BYTES		(NFSRPC_NPROC + 2)	/* out, in */

static int	begin(struct nfsrpc *, struct nfsrpc_call *, int);
static bool	is_done(void *);
static int	poll_until(struct nfsrpc *, struct rpc_context *,
		    bool (*)(void *), void *);
static void	on_reply(struct rpc_context *, int, void *, void *);
static void	on_done(struct rpc_context *, int, void *, void *);
static int	mount_root(struct nfsrpc *, char *);
static int	reconnect(struct nfsrpc *);
static void	drop(struct nfsrpc *);
static void	tcp_bytes(struct nfsrpc *, uint64_t *);
static const char	*why_failed(struct rpc_context *);

static const char *const proc_names[NFSRPC_NPROC] = {
	"CREATE", "SETATTR", "LOOKUP", "ACCESS", "REMOVE", "READDIR",
	"READDIRPLUS", "MKDIR", "RMDIR", "WRITE", "COMMIT", "READ", "GETATTR",
	"FSINFO", "PATHCONF", "RENAME"
};

/*
 * What libnfs says went wrong on 'rpc' (which may be NULL), never NULL:
 * libnfs sets no error when the server closed the connection (a read
 * of no bytes; a reset, a timeout and the rest have their words), so
 * that is what no word means.
 */
static const char *
why_failed(struct rpc_context *rpc)
{
	const char	*s;

	s = rpc != NULL ? rpc_get_error(rpc) : NULL;
	return s != NULL && *s != '\0' ? s :
	    "the server closed the connection";
}

/* ===== Connecting ===== */

/*
 * Connect 'c' to the server 'url' names, over TCP: mount its export
 * (through the portmapper, or the mountport of the URL), then connect to
 * its NFS service and ask FSINFO and PATHCONF.  Calls time out after
 * 'timeout_ms'.
 * Return 0, or -1 with errno and a message in 'err'.
 */
int
nfsrpc_connect(struct nfsrpc *c, const char *url, int timeout_ms, char *err)
{
	struct nfsrpc_call	cl = { 0 };
	struct nfsrpc_args	a = { 0 };

	memset(c, 0, sizeof(*c));
	c->timeout_ms = timeout_ms;
	if (nfs3_parse_url(url, &c->url, err) == -1)
		return -1;
	if (mount_root(c, err) == -1)
		goto bad;
	a.fh = &c->root;
	if (nfsrpc_sync(c, &cl, NFSRPC_FSINFO, &a) == -1 ||
	    nfsrpc_sync(c, &cl, NFSRPC_PATHCONF, &a) == -1) {
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
	struct nfsrpc_call	call;
	char			why[LD_ERRLEN];
	int			rc, e = ECONNREFUSED;

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
	if (rc == 0 && poll_until(c, c->rpc, is_done, &call) == -1) {
		e = errno;	/* EINTR, ETIMEDOUT, EIO */
		if (e == EIO)
			e = ECONNREFUSED;
	} else if (rc == 0 && call.status == RPC_STATUS_SUCCESS)
		return 0;
	(void)snprintf(why, sizeof(why), "%s", *c->err != '\0' ? c->err :
	    why_failed(c->rpc));
	drop(c);
	(void)snprintf(c->err, sizeof(c->err), "%s: no NFSv3 service: %.200s",
	    c->url.host, why);
	errno = e;
	return -1;
}

/*
 * In a child process: leave the connection it shares with its parent
 * alone, for good (libnfs might shut the socket down for both if it were
 * destroyed here; the child ends with _exit), and the next call connects
 * again, on a connection of its own.
 */
void
nfsrpc_forked(struct nfsrpc *c)
{
	c->rpc = NULL;
	c->bytes[0] = c->bytes[1] = 0;
}

/*
 * Drop the connection, if there is one: libnfs cancels the call in
 * flight (their struct nfsrpc_call must still exist), and the next call
 * connects
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
	struct nfsrpc_call	 call;
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
	if (rc != 0 || poll_until(c, m, is_done, &call) == -1 ||
	    call.status != RPC_STATUS_SUCCESS) {
		(void)util_fail(err, ECONNREFUSED, "%s: no MOUNT service: %s",
		    c->url.host, *c->err != '\0' ? c->err : why_failed(m));
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
	    poll_until(c, m, is_done, &call) == -1 ||
	    call.status != RPC_STATUS_SUCCESS || call.nfserr != 0) {
		(void)util_fail(err, call.nfserr != 0 ?
		    nfs3_errno(call.nfserr) : EIO, "nfs://%s%s: the server "
		    "does not export it (%s)", c->url.host, c->url.path,
		    call.nfserr != 0 ?
		    nfs3_status_name(call.nfserr) : *c->err != '\0' ?
		    c->err : why_failed(m));
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
begin(struct nfsrpc *c, struct nfsrpc_call *call, int proc)
{
	*c->err = '\0';
	c->nfserr = 0;
	if (c->rpc == NULL && reconnect(c) == -1)
		return -1;
	call->c = c;
	call->proc = proc;
	call->done = false;
	call->status = RPC_STATUS_SUCCESS;
	call->nfserr = 0;
	call->t0 = timing_now();
	c->count[proc]++;
	return 0;
}

/*
 * Send procedure 'proc' with the arguments of 'a' it reads, its results
 * to go to 'call' (which must stay until it is done: when its reply
 * came, or the connection was dropped); call->then, if set, is called
 * then.  libnfs encodes the arguments before this returns.  Return 0,
 * or -1 with errno and a message in c->err if it could not be sent.
 */
int
nfsrpc_send(struct nfsrpc *c, struct nfsrpc_call *call, int proc,
    const struct nfsrpc_args *a)
{
	if (proc < 0 || proc >= NFSRPC_NPROC) {
		(void)snprintf(c->err, sizeof(c->err), "procedure %d: not one "
		    "largedir sends", proc);
		errno = EINVAL;
		return -1;
	}
	if (begin(c, call, proc) == -1)
		return -1;
	if (nfsenc_send(c, call, proc, a, on_reply) == 0)
		return 0;
	(void)snprintf(c->err, sizeof(c->err), "%s: %s", proc_names[proc],
	    why_failed(c->rpc));
	errno = EIO;
	return -1;
}

/*
 * Poll the connection until 'until'('arg') is true.  Return 0, or -1
 * with errno and a message in c->err: see poll_until().
 */
int
nfsrpc_wait(struct nfsrpc *c, bool (*until)(void *), void *arg)
{
	if (until(arg))
		return 0;
	if (c->rpc == NULL) {
		(void)snprintf(c->err, sizeof(c->err), "not connected");
		errno = EIO;
		return -1;
	}
	return poll_until(c, c->rpc, until, arg);
}

/*
 * Judge the call 'call', done: 0 if it succeeded; else -1 with errno,
 * the NFS status in c->nfserr and "PROC: why" in c->err.
 */
int
nfsrpc_judge(struct nfsrpc *c, const struct nfsrpc_call *call)
{
	c->nfserr = 0;
	if (call->status != RPC_STATUS_SUCCESS) {
		if (*c->err == '\0')
			(void)snprintf(c->err, sizeof(c->err), "%s: no reply",
			    proc_names[call->proc]);
		errno = call->status == RPC_STATUS_CANCEL ? EINTR : EIO;
		return -1;
	}
	if (call->nfserr == NFS3_OK)
		return 0;
	c->nfserr = call->nfserr;
	(void)snprintf(c->err, sizeof(c->err), "%s: %s",
	    proc_names[call->proc], nfs3_status_name(call->nfserr));
	errno = nfs3_errno(call->nfserr);
	return -1;
}

/* The name of procedure 'proc' as RFC 1813 spells it ("READDIRPLUS"). */
const char *
nfsrpc_proc_name(int proc)
{
	return proc >= 0 && proc < NFSRPC_NPROC ? proc_names[proc] : "?";
}

/* Whether the call 'arg' is done: an 'until' of nfsrpc_wait(). */
static bool
is_done(void *arg)
{
	return ((struct nfsrpc_call *)arg)->done;
}

/*
 * One call, synchronously: send it, wait for its reply and judge it.
 * Return 0, or -1 with errno and "PROC: why" in c->err.
 */
int
nfsrpc_sync(struct nfsrpc *c, struct nfsrpc_call *cl, int proc,
    const struct nfsrpc_args *a)
{
	char	why[LD_ERRLEN];
	int	e;

	if (nfsrpc_send(c, cl, proc, a) == -1)
		return -1;
	if (nfsrpc_wait(c, is_done, cl) == -1) {
		e = errno;
		(void)snprintf(why, sizeof(why), "%s", c->err);
		(void)snprintf(c->err, sizeof(c->err), "%s: %.200s",
		    proc_names[proc], why);
		errno = e;
		return -1;
	}
	return nfsrpc_judge(c, cl);
}

/* ===== Replies ===== */

/*
 * Poll 'rpc' until 'until'('arg') is true (the callbacks of the calls
 * whose replies come run meanwhile).  Return 0, or -1 with errno
 * ETIMEDOUT, EINTR (a signal came, and no reply in GRACE_NS after it) or
 * EIO (the connection failed), and a message in c->err.  On failure, the
 * NFS connection is dropped (the server may still answer the calls in
 * flight), while they still exist.  Calls answered after a signal return
 * 0: the caller notices the signal as after a system call.
 */
static int
poll_until(struct nfsrpc *c, struct rpc_context *rpc, bool (*until)(void *),
    void *arg)
{
	struct pollfd	pfd;
	uint64_t	deadline, now;
	char		why[LD_ERRLEN];
	int		n, ms, e = 0;
	bool		stopping = false;

	deadline = timing_now() + (uint64_t)c->timeout_ms * 1000000ULL;
	while (!until(arg)) {
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
			 * A signal to stop: give the replies a moment, so
			 * the outcome of the calls is known (and the server
			 * is done with them before clean-up starts).
			 */
			if (sig_count != 0 && !stopping) {
				stopping = true;
				if (deadline > now + GRACE_NS)
					deadline = now + GRACE_NS;
				e = EINTR;
			}
			continue;
		}
		if (n == -1) {
			(void)snprintf(why, sizeof(why), "poll: %s",
			    strerror(errno));
			e = EIO;
			goto bad;
		}
		if (rpc_service(rpc, n > 0 ? pfd.revents : 0) < 0) {
			(void)snprintf(why, sizeof(why), "%s", why_failed(rpc));
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
	struct nfsrpc_call	*call = arg;
	mountres3		*res;

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
 * libnfs's callback for an NFS call, or for one cancelled: count it,
 * copy out what it gives (nfsdec.c), then call its 'then'.
 */
static void
on_reply(struct rpc_context *rpc, int status, void *data, void *arg)
{
	struct nfsrpc_call	*call = arg;
	struct nfsrpc		*c = call->c;

	(void)rpc;
	call->status = status;
	c->count[C_RTT] += timing_now() - call->t0;
	if (status != RPC_STATUS_SUCCESS) {
		c->count[C_ERRORS]++;
		(void)snprintf(c->err, sizeof(c->err), "%s", status ==
		    RPC_STATUS_ERROR && data != NULL ? (const char *)data :
		    "cancelled");
	} else if ((call->nfserr = (int)*(const nfsstat3 *)data) != NFS3_OK)
		c->count[C_ERRORS]++;
	else
		nfsdec_reply(call, data);
	call->done = true;
	if (call->then != NULL)
		call->then(call);
}
