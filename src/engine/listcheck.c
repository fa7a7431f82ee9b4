/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/* listcheck: see listcheck.h. */

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/names.h"
#include "base/timing.h"
#include "base/util.h"
#include "engine/listcheck.h"
#include "engine/maildir.h"

static int	listcheck_entry(struct listcheck *, const char *);

/* Start checking a listing of 'w' whose findings go to 'r'. */
void
listcheck_start(struct listcheck *c, struct workload *w,
    struct workload_result *r)
{
	memset(c, 0, sizeof(*c));
	c->w = w;
	c->r = r;
	c->info = maildir_info(w);
	memset(w->seen, 0, workload_seen_words(w->created) * sizeof(*w->seen));
}

/*
 * Check the 'k' entries of 'batch', untimed: the time it takes moves
 * '*t0', the end of the last timed operation, and goes to '*paused', as
 * workload.c's poll_paused() does.  With 'mine' (an array of '*cap'
 * flags, grown as needed), flag each entry that is one of the round's
 * files, so the timed loop need not look it up again.  Return how many
 * come before a readdir loop (all 'k' if none).
 */
ssize_t
listcheck_batch(struct listcheck *c, const char **batch, ssize_t k,
    uint64_t *t0, uint64_t *paused, unsigned char **mine, size_t *cap)
{
	uint64_t	t, d;
	ssize_t		j;
	int		rc;

	t = timing_now();
	if (mine != NULL && *cap < (size_t)k) {
		*mine = xreallocarray(*mine, (size_t)k, 1);
		*cap = (size_t)k;
	}
	for (j = 0; j < k; j++) {
		if ((rc = listcheck_entry(c, batch[j])) == -1)
			break;
		if (mine != NULL)
			(*mine)[j] = rc == 1;
	}
	d = timing_now() - t;
	*paused += d;
	*t0 += d;
	return j;
}

/*
 * Entry 'name' came next.  Return 1 if it is one of the round's files, 0
 * if it is not, -1 if it shows a readdir loop (r->loop_at and r->odd are
 * set).
 */
static int
listcheck_entry(struct listcheck *c, const char *name)
{
	struct workload	*w = c->w;
	uint64_t	 bit, made, idx;

	c->entries++;
	if ((c->info != NULL ? names_lookup_info(w->names, name, c->info,
	    &idx) : names_lookup(w->names, name, &idx)) && idx < w->created) {
		bit = UINT64_C(1) << (idx % 64);
		if ((w->seen[idx / 64] & bit) == 0) {
			w->seen[idx / 64] |= bit;
			c->ours++;
			return 1;
		}
	} else if (names_churn_prefix(name)) {
		/* At most what the churn made by now. */
		made = w->others_made != NULL ? *w->others_made : 0;
		if (++c->churned <= made)
			return 0;
	} else if (++c->others <= w->n) {
		return 0;	/* foreign: as many as there can be */
	}
	c->r->loop_at = c->entries;
	(void)snprintf(c->r->odd, sizeof(c->r->odd), "%s", name);
	return -1;
}

/*
 * The backend said ELOOP: it saw the listing go round (an NFS cookie it
 * handed out before).  Record it as listcheck_entry() does, with the
 * backend's words.  Return 0, or -1 (errno ELOOP) if the backend cannot
 * say more, and the error stands.
 */
int
listcheck_eloop(struct listcheck *c)
{
	struct backend	*be = c->w->be;
	const char	*d;

	if (be->ops->detail == NULL || (d = be->ops->detail(be)) == NULL) {
		errno = ELOOP;
		return -1;
	}
	c->r->loop_at = c->entries + 1;
	(void)snprintf(c->r->odd, sizeof(c->r->odd), "%s", d);
	return 0;
}

/*
 * The listing reached its end: every file that exists (names [deleted,
 * created)) must have come.  Count those that did not in r->lost, the
 * first in r->odd.
 */
void
listcheck_end(struct listcheck *c)
{
	struct workload	*w = c->w;
	uint64_t	 i;

	if (c->ours >= w->created - w->deleted)
		return;
	c->r->lost = w->created - w->deleted - c->ours;
	for (i = w->deleted; i < w->created; i++)
		if ((w->seen[i / 64] & UINT64_C(1) << (i % 64)) == 0) {
			(void)snprintf(c->r->odd, sizeof(c->r->odd), "%s",
			    names_get(w->names, i));
			break;
		}
}
