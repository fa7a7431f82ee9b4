/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * report: what a person reads.  The round lines and the lines around
 * them on stdout, the progress line on stderr (only on a terminal),
 * warnings, the knee lines, what --cleanup did, and the one place that
 * turns an errno into an exit status.
 *
 * report.c is a front-end: it prints.  Core modules hand it what they
 * found through return values and report callbacks; it never changes a
 * result.  -q silences the round lines and the progress line, never an
 * error or a warning.
 */

#ifndef LD_REPORT_H
#define LD_REPORT_H

#include <stdbool.h>
#include <stdint.h>

#include "output.h"
#include "stats.h"
#include "workload.h"

/* Exit statuses (EXIT STATUS in the man page). */
#define EXIT_USAGE	2	/* bad option, bad directory */
#define EXIT_STOPPED	3	/* the filesystem stopped the run */
#define EXIT_TARGET	4	/* the target cannot be set up here */
#define EXIT_SUITE	5	/* a suite target did not complete */

/* What the progress line shows: where the run is. */
struct report_progress {
	unsigned	round;
	uint64_t	n;		/* files in the round */
	uint64_t	run_t0_ns;	/* start of the run */
	uint64_t	budget_ns;
	uint64_t	round_t0_ns;
	double		round_pred_ns;	/* predicted round time, or 0 */
	uint64_t	phase_t0_ns;
};

void	report_init(bool, bool);
bool	report_quiet(void);
bool	report_tty(void);
void	report_clear(void);
void	report_warn(const char *, ...) __attribute__((format(printf, 1, 2)));
void	report_progress(const struct report_progress *, enum phase, uint64_t,
	    uint64_t);
void	report_round(unsigned, uint64_t, bool, const enum phase *, size_t,
	    const double *, const double *, const double *, unsigned,
	    uint64_t);
void	report_knee(const char *, const struct stats_knee *, double);

/*
 * Why a run stops, from the errno of what failed: the exit status, the
 * status the outputs record, and the reason in a few words.
 */
struct report_stop {
	int			status;
	enum output_status	outcome;
	char			why[64];
};

/* What report_stop_status() needs beyond the errno. */
struct report_cause {
	int	signo;		/* the first signal caught, or 0 */
	bool	memory_limit;	/* ENOMEM came from --memory-limit */
	bool	vanished;	/* the work directory is gone */
};

void	report_stop_status(int, const struct report_cause *,
	    struct report_stop *);

/* --cleanup: what each sweep found and did. */
struct backend_report;
struct memcg_report;
struct target_report;
void	report_sweep(void *, const struct backend_report *);
void	report_memcg(void *, const struct memcg_report *);
void	report_target(void *, const struct target_report *);

#endif /* LD_REPORT_H */
