/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * Unit tests for kmsg.c: records of /dev/kmsg as the kernel writes them
 * (a refused mount option of tmpfs, ext4 and btrfs, with and without the
 * KEY=VALUE lines that may follow), which of them are taken, and what is
 * kept of them.  kmsg_said() on a descriptor that is not /dev/kmsg (a
 * pipe) finds its records the same way.
 */

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "machine/kmsg.h"

#define REC(s)	(s), sizeof(s) - 1

static void
test_parse(void **state)
{
	char	buf[128];

	(void)state;
	assert_int_equal(kmsg_parse(REC("3,26931,31610066271,-;tmpfs: "
	    "Unknown parameter 'no_such_option'\n"), "tmpfs", "x", buf,
	    sizeof(buf)), 1);
	assert_string_equal(buf, "tmpfs: Unknown parameter 'no_such_option'");
	/* By the device, in any case; the KEY=VALUE lines left out. */
	assert_int_equal(kmsg_parse(REC("3,7,8,-;EXT4-fs (loop0): "
	    "Unrecognized mount option \"x=1\" or missing value\n "
	    "SUBSYSTEM=block\n DEVICE=b7:0\n"), "xfs", "loop0", buf,
	    sizeof(buf)), 1);
	assert_string_equal(buf, "EXT4-fs (loop0): Unrecognized mount option "
	    "\"x=1\" or missing value");
	assert_int_equal(kmsg_parse(REC("3,9,10,-;BTRFS error: unrecognized "
	    "mount option 'y'\n"), "btrfs", NULL, buf, sizeof(buf)), 1);
	/* Cut to the buffer. */
	assert_int_equal(kmsg_parse(REC("3,9,10,-;BTRFS error: unrecognized "
	    "mount option 'y'\n"), "btrfs", NULL, buf, 6), 1);
	assert_string_equal(buf, "BTRFS");
	/* Another filesystem's, or below a warning (6: info), or no text. */
	strcpy(buf, "kept");
	assert_int_equal(kmsg_parse(REC("3,1,2,-;xfs: Unknown parameter "
	    "'z'\n"), "tmpfs", "loop0", buf, sizeof(buf)), 0);
	assert_int_equal(kmsg_parse(REC("6,1,2,-;EXT4-fs (loop0): mounted "
	    "filesystem\n"), "ext4", "loop0", buf, sizeof(buf)), 0);
	assert_int_equal(kmsg_parse(REC("3,1,2,-tmpfs\n"), "tmpfs", NULL,
	    buf, sizeof(buf)), 0);
	assert_int_equal(kmsg_parse(REC("x;tmpfs\n"), "tmpfs", NULL, buf,
	    sizeof(buf)), 0);
	assert_int_equal(kmsg_parse(REC("3,1,2,-;tmpfs: x\n"), "", NULL, buf,
	    sizeof(buf)), 0);
	assert_string_equal(buf, "kept");
}

/* kmsg_said(): the last record that matches, and "" for none or -1. */
static void
test_said(void **state)
{
	static const char	recs[] = "3,1,2,-;tmpfs: first\n";
	char			buf[64];
	int			p[2];

	(void)state;
	strcpy(buf, "x");
	kmsg_said(-1, "tmpfs", NULL, buf, sizeof(buf));
	assert_string_equal(buf, "");
	assert_int_equal(pipe(p), 0);
	assert_int_equal(write(p[1], recs, sizeof(recs) - 1),
	    (ssize_t)sizeof(recs) - 1);
	assert_int_equal(close(p[1]), 0);
	kmsg_said(p[0], "tmpfs", NULL, buf, sizeof(buf));
	assert_string_equal(buf, "tmpfs: first");
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_said),
	};

	return cmocka_run_group_tests_name("kmsg", tests, NULL, NULL);
}
