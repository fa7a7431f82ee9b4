/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * Unit tests for cache: cache_read() runs against fixture roots in
 * tests/data/cache/ (copied from a real machine: "full" has every file,
 * "bare" lacks slabinfo and the block device, "bad" has a malformed
 * dentry-state) and against the live machine, where only behaviour is
 * checked, never values.  cache_inode_slab() and cache_diff() are
 * table-driven.
 */

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "machine/cache.h"

#ifndef TEST_DATA
#define TEST_DATA "tests/data"
#endif

#define FULL	TEST_DATA "/cache/full"
#define BARE	TEST_DATA "/cache/bare"
#define BAD	TEST_DATA "/cache/bad"

static void	assert_state(const struct cache_state *,
		    const struct cache_state *);

/* Compare every field of 'got' with 'want'. */
static void
assert_state(const struct cache_state *got, const struct cache_state *want)
{
	assert_int_equal(got->nr_dentry, want->nr_dentry);
	assert_int_equal(got->nr_unused, want->nr_unused);
	assert_int_equal(got->nr_inodes, want->nr_inodes);
	assert_int_equal(got->dentry_objs, want->dentry_objs);
	assert_int_equal(got->inode_objs, want->inode_objs);
	assert_int_equal(got->mem_available_kib, want->mem_available_kib);
	assert_int_equal(got->sectors_read, want->sectors_read);
	assert_int_equal(got->sectors_written, want->sectors_written);
}

/* ===== cache_read() on fixtures ===== */

static const struct read_case {
	const char		*what;
	const char		*root;
	const char		*slab;
	unsigned		 major, minor;
	struct cache_state	 want;
} read_cases[] = {
	{ "full ext4", FULL, "ext4_inode_cache", 7, 0,
	    { 113453, 112125, 88547, 113502, 72876, 24235756,
	    11541150, 99392929 } },
	{ "full, trailing slash", FULL "/", "ext4_inode_cache", 7, 0,
	    { 113453, 112125, 88547, 113502, 72876, 24235756,
	    11541150, 99392929 } },
	{ "full xfs", FULL, "xfs_inode", 7, 0,
	    { 113453, 112125, 88547, 113502, 80, 24235756,
	    11541150, 99392929 } },
	{ "full tmpfs, no device", FULL, "shmem_inode_cache", 0, 42,
	    { 113453, 112125, 88547, 113502, 243, 24235756, -1, -1 } },
	{ "full, no slab", FULL, NULL, 7, 0,
	    { 113453, 112125, 88547, 113502, -1, 24235756,
	    11541150, 99392929 } },
	{ "full, unknown slab", FULL, "nfs_inode_cache", 7, 0,
	    { 113453, 112125, 88547, 113502, -1, 24235756,
	    11541150, 99392929 } },
	/* A name is matched whole, never as a prefix. */
	{ "full, prefix of a slab", FULL, "ext4_inode", 7, 0,
	    { 113453, 112125, 88547, 113502, -1, 24235756,
	    11541150, 99392929 } },
	{ "full, missing device", FULL, "ext4_inode_cache", 7, 1,
	    { 113453, 112125, 88547, 113502, 72876, 24235756, -1, -1 } },
	{ "bare", BARE, "ext4_inode_cache", 7, 0,
	    { 113458, 112130, 88552, -1, -1, 24235756, -1, -1 } },
};

static void
test_read_table(void **state)
{
	struct cache_state	cs;
	size_t			i;

	(void)state;
	for (i = 0; i < sizeof(read_cases) / sizeof(read_cases[0]); i++) {
		const struct read_case	*c = &read_cases[i];

		print_message("%s\n", c->what);
		assert_int_equal(cache_read(c->root, c->slab, c->major,
		    c->minor, &cs), 0);
		assert_state(&cs, &c->want);
	}
}

static void
test_read_errors(void **state)
{
	static const struct cache_state	none = {
		-1, -1, -1, -1, -1, -1, -1, -1
	};
	struct cache_state		cs;
	char				long_root[5000];

	(void)state;
	errno = 0;
	assert_int_equal(cache_read(BAD, NULL, 7, 0, &cs), -1);
	assert_int_equal(errno, EINVAL);
	assert_state(&cs, &none);

	errno = 0;
	assert_int_equal(cache_read(TEST_DATA "/cache/nonexistent", NULL,
	    0, 0, &cs), -1);
	assert_int_equal(errno, ENOENT);
	assert_state(&cs, &none);

	memset(long_root, 'a', sizeof(long_root) - 1);
	long_root[sizeof(long_root) - 1] = '\0';
	errno = 0;
	assert_int_equal(cache_read(long_root, NULL, 0, 0, &cs), -1);
	assert_int_equal(errno, ENAMETOOLONG);
}

/*
 * The live machine: the reading works and counts something.  Major 0 is
 * not a block device, so there are no sectors.
 */
static void
test_read_live(void **state)
{
	struct cache_state	cs;

	(void)state;
	assert_int_equal(cache_read("/", cache_inode_slab("ext4"), 0, 0,
	    &cs), 0);
	assert_true(cs.nr_dentry > 0);
	assert_true(cs.nr_unused >= 0);
	assert_true(cs.nr_inodes > 0);
	assert_true(cs.mem_available_kib > 0);
	/* slabinfo is readable by root only; others get -1. */
	if (geteuid() == 0)
		assert_true(cs.dentry_objs > 0);
	else
		assert_int_equal(cs.dentry_objs, -1);
	assert_int_equal(cs.sectors_read, -1);
	assert_int_equal(cs.sectors_written, -1);
}

/* ===== cache_inode_slab() ===== */

static const struct slab_case {
	const char	*fstype;
	const char	*slab;
} slab_cases[] = {
	{ "ext2",	"ext4_inode_cache" },
	{ "ext3",	"ext4_inode_cache" },
	{ "ext4",	"ext4_inode_cache" },
	{ "xfs",	"xfs_inode" },
	{ "btrfs",	"btrfs_inode" },
	{ "tmpfs",	"shmem_inode_cache" },
	{ "nfs",	"nfs_inode_cache" },
	{ "nfs4",	"nfs_inode_cache" },
	{ "fuse",	"fuse_inode" },
	{ "fuseblk",	"fuse_inode" },
	{ "fuse.sshfs",	"fuse_inode" },
	{ "reiserfs",	"reiser_inode_cache" },
	{ "f2fs",	"f2fs_inode_cache" },
	{ "jfs",	"jfs_ip" },
	{ "vfat",	NULL },
	{ "ext",	NULL },
	{ "ext44",	NULL },
	{ "",		NULL },
	{ NULL,		NULL },
};

static void
test_inode_slab(void **state)
{
	const char	*got;
	size_t		 i;

	(void)state;
	for (i = 0; i < sizeof(slab_cases) / sizeof(slab_cases[0]); i++) {
		got = cache_inode_slab(slab_cases[i].fstype);
		if (slab_cases[i].slab == NULL)
			assert_null(got);
		else
			assert_string_equal(got, slab_cases[i].slab);
	}
}

/* ===== cache_diff() ===== */

static const struct diff_case {
	int64_t	before_r, before_w, after_r, after_w;
	int64_t	want_r, want_w;
} diff_cases[] = {
	{ 100, 200, 150, 260, 50, 60 },
	{ 100, 200, 100, 200, 0, 0 },
	{ -1, -1, 150, 260, -1, -1 },
	{ 100, 200, -1, -1, -1, -1 },
	{ -1, 200, 150, 260, -1, 60 },
	{ 100, -1, 150, 260, 50, -1 },
	/* A counter that went backwards is another device. */
	{ 100, 200, 50, 260, -1, 60 },
};

static void
test_diff(void **state)
{
	struct cache_state	before, after;
	int64_t			r, w;
	size_t			i;

	(void)state;
	memset(&before, 0, sizeof(before));
	memset(&after, 0, sizeof(after));
	for (i = 0; i < sizeof(diff_cases) / sizeof(diff_cases[0]); i++) {
		const struct diff_case	*c = &diff_cases[i];

		before.sectors_read = c->before_r;
		before.sectors_written = c->before_w;
		after.sectors_read = c->after_r;
		after.sectors_written = c->after_w;
		cache_diff(&before, &after, &r, &w);
		assert_int_equal(r, c->want_r);
		assert_int_equal(w, c->want_w);
	}
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test(test_read_table),
		cmocka_unit_test(test_read_errors),
		cmocka_unit_test(test_read_live),
		cmocka_unit_test(test_inode_slab),
		cmocka_unit_test(test_diff),
	};

	return cmocka_run_group_tests_name("cache", tests, NULL, NULL);
}
