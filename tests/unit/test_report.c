/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * test_report: the one mapping from an errno to an exit status and a
 * recorded outcome (outcome_of(), table-driven: every errno the
 * man page names, with and without a signal, the memory limit and a
 * vanished work directory), the knee of a phase as record_knee() finds
 * it in the rows of a result document (warm-up rows and rows without a
 * rate left out, points sorted by n), as the run reports it, and the
 * time a phase lost to a stop or a pause (record_lost_time()).
 */

#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "base/stats.h"
#include "record/output.h"
#include "record/record.h"
#include "report/outcome.h"
#include "report/report.h"

#define NELEM(a)	(sizeof(a) / sizeof((a)[0]))

static void
test_stop_status(void **state)
{
	static const struct {
		int			 e;
		struct outcome_cause	 cause;
		int			 status;
		enum output_status	 outcome;
		const char		*why;
	} cases[] = {
		{ ENOSPC, { 0, false, false, false }, EXIT_STOPPED, OUTPUT_STOPPED,
		    "No space left on device" },
		{ EDQUOT, { 0, false, false, false }, EXIT_STOPPED, OUTPUT_STOPPED,
		    "Disk quota exceeded" },
		{ EMFILE, { 0, false, false, false }, EXIT_STOPPED, OUTPUT_STOPPED,
		    "Too many open files" },
		{ ENFILE, { 0, false, false, false }, EXIT_STOPPED, OUTPUT_STOPPED,
		    "Too many open files in system" },
		{ EROFS, { 0, false, false, false }, EXIT_STOPPED, OUTPUT_STOPPED,
		    "Read-only file system" },
		{ EACCES, { 0, false, false, false }, EXIT_STOPPED, OUTPUT_STOPPED,
		    "Permission denied" },
		{ EPERM, { 0, false, false, false }, EXIT_STOPPED, OUTPUT_STOPPED,
		    "Operation not permitted" },
		/* The work directory vanished, or only a name did. */
		{ ENOENT, { 0, false, true, false }, EXIT_STOPPED, OUTPUT_STOPPED,
		    "the work directory vanished" },
		{ ESTALE, { 0, false, true, false }, EXIT_STOPPED, OUTPUT_STOPPED,
		    "the work directory vanished" },
		{ ENOTDIR, { 0, false, true, false }, EXIT_STOPPED, OUTPUT_STOPPED,
		    "the work directory vanished" },
		{ ENOENT, { 0, false, false, false }, 1, OUTPUT_FAILED,
		    "No such file or directory" },
		/* Signals. */
		{ EINTR, { SIGINT, false, false, false }, 130, OUTPUT_INTERRUPTED,
		    "interrupted by SIGINT" },
		{ EINTR, { SIGTERM, false, false, false }, 143, OUTPUT_INTERRUPTED,
		    "interrupted by SIGTERM" },
		{ EINTR, { SIGPIPE, false, false, false }, 141, OUTPUT_INTERRUPTED,
		    "interrupted by SIGPIPE" },
		{ EINTR, { 0, false, false, false }, 1, OUTPUT_FAILED,
		    "Interrupted system call" },
		/* The memory limit, or memory short for largedir itself. */
		{ ENOMEM, { 0, true, false, false }, EXIT_STOPPED, OUTPUT_STOPPED,
		    "out of memory" },
		{ ENOMEM, { 0, false, false, false }, 1, OUTPUT_FAILED,
		    "Cannot allocate memory" },
		/* A listing went round, or lost entries. */
		{ ELOOP, { 0, false, false, true }, EXIT_LISTING,
		    OUTPUT_STOPPED, "readdir loop" },
		{ ENOENT, { 0, false, false, true }, EXIT_LISTING,
		    OUTPUT_STOPPED, "entries lost in a listing" },
		{ ENOENT, { 0, false, true, true }, EXIT_LISTING,
		    OUTPUT_STOPPED, "entries lost in a listing" },
		{ ELOOP, { 0, false, false, false }, 1, OUTPUT_FAILED,
		    "Too many levels of symbolic links" },
		/* Anything else is a failure. */
		{ EIO, { 0, false, false, false }, 1, OUTPUT_FAILED,
		    "Input/output error" },
		{ EPERM + 1000, { SIGINT, true, true, false }, 1,
		    OUTPUT_FAILED, "Unknown error 1001" },
		/* The limited child or a client died: a failure, named. */
		{ ECHILD, { SIGINT, true, true, false }, 1, OUTPUT_FAILED,
		    "a measuring process died" },
	};
	struct outcome		out;
	size_t			i;

	(void)state;
	for (i = 0; i < NELEM(cases); i++) {
		outcome_of(cases[i].e, &cases[i].cause, &out);
		assert_int_equal(out.status, cases[i].status);
		assert_int_equal(out.outcome, cases[i].outcome);
		assert_string_equal(out.why, cases[i].why);
	}
}

/* A table with the columns the knee needs and 'm' rows. */
static void
rows(struct output_table *t, const double *n, const double *rate,
    const double *warm, size_t m)
{
	double	*row;
	size_t	 i;

	output_table_init(t);
	(void)output_table_col(t, "round", -1);
	(void)output_table_col(t, "warmup", -1);
	(void)output_table_col(t, "n", -1);
	(void)output_table_col(t, "open_per_s", 1);
	for (i = 0; i < m; i++) {
		row = output_table_row(t);
		row[0] = (double)i + 1;
		row[1] = warm[i];
		row[2] = n[i];
		row[3] = rate[i];
	}
}

static void
test_knee(void **state)
{
	/* A plateau, then a lasting fall; out of order and with noise. */
	static const double	n[] = { 1000, 1500, 3375, 2250, 5062, 7593,
				    11390, 17085, 500 };
	static const double	rate[] = { 100000, 101000, 99000, 100500,
				    30000, 29000, 28000, NAN, 1 };
	static const double	warm[] = { 0, 0, 0, 0, 0, 0, 0, 0, 1 };
	static const double	flat[] = { 100000, 101000, 99000, 100500,
				    98000, 99500, 100000, 99000, 1 };
	struct output_table	t;
	struct stats_knee	k;

	(void)state;
	rows(&t, n, rate, warm, NELEM(n));
	assert_int_equal(record_knee(&t, "open", 0.5, &k), 0);
	assert_int_equal(k.shape, STATS_KNEE);
	assert_true(k.n == 5062);
	assert_true(k.before > 90000 && k.after < 35000);
	/* No such phase, or no such columns. */
	assert_int_equal(record_knee(&t, "list", 0.5, &k), -1);
	output_table_free(&t);

	rows(&t, n, flat, warm, NELEM(n));
	assert_int_equal(record_knee(&t, "open", 0.5, &k), 0);
	assert_int_equal(k.shape, STATS_FLAT);
	output_table_free(&t);

	rows(&t, n, rate, warm, 2);
	assert_int_equal(record_knee(&t, "open", 0.5, &k), 0);
	assert_int_equal(k.shape, STATS_TOO_FEW);
	output_table_free(&t);
}

/* Time a phase lost to a stop or a pause, from its own counts. */
static void
test_lost_time(void **state)
{
	static const struct {
		double	ns, user_ns, sys_ns, vcsw, ivcsw;
		bool	lost;
	} cases[] = {
		/* 2 s neither on the CPU nor in a few switches: lost. */
		{ 4e9, 1e9, 1e9, 2, 3, true },
		/* The same 2 s in 100 waits for the disk: not lost. */
		{ 4e9, 1e9, 1e9, 100, 0, false },
		/* Under a second unexplained: not worth a word. */
		{ 1.5e9, 0.5e9, 0.4e9, 0, 0, false },
		/* A long phase, 20% unexplained: under the share. */
		{ 100e9, 40e9, 40e9, 0, 0, false },
		/* Preemptions count like waits. */
		{ 4e9, 1e9, 1e9, 10, 29, true },
		{ 4e9, 1e9, 1e9, 0, 41, false },
	};
	struct phase_rec	ph;
	size_t			i;

	(void)state;
	for (i = 0; i < NELEM(cases); i++) {
		record_phase_init(&ph);
		ph.ns = cases[i].ns;
		ph.user_ns = cases[i].user_ns;
		ph.sys_ns = cases[i].sys_ns;
		ph.vcsw = cases[i].vcsw;
		ph.ivcsw = cases[i].ivcsw;
		assert_int_equal(record_lost_time(&ph), cases[i].lost);
	}
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test(test_stop_status),
		cmocka_unit_test(test_knee),
		cmocka_unit_test(test_lost_time),
	};

	return cmocka_run_group_tests_name("report", tests, NULL, NULL);
}
