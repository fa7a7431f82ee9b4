/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * nfsb_sweep: see nfsb_sweep.h.
 *
 * A directory on the server is read as a struct sweep_dir (struct
 * nfsdir): READDIR calls of 32 KiB, each reply's entries handed out one
 * by one.  The sizes are those the sweep always used: the export's
 * listing keeps room for a whole reply, a work or round directory's
 * 1024 entries (a reply with more is cut there, and the next call goes
 * on from the last entry kept).
 */

#include <sys/types.h>

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/marker.h"
#include "backend/nfsb_sweep.h"
#include "backend/sweep.h"
#include "backend/workdir.h"
#include "backend/workdir_names.h"
#include "backend/workdir_sweep.h"
#include "base/util.h"
#include "nfs/nfsproc.h"
#include "nfs/nfsrpc.h"

#define READ_COUNT	32768			/* READDIR's maxcount */
#define EXPORT_ENTS	(READ_COUNT / 24 + 1)	/* a whole reply's */
#define EXPORT_NAMES	65536
#define DIR_ENTS	1024
#define DIR_NAMES	32768

/* A directory on the server, read by READDIR. */
struct nfsdir {
	struct nfsrpc		*c;
	const struct nfsrpc_fh	*fh;
	struct nfsrpc_dircursor	 cur;
	struct nfsrpc_dirent	*ents;		/* the last reply's */
	size_t			 maxents, nents, next;
	char			*names;
	size_t			 nameslen;
};

/* A directory on the server being swept: its handle, on its connection. */
struct nfsat {
	struct nfsrpc		*c;
	struct nfsrpc_fh	 fh;
};

static void	dir_open(struct nfsdir *, struct nfsrpc *,
		    const struct nfsrpc_fh *, size_t, size_t,
		    struct sweep_dir *);
static void	dir_close(struct nfsdir *);
static int	dir_next(void *, struct sweep_entry *);
static int	dir_rewind(void *);
static ssize_t	get_file(struct nfsrpc *, const struct nfsrpc_fh *,
		    const char *, char *, size_t);
static int	nfs_unlink(const struct workdir_sweeper *, const char *);
static int64_t	nfs_sweep(const struct workdir_sweeper *, const char *,
		    const char *, uint64_t);
static int	sweep_one(void *, const char *, struct backend_report *);

/*
 * Make 'd' the directory 'fh' on 'c', read with room for 'maxents'
 * entries and 'nameslen' bytes of names a reply, and 'sd' its reader.
 */
static void
dir_open(struct nfsdir *d, struct nfsrpc *c, const struct nfsrpc_fh *fh,
    size_t maxents, size_t nameslen, struct sweep_dir *sd)
{
	memset(d, 0, sizeof(*d));
	d->c = c;
	d->fh = fh;
	d->maxents = maxents;
	d->ents = xreallocarray(NULL, maxents, sizeof(*d->ents));
	d->nameslen = nameslen;
	d->names = xmalloc(nameslen);
	sd->next = dir_next;
	sd->rewind = dir_rewind;
	sd->arg = d;
}

static void
dir_close(struct nfsdir *d)
{
	free(d->ents);
	free(d->names);
	memset(d, 0, sizeof(*d));
}

/* The next entry (a sweep_dir's next()): READDIR when a reply is used up. */
static int
dir_next(void *arg, struct sweep_entry *e)
{
	struct nfsdir	*d = arg;
	ssize_t		 k;

	while (d->next == d->nents) {
		if (d->cur.eof)
			return 0;
		if ((k = nfsproc_readdir(d->c, d->fh, &d->cur, false, 0,
		    READ_COUNT, d->ents, d->maxents, d->names,
		    d->nameslen)) == -1)
			return -1;
		d->nents = (size_t)k;
		d->next = 0;
	}
	e->name = d->ents[d->next++].name;
	e->type = DT_UNKNOWN;
	return 1;
}

static int
dir_rewind(void *arg)
{
	struct nfsdir	*d = arg;

	memset(&d->cur, 0, sizeof(d->cur));
	d->nents = d->next = 0;
	return 0;
}

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

/* REMOVE 'name' in the directory at->dir (a struct nfsat). */
static int
nfs_unlink(const struct workdir_sweeper *at, const char *name)
{
	const struct nfsat	*p = at->dir;

	return nfsproc_remove(p->c, &p->fh, name);
}

/*
 * Sweep 'name' in the directory at->dir, as round directory 'round'
 * (sub: WORKDIR_NO_SUB) or its subdirectory 'sub', in passes until one
 * removes nothing, as rm -rf, and RMDIR it unless something keeps it.
 * Return SWEEP_GONE, or 1: a directory kept counts as one entry.
 */
static int64_t
nfs_sweep(const struct workdir_sweeper *at, const char *name,
    const char *round, uint64_t sub)
{
	const struct nfsat	*p = at->dir;
	struct nfsat		 d = { p->c, { 0 } };
	struct workdir_sweeper	 in = *at;
	struct nfsdir		 nd;
	struct sweep_dir	 sd;
	struct sweep_count	 n;

	if (nfsproc_lookup(p->c, &p->fh, name, &d.fh, NULL) == -1)
		return 1;
	in.round = round;
	in.sub = sub;
	in.dir = &d;
	dir_open(&nd, d.c, &d.fh, DIR_ENTS, DIR_NAMES, &sd);
	(void)sweep_walk(&sd, NULL, SWEEP_PASSES, workdir_sweep_entry, &in,
	    &n);
	dir_close(&nd);
	return n.kept == 0 && nfsproc_rmdir(p->c, &p->fh, name) == 0 ?
	    SWEEP_GONE : 1;
}

/*
 * Sweep the work directory 'name' in the export of connection 'arg'
 * into 'r', as workdir_sweep.c sweeps a local one: the run must be gone
 * (no lock over NFSv3: by host and pid), its round directories lose the
 * names it made, then the work directory goes.  Return 0 if it is one of
 * ours, -1 if it is not.
 */
static int
sweep_one(void *arg, const char *name, struct backend_report *r)
{
	struct nfsrpc		*c = arg;
	struct workdir_names	 wn;
	struct marker		 m;
	struct nfsat		 w = { c, { 0 } };
	struct workdir_sweeper	 ws = { &wn, NULL, WORKDIR_NO_SUB,
				    &r->files, &w, nfs_unlink, nfs_sweep };
	struct nfsdir		 d;
	struct sweep_dir	 sd;
	struct sweep_count	 n;
	char			 buf[MARKER_MAX], rec[128];
	uint64_t		 ino;

	if (nfsproc_lookup(c, &c->root, name, &w.fh, &ino) == -1 ||
	    get_file(c, &w.fh, WORKDIR_MARKER, buf, sizeof(buf)) == -1 ||
	    marker_parse(buf, WORKDIR_MAGIC, ino, &m) == -1)
		return -1;
	if (get_file(c, &w.fh, WORKDIR_ROUND, rec, sizeof(rec)) == -1)
		rec[0] = '\0';
	if (workdir_names_init(&wn, &m, *rec != '\0' ? rec : NULL) == -1)
		return -1;
	if (marker_alive(&m, &r->why))
		return 0;
	dir_open(&d, c, &w.fh, DIR_ENTS, DIR_NAMES, &sd);
	if (sweep_walk(&sd, NULL, SWEEP_ONCE, workdir_sweep_entry, &ws,
	    &n) == -1)
		n.kept++;		/* it cannot be read: it stays */
	dir_close(&d);
	r->kept = n.kept;
	workdir_names_free(&wn);
	if (r->kept == 0 && (nfsproc_remove(c, &w.fh, WORKDIR_ROUND) == 0 ||
	    errno == ENOENT) && nfsproc_remove(c, &w.fh, WORKDIR_MARKER) == 0 &&
	    nfsproc_rmdir(c, &c->root, name) == 0)
		r->removed = true;
	return 0;
}

/*
 * largedir cleanup nfs://...: the work directories in the export of
 * 'target' whose run is gone (by host and pid) lose the names their runs
 * made, then go.  Call 'report'('arg', ...) once for each work directory
 * found.  Return the number found, or -1 with errno and a message in
 * 'err' if the server or the export cannot be read.
 */
int
nfsb_sweep(const char *target, void (*report)(void *,
    const struct backend_report *), void *arg, char *err)
{
	struct nfsrpc		 c;
	struct workdir_found	 wf = { NULL, sweep_one, &c, report, arg };
	struct nfsdir		 d;
	struct sweep_dir	 sd;
	struct sweep_count	 n;
	char			*base;
	int			 rc;

	if (nfsrpc_connect(&c, target, NFSB_TIMEOUT_MS, err) == -1)
		return -1;
	wf.base = base = xasprintf("nfs://%s%s", c.url.host, c.url.path);
	dir_open(&d, &c, &c.root, EXPORT_ENTS, EXPORT_NAMES, &sd);
	if (sweep_walk(&sd, WORKDIR_PREFIX, SWEEP_ONCE, workdir_sweep_found,
	    &wf, &n) == -1)
		rc = util_syserr_why(err, c.err, "%s", target);
	else
		rc = (int)(n.kept + n.gone);
	dir_close(&d);
	free(base);
	nfsrpc_close(&c);
	return rc;
}
