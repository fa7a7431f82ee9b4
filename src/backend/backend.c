/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * backend: the registry and what the backends share.  The ops tables
 * themselves live in the backends' own files (posix.c); a backend joins
 * the registry by a line in 'builtin' below, or, in the unit tests, by
 * backend_register().
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"
#include "backend/nfsb.h"
#include "base/util.h"

static void	start(struct backend *, const struct backend_ops *,
		    const struct backend_opts *);

static const struct backend_ops *registry[BACKEND_MAX + 1] = {
	&posix_ops,
	&nfsb_ops,
};

/* The backend called 'name', or NULL with errno ENOENT. */
const struct backend_ops *
backend_find(const char *name)
{
	size_t	i;

	for (i = 0; registry[i] != NULL; i++)
		if (strcmp(registry[i]->name, name) == 0)
			return registry[i];
	errno = ENOENT;
	return NULL;
}

/* The backend registered 'i'-th (from 0), or NULL past the last. */
const struct backend_ops *
backend_nth(size_t i)
{
	return i < BACKEND_MAX ? registry[i] : NULL;
}

/*
 * The table of 'ops' for the target 'target' in particular (its refine
 * op), and what the results should say of it in 'meta'; 'err' says why
 * it could not count what it would (else it is "").
 */
const struct backend_ops *
backend_refine(const struct backend_ops *ops, const char *target,
    struct kvlist *meta, char *err)
{
	*err = '\0';
	return ops->refine != NULL ? ops->refine(target, meta, err) : ops;
}

/*
 * The backend for the target 'target': the one whose scheme a URL
 * "SCHEME://..." names, else posix (a path).  NULL with errno ENOENT for
 * a URL of a scheme no backend has.
 */
const struct backend_ops *
backend_for(const char *target)
{
	const char	*colon;
	size_t		 i, len;

	colon = strstr(target, "://");
	if (colon == NULL || strchr(target, '/') < colon)
		return &posix_ops;
	len = (size_t)(colon - target);
	for (i = 0; registry[i] != NULL; i++)
		if (registry[i]->scheme != NULL &&
		    strlen(registry[i]->scheme) == len &&
		    strncmp(registry[i]->scheme, target, len) == 0)
			return registry[i];
	errno = ENOENT;
	return NULL;
}

/*
 * Add 'ops' to the registry (the unit tests' in-memory backend).  Return
 * 0, or -1 with errno EEXIST (its name is taken) or ENOSPC.
 */
int
backend_register(const struct backend_ops *ops)
{
	size_t	i;

	for (i = 0; registry[i] != NULL; i++)
		if (strcmp(registry[i]->name, ops->name) == 0) {
			errno = EEXIST;
			return -1;
		}
	if (i == BACKEND_MAX) {
		errno = ENOSPC;
		return -1;
	}
	registry[i] = ops;
	return 0;
}

/*
 * Open 'be' as a backend of 'ops' with the options 'opts': make and mark
 * its work directory in 'target'.  Return 0, or -1 with errno and a
 * one-line message in 'err' (LD_ERRLEN bytes); 'be' is then closed.
 */
int
backend_open(struct backend *be, const struct backend_ops *ops,
    const char *target, const struct backend_opts *opts, char *err)
{
	start(be, ops, opts);
	if (ops->open(be, target, err) == -1) {
		be->ops = NULL;
		return -1;
	}
	return 0;
}

/*
 * Open 'be' with 'ops' on the work directory 'name' in 'target' that
 * rank 0 of an MPI job made (the attach op): made and removed by that
 * rank, used here.  Return 0, or -1 with errno and a message in 'err'.
 */
int
backend_attach(struct backend *be, const struct backend_ops *ops,
    const char *target, const char *name, const struct backend_opts *opts,
    char *err)
{
	start(be, ops, opts);
	if ((ops->flags & BACKEND_RANKS) == 0 ||
	    ops->attach(be, target, name, err) == -1) {
		if ((ops->flags & BACKEND_RANKS) == 0)
			(void)util_fail(err, ENOTSUP, "--mpi: not with the %s "
			    "backend", ops->name);
		be->ops = NULL;
		return -1;
	}
	return 0;
}

/* What backend_open() and backend_attach() set first. */
static void
start(struct backend *be, const struct backend_ops *ops,
    const struct backend_opts *opts)
{
	memset(be, 0, sizeof(*be));
	be->ops = ops;
	be->opts = *opts;
	be->window = 1;
}

/*
 * Close 'be': remove its work directory, or with 'keep' leave it, marked,
 * for --cleanup.  Closing a closed backend does nothing.  Return 0, or -1
 * with errno and a message in 'err'; the work directory then stays with
 * its mark, and 'be' is closed all the same.
 */
int
backend_close(struct backend *be, bool keep, char *err)
{
	int	rc;

	if (be->ops == NULL)
		return 0;
	rc = be->ops->close(be, keep, err);
	free(be->workdir);
	memset(be, 0, sizeof(*be));
	return rc;
}

/*
 * Write the name of round 'k', repetition 'rep' into 'buf': "round-K-R",
 * the shape --cleanup recognises.
 */
void
backend_round_name(char *buf, size_t len, unsigned k, unsigned rep)
{
	(void)snprintf(buf, len, "round-%04u-%u", k, rep);
}

/*
 * Name subdirectory 'd' of a round directory in the tree layout:
 * "d00000012".
 */
void
backend_subdir_name(char *buf, size_t len, uint64_t d)
{
	(void)snprintf(buf, len, "d%08" PRIu64, d);
}

/*
 * Whether 'name' is one backend_subdir_name() writes: 0 with its number
 * in '*d', else -1.
 */
int
backend_subdir_parse(const char *name, uint64_t *d)
{
	const char	*p;
	uint64_t	 v = 0;

	if (name[0] != 'd')
		return -1;
	for (p = name + 1; *p >= '0' && *p <= '9' && p - name <= 19; p++)
		v = v * 10 + (uint64_t)(*p - '0');
	if (*p != '\0' || p - name < 9 || (p - name > 9 && name[1] == '0'))
		return -1;
	*d = v;
	return 0;
}

/*
 * The record of a round made for 'n' files in directory 'name' by a
 * backend opened with 'o' (its layout: flat, a tree of o->per_dir files
 * in each subdirectory, or a mailbox), which a backend keeps in its work
 * directory for --cleanup: "round-0003-1 2250\n", "round-0003-1 2250
 * tree 15\n" or "round-0003-1 2250 maildir\n".  Return its length, or
 * -1 (ENAMETOOLONG) if it does not fit 'len'.
 */
int
backend_round_record(char *buf, size_t len, const char *name, uint64_t n,
    const struct backend_opts *o)
{
	int	k;

	if (o->mailbox)
		k = snprintf(buf, len, "%s %" PRIu64 " maildir\n", name, n);
	else if (o->per_dir == 0)
		k = snprintf(buf, len, "%s %" PRIu64 "\n", name, n);
	else
		k = snprintf(buf, len, "%s %" PRIu64 " tree %" PRIu64 "\n",
		    name, n, o->per_dir);
	if (k < 0 || (size_t)k >= len) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return k;
}

/* How many counters backends of 'ops' keep (BACKEND_MAX_COUNTERS at most). */
size_t
backend_ncounters(const struct backend_ops *ops)
{
	size_t	n = 0;

	while (ops->counter_names != NULL && ops->counter_names[n] != NULL &&
	    n < BACKEND_MAX_COUNTERS)
		n++;
	return n;
}

/* The name of fsync mode 'm' as --fsync spells it. */
const char *
backend_fsync_name(enum backend_fsync m)
{
	switch (m) {
	case BACKEND_FSYNC_FILE:
		return "file";
	case BACKEND_FSYNC_DIR:
		return "dir";
	case BACKEND_FSYNC_BOTH:
		return "both";
	case BACKEND_FSYNC_NONE:
		break;
	}
	return "none";
}
