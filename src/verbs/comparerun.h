/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * comparerun: the runs of a comparison (largedir compare) and what they
 * left.  Every repetition is a largedir of its own (one round of n
 * files, its own set-up and teardown), in the order of pairs_side();
 * what it writes on its standard error is shown as it comes and its
 * last line kept, and its outputs in the comparison's runs/ are read
 * back for its times and its stop reason.  The functions that ask what
 * the runs left (which completed, the row of a phase, how the whole
 * ended) are what compare.c, compareout.c and the page are made from.
 *
 * Part of the compare verb, so a front-end: compare_run_one() prints a
 * line per run.  compare.c fills in the settings of struct compare_run
 * and the arrays of the runs, and frees it with compare_run_free().
 */

#ifndef LD_COMPARERUN_H
#define LD_COMPARERUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "record/output.h"
#include "report/pairs.h"
#include "settings/config.h"

/* One side of the comparison: a config file or a directory. */
struct compare_run_side {
	const char	*arg;		/* as given */
	bool		 dir;		/* a directory, not a config */
	char		 label[57];	/* of its runs, without ".PAIR" */
};

/* A comparison under way: its settings and the repetitions that ran. */
struct compare_run {
	struct config		 cfg;
	struct compare_run_side	 side[2];	/* A, B */
	char			*pass[CONFIG_MAX_PASS];	/* options for each
							   run */
	size_t			 npass;
	const char		*out;		/* the comparison's directory */
	char			*runs;		/* out/runs: their outputs */
	uint64_t		 n;
	uint64_t		 dirs;		/* the tree layout's, or 0 */
	unsigned		 pairs;
	unsigned		 nrun;		/* the repetitions that ran */
	double			*ns;		/* their times, PHASE_COUNT
						   each */
	int			*ws;		/* their wait statuses */
	char			**why;		/* one that did not complete:
						   why */
	char			 seed[32];
	char			 nbuf[32];
};

int	compare_run_setup(struct compare_run *, const struct compare_run_side *,
	    int *);
int	compare_run_one(struct compare_run *, unsigned);
bool	compare_run_completed(const struct compare_run *, unsigned);
unsigned
	compare_run_complete(const struct compare_run *);
int	compare_run_exit(int);
enum output_status
	compare_run_outcome(const struct compare_run *);
int	compare_run_row(const struct compare_run *, size_t, struct pairs_row *);
double	compare_run_entries(const struct compare_run *, size_t);
void	compare_run_free(struct compare_run *);

#endif /* LD_COMPARERUN_H */
