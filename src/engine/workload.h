/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * workload: the phases of a round and the random order.
 *
 * A phase is one timed loop over the files of a round directory,
 * calling the backend once per file (or per directory batch when
 * listing).  Everything a loop needs is prepared before its clock starts:
 * the names (names.c), the random order (workload_shuffle), the histogram.
 * Inside the loop there is the operation, one clock read, one histogram
 * update, and one load of sig_poll, which signals and the progress timer
 * put up; what follows it (a signal stops the phase, a tick draws the
 * progress line) runs outside the fast path.
 *
 * The struct workload also remembers which names may exist, so that
 * workload_clean() can remove exactly what the round created, whatever
 * stopped it.
 *
 * Every listing checks itself (list, liststat, and each pass of rmrf):
 * each of the round's names must come exactly once.  A name that comes
 * again, more entries not ours than there can be (the n files, plus
 * what --churn made), or the backend's ELOOP (an NFS cookie handed out
 * twice) is a readdir loop: the listing stops at once, the phase
 * succeeds, and the result says where (loop_at).  A listing that ends
 * without some of the names lost entries (lost).  Both are for the
 * round to report; the files are still cleaned up.
 */

#ifndef LD_WORKLOAD_H
#define LD_WORKLOAD_H

#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "backend/backend.h"
#include "base/names.h"
#include "base/phase.h"
#include "base/stats.h"
#include "base/timing.h"

struct workload_result {
	uint64_t		done;		/* files handled (entries seen
						   when listing) */
	uint64_t		ops;		/* timed operations */
	uint64_t		foreign;	/* entries not ours (listing) */
	uint64_t		loop_at;	/* entry where a readdir loop
						   showed, or 0 */
	uint64_t		lost;		/* names never listed */
	char			odd[NAME_MAX + 1];  /* the name that came
						   again, or the first
						   lost; or the backend's
						   words */
	uint64_t		elapsed_ns;
	struct timing_usage	usage;		/* getrusage difference */
	struct stats_hist	hist;		/* latency of each operation */
};

/* The names first, first + step, ... below end; step 0: all n. */
struct workload_share {
	uint64_t		first, step, end;
};

#define WORKLOAD_BOX_EVERY	64
#define WORKLOAD_DNAME		24	/* bytes of a subdirectory's name */

/* Where a mailbox's messages are (struct workload: 'stage'). */
enum workload_stage {
	WORKLOAD_NEW,		/* new/NAME */
	WORKLOAD_CUR,		/* cur/NAME:2, */
	WORKLOAD_FLAGGED	/* cur/NAME:2,S */
};

/* A mailbox's directories, in struct workload's 'mbox'. */
enum { WORKLOAD_TMP, WORKLOAD_NEWDIR, WORKLOAD_CURDIR };

struct workload {
	struct backend		*be;
	struct backend_dir	*dir;		/* the round directory */
	const struct names	*names;		/* n names of this round */
	const uint32_t		*order;		/* random order for open */
	uint64_t		 n;
	/*
	 * When sig_poll is up, a signal stops the phase (sig_stop(): errno
	 * EINTR; workload_clean() at the second), and a tick of the
	 * progress timer (sig_polled()) calls on_poll(arg, phase, done), if
	 * set, untimed: the progress line.  It never stops a loop.
	 */
	void			(*on_poll)(void *, enum phase, uint64_t);
	void			*arg;
	/*
	 * If not 0, the create phase stops at this timing_now() value,
	 * having created fewer than n files (done < n, no error): the
	 * last round of a run is time-boxed to end at the budget.
	 */
	uint64_t		 deadline_ns;
	/*
	 * If not NULL, the open phase asks it every WORKLOAD_BOX_EVERY
	 * files, with the files opened, the time and the phase's time so
	 * far, whether to stop (done < n, no error): the time box of the
	 * rest of the round (timing_open_stop()).
	 */
	bool			(*open_box)(void *, uint64_t, uint64_t,
				    uint64_t);
	void			*box_arg;
	/*
	 * The tree layout (per_dir > 0): name i lives in subdirectory
	 * i / per_dir of the round directory.  The mkdir phase makes the
	 * 'ndirs' subdirectories (names: 'dnames', WORKLOAD_DNAME bytes
	 * each) into 'sub', the delete phase removes each once it is empty
	 * and sets its handle to NULL.
	 */
	uint64_t		 per_dir;
	uint64_t		 ndirs;
	struct backend_dir	**sub;
	const char		*dnames;
	/*
	 * One client's share of the names, when several share a round
	 * (--clients): create, open and delete take them as 'share' says
	 * (open: the positions of 'order'); a listing reads the whole
	 * directory all the same.  Then 'created' and 'deleted' bound what
	 * this client did: names of its share below 'deleted' are gone,
	 * none from 'created' on was made.
	 */
	struct workload_share	 share;
	/* What may exist, for workload_clean(). */
	uint64_t		 created;	/* names [0, created) */
	uint64_t		 deleted;	/* names [0, deleted) are gone */
	uint64_t		 dirs_made;	/* subdirectories [0, made) */
	uint64_t		 dirs_removed;	/* [0, removed) are gone */
	/*
	 * --workload maildir: the mailbox's tmp/, new/ and cur/ in the round
	 * directory (maildir.c; NULL: a directory's workload), the bytes of
	 * each delivery, and where the messages are after the last phase
	 * that moved them all: in new/ without info, in cur/ with ":2,", or
	 * flagged, ":2,S" (the table's names are cur/'s).  'mixed' says a
	 * phase that moves them stopped part way.
	 */
	unsigned		 rmrf_batch;	/* entries rmrf reads before
						   it unlinks them; 0: fts's */
	struct backend_dir	*mbox[3];
	uint64_t		 mail_size;
	const uint32_t		*sizes;		/* each one's, or NULL */
	enum workload_stage	 stage;
	bool			 mixed;
	/*
	 * The listing check: a bit per name (the caller's, n bits at
	 * least), and how many entries not ours a listing may see (what
	 * --churn made so far; NULL: none).
	 */
	uint64_t		*seen;
	const volatile uint64_t	*others_made;
};

void		 workload_shuffle(uint32_t *, uint64_t, uint64_t);
int		 workload_run(struct workload *, enum phase,
		    struct workload_result *);
int		 workload_clean(struct workload *, uint64_t *);
int		 workload_drop_dir(struct backend *, struct backend_dir **);
/* For the phases of other modules (rmrf.c): see workload.c. */
void		 workload_overlap_begin(struct workload *);
int		 workload_overlap_end(struct workload *, uint64_t *);
bool		 workload_poll_paused(struct workload *, enum phase, uint64_t,
		    uint64_t *, uint64_t *);
size_t		 workload_seen_words(uint64_t);

#endif /* LD_WORKLOAD_H */
