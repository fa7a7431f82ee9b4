/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/* maildir: see maildir.h. */

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "base/names.h"
#include "base/sig.h"
#include "engine/maildir.h"

/* The mailbox's directories, in the order of struct workload's 'mbox'. */
static const char *const dirs[] = { "tmp", "new", "cur" };

/* A message's info where it is (enum workload_stage). */
static const char *const infos[] = { "", NAMES_INFO, NAMES_INFO "S" };

static const char	*form(const struct workload *, uint64_t,
			    enum workload_stage, char *);
static struct backend_dir *where(const struct workload *,
			    enum workload_stage);
static int		 close_dirs(struct workload *);

/*
 * Make the mailbox in the round directory, untimed: tmp/, new/ and cur/,
 * with the messages to come in new/.  Return 0, or -1 with errno (what
 * was made is in w->mbox, for maildir_clean()).
 */
int
maildir_open(struct workload *w)
{
	size_t	d;

	memset(w->mbox, 0, sizeof(w->mbox));
	w->stage = WORKLOAD_NEW;
	w->mixed = false;
	for (d = 0; d < sizeof(dirs) / sizeof(dirs[0]); d++)
		if (w->be->ops->subdir(w->be, w->dir, dirs[d], &w->mbox[d]) ==
		    -1) {
			w->mbox[d] = NULL;
			return -1;
		}
	return 0;
}

/* Message 'i''s name in 'st', the table's or in 'buf' (NAME_MAX + 1). */
static const char *
form(const struct workload *w, uint64_t i, enum workload_stage st, char *buf)
{
	const char	*s = names_get(w->names, i);
	size_t		 len;

	if (st == WORKLOAD_CUR)
		return s;
	len = strlen(s) - (sizeof(NAMES_INFO) - 1);
	memcpy(buf, s, len);
	(void)strcpy(buf + len, infos[st]);
	return buf;
}

/* The directory of the messages in 'st'. */
static struct backend_dir *
where(const struct workload *w, enum workload_stage st)
{
	return w->mbox[st == WORKLOAD_NEW ? WORKLOAD_NEWDIR : WORKLOAD_CURDIR];
}

/*
 * Phase 'p''s operation on message 'i', in the timed loop: the backend's
 * call and nothing else but the copy of a name.  A flag, a read and an
 * expunge find it where the last phase that moved them all left it.
 */
int
maildir_op(struct workload *w, enum phase p, uint64_t i)
{
	struct backend	*be = w->be;
	char		 a[NAME_MAX + 1], b[NAME_MAX + 1];

	switch (p) {
	case PHASE_DELIVER:
		return be->ops->deliver(be, w->mbox[WORKLOAD_TMP],
		    w->mbox[WORKLOAD_NEWDIR], form(w, i, WORKLOAD_NEW, a),
		    w->sizes != NULL ? w->sizes[i] : w->mail_size);
	case PHASE_MOVE:
		return be->ops->rename(be, w->mbox[WORKLOAD_NEWDIR],
		    form(w, i, WORKLOAD_NEW, a), w->mbox[WORKLOAD_CURDIR],
		    form(w, i, WORKLOAD_CUR, b));
	case PHASE_FLAG:
		return be->ops->rename(be, where(w, w->stage),
		    form(w, i, w->stage, a), w->mbox[WORKLOAD_CURDIR],
		    form(w, i, WORKLOAD_FLAGGED, b));
	case PHASE_READ:
		return be->ops->readfile(be, where(w, w->stage),
		    form(w, i, w->stage, a));
	case PHASE_EXPUNGE:
		return be->ops->unlink(be, where(w, w->stage),
		    form(w, i, w->stage, a));
	default:
		errno = EINVAL;
		return -1;
	}
}

/*
 * Phase 'p' is over, in the process that runs the round ('whole': it
 * went through every message): a move or a flag puts them all where it
 * took them, or, stopped part way, leaves them in two places.
 */
void
maildir_done(struct workload *w, enum phase p, bool whole)
{
	if (p != PHASE_MOVE && p != PHASE_FLAG)
		return;
	if (!whole)
		w->mixed = true;
	else if (!w->mixed)
		w->stage = p == PHASE_MOVE ? WORKLOAD_CUR : WORKLOAD_FLAGGED;
}

/* The info the names a listing meets have now, or NULL: no mailbox. */
const char *
maildir_info(const struct workload *w)
{
	return w->mbox[WORKLOAD_NEWDIR] != NULL ? infos[w->stage] : NULL;
}

/*
 * Remove, untimed, what is left of the mailbox: the messages [deleted,
 * created) wherever they may be (a delivery cut short leaves one in
 * tmp/ or new/; a move or a flag stopped part way, in either place), and
 * tmp/, new/ and cur/.  Return 0, or -1 with errno (EINTR: a second
 * signal).
 */
int
maildir_clean(struct workload *w, uint64_t *removed)
{
	uint64_t	i;
	int		rc;

	*removed = 0;
	for (i = w->deleted; i < w->created; i++) {
		if ((rc = maildir_remove(w, i)) == -1) {
			w->deleted = i;
			return -1;
		}
		*removed += (uint64_t)rc;
		if (sig_poll != 0 && sig_stop(true)) {
			w->deleted = i + 1;
			errno = EINTR;
			return -1;
		}
	}
	w->deleted = w->created;
	return close_dirs(w);
}

/*
 * Unlink message 'i' wherever it may be, untimed.  Return 1, or 0 when
 * it is nowhere, or -1 with errno.
 */
int
maildir_remove(struct workload *w, uint64_t i)
{
	static const struct {
		int			d;
		enum workload_stage	st;
	} places[] = {
		{ WORKLOAD_NEWDIR, WORKLOAD_NEW },
		{ WORKLOAD_TMP, WORKLOAD_NEW },
		{ WORKLOAD_CURDIR, WORKLOAD_CUR },
		{ WORKLOAD_CURDIR, WORKLOAD_FLAGGED }
	};
	char		 a[NAME_MAX + 1];
	size_t		 k;

	for (k = 0; k < sizeof(places) / sizeof(places[0]); k++) {
		if (w->mbox[places[k].d] == NULL || (!w->mixed &&
		    places[k].st != w->stage))
			continue;
		if (w->be->ops->unlink(w->be, w->mbox[places[k].d],
		    form(w, i, places[k].st, a)) == 0)
			return 1;
		if (errno != ENOENT)
			return -1;
	}
	return 0;
}

/*
 * Remove tmp/, new/ and cur/ and drop their handles; one already gone is
 * fine, one that cannot be removed (a foreign file in it) keeps its
 * handle, and the others still go.  Return 0, or -1 with the errno of
 * the first that stayed.
 */
static int
close_dirs(struct workload *w)
{
	size_t		 d;
	int		 saved = 0;

	for (d = 0; d < sizeof(dirs) / sizeof(dirs[0]); d++)
		if (w->mbox[d] != NULL &&
		    workload_drop_dir(w->be, &w->mbox[d]) == -1 && saved == 0)
			saved = errno;
	errno = saved;
	return saved == 0 ? 0 : -1;
}
