/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * nfs3: see nfs3.h.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <nfsc/libnfs.h>
#include <nfsc/libnfs-raw.h>
#include <nfsc/libnfs-raw-nfs.h>

#include "base/parse.h"
#include "base/util.h"
#include "nfs/nfs3.h"

/* ===== The URL ===== */

/*
 * Parse 'url', "nfs://HOST[:PORT]/EXPORT[/PATH][?version=3&nfsport=N&
 * mountport=M]", into 'u'.  Return 0, or -1 with a message naming the
 * part at fault in 'err' (errno EINVAL).
 */
int
nfs3_parse_url(const char *url, struct nfs3_url *u, char *err)
{
	const char	*h, *p, *q, *e, *errstr;
	char		*query, *tok, *save, *v;
	long long	 n;

	memset(u, 0, sizeof(*u));
	u->version = 3;
	if (strncmp(url, "nfs://", 6) != 0)
		return util_fail(err, EINVAL, "%s: not an nfs:// URL", url);
	h = url + 6;
	if ((p = strchr(h, '/')) == NULL || p == h)
		return util_fail(err, EINVAL, "%s: no server, or no export "
		    "path after it (nfs://HOST/EXPORT)", url);
	if ((e = strchr(h, ':')) != NULL && e < p)
		return util_fail(err, EINVAL, "%s: a port after the host is "
		    "not taken; use ?nfsport=N&mountport=M", url);
	u->host = xasprintf("%.*s", (int)(p - h), h);
	q = strchr(p, '?');
	u->path = q != NULL ? xasprintf("%.*s", (int)(q - p), p) :
	    xstrdup(p);
	while (strlen(u->path) > 1 && u->path[strlen(u->path) - 1] == '/')
		u->path[strlen(u->path) - 1] = '\0';
	if (q == NULL)
		return 0;
	query = xstrdup(q + 1);
	for (tok = strtok_r(query, "&", &save); tok != NULL;
	    tok = strtok_r(NULL, "&", &save)) {
		if ((v = strchr(tok, '=')) == NULL) {
			(void)util_fail(err, EINVAL, "%s: '%s' in the query is "
			    "not key=value", url, tok);
			goto bad;
		}
		*v++ = '\0';
		n = parse_num(v, 1, 65535, &errstr);
		if (errstr != NULL) {
			(void)util_fail(err, EINVAL, "%s: %s '%s': not a "
			    "number from 1 to 65535", url, tok, v);
			goto bad;
		}
		if (strcmp(tok, "nfsport") == 0)
			u->nfsport = (int)n;
		else if (strcmp(tok, "mountport") == 0)
			u->mountport = (int)n;
		else if (strcmp(tok, "version") == 0 && n == 3)
			u->version = 3;
		else if (strcmp(tok, "version") == 0) {
			(void)util_fail(err, EINVAL, "%s: version %lld: only "
			    "NFSv3 is measured so far", url, n);
			goto bad;
		} else {
			(void)util_fail(err, EINVAL, "%s: unknown '%s' in the "
			    "query (version, nfsport, mountport)", url, tok);
			goto bad;
		}
	}
	free(query);
	return 0;
bad:
	free(query);
	nfs3_url_free(u);
	errno = EINVAL;
	return -1;
}

/* Free what 'u' holds. */
void
nfs3_url_free(struct nfs3_url *u)
{
	free(u->host);
	free(u->path);
	memset(u, 0, sizeof(*u));
}

/* ===== Statuses ===== */

/* The errno nearest to NFS status 'st'. */
int
nfs3_errno(int st)
{
	switch (st) {
	case NFS3ERR_PERM:		return EPERM;
	case NFS3ERR_NOENT:		return ENOENT;
	case NFS3ERR_NXIO:		return ENXIO;
	case NFS3ERR_ACCES:		return EACCES;
	case NFS3ERR_EXIST:		return EEXIST;
	case NFS3ERR_XDEV:		return EXDEV;
	case NFS3ERR_NODEV:		return ENODEV;
	case NFS3ERR_NOTDIR:		return ENOTDIR;
	case NFS3ERR_ISDIR:		return EISDIR;
	case NFS3ERR_INVAL:		return EINVAL;
	case NFS3ERR_FBIG:		return EFBIG;
	case NFS3ERR_NOSPC:		return ENOSPC;
	case NFS3ERR_ROFS:		return EROFS;
	case NFS3ERR_MLINK:		return EMLINK;
	case NFS3ERR_NAMETOOLONG:	return ENAMETOOLONG;
	case NFS3ERR_NOTEMPTY:		return ENOTEMPTY;
	case NFS3ERR_DQUOT:		return EDQUOT;
	case NFS3ERR_STALE:		return ESTALE;
	case NFS3ERR_BADHANDLE:		return ESTALE;
	case NFS3ERR_NOTSUPP:		return ENOTSUP;
	case NFS3ERR_JUKEBOX:		return EAGAIN;
	default:			return EIO;
	}
}

/* The name of NFS status 'st' as RFC 1813 spells it ("NFS3ERR_NOSPC"). */
const char *
nfs3_status_name(int st)
{
	static const struct {
		int		 st;
		const char	*name;
	} names[] = {
		{ NFS3_OK, "NFS3_OK" }, { NFS3ERR_PERM, "NFS3ERR_PERM" },
		{ NFS3ERR_NOENT, "NFS3ERR_NOENT" }, { NFS3ERR_IO, "NFS3ERR_IO" },
		{ NFS3ERR_NXIO, "NFS3ERR_NXIO" },
		{ NFS3ERR_ACCES, "NFS3ERR_ACCES" },
		{ NFS3ERR_EXIST, "NFS3ERR_EXIST" },
		{ NFS3ERR_XDEV, "NFS3ERR_XDEV" },
		{ NFS3ERR_NODEV, "NFS3ERR_NODEV" },
		{ NFS3ERR_NOTDIR, "NFS3ERR_NOTDIR" },
		{ NFS3ERR_ISDIR, "NFS3ERR_ISDIR" },
		{ NFS3ERR_INVAL, "NFS3ERR_INVAL" },
		{ NFS3ERR_FBIG, "NFS3ERR_FBIG" },
		{ NFS3ERR_NOSPC, "NFS3ERR_NOSPC" },
		{ NFS3ERR_ROFS, "NFS3ERR_ROFS" },
		{ NFS3ERR_MLINK, "NFS3ERR_MLINK" },
		{ NFS3ERR_NAMETOOLONG, "NFS3ERR_NAMETOOLONG" },
		{ NFS3ERR_NOTEMPTY, "NFS3ERR_NOTEMPTY" },
		{ NFS3ERR_DQUOT, "NFS3ERR_DQUOT" },
		{ NFS3ERR_STALE, "NFS3ERR_STALE" },
		{ NFS3ERR_REMOTE, "NFS3ERR_REMOTE" },
		{ NFS3ERR_BADHANDLE, "NFS3ERR_BADHANDLE" },
		{ NFS3ERR_NOT_SYNC, "NFS3ERR_NOT_SYNC" },
		{ NFS3ERR_BAD_COOKIE, "NFS3ERR_BAD_COOKIE" },
		{ NFS3ERR_NOTSUPP, "NFS3ERR_NOTSUPP" },
		{ NFS3ERR_TOOSMALL, "NFS3ERR_TOOSMALL" },
		{ NFS3ERR_SERVERFAULT, "NFS3ERR_SERVERFAULT" },
		{ NFS3ERR_BADTYPE, "NFS3ERR_BADTYPE" },
		{ NFS3ERR_JUKEBOX, "NFS3ERR_JUKEBOX" },
	};
	size_t	i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].st == st)
			return names[i].name;
	return "an unknown NFS status";
}
