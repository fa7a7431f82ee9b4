/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * nfsb_sweep: see nfsb_sweep.h.
 */

#include <sys/types.h>

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "marker.h"
#include "nfsb_sweep.h"
#include "nfsproc.h"
#include "nfsrpc.h"
#include "util.h"
#include "workdir.h"

#define EXPORT_ENTS	(32768 / 24 + 1)	/* of a 32 KiB READDIR reply */

static ssize_t	get_file(struct nfsrpc *, const struct nfsrpc_fh *,
		    const char *, char *, size_t);
static uint64_t	sweep_dir(struct nfsrpc *, const struct nfsrpc_fh *,
		    struct workdir_names *, const char *, uint64_t,
		    struct backend_report *);
static int	sweep_one(struct nfsrpc *, const char *,
		    struct backend_report *);

/*
 * Read the file 'name' in 'dir' into 'buf' ('len' bytes, NUL-ended).
 * Return its length, or -1 with errno.
 */
static ssize_t
get_file(struct nfsrpc *c, const struct nfsrpc_fh *dir, const char *name,
    char *buf, size_t len)
{
	struct nfsrpc_fh	fh;
	ssize_t			n;
	bool			eof;

	if (nfsproc_lookup(c, dir, name, &fh, NULL) == -1)
		return -1;
	if ((n = nfsproc_read(c, &fh, 0, buf, (uint32_t)len - 1, &eof)) == -1)
		return -1;
	buf[n] = '\0';
	return n;
}

/*
 * Remove from directory 'fh' what the dead run made there: round
 * directory 'round' (sub: UINT64_MAX), or its subdirectory 'sub' (the
 * tree layout), whose files must be of that place.  A round directory's
 * subdirectories are emptied and removed first.  In passes until one
 * removes nothing, as rm -rf.  Count files into 'r'; return the entries
 * kept in the last pass.
 */
static uint64_t
sweep_dir(struct nfsrpc *c, const struct nfsrpc_fh *fh,
    struct workdir_names *wn, const char *round, uint64_t sub,
    struct backend_report *r)
{
	struct nfsrpc_dircursor	 cur;
	struct nfsrpc_dirent	 ents[1024];
	struct nfsrpc_fh	 sfh;
	char			 names[32768];
	const char		*name;
	uint64_t		 kept, d;
	ssize_t			 k, i;
	bool			 removed_any, mine;

	do {
		removed_any = false;
		kept = 0;
		memset(&cur, 0, sizeof(cur));
		while (!cur.eof && (k = nfsproc_readdir(c, fh, &cur, false, 0,
		    32768, ents, 1024, names, sizeof(names))) != -1)
			for (i = 0; i < k; i++) {
				name = ents[i].name;
				if (sub == UINT64_MAX &&
				    workdir_names_subdir(wn, round, name,
				    &d)) {
					if (nfsproc_lookup(c, fh, name, &sfh,
					    NULL) == 0 && sweep_dir(c, &sfh, wn,
					    round, d, r) == 0 &&
					    nfsproc_rmdir(c, fh, name) == 0)
						removed_any = true;
					else
						kept++;
					continue;
				}
				mine = sub == UINT64_MAX ?
				    workdir_names_ours(wn, round, name) :
				    workdir_names_in(wn, round, sub, name);
				if (mine && nfsproc_remove(c, fh, name) == 0) {
					r->files++;
					removed_any = true;
				} else
					kept++;
			}
	} while (removed_any);
	return kept;
}

/*
 * Sweep the work directory 'name' in the export of 'c' into 'r', as
 * workdir.c sweeps a local one: the run must be gone (no lock over
 * NFSv3: by host and pid), its round directories lose the names it
 * made, then the work directory goes.  Return 0 if it is one of ours,
 * -1 if it is not.
 */
static int
sweep_one(struct nfsrpc *c, const char *name, struct backend_report *r)
{
	struct workdir_names	 wn;
	struct marker		 m;
	struct nfsrpc_fh	 wfh, rfh;
	struct nfsrpc_dircursor	 cur;
	struct nfsrpc_dirent	 ents[1024];
	char			 buf[MARKER_MAX], rec[128], names[32768];
	uint64_t		 ino;
	ssize_t			 k, j;

	if (nfsproc_lookup(c, &c->root, name, &wfh, &ino) == -1 ||
	    get_file(c, &wfh, WORKDIR_MARKER, buf, sizeof(buf)) == -1 ||
	    marker_parse(buf, WORKDIR_MAGIC, ino, &m) == -1)
		return -1;
	if (get_file(c, &wfh, WORKDIR_ROUND, rec, sizeof(rec)) == -1)
		rec[0] = '\0';
	if (workdir_names_init(&wn, &m, *rec != '\0' ? rec : NULL) == -1)
		return -1;
	if (marker_alive(&m, &r->why))
		return 0;
	memset(&cur, 0, sizeof(cur));
	while (!cur.eof) {
		if ((k = nfsproc_readdir(c, &wfh, &cur, false, 0, 32768, ents,
		    1024, names, sizeof(names))) == -1)
			break;
		for (j = 0; j < k; j++) {
			if (strcmp(ents[j].name, WORKDIR_MARKER) == 0 ||
			    strcmp(ents[j].name, WORKDIR_ROUND) == 0)
				continue;
			if (strncmp(ents[j].name, "round-", 6) != 0 ||
			    nfsproc_lookup(c, &wfh, ents[j].name, &rfh,
			    NULL) == -1) {
				r->kept++;
				continue;
			}
			(void)sweep_dir(c, &rfh, &wn, ents[j].name, UINT64_MAX,
			    r);
			if (nfsproc_rmdir(c, &wfh, ents[j].name) == -1)
				r->kept++;
		}
	}
	workdir_names_free(&wn);
	if (r->kept == 0 && (nfsproc_remove(c, &wfh, WORKDIR_ROUND) == 0 ||
	    errno == ENOENT) && nfsproc_remove(c, &wfh, WORKDIR_MARKER) == 0 &&
	    nfsproc_rmdir(c, &c->root, name) == 0)
		r->removed = true;
	return 0;
}

/*
 * largedir cleanup nfs://...: the work directories in the export whose
 * run is gone (by host and pid) lose the names their runs made, then go.
 */
int
nfsb_sweep(const char *target, void (*report)(void *,
    const struct backend_report *), void *arg, char *err)
{
	struct nfsrpc		 c;
	struct nfsrpc_dircursor	 cur;
	struct nfsrpc_dirent	*ents;
	struct backend_report	 r;
	char			*names, **found = NULL, *path;
	size_t			 nfound = 0, i;
	ssize_t			 k, j;
	int			 n = 0;

	if (nfsrpc_connect(&c, target, NFSB_TIMEOUT_MS, err) == -1)
		return -1;
	ents = xreallocarray(NULL, EXPORT_ENTS, sizeof(*ents));
	names = xmalloc(65536);
	memset(&cur, 0, sizeof(cur));
	while (!cur.eof) {
		if ((k = nfsproc_readdir(&c, &c.root, &cur, false, 0, 32768,
		    ents, EXPORT_ENTS, names, 65536)) == -1) {
			(void)util_syserr_why(err, c.err, "%s", target);
			n = -1;
			goto out;
		}
		for (j = 0; j < k; j++)
			if (strncmp(ents[j].name, WORKDIR_PREFIX,
			    sizeof(WORKDIR_PREFIX) - 1) == 0) {
				found = xreallocarray(found, nfound + 1,
				    sizeof(*found));
				found[nfound++] = xstrdup(ents[j].name);
			}
	}
	for (i = 0; i < nfound; i++) {
		memset(&r, 0, sizeof(r));
		path = xasprintf("nfs://%s%s/%s", c.url.host, c.url.path,
		    found[i]);
		r.path = path;
		if (sweep_one(&c, found[i], &r) == 0) {
			n++;
			report(arg, &r);
		}
		free(path);
	}
out:
	for (i = 0; i < nfound; i++)
		free(found[i]);
	free(found);
	free(ents);
	free(names);
	nfsrpc_close(&c);
	return n;
}
