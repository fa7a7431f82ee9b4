/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * Unit tests for results.c on the fixture run in tests/data/page/run and
 * on files written here: metadata with the .out escapes undone, rows as
 * numbers, a row a crash cut short skipped, the largest n, and the rate
 * at an n as the median of its repetitions without warm-ups.
 */

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/util.h"
#include "nfs/nfsrpc.h"
#include "record/results.h"

#ifndef TEST_DATA
#define TEST_DATA "tests/data"
#endif

static void
test_read_dir(void **state)
{
	struct results	 r;
	const struct results_target *t;
	char		 err[LD_ERRLEN];
	double		 at, v;
	int		 dfd;

	(void)state;
	dfd = open(TEST_DATA "/page/run", O_RDONLY | O_DIRECTORY);
	assert_true(dfd >= 0);
	assert_int_equal(results_read(&r, dfd, "run", err), 0);
	assert_int_equal(r.nt, 3);
	assert_string_equal(r.t[0].label, "ext4");	/* sorted */
	assert_string_equal(r.t[1].label, "tmpfs");
	assert_string_equal(r.t[2].label, "tmpfs-full");
	t = &r.t[1];
	assert_string_equal(results_meta(t, "target_description"),
	    "tmpfs <b>&\"quotes\"'! in RAM");	/* \x21 undone */
	assert_string_equal(results_meta(t, "status"), "complete");
	assert_null(results_meta(t, "no-such-key"));
	assert_true(results_col(t, "n") >= 0);
	assert_int_equal(results_col(t, "nope"), -1);
	/* Three repetitions at 11,389: the median; the warm-up is not. */
	v = results_rate_at(t, "create", 11389, &at);
	assert_true(v == 200000.0);
	assert_true(at == 11389);
	v = results_rate_at(t, "create", 10000, &at);
	assert_true(v == 200000.0);	/* 11,389 is within 1.25 */
	v = results_rate_at(t, "create", 1000000, &at);
	assert_true(isnan(v) && isnan(at));
	assert_true(isnan(results_rate_at(t, "rmrf", 1000, &at)));
	assert_true(results_max_n(t) >= 11389);
	results_free(&r);
	assert_null(r.t);
	(void)close(dfd);
}

static void
test_read_one_and_cut_rows(void **state)
{
	struct results_target	 t;
	struct results		 r;
	char			 dir[] = "/tmp/largedir-unit.XXXXXX", path[64];
	char			 err[LD_ERRLEN];
	FILE			*fp;
	int			 dfd;

	(void)state;
	assert_non_null(mkdtemp(dir));
	(void)snprintf(path, sizeof(path), "%s/x.out", dir);
	fp = fopen(path, "w");
	assert_non_null(fp);
	(void)fputs("# largedir: 0.1.0\n# label: a\\tb\\\\c\n"
	    "# a comment without a colon\n"
	    "round rep warmup n create_per_s\n"
	    "1 1 0 1000 5.5\n2 1 0 1500 NaN\n3 1 0 2250\n", fp);
	assert_int_equal(fclose(fp), 0);
	dfd = open(dir, O_RDONLY | O_DIRECTORY);
	assert_true(dfd >= 0);
	assert_int_equal(results_read_one(&t, dfd, dir, "x", err), 0);
	assert_string_equal(results_meta(&t, "label"), "a\tb\\c");
	assert_int_equal(t.nrows, 2);		/* the cut row is skipped */
	assert_true(isnan(t.cell[1 * t.ncols + 4]));
	assert_true(results_max_n(&t) == 1500);
	results_target_free(&t);
	assert_int_equal(results_read_one(&t, dfd, dir, "missing", err), -1);
	assert_int_equal(errno, ENOENT);
	assert_non_null(strstr(err, "missing.out"));
	results_target_free(&t);
	assert_int_equal(unlink(path), 0);
	/* A directory named y.out is no target; nothing else is there. */
	(void)snprintf(path, sizeof(path), "%s/y.out", dir);
	assert_int_equal(mkdir(path, 0700), 0);
	assert_int_equal(results_read(&r, dfd, dir, err), -1);
	assert_int_equal(errno, ENOENT);
	assert_non_null(strstr(err, "no .out files"));
	results_free(&r);
	assert_int_equal(rmdir(path), 0);
	(void)close(dfd);
	assert_int_equal(rmdir(dir), 0);
}

/* Columns that count calls of an NFSv3 procedure, and those that do not. */
static void
test_proc(void **state)
{
	static const struct {
		const char	*phase, *col;
		int		 want;
	} cases[] = {
		{ "list", "list_rpc_readdir", 15 },
		{ "list", "list_rpc_READDIRPLUS", 16 },
		{ "list", "list_rpc_getattr", 0 },
		{ "list", "list_rpc_commit", 20 },
		{ "list", "list_rpc_errors", -1 },
		{ "list", "list_rpc_rtt_ns", -1 },
		{ "list", "list_rpc_bytes_out", -1 },
		{ "list", "list_rpc_null", -1 },
		{ "list", "liststat_rpc_lookup", -1 },
		{ "liststat", "list_rpc_lookup", -1 },
		{ "list", "list_readdir", -1 },
		{ "list", "list_rpc_", -1 },
		{ "create", "create_rpc_open", 21 },
		{ "create", "create_rpc_close", 23 },
		{ "delete", "delete_rpc_sequence", 26 },
		{ "delete", "delete_rpc_delegreturn", 27 },
		{ "open", "open_rpc_layoutreturn", 32 },
		{ "open", "open_rpc_other", 33 },
	};
	size_t	i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_int_equal(results_proc(cases[i].phase, cases[i].col),
		    cases[i].want);
	assert_string_equal(results_proc_name(0), "GETATTR");
	assert_string_equal(results_proc_name(15), "READDIR");
	assert_string_equal(results_proc_name(20), "COMMIT");
	assert_string_equal(results_proc_name(RESULTS_NPROC - 1), "OTHER");
	assert_null(results_proc_name(RESULTS_NPROC));
}

/*
 * Every procedure the NFS backend counts (nfsrpc.c) has its row in the
 * RPC tables under its own name: a PHASE_rpc_PROC column it writes is
 * read back as that procedure (RENAME since the Maildir operations).
 */
static void
test_proc_nfsrpc(void **state)
{
	char	col[64];
	int	p;
	size_t	i;

	(void)state;
	for (i = 0; i < NFSRPC_NPROC; i++) {
		(void)snprintf(col, sizeof(col), "list_%s",
		    nfsrpc_counter_names[i]);
		p = results_proc("list", col);
		if (p == -1)
			fail_msg("%s: no procedure of the RPC tables", col);
		assert_string_equal(results_proc_name((size_t)p),
		    nfsrpc_proc_name((int)i));
	}
	assert_int_equal(results_proc("list", "list_rpc_errors"), -1);
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test(test_read_dir),
		cmocka_unit_test(test_read_one_and_cut_rows),
		cmocka_unit_test(test_proc),
		cmocka_unit_test(test_proc_nfsrpc),
	};

	return cmocka_run_group_tests_name("results", tests, NULL, NULL);
}
