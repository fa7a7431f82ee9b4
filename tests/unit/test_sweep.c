/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * test_sweep: the walk of largedir cleanup.  An in-memory directory
 * whose reader, like a filesystem that changes under a reader, skips the
 * entry after each one removed in a pass: SWEEP_PASSES reads it again
 * until a pass removes nothing, and counts only the last pass's kept
 * entries; SWEEP_ONCE reads every name first (the callback, removing,
 * disturbs no listing) and calls it once for each.  The prefix passes
 * over the others unseen, a read error is -1 with errno, and the
 * readdir(3) reader leaves out "." and "..".
 */

#include <sys/stat.h>
#include <sys/types.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "backend/sweep.h"

#define MAXN	16

/* A directory in memory, and its reader. */
struct mem {
	const char	*names[MAXN];
	bool		 gone[MAXN];
	size_t		 n, pos;
	bool		 skip;		/* the entry after a removal */
	int		 fail_at;	/* next() fails here, or -1 */
	unsigned	 calls, passes;
};

static int
mem_next(void *arg, struct sweep_entry *e)
{
	struct mem	*m = arg;

	if ((int)m->pos == m->fail_at) {
		errno = EIO;
		return -1;
	}
	while (m->pos < m->n && m->gone[m->pos])
		m->pos++;
	if (m->pos == m->n)
		return 0;
	e->name = m->names[m->pos++];
	e->type = DT_UNKNOWN;
	return 1;
}

static int
mem_rewind(void *arg)
{
	struct mem	*m = arg;

	m->pos = 0;
	m->passes++;
	return 0;
}

/* Remove the names that start with "ours", keep the others. */
static int64_t
remove_ours(void *arg, const struct sweep_entry *e)
{
	struct mem	*m = arg;
	size_t		 i;

	m->calls++;
	if (strncmp(e->name, "ours", 4) != 0)
		return strcmp(e->name, "marker") == 0 ? 0 : 1;
	for (i = 0; i < m->n; i++)
		if (strcmp(m->names[i], e->name) == 0)
			m->gone[i] = true;
	if (m->skip && m->pos < m->n)
		m->pos++;		/* the filesystem skips one */
	return SWEEP_GONE;
}

static void
mem_init(struct mem *m, struct sweep_dir *d, const char **names, size_t n)
{
	memset(m, 0, sizeof(*m));
	memcpy(m->names, names, n * sizeof(*names));
	m->n = n;
	m->fail_at = -1;
	d->next = mem_next;
	d->rewind = mem_rewind;
	d->arg = m;
}

static void
test_passes(void **state)
{
	const char		*names[] = { "ours1", "ours2", "x", "ours3",
				    "marker", "ours4", "y" };
	struct mem		 m;
	struct sweep_dir	 d;
	struct sweep_count	 n;
	size_t			 i;

	(void)state;
	mem_init(&m, &d, names, 7);
	m.skip = true;
	assert_int_equal(sweep_walk(&d, NULL, SWEEP_PASSES, remove_ours, &m,
	    &n), 0);
	for (i = 0; i < 7; i++)
		assert_int_equal(m.gone[i], strncmp(names[i], "ours", 4) == 0);
	assert_int_equal(n.gone, 4);
	assert_int_equal(n.kept, 2);		/* x and y, the last pass's */
	assert_true(m.passes >= 2);
}

static void
test_once(void **state)
{
	const char		*names[] = { "ours1", "ours2", "x", "ours3",
				    "ours4" };
	struct mem		 m;
	struct sweep_dir	 d;
	struct sweep_count	 n;

	(void)state;
	mem_init(&m, &d, names, 5);
	m.skip = true;		/* no reading goes on: nothing is skipped */
	assert_int_equal(sweep_walk(&d, NULL, SWEEP_ONCE, remove_ours, &m,
	    &n), 0);
	assert_int_equal(m.calls, 5);
	assert_int_equal(m.passes, 0);
	assert_int_equal(n.gone, 4);
	assert_int_equal(n.kept, 1);
}

static void
test_prefix(void **state)
{
	const char		*names[] = { "ours1", "x", "ours2", "oursy" };
	struct mem		 m;
	struct sweep_dir	 d;
	struct sweep_count	 n;

	(void)state;
	mem_init(&m, &d, names, 4);
	assert_int_equal(sweep_walk(&d, "ours", SWEEP_ONCE, remove_ours, &m,
	    &n), 0);
	assert_int_equal(m.calls, 3);
	assert_false(m.gone[1]);
	mem_init(&m, &d, names, 4);
	assert_int_equal(sweep_walk(&d, "x", SWEEP_PASSES, remove_ours, &m,
	    &n), 0);
	assert_int_equal(m.calls, 1);
	assert_int_equal(n.kept, 1);
	assert_int_equal(n.gone, 0);
}

static void
test_read_error(void **state)
{
	const char		*names[] = { "ours1", "ours2", "ours3" };
	struct mem		 m;
	struct sweep_dir	 d;
	struct sweep_count	 n;

	(void)state;
	mem_init(&m, &d, names, 3);
	m.fail_at = 2;
	assert_int_equal(sweep_walk(&d, NULL, SWEEP_ONCE, remove_ours, &m,
	    &n), -1);
	assert_int_equal(errno, EIO);
	assert_int_equal(m.calls, 0);		/* none before all is read */
	mem_init(&m, &d, names, 3);
	m.fail_at = 2;
	assert_int_equal(sweep_walk(&d, NULL, SWEEP_PASSES, remove_ours, &m,
	    &n), -1);
	assert_int_equal(errno, EIO);
	assert_int_equal(n.gone, 2);		/* as far as it got */
}

static void
test_posix(void **state)
{
	struct sweep_dir	 d;
	struct sweep_entry	 e;
	char			 dir[64], path[96];
	DIR			*dp;
	int			 rc, seen = 0;

	(void)state;
	(void)strcpy(dir, "/tmp/largedir-unit.XXXXXX");
	assert_non_null(mkdtemp(dir));
	(void)snprintf(path, sizeof(path), "%s/f", dir);
	assert_int_equal(close(open(path, O_WRONLY | O_CREAT, 0644)), 0);
	(void)snprintf(path, sizeof(path), "%s/sub", dir);
	assert_int_equal(mkdir(path, 0700), 0);
	assert_non_null(dp = opendir(dir));
	sweep_dir_posix(&d, dp);
	while ((rc = d.next(d.arg, &e)) == 1) {
		assert_string_not_equal(e.name, ".");
		assert_string_not_equal(e.name, "..");
		if (strcmp(e.name, "sub") == 0)
			assert_true(e.type == DT_DIR || e.type == DT_UNKNOWN);
		seen++;
	}
	assert_int_equal(rc, 0);
	assert_int_equal(seen, 2);
	assert_int_equal(d.rewind(d.arg), 0);
	assert_int_equal(d.next(d.arg, &e), 1);
	assert_int_equal(closedir(dp), 0);
	assert_int_equal(rmdir(path), 0);
	(void)snprintf(path, sizeof(path), "%s/f", dir);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(rmdir(dir), 0);
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test(test_passes),
		cmocka_unit_test(test_once),
		cmocka_unit_test(test_prefix),
		cmocka_unit_test(test_read_error),
		cmocka_unit_test(test_posix),
	};

	return cmocka_run_group_tests_name("sweep", tests, NULL, NULL);
}
