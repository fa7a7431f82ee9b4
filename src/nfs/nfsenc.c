/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * nfsenc: see nfsenc.h.
 *
 * One function per procedure, in a table by enum nfsrpc_proc: each fills
 * its argument struct and calls libnfs's rpc_nfs3_PROC_async() with the
 * callback and the call.  File handles are lent to libnfs, not copied:
 * it encodes them before the send returns.
 */

#include <sys/types.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <nfsc/libnfs.h>
#include <nfsc/libnfs-raw.h>
#include <nfsc/libnfs-raw-nfs.h>

#include "base/timing.h"
#include "nfs/nfsenc.h"
#include "nfs/nfsrpc.h"

/* What every encoder gets: the connection, the call, its arguments. */
struct enc {
	struct nfsrpc			*c;
	struct nfsrpc_call		*call;
	const struct nfsrpc_args	*a;
	rpc_cb				 cb;
};

static void	put_fh(nfs_fh3 *, const struct nfsrpc_fh *);
static int	enc_create(const struct enc *);
static int	enc_setattr(const struct enc *);
static int	enc_lookup(const struct enc *);
static int	enc_access(const struct enc *);
static int	enc_remove(const struct enc *);
static int	enc_readdir(const struct enc *);
static int	enc_readdirplus(const struct enc *);
static int	enc_mkdir(const struct enc *);
static int	enc_rmdir(const struct enc *);
static int	enc_write(const struct enc *);
static int	enc_commit(const struct enc *);
static int	enc_read(const struct enc *);
static int	enc_getattr(const struct enc *);
static int	enc_fsinfo(const struct enc *);
static int	enc_pathconf(const struct enc *);
static int	enc_rename(const struct enc *);

/* The encoders, in the order of enum nfsrpc_proc. */
static int	(*const encoders[NFSRPC_NPROC])(const struct enc *) = {
	enc_create, enc_setattr, enc_lookup, enc_access, enc_remove,
	enc_readdir, enc_readdirplus, enc_mkdir, enc_rmdir, enc_write,
	enc_commit, enc_read, enc_getattr, enc_fsinfo, enc_pathconf,
	enc_rename
};

/*
 * Encode procedure 'proc' of 'call' with the arguments of 'a' it reads
 * and queue it on c->rpc, for 'cb'(rpc, status, data, call) to be called
 * with its reply.  Return 0, or -1 with errno EINVAL (a procedure
 * largedir does not send) or whatever libnfs leaves (it refused the
 * call: it says why in rpc_get_error()).
 */
int
nfsenc_send(struct nfsrpc *c, struct nfsrpc_call *call, int proc,
    const struct nfsrpc_args *a, rpc_cb cb)
{
	struct enc	e = { c, call, a, cb };

	if (proc < 0 || proc >= NFSRPC_NPROC || encoders[proc] == NULL) {
		errno = EINVAL;
		return -1;
	}
	return encoders[proc](&e);
}

/* Lend the handle 'src' to libnfs's 'dst'. */
static void
put_fh(nfs_fh3 *dst, const struct nfsrpc_fh *src)
{
	dst->data.data_len = src->len;
	dst->data.data_val = (char *)src->data;
}

/*
 * CREATE: EXCLUSIVE with a verifier of its own, as the Linux client
 * creates with O_EXCL (a SETATTR of the mode follows, since the verifier
 * took the place of the attributes), or with 'flag' GUARDED with the
 * mode.
 */
static int
enc_create(const struct enc *e)
{
	CREATE3args	 u;
	uint64_t	 verf;

	memset(&u, 0, sizeof(u));
	put_fh(&u.where.dir, e->a->fh);
	u.where.name = (char *)e->a->name;
	if (e->a->flag) {
		u.how.mode = GUARDED;
		u.how.createhow3_u.obj_attributes.mode.set_it = 1;
		u.how.createhow3_u.obj_attributes.mode.set_mode3_u.mode =
		    e->a->mode;
	} else {
		u.how.mode = EXCLUSIVE;
		verf = ((uint64_t)getpid() << 32) ^ ++e->c->serial ^
		    timing_now();
		memcpy(u.how.createhow3_u.verf, &verf, sizeof(verf));
	}
	return rpc_nfs3_create_async(e->c->rpc, e->cb, &u, e->call);
}

/* SETATTR of the mode. */
static int
enc_setattr(const struct enc *e)
{
	SETATTR3args	u;

	memset(&u, 0, sizeof(u));
	put_fh(&u.object, e->a->fh);
	u.new_attributes.mode.set_it = 1;
	u.new_attributes.mode.set_mode3_u.mode = e->a->mode;
	return rpc_nfs3_setattr_async(e->c->rpc, e->cb, &u, e->call);
}

static int
enc_lookup(const struct enc *e)
{
	LOOKUP3args	u;

	memset(&u, 0, sizeof(u));
	put_fh(&u.what.dir, e->a->fh);
	u.what.name = (char *)e->a->name;
	return rpc_nfs3_lookup_async(e->c->rpc, e->cb, &u, e->call);
}

/* ACCESS for reading, as open(O_RDONLY) asks. */
static int
enc_access(const struct enc *e)
{
	ACCESS3args	u;

	memset(&u, 0, sizeof(u));
	put_fh(&u.object, e->a->fh);
	u.access = ACCESS3_READ;
	return rpc_nfs3_access_async(e->c->rpc, e->cb, &u, e->call);
}

static int
enc_remove(const struct enc *e)
{
	REMOVE3args	u;

	memset(&u, 0, sizeof(u));
	put_fh(&u.object.dir, e->a->fh);
	u.object.name = (char *)e->a->name;
	return rpc_nfs3_remove_async(e->c->rpc, e->cb, &u, e->call);
}

static int
enc_readdir(const struct enc *e)
{
	READDIR3args	u;

	memset(&u, 0, sizeof(u));
	put_fh(&u.dir, e->a->fh);
	u.cookie = e->a->cur->cookie;
	memcpy(u.cookieverf, e->a->cur->verf, 8);
	u.count = e->a->count;
	return rpc_nfs3_readdir_async(e->c->rpc, e->cb, &u, e->call);
}

static int
enc_readdirplus(const struct enc *e)
{
	READDIRPLUS3args	u;

	memset(&u, 0, sizeof(u));
	put_fh(&u.dir, e->a->fh);
	u.cookie = e->a->cur->cookie;
	memcpy(u.cookieverf, e->a->cur->verf, 8);
	u.dircount = e->a->dircount;
	u.maxcount = e->a->count;
	return rpc_nfs3_readdirplus_async(e->c->rpc, e->cb, &u, e->call);
}

static int
enc_mkdir(const struct enc *e)
{
	MKDIR3args	u;

	memset(&u, 0, sizeof(u));
	put_fh(&u.where.dir, e->a->fh);
	u.where.name = (char *)e->a->name;
	u.attributes.mode.set_it = 1;
	u.attributes.mode.set_mode3_u.mode = e->a->mode;
	return rpc_nfs3_mkdir_async(e->c->rpc, e->cb, &u, e->call);
}

static int
enc_rmdir(const struct enc *e)
{
	RMDIR3args	u;

	memset(&u, 0, sizeof(u));
	put_fh(&u.object.dir, e->a->fh);
	u.object.name = (char *)e->a->name;
	return rpc_nfs3_rmdir_async(e->c->rpc, e->cb, &u, e->call);
}

/* WRITE UNSTABLE, or with 'flag' FILE_SYNC. */
static int
enc_write(const struct enc *e)
{
	WRITE3args	u;

	memset(&u, 0, sizeof(u));
	put_fh(&u.file, e->a->fh);
	u.offset = e->a->off;
	u.count = e->a->count;
	u.stable = e->a->flag ? FILE_SYNC : UNSTABLE;
	u.data.data_len = e->a->count;
	u.data.data_val = (char *)e->a->data;
	return rpc_nfs3_write_async(e->c->rpc, e->cb, &u, e->call);
}

/* COMMIT all of the file, as fsync(2). */
static int
enc_commit(const struct enc *e)
{
	COMMIT3args	u;

	memset(&u, 0, sizeof(u));
	put_fh(&u.file, e->a->fh);
	return rpc_nfs3_commit_async(e->c->rpc, e->cb, &u, e->call);
}

static int
enc_read(const struct enc *e)
{
	READ3args	u;

	memset(&u, 0, sizeof(u));
	put_fh(&u.file, e->a->fh);
	u.offset = e->a->off;
	u.count = e->a->count;
	return rpc_nfs3_read_async(e->c->rpc, e->cb, &u, e->call);
}

static int
enc_getattr(const struct enc *e)
{
	GETATTR3args	u;

	memset(&u, 0, sizeof(u));
	put_fh(&u.object, e->a->fh);
	return rpc_nfs3_getattr_async(e->c->rpc, e->cb, &u, e->call);
}

static int
enc_fsinfo(const struct enc *e)
{
	FSINFO3args	u;

	memset(&u, 0, sizeof(u));
	put_fh(&u.fsroot, e->a->fh);
	return rpc_nfs3_fsinfo_async(e->c->rpc, e->cb, &u, e->call);
}

static int
enc_pathconf(const struct enc *e)
{
	PATHCONF3args	u;

	memset(&u, 0, sizeof(u));
	put_fh(&u.object, e->a->fh);
	return rpc_nfs3_pathconf_async(e->c->rpc, e->cb, &u, e->call);
}

/* RENAME 'name' in directory 'fh' to 'toname' in directory 'to'. */
static int
enc_rename(const struct enc *e)
{
	RENAME3args	u;

	memset(&u, 0, sizeof(u));
	put_fh(&u.from.dir, e->a->fh);
	u.from.name = (char *)e->a->name;
	put_fh(&u.to.dir, e->a->to);
	u.to.name = (char *)e->a->toname;
	return rpc_nfs3_rename_async(e->c->rpc, e->cb, &u, e->call);
}
