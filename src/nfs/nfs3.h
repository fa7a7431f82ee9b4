/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * nfs3: what NFSv3 needs no connection for: the URL naming a server and
 * export, and the names and nearest errnos of the protocol's statuses.
 */

#ifndef LD_NFS3_H
#define LD_NFS3_H

/* Where the server is: parsed from nfs://HOST/EXPORT[?...]. */
struct nfs3_url {
	char	*host;
	char	*path;		/* the export, with any subdirectory */
	int	 nfsport;	/* 0: ask the portmapper */
	int	 mountport;
	int	 version;	/* 3 */
};

int		 nfs3_parse_url(const char *, struct nfs3_url *, char *);
void		 nfs3_url_free(struct nfs3_url *);
const char	*nfs3_status_name(int);
int		 nfs3_errno(int);

#endif /* LD_NFS3_H */
