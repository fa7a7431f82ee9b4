/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * sweep: see sweep.h.
 *
 * SWEEP_ONCE copies the names (and types) it reads, since a reader's
 * entry lives only until its next call and the callback removes entries
 * of the directory being read; SWEEP_PASSES copies nothing, so a round
 * directory of millions of names costs no memory.
 */

#include <sys/types.h>

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "backend/sweep.h"
#include "base/util.h"

/* The names SWEEP_ONCE read. */
struct listed {
	char		**names;
	unsigned char	 *types;
	size_t		  n;
};

static int	list_all(const struct sweep_dir *, const char *,
		    struct listed *);
static void	listed_free(struct listed *);
static bool	wanted(const char *, const char *);
static void	tally(int64_t, struct sweep_count *, bool *);
static int	posix_next(void *, struct sweep_entry *);
static int	posix_rewind(void *);

/*
 * Walk directory 'd' the way 'mode' says (sweep.h), calling
 * 'fn'('arg', entry) for each entry whose name starts with 'prefix'
 * (NULL: every entry).  'fn' returns SWEEP_GONE if it removed the entry,
 * else the number of entries it keeps for it (1 for itself; a directory
 * it could not empty, the foreign entries found inside; 0, none of the
 * sweep's business).  Fill 'count'.  Return 0, or -1 with errno if the
 * directory could not be read: SWEEP_ONCE then called 'fn' for none,
 * SWEEP_PASSES stopped where it was ('count' says what it did).
 */
int
sweep_walk(const struct sweep_dir *d, const char *prefix,
    enum sweep_mode mode, int64_t (*fn)(void *, const struct sweep_entry *),
    void *arg, struct sweep_count *count)
{
	struct listed		 l;
	struct sweep_entry	 e;
	size_t			 i;
	int			 rc;
	bool			 removed;

	memset(count, 0, sizeof(*count));
	if (mode == SWEEP_ONCE) {
		if (list_all(d, prefix, &l) == -1)
			return -1;
		for (i = 0; i < l.n; i++) {
			e.name = l.names[i];
			e.type = l.types[i];
			tally(fn(arg, &e), count, &removed);
		}
		listed_free(&l);
		return 0;
	}
	do {
		removed = false;
		count->kept = 0;
		while ((rc = d->next(d->arg, &e)) == 1)
			if (wanted(e.name, prefix))
				tally(fn(arg, &e), count, &removed);
		if (rc == -1)
			return -1;
	} while (removed && d->rewind(d->arg) == 0);
	return removed ? -1 : 0;	/* the rewind failed */
}

/* Whether 'name' starts with 'prefix' (NULL: every name does). */
static bool
wanted(const char *name, const char *prefix)
{
	return prefix == NULL || strncmp(name, prefix, strlen(prefix)) == 0;
}

/* Count a callback's answer 'v' into 'count'; an entry gone sets '*removed'. */
static void
tally(int64_t v, struct sweep_count *count, bool *removed)
{
	if (v == SWEEP_GONE) {
		count->gone++;
		*removed = true;
	} else if (v > 0)
		count->kept += (uint64_t)v;
}

/*
 * Read every entry of 'd' whose name starts with 'prefix' into 'l'.
 * Return 0, or -1 with errno ('l' is then empty).
 */
static int
list_all(const struct sweep_dir *d, const char *prefix, struct listed *l)
{
	struct sweep_entry	e;
	int			rc, saved;

	memset(l, 0, sizeof(*l));
	while ((rc = d->next(d->arg, &e)) == 1) {
		if (!wanted(e.name, prefix))
			continue;
		l->names = xreallocarray(l->names, l->n + 1,
		    sizeof(*l->names));
		l->types = xreallocarray(l->types, l->n + 1,
		    sizeof(*l->types));
		l->names[l->n] = xstrdup(e.name);
		l->types[l->n++] = e.type;
	}
	if (rc == 0)
		return 0;
	saved = errno;
	listed_free(l);
	errno = saved;
	return -1;
}

static void
listed_free(struct listed *l)
{
	size_t	i;

	for (i = 0; i < l->n; i++)
		free(l->names[i]);
	free(l->names);
	free(l->types);
	memset(l, 0, sizeof(*l));
}

/*
 * Make 'd' read the open directory stream 'dp' (the caller keeps it and
 * closes it).
 */
void
sweep_dir_posix(struct sweep_dir *d, DIR *dp)
{
	d->next = posix_next;
	d->rewind = posix_rewind;
	d->arg = dp;
}

static int
posix_next(void *arg, struct sweep_entry *e)
{
	struct dirent	*de;

	do {
		errno = 0;
		if ((de = readdir(arg)) == NULL)
			return errno == 0 ? 0 : -1;
	} while (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") ==
	    0);
	e->name = de->d_name;
	e->type = de->d_type;
	return 1;
}

static int
posix_rewind(void *arg)
{
	rewinddir(arg);
	return 0;
}
