/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * nfsb: see nfsb.h.
 *
 * The work directory is "largedir.XXXXXX" in the export, made with
 * MKDIR 0700; its marker and round record are files written whole with
 * CREATE and WRITE FILE_SYNC, in the same text as the posix backend's
 * (marker.c, workdir.c), so one reading serves both.  Round directories
 * are looked up by handle; a listing keeps its cookie and verifier in
 * the directory's handle.
 */

#include <sys/types.h>

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend/marker.h"
#include "backend/nfsb.h"
#include "backend/nfsb_sweep.h"
#include "backend/nfsbfs.h"
#include "backend/nfsbmail.h"
#include "backend/nfsopt.h"
#include "backend/workdir.h"
#include "base/kv.h"
#include "base/timing.h"
#include "base/u64set.h"
#include "base/util.h"
#include "nfs/nfsproc.h"
#include "nfs/nfsrpc.h"
#include "nfs/nfswin.h"

static int	nb_check(const char *, char *);
static int	nb_open(struct backend *, const char *, char *);
static int	nb_close(struct backend *, bool, char *);
static int	nb_mkdir(struct backend *, const char *, uint64_t,
		    struct backend_dir **);
static int	nb_subdir(struct backend *, struct backend_dir *,
		    const char *, struct backend_dir **);
static int	nb_rmdir(struct backend *, struct backend_dir *, bool);
static int	nb_create(struct backend *, struct backend_dir *,
		    const char *);
static int	nb_openclose(struct backend *, struct backend_dir *,
		    const char *);
static int	nb_stat(struct backend *, struct backend_dir *, const char *);
static int	nb_unlink(struct backend *, struct backend_dir *,
		    const char *);
static int	nb_rewind(struct backend *, struct backend_dir *);
static ssize_t	nb_readdir(struct backend *, struct backend_dir *,
		    const char ***, bool *);
static int	nb_sync(struct backend *);
static int	nb_release(struct backend *);
static int	nb_reacquire(struct backend *, char *);
static bool	nb_vanished(struct backend *, struct backend_dir *);
static void	nb_counters(struct backend *, uint64_t *);
static int	nb_overlap(struct backend *, bool);
static void	nb_meta(struct backend *, struct kvlist *);
static const char *nb_detail(struct backend *);
static int	nb_forked(struct backend *);
static struct nfsb *nb_new(struct backend *, const char *, char *);
static void	nb_ready(struct backend *, struct nfsb *);
static int	nb_attach(struct backend *, const char *, const char *,
		    char *);
static int	nb_enter(struct backend *, const char *,
		    struct backend_dir **);
static int	keep_dir(struct nfsb *, const struct nfsrpc_fh *,
		    const char *, struct backend_dir *,
		    struct backend_dir **);
static int	put_file(struct nfsrpc *, const struct nfsrpc_fh *,
		    const char *, const char *);

const struct backend_ops nfsb_ops = {
	.name = "nfs",
	.scheme = "nfs",
	.flags = BACKEND_FORKS | BACKEND_TREE | BACKEND_RANKS |
	    BACKEND_MAILDIR,
	.options = nfsopt_options,
	.settings_size = sizeof(struct nfsopt),
	.check_settings = nfsopt_check,
	.counter_names = nfsrpc_counter_names,
	.ncalls = NFSRPC_NPROC,
	.check = nb_check,
	.open = nb_open,
	.close = nb_close,
	.mkdir = nb_mkdir,
	.subdir = nb_subdir,
	.rmdir = nb_rmdir,
	.create = nb_create,
	.openclose = nb_openclose,
	.stat = nb_stat,
	.unlink = nb_unlink,
	.deliver = nfsbmail_deliver,
	.rename = nfsbmail_rename,
	.readfile = nfsbmail_readfile,
	.rewind = nb_rewind,
	.readdir = nb_readdir,
	.sync = nb_sync,
	.release = nb_release,
	.reacquire = nb_reacquire,
	.vanished = nb_vanished,
	.counters = nb_counters,
	.overlap = nb_overlap,
	.meta = nb_meta,
	.forked = nb_forked,
	.attach = nb_attach,
	.enter = nb_enter,
	.detail = nb_detail,
	.sweep = nfsb_sweep,
};

/*
 * Write 'text' as the file 'name' in 'dir', whole: CREATE (unchecked, so
 * an old one is emptied), then WRITE FILE_SYNC.
 */
static int
put_file(struct nfsrpc *c, const struct nfsrpc_fh *dir, const char *name,
    const char *text)
{
	struct nfsrpc_fh	fh;

	if (nfsproc_remove(c, dir, name) == -1 && errno != ENOENT)
		return -1;
	if (nfsproc_create(c, dir, name, true, &fh) == -1)
		return -1;
	return nfsproc_write(c, &fh, 0, text, (uint32_t)strlen(text), true);
}

/* Whether 'target' is an nfs:// URL largedir can use. */
static int
nb_check(const char *target, char *err)
{
	struct nfs3_url	u;

	if (nfs3_parse_url(target, &u, err) == -1)
		return -1;
	nfs3_url_free(&u);
	return 0;
}

/* Connect, make the work directory and mark it. */
static int
nb_open(struct backend *be, const char *target, char *err)
{
	struct nfsb	*nb;
	uint64_t	 r;
	char		*extra, suffix[7];
	int		 tries, i;

	if ((nb = nb_new(be, target, err)) == NULL)
		return -1;
	for (tries = 0; tries < 100; tries++) {
		r = ((uint64_t)getpid() << 20) ^ timing_now() ^ (uint64_t)tries;
		for (i = 0; i < 6; i++, r /= 36)
			suffix[i] = "abcdefghijklmnopqrstuvwxyz0123456789"
			    [r % 36];
		suffix[6] = '\0';
		free(nb->workname);
		nb->workname = xasprintf(WORKDIR_PREFIX "%s", suffix);
		if (nfsproc_mkdir(&nb->c, &nb->c.root, nb->workname, 0700,
		    &nb->work, &nb->workino) == 0 || errno != EEXIST)
			break;
	}
	if (nb->work.len == 0) {
		(void)util_syserr_why(err, nb->c.err, "create work directory "
		    "in %s", target);
		goto fail;
	}
	extra = workdir_mark_extra(&be->opts);
	nb->marker = marker_format(nb->workino, WORKDIR_MAGIC, extra);
	free(extra);
	be->priv = nb;
	be->workdir = xasprintf("nfs://%s%s/%s", nb->c.url.host,
	    nb->c.url.path, nb->workname);
	if (put_file(&nb->c, &nb->work, WORKDIR_MARKER, nb->marker) == -1) {
		(void)util_syserr_why(err, nb->c.err, "set up work directory "
		    "%s", be->workdir);
		(void)nfsproc_rmdir(&nb->c, &nb->c.root, nb->workname);
		free(be->workdir);
		be->workdir = NULL;
		be->priv = NULL;
		goto fail;
	}
	nb_ready(be, nb);
	return 0;
fail:
	nfsrpc_close(&nb->c);
	free(nb->workname);
	free(nb->marker);
	free(nb);
	return -1;
}

/*
 * A connection to the server of 'target' and the settings of 'be'; NULL
 * with 'err' if the server cannot be reached.
 */
static struct nfsb *
nb_new(struct backend *be, const char *target, char *err)
{
	const struct nfsopt	*o = nfsopt_of(be);
	struct nfsb		*nb;

	nb = xcalloc(1, sizeof(*nb));
	if (nfsrpc_connect(&nb->c, target, (int)(o->timeout_ns / 1000000ULL),
	    err) == -1) {
		free(nb);
		return NULL;
	}
	nb->guarded = o->create == NFSOPT_GUARDED;
	nb->plus = o->readdir == NFSOPT_PLUS;
	/*
	 * As the Linux client: replies of the server's preferred size
	 * (FSINFO dtpref, within 4 KiB and 1 MiB), dircount an eighth.
	 */
	nb->sizes_given = o->maxcount != 0;
	nb->maxcount = o->maxcount != 0 ? o->maxcount : nb->c.dtpref < 4096 ?
	    4096 : nb->c.dtpref > (1U << 20) ? 1U << 20 : nb->c.dtpref;
	nb->dircount = o->dircount != 0 ? o->dircount : nb->maxcount / 8;
	nb->maxents = nb->maxcount / 24 + 1;	/* the least an entry takes */
	nb->window = o->window;
	return nb;
}

/* The buffers of a connected 'nb', now 'be''s. */
static void
nb_ready(struct backend *be, struct nfsb *nb)
{
	nb->data = xcalloc(1, CHUNK);
	memset(nb->data, 'x', CHUNK);
	nfswin_init(&nb->win, &nb->c, nb->window);
	be->window = nb->window;
	nb->win.guarded = nb->guarded;
	nb->win.file_size = be->opts.file_size;
	nb->win.data = nb->data;
	nb->win.chunk = CHUNK;
	nb->ents = xreallocarray(NULL, nb->maxents, sizeof(*nb->ents));
	nb->batch = xreallocarray(NULL, nb->maxents, sizeof(*nb->batch));
	nb->names = xmalloc((size_t)nb->maxcount + 1);
	nfsbfs_io_init(nb);
}

/*
 * Another rank's (--mpi): the work directory 'name' rank 0 made in the
 * export of 'target', by LOOKUP, on a connection of this rank's own;
 * close() leaves it to rank 0.
 */
static int
nb_attach(struct backend *be, const char *target, const char *name,
    char *err)
{
	struct nfsb	*nb;

	if ((nb = nb_new(be, target, err)) == NULL)
		return -1;
	if (nfsproc_lookup(&nb->c, &nb->c.root, name, &nb->work, NULL) ==
	    -1) {
		(void)util_syserr_why(err, nb->c.err, "--mpi: work directory "
		    "%s in %s", name, target);
		nfsrpc_close(&nb->c);
		free(nb);
		return -1;
	}
	nb->workname = xstrdup(name);
	nb->attached = true;
	be->priv = nb;
	be->workdir = xasprintf("nfs://%s%s/%s", nb->c.url.host,
	    nb->c.url.path, nb->workname);
	nb_ready(be, nb);
	return 0;
}

/* Another rank's: the round directory 'name' rank 0 made, by LOOKUP. */
static int
nb_enter(struct backend *be, const char *name, struct backend_dir **dirp)
{
	struct nfsb		*nb = be->priv;
	struct nfsrpc_fh	 fh;

	if (nfsproc_lookup(&nb->c, &nb->work, name, &fh, NULL) == -1)
		return -1;
	return keep_dir(nb, &fh, name, NULL, dirp);
}

/*
 * Keep the directory 'name' of handle 'fh' for the caller in '*dirp': a
 * subdirectory of 'parent', or (NULL) a round directory, on the list of
 * those nb_close() lets go of.  Return 0.
 */
static int
keep_dir(struct nfsb *nb, const struct nfsrpc_fh *fh, const char *name,
    struct backend_dir *parent, struct backend_dir **dirp)
{
	struct backend_dir	*d;

	d = xcalloc(1, sizeof(*d));
	d->fh = *fh;
	d->name = xstrdup(name);
	d->parent = parent;
	if (parent == NULL) {
		d->next = nb->dirs;
		nb->dirs = d;
	}
	*dirp = d;
	return 0;
}

/* Drop the handles; remove the work directory unless 'keep'. */
static int
nb_close(struct backend *be, bool keep, char *err)
{
	struct nfsb		*nb = be->priv;
	struct backend_dir	*d;
	int			 rc = 0;

	while ((d = nb->dirs) != NULL) {
		nb->dirs = d->next;
		free(d->name);
		free(d);
	}
	if (!keep && !nb->attached) {
		(void)nfsproc_remove(&nb->c, &nb->work, WORKDIR_ROUND);
		if ((nfsproc_remove(&nb->c, &nb->work, WORKDIR_MARKER) == -1 &&
		    errno != ENOENT) || (nfsproc_rmdir(&nb->c, &nb->c.root,
		    nb->workname) == -1 && errno != ENOENT)) {
			rc = util_syserr_why(err, nb->c.err, "remove work "
			    "directory %s", be->workdir);
			/* Put the marker back so cleanup can find it. */
			(void)put_file(&nb->c, &nb->work, WORKDIR_MARKER,
			    nb->marker);
			errno = EEXIST;
		}
	}
	nfsrpc_close(&nb->c);
	free(nb->workname);
	free(nb->marker);
	free(nb->data);
	nfswin_free(&nb->win);
	free(nb->ents);
	free(nb->batch);
	u64set_free(&nb->cookies);
	free(nb->names);
	nfsbfs_io_free(nb);
	free(nb);
	be->priv = NULL;
	return rc;
}

/* Record the round, then MKDIR it. */
static int
nb_mkdir(struct backend *be, const char *name, uint64_t n,
    struct backend_dir **dirp)
{
	struct nfsb		*nb = be->priv;
	struct nfsrpc_fh	 fh;
	char			 rec[128];

	if (backend_round_record(rec, sizeof(rec), name, n, &be->opts) == -1 ||
	    put_file(&nb->c, &nb->work, WORKDIR_ROUND, rec) == -1)
		return -1;
	if (nfsproc_mkdir(&nb->c, &nb->work, name, 0700, &fh, NULL) == -1)
		return -1;
	return keep_dir(nb, &fh, name, NULL, dirp);
}

/* MKDIR in the round directory. */
static int
nb_subdir(struct backend *be, struct backend_dir *parent, const char *name,
    struct backend_dir **dirp)
{
	struct nfsb		*nb = be->priv;
	struct nfsrpc_fh	 fh;

	if (nfsproc_mkdir(&nb->c, &parent->fh, name, 0700, &fh, NULL) == -1)
		return -1;
	return keep_dir(nb, &fh, name, parent, dirp);
}

static int
nb_rmdir(struct backend *be, struct backend_dir *dir, bool remove)
{
	struct nfsb		 *nb = be->priv;
	struct backend_dir	**pp;

	if (remove && nfsproc_rmdir(&nb->c, dir->parent != NULL ?
	    &dir->parent->fh : &nb->work, dir->name) == -1)
		return -1;		/* the handle stays */
	if (dir->parent != NULL) {
		free(dir->name);
		free(dir);
		return 0;
	}
	for (pp = &nb->dirs; *pp != NULL; pp = &(*pp)->next)
		if (*pp == dir) {
			*pp = dir->next;
			break;
		}
	free(dir->name);
	free(dir);
	return 0;
}

static int
nb_create(struct backend *be, struct backend_dir *dir, const char *name)
{
	struct nfsb		*nb = be->priv;
	struct nfsrpc_fh	 fh;
	uint64_t		 off, left = be->opts.file_size;
	uint32_t		 len;

	if (nb->overlap)
		return nfswin_start(&nb->win, NFSWIN_CREATE, &dir->fh, name);
	if (nfsbfs_create(nb, dir, name, &fh) == -1)
		return -1;
	if (left == 0)
		return 0;
	for (off = 0; left > 0; off += len, left -= len) {
		len = left < CHUNK ? (uint32_t)left : CHUNK;
		if (nfsproc_write(&nb->c, &fh, off, nb->data, len, false) == -1)
			return -1;
	}
	return nfsproc_commit(&nb->c, &fh);	/* as close(2) flushes */
}

static int
nb_openclose(struct backend *be, struct backend_dir *dir, const char *name)
{
	struct nfsb		*nb = be->priv;
	struct nfsrpc_fh	 fh;

	if (nb->overlap)
		return nfswin_start(&nb->win, NFSWIN_OPEN, &dir->fh, name);
	if (nfsproc_lookup(&nb->c, &dir->fh, name, &fh, NULL) == -1)
		return -1;
	return nfsproc_access(&nb->c, &fh);
}

/*
 * A stat(2) of a name the listing just returned: with READDIRPLUS the
 * attributes came with it, so nothing is sent (as the kernel serves
 * ls -lU from them); else a LOOKUP.
 */
static int
nb_stat(struct backend *be, struct backend_dir *dir, const char *name)
{
	struct nfsb	*nb = be->priv;

	if (nb->plus && nb->statpos < nb->nbatch &&
	    strcmp(nb->batch[nb->statpos], name) == 0) {
		nb->statpos++;
		return 0;
	}
	if (nb->overlap)
		return nfswin_start(&nb->win, NFSWIN_STAT, &dir->fh, name);
	return nfsproc_lookup(&nb->c, &dir->fh, name, NULL, NULL);
}

static int
nb_unlink(struct backend *be, struct backend_dir *dir, const char *name)
{
	struct nfsb	*nb = be->priv;

	if (nb->overlap)
		return nfswin_start(&nb->win, NFSWIN_REMOVE, &dir->fh, name);
	return nfsproc_remove(&nb->c, &dir->fh, name);
}

static int
nb_rewind(struct backend *be, struct backend_dir *dir)
{
	struct nfsb	*nb = be->priv;

	memset(&dir->cur, 0, sizeof(dir->cur));
	u64set_clear(&nb->cookies);
	nb->replies = 0;
	return 0;
}

/*
 * One READDIR (or READDIRPLUS) reply: the directory ends with its eof.
 * A reply that sends the listing on from a cookie it went on from before
 * (or from 0, the start) would read the same entries again: ELOOP, and
 * nb_detail() says which cookie.
 */
static ssize_t
nb_readdir(struct backend *be, struct backend_dir *dir, const char ***names,
    bool *end)
{
	struct nfsb	*nb = be->priv;
	ssize_t		 k, i;

	*names = nb->batch;
	nb->nbatch = nb->statpos = 0;
	if (dir->cur.eof) {
		*end = true;
		return 0;
	}
	k = nfsproc_readdir(&nb->c, &dir->fh, &dir->cur, nb->plus,
	    nb->dircount, nb->maxcount, nb->ents, nb->maxents, nb->names,
	    (size_t)nb->maxcount + 1);
	if (k == -1)
		return -1;
	nb->replies++;
	if (!dir->cur.eof && u64set_add(&nb->cookies, dir->cur.cookie)) {
		(void)snprintf(nb->c.err, sizeof(nb->c.err), "%s: reply %lu "
		    "went on from cookie %" PRIu64 " again",
		    nb->plus ? "READDIRPLUS" : "READDIR", nb->replies,
		    dir->cur.cookie);
		errno = ELOOP;
		return -1;
	}
	for (i = 0; i < k; i++)
		nb->batch[i] = nb->ents[i].name;
	nb->nbatch = (size_t)k;
	*end = dir->cur.eof;
	return k;
}

/* The server writes through its own caches: nothing to flush here. */
static int
nb_sync(struct backend *be)
{
	(void)be;
	return 0;
}

/* Nothing of this host holds the export: nothing to let go of. */
static int
nb_release(struct backend *be)
{
	(void)be;
	return 0;
}

static int
nb_reacquire(struct backend *be, char *err)
{
	(void)be;
	(void)err;
	return 0;
}

static bool
nb_vanished(struct backend *be, struct backend_dir *dir)
{
	struct nfsb	*nb = be->priv;

	if (nfsproc_getattr(&nb->c, &nb->work, NULL, NULL) == -1)
		return errno == ESTALE || errno == ENOENT;
	while (dir != NULL && dir->parent != NULL)
		dir = dir->parent;	/* the round directory */
	return dir != NULL && nfsproc_lookup(&nb->c, &nb->work, dir->name,
	    NULL, NULL) == -1 && errno == ENOENT;
}

static void
nb_counters(struct backend *be, uint64_t *values)
{
	struct nfsb	*nb = be->priv;

	nfsrpc_counters(&nb->c, values);
}

/*
 * A phase begins ('begin') or ends: with --nfs-window above 1, its file
 * operations overlap (nfswin.c) until it ends, which waits for them all.
 */
static int
nb_overlap(struct backend *be, bool begin)
{
	struct nfsb	*nb = be->priv;

	if (nb->window <= 1)
		return 0;
	nb->overlap = begin;
	return begin ? 0 : nfswin_drain(&nb->win);
}

/* The procedure that failed last, and how ("CREATE: NFS3ERR_NOSPC"). */
static const char *
nb_detail(struct backend *be)
{
	struct nfsb	*nb = be->priv;

	return *nb->c.err != '\0' ? nb->c.err : NULL;
}

/* A child beside the parent (--churn): a connection of its own. */
static int
nb_forked(struct backend *be)
{
	struct nfsb	*nb = be->priv;

	nfsrpc_forked(&nb->c);
	nb->overlap = false;
	return 0;
}

/* What a reader of the results needs to know of the server. */
static void
nb_meta(struct backend *be, struct kvlist *kv)
{
	struct nfsb	*nb = be->priv;

	kv_set(kv, "fstype", "nfs");
	if (nb->window <= 1)
		kv_set(kv, "nfs_client", "largedir's own (libnfs %s raw "
		    "RPC), one call at a time over TCP", LD_LIBNFS);
	else
		kv_set(kv, "nfs_client", "largedir's own (libnfs %s raw "
		    "RPC), up to %u calls in flight in a phase over TCP",
		    LD_LIBNFS, nb->window);
	kv_set(kv, "nfs_window", "%u", nb->window);
	kv_set(kv, "nfs_server", "%s", nb->c.url.host);
	kv_set(kv, "nfs_export", "%s", nb->c.url.path);
	kv_set(kv, "nfs_version", "3");
	kv_set(kv, "nfs_create", "%s", nb->guarded ? "guarded" :
	    "exclusive, then SETATTR");
	kv_set(kv, "nfs_readdir", "%s", nb->plus ? "readdirplus" :
	    "readdir");
	kv_set(kv, "nfs_dircount", "%" PRIu32, nb->dircount);
	kv_set(kv, "nfs_maxcount", "%" PRIu32, nb->maxcount);
	if (!nb->sizes_given)
		kv_set(kv, "nfs_sizes", "as the Linux client asks at "
		    "most: maxcount the server's dtpref, dircount maxcount/8");
	kv_set(kv, "nfs_timeout_ms", "%d", nb->c.timeout_ms);
	kv_set(kv, "nfs_fsinfo", "rtmax %" PRIu32 ", wtmax %" PRIu32
	    ", dtpref %" PRIu32, nb->c.rtmax, nb->c.wtmax, nb->c.dtpref);
	kv_set(kv, "nfs_io_sizes", "wsize %" PRIu32 ", rsize %" PRIu32
	    " (a Maildir's WRITEs and READs, as the Linux client picks "
	    "them from FSINFO)", nb->wsize, nb->rsize);
	kv_set(kv, "nfs_pathconf", "name_max %" PRIu32 ", linkmax %"
	    PRIu32 ", no_trunc %s, case_insensitive %s", nb->c.name_max,
	    nb->c.link_max, nb->c.no_trunc ? "yes" : "no",
	    nb->c.case_insensitive ? "yes" : "no");
	kv_set(kv, "nfs_counters", "PHASE_rpc_PROC: calls of each "
	    "procedure in the phase; PHASE_rpc_errors: replies with an error; "
	    "PHASE_rpc_rtt_ns: their round trips summed; PHASE_rpc_bytes_out, "
	    "_in: what the connection sent (acknowledged) and received, "
	    "RPC headers and TCP record marks included");
}
