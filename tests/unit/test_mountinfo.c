/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * Unit tests for mountinfo: mountinfo_parse() on a table of lines (the
 * shapes proc(5) allows, escapes, optional fields, and lines cut short or
 * malformed), mountinfo_load() on fixtures in tests/data/ (a real
 * machine's "mountinfo-basic" with three malformed lines, "-escapes",
 * an empty file, a file cut off in the middle of its last line, and
 * "-long": 200 mounts and an overlay line of 7,922 bytes), and the
 * lookups on "mountinfo-lookup": bind mounts of one device, mounts
 * stacked on one point, cgroup hierarchies and look-alikes.
 */

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "machine/mountinfo.h"

#ifndef TEST_DATA
#define TEST_DATA "tests/data"
#endif

#define LOOKUP	TEST_DATA "/mountinfo-lookup"

/* ===== mountinfo_parse() ===== */

/* The fields a line must give: mount point NULL for a malformed line. */
struct want {
	unsigned	 id, parent, major, minor;
	const char	*root, *mountpoint, *mount_opts, *optional;
	const char	*fstype, *source, *super_opts;
};

#define BAD	{ 0, 0, 0, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL }

static const struct parse_case {
	const char	*what;
	const char	*line;
	struct want	 want;
} parse_cases[] = {
	{ "no optional fields",
	    "31 28 8:4 / /mnt2 rw,noatime - xfs /dev/sda4 rw,attr2,inode64",
	    { 31, 28, 8, 4, "/", "/mnt2", "rw,noatime", "", "xfs",
	    "/dev/sda4", "rw,attr2,inode64" } },
	{ "one optional field",
	    "28 1 8:2 / / rw,relatime shared:1 - ext4 /dev/sda2 rw",
	    { 28, 1, 8, 2, "/", "/", "rw,relatime", "shared:1", "ext4",
	    "/dev/sda2", "rw" } },
	{ "two optional fields",
	    "32 30 8:3 /sub /mnt/x rw,relatime shared:30 master:2 - ext4 "
	    "/dev/sda3 rw",
	    { 32, 30, 8, 3, "/sub", "/mnt/x", "rw,relatime",
	    "shared:30 master:2", "ext4", "/dev/sda3", "rw" } },
	{ "three optional fields, big numbers",
	    "4294967295 0 4095:1048575 / /x rw shared:7 master:8 "
	    "propagate_from:9 - nfs4 srv:/e rw,vers=4.2",
	    { 4294967295U, 0, 4095, 1048575, "/", "/x", "rw",
	    "shared:7 master:8 propagate_from:9", "nfs4", "srv:/e",
	    "rw,vers=4.2" } },
	{ "fields after the superblock options: ignored",
	    "40 28 0:50 / /n rw - nfs4 srv:/e rw,vers=4.2 future",
	    { 40, 28, 0, 50, "/", "/n", "rw", "", "nfs4", "srv:/e",
	    "rw,vers=4.2" } },
	{ "fuse subtype",
	    "35 28 0:45 / /home/u/remote rw,nosuid shared:200 - fuse.sshfs "
	    "u@host:/home/u rw,user_id=1000",
	    { 35, 28, 0, 45, "/", "/home/u/remote", "rw,nosuid", "shared:200",
	    "fuse.sshfs", "u@host:/home/u", "rw,user_id=1000" } },
	{ "\\040 in mount point and source",
	    "50 28 8:33 / /media/My\\040Disk rw shared:300 - vfat "
	    "/dev/disk/by-label/My\\040Disk rw,fmask=0022",
	    { 50, 28, 8, 33, "/", "/media/My Disk", "rw", "shared:300",
	    "vfat", "/dev/disk/by-label/My Disk", "rw,fmask=0022" } },
	{ "\\011, \\012 and \\134 in root and mount point",
	    "52 28 8:35 /dir\\134with\\011tab /srv/back\\134slash\\012nl rw - "
	    "xfs server\\040share rw",
	    { 52, 28, 8, 35, "/dir\\with\ttab", "/srv/back\\slash\nnl", "rw",
	    "", "xfs", "server share", "rw" } },
	{ "not escapes: kept as they are",
	    "53 28 8:36 /\\000 /srv/keep\\08\\999\\z\\ rw - xfs "
	    "/dev/sdc4\\4 rw",
	    { 53, 28, 8, 36, "/\\000", "/srv/keep\\08\\999\\z\\", "rw", "",
	    "xfs", "/dev/sdc4\\4", "rw" } },
	{ "options are not unescaped",
	    "54 28 0:60 / /o rw - tmpfs tmpfs rw,x=a\\054b",
	    { 54, 28, 0, 60, "/", "/o", "rw", "", "tmpfs", "tmpfs",
	    "rw,x=a\\054b" } },
	{ "empty line", "", BAD },
	{ "cut after the mount point", "28 1 8:2 / /", BAD },
	{ "cut after the options", "28 1 8:2 / / rw,relatime", BAD },
	{ "cut after an optional field", "28 1 8:2 / / rw shared:1", BAD },
	{ "no separator",
	    "40 28 8:6 / /broken rw,relatime shared:240 ext4 /dev/sda6 rw",
	    BAD },
	{ "nothing after the separator", "41 28 8:7 / /short rw,relatime -",
	    BAD },
	{ "only an fstype after it", "41 28 8:7 / /short rw - ext4", BAD },
	{ "no superblock options", "41 28 8:7 / /short rw - ext4 /dev/sda7",
	    BAD },
	{ "empty fstype", "41 28 8:7 / /s rw -  /dev/sda7 rw", BAD },
	{ "separator glued to a field", "41 28 8:7 / /s rw shared:1- ext4 "
	    "/dev/sda7 rw", BAD },
	{ "an empty field", "41 28  8:7 / /s rw - ext4 /dev/sda7 rw", BAD },
	{ "x:y", "42 28 x:y / /b rw - ext4 /dev/sda8 rw", BAD },
	{ "no minor", "42 28 8: / /b rw - ext4 /dev/sda8 rw", BAD },
	{ "no major", "42 28 :8 / /b rw - ext4 /dev/sda8 rw", BAD },
	{ "no colon", "42 28 8 / /b rw - ext4 /dev/sda8 rw", BAD },
	{ "junk after minor", "42 28 8:9x / /b rw - ext4 /dev/sda8 rw", BAD },
	{ "mount ID not a number", "a 28 8:9 / /b rw - ext4 /dev/sda8 rw",
	    BAD },
	{ "negative parent ID", "42 -1 8:9 / /b rw - ext4 /dev/sda8 rw",
	    BAD },
	{ "mount ID too big", "4294967296 1 8:9 / /b rw - ext4 /dev/sda8 rw",
	    BAD },
};

static void
test_parse_table(void **state)
{
	struct mountinfo_entry	 e;
	const struct parse_case	*c;
	char			 line[512];
	size_t			 i;
	int			 r;

	(void)state;
	for (i = 0; i < sizeof(parse_cases) / sizeof(parse_cases[0]); i++) {
		c = &parse_cases[i];
		print_message("%s\n", c->what);
		(void)snprintf(line, sizeof(line), "%s", c->line);
		errno = 0;
		r = mountinfo_parse(line, &e);
		if (c->want.mountpoint == NULL) {
			assert_int_equal(r, -1);
			assert_int_equal(errno, EINVAL);
			assert_null(e.mountpoint);
			assert_null(e.line);
			continue;
		}
		assert_int_equal(r, 0);
		assert_ptr_equal(e.line, line);
		assert_int_equal(e.id, c->want.id);
		assert_int_equal(e.parent, c->want.parent);
		assert_int_equal(e.major, c->want.major);
		assert_int_equal(e.minor, c->want.minor);
		assert_string_equal(e.root, c->want.root);
		assert_string_equal(e.mountpoint, c->want.mountpoint);
		assert_string_equal(e.mount_opts, c->want.mount_opts);
		assert_string_equal(e.optional, c->want.optional);
		assert_string_equal(e.fstype, c->want.fstype);
		assert_string_equal(e.source, c->want.source);
		assert_string_equal(e.super_opts, c->want.super_opts);
	}
}

/* ===== mountinfo_load() ===== */

static const struct load_case {
	const char	*file;
	int		 err;		/* 0: expect success */
	size_t		 n, bad;
	/* the first and the last entry: ID and mount point */
	unsigned	 first_id, last_id;
	const char	*first_mp, *last_mp;
} load_cases[] = {
	{ "mountinfo-basic", 0, 17, 3, 22, 43, "/sys", "/after" },
	{ "mountinfo-escapes", 0, 5, 0, 28, 53, "/",
	    "/srv/keep\\08\\999\\z" },
	{ "mountinfo-lookup", 0, 11, 0, 28, 39, "/", "/net" },
	/* Cut in the middle of its last line, which has no newline. */
	{ "mountinfo-truncated", 0, 2, 1, 28, 30, "/", "/mnt" },
	{ "mountinfo-long", 0, 202, 0, 28, 400, "/",
	    "/var/lib/containers/storage/overlay/merged" },
	{ "mountinfo-empty", 0, 0, 0, 0, 0, NULL, NULL },
	{ "no-such-mountinfo", ENOENT, 0, 0, 0, 0, NULL, NULL },
};

static void
test_load_table(void **state)
{
	struct mountinfo	 mi;
	const struct load_case	*c;
	char			 path[256];
	size_t			 i;
	int			 r;

	(void)state;
	for (i = 0; i < sizeof(load_cases) / sizeof(load_cases[0]); i++) {
		c = &load_cases[i];
		print_message("%s\n", c->file);
		(void)snprintf(path, sizeof(path), "%s/%s", TEST_DATA, c->file);
		errno = 0;
		r = mountinfo_load(path, &mi);
		if (c->err != 0) {
			assert_int_equal(r, -1);
			assert_int_equal(errno, c->err);
		} else
			assert_int_equal(r, 0);
		assert_int_equal(mi.n, c->n);
		assert_int_equal(mi.bad, c->bad);
		if (c->n > 0) {
			assert_int_equal(mi.v[0].id, c->first_id);
			assert_string_equal(mi.v[0].mountpoint, c->first_mp);
			assert_int_equal(mi.v[mi.n - 1].id, c->last_id);
			assert_string_equal(mi.v[mi.n - 1].mountpoint,
			    c->last_mp);
		}
		mountinfo_free(&mi);
		assert_null(mi.v);
		assert_int_equal(mi.n, 0);
	}
}

/* A line longer than any buffer sysfile starts with comes back whole. */
static void
test_load_long(void **state)
{
	struct mountinfo		 mi;
	const struct mountinfo_entry	*e;

	(void)state;
	assert_int_equal(mountinfo_load(TEST_DATA "/mountinfo-long", &mi), 0);
	e = &mi.v[mi.n - 1];
	assert_string_equal(e->fstype, "overlay");
	assert_int_equal(strlen(e->super_opts), 7834);
	assert_true(strncmp(e->super_opts, "rw,lowerdir=/var/lib/", 21) ==
	    0);
	assert_string_equal(e->super_opts + strlen(e->super_opts) -
	    strlen(",upperdir=/u,workdir=/w"), ",upperdir=/u,workdir=/w");
	assert_string_equal(mi.v[100].mountpoint, "/run/user/1099");
	mountinfo_free(&mi);
}

/* The live file parses, and holds "/". */
static void
test_load_live(void **state)
{
	struct mountinfo	mi;

	(void)state;
	assert_int_equal(mountinfo_load(MOUNTINFO_SELF, &mi), 0);
	assert_true(mi.n > 0);
	assert_int_equal(mi.bad, 0);
	assert_non_null(mountinfo_covering(&mi, "/"));
	mountinfo_free(&mi);
}

/* ===== Lookups ===== */

/* Which lookup a case makes. */
enum how { BY_DEV, HOLDING, COVERING, AT };

static const struct lookup_case {
	const char	*what;
	enum how	 how;
	unsigned	 major, minor;
	const char	*path;
	unsigned	 want;		/* mount ID; 0: NULL */
} lookup_cases[] = {
	{ "by_dev: the first bind mount", BY_DEV, 8, 3, NULL, 30 },
	{ "by_dev: stacked, the first", BY_DEV, 0, 40, NULL, 32 },
	{ "by_dev: none", BY_DEV, 8, 99, NULL, 0 },
	{ "holding: longest prefix", HOLDING, 8, 3, "/data/p/x", 31 },
	{ "holding: the mount point itself", HOLDING, 8, 3, "/data/p", 31 },
	{ "holding: shorter prefix", HOLDING, 8, 3, "/data/q", 30 },
	{ "holding: /data/p is no prefix of /data/pp", HOLDING, 8, 3,
	    "/data/pp", 30 },
	{ "holding: no prefix, the last", HOLDING, 8, 3, "/elsewhere", 31 },
	{ "holding: no path, the last", HOLDING, 8, 3, NULL, 31 },
	{ "holding: other device's path", HOLDING, 8, 2, "/data/p", 28 },
	{ "holding: no such device", HOLDING, 9, 9, "/", 0 },
	{ "holding: cgroup hierarchy, the last", HOLDING, 0, 29, NULL, 38 },
	{ "covering: any device", COVERING, 0, 0, "/data/p/x", 31 },
	{ "covering: root", COVERING, 0, 0, "/nothing/here", 28 },
	{ "covering: stacked, the one on top", COVERING, 0, 0, "/stack/f",
	    33 },
	{ "covering: whole components", COVERING, 0, 0, "/netx", 28 },
	{ "covering: relative path", COVERING, 0, 0, "data", 0 },
	{ "covering: no path", COVERING, 0, 0, NULL, 0 },
	{ "at: the mount point", AT, 0, 0, "/data/p", 31 },
	{ "at: stacked, the first", AT, 0, 0, "/stack", 32 },
	{ "at: a path below is none", AT, 0, 0, "/data/p/x", 0 },
	{ "at: a trailing slash is none", AT, 0, 0, "/data/", 0 },
	{ "at: a comma in the name", AT, 0, 0, "/sys/fs/cgroup/cpu,memory",
	    36 },
};

static void
test_lookup_table(void **state)
{
	const struct mountinfo_entry	*e = NULL;
	const struct lookup_case	*c;
	struct mountinfo		 mi;
	size_t				 i;

	(void)state;
	assert_int_equal(mountinfo_load(LOOKUP, &mi), 0);
	for (i = 0; i < sizeof(lookup_cases) / sizeof(lookup_cases[0]); i++) {
		c = &lookup_cases[i];
		print_message("%s\n", c->what);
		switch (c->how) {
		case BY_DEV:
			e = mountinfo_by_dev(&mi, c->major, c->minor);
			break;
		case HOLDING:
			e = mountinfo_holding(&mi, c->major, c->minor,
			    c->path);
			break;
		case COVERING:
			e = mountinfo_covering(&mi, c->path);
			break;
		case AT:
			e = mountinfo_at(&mi, c->path);
			break;
		}
		if (c->want == 0)
			assert_null(e);
		else {
			assert_non_null(e);
			assert_int_equal(e->id, c->want);
		}
	}
	mountinfo_free(&mi);
}

/* The escaped mount point of mountinfo-escapes is found decoded. */
static void
test_lookup_escapes(void **state)
{
	const struct mountinfo_entry	*e;
	struct mountinfo		 mi;

	(void)state;
	assert_int_equal(mountinfo_load(TEST_DATA "/mountinfo-escapes", &mi),
	    0);
	assert_non_null(e = mountinfo_at(&mi, "/media/My Disk"));
	assert_int_equal(e->id, 50);
	assert_null(mountinfo_at(&mi, "/media/My\\040Disk"));
	assert_non_null(e = mountinfo_covering(&mi, "/media/My Disk/a b"));
	assert_int_equal(e->id, 50);
	mountinfo_free(&mi);
}

static void
test_is_cgroup_table(void **state)
{
	static const struct {
		unsigned	 id;
		const char	*controller;
		bool		 want;
	} cases[] = {
		{ 36, "memory", true },		/* rw,cpu,memory */
		{ 36, "cpu", true },
		{ 36, "cpuacct", false },
		{ 36, NULL, false },
		{ 35, "memory", false },	/* rw,name=memory */
		{ 37, NULL, true },		/* cgroup2 */
		{ 37, "memory", false },
		{ 34, NULL, false },		/* tmpfs */
		{ 34, "memory", false },
	};
	struct mountinfo		 mi;
	const struct mountinfo_entry	*e;
	size_t				 i, j;

	(void)state;
	assert_int_equal(mountinfo_load(LOOKUP, &mi), 0);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		for (e = NULL, j = 0; j < mi.n; j++)
			if (mi.v[j].id == cases[i].id)
				e = &mi.v[j];
		assert_non_null(e);
		if (mountinfo_is_cgroup(e, cases[i].controller) !=
		    cases[i].want)
			fail_msg("mount %u, %s", cases[i].id,
			    cases[i].controller != NULL ?
			    cases[i].controller : "v2");
	}
	mountinfo_free(&mi);
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test(test_parse_table),
		cmocka_unit_test(test_load_table),
		cmocka_unit_test(test_load_long),
		cmocka_unit_test(test_load_live),
		cmocka_unit_test(test_lookup_table),
		cmocka_unit_test(test_lookup_escapes),
		cmocka_unit_test(test_is_cgroup_table),
	};

	return cmocka_run_group_tests_name("mountinfo", tests, NULL, NULL);
}
