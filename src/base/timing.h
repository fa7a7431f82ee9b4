/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * timing: the monotonic clock, resource usage snapshots, the growth
 * schedule and the time budget.
 *
 * Every time largedir reports comes from timing_now() (CLOCK_MONOTONIC in
 * nanoseconds).  The budget functions are pure: they see only numbers the
 * caller passes in, so they are unit-tested with synthetic rounds.
 */

#ifndef LD_TIMING_H
#define LD_TIMING_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "base/plan.h"

/* Monotonic time in nanoseconds.  Inline: it is read once per operation. */
static inline uint64_t
timing_now(void)
{
	struct timespec	ts;

	(void)clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* What getrusage(RUSAGE_SELF) says, in the units largedir reports. */
struct timing_usage {
	uint64_t	user_ns;	/* user CPU time */
	uint64_t	sys_ns;		/* system CPU time */
	uint64_t	vcsw;		/* voluntary context switches */
	uint64_t	ivcsw;		/* involuntary context switches */
	uint64_t	inblock;	/* blocks read (512-byte units) */
	uint64_t	oublock;	/* blocks written */
	uint64_t	maxrss_kib;	/* peak resident set size */
};

int	timing_usage(struct timing_usage *);
void	timing_usage_diff(const struct timing_usage *,
	    const struct timing_usage *, struct timing_usage *);

uint64_t	timing_decade_above(uint64_t);
uint64_t	timing_next_n(uint64_t, double, uint64_t);

enum timing_policy {
	TIMING_PREDICT,		/* plan the rounds to end at the budget */
	TIMING_CLASSIC		/* start rounds until the budget has passed */
};

/*
 * Share of the budget kept in reserve: the planned rounds end this much
 * before the budget, for what the run does after its last round (the
 * summary, the knees) and what a prediction cannot know.
 */
#define TIMING_SLACK	0.02

uint64_t	timing_budget_end(uint64_t, uint64_t);
uint64_t	timing_create_deadline(uint64_t, uint64_t, double, unsigned);

/*
 * How the time of the last TIMING_SHAPE_LEN repetitions fell, for the
 * deadlines of the next round (timing_shape_add()): their time, their
 * create phase's, their open phase's and the time after open (the
 * phases after it, their syncs).  Create's share and the ratio of after
 * open to open are taken over all of them, so each counts by its time:
 * on a busy machine one short repetition's figures are off by a tenth
 * or more.  A repetition without an open phase adds no ratio.
 */
#define TIMING_SHAPE_LEN	3

struct timing_shape {
	double		round_ns[TIMING_SHAPE_LEN];
	double		create_ns[TIMING_SHAPE_LEN];
	unsigned	nshares;		/* all there were */
	double		open_ns[TIMING_SHAPE_LEN];
	double		after_ns[TIMING_SHAPE_LEN];
	unsigned	nratios;
};

void	timing_shape_add(struct timing_shape *, double, double, double,
	    double);
double	timing_shape_share(const struct timing_shape *);
double	timing_shape_ratio(const struct timing_shape *);

/*
 * The open phase's time box stops it no earlier than TIMING_OPEN_MIN
 * files and 1/TIMING_OPEN_PART of n: a pace measured on fewer is
 * noise, and stopping at the first of many looks that says "too slow"
 * would believe it.
 */
#define TIMING_OPEN_MIN		1000
#define TIMING_OPEN_PART	20

bool	timing_open_stop(const struct timing_shape *, uint64_t, uint64_t,
	    uint64_t, uint64_t, uint64_t, double, unsigned);

/* ===== The schedule of a run ===== */

/* A clock: the monotonic one (timing_monotonic), or a test's. */
struct timing_clock {
	uint64_t	(*now)(void *);
	void		*arg;
};

extern const struct timing_clock	timing_monotonic;

/*
 * The last round is time-boxed: it may make up to this many times the n
 * predicted to fit, and its create phase stops in time for the round to
 * end at the budget.
 */
#define TIMING_TIMEBOX_FACTOR	3

/* Why a schedule ended. */
enum timing_end {
	TIMING_END_BUDGET,	/* the budget is spent, or the next round
				   would overrun it */
	TIMING_END_MAX		/* the largest n: --max-files, what the
				   names allow, the free inodes */
};

/* Whether a plan was made before a round. */
enum timing_plan_event {
	TIMING_PLAN_NONE,
	TIMING_PLAN_MADE,	/* the run's first */
	TIMING_PLAN_REDONE,	/* a round missed its prediction by more than
				   the margin, or the plan's last round ended
				   with time left */
	TIMING_PLAN_DROPPED	/* so, but now more rounds than the plan's
				   fit, or --max-files comes first: n grows
				   by the growth factor again */
};

/*
 * A round below the largest n so far, run after it: knee refinement
 * until the knee's interval is no wider than this ratio.
 */
#define TIMING_REFINE_RATIO	1.1

/* Rounds whose n the schedule keeps, for the rounds that fill in. */
#define TIMING_MADE_MAX		256

/* What a round is for. */
enum timing_kind {
	TIMING_GROW,		/* the growing n, the plan's last rounds */
	TIMING_REFINE,		/* inside the knee's interval, halving it */
	TIMING_FILL		/* between two rounds, with time the growing
				   rounds could not use */
};

/* The next round, as timing_sched_next() plans it. */
struct timing_round {
	unsigned		k;		/* its number, from 1 */
	uint64_t		n;		/* files (the most, if
						   time-boxed) */
	bool			warmup;
	enum timing_kind	kind;
	uint64_t		gap_lo;		/* not TIMING_GROW: between */
	uint64_t		gap_hi;		/* the rounds of these n */
	bool			deadline;	/* create stops in time for
						   the round to end at the
						   budget */
	uint64_t		end_ns;		/* when the rounds must end:
						   timing_sched.end_ns */
	bool			timebox;	/* the last round: sized to
						   end at the budget */
	uint64_t		n_about;	/* time-boxed: predicted n */
	double			pred_ns;	/* predicted wall time, or 0 */
	/* A plan made before this round: */
	enum timing_plan_event	plan_event;
	struct plan		plan;
	double			plan_end_ns;	/* its predicted end, from
						   the run's start */
	unsigned		redo_k;		/* redone: after round
						   redo_k, */
	double			redo_took_ns;	/* which took this */
	double			redo_pred_ns;	/* and was predicted this */
	/* When the schedule has ended: */
	enum timing_end		end;
	uint64_t		left_ns;	/* budget left */
};

/* Everything the rules of the budget need, for a whole run. */
struct timing_sched {
	const struct timing_clock	*clock;
	enum timing_policy		 policy;
	struct plan_costs		 costs;
	uint64_t			 t0_ns;		/* start of the run */
	uint64_t			 budget_ns;
	uint64_t			 end_ns;	/* the rounds': the one
							   timing_budget_end()
							   of the run */
	double				 growth;
	unsigned			 repeat, warmup;
	uint64_t			 max;		/* largest n */
	unsigned			 k;		/* rounds planned */
	uint64_t			 n, n_prev;	/* growth schedule */
	uint64_t			 round_t0_ns;
	struct timing_round		 cur;		/* being run */
	struct plan_model		 model;		/* cur was planned */
	bool				 have_model;	/* with this */
	struct plan			 plan;		/* being followed */
	bool				 plan_on;
	bool				 plan_missed;	/* it was dropped */
	unsigned			 plan_i;	/* its next round */
	unsigned			 plans;		/* made so far */
	unsigned			 last_k;	/* the round before */
	double				 last_took_ns, last_pred_ns;
	bool				 ended;
	bool				 nobox;		/* no round is
							   time-boxed */
	uint64_t			 made[TIMING_MADE_MAX];
	unsigned			 nmade;		/* rounds made, by n */
	uint64_t			 knee_lo;	/* timing_sched_knee() */
	uint64_t			 knee_hi;
};

void	timing_sched_init(struct timing_sched *, const struct timing_clock *,
	    uint64_t, uint64_t, enum timing_policy, uint64_t, uint64_t,
	    double, unsigned, unsigned);
bool	timing_sched_next(struct timing_sched *, struct timing_round *);
void	timing_sched_done(struct timing_sched *, uint64_t);
void	timing_sched_knee(struct timing_sched *, uint64_t, uint64_t);

#endif /* LD_TIMING_H */
