/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * round: one round of a run.  n names, measured --repeat times, each
 * time in a fresh round directory: create, the phases in between, the
 * deletion; --sync and --cold around them, untimed; a row per
 * repetition and, after the last, the round's summary row in the result
 * document.  What a person should hear of on the way (a listing that saw
 * fewer entries than there are files, foreign entries, a busy machine)
 * goes to the caller's note callback; why a round stopped is in
 * round.stop.
 *
 * A listing that went wrong (a readdir loop or lost entries, see
 * workload.h) does not stop its repetition: the round finishes, cleans
 * up and is recorded with it, and then round_loop() stops with
 * round.stop.listing set.
 *
 * round_loop() runs round after round as the schedule of timing.c plans
 * them, telling the caller before and after each.  round.c never prints
 * or exits, so a limited child runs its measuring function too;
 * round_clean() is the caller's way out when a round cannot finish.
 */

#ifndef LD_ROUND_H
#define LD_ROUND_H

#include <stdbool.h>
#include <stdint.h>

#include "backend/backend.h"
#include "base/names.h"
#include "base/timing.h"
#include "engine/churn.h"
#include "engine/runner.h"
#include "engine/workload.h"
#include "machine/perf.h"
#include "record/output.h"
#include "record/record.h"
#include "settings/config.h"
#include "target/target.h"

/* Why a round could not go on. */
struct round_stop {
	int		 err;		/* errno */
	const char	*phase;		/* phase, "round", or NULL: failed
					   before the first repetition */
	uint64_t	 n;		/* files in the round */
	char		 what[160];	/* what it was doing */
	char		 detail[160];	/* the backend's words, or "" */
	bool		 memory_limit;	/* --memory-limit stopped it */
	bool		 vanished;	/* the work directory is gone */
	bool		 listing;	/* a listing went wrong: ELOOP a
					   readdir loop, ENOENT lost
					   entries */
};

/* The first listing of a round that went wrong (workload.h). */
struct round_listing {
	enum phase	 phase;
	unsigned	 rep;
	uint64_t	 loop_at;	/* entry of the loop, or 0 */
	uint64_t	 lost;		/* names never listed */
	char		 odd[NAME_MAX + 1];	/* the name, or the words */
};

enum round_note_kind {
	ROUND_NOTE_SHORT_LIST,		/* a listing saw 'count' of 'n' */
	ROUND_NOTE_FOREIGN,		/* 'count' entries not ours */
	ROUND_NOTE_LOAD,		/* a repetition saw load 'load' */
	ROUND_NOTE_ERROR,		/* 'msg' says what went wrong */
	ROUND_NOTE_STOPPED,		/* the phase lost 'load' seconds */
	ROUND_NOTE_LOOP,		/* a readdir loop at entry 'count'
					   ('msg': the name that came
					   again, or the backend's words) */
	ROUND_NOTE_LOST,		/* 'count' names never listed
					   ('msg': the first) */
	ROUND_NOTE_BUSY,		/* the counters hold calls of
					   others ('msg' names them) */
	ROUND_NOTE_BOXED		/* open stopped after 'count' of
					   'n' files, to end at the budget */
};
#define ROUND_NOTE_KINDS	(ROUND_NOTE_BOXED + 1)

struct round_note {
	enum round_note_kind	 kind;
	enum phase		 phase;
	unsigned		 round;
	uint64_t		 count, n;
	double			 load;
	const char		*where;		/* the round directory */
	const char		*msg;
};

struct round_result;

struct round {
	/* Set by the caller for the whole run. */
	const struct config	*cfg;
	struct backend		*be;
	struct target		*target;	/* --cold=remount */
	struct runner		 runner;	/* --memory-limit */
	struct churn		 churn;		/* --churn */
	struct perf		*perf;		/* --events */
	struct output_doc	*doc;
	size_t			 nperf;		/* perf values per phase */
	size_t			 ncounters;	/* backend counters, after */
	unsigned		 dev_major;	/* the target's device, */
	unsigned		 dev_minor;	/* for its sector counts */
	const char		*inode_slab;	/* its inode cache */
	void			(*on_poll)(void *, enum phase, uint64_t);
	void			(*note)(void *, const struct round_note *);
	/* round_loop(): before and after each round (may be NULL). */
	void			(*planned)(void *, const struct timing_round *);
	void			(*done)(void *, const struct timing_round *,
				    const struct round_result *);
	void			*arg;		/* of the callbacks */

	/* The round under way. */
	unsigned		 k;
	uint64_t		 n;		/* less if time-boxed */
	uint64_t		 t0_ns;		/* its start */
	uint64_t		 phase_t0_ns;	/* the phase's start */
	bool			 deadline;	/* create stops at a deadline,
						   open at its box, */
	uint64_t		 end_ns;	/* for the round to end by
						   then: timing_round.end_ns,
						   on timing_now()'s clock */
	unsigned		 rep;		/* the repetition under way */
	double			 create_ns;	/* its create phase */
	struct timing_shape	 last;		/* the last repetition */
	struct workload		 w;
	struct names		 names;
	uint32_t		*order;
	uint32_t		*sizes;		/* a mailbox's, by message,
						   or NULL */
	uint64_t		*seen;		/* the listing check's bits */
	struct backend_dir	**sub;		/* the tree layout: handles */
	char			*dnames;	/* and names of its
						   subdirectories */
	bool			 broken;	/* a listing went wrong: */
	struct round_listing	 bad;		/* the first */
	double			*rates[PHASE_COUNT];	/* per repetition */
	bool			 in_round;	/* a round directory exists */
	char			 dname[64];	/* its name; w.dir */
	struct round_stop	 stop;
};

/* What a finished round gives the caller. */
struct round_result {
	uint64_t	 n;		/* files made */
	uint64_t	 dirs;		/* the tree layout's directories */
	unsigned	 reps;
	double		 median[PHASE_COUNT];
	double		 min[PHASE_COUNT], max[PHASE_COUNT];
	const double	*rates[PHASE_COUNT];	/* per repetition */
	double		 calls[PHASE_COUNT];	/* per file (ncalls), or NAN */
	/* The first listing that went wrong, if 'broken'. */
	bool		 broken;
	struct round_listing	 bad;
};

void	round_init(struct round *);
int	round_loop(struct round *, struct timing_sched *,
	    struct timing_round *);
int	round_run(struct round *, unsigned, uint64_t, bool, bool,
	    struct round_result *);
int	round_prepare(struct round *, uint64_t);
int	round_clean(struct round *, uint64_t *);
void	round_free(struct round *);

#endif /* LD_ROUND_H */
