/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * workload: see workload.h.
 *
 * Latencies are chained: each operation's latency runs from the end of the
 * previous one to its own end, so the loop reads the clock once per
 * operation and the latencies add up to the phase's elapsed time.  The
 * phase's clock starts right before the first operation and stops at the
 * end of the last.
 */

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/sig.h"
#include "base/util.h"
#include "engine/listcheck.h"
#include "engine/maildir.h"
#include "engine/rmrf.h"
#include "engine/workload.h"

typedef int	(*file_op)(struct backend *, struct backend_dir *,
		    const char *);

static int	each_file(struct workload *, enum phase, file_op,
		    const uint32_t *, struct workload_result *);
static void	reached(struct workload *, enum phase, uint64_t, bool, int);
static void	share_bounds(const struct workload *, uint64_t *, uint64_t *,
		    uint64_t *);
static int	make_dirs(struct workload *, struct workload_result *);
static int	delete_tree(struct workload *, struct workload_result *);
static int	list_dir(struct workload *, bool, struct workload_result *);
static int	clean_dirs(struct workload *);
static bool	polled(struct workload *, enum phase, uint64_t);
static bool	vanished_other(const struct workload *, const char *);

/*
 * Fill 'order' with a random permutation of 0 .. 'n'-1 drawn from 'seed'
 * (Fisher-Yates with an unbiased bounded draw): the same seed always
 * gives the same order.
 */
void
workload_shuffle(uint32_t *order, uint64_t n, uint64_t seed)
{
	uint64_t	state = seed, i, j;
	uint32_t	tmp;

	for (i = 0; i < n; i++)
		order[i] = (uint32_t)i;
	for (i = n; i > 1; i--) {
		j = util_below(&state, i);
		tmp = order[i - 1];
		order[i - 1] = order[j];
		order[j] = tmp;
	}
}

/*
 * Run phase 'p' over the current round directory and store what it
 * measured in 'r'.  Return 0 when every file was handled, or -1 with
 * errno: the operation's error, or EINTR when a signal stopped the phase;
 * 'r' then holds what was done up to that point.
 */
int
workload_run(struct workload *w, enum phase p, struct workload_result *r)
{
	struct timing_usage	u0;
	int			rc, saved;

	memset(r, 0, sizeof(*r));
	stats_hist_reset(&r->hist);
	if (timing_usage(&u0) == -1)
		return -1;
	switch (p) {
	case PHASE_CREATE:
		rc = each_file(w, p, w->be->ops->create, NULL, r);
		break;
	case PHASE_OPEN:
		rc = each_file(w, p, w->be->ops->openclose, w->order, r);
		break;
	case PHASE_LIST:
		rc = list_dir(w, false, r);
		break;
	case PHASE_LISTSTAT:
		rc = list_dir(w, true, r);
		break;
	case PHASE_DELETE:
		rc = w->per_dir == 0 ? each_file(w, p, w->be->ops->unlink,
		    NULL, r) : delete_tree(w, r);
		break;
	case PHASE_MKDIR:
		rc = make_dirs(w, r);
		break;
	case PHASE_RMRF:
		rc = rmrf_run(w, r);
		break;
	case PHASE_SCAN:
		rc = list_dir(w, true, r);
		break;
	case PHASE_DELIVER:
	case PHASE_MOVE:
	case PHASE_EXPUNGE:
		rc = each_file(w, p, NULL, NULL, r);	/* maildir_op() */
		break;
	case PHASE_FLAG:
	case PHASE_READ:
		rc = each_file(w, p, NULL, w->order, r);
		break;
	default:
		errno = EINVAL;
		return -1;
	}
	saved = errno;
	if (timing_usage(&r->usage) == -1)
		return -1;
	timing_usage_diff(&u0, &r->usage, &r->usage);
	r->ops = r->hist.count;
	errno = saved;
	return rc;
}

/* The directory that name 'i' lives in. */
static inline struct backend_dir *
dir_of(const struct workload *w, uint64_t i)
{
	return w->per_dir == 0 ? w->dir : w->sub[i / w->per_dir];
}

/* Let the backend overlap the operations of a phase (backend.h). */
void
workload_overlap_begin(struct workload *w)
{
	if (w->be->ops->overlap != NULL)
		(void)w->be->ops->overlap(w->be, true);
}

/*
 * The operations of the phase have all been called: wait until they are
 * done, and move '*t0', the end of the last, to now.  Return 0, or -1
 * with errno if one failed.
 */
int
workload_overlap_end(struct workload *w, uint64_t *t0)
{
	int	rc;

	if (w->be->ops->overlap == NULL)
		return 0;
	rc = w->be->ops->overlap(w->be, false);
	*t0 = timing_now();
	return rc;
}

/*
 * The loop of create, open and delete: 'op' on every file, in creation
 * order, or in 'order' if it is not NULL.  Create may stop at its
 * deadline and open where its box says (struct workload), having done
 * fewer than n.
 */
static int
each_file(struct workload *w, enum phase p, file_op op,
    const uint32_t *order, struct workload_result *r)
{
	struct backend		*be = w->be;
	struct backend_dir	*dir = w->dir, **sub = w->sub;
	uint64_t		 i, j, idx, start, t0, t1, paused = 0;
	uint64_t		 deadline, check, per = w->per_dir;
	uint64_t		 lo = 0, st = 1, hi = w->n;
	bool			(*box)(void *, uint64_t, uint64_t, uint64_t);
	int		 rc = 0, saved = 0;
	bool		 opfail = false;

	share_bounds(w, &lo, &st, &hi);
	deadline = phase_makes(p) && w->deadline_ns != 0 ?
	    w->deadline_ns : UINT64_MAX;
	/* Open's box, asked every WORKLOAD_BOX_EVERY files: a countdown. */
	box = p == PHASE_OPEN ? w->open_box : NULL;
	check = box != NULL ? WORKLOAD_BOX_EVERY : UINT64_MAX;
	workload_overlap_begin(w);
	start = t0 = timing_now();
	/*
	 * dir, sub and per in locals: what 'w' points to would be loaded
	 * again after every call of 'op'.  i is the name (or the position
	 * in 'order'), j counts the files done.
	 */
	for (i = lo, j = 0; i < hi; i += st, j++) {
		idx = order != NULL ? order[i] : i;
		if ((op != NULL ? op(be, per == 0 ? dir : sub[idx / per],
		    names_get(w->names, idx)) : maildir_op(w, p, idx)) == -1) {
			saved = errno;
			rc = -1;
			opfail = true;
			break;
		}
		t1 = timing_now();
		stats_hist_add(&r->hist, t1 - t0);
		t0 = t1;
		if (t1 >= deadline) {
			i += st;
			j++;
			break;
		}
		if (--check == 0) {
			check = WORKLOAD_BOX_EVERY;
			if (box(w->box_arg, j + 1, t1, t1 - start - paused)) {
				i += st;
				j++;
				break;
			}
		}
		if (sig_poll != 0 && workload_poll_paused(w, p, j + 1, &t0,
		    &paused)) {
			i += st;
			j++;
			saved = EINTR;
			rc = -1;
			break;
		}
	}
	if (workload_overlap_end(w, &t0) == -1) {
		if (rc == 0)
			saved = errno;
		rc = -1;
		opfail = true;
	}
	r->elapsed_ns = t0 - start - paused;
	r->done = j;
	reached(w, p, i, opfail, saved);
	errno = saved;
	return rc;
}

/*
 * After the loop of phase 'p', which stopped before name 'i' (or past
 * the end of its share; 'opfail': an operation failed, with errno
 * 'saved'): how far a create or a delete got, in w->created and
 * w->deleted, for the clean-up.  Outside the timed loop.
 */
static void
reached(struct workload *w, enum phase p, uint64_t i, bool opfail,
    int saved)
{
	uint64_t	lo = 0, st = 1, hi = w->n, win = w->be->window;

	share_bounds(w, &lo, &st, &hi);
	if (i > hi)
		i = hi;			/* a share's last step overshoots */
	if (phase_makes(p))
		/*
		 * A create (a delivery) that failed after openat (in write,
		 * fsync or close) leaves its file behind, and so may one
		 * interrupted while its request was on the wire (NFS), so
		 * clean-up must try it; EEXIST means the name is someone
		 * else's.  Of a share, 'created' bounds the names this client
		 * made.
		 */
		w->created = opfail && saved != EEXIST && i < hi ? i + 1 : i;
	else if (phase_removes(p) && opfail && win > 1)
		/* The last 'window' called may not be gone. */
		w->deleted = i > lo + win * st ? i - win * st : lo;
	else if (phase_removes(p))
		w->deleted = i;
}

/*
 * The names of one client's share (--clients): from 'lo' up to 'hi' in
 * steps of 'st'; left as they are (all names) without a share.
 */
static void
share_bounds(const struct workload *w, uint64_t *lo, uint64_t *st,
    uint64_t *hi)
{
	if (w->share.step == 0)
		return;
	*lo = w->share.first;
	*st = w->share.step;
	*hi = w->share.end < w->n ? w->share.end : w->n;
}

/*
 * The tree layout's mkdir phase: make the subdirectories, in order.
 */
static int
make_dirs(struct workload *w, struct workload_result *r)
{
	struct backend	*be = w->be;
	uint64_t	 d, start, t0, t1, paused = 0;
	int		 rc = 0, saved = 0;

	start = t0 = timing_now();
	for (d = w->dirs_made; d < w->ndirs; d++) {
		if (be->ops->subdir(be, w->dir, w->dnames + d *
		    WORKLOAD_DNAME, &w->sub[d]) == -1) {
			saved = errno;
			rc = -1;
			break;
		}
		w->dirs_made = d + 1;
		t1 = timing_now();
		stats_hist_add(&r->hist, t1 - t0);
		t0 = t1;
		if (sig_poll != 0 && workload_poll_paused(w, PHASE_MKDIR,
		    d + 1, &t0, &paused)) {
			d++;
			saved = EINTR;
			rc = -1;
			break;
		}
	}
	r->elapsed_ns = t0 - start - paused;
	r->done = d;
	errno = saved;
	return rc;
}

/*
 * The tree layout's delete: the files in creation order, and each
 * subdirectory as soon as it is empty, as rm -rf of the tree removes
 * it; the subdirectories that a time-boxed create left empty at the end.
 * Done counts both, files and directories.  A backend that overlaps its
 * operations finishes a directory's before it removes the directory.
 */
static int
delete_tree(struct workload *w, struct workload_result *r)
{
	struct backend	*be = w->be;
	uint64_t	 d, i, first, end, start, t0, t1, paused = 0;
	int		 rc = 0, saved = 0;

	start = t0 = timing_now();
	for (d = w->dirs_removed; d < w->dirs_made && rc == 0; d++) {
		first = d * w->per_dir;
		end = first + w->per_dir < w->created ? first + w->per_dir :
		    w->created;
		workload_overlap_begin(w);
		for (i = first > w->deleted ? first : w->deleted; i < end;
		    i++) {
			if (be->ops->unlink(be, w->sub[d], names_get(w->names,
			    i)) == -1) {
				saved = errno;
				rc = -1;
				break;
			}
			t1 = timing_now();
			stats_hist_add(&r->hist, t1 - t0);
			t0 = t1;
			r->done++;
			if (sig_poll != 0 && workload_poll_paused(w,
			    PHASE_DELETE, r->done, &t0, &paused)) {
				saved = EINTR;
				rc = -1;
				break;
			}
		}
		if (workload_overlap_end(w, &t0) == -1 && rc == 0) {
			saved = errno;
			rc = -1;
		}
		if (rc == -1)
			break;	/* workload_clean() tries the rest */
		if (end > w->deleted)
			w->deleted = end;
		if (be->ops->rmdir(be, w->sub[d], true) == -1) {
			saved = errno;
			rc = -1;
			break;
		}
		w->sub[d] = NULL;
		w->dirs_removed = d + 1;
		t1 = timing_now();
		stats_hist_add(&r->hist, t1 - t0);
		t0 = t1;
		r->done++;
	}
	r->elapsed_ns = t0 - start - paused;
	errno = saved;
	return rc;
}

/*
 * ls -f (getdents64 only) or, with 'stat', ls -lU (and fstatat each); in
 * the tree layout, of every subdirectory in turn, opening each inside
 * the timing.  The listing checks itself: a loop stops it at once, and
 * the phase ends with r->loop_at set; lost entries show in r->lost.
 */
static int
list_dir(struct workload *w, bool stat, struct workload_result *r)
{
	struct backend		 *be = w->be;
	struct backend_dir	 *dir = w->dir;
	struct backend_dir	**dirs = w->sub;
	struct listcheck	  ck;
	const char		**batch;
	uint64_t		  start, t0, t1, paused = 0, d, ndirs;
	ssize_t			  k, j;
	bool			  end, flat = w->per_dir == 0;
	enum phase		  p = stat ? PHASE_LISTSTAT : PHASE_LIST;
	int			  saved;

	listcheck_start(&ck, w, r);
	ndirs = flat ? 1 : w->dirs_made;
	if (w->mbox[WORKLOAD_NEWDIR] != NULL) {
		/* A mailbox's scan: new/, then cur/. */
		p = PHASE_SCAN;
		dirs = w->mbox + WORKLOAD_NEWDIR;
		ndirs = 2;
		flat = false;
	}
	if (flat && be->ops->rewind(be, dir) == -1)
		return -1;
	if (stat)
		workload_overlap_begin(w);
	start = t0 = timing_now();
	for (d = 0; d < ndirs && r->loop_at == 0; d++) {
		if (!flat) {
			dir = dirs[d];
			if (be->ops->rewind(be, dir) == -1)
				goto fail;
		}
		for (end = false; !end; ) {
			if ((k = be->ops->readdir(be, dir, &batch, &end)) ==
			    -1) {
				if (errno == ELOOP && listcheck_eloop(&ck) == 0)
					break;
				goto fail;
			}
			if (!stat) {
				t1 = timing_now();
				stats_hist_add(&r->hist, t1 - t0);
				t0 = t1;
			}
			k = listcheck_batch(&ck, batch, k, &t0, &paused, NULL,
			    NULL);
			for (j = 0; stat && j < k; j++) {
				if (be->ops->stat(be, dir, batch[j]) == -1 &&
				    !vanished_other(w, batch[j]))
					goto fail;
				t1 = timing_now();
				stats_hist_add(&r->hist, t1 - t0);
				t0 = t1;
			}
			r->done += (uint64_t)k;
			if (r->loop_at != 0)
				break;
			if (sig_poll != 0 && workload_poll_paused(w, p,
			    r->done, &t0, &paused)) {
				errno = EINTR;
				goto fail;
			}
		}
	}
	if (stat && workload_overlap_end(w, &t0) == -1)
		goto fail;
	r->elapsed_ns = t0 - start - paused;
	if (r->loop_at == 0)
		listcheck_end(&ck);
	return 0;
fail:
	saved = errno;
	if (stat)
		(void)workload_overlap_end(w, &t0);
	r->elapsed_ns = t0 - start - paused;
	errno = saved;
	return -1;
}

/*
 * sig_poll is up in phase 'p' after 'done': on a tick of the progress
 * timer call on_poll.  Return whether a signal stops the phase (a
 * clean-up, PHASE_COUNT: only a second one).
 */
static bool
polled(struct workload *w, enum phase p, uint64_t done)
{
	if (sig_polled() && w->on_poll != NULL)
		w->on_poll(w->arg, p, done);
	return sig_stop(p == PHASE_COUNT);
}

/*
 * polled(), in a timed loop: the time it takes (drawing the progress
 * line) is kept out of the phase, added to '*paused', and the next
 * latency starts after it.
 */
bool
workload_poll_paused(struct workload *w, enum phase p, uint64_t done,
    uint64_t *t0, uint64_t *paused)
{
	uint64_t	t;
	bool		stop;

	stop = polled(w, p, done);
	t = timing_now();
	*paused += t - *t0;
	*t0 = t;
	return stop;
}

/*
 * Remove, untimed, every name this round may have left: those created and
 * not yet deleted in creation order, and then in the tree layout the
 * subdirectories not yet removed.  Names already gone (ENOENT) are fine.
 * At a second signal (sig_stop()), give up.  Store how many
 * files were removed in '*removed'.  Return 0, or -1 with errno (EINTR
 * when abandoned) at the first other error.
 */
int
workload_clean(struct workload *w, uint64_t *removed)
{
	struct backend_dir	*dir;
	uint64_t		 i;

	if (w->mbox[WORKLOAD_NEWDIR] != NULL || w->mbox[WORKLOAD_TMP] != NULL)
		return maildir_clean(w, removed);
	*removed = 0;
	for (i = w->deleted; i < w->created; i++) {
		if ((dir = dir_of(w, i)) == NULL)
			continue;	/* never made: nothing in it */
		if (w->be->ops->unlink(w->be, dir, names_get(w->names, i)) ==
		    -1) {
			if (errno == ENOENT)
				continue;
			w->deleted = i;
			return -1;
		}
		(*removed)++;
		if (sig_poll != 0 && polled(w, PHASE_COUNT, *removed)) {
			w->deleted = i + 1;
			errno = EINTR;
			return -1;
		}
	}
	w->deleted = w->created;
	return clean_dirs(w);
}

/*
 * Remove the tree's subdirectories that are still there, untimed, and
 * drop their handles; one already gone is fine, one that cannot be
 * removed (a foreign file in it) keeps its handle, and the others still
 * go.  Return 0, or -1 with the errno of the first that stayed.
 */
static int
clean_dirs(struct workload *w)
{
	struct backend	*be = w->be;
	uint64_t	 d;
	int		 saved = 0;

	for (d = w->dirs_removed; d < w->dirs_made; d++) {
		if (w->sub[d] == NULL)
			continue;
		if (workload_drop_dir(be, &w->sub[d]) == -1) {
			if (saved == 0)
				saved = errno;
			continue;
		}
		if (d == w->dirs_removed)
			w->dirs_removed = d + 1;
	}
	errno = saved;
	return saved == 0 ? 0 : -1;
}

/*
 * Remove the directory of handle '*d' (a subdirectory of a round) and
 * drop the handle: 0 when it is gone, as when it was already; -1 with
 * errno when it stays (a foreign file in it), its handle too.
 */
int
workload_drop_dir(struct backend *be, struct backend_dir **d)
{
	if (be->ops->rmdir(be, *d, true) == -1) {
		if (errno != ENOENT)
			return -1;
		(void)be->ops->rmdir(be, *d, false);
	}
	*d = NULL;
	return 0;
}

/* The uint64_t words of a workload's 'seen' bits for 'n' names. */
size_t
workload_seen_words(uint64_t n)
{
	return (size_t)((n + 63) / 64);
}

/*
 * A stat of 'name' failed: whether that is fine because the name, not one
 * of the round's files, was removed since it was listed (--churn's, as
 * ls -lU finds such a name gone).
 */
static bool
vanished_other(const struct workload *w, const char *name)
{
	uint64_t	idx;

	return errno == ENOENT && w->others_made != NULL &&
	    !names_lookup(w->names, name, &idx);
}
