/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/* rmrf: see rmrf.h. */

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/sig.h"
#include "base/util.h"
#include "engine/listcheck.h"
#include "engine/rmrf.h"

/* The names rm -rf has read and not yet unlinked (rmrf_run()). */
struct held {
	char		*buf;		/* the names, NUL-terminated */
	size_t		 used, cap;
	size_t		*off;		/* where each starts in buf */
	size_t		 n, offcap;
	unsigned char	*mine;		/* of a getdents batch: ours */
	size_t		 minecap;
};

static int	read_held(struct workload *, struct listcheck *,
		    struct held *, bool *, uint64_t *, uint64_t *);
static int	unlink_held(struct workload *, struct workload_result *,
		    const struct held *, uint64_t *, uint64_t *, uint64_t *);
static void	held_free(struct held *);
static int	probe(struct workload *);

/*
 * rm -rf: unlink the entries in the order the directory lists them, as
 * GNU rm's fts does: it reads up to w->rmrf_batch entries (100,000 in
 * fts) before it unlinks any of them, then reads on from where it was.
 * (--rmrf-batch 1 unlinks each getdents batch before it reads the next.)
 * Only names of this round's table are unlinked; anything else is
 * counted as foreign and left alone.  If a pass ends with files left
 * (some filesystems skip entries when the directory changes under a
 * reader), read again from the start, which rm would not.
 */
int
rmrf_run(struct workload *w, struct workload_result *r)
{
	struct backend		*be = w->be;
	struct listcheck	 ck;
	struct held		 h;
	uint64_t		 start, t0, left, pass_removed;
	uint64_t		 paused = 0;
	bool			 end;
	int			 saved;

	memset(&h, 0, sizeof(h));
	left = w->created - w->deleted;
	workload_overlap_begin(w);
	start = t0 = timing_now();
	if (w->rmrf_batch != 1 && probe(w) == -1)
		goto fail;
	do {
		if (be->ops->rewind(be, w->dir) == -1)
			goto fail;
		listcheck_start(&ck, w, r);
		pass_removed = 0;
		for (end = false; !end && r->done < left; ) {
			if (read_held(w, &ck, &h, &end, &t0, &paused) == -1)
				goto fail;
			if (unlink_held(w, r, &h, &t0, &paused,
			    &pass_removed) == -1)
				goto fail;
			if (r->loop_at != 0)
				break;
		}
		r->foreign = ck.others;
	} while (r->done < left && pass_removed > 0 && r->loop_at == 0);
	if (workload_overlap_end(w, &t0) == -1)
		goto fail;
	r->elapsed_ns = t0 - start - paused;
	if (r->done == left)
		w->deleted = w->created;
	held_free(&h);
	return 0;
fail:
	saved = errno;
	(void)workload_overlap_end(w, &t0);
	r->elapsed_ns = t0 - start - paused;
	held_free(&h);
	errno = saved;
	return -1;
}

/*
 * rm -rf's reading: the round's names among the next w->rmrf_batch
 * entries of its directory (fewer at its end: '*end'), copied into 'h'
 * in the order they came, checked by 'ck'.  Return 0, or -1 with errno.
 */
static int
read_held(struct workload *w, struct listcheck *ck, struct held *h,
    bool *end, uint64_t *t0, uint64_t *paused)
{
	struct backend	 *be = w->be;
	const char	**batch;
	uint64_t	  seen = 0, most;
	ssize_t		  k, j;
	size_t		  len;

	most = w->rmrf_batch != 0 ? w->rmrf_batch : RMRF_FTS_BATCH;
	h->n = h->used = 0;
	while (!*end && seen < most) {
		if ((k = be->ops->readdir(be, w->dir, &batch, end)) == -1) {
			if (errno == ELOOP && listcheck_eloop(ck) == 0)
				return 0;
			return -1;
		}
		k = listcheck_batch(ck, batch, k, t0, paused, &h->mine,
		    &h->minecap);
		for (j = 0; j < k; j++, seen++) {
			if (!h->mine[j])
				continue;	/* not ours */
			len = strlen(batch[j]) + 1;
			if (h->used + len > h->cap) {
				h->cap = h->cap == 0 ? 65536 : 2 * h->cap;
				h->buf = xreallocarray(h->buf, h->cap, 1);
			}
			if (h->n == h->offcap) {
				h->offcap = h->offcap == 0 ? 1024 :
				    2 * h->offcap;
				h->off = xreallocarray(h->off, h->offcap,
				    sizeof(*h->off));
			}
			memcpy(h->buf + h->used, batch[j], len);
			h->off[h->n++] = h->used;
			h->used += len;
		}
		if (ck->r->loop_at != 0)
			break;
		if (sig_poll != 0 && workload_poll_paused(w, PHASE_RMRF,
		    ck->r->done, t0, paused)) {
			errno = EINTR;
			return -1;
		}
	}
	return 0;
}

/* rm -rf's unlinking: the names 'h' holds, in the order they came. */
static int
unlink_held(struct workload *w, struct workload_result *r,
    const struct held *h, uint64_t *t0, uint64_t *paused,
    uint64_t *removed)
{
	struct backend	*be = w->be;
	uint64_t	 t1;
	size_t		 i;

	for (i = 0; i < h->n; i++) {
		if (be->ops->unlink(be, w->dir, h->buf + h->off[i]) == -1)
			return -1;
		t1 = timing_now();
		stats_hist_add(&r->hist, t1 - *t0);
		*t0 = t1;
		(*removed)++;
		r->done++;
		if (sig_poll != 0 && workload_poll_paused(w, PHASE_RMRF,
		    r->done, t0, paused)) {
			errno = EINTR;
			return -1;
		}
	}
	return 0;
}

/*
 * What GNU rm 9.1 does before fts reads a directory it is to remove: it
 * opens it, reads one getdents64 batch (32 KiB, to learn whether it is
 * empty) and closes it.  Here: from the start, one batch, names unused.
 * Return 0, or -1 with errno.
 */
static int
probe(struct workload *w)
{
	struct backend	 *be = w->be;
	const char	**batch;
	bool		  end;

	if (be->ops->rewind(be, w->dir) == -1 ||
	    be->ops->readdir(be, w->dir, &batch, &end) == -1)
		return -1;
	return 0;
}

/* Free what 'h' holds. */
static void
held_free(struct held *h)
{
	free(h->buf);
	free(h->off);
	free(h->mine);
	memset(h, 0, sizeof(*h));
}
