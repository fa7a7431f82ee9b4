/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * plan: what a round will cost, and the last rounds of a run.
 *
 * Pure functions of the numbers passed in; timing.c's schedule calls
 * them between rounds, and tests/unit/test_plan.c simulates whole runs
 * with them.  See plan.c for the model and the rule.
 */

#ifndef LD_PLAN_H
#define LD_PLAN_H

#include <stdbool.h>
#include <stdint.h>

/* Rounds the cost model is fitted to: the latest ones. */
#define PLAN_HIST	8

/* Rounds whose prediction errors make the margin: the latest ones. */
#define PLAN_MISSES	3

/*
 * The plan is made once no more than this many rounds at x --growth fit
 * in what is left of the budget; before, rounds simply grow.
 */
#define PLAN_TAIL	3

/* The rounds of a plan: the tail, and a decade it must not skip. */
#define PLAN_ROUNDS	(PLAN_TAIL + 1)

/* The margin, a share of each prediction, stays within these. */
#define PLAN_MARGIN_MIN	0.08
#define PLAN_MARGIN_MAX	0.30

/* What the last rounds cost. */
struct plan_costs {
	unsigned	len;			/* rounds kept, oldest first */
	uint64_t	n[PLAN_HIST];
	double		cost_ns[PLAN_HIST];	/* per file and repetition */
	unsigned	nmiss;			/* misses kept, oldest first */
	double		miss[PLAN_MISSES];	/* |took / predicted - 1| */
};

/* The per-file cost k * n^a, in nanoseconds. */
struct plan_model {
	double	k;
	double	a;				/* in [0, 1] */
};

/* The remaining rounds, as plan_make() chose them. */
struct plan {
	unsigned	m;			/* 1 to PLAN_ROUNDS */
	uint64_t	n[PLAN_ROUNDS];		/* the last: about this many */
	double		pred_ns[PLAN_ROUNDS];	/* each, without the margin */
	double		margin;			/* the margin it was made with */
};

/* What plan_make() found. */
enum plan_kind {
	PLAN_NONE,	/* more than PLAN_TAIL rounds fit, or --max-files
			   comes first: rounds grow as usual */
	PLAN_MADE,	/* '*p' holds the remaining rounds */
	PLAN_NOFIT	/* not even one round at x growth fits */
};

void	plan_costs_add(struct plan_costs *, uint64_t, unsigned, uint64_t,
	    double);
bool	plan_fit(const struct plan_costs *, struct plan_model *);
double	plan_margin(const struct plan_costs *);
double	plan_time(const struct plan_model *, uint64_t, unsigned);
uint64_t	plan_fit_n(const struct plan_model *, double, unsigned,
	    uint64_t);
enum plan_kind
	plan_make(const struct plan_model *, double, uint64_t, double,
	    uint64_t, unsigned, double, struct plan *);

#endif /* LD_PLAN_H */
