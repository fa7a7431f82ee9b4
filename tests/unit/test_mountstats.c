/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * Unit tests for mountstats: the fixtures of tests/data/mountstats/,
 * written from the kernel's format strings (v3 with iostats 1.1, v4 with
 * its own procedure list, nfsv4: and impl_id: lines and two xprt: lines,
 * iostats 1.0 with 8 numbers per op, several mounts with other
 * filesystems, an escaped mount point and a stacked one), a table of
 * malformed texts and their one-line errors, a table of odd but valid
 * ones, the malformed fixture files, mountstats_delta() on the
 * before/after pair and on counters that go down, and the machine's own
 * /proc/self/mountstats.
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
#include <unistd.h>

#include <cmocka.h>

#include "base/util.h"
#include "machine/mountstats.h"

#ifndef TEST_DATA
#define TEST_DATA "tests/data"
#endif

#define MS	TEST_DATA "/mountstats/"

/* The NFS v3 procedures, in the kernel's fixed order. */
static const char *const v3_names[] = {
	"NULL", "GETATTR", "SETATTR", "LOOKUP", "ACCESS", "READLINK", "READ",
	"WRITE", "CREATE", "MKDIR", "SYMLINK", "MKNOD", "REMOVE", "RMDIR",
	"RENAME", "LINK", "READDIR", "READDIRPLUS", "FSSTAT", "FSINFO",
	"PATHCONF", "COMMIT"
};

/* Read 'name' of tests/data/mountstats into 'ms'; fail the test if not. */
static void
read_ok(const char *name, struct mountstats *ms)
{
	char	path[256], err[LD_ERRLEN];

	(void)snprintf(path, sizeof(path), MS "%s", name);
	if (mountstats_read(path, ms, err) == -1)
		fail_msg("%s", err);
}

/* Parse the text 's' as the file "t"; return what mountstats_parse() does. */
static int
parse_text(const char *s, struct mountstats *ms, char *err)
{
	FILE	*fp;
	int	 rc;

	assert_non_null(fp = fmemopen((void *)(uintptr_t)s, strlen(s), "r"));
	rc = mountstats_parse(fp, "t", ms, err);
	assert_int_equal(fclose(fp), 0);
	return rc;
}

/* The op 'name' of 'm' has the numbers 'v' (9 of them). */
static void
op_is(const struct ms_mount *m, const char *name, const uint64_t *v)
{
	const struct ms_op	*op;
	int			 f;

	if ((op = mountstats_op(m, name)) == NULL)
		fail_msg("%s: no op %s", m->mountpoint, name);
	for (f = 0; f < MS_NFIELDS; f++)
		if (op->v[f] != v[f])
			fail_msg("%s %s %s: %llu, expected %llu", m->mountpoint,
			    name, mountstats_field_names[f],
			    (unsigned long long)op->v[f],
			    (unsigned long long)v[f]);
}

/* ===== The good fixtures ===== */

static void
test_v3(void **state)
{
	static const uint64_t	 readdir[] = { 4, 4, 0, 560, 33000, 0, 6, 7, 0 };
	static const uint64_t	 lookup[] = { 300, 300, 0, 40800, 27600, 20,
	    210, 260, 150 };
	static const uint64_t	 create[] = { 1000, 1002, 1, 164000, 260000,
	    30, 900, 1100, 0 };
	struct mountstats	 ms;
	const struct ms_mount	*m;
	size_t			 i;

	(void)state;
	read_ok("v3", &ms);
	assert_int_equal(ms.n, 1);
	m = &ms.v[0];
	assert_string_equal(m->device, "srv:/export");
	assert_string_equal(m->mountpoint, "/mnt/nfs3");
	assert_string_equal(m->fstype, "nfs");
	assert_string_equal(m->statvers, "1.1");
	assert_true(m->nfs);
	assert_int_equal(m->line, 1);
	assert_int_equal(m->age_s, 1234);
	assert_int_equal(strncmp(m->opts, "rw,relatime,vers=3,", 19), 0);
	assert_string_equal(m->caps,
	    "caps=0x3fef,wtmult=4096,dtsize=1048576,bsize=0,namlen=255");
	assert_string_equal(m->xprt,
	    "tcp 876 1 1 0 0 2470 2470 0 4940 0 2 0 1");
	assert_int_equal(m->nxprt, 1);
	assert_string_equal(m->iostats, "1.1");
	assert_int_equal(m->prog, 100003);
	assert_int_equal(m->vers, 3);
	assert_int_equal(m->nfields, 9);
	assert_int_equal(m->events[MS_INODEREVALIDATE], 150);
	assert_int_equal(m->events[MS_DENTRYREVALIDATE], 2100);
	assert_int_equal(m->events[MS_VFSGETDENTS], 15);
	assert_int_equal(m->events[MS_VFSRELEASE], 1000);
	assert_int_equal(m->events[MS_PNFS_WRITE], 0);
	assert_int_equal(m->bytes[MS_NORMALREADBYTES], 41920);
	assert_int_equal(m->bytes[MS_WRITEPAGES], 5);
	assert_int_equal(m->nops, 22);
	for (i = 0; i < m->nops; i++)
		assert_string_equal(m->ops[i].name, v3_names[i]);
	op_is(m, "READDIR", readdir);
	op_is(m, "readdir", readdir);		/* any case */
	op_is(m, "Lookup", lookup);
	op_is(m, "CREATE", create);
	assert_null(mountstats_op(m, "READ_PLUS"));
	assert_ptr_equal(mountstats_find(&ms, "/mnt/nfs3"), m);
	mountstats_free(&ms);
	assert_int_equal(ms.n, 0);
}

static void
test_v4(void **state)
{
	static const uint64_t	 open[] = { 1003, 1003, 0, 330000, 420000, 40,
	    1200, 1400, 3 };
	static const uint64_t	 bind[] = { 1, 1, 0, 120, 80, 0, 0, 0, 0 };
	static const uint64_t	 zero[MS_NFIELDS];
	struct mountstats	 ms;
	const struct ms_mount	*m;

	(void)state;
	read_ok("v4", &ms);
	assert_int_equal(ms.n, 1);
	m = &ms.v[0];
	assert_string_equal(m->device, "srv:/");
	assert_string_equal(m->fstype, "nfs4");
	assert_true(m->nfs);
	assert_int_equal(m->vers, 4);
	assert_int_equal(m->nfields, 9);
	assert_int_equal(m->nxprt, 2);
	assert_int_equal(m->nops, 69);
	assert_string_equal(m->ops[0].name, "NULL");
	assert_string_equal(m->ops[1].name, "READ");
	assert_string_equal(m->ops[68].name, "READ_PLUS");
	op_is(m, "OPEN", open);
	op_is(m, "BIND_CONN_TO_SESSION", bind);	/* wider than 12 */
	op_is(m, "READ_PLUS", zero);
	assert_int_equal(m->events[MS_VFSGETDENTS], 9);
	assert_int_equal(m->age_s, 987);
	mountstats_free(&ms);
}

static void
test_iostats10(void **state)
{
	static const uint64_t	 lookup[] = { 300, 300, 0, 40800, 27600, 20,
	    210, 260, 0 };
	struct mountstats	 ms;

	(void)state;
	read_ok("iostats10", &ms);
	assert_int_equal(ms.n, 1);
	assert_string_equal(ms.v[0].iostats, "1.0");
	assert_int_equal(ms.v[0].nfields, 8);
	assert_int_equal(ms.v[0].nops, 22);
	op_is(&ms.v[0], "LOOKUP", lookup);	/* no errors in 1.0 */
	mountstats_free(&ms);
}

static void
test_several(void **state)
{
	static const struct {
		const char	*mp;		/* decoded */
		const char	*device;	/* NULL: no mount there */
		const char	*fstype;
		bool		 nfs;
	} cases[] = {
		{ "/", "/dev/vda1", "ext4", false },	/* over rootfs */
		{ "/proc", "proc", "proc", false },
		{ "/mnt/nfs3", "srv:/export", "nfs", true },
		{ "/srv/data", "/dev/vdb1", "ext4", false },
		{ "/mnt/with space", "srv:/with space", "nfs4", true },
		{ "/mnt/stack", "srv2:/new", "nfs", true },	/* the top */
		{ "/mnt/covered", "tmpfs", "tmpfs", false },
		{ "/mnt/with\\040space", NULL, NULL, false },
		{ "/mnt", NULL, NULL, false },
		{ "/mnt/nfs3/", NULL, NULL, false },
	};
	struct mountstats	 ms;
	const struct ms_mount	*m;
	size_t			 i, nfs = 0;

	(void)state;
	read_ok("several", &ms);
	assert_int_equal(ms.n, 12);
	for (i = 0; i < ms.n; i++)
		if (ms.v[i].nfs)
			nfs++;
	assert_int_equal(nfs, 4);
	assert_string_equal(ms.v[0].device, "rootfs");
	assert_null(ms.v[0].statvers);
	assert_null(ms.v[0].ops);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		m = mountstats_find(&ms, cases[i].mp);
		if (cases[i].device == NULL) {
			if (m != NULL)
				fail_msg("%s: found", cases[i].mp);
			continue;
		}
		if (m == NULL)
			fail_msg("%s: not found", cases[i].mp);
		assert_string_equal(m->device, cases[i].device);
		assert_string_equal(m->fstype, cases[i].fstype);
		assert_int_equal(m->nfs, cases[i].nfs);
	}
	/* The lower of the stacked mounts is still there, before it. */
	m = mountstats_find(&ms, "/mnt/stack");
	assert_string_equal(m[-1].device, "srv1:/old");
	assert_int_equal(m[-1].ops[1].v[MS_OPS], 1);
	assert_int_equal(m->ops[1].v[MS_OPS], 2);
	mountstats_free(&ms);
}

/* ===== Texts, good and bad ===== */

/*
 * The 7 lines of a v3 block before "per-op statistics", with 'iostats';
 * HEAD adds that line (a per-op line after it is line 9).
 */
#define HEAD0(iostats)							\
	"device s:/e mounted on /m with fstype nfs statvers=1.1\n"	\
	"\topts:\trw,vers=3\n"						\
	"\tage:\t7\n"							\
	"\tevents:\t1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 " \
	"21 22 23 24 25 26 27 \n"					\
	"\tbytes:\t1 2 3 4 5 6 7 8 \n"					\
	"\tRPC iostats version: " iostats "  p/v: 100003/3 (nfs)\n"	\
	"\txprt:\ttcp 1 1 1 0 0 5 5 0 5 0 2 0 0\n"
#define HEAD(iostats)	HEAD0(iostats) "\tper-op statistics\n"
#define NULLOP	"\t        NULL: 1 1 0 44 24 0 0 0 0\n"
#define EXT4	"device /dev/vda1 mounted on / with fstype ext4\n"

static const struct bad_case {
	const char	*what;
	const char	*text;
	const char	*err;
} bad_cases[] = {
	{ "op line cut short", HEAD("1.1") "\t     READDIR: 4 4 0 560\n",
	    "t:9: READDIR: 4 numbers, expected 9" },
	{ "op line too long for 1.1", HEAD("1.1")
	    "\t     READDIR: 4 4 0 560 1 1 1 1 1 1\n",
	    "t:9: READDIR: 10 numbers, expected 9" },
	{ "9 numbers in 1.0", HEAD("1.0") NULLOP,
	    "t:9: NULL: 9 numbers, expected 8" },
	{ "not a number", HEAD("1.1")
	    "\t     READDIR: 4 4 0 560 -1 0 6 7 0\n",
	    "t:9: READDIR: '-1' is not a number" },
	{ "too big a number", HEAD("1.1")
	    "\t     READDIR: 18446744073709551616 4 0 560 1 0 6 7 0\n",
	    "t:9: READDIR: '18446744073709551616' is not a number" },
	{ "no colon", HEAD("1.1") "\t     READDIR 4 4 0 560 1 0 6 7 0\n",
	    "t:9: not a per-op line: 'READDIR 4 4 0 560 1 0 6 7 0'" },
	{ "a space in the name", HEAD("1.1") "\t     READ DIR: 4\n",
	    "t:9: not a per-op line: 'READ DIR: 4'" },
	{ "an op twice", HEAD("1.1") NULLOP NULLOP,
	    "t:10: NULL: a second line for it" },
	{ "no newline at the end", HEAD("1.1") "\t        NULL: 1 1 0 44",
	    "t:9: no newline at the end: the file is cut short" },
	{ "op line after another fs", EXT4 NULLOP,
	    "t:2: a statistics line outside a mount's block" },
	{ "op line after the empty line", HEAD("1.1") NULLOP "\n" NULLOP,
	    "t:11: a statistics line outside a mount's block" },
	{ "op line first", NULLOP,
	    "t:1: a statistics line outside a mount's block" },
	{ "not a mountstats line", EXT4 "mounted on /x\n",
	    "t:2: not a mountstats line: 'mounted on /x'" },
	{ "device line: a word wrong",
	    "device /dev/vda1 mounted at / with fstype ext4\n",
	    "t:1: not a device line" },
	{ "device line: too short", "device /dev/vda1 mounted on /\n",
	    "t:1: not a device line: too few words" },
	{ "device line: a word after statvers",
	    "device s:/e mounted on /m with fstype nfs statvers=1.1 x\n",
	    "t:1: not a device line: too many words" },
	{ "device line: a word after fstype",
	    "device /dev/vda1 mounted on / with fstype ext4 extra\n",
	    "t:1: device line: 'extra' where statvers= or the end belongs" },
	{ "nfs without statvers", "device s:/e mounted on /m with fstype nfs\n",
	    "t:1: nfs mount without statvers=" },
	{ "26 events",
	    "device s:/e mounted on /m with fstype nfs statvers=1.1\n"
	    "\tevents:\t1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 "
	    "21 22 23 24 25 26 \n",
	    "t:2: events: 26 numbers, expected 27" },
	{ "bytes not numbers",
	    "device s:/e mounted on /m with fstype nfs statvers=1.1\n"
	    "\tbytes:\t1 2 3 4 5 6 7 0x8\n",
	    "t:2: bytes: '0x8' is not a number" },
	{ "an unknown iostats version",
	    "device s:/e mounted on /m with fstype nfs statvers=1.1\n"
	    "\tRPC iostats version: 2.0  p/v: 100003/3 (nfs)\n",
	    "t:2: RPC iostats version '2.0': not 1.0 or 1.1" },
	{ "p/v garbled",
	    "device s:/e mounted on /m with fstype nfs statvers=1.1\n"
	    "\tRPC iostats version: 1.1  p/v: 100003-3 (nfs)\n",
	    "t:2: p/v: '100003-3' is not PROGRAM/VERSION" },
	{ "per-op before the RPC line",
	    "device s:/e mounted on /m with fstype nfs statvers=1.1\n"
	    "\tper-op statistics\n",
	    "t:2: per-op statistics before the RPC iostats line" },
	{ "no events",
	    "device s:/e mounted on /m with fstype nfs statvers=1.1\n"
	    "\tage:\t7\n\n",
	    "t:3: the block of /m (line 1) ends without events:" },
	{ "block ends before per-op", EXT4 HEAD0("1.1"),
	    "t:9: the block of /m (line 2) ends without per-op statistics" },
	{ "a device line ends a block too early",
	    "device s:/e mounted on /m with fstype nfs statvers=1.1\n"
	    "\tevents:\t1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 "
	    "21 22 23 24 25 26 27\n"
	    "\tbytes:\t1 2 3 4 5 6 7 8\n" EXT4,
	    "t:4: the block of /m (line 1) ends without per-op statistics" },
};

static void
test_bad_table(void **state)
{
	struct mountstats	ms;
	char			err[LD_ERRLEN];
	size_t			i;

	(void)state;
	for (i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++) {
		err[0] = '\0';
		errno = 0;
		if (parse_text(bad_cases[i].text, &ms, err) != -1)
			fail_msg("%s: parsed", bad_cases[i].what);
		if (errno != EINVAL)
			fail_msg("%s: errno %d", bad_cases[i].what, errno);
		if (strcmp(err, bad_cases[i].err) != 0)
			fail_msg("%s: '%s', expected '%s'", bad_cases[i].what,
			    err, bad_cases[i].err);
		mountstats_free(&ms);
	}
}

static const struct good_case {
	const char	*what;
	const char	*text;
	size_t		 n;		/* mounts */
	size_t		 nops;		/* of the last one */
	uint64_t	 ops0;		/* ops of its first op */
} good_cases[] = {
	{ "empty file", "", 0, 0, 0 },
	{ "the block ends at the end of the file", HEAD("1.1") NULLOP, 1, 1,
	    1 },
	{ "a block with no per-op lines", HEAD("1.1") "\n", 1, 0, 0 },
	{ "empty lines between mounts", "\n" EXT4 "\n\n" HEAD("1.1") NULLOP
	    "\n\n", 2, 1, 1 },
	{ "no device", "no device mounted on /x with fstype foo\n", 1, 0, 0 },
	{ "an empty device", "device  mounted on /x with fstype foo\n", 1, 0,
	    0 },
	{ "a later iostats: more fields, the first 9 kept", HEAD("1.2")
	    "\t        NULL: 5 1 0 44 24 0 0 0 0 77 88\n", 1, 1, 5 },
	{ "unknown and extra lines in the head",
	    "device s:/e mounted on /m with fstype nfs4 statvers=1.1\n"
	    "\tfuture:\tx=1\n"
	    "\t\t127.0.0.1 -> 127.0.0.1, state: CONNECTED\n"
	    "\tevents:\t1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 "
	    "21 22 23 24 25 26 27 28 29 \n"
	    "\tbytes:\t1 2 3 4 5 6 7 8 9 \n"
	    "\tRPC iostats version: 1.1  p/v: 100003/4 (nfs)\n"
	    "\tper-op statistics\n" NULLOP
	    "\t          42: 2 2 0 1 1 0 0 0 0\n\n", 1, 2, 1 },
	{ "statistics of another filesystem, skipped",
	    "device x mounted on /y with fstype other statvers=3\n"
	    "\tanything: at all\n\tREADDIR: 1\n\n" EXT4, 2, 0, 0 },
	{ "the largest number", HEAD("1.1")
	    "\t        NULL: 18446744073709551615 1 0 44 24 0 0 0 0\n", 1, 1,
	    UINT64_MAX },
};

static void
test_good_table(void **state)
{
	struct mountstats	ms;
	char			err[LD_ERRLEN];
	size_t			i;

	(void)state;
	for (i = 0; i < sizeof(good_cases) / sizeof(good_cases[0]); i++) {
		if (parse_text(good_cases[i].text, &ms, err) == -1)
			fail_msg("%s: %s", good_cases[i].what, err);
		if (ms.n != good_cases[i].n)
			fail_msg("%s: %zu mounts", good_cases[i].what, ms.n);
		if (ms.n > 0 && ms.v[ms.n - 1].nops != good_cases[i].nops)
			fail_msg("%s: %zu ops", good_cases[i].what,
			    ms.v[ms.n - 1].nops);
		if (ms.n > 0 && ms.v[ms.n - 1].nops > 0 &&
		    ms.v[ms.n - 1].ops[0].v[MS_OPS] != good_cases[i].ops0)
			fail_msg("%s: ops of the first op",
			    good_cases[i].what);
		mountstats_free(&ms);
	}
	/* The head of a later kernel: events and bytes beyond ours dropped. */
	assert_int_equal(parse_text(good_cases[7].text, &ms, err), 0);
	assert_int_equal(ms.v[0].events[MS_PNFS_WRITE], 27);
	assert_int_equal(ms.v[0].bytes[MS_WRITEPAGES], 8);
	assert_string_equal(ms.v[0].ops[1].name, "42");
	mountstats_free(&ms);
	assert_int_equal(parse_text(good_cases[4].text, &ms, err), 0);
	assert_string_equal(ms.v[0].device, "none");
	mountstats_free(&ms);
}

/* The malformed fixtures: exactly one line each, naming file and line. */
static void
test_bad_files(void **state)
{
	static const struct {
		const char	*name, *err;
	} cases[] = {
		{ "bad-truncated", MS "bad-truncated:27: READDIR: 4 numbers, "
		    "expected 9" },
		{ "bad-number", MS "bad-number:14: LOOKUP: '27x00' is not a "
		    "number" },
		{ "bad-cut", MS "bad-cut:28: no newline at the end: the file is "
		    "cut short" },
		{ "bad-outside", MS "bad-outside:2: a statistics line outside "
		    "a mount's block" },
	};
	struct mountstats	ms;
	char			path[256], err[LD_ERRLEN];
	size_t			i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		(void)snprintf(path, sizeof(path), MS "%s", cases[i].name);
		assert_int_equal(mountstats_read(path, &ms, err), -1);
		assert_int_equal(errno, EINVAL);
		assert_string_equal(err, cases[i].err);
		mountstats_free(&ms);
	}
	assert_int_equal(mountstats_read(MS "no-such-file", &ms, err), -1);
	assert_int_equal(errno, ENOENT);
	assert_string_equal(err, "open " MS "no-such-file: No such file or "
	    "directory");
	mountstats_free(&ms);
}

/* ===== Differences ===== */

static void
test_delta(void **state)
{
	static const uint64_t	 readdir[] = { 397, 397, 0, 55580, 3300000, 0,
	    400, 450, 0 };
	static const uint64_t	 getattr[] = { 1, 1, 0, 128, 112, 0, 1, 1, 0 };
	static const uint64_t	 zero[MS_NFIELDS];
	struct mountstats	 b, a;
	struct ms_mount		 d;
	const struct ms_mount	*mb, *ma;
	char			 err[LD_ERRLEN];
	size_t			 i;

	(void)state;
	read_ok("before", &b);
	read_ok("after", &a);
	assert_non_null(mb = mountstats_find(&b, "/mnt/a"));
	assert_non_null(ma = mountstats_find(&a, "/mnt/a"));
	if (mountstats_delta(mb, ma, &d, err) == -1)
		fail_msg("%s", err);
	assert_string_equal(d.mountpoint, "/mnt/a");
	assert_string_equal(d.device, "srv:/export");
	assert_true(d.nfs);
	assert_int_equal(d.vers, 3);
	assert_int_equal(d.age_s, 60);
	assert_int_equal(d.nops, 22);
	op_is(&d, "READDIR", readdir);
	op_is(&d, "GETATTR", getattr);
	op_is(&d, "LOOKUP", zero);
	op_is(&d, "CREATE", zero);
	for (i = 0; i < MS_NEVENTS; i++)
		assert_int_equal(d.events[i], i == MS_VFSGETDENTS ? 400 :
		    i == MS_DENTRYREVALIDATE ? 1 : 0);
	for (i = 0; i < MS_NBYTES; i++)
		assert_int_equal(d.bytes[i], 0);
	mountstats_clear(&d);
	assert_null(d.ops);

	/* The mount that went away and the one that came. */
	assert_non_null(mountstats_find(&b, "/mnt/gone"));
	assert_null(mountstats_find(&a, "/mnt/gone"));
	assert_null(mountstats_find(&b, "/mnt/new"));
	assert_true(mountstats_find(&a, "/mnt/new")->nfs);

	/* A copy against itself: all zero. */
	assert_int_equal(mountstats_delta(ma, ma, &d, err), 0);
	for (i = 0; i < d.nops; i++)
		assert_int_equal(d.ops[i].v[MS_OPS], 0);
	mountstats_clear(&d);
	mountstats_free(&b);
	mountstats_free(&a);
}

static void
test_delta_bad(void **state)
{
	struct mountstats	 b, back, a, v4, several, one, two;
	struct ms_mount		 d, m;
	char			 err[LD_ERRLEN];

	(void)state;
	read_ok("before", &b);
	read_ok("bad-backwards", &back);
	read_ok("after", &a);
	read_ok("v4", &v4);
	read_ok("several", &several);
	memset(&d, 0x5a, sizeof(d));
	m = d;

	/* A counter that went down: the mount and the op are named. */
	assert_int_equal(mountstats_delta(mountstats_find(&b, "/mnt/a"),
	    mountstats_find(&back, "/mnt/a"), &d, err), -1);
	assert_int_equal(errno, ERANGE);
	assert_string_equal(err, "/mnt/a: READDIR ops went down from 4 to 2 "
	    "(mounted again between the copies?)");
	assert_memory_equal(&d, &m, sizeof(d));	/* untouched */

	/* The age went down. */
	assert_int_equal(mountstats_delta(mountstats_find(&a, "/mnt/a"),
	    mountstats_find(&b, "/mnt/a"), &d, err), -1);
	assert_int_equal(errno, ERANGE);
	assert_string_equal(err, "/mnt/a: age in seconds went down from 1294 "
	    "to 1234 (mounted again between the copies?)");

	/* An op of the first copy that the second lacks. */
	assert_int_equal(parse_text(HEAD("1.1") NULLOP
	    "\t     READDIR: 1 1 0 1 1 0 0 0 0\n", &one, err), 0);
	assert_int_equal(parse_text(HEAD("1.1") NULLOP, &two, err), 0);
	assert_int_equal(mountstats_delta(&one.v[0], &two.v[0], &d, err), -1);
	assert_int_equal(errno, ERANGE);
	assert_string_equal(err, "/m: READDIR is in the first copy only");
	/* The other way round, it counts from zero. */
	assert_int_equal(mountstats_delta(&two.v[0], &one.v[0], &d, err), 0);
	assert_int_equal(mountstats_op(&d, "READDIR")->v[MS_OPS], 1);
	assert_int_equal(mountstats_op(&d, "NULL")->v[MS_OPS], 0);
	mountstats_clear(&d);
	memset(&d, 0x5a, sizeof(d));
	mountstats_free(&one);
	mountstats_free(&two);

	/* Another mount: v3 then v4; and a mount that is not NFS. */
	assert_int_equal(mountstats_delta(mountstats_find(&b, "/mnt/a"),
	    &v4.v[0], &d, err), -1);
	assert_int_equal(errno, EINVAL);
	assert_string_equal(err, "/mnt/nfs4: nfs version 3 (9 fields), then "
	    "nfs4 version 4 (9 fields): another mount");
	assert_int_equal(mountstats_delta(mountstats_find(&several, "/"),
	    mountstats_find(&several, "/"), &d, err), -1);
	assert_int_equal(errno, EINVAL);
	assert_string_equal(err, "/: not an NFS mount in both");
	assert_memory_equal(&d, &m, sizeof(d));

	mountstats_free(&b);
	mountstats_free(&back);
	mountstats_free(&a);
	mountstats_free(&v4);
	mountstats_free(&several);
}

/* This machine's own file parses (it may list no NFS mount at all). */
static void
test_live(void **state)
{
	struct mountstats	ms;
	char			err[LD_ERRLEN];

	(void)state;
	if (access(MOUNTSTATS_SELF, R_OK) == -1)
		skip();
	if (mountstats_read(MOUNTSTATS_SELF, &ms, err) == -1)
		fail_msg("%s", err);
	assert_true(ms.n > 0);
	mountstats_free(&ms);
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test(test_v3),
		cmocka_unit_test(test_v4),
		cmocka_unit_test(test_iostats10),
		cmocka_unit_test(test_several),
		cmocka_unit_test(test_bad_table),
		cmocka_unit_test(test_good_table),
		cmocka_unit_test(test_bad_files),
		cmocka_unit_test(test_delta),
		cmocka_unit_test(test_delta_bad),
		cmocka_unit_test(test_live),
	};

	return cmocka_run_group_tests_name("mountstats", tests, NULL, NULL);
}
