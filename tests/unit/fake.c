/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * fake: see fake.h.  A work directory is a list of round directories,
 * each an array of names in creation order (a removed name keeps its
 * slot, marked gone, so a listing under removal behaves like a real
 * directory's: it neither repeats nor skips a name that stays).  Names
 * are found by a linear search: the tests use a few thousand at most.
 */

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/timing.h"
#include "base/util.h"
#include "fake.h"
#include "settings/config.h"

struct fake_name {
	char	*name;
	bool	 gone;
};

struct backend_dir {
	char			*name;
	struct fake_name	*names;
	size_t			 len, cap, live;
	size_t			 cursor;	/* readdir: next slot */
	size_t			 listed;	/* entries since rewind */
	long			 calls;		/* readdir calls since */
	bool			 repeated;	/* repeat_after happened */
	bool			 handle;	/* a handle is out */
	bool			 removed;
	struct backend_dir	*parent;	/* a subdirectory's */
	struct backend_dir	*next;
	const char		*batch[64];
};

struct fake_wd {
	char			*target;
	char			*path;
	bool			 alive;		/* its backend is open */
	bool			 vanished;
	struct backend_dir	*dirs;
	struct fake_wd		*next;
};

struct fake {
	struct fake_wd	*wd;
	bool		 released;
	uint64_t	 count[10];
	size_t		 batch;		/* --fake-batch, or 0: the knob */
	bool		 overlapping;	/* in a phase, with a window */
	int		 pending;	/* a failure not reported yet */
	bool		 eloop;		/* readdir said ELOOP */
	unsigned	 pending_left;	/* operations until it is */
};

static const char *const counter_names[] = {
	"create", "openclose", "stat", "unlink", "readdir", "mkdir", "rmdir",
	"deliver", "rename", "readfile", NULL
};
enum { C_CREATE, C_OPENCLOSE, C_STAT, C_UNLINK, C_READDIR, C_MKDIR,
    C_RMDIR, C_DELIVER, C_RENAME, C_READFILE };

struct fake_knobs	 fake_knobs = { -1, 0, -1, 0, 7, false, false, 0, 0, -1,
    false, -1, 0 };
static struct fake_wd	*workdirs;
static unsigned		 serial;

static int	f_open(struct backend *, const char *, char *);
static int	f_close(struct backend *, bool, char *);
static int	f_mkdir(struct backend *, const char *, uint64_t,
		    struct backend_dir **);
static int	f_subdir(struct backend *, struct backend_dir *, const char *,
		    struct backend_dir **);
static int	f_rmdir(struct backend *, struct backend_dir *, bool);
static int	f_create(struct backend *, struct backend_dir *, const char *);
static int	f_openclose(struct backend *, struct backend_dir *,
		    const char *);
static int	f_stat(struct backend *, struct backend_dir *, const char *);
static int	f_deliver(struct backend *, struct backend_dir *,
		    struct backend_dir *, const char *, uint64_t);
static int	f_rename(struct backend *, struct backend_dir *, const char *,
		    struct backend_dir *, const char *);
static int	f_readfile(struct backend *, struct backend_dir *,
		    const char *);
static int	f_unlink(struct backend *, struct backend_dir *, const char *);
static int	f_rewind(struct backend *, struct backend_dir *);
static ssize_t	f_readdir(struct backend *, struct backend_dir *,
		    const char ***, bool *);
static int	f_sync(struct backend *);
static int	f_release(struct backend *);
static int	f_reacquire(struct backend *, char *);
static bool	f_vanished(struct backend *, struct backend_dir *);
static void	f_counters(struct backend *, uint64_t *);
static int	f_overlap(struct backend *, bool);
static const char *f_detail(struct backend *);
static int	overlapped(struct fake *, int);
static int	reported(struct fake *);
static int	f_sweep(const char *, void (*)(void *,
		    const struct backend_report *), void *, char *);

/* An option of its own, as a network backend has its buffer sizes. */
static const struct config_opt options[] = {
	{ .name = "fake-batch", .type = CONFIG_COUNT,
	  .verbs = CONFIG_RUN | CONFIG_SUITE | CONFIG_FILE, .metavar = "count",
	  .help = "entries per readdir call", .def = "7", .init = "7",
	  .min = 1, .max = 64, .dump = 1,
	  .off = offsetof(struct fake_settings, batch),
	  .size = sizeof(((struct fake_settings *)NULL)->batch) },
	{ .name = NULL }
};

const struct backend_ops fake_ops = {
	.name = "fake",
	.scheme = "fake",
	.flags = BACKEND_TREE | BACKEND_MAILDIR,
	.options = options,
	.settings_size = sizeof(struct fake_settings),
	.open = f_open,
	.close = f_close,
	.mkdir = f_mkdir,
	.subdir = f_subdir,
	.rmdir = f_rmdir,
	.create = f_create,
	.openclose = f_openclose,
	.stat = f_stat,
	.unlink = f_unlink,
	.deliver = f_deliver,
	.rename = f_rename,
	.readfile = f_readfile,
	.rewind = f_rewind,
	.readdir = f_readdir,
	.sync = f_sync,
	.release = f_release,
	.reacquire = f_reacquire,
	.vanished = f_vanished,
	.counter_names = counter_names,
	.counters = f_counters,
	.overlap = f_overlap,
	.detail = f_detail,
	.sweep = f_sweep,
};

/* Put the knobs back to their defaults. */
void
fake_reset(void)
{
	fake_knobs.fail_after = -1;
	fake_knobs.fail_errno = 0;
	fake_knobs.unlink_fail_after = -1;
	fake_knobs.window = 0;
	fake_knobs.batch = 7;
	fake_knobs.reverse = false;
	fake_knobs.swap_mark = false;
	fake_knobs.repeat_after = 0;
	fake_knobs.repeat_back = 0;
	fake_knobs.skip_slot = -1;
	fake_knobs.cycle = false;
	fake_knobs.eloop_after = -1;
	fake_knobs.open_ns = 0;
}

/* How many work directories exist in 'target'. */
size_t
fake_workdirs(const char *target)
{
	struct fake_wd	*w;
	size_t		 k = 0;

	for (w = workdirs; w != NULL; w = w->next)
		if (strcmp(w->target, target) == 0)
			k++;
	return k;
}

/* The directory called 'name' in the work directory of 'be', or NULL. */
static struct backend_dir *
find_dir(struct fake_wd *w, const char *name)
{
	struct backend_dir	*d;

	for (d = w->dirs; d != NULL; d = d->next)
		if (!d->removed && strcmp(d->name, name) == 0)
			return d;
	return NULL;
}

/* The slot of the live 'name' in 'd', or -1. */
static ssize_t
find(const struct backend_dir *d, const char *name)
{
	size_t	i;

	for (i = 0; i < d->len; i++)
		if (!d->names[i].gone && strcmp(d->names[i].name, name) == 0)
			return (ssize_t)i;
	return -1;
}

static void
add(struct backend_dir *d, const char *name)
{
	if (d->len == d->cap) {
		d->cap = d->cap == 0 ? 64 : 2 * d->cap;
		d->names = xreallocarray(d->names, d->cap, sizeof(*d->names));
	}
	d->names[d->len].name = xstrdup(name);
	d->names[d->len].gone = false;
	d->len++;
	d->live++;
}

/*
 * A file someone else made: 'name' in the round directory 'dir' of 'be'.
 * Return 0, or -1 with errno EEXIST or ENOENT.
 */
int
fake_plant(struct backend *be, const char *dir, const char *name)
{
	struct fake		*fk = be->priv;
	struct backend_dir	*d;

	if ((d = find_dir(fk->wd, dir)) == NULL) {
		errno = ENOENT;
		return -1;
	}
	if (find(d, name) != -1) {
		errno = EEXIST;
		return -1;
	}
	add(d, name);
	return 0;
}

/* Take the work directory of 'be' away, as rm -rf would from outside. */
void
fake_vanish(struct backend *be)
{
	struct fake	*fk = be->priv;

	fk->wd->vanished = true;
}

/* Whether 'be' may be used: open, not released, its work dir there. */
static int
usable(struct backend *be)
{
	struct fake	*fk = be->priv;

	if (fk->released) {
		errno = EBADF;
		return -1;
	}
	if (fk->wd->vanished) {
		errno = ENOENT;
		return -1;
	}
	return 0;
}

static int
f_open(struct backend *be, const char *target, char *err)
{
	struct fake	*fk;
	struct fake_wd	*w;

	if (strncmp(target, "fake://", 7) != 0) {
		(void)snprintf(err, LD_ERRLEN, "create work directory in %s: "
		    "%s", target, strerror(ENOENT));
		errno = ENOENT;
		return -1;
	}
	w = xcalloc(1, sizeof(*w));
	w->target = xstrdup(target);
	w->path = xasprintf("%s/largedir.%06u", target, ++serial);
	w->alive = true;
	w->next = workdirs;
	workdirs = w;
	fk = xcalloc(1, sizeof(*fk));
	fk->wd = w;
	if (be->opts.settings != NULL)
		fk->batch = ((const struct fake_settings *)
		    be->opts.settings)->batch;
	be->priv = fk;
	be->workdir = xstrdup(w->path);
	be->window = fake_knobs.window > 1 ? fake_knobs.window : 1;
	return 0;
}

/* Free directory 'd' and its names. */
static void
free_dir(struct backend_dir *d)
{
	size_t	i;

	for (i = 0; i < d->len; i++)
		free(d->names[i].name);
	free(d->names);
	free(d->name);
	free(d);
}

/* Unlink work directory 'w' from the list and free it. */
static void
free_wd(struct fake_wd *w)
{
	struct fake_wd		**pp;
	struct backend_dir	 *d;

	for (pp = &workdirs; *pp != NULL; pp = &(*pp)->next)
		if (*pp == w) {
			*pp = w->next;
			break;
		}
	while ((d = w->dirs) != NULL) {
		w->dirs = d->next;
		free_dir(d);
	}
	free(w->target);
	free(w->path);
	free(w);
}

static int
f_close(struct backend *be, bool keep, char *err)
{
	struct fake		*fk = be->priv;
	struct fake_wd		*w = fk->wd;
	struct backend_dir	*d;
	int			 rc = 0;

	w->alive = false;
	for (d = w->dirs; d != NULL; d = d->next)
		d->handle = false;
	if (!keep) {
		for (d = w->dirs; d != NULL; d = d->next)
			if (!d->removed)
				break;
		if (d != NULL) {
			(void)snprintf(err, LD_ERRLEN, "remove work directory "
			    "%s: %s", w->path, strerror(ENOTEMPTY));
			errno = ENOTEMPTY;
			rc = -1;
		} else
			free_wd(w);
	}
	free(fk);
	be->priv = NULL;
	return rc;
}

static int
f_mkdir(struct backend *be, const char *name, uint64_t n,
    struct backend_dir **dirp)
{
	struct fake		*fk = be->priv;
	struct backend_dir	*d;

	if (usable(be) == -1)
		return -1;
	(void)n;
	fk->count[C_MKDIR]++;
	if (find_dir(fk->wd, name) != NULL) {
		errno = EEXIST;
		return -1;
	}
	d = xcalloc(1, sizeof(*d));
	d->name = xstrdup(name);
	d->handle = true;
	d->next = fk->wd->dirs;
	fk->wd->dirs = d;
	*dirp = d;
	return 0;
}

/*
 * A subdirectory is a name in its parent (so the parent is not empty
 * while it exists) and a directory of the work directory's list, named
 * by its path.
 */
static int
f_subdir(struct backend *be, struct backend_dir *parent, const char *name,
    struct backend_dir **dirp)
{
	struct fake		*fk = be->priv;
	struct backend_dir	*d;

	if (usable(be) == -1)
		return -1;
	fk->count[C_MKDIR]++;
	if (find(parent, name) != -1) {
		errno = EEXIST;
		return -1;
	}
	add(parent, name);
	d = xcalloc(1, sizeof(*d));
	d->name = xasprintf("%s/%s", parent->name, name);
	d->handle = true;
	d->parent = parent;
	d->next = fk->wd->dirs;
	fk->wd->dirs = d;
	*dirp = d;
	return 0;
}

static int
f_rmdir(struct backend *be, struct backend_dir *d, bool remove)
{
	struct fake	*fk = be->priv;
	ssize_t		 i;

	fk->count[C_RMDIR]++;
	if (remove) {
		if (usable(be) == -1)
			return -1;
		if (d->live > 0) {
			errno = ENOTEMPTY;
			return -1;
		}
		d->removed = true;
		if (d->parent != NULL &&
		    (i = find(d->parent, strrchr(d->name, '/') + 1)) != -1) {
			d->parent->names[i].gone = true;
			d->parent->live--;
		}
	}
	d->handle = false;
	return 0;
}

static int
f_create(struct backend *be, struct backend_dir *d, const char *name)
{
	struct fake	*fk = be->priv;

	fk->count[C_CREATE]++;
	if (usable(be) == -1 || reported(fk) == -1)
		return -1;
	if (fake_knobs.fail_after == 0)
		return overlapped(fk, fake_knobs.fail_errno);
	if (fake_knobs.fail_after > 0)
		fake_knobs.fail_after--;
	if (find(d, name) != -1) {
		errno = EEXIST;
		return -1;
	}
	add(d, name);
	return 0;
}

static int
f_openclose(struct backend *be, struct backend_dir *d, const char *name)
{
	struct fake	*fk = be->priv;
	uint64_t	 until;

	fk->count[C_OPENCLOSE]++;
	if (fake_knobs.open_ns > 0)
		for (until = timing_now() + fake_knobs.open_ns;
		    timing_now() < until;)
			;	/* busy: a sleep would take what it likes */
	if (usable(be) == -1)
		return -1;
	if (find(d, name) == -1) {
		errno = ENOENT;
		return -1;
	}
	return 0;
}

static int
f_stat(struct backend *be, struct backend_dir *d, const char *name)
{
	struct fake	*fk = be->priv;

	fk->count[C_STAT]++;
	if (usable(be) == -1)
		return -1;
	if (find(d, name) == -1) {
		errno = ENOENT;
		return -1;
	}
	return 0;
}

/*
 * A delivery: a create in 'tmp' (EEXIST if the name is there), renamed
 * into 'new', where it replaces a name already there, as rename(2).
 */
static int
f_deliver(struct backend *be, struct backend_dir *tmp, struct backend_dir *new,
    const char *name, uint64_t size)
{
	struct fake	*fk = be->priv;
	ssize_t		 i;

	(void)size;
	fk->count[C_DELIVER]++;
	if (usable(be) == -1 || reported(fk) == -1)
		return -1;
	if (fake_knobs.fail_after == 0)
		return overlapped(fk, fake_knobs.fail_errno);
	if (fake_knobs.fail_after > 0)
		fake_knobs.fail_after--;
	if (find(tmp, name) != -1) {
		errno = EEXIST;
		return -1;
	}
	if ((i = find(new, name)) != -1) {
		new->names[i].gone = true;
		new->live--;
	}
	add(new, name);
	return 0;
}

/* rename(2): 'to' in 'tdir', if there, is replaced. */
static int
f_rename(struct backend *be, struct backend_dir *fdir, const char *from,
    struct backend_dir *tdir, const char *to)
{
	struct fake	*fk = be->priv;
	ssize_t		 i, j;

	fk->count[C_RENAME]++;
	if (usable(be) == -1 || reported(fk) == -1)
		return -1;
	if ((i = find(fdir, from)) == -1) {
		errno = ENOENT;
		return -1;
	}
	if (fdir == tdir && strcmp(from, to) == 0)
		return 0;		/* rename(2): nothing to do */
	if ((j = find(tdir, to)) != -1) {
		tdir->names[j].gone = true;
		tdir->live--;
	}
	fdir->names[i].gone = true;
	fdir->live--;
	add(tdir, to);
	return 0;
}

static int
f_readfile(struct backend *be, struct backend_dir *d, const char *name)
{
	struct fake	*fk = be->priv;

	fk->count[C_READFILE]++;
	if (usable(be) == -1)
		return -1;
	if (find(d, name) == -1) {
		errno = ENOENT;
		return -1;
	}
	return 0;
}

static int
f_unlink(struct backend *be, struct backend_dir *d, const char *name)
{
	struct fake	*fk = be->priv;
	ssize_t		 i;

	fk->count[C_UNLINK]++;
	if (usable(be) == -1 || reported(fk) == -1)
		return -1;
	if (fake_knobs.unlink_fail_after == 0)
		return overlapped(fk, EIO);
	if (fake_knobs.unlink_fail_after > 0)
		fake_knobs.unlink_fail_after--;
	if ((i = find(d, name)) == -1) {
		errno = ENOENT;
		return -1;
	}
	d->names[i].gone = true;
	d->live--;
	return 0;
}

/*
 * An operation fails with 'e': at once (-1), or, overlapping, later
 * (reported()); it then takes effect as one never done, and the knob
 * that made it fail is spent.
 */
static int
overlapped(struct fake *fk, int e)
{
	if (!fk->overlapping) {
		errno = e;
		return -1;
	}
	fake_knobs.fail_after = fake_knobs.unlink_fail_after = -1;
	if (fk->pending == 0) {
		fk->pending = e;
		fk->pending_left = fake_knobs.window - 1;
	}
	return 0;
}

/* The failure of an earlier operation comes back now: -1 with errno. */
static int
reported(struct fake *fk)
{
	if (fk->pending == 0 || fk->pending_left-- > 0)
		return 0;
	errno = fk->pending;
	fk->pending = 0;
	return -1;
}

/* A phase begins or ends; at its end, a failure not reported yet is. */
/* After ELOOP: what the NFS backend says of a cookie it saw twice. */
static const char *
f_detail(struct backend *be)
{
	struct fake	*fk = be->priv;

	return fk->eloop ? "READDIR: cookie 7 came twice" : NULL;
}

static int
f_overlap(struct backend *be, bool begin)
{
	struct fake	*fk = be->priv;

	if (fake_knobs.window <= 1)
		return 0;
	fk->overlapping = begin;
	if (begin || fk->pending == 0)
		return 0;
	errno = fk->pending;
	fk->pending = 0;
	return -1;
}

static int
f_rewind(struct backend *be, struct backend_dir *d)
{
	if (usable(be) == -1)
		return -1;
	d->cursor = 0;
	d->listed = 0;
	d->calls = 0;
	d->repeated = false;
	return 0;
}

static ssize_t
f_readdir(struct backend *be, struct backend_dir *d, const char ***names,
    bool *end)
{
	struct fake	*fk = be->priv;
	size_t		 k = 0, slot, batch;

	fk->count[C_READDIR]++;
	if (usable(be) == -1)
		return -1;
	if (fake_knobs.eloop_after >= 0 &&
	    d->calls++ >= fake_knobs.eloop_after) {
		fk->eloop = true;
		errno = ELOOP;
		return -1;
	}
	batch = fk->batch != 0 ? fk->batch : fake_knobs.batch;
	if (batch == 0 || batch > sizeof(d->batch) / sizeof(d->batch[0]))
		batch = sizeof(d->batch) / sizeof(d->batch[0]);
	while (k < batch && d->cursor < d->len) {
		slot = fake_knobs.reverse ? d->len - 1 - d->cursor : d->cursor;
		d->cursor++;
		if (d->names[slot].gone || (long)slot == fake_knobs.skip_slot)
			continue;
		d->batch[k++] = d->names[slot].name;
		if (++d->listed == fake_knobs.repeat_after && !d->repeated) {
			d->repeated = true;
			d->cursor -= fake_knobs.repeat_back < d->cursor ?
			    fake_knobs.repeat_back : d->cursor;
		}
		if (fake_knobs.cycle && d->cursor >= d->len)
			d->cursor = 0;	/* k > 0: it ends */
	}
	*end = k == 0 && d->cursor >= d->len;
	*names = d->batch;
	return (ssize_t)k;
}

static int
f_sync(struct backend *be)
{
	return usable(be);
}

static int
f_release(struct backend *be)
{
	struct fake	*fk = be->priv;

	fk->released = true;
	return 0;
}

static int
f_reacquire(struct backend *be, char *err)
{
	struct fake	*fk = be->priv;

	if (fake_knobs.swap_mark || fk->wd->vanished) {
		(void)snprintf(err, LD_ERRLEN, "open work directory %s again: "
		    "%s", fk->wd->path, fk->wd->vanished ? strerror(ENOENT) :
		    "its marker is not ours any more");
		errno = fk->wd->vanished ? ENOENT : ESTALE;
		return -1;
	}
	fk->released = false;
	return 0;
}

static bool
f_vanished(struct backend *be, struct backend_dir *d)
{
	struct fake	*fk = be->priv;

	return fk->wd->vanished || (d != NULL && d->removed);
}

static void
f_counters(struct backend *be, uint64_t *values)
{
	struct fake	*fk = be->priv;

	memcpy(values, fk->count, sizeof(fk->count));
}

/*
 * --cleanup: every work directory in 'target' whose backend was closed
 * with 'keep' loses the names of its round directories (all are
 * largedir's here) and is removed.
 */
static int
f_sweep(const char *target, void (*report)(void *,
    const struct backend_report *), void *arg, char *err)
{
	struct backend_report	 r;
	struct fake_wd		*w, *next;
	struct backend_dir	*d;
	int			 found = 0;

	(void)err;
	for (w = workdirs; w != NULL; w = next) {
		next = w->next;
		if (strcmp(w->target, target) != 0)
			continue;
		memset(&r, 0, sizeof(r));
		r.path = w->path;
		found++;
		if (w->alive) {
			r.why = "its run is still going";
			report(arg, &r);
			continue;
		}
		for (d = w->dirs; d != NULL; d = d->next)
			r.files += d->live;
		r.removed = true;
		report(arg, &r);
		free_wd(w);
	}
	return found;
}
