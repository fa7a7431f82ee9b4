/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * nfsdec: see nfsdec.h.
 *
 * One function per procedure whose reply carries something largedir
 * keeps, in a table by enum nfsrpc_proc; the others (SETATTR, ACCESS,
 * REMOVE, RMDIR, WRITE, COMMIT, RENAME) bring nothing largedir keeps
 * but their status (RENAME's weak cache consistency data of the two
 * directories would matter to a client that caches them; largedir
 * caches nothing).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <nfsc/libnfs.h>
#include <nfsc/libnfs-raw.h>
#include <nfsc/libnfs-raw-nfs.h>

#include "nfs/nfsdec.h"
#include "nfs/nfsrpc.h"

static void	get_fh(struct nfsrpc_fh *, const nfs_fh3 *);
static void	copy_attr(struct nfsrpc_call *, const post_op_attr *);
static void	copy_dir(struct nfsrpc_call *, const void *, bool);
static void	dec_create(struct nfsrpc_call *, const void *);
static void	dec_lookup(struct nfsrpc_call *, const void *);
static void	dec_readdir(struct nfsrpc_call *, const void *);
static void	dec_readdirplus(struct nfsrpc_call *, const void *);
static void	dec_mkdir(struct nfsrpc_call *, const void *);
static void	dec_read(struct nfsrpc_call *, const void *);
static void	dec_getattr(struct nfsrpc_call *, const void *);
static void	dec_fsinfo(struct nfsrpc_call *, const void *);
static void	dec_pathconf(struct nfsrpc_call *, const void *);

/* The decoders, in the order of enum nfsrpc_proc; NULL: nothing to keep. */
static void	(*const decoders[NFSRPC_NPROC])(struct nfsrpc_call *,
		    const void *) = {
	dec_create, NULL, dec_lookup, NULL, NULL, dec_readdir,
	dec_readdirplus, dec_mkdir, NULL, NULL, NULL, dec_read, dec_getattr,
	dec_fsinfo, dec_pathconf, NULL
};

/*
 * Copy what 'call' asked for out of libnfs's decoded result 'data' of
 * its procedure, a reply with status NFS3_OK.
 */
void
nfsdec_reply(struct nfsrpc_call *call, const void *data)
{
	if (call->proc >= 0 && call->proc < NFSRPC_NPROC &&
	    decoders[call->proc] != NULL)
		decoders[call->proc](call, data);
}

static void
get_fh(struct nfsrpc_fh *dst, const nfs_fh3 *src)
{
	dst->len = src->data.data_len > NFSRPC_FHSIZE ? NFSRPC_FHSIZE :
	    src->data.data_len;
	memcpy(dst->data, src->data.data_val, dst->len);
}

/* Copy the file id, mode and size of 'pa', if it has any, where asked. */
static void
copy_attr(struct nfsrpc_call *call, const post_op_attr *pa)
{
	if (!pa->attributes_follow)
		return;
	if (call->fileid != NULL)
		*call->fileid = pa->post_op_attr_u.attributes.fileid;
	if (call->mode != NULL)
		*call->mode = pa->post_op_attr_u.attributes.mode;
	if (call->size != NULL)
		*call->size = pa->post_op_attr_u.attributes.size;
}

static void
dec_create(struct nfsrpc_call *call, const void *data)
{
	const CREATE3resok	*ok = &((const CREATE3res *)data)->
	    CREATE3res_u.resok;

	if (call->fh != NULL && ok->obj.handle_follows)
		get_fh(call->fh, &ok->obj.post_op_fh3_u.handle);
}

static void
dec_lookup(struct nfsrpc_call *call, const void *data)
{
	const LOOKUP3resok	*ok = &((const LOOKUP3res *)data)->
	    LOOKUP3res_u.resok;

	if (call->fh != NULL)
		get_fh(call->fh, &ok->object);
	copy_attr(call, &ok->obj_attributes);
}

static void
dec_readdir(struct nfsrpc_call *call, const void *data)
{
	copy_dir(call, &((const READDIR3res *)data)->READDIR3res_u.resok,
	    false);
}

static void
dec_readdirplus(struct nfsrpc_call *call, const void *data)
{
	copy_dir(call,
	    &((const READDIRPLUS3res *)data)->READDIRPLUS3res_u.resok, true);
}

static void
dec_mkdir(struct nfsrpc_call *call, const void *data)
{
	const MKDIR3resok	*ok = &((const MKDIR3res *)data)->
	    MKDIR3res_u.resok;

	if (call->fh != NULL && ok->obj.handle_follows)
		get_fh(call->fh, &ok->obj.post_op_fh3_u.handle);
	copy_attr(call, &ok->obj_attributes);
}

static void
dec_read(struct nfsrpc_call *call, const void *data)
{
	const READ3resok	*ok = &((const READ3res *)data)->
	    READ3res_u.resok;
	uint32_t		 n = ok->data.data_len;

	if (n > call->buflen)
		n = call->buflen;
	memcpy(call->buf, ok->data.data_val, n);
	call->got = n;
	*call->eof = ok->eof != 0;
}

static void
dec_getattr(struct nfsrpc_call *call, const void *data)
{
	const GETATTR3resok	*ok = &((const GETATTR3res *)data)->
	    GETATTR3res_u.resok;
	post_op_attr		 pa;

	pa.attributes_follow = 1;
	pa.post_op_attr_u.attributes = ok->obj_attributes;
	copy_attr(call, &pa);
}

static void
dec_fsinfo(struct nfsrpc_call *call, const void *data)
{
	const FSINFO3resok	*ok = &((const FSINFO3res *)data)->
	    FSINFO3res_u.resok;

	call->c->rtmax = ok->rtmax;
	call->c->rtpref = ok->rtpref;
	call->c->wtmax = ok->wtmax;
	call->c->wtpref = ok->wtpref;
	call->c->dtpref = ok->dtpref;
}

static void
dec_pathconf(struct nfsrpc_call *call, const void *data)
{
	const PATHCONF3resok	*ok = &((const PATHCONF3res *)data)->
	    PATHCONF3res_u.resok;

	call->c->name_max = ok->name_max;
	call->c->link_max = ok->linkmax;
	call->c->no_trunc = ok->no_trunc != 0;
	call->c->case_insensitive = ok->case_insensitive != 0;
}

/*
 * Member 'm' of the struct of type 't' at 'p', into 'dst'.  libnfs lays
 * decoded directory entries out at 4-byte boundaries, so their 8-byte
 * members are read by memcpy, not through the misaligned struct.
 */
#define ENTRY_GET(dst, p, t, m) \
	memcpy(&(dst), (const char *)(p) + offsetof(t, m), sizeof(dst))

/* Copy a READDIR or READDIRPLUS reply 'ok' into the call's arrays. */
static void
copy_dir(struct nfsrpc_call *call, const void *ok, bool plus)
{
	const READDIR3resok	*rd = ok;
	const READDIRPLUS3resok	*rp = ok;
	const void		*e;
	const char		*name;
	uint64_t		 cookie, fileid;
	size_t			 len;

	memcpy(call->cur->verf, plus ? rp->cookieverf : rd->cookieverf, 8);
	call->cur->eof = plus ? rp->reply.eof != 0 : rd->reply.eof != 0;
	e = plus ? (const void *)rp->reply.entries :
	    (const void *)rd->reply.entries;
	while (e != NULL) {
		if (plus) {
			ENTRY_GET(name, e, entryplus3, name);
			ENTRY_GET(cookie, e, entryplus3, cookie);
			ENTRY_GET(fileid, e, entryplus3, fileid);
			ENTRY_GET(e, e, entryplus3, nextentry);
		} else {
			ENTRY_GET(name, e, entry3, name);
			ENTRY_GET(cookie, e, entry3, cookie);
			ENTRY_GET(fileid, e, entry3, fileid);
			ENTRY_GET(e, e, entry3, nextentry);
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
