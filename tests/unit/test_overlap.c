/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * test_overlap: a backend whose operations overlap (--nfs-window), on the
 * fake backend with its 'window' knob.  A failure then comes back some
 * operations after the one that failed, while those in between took
 * effect; workload.c must still leave clean-up the right range of names:
 * after a failed create or delete phase, workload_clean() removes every
 * file that exists, and none is left in the directory.
 */

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "backend/backend.h"
#include "base/names.h"
#include "base/util.h"
#include "engine/workload.h"
#include "fake.h"

#define N	100
#define W	4

struct fixture {
	struct backend		 be;
	struct names		 names;
	struct workload		 w;
};

static void
never(void *arg, enum phase p, uint64_t done)
{
	(void)arg;
	(void)p;
	(void)done;
}

/* A fake backend with a window of W, and a round directory of N names. */
static int
setup(void **state)
{
	struct backend_opts	 opts = { .names = NAMES_FIXED,
				    .name_len = 8, .seed = 1,
				    .started = "2026-12-01T00:00:00Z" };
	struct fixture		*f;
	char			 err[LD_ERRLEN];

	fake_reset();
	fake_knobs.window = W;
	f = calloc(1, sizeof(*f));
	assert_non_null(f);
	assert_int_equal(backend_open(&f->be, &fake_ops, "fake://t", &opts,
	    err), 0);
	assert_int_equal(f->be.window, W);
	assert_int_equal(names_build(&f->names, NAMES_FIXED, 8, N, 1, 0), 0);
	f->w.be = &f->be;
	f->w.names = &f->names;
	f->w.n = N;
	f->w.on_poll = never;
	f->w.seen = calloc(workload_seen_words(N), sizeof(*f->w.seen));
	assert_non_null(f->w.seen);
	f->w.arg = f;
	assert_int_equal(f->be.ops->mkdir(&f->be, "round-0001-1", N,
	    &f->w.dir), 0);
	*state = f;
	return 0;
}

static int
teardown(void **state)
{
	struct fixture	*f = *state;
	char		 err[LD_ERRLEN];

	(void)f->be.ops->rmdir(&f->be, f->w.dir, true);
	(void)backend_close(&f->be, false, err);
	names_free(&f->names);
	free(f->w.seen);
	free(f);
	fake_reset();
	return 0;
}

/* How many of the round's names are in the directory. */
static size_t
present(struct fixture *f)
{
	size_t	i, k = 0;

	for (i = 0; i < N; i++)
		if (f->be.ops->stat(&f->be, f->w.dir, names_get(&f->names,
		    i)) == 0)
			k++;
	return k;
}

/*
 * Run phase 'p', which must fail with 'e' and leave 'created' and
 * 'deleted' as given; then clean up, which must leave no file.
 */
static void
fail_then_clean(struct fixture *f, enum phase p, int e, uint64_t created,
    uint64_t deleted)
{
	struct workload_result	r;
	uint64_t		removed;

	assert_int_equal(workload_run(&f->w, p, &r), -1);
	assert_int_equal(errno, e);
	assert_int_equal(f->w.created, created);
	assert_int_equal(f->w.deleted, deleted);
	assert_int_equal(workload_clean(&f->w, &removed), 0);
	assert_int_equal(present(f), 0);
}

/*
 * The 11th create fails; its failure comes back at the 15th, after the
 * 12th to the 14th made their files: clean-up must reach them.
 */
static void
test_create_fails_early(void **state)
{
	struct fixture	*f = *state;

	fake_knobs.fail_after = 10;
	fake_knobs.fail_errno = ENOSPC;
	fail_then_clean(f, PHASE_CREATE, ENOSPC, 15, 0);
}

/* A failure of one of the last creates comes back at the end. */
static void
test_create_fails_last(void **state)
{
	struct fixture	*f = *state;

	fake_knobs.fail_after = N - 2;
	fake_knobs.fail_errno = EDQUOT;
	fail_then_clean(f, PHASE_CREATE, EDQUOT, N, 0);
}

/*
 * The 51st unlink fails and its file stays; the failure comes back at
 * the 55th.  Clean-up must start at the first of the window before it
 * (the 51st), not at the 55th, or it would leave that file behind.
 */
static void
test_delete_fails(void **state)
{
	struct fixture		*f = *state;
	struct workload_result	 r;

	assert_int_equal(workload_run(&f->w, PHASE_CREATE, &r), 0);
	assert_int_equal(present(f), N);
	fake_knobs.unlink_fail_after = 50;
	fail_then_clean(f, PHASE_DELETE, EIO, N, 54 - W);
}

/* Without failures, overlapping phases do every file once. */
static void
test_no_failure(void **state)
{
	struct fixture		*f = *state;
	struct workload_result	 r;
	uint64_t		 removed;

	assert_int_equal(workload_run(&f->w, PHASE_CREATE, &r), 0);
	assert_int_equal(r.done, N);
	assert_int_equal(present(f), N);
	assert_int_equal(workload_run(&f->w, PHASE_DELETE, &r), 0);
	assert_int_equal(r.done, N);
	assert_int_equal(present(f), 0);
	assert_int_equal(workload_clean(&f->w, &removed), 0);
	assert_int_equal(removed, 0);
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test_setup_teardown(test_create_fails_early, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_create_fails_last, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_delete_fails, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_no_failure, setup,
		    teardown),
	};

	return cmocka_run_group_tests_name("overlap", tests, NULL, NULL);
}
