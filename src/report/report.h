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
 * result.  The noise checks (noise.c) and the knees (knee.c) find and
 * record in the metadata; report says what they found.  -q silences the
 * round lines and the progress line, never an error or a warning.
 */

#ifndef LD_REPORT_H
#define LD_REPORT_H

#include <stdbool.h>
#include <stdint.h>

#include "base/timing.h"
#include "base/util.h"
#include "engine/round.h"
#include "engine/workload.h"
#include "record/output.h"
#include "report/noise.h"
#include "settings/config.h"

/* What the progress line shows: where the run is. */
struct report_progress {
	unsigned	round;
	uint64_t	n;		/* files in the round */
	uint64_t	total;		/* what the phase handles: n, or a
					   tree's directories too */
	bool		boxed;		/* create stops at a deadline: no
					   share of n to show */
	uint64_t	run_t0_ns;	/* start of the run */
	uint64_t	budget_ns;
	uint64_t	round_t0_ns;
	double		round_pred_ns;	/* predicted round time, or 0 */
	uint64_t	phase_t0_ns;
};

bool	report_parsed(int, const char *, int (*)(FILE *));
void	report_usage(const char *, ...)
	    __attribute__((noreturn, format(printf, 1, 2)));
const char	*report_dir_verb(int, char **, const char *, const char *);
void	report_init(bool, bool);
bool	report_quiet(void);
bool	report_tty(void);
void	report_clear(void);
void	report_warn(const char *, ...) __attribute__((format(printf, 1, 2)));
void	report_progress(const struct report_progress *, enum phase, uint64_t,
	    uint64_t);
void	report_round(unsigned, bool, const enum phase *, size_t,
	    const struct round_result *, uint64_t);
void	report_knees(struct output_doc *, const enum phase *, size_t);

/* The lines that open a run. */
struct report_start {
	const struct config	*cfg;
	const struct output_doc	*doc;		/* fstype, driver, settings */
	const char		*dir;		/* the directory under test */
	const char		*workdir;
	const char		*memcg;		/* --memory-limit's, or NULL */
	const char		*unavailable;	/* events refused, or "" */
};

void	report_start(const struct report_start *);

/*
 * What the noise checks find (noise.c), said: each warns once per run;
 * noise.c records it in the metadata.
 */
void	report_outliers(struct noise *, struct output_doc *, unsigned,
	    const enum phase *, size_t, const struct round_result *);
void	report_swing(struct noise *, struct output_doc *, unsigned,
	    const enum phase *, size_t, const double *);
void	report_note(struct noise *, struct output_doc *, const char *,
	    const struct round_note *);

/* --cleanup: what each sweep found and did. */
struct backend_report;
struct memcg_report;
struct target_report;
void	report_sweep(void *, const struct backend_report *);
void	report_memcg(void *, const struct memcg_report *);
void	report_target(void *, const struct target_report *);

#endif /* LD_REPORT_H */
