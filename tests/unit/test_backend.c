/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * test_backend: the backend conformance suite.  Every backend runs the
 * same cases, through its ops table only: posix in a mkdtemp(3)
 * directory with real system calls, and the unit tests' in-memory fake.
 * What they check is what the phases and the round rely on: create,
 * openclose, stat and unlink with their EEXIST and ENOENT; a listing
 * sees every name exactly once, also while names are removed under it
 * (rm -rf); several round directories at once; a directory with names in
 * it is not removed and its handle stays; release() and reacquire();
 * close() removes the work directory or keeps it for sweep(); counters
 * only grow.  Then the registry: backends by name and by URL scheme.
 *
 * With LARGEDIR_NFS_URL set (tests/sh/t_nfs.sh sets it to the server it
 * starts), the NFS backend runs the same cases against that server, and
 * then test_maildir_calls counts the calls each Maildir operation sends
 * there, exactly (nfsbmail.h says which and why).
 */

#include <sys/wait.h>

#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "backend/backend.h"
#include "backend/nfsb.h"
#include "backend/nfsopt.h"
#include "base/kv.h"
#include "base/names.h"
#include "base/util.h"
#include "fake.h"

#define N	1000

/* One backend under test: its ops and where its work directories go. */
struct impl {
	const struct backend_ops	*ops;
	char				 target[512];
	struct backend			 be;
	struct names			 names;
};

static struct impl	posix_impl = { &posix_ops, "", { 0 }, { 0 } };
static struct impl	fake_impl = { &fake_ops, "fake://conformance",
			    { 0 }, { 0 } };
static struct impl	nfs_impl = { &nfsb_ops, "", { 0 }, { 0 } };

static int	setup(void **);
static int	teardown(void **);
static void	keep_one(struct impl *);
static void	keep_files(struct impl *);

/* Open a backend of the kind the test's state names. */
static int
setup(void **state)
{
	struct impl		*im = *state;
	struct backend_opts	 opts = { .names = NAMES_FIXED,
				    .name_len = 8, .seed = 1,
				    .started = "2026-12-01T00:00:00Z" };
	char			 err[LD_ERRLEN];

	fake_reset();
	if (im->ops == &posix_ops) {
		(void)strcpy(im->target, "/tmp/test_backend.XXXXXX");
		assert_non_null(mkdtemp(im->target));
	}
	assert_int_equal(backend_open(&im->be, im->ops, im->target, &opts,
	    err), 0);
	assert_non_null(im->be.workdir);
	assert_int_equal(names_build(&im->names, NAMES_FIXED, 8, N, 1, 0), 0);
	return 0;
}

/* Close it: the work directory must go (every test empties it). */
static int
teardown(void **state)
{
	struct impl	*im = *state;
	char		 err[LD_ERRLEN];

	assert_int_equal(backend_close(&im->be, false, err), 0);
	names_free(&im->names);
	if (im->ops == &posix_ops)
		assert_int_equal(rmdir(im->target), 0);
	else if (im->ops == &fake_ops)
		assert_int_equal(fake_workdirs(im->target), 0);
	/* NFS: t_nfs.sh lists the export afterwards. */
	return 0;
}

/* Read all of 'd' and count what it holds; each name must come once. */
static size_t
list_all(struct impl *im, struct backend_dir *d, bool *seen)
{
	const char	**batch;
	uint64_t	  idx;
	ssize_t		  k, j;
	size_t		  total = 0, calls = 0;
	bool		  end = false;

	assert_int_equal(im->be.ops->rewind(&im->be, d), 0);
	while (!end) {
		k = im->be.ops->readdir(&im->be, d, &batch, &end);
		assert_true(k >= 0);
		assert_true(++calls < 10 * N);
		for (j = 0; j < k; j++) {
			assert_string_not_equal(batch[j], ".");
			assert_string_not_equal(batch[j], "..");
			assert_true(names_lookup(&im->names, batch[j], &idx));
			if (seen != NULL) {
				assert_false(seen[idx]);
				seen[idx] = true;
			}
			total++;
		}
	}
	/* After the end, the end again. */
	assert_int_equal(im->be.ops->readdir(&im->be, d, &batch, &end), 0);
	assert_true(end);
	return total;
}

static void
test_file_ops(void **state)
{
	struct impl		*im = *state;
	struct backend		*be = &im->be;
	struct backend_dir	*d;
	const char		*a = names_get(&im->names, 0);

	assert_int_equal(be->ops->mkdir(be, "round-0001-1", N, &d), 0);
	assert_int_equal(be->ops->openclose(be, d, a), -1);
	assert_int_equal(errno, ENOENT);
	assert_int_equal(be->ops->stat(be, d, a), -1);
	assert_int_equal(errno, ENOENT);
	assert_int_equal(be->ops->create(be, d, a), 0);
	assert_int_equal(be->ops->create(be, d, a), -1);
	assert_int_equal(errno, EEXIST);
	assert_int_equal(be->ops->openclose(be, d, a), 0);
	assert_int_equal(be->ops->stat(be, d, a), 0);
	assert_false(be->ops->vanished(be, d));
	assert_int_equal(be->ops->unlink(be, d, a), 0);
	assert_int_equal(be->ops->unlink(be, d, a), -1);
	assert_int_equal(errno, ENOENT);
	assert_int_equal(be->ops->sync(be), 0);
	assert_int_equal(be->ops->rmdir(be, d, true), 0);
}

static void
test_list_complete(void **state)
{
	struct impl		*im = *state;
	struct backend		*be = &im->be;
	struct backend_dir	*d;
	bool			*seen;
	size_t			 i;

	seen = calloc(N, sizeof(*seen));
	assert_non_null(seen);
	assert_int_equal(be->ops->mkdir(be, "round-0001-1", N, &d), 0);
	assert_int_equal(list_all(im, d, NULL), 0);
	for (i = 0; i < N; i++)
		assert_int_equal(be->ops->create(be, d,
		    names_get(&im->names, i)), 0);
	assert_int_equal(list_all(im, d, seen), N);
	for (i = 0; i < N; i++)
		assert_true(seen[i]);
	/* Twice: rewind starts again. */
	assert_int_equal(list_all(im, d, NULL), N);
	for (i = 0; i < N; i++)
		assert_int_equal(be->ops->unlink(be, d,
		    names_get(&im->names, i)), 0);
	assert_int_equal(list_all(im, d, NULL), 0);
	assert_int_equal(be->ops->rmdir(be, d, true), 0);
	free(seen);
}

/* rm -rf: remove what a listing returns while reading on, pass by pass. */
static void
test_remove_while_listing(void **state)
{
	struct impl		 *im = *state;
	struct backend		 *be = &im->be;
	struct backend_dir	 *d;
	const char		**batch;
	size_t			  i, removed = 0, passes = 0;
	ssize_t			  k, j;
	bool			  end;

	assert_int_equal(be->ops->mkdir(be, "round-0001-1", N, &d), 0);
	for (i = 0; i < N; i++)
		assert_int_equal(be->ops->create(be, d,
		    names_get(&im->names, i)), 0);
	while (removed < N) {
		assert_true(++passes < 10);
		assert_int_equal(be->ops->rewind(be, d), 0);
		for (end = false; !end; ) {
			k = be->ops->readdir(be, d, &batch, &end);
			assert_true(k >= 0);
			for (j = 0; j < k; j++) {
				assert_int_equal(be->ops->unlink(be, d,
				    batch[j]), 0);
				removed++;
			}
		}
	}
	assert_int_equal(removed, N);
	assert_int_equal(list_all(im, d, NULL), 0);
	assert_int_equal(be->ops->rmdir(be, d, true), 0);
}

/* Two round directories at once, and one that is not empty. */
static void
test_two_dirs(void **state)
{
	struct impl		*im = *state;
	struct backend		*be = &im->be;
	struct backend_dir	*d1, *d2, *d3;
	const char		*a = names_get(&im->names, 1);

	assert_int_equal(be->ops->mkdir(be, "round-0001-1", N, &d1), 0);
	assert_int_equal(be->ops->mkdir(be, "round-0001-1", N, &d3), -1);
	assert_int_equal(errno, EEXIST);
	assert_int_equal(be->ops->mkdir(be, "round-0001-2", N, &d2), 0);
	assert_int_equal(be->ops->create(be, d1, a), 0);
	assert_int_equal(be->ops->stat(be, d2, a), -1);
	assert_int_equal(errno, ENOENT);
	assert_int_equal(be->ops->create(be, d2, a), 0);
	assert_int_equal(list_all(im, d1, NULL), 1);
	/* Not empty: not removed, and the handle still works. */
	assert_int_equal(be->ops->rmdir(be, d1, true), -1);
	assert_int_equal(errno, ENOTEMPTY);
	assert_int_equal(be->ops->stat(be, d1, a), 0);
	assert_int_equal(be->ops->unlink(be, d1, a), 0);
	assert_int_equal(be->ops->rmdir(be, d1, true), 0);
	assert_int_equal(be->ops->unlink(be, d2, a), 0);
	assert_int_equal(be->ops->rmdir(be, d2, true), 0);
}

/*
 * Subdirectories (the tree layout): every operation works in one as in a
 * round directory, also after release(); its parent is not empty while
 * it is there; rmdir() removes it from its parent.
 */
static void
test_subdirs(void **state)
{
	struct impl		*im = *state;
	struct backend		*be = &im->be;
	struct backend_dir	*d, *s0, *s1, *s2;
	char			 err[LD_ERRLEN];
	const char		*a = names_get(&im->names, 0);
	const char		*b = names_get(&im->names, 1);

	assert_int_equal(be->ops->mkdir(be, "round-0001-1", N, &d), 0);
	assert_int_equal(be->ops->subdir(be, d, "d00000000", &s0), 0);
	assert_int_equal(be->ops->subdir(be, d, "d00000001", &s1), 0);
	assert_int_equal(be->ops->subdir(be, d, "d00000000", &s2), -1);
	assert_int_equal(errno, EEXIST);
	assert_int_equal(be->ops->create(be, s0, a), 0);
	assert_int_equal(be->ops->create(be, s1, b), 0);
	assert_int_equal(be->ops->create(be, s1, b), -1);
	assert_int_equal(errno, EEXIST);
	assert_int_equal(be->ops->openclose(be, s0, a), 0);
	assert_int_equal(be->ops->openclose(be, s0, b), -1);
	assert_int_equal(errno, ENOENT);
	assert_int_equal(be->ops->stat(be, s1, b), 0);
	assert_int_equal(list_all(im, s0, NULL), 1);
	assert_int_equal(list_all(im, s1, NULL), 1);
	assert_false(be->ops->vanished(be, s1));
	assert_int_equal(be->ops->release(be), 0);
	assert_int_equal(be->ops->reacquire(be, err), 0);
	assert_int_equal(be->ops->stat(be, s0, a), 0);
	assert_int_equal(list_all(im, s1, NULL), 1);
	assert_int_equal(be->ops->rmdir(be, s0, true), -1);
	assert_int_equal(errno, ENOTEMPTY);
	assert_int_equal(be->ops->unlink(be, s0, a), 0);
	assert_int_equal(be->ops->rmdir(be, s0, true), 0);
	assert_int_equal(be->ops->rmdir(be, d, true), -1);
	assert_int_equal(errno, ENOTEMPTY);
	assert_int_equal(be->ops->unlink(be, s1, b), 0);
	assert_int_equal(be->ops->rmdir(be, s1, true), 0);
	assert_int_equal(be->ops->rmdir(be, d, true), 0);
}

/*
 * A Maildir's operations: a delivery lands in new/ and nowhere else (a
 * name delivered again replaces the first); rename moves a name between directories and
 * within one; readfile reads what is there and ENOENT what is not; and
 * a mailbox can be emptied and removed.
 */
static void
test_maildir(void **state)
{
	struct impl		*im = *state;
	struct backend		*be = &im->be;
	struct backend_dir	*d, *tmp, *new, *cur;
	const char		*a = names_get(&im->names, 0);
	const char		*b = names_get(&im->names, 1);

	if ((be->ops->flags & BACKEND_MAILDIR) == 0)
		skip();
	assert_int_equal(be->ops->mkdir(be, "round-0001-1", N, &d), 0);
	assert_int_equal(be->ops->subdir(be, d, "tmp", &tmp), 0);
	assert_int_equal(be->ops->subdir(be, d, "new", &new), 0);
	assert_int_equal(be->ops->subdir(be, d, "cur", &cur), 0);
	assert_int_equal(be->ops->deliver(be, tmp, new, a, 4096), 0);
	assert_int_equal(be->ops->deliver(be, tmp, new, b, 0), 0);
	/* The same name again replaces it, as rename(2) does. */
	assert_int_equal(be->ops->deliver(be, tmp, new, a, 10), 0);
	assert_int_equal(list_all(im, tmp, NULL), 0);
	assert_int_equal(list_all(im, new, NULL), 2);
	assert_int_equal(be->ops->readfile(be, new, a), 0);
	assert_int_equal(be->ops->readfile(be, cur, a), -1);
	assert_int_equal(errno, ENOENT);
	/* new/ to cur/, then within cur/ (here under the same name). */
	assert_int_equal(be->ops->rename(be, new, a, cur, a), 0);
	assert_int_equal(be->ops->rename(be, new, a, cur, a), -1);
	assert_int_equal(errno, ENOENT);
	assert_int_equal(be->ops->stat(be, cur, a), 0);
	assert_int_equal(be->ops->stat(be, new, a), -1);
	assert_int_equal(be->ops->rename(be, cur, a, cur, a), 0);
	assert_int_equal(be->ops->rename(be, new, b, cur, b), 0);
	assert_int_equal(list_all(im, new, NULL), 0);
	assert_int_equal(list_all(im, cur, NULL), 2);
	assert_int_equal(be->ops->readfile(be, cur, b), 0);
	assert_int_equal(be->ops->unlink(be, cur, a), 0);
	assert_int_equal(be->ops->unlink(be, cur, b), 0);
	assert_int_equal(be->ops->rmdir(be, tmp, true), 0);
	assert_int_equal(be->ops->rmdir(be, new, true), 0);
	assert_int_equal(be->ops->rmdir(be, cur, true), 0);
	assert_int_equal(be->ops->rmdir(be, d, true), 0);
}

/* ===== What the Maildir operations send over NFS ===== */

/* A backend of the Maildir calls test, and its round's directories. */
struct mbox {
	struct backend		 be;
	struct backend_dir	*d, *tmp, *new, *cur;
	uint64_t		 v0[BACKEND_MAX_COUNTERS];
	uint32_t		 wsize, rsize;
};

/* Open an NFS backend on 'target' with 'fsync' and 'create', and a round. */
static void
mbox_open(struct mbox *m, const char *target, enum backend_fsync fsync,
    enum nfsopt_create create)
{
	struct nfsopt		 o = nfsopt_defaults;
	struct backend_opts	 opts = { .names = NAMES_FIXED,
				    .name_len = 8, .seed = 1,
				    .started = "2026-12-01T00:00:00Z" };
	struct kvlist		 kv = { 0 };
	const char		*s;
	char			 err[LD_ERRLEN];

	o.create = create;
	opts.fsync = fsync;
	opts.settings = &o;
	memset(m, 0, sizeof(*m));
	assert_int_equal(backend_open(&m->be, &nfsb_ops, target, &opts, err),
	    0);
	m->be.ops->meta(&m->be, &kv);
	assert_non_null(s = kv_get(&kv, "nfs_io_sizes"));
	assert_int_equal(sscanf(s, "wsize %" SCNu32 ", rsize %" SCNu32,
	    &m->wsize, &m->rsize), 2);
	kv_free(&kv);
	assert_true(m->wsize >= 4096 && m->rsize >= 4096);
	assert_int_equal(m->be.ops->mkdir(&m->be, "round-0001-1", N, &m->d),
	    0);
	assert_int_equal(m->be.ops->subdir(&m->be, m->d, "tmp", &m->tmp), 0);
	assert_int_equal(m->be.ops->subdir(&m->be, m->d, "new", &m->new), 0);
	assert_int_equal(m->be.ops->subdir(&m->be, m->d, "cur", &m->cur), 0);
}

/* Start counting: expect() compares with the totals now. */
static void
mbox_mark(struct mbox *m)
{
	m->be.ops->counters(&m->be, m->v0);
}

/* The counter of 'm' named 'name'. */
static size_t
counter_of(const struct mbox *m, const char *name)
{
	size_t	i;

	for (i = 0; m->be.ops->counter_names[i] != NULL; i++)
		if (strcmp(m->be.ops->counter_names[i], name) == 0)
			return i;
	fail_msg("no counter %s", name);
	return 0;
}

/*
 * Since mbox_mark(), 'what' sent exactly the calls 'want' lists
 * ("create=1 write=2"; every procedure it does not name: none), with
 * 'errors' failed, and its bytes out (or in, with 'in') were at least
 * 'bytes' and at most 'bytes' plus 512 for each call.  The calls it
 * sent are printed too, "calls: WHAT: create=1 write=2", for t_nfs.sh.
 */
static void
expect(struct mbox *m, const char *what, const char *want, uint64_t errors,
    uint64_t bytes, bool in)
{
	uint64_t	v[BACKEND_MAX_COUNTERS], need[BACKEND_MAX_COUNTERS];
	uint64_t	calls = 0, n, b;
	char		name[32], proc[24];
	const char	*p;
	size_t		i;
	int		len;

	memset(need, 0, sizeof(need));
	for (p = want; sscanf(p, " %23[a-z]=%" SCNu64 "%n", proc, &n, &len) ==
	    2; p += len) {
		(void)snprintf(name, sizeof(name), "rpc_%s", proc);
		need[counter_of(m, name)] = n;
	}
	assert_true(*p == '\0');
	m->be.ops->counters(&m->be, v);
	print_message("calls: %s:", what);
	for (i = 0; i < m->be.ops->ncalls; i++)
		if (v[i] != m->v0[i])
			print_message(" %s=%" PRIu64,
			    m->be.ops->counter_names[i] + 4, v[i] - m->v0[i]);
	print_message("\n");
	for (i = 0; i < m->be.ops->ncalls; i++) {
		if (v[i] - m->v0[i] != need[i])
			fail_msg("%s: %" PRIu64 " %s, expected %" PRIu64, what,
			    v[i] - m->v0[i], m->be.ops->counter_names[i],
			    need[i]);
		calls += need[i];
	}
	i = counter_of(m, "rpc_errors");
	if (v[i] - m->v0[i] != errors)
		fail_msg("%s: %" PRIu64 " errors, expected %" PRIu64, what,
		    v[i] - m->v0[i], errors);
	i = counter_of(m, in ? "rpc_bytes_in" : "rpc_bytes_out");
	b = v[i] - m->v0[i];
	if (b < bytes || b > bytes + 512 * calls)
		fail_msg("%s: %" PRIu64 " bytes %s, expected %" PRIu64 " and "
		    "512 a call at most", what, b, in ? "in" : "out", bytes);
	mbox_mark(m);
}

/* Remove the round and close the backend. */
static void
mbox_close(struct mbox *m, const char *const *left, size_t nleft)
{
	char	err[LD_ERRLEN];
	size_t	i;

	for (i = 0; i < nleft; i++)
		assert_int_equal(m->be.ops->unlink(&m->be, m->cur, left[i]), 0);
	assert_int_equal(m->be.ops->rmdir(&m->be, m->tmp, true), 0);
	assert_int_equal(m->be.ops->rmdir(&m->be, m->new, true), 0);
	assert_int_equal(m->be.ops->rmdir(&m->be, m->cur, true), 0);
	assert_int_equal(m->be.ops->rmdir(&m->be, m->d, true), 0);
	assert_int_equal(backend_close(&m->be, false, err), 0);
}

/*
 * Deliveries of 0, 4096, wsize and wsize + 1 bytes (CREATE EXCLUSIVE,
 * SETATTR; one WRITE FILE_SYNC up to wsize, else WRITEs UNSTABLE and a
 * COMMIT; RENAME), renames (LOOKUP and RENAME; LOOKUP alone onto itself)
 * and reads (LOOKUP, ACCESS, READs up to the size), each with its bytes;
 * then --fsync both and --nfs-create guarded, which send what they send
 * without fsync and with SETATTR left out.
 */
static void
test_maildir_calls(void **state)
{
	struct impl		*im = *state;
	struct mbox		 m;
	struct backend		*be = &m.be;
	const char		*a = names_get(&im->names, 0);
	const char		*b = names_get(&im->names, 1);
	const char		*c = names_get(&im->names, 2);
	const char		*d = names_get(&im->names, 3);
	const char		*all[] = { a, b, c, d };
	uint64_t		 big;

	mbox_open(&m, im->target, BACKEND_FSYNC_NONE, NFSOPT_EXCLUSIVE);
	big = (uint64_t)m.wsize + 1;
	mbox_mark(&m);
	assert_int_equal(be->ops->deliver(be, m.tmp, m.new, a, 0), 0);
	expect(&m, "deliver 0", "create=1 setattr=1 rename=1", 0, 0, false);
	assert_int_equal(be->ops->deliver(be, m.tmp, m.new, b, 4096), 0);
	expect(&m, "deliver 4096", "create=1 setattr=1 write=1 rename=1", 0,
	    4096, false);
	assert_int_equal(be->ops->deliver(be, m.tmp, m.new, c, m.wsize), 0);
	expect(&m, "deliver wsize", "create=1 setattr=1 write=1 rename=1", 0,
	    m.wsize, false);
	assert_int_equal(be->ops->deliver(be, m.tmp, m.new, d, big), 0);
	expect(&m, "deliver wsize+1", "create=1 setattr=1 write=2 commit=1 "
	    "rename=1", 0, big, false);
	assert_int_equal(be->ops->deliver(be, m.tmp, m.new, a, 0), 0);
	expect(&m, "deliver over a name in new", "create=1 setattr=1 "
	    "rename=1", 0, 0, false);

	assert_int_equal(be->ops->readfile(be, m.new, a), 0);
	expect(&m, "readfile 0", "lookup=1 access=1", 0, 0, true);
	assert_int_equal(be->ops->readfile(be, m.new, b), 0);
	expect(&m, "readfile 4096", "lookup=1 access=1 read=1", 0, 4096, true);
	assert_int_equal(be->ops->readfile(be, m.new, d), 0);
	expect(&m, "readfile wsize+1", big > m.rsize ? "lookup=1 access=1 "
	    "read=2" : "lookup=1 access=1 read=1", 0, big, true);
	assert_int_equal(be->ops->readfile(be, m.cur, a), -1);
	assert_int_equal(errno, ENOENT);
	expect(&m, "readfile of none", "lookup=1", 1, 0, true);

	assert_int_equal(be->ops->rename(be, m.new, a, m.cur, a), 0);
	expect(&m, "rename", "lookup=1 rename=1", 0, 0, false);
	assert_int_equal(be->ops->rename(be, m.new, a, m.cur, a), -1);
	assert_int_equal(errno, ENOENT);
	expect(&m, "rename of none", "lookup=1", 1, 0, false);
	assert_int_equal(be->ops->rename(be, m.cur, a, m.cur, a), 0);
	expect(&m, "rename onto itself", "lookup=1", 0, 0, false);
	assert_int_equal(be->ops->rename(be, m.new, b, m.new, a), 0);
	expect(&m, "rename within new", "lookup=1 rename=1", 0, 0, false);
	assert_int_equal(be->ops->rename(be, m.new, a, m.cur, b), 0);
	assert_int_equal(be->ops->rename(be, m.new, c, m.cur, c), 0);
	assert_int_equal(be->ops->rename(be, m.new, d, m.cur, d), 0);
	expect(&m, "three renames", "lookup=3 rename=3", 0, 0, false);
	mbox_close(&m, all, 4);

	/* --fsync both: the fsyncs send nothing more. */
	mbox_open(&m, im->target, BACKEND_FSYNC_BOTH, NFSOPT_EXCLUSIVE);
	mbox_mark(&m);
	assert_int_equal(be->ops->deliver(be, m.tmp, m.new, a, 4096), 0);
	expect(&m, "deliver 4096, fsync both", "create=1 setattr=1 write=1 "
	    "rename=1", 0, 4096, false);
	assert_int_equal(be->ops->deliver(be, m.tmp, m.new, b, big), 0);
	expect(&m, "deliver wsize+1, fsync both", "create=1 setattr=1 "
	    "write=2 commit=1 rename=1", 0, big, false);
	assert_int_equal(be->ops->rename(be, m.new, a, m.cur, a), 0);
	assert_int_equal(be->ops->rename(be, m.new, b, m.cur, b), 0);
	mbox_close(&m, all, 2);

	/* --nfs-create guarded: one CREATE, no SETATTR. */
	mbox_open(&m, im->target, BACKEND_FSYNC_FILE, NFSOPT_GUARDED);
	mbox_mark(&m);
	assert_int_equal(be->ops->deliver(be, m.tmp, m.new, a, 4096), 0);
	expect(&m, "deliver 4096, guarded", "create=1 write=1 rename=1", 0,
	    4096, false);
	assert_int_equal(be->ops->rename(be, m.new, a, m.cur, a), 0);
	mbox_close(&m, all, 1);
}

/* release() and reacquire(): the same directories and names after. */
static void
test_release(void **state)
{
	struct impl		*im = *state;
	struct backend		*be = &im->be;
	struct backend_dir	*d;
	char			 err[LD_ERRLEN];
	const char		*a = names_get(&im->names, 2);

	assert_int_equal(be->ops->mkdir(be, "round-0001-1", N, &d), 0);
	assert_int_equal(be->ops->create(be, d, a), 0);
	assert_int_equal(be->ops->release(be), 0);
	assert_int_equal(be->ops->reacquire(be, err), 0);
	assert_int_equal(be->ops->stat(be, d, a), 0);
	assert_int_equal(list_all(im, d, NULL), 1);
	assert_int_equal(be->ops->unlink(be, d, a), 0);
	assert_int_equal(be->ops->rmdir(be, d, true), 0);
}

/* Counters: as many values as names, totals that only grow. */
static void
test_counters(void **state)
{
	struct impl		*im = *state;
	struct backend		*be = &im->be;
	struct backend_dir	*d;
	uint64_t		 v0[BACKEND_MAX_COUNTERS];
	uint64_t		 v1[BACKEND_MAX_COUNTERS];
	size_t			 n, i;

	n = backend_ncounters(be->ops);
	if (n == 0) {
		assert_null(be->ops->counters);
		return;
	}
	be->ops->counters(be, v0);
	assert_int_equal(be->ops->mkdir(be, "round-0001-1", N, &d), 0);
	assert_int_equal(be->ops->create(be, d, names_get(&im->names, 3)), 0);
	assert_int_equal(be->ops->unlink(be, d, names_get(&im->names, 3)), 0);
	assert_int_equal(be->ops->rmdir(be, d, true), 0);
	be->ops->counters(be, v1);
	for (i = 0; i < n; i++)
		assert_true(v1[i] >= v0[i]);
}

/* Kept work directories: sweep() finds a dead one and removes it. */
static int	swept;
static uint64_t	swept_files;

static void
on_sweep(void *arg, const struct backend_report *r)
{
	(void)arg;
	assert_non_null(r->path);
	if (r->removed) {
		swept++;
		swept_files += r->files;
	}
}

/*
 * Open a second backend in 'im''s target, put 10 files in a round
 * directory and close it with 'keep': its run is over, though this
 * process lives on.  Over NFS, where a run counts as alive while its
 * process lives (there is no lock), a child process does it.
 */
static void
keep_one(struct impl *im)
{
	pid_t	pid;
	int	status;

	if (im->ops != &nfsb_ops) {
		keep_files(im);
		return;
	}
	assert_true((pid = fork()) != -1);
	if (pid == 0) {
		keep_files(im);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/* keep_one()'s work, in this process. */
static void
keep_files(struct impl *im)
{
	struct backend_opts	 opts = { .names = NAMES_FIXED,
				    .name_len = 8, .seed = 1,
				    .started = "2026-12-01T00:00:00Z" };
	struct backend		 other;
	struct backend_dir	*d;
	char			 err[LD_ERRLEN];
	size_t			 i;

	assert_int_equal(backend_open(&other, im->ops, im->target, &opts,
	    err), 0);
	assert_string_not_equal(other.workdir, im->be.workdir);
	assert_int_equal(other.ops->mkdir(&other, "round-0001-1", 10, &d), 0);
	for (i = 0; i < 10; i++)
		assert_int_equal(other.ops->create(&other, d,
		    names_get(&im->names, i)), 0);
	assert_int_equal(backend_close(&other, true, err), 0);
	assert_null(other.ops);
}

static void
test_keep_and_sweep(void **state)
{
	struct impl	*im = *state;
	char		 err[LD_ERRLEN];

	keep_one(im);
	swept = 0;
	swept_files = 0;
	/* Our own, still open, is found and left alone. */
	assert_int_equal(im->ops->sweep(im->target, on_sweep, NULL, err), 2);
	assert_int_equal(swept, 1);
	assert_int_equal(swept_files, 10);
	swept = 0;
	assert_int_equal(im->ops->sweep(im->target, on_sweep, NULL, err), 1);
	assert_int_equal(swept, 0);
}

/* The registry: by name, by scheme, and a path is posix's. */
static void
test_registry(void **state)
{
	(void)state;
	assert_ptr_equal(backend_find("posix"), &posix_ops);
	assert_null(backend_find("nope"));
	assert_int_equal(errno, ENOENT);
	assert_ptr_equal(backend_for("/tmp"), &posix_ops);
	assert_ptr_equal(backend_for("relative/dir"), &posix_ops);
	assert_ptr_equal(backend_for("dir/with://inside"), &posix_ops);
	assert_null(backend_for("gopher://host/x"));
	assert_int_equal(backend_register(&fake_ops), 0);
	assert_int_equal(backend_register(&fake_ops), -1);
	assert_int_equal(errno, EEXIST);
	assert_ptr_equal(backend_find("fake"), &fake_ops);
	assert_ptr_equal(backend_for("fake://x"), &fake_ops);
}

/*
 * What a backend says it can do, it has the operations for, and the
 * other way round; only a backend without a URL scheme (its targets are
 * paths) says its targets are local.
 */
static void
test_flags(void **state)
{
	const struct backend_ops	*all[] = { &posix_ops, &nfsb_ops,
					    &fake_ops };
	const struct backend_ops	*ops;
	size_t				 i;

	(void)state;
	for (i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		ops = all[i];
		assert_int_equal((ops->flags & BACKEND_FORKS) != 0,
		    ops->forked != NULL);
		assert_int_equal((ops->flags & BACKEND_TREE) != 0,
		    ops->subdir != NULL);
		assert_int_equal((ops->flags & BACKEND_MAILDIR) != 0,
		    ops->deliver != NULL && ops->rename != NULL &&
		    ops->readfile != NULL);
		assert_int_equal((ops->flags & BACKEND_RANKS) != 0,
		    ops->attach != NULL && ops->enter != NULL);
		assert_int_equal((ops->flags & BACKEND_LOCAL) != 0,
		    ops->scheme == NULL);
	}
	assert_true((posix_ops.flags & BACKEND_MEMLIMIT) != 0);
	assert_true((nfsb_ops.flags & BACKEND_MEMLIMIT) == 0);
}

static void
test_round_name(void **state)
{
	char	buf[32];

	(void)state;
	backend_round_name(buf, sizeof(buf), 7, 2);
	assert_string_equal(buf, "round-0007-2");
	assert_string_equal(backend_fsync_name(BACKEND_FSYNC_BOTH), "both");
}

/*
 * A tree's subdirectory names, and the round record that names them, or
 * names a mailbox.
 */
static void
test_subdir_name(void **state)
{
	static const char *const bad[] = { "d0000001", "d000000001",
	    "x00000001", "d0000000a", "d00000001 ", "d",
	    "d123456789012345678901" };
	struct backend_opts	o = { .per_dir = 0 };
	char			buf[64];
	uint64_t		d;
	size_t			i;

	(void)state;
	backend_subdir_name(buf, sizeof(buf), 12);
	assert_string_equal(buf, "d00000012");
	assert_int_equal(backend_subdir_parse(buf, &d), 0);
	assert_int_equal(d, 12);
	backend_subdir_name(buf, sizeof(buf), 123456789);
	assert_string_equal(buf, "d123456789");
	assert_int_equal(backend_subdir_parse(buf, &d), 0);
	assert_int_equal(d, 123456789);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (backend_subdir_parse(bad[i], &d) == 0)
			fail_msg("'%s' taken for a subdirectory", bad[i]);
	assert_int_equal(backend_round_record(buf, sizeof(buf), "round-0003-1",
	    2250, &o), 18);
	assert_string_equal(buf, "round-0003-1 2250\n");
	o.per_dir = 15;
	assert_int_equal(backend_round_record(buf, sizeof(buf), "round-0003-1",
	    2250, &o), 26);
	assert_string_equal(buf, "round-0003-1 2250 tree 15\n");
	o.mailbox = true;
	assert_int_equal(backend_round_record(buf, sizeof(buf), "round-0003-1",
	    2250, &o), 26);
	assert_string_equal(buf, "round-0003-1 2250 maildir\n");
	assert_int_equal(backend_round_record(buf, 10, "round-0003-1", 1, &o),
	    -1);
	assert_int_equal(errno, ENAMETOOLONG);
}

#define BOTH(t)	\
	cmocka_unit_test_prestate_setup_teardown(t, setup, teardown, \
	    &posix_impl), \
	cmocka_unit_test_prestate_setup_teardown(t, setup, teardown, \
	    &fake_impl)
#define NFS(t)	\
	cmocka_unit_test_prestate_setup_teardown(t, setup, teardown, \
	    &nfs_impl)

int
main(void)
{
	const struct CMUnitTest	nfs_tests[] = {
		NFS(test_file_ops),
		NFS(test_list_complete),
		NFS(test_remove_while_listing),
		NFS(test_two_dirs),
		NFS(test_release),
		NFS(test_subdirs),
		NFS(test_maildir),
		NFS(test_maildir_calls),
		NFS(test_counters),
		NFS(test_keep_and_sweep),
	};
	const char		*url;
	const struct CMUnitTest	tests[] = {
		BOTH(test_file_ops),
		BOTH(test_list_complete),
		BOTH(test_remove_while_listing),
		BOTH(test_two_dirs),
		BOTH(test_release),
		BOTH(test_subdirs),
		BOTH(test_maildir),
		BOTH(test_counters),
		BOTH(test_keep_and_sweep),
		cmocka_unit_test(test_registry),
		cmocka_unit_test(test_flags),
		cmocka_unit_test(test_round_name),
		cmocka_unit_test(test_subdir_name),
	};

	if ((url = getenv("LARGEDIR_NFS_URL")) != NULL) {
		(void)snprintf(nfs_impl.target, sizeof(nfs_impl.target), "%s",
		    url);
		return cmocka_run_group_tests_name("backend over NFS",
		    nfs_tests, NULL, NULL);
	}
	return cmocka_run_group_tests_name("backend", tests, NULL, NULL);
}
