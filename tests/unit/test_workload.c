/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * Unit tests for workload.c with the POSIX backend, on real system calls
 * in a mkdtemp(3) directory: each phase handles every file exactly once,
 * the shuffle is a permutation fixed by its seed, rm -rf leaves foreign
 * names alone, a signal (sig_count, seen when sig_poll is up) stops a
 * phase, the progress callback is called at each tick, and
 * workload_clean() removes exactly what was created.  openat is wrapped
 * (-Wl,--wrap=openat) only to make a create fail with ENOSPC or EMFILE,
 * which a test cannot stage.
 */

#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "backend/backend.h"
#include "base/names.h"
#include "base/sig.h"
#include "base/util.h"
#include "engine/workload.h"

#define N	600

int	__real_openat(int, const char *, int, ...);
int	__wrap_openat(int, const char *, int, ...);

static int	fail_after = -1;	/* creates left before failing */
static int	fail_errno;

/* openat, but the fail_after'th create fails with fail_errno. */
int
__wrap_openat(int dirfd, const char *path, int flags, ...)
{
	va_list	ap;
	mode_t	mode = 0;

	if ((flags & O_CREAT) != 0) {
		va_start(ap, flags);
		mode = (mode_t)va_arg(ap, int);
		va_end(ap);
		if (fail_after == 0) {
			errno = fail_errno;
			return -1;
		}
		if (fail_after > 0)
			fail_after--;
	}
	return __real_openat(dirfd, path, flags, mode);
}

struct fixture {
	char			 dir[64];
	struct backend		 be;
	struct names		 names;
	uint32_t		*order;
	struct workload		 w;
	uint64_t		 stop_at;	/* a signal comes here */
	unsigned		 polls;
};

static void
stop_at(void *arg, enum phase p, uint64_t done)
{
	struct fixture	*f = arg;

	(void)p;
	f->polls++;
	if (done >= f->stop_at) {
		sig_count = 1;		/* as if a signal came now */
		sig_first = SIGINT;
	} else
		sig_poll = sig_tick = 1;	/* a tick at the next file */
}

static int
setup(void **state)
{
	struct backend_opts	 opts = { .names = NAMES_FIXED,
				    .name_len = 8, .seed = 1,
				    .started = "2026-12-01T00:00:00Z" };
	struct fixture		*f;
	char			 err[LD_ERRLEN];

	f = calloc(1, sizeof(*f));
	assert_non_null(f);
	(void)strcpy(f->dir, "/tmp/largedir-unit.XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	assert_int_equal(backend_open(&f->be, &posix_ops, f->dir, &opts, err),
	    0);
	assert_int_equal(names_build(&f->names, NAMES_FIXED, 8, N, 1, 0), 0);
	f->order = calloc(N, sizeof(*f->order));
	assert_non_null(f->order);
	workload_shuffle(f->order, N, 7);
	f->w.be = &f->be;
	f->w.names = &f->names;
	f->w.order = f->order;
	f->w.n = N;
	f->w.seen = calloc(workload_seen_words(N), sizeof(*f->w.seen));
	assert_non_null(f->w.seen);
	f->w.on_poll = stop_at;
	f->w.arg = f;
	f->stop_at = UINT64_MAX;
	assert_int_equal(f->be.ops->mkdir(&f->be, "round-0001-1", N, &f->w.dir),
	    0);
	fail_after = -1;
	*state = f;
	return 0;
}

/* Entries in the round directory, without . and .. */
static size_t
count_entries(struct fixture *f)
{
	struct dirent	*d;
	DIR		*dp;
	char		 path[128];
	size_t		 k = 0;

	(void)snprintf(path, sizeof(path), "%s/round-0001-1", f->be.workdir);
	dp = opendir(path);
	assert_non_null(dp);
	while ((d = readdir(dp)) != NULL)
		if (strcmp(d->d_name, ".") != 0 && strcmp(d->d_name, "..") != 0)
			k++;
	(void)closedir(dp);
	return k;
}

static int
teardown(void **state)
{
	struct fixture	*f = *state;
	char		 path[128], err[LD_ERRLEN];

	(void)snprintf(path, sizeof(path), "%s/round-0001-1/foreign",
	    f->be.workdir);
	(void)unlink(path);
	assert_int_equal(f->be.ops->rmdir(&f->be, f->w.dir, true), 0);
	assert_int_equal(backend_close(&f->be, false, err), 0);
	assert_int_equal(rmdir(f->dir), 0);
	names_free(&f->names);
	free(f->order);
	free(f->w.seen);
	free(f);
	return 0;
}

static void
check_result(const struct workload_result *r, uint64_t done)
{
	assert_int_equal(r->done, done);
	assert_int_equal(r->hist.count, r->ops);
	assert_true(r->hist.max <= r->elapsed_ns);
	assert_true(r->elapsed_ns > 0);
}

static void
test_phases(void **state)
{
	struct fixture		*f = *state;
	struct workload_result	 r;

	assert_int_equal(workload_run(&f->w, PHASE_CREATE, &r), 0);
	check_result(&r, N);
	assert_int_equal(r.ops, N);
	assert_int_equal(f->w.created, N);
	assert_int_equal(count_entries(f), N);

	assert_int_equal(workload_run(&f->w, PHASE_OPEN, &r), 0);
	check_result(&r, N);
	assert_int_equal(r.ops, N);

	assert_int_equal(workload_run(&f->w, PHASE_LIST, &r), 0);
	check_result(&r, N);
	assert_true(r.ops >= 2);	/* at least one batch and the end */

	assert_int_equal(workload_run(&f->w, PHASE_LISTSTAT, &r), 0);
	check_result(&r, N);
	assert_int_equal(r.ops, N);

	assert_int_equal(workload_run(&f->w, PHASE_DELETE, &r), 0);
	check_result(&r, N);
	assert_int_equal(f->w.deleted, N);
	assert_int_equal(count_entries(f), 0);
}

static void
test_rmrf_leaves_foreign(void **state)
{
	struct fixture		*f = *state;
	struct workload_result	 r;
	char			 path[128];
	int			 fd;

	assert_int_equal(workload_run(&f->w, PHASE_CREATE, &r), 0);
	(void)snprintf(path, sizeof(path), "%s/round-0001-1/foreign",
	    f->be.workdir);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
	assert_true(fd >= 0);
	(void)close(fd);
	assert_int_equal(workload_run(&f->w, PHASE_RMRF, &r), 0);
	assert_int_equal(r.done, N);
	assert_int_equal(r.ops, N);
	assert_int_equal(r.foreign, 1);
	assert_int_equal(f->w.deleted, f->w.created);
	assert_int_equal(count_entries(f), 1);
	assert_int_equal(access(path, F_OK), 0);
}

static void
test_poll_stops_and_clean(void **state)
{
	struct fixture		*f = *state;
	struct workload_result	 r;
	uint64_t		 removed;

	sig_poll = sig_tick = 1;	/* the progress timer ticks */
	f->stop_at = 100;
	assert_int_equal(workload_run(&f->w, PHASE_CREATE, &r), -1);
	assert_int_equal(errno, EINTR);
	assert_int_equal(r.done, 100);
	assert_int_equal(f->w.created, 100);
	assert_int_equal(count_entries(f), 100);
	assert_true(f->polls >= 1);

	sig_count = sig_first = sig_poll = sig_tick = 0;
	assert_int_equal(workload_clean(&f->w, &removed), 0);
	assert_int_equal(removed, 100);
	assert_int_equal(count_entries(f), 0);
}

static void
test_delete_interrupted_then_clean(void **state)
{
	struct fixture		*f = *state;
	struct workload_result	 r;
	uint64_t		 removed;

	assert_int_equal(workload_run(&f->w, PHASE_CREATE, &r), 0);
	sig_poll = sig_tick = 1;
	f->stop_at = 250;
	assert_int_equal(workload_run(&f->w, PHASE_DELETE, &r), -1);
	assert_int_equal(errno, EINTR);
	assert_int_equal(f->w.deleted, 250);
	assert_int_equal(count_entries(f), N - 250);
	sig_count = sig_first = sig_poll = sig_tick = 0;
	assert_int_equal(workload_clean(&f->w, &removed), 0);
	assert_int_equal(removed, N - 250);
	assert_int_equal(count_entries(f), 0);
}

static void
test_create_fails(void **state)
{
	static const int	errs[] = { ENOSPC, EMFILE, EDQUOT };
	struct fixture		*f = *state;
	struct workload_result	 r;
	uint64_t		 removed;
	size_t			 i;

	for (i = 0; i < sizeof(errs) / sizeof(errs[0]); i++) {
		fail_after = 123;
		fail_errno = errs[i];
		assert_int_equal(workload_run(&f->w, PHASE_CREATE, &r), -1);
		assert_int_equal(errno, errs[i]);
		assert_int_equal(r.done, 123);
		assert_int_equal(r.ops, 123);
		fail_after = -1;
		/* The failed openat made nothing, clean-up tries it anyway. */
		assert_int_equal(f->w.created, 124);
		assert_int_equal(count_entries(f), 123);
		assert_int_equal(workload_clean(&f->w, &removed), 0);
		assert_int_equal(removed, 123);
		assert_int_equal(count_entries(f), 0);
		f->w.created = f->w.deleted = 0;
	}
}

static void
test_create_eexist_is_not_ours(void **state)
{
	struct fixture		*f = *state;
	struct workload_result	 r;
	uint64_t		 removed;
	char			 path[128];
	int			 fd;

	/* Someone else's file under one of our names. */
	(void)snprintf(path, sizeof(path), "%s/round-0001-1/00000010",
	    f->be.workdir);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
	assert_true(fd >= 0);
	(void)close(fd);
	assert_int_equal(workload_run(&f->w, PHASE_CREATE, &r), -1);
	assert_int_equal(errno, EEXIST);
	assert_int_equal(f->w.created, 10);
	assert_int_equal(workload_clean(&f->w, &removed), 0);
	assert_int_equal(removed, 10);
	assert_int_equal(access(path, F_OK), 0);	/* still there */
	assert_int_equal(unlink(path), 0);
}

/* A time-boxed create stops at its deadline without an error. */
static void
test_create_deadline(void **state)
{
	struct fixture		*f = *state;
	struct workload_result	 r;
	uint64_t		 removed;

	f->w.deadline_ns = timing_now();	/* already passed */
	assert_int_equal(workload_run(&f->w, PHASE_CREATE, &r), 0);
	assert_int_equal(r.done, 1);
	assert_int_equal(f->w.created, 1);
	assert_int_equal(count_entries(f), 1);
	/* Only create is time-boxed; the order is drawn for the new n. */
	f->w.n = 1;
	workload_shuffle(f->order, 1, 7);
	assert_int_equal(workload_run(&f->w, PHASE_OPEN, &r), 0);
	assert_int_equal(r.done, 1);
	assert_int_equal(workload_clean(&f->w, &removed), 0);
	f->w.n = N;
	f->w.created = f->w.deleted = 0;
	f->w.deadline_ns = timing_now() + 3600 * 1000000000ULL;
	assert_int_equal(workload_run(&f->w, PHASE_CREATE, &r), 0);
	assert_int_equal(r.done, N);
	f->w.deadline_ns = timing_now();
	assert_int_equal(workload_run(&f->w, PHASE_DELETE, &r), 0);
	assert_int_equal(r.done, N);
	assert_int_equal(count_entries(f), 0);
}

static void
test_shuffle(void **state)
{
	uint32_t	a[1000], b[1000];
	uint8_t		seen[1000];
	size_t		i, moved = 0;

	(void)state;
	workload_shuffle(a, 1000, 99);
	workload_shuffle(b, 1000, 99);
	assert_memory_equal(a, b, sizeof(a));
	memset(seen, 0, sizeof(seen));
	for (i = 0; i < 1000; i++) {
		assert_true(a[i] < 1000);
		assert_int_equal(seen[a[i]], 0);
		seen[a[i]] = 1;
		if (a[i] != i)
			moved++;
	}
	assert_true(moved > 900);	/* ~999 expected for a shuffle */
	workload_shuffle(b, 1000, 100);
	assert_memory_not_equal(a, b, sizeof(a));
	workload_shuffle(a, 1, 5);
	assert_int_equal(a[0], 0);
	workload_shuffle(a, 0, 5);	/* must not touch anything */
}

static void
test_phase_names(void **state)
{
	enum phase	p, q;

	(void)state;
	for (p = 0; p < PHASE_COUNT; p++) {
		assert_int_equal(phase_parse(phase_name(p),
		    &q), 0);
		assert_int_equal(p, q);
	}
	assert_int_equal(phase_parse("unlink", &q), -1);
	assert_int_equal(phase_parse("", &q), -1);
	assert_string_equal(phase_name(PHASE_COUNT), "cleanup");
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test_setup_teardown(test_phases, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rmrf_leaves_foreign,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_poll_stops_and_clean,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(
		    test_delete_interrupted_then_clean, setup, teardown),
		cmocka_unit_test_setup_teardown(test_create_fails, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_create_eexist_is_not_ours,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_create_deadline, setup,
		    teardown),
		cmocka_unit_test(test_shuffle),
		cmocka_unit_test(test_phase_names),
	};

	return cmocka_run_group_tests_name("workload", tests, NULL, NULL);
}
