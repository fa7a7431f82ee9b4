/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * Unit tests for mkfs.c that need no root: mkfs_last_line() on logs as
 * mke2fs and friends write them (a table of contents and the line a
 * message should quote), and mkfs_run() with stand-ins for mkfs, the
 * shell scripts in tests/data/mkfs/: success, a failure whose last line
 * is quoted and whose log is named and kept, a failure without output,
 * death by a signal, a last line too long for a message, and a SIGINT to
 * largedir while mkfs runs, which must reach mkfs at once.
 * (mkfs_check_device() needs root and a loop device: test_target.c.)
 */

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/sig.h"
#include "base/util.h"
#include "target/mkfs.h"

#ifndef TEST_DATA
#define TEST_DATA "tests/data"
#endif

#define SCRIPTS	TEST_DATA "/mkfs"

static char	dir[64];	/* this test's directory */
static char	logpath[128];	/* dir/mkfs.log */

static int
setup(void **state)
{
	(void)state;
	(void)strcpy(dir, "/tmp/largedir-mkfs.XXXXXX");
	assert_non_null(mkdtemp(dir));
	(void)snprintf(logpath, sizeof(logpath), "%s/mkfs.log", dir);
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	(void)unlink(logpath);
	assert_int_equal(rmdir(dir), 0);
	return 0;
}

/* ===== mkfs_last_line() ===== */

static void
test_last_line(void **state)
{
	static const struct {
		const char	*what, *text, *want;
	} cases[] = {
		{ "empty", "", "" },
		{ "blank lines only", "\n  \n\t\n", "" },
		{ "one line", "one\n", "one" },
		{ "no final newline", "a\nabc", "abc" },
		{ "blank lines after", "a\nb\n\n\n", "b" },
		{ "blanks trimmed", "a\n   last one \t\n  \n", "last one" },
		{ "mke2fs progress", "Writing superblocks and filesystem "
		    "accounting information: 0/1\b\b\b   \b\b\bmkfs.ext4: "
		    "Input/output error while writing out and closing file "
		    "system\n", "Writing superblocks and filesystem "
		    "accounting information: mkfs.ext4: Input/output error "
		    "while writing out and closing file system" },
		{ "backspace at the start", "\b\b\bx\n", "x" },
		{ "carriage returns", "progress 10%\rprogress 100%\r\n",
		    "progress 100%" },
		{ "control characters", "tab\there\abell\x1b[0m\n",
		    "tab here bell [0m" },
	};
	char	buf[LD_ERRLEN], *big;
	size_t	i;
	FILE	*fp;
	int	fd;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		fd = open(logpath, O_RDWR | O_CREAT | O_TRUNC, 0644);
		assert_true(fd >= 0);
		assert_int_equal(write(fd, cases[i].text,
		    strlen(cases[i].text)), (ssize_t)strlen(cases[i].text));
		(void)strcpy(buf, "junk");
		mkfs_last_line(fd, buf, sizeof(buf));
		if (strcmp(buf, cases[i].want) != 0)
			fail_msg("%s: got '%s', want '%s'", cases[i].what, buf,
			    cases[i].want);
		assert_int_equal(close(fd), 0);
	}

	/* Only the tail of a long log is read; a long line is cut. */
	fp = fopen(logpath, "w");
	assert_non_null(fp);
	for (i = 0; i < 10000; i++)
		(void)fputc('x', fp);
	(void)fputs("\nthe end\n", fp);
	assert_int_equal(fclose(fp), 0);
	fd = open(logpath, O_RDONLY);
	assert_true(fd >= 0);
	mkfs_last_line(fd, buf, sizeof(buf));
	assert_string_equal(buf, "the end");
	assert_int_equal(close(fd), 0);
	big = xmalloc(1000);
	memset(big, 'y', 999);
	big[999] = '\0';
	fd = open(logpath, O_RDWR | O_TRUNC);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, big, 999), 999);
	mkfs_last_line(fd, buf, sizeof(buf));
	assert_int_equal(strlen(buf), sizeof(buf) - 1);
	assert_int_equal(close(fd), 0);
	free(big);
}

/* ===== mkfs_run() ===== */

/* The last line of the file 'path', as mkfs_last_line() sees it. */
static void
file_last_line(const char *path, char *buf, size_t len)
{
	int	fd;

	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	mkfs_last_line(fd, buf, len);
	(void)close(fd);
}

static void
test_run(void **state)
{
	static const struct {
		const char	*script;
		int		 rc, err;
		bool		 keep;
		const char	*want;	/* the message, %s for the log */
	} cases[] = {
		{ "ok.sh", 0, 0, false, NULL },
		{ "fails.sh", -1, EIO, true, "sh failed (exit 1): "
		    "Writing superblocks and filesystem accounting "
		    "information: mkfs.fake: No space left on device while "
		    "writing out and closing file system; log kept in %s "
		    "until largedir cleanup" },
		{ "silent.sh", -1, EIO, false, "sh failed (exit 3) with no "
		    "output" },
		{ "killed.sh", -1, EIO, true, "sh killed by SIGKILL: started "
		    "on /dev/fake; log kept in %s until largedir cleanup" },
	};
	char	cmd[256], err[LD_ERRLEN], want[LD_ERRLEN * 2], *as_run;
	size_t	i;
	bool	keep;
	int	rc;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		(void)snprintf(cmd, sizeof(cmd), "sh  " SCRIPTS "/%s",
		    cases[i].script);
		err[0] = '\0';
		errno = 0;
		keep = !cases[i].keep;
		rc = mkfs_run(cmd, "/dev/fake", logpath, &as_run, &keep, err);
		if (rc != cases[i].rc)
			fail_msg("%s: returned %d: %s", cases[i].script, rc,
			    err);
		(void)snprintf(want, sizeof(want), "sh " SCRIPTS "/%s "
		    "/dev/fake", cases[i].script);
		assert_string_equal(as_run, want);
		free(as_run);
		assert_int_equal(keep, cases[i].keep);
		if (rc == 0) {
			file_last_line(logpath, want, sizeof(want));
			assert_string_equal(want, "formatted /dev/fake");
			continue;
		}
		assert_int_equal(errno, cases[i].err);
		(void)snprintf(want, sizeof(want), cases[i].want, logpath);
		assert_string_equal(err, want);
	}

	/* Too long a last line is cut; the log's name is not. */
	rc = mkfs_run("sh " SCRIPTS "/long.sh", "/dev/fake", logpath, &as_run,
	    &keep, err);
	free(as_run);
	assert_int_equal(rc, -1);
	assert_true(keep);
	assert_int_equal(strlen(err), LD_ERRLEN - 1);
	assert_int_equal(strncmp(err, "sh failed (exit 1): error: word0 "
	    "word1 ", 32), 0);
	(void)snprintf(want, sizeof(want), "...; log kept in %s until "
	    "largedir cleanup", logpath);
	assert_string_equal(err + strlen(err) - strlen(want), want);

	/* No program: nothing runs. */
	rc = mkfs_run(" \t", "/dev/fake", logpath, &as_run, &keep, err);
	assert_int_equal(rc, -1);
	assert_int_equal(errno, EINVAL);
	assert_null(as_run);
}

/*
 * SIGINT to largedir while mkfs runs: sig.c catches it and mkfs_run()
 * passes it on, so mkfs stops at once instead of in ten seconds.
 */
static void
test_run_interrupted(void **state)
{
	struct timespec	t0, t1;
	char		err[LD_ERRLEN], *as_run;
	bool		keep;
	int		rc;

	(void)state;
	assert_int_equal(sig_setup(false), 0);
	(void)clock_gettime(CLOCK_MONOTONIC, &t0);
	rc = mkfs_run("sh " SCRIPTS "/interrupt.sh", "/dev/fake", logpath,
	    &as_run, &keep, err);
	(void)clock_gettime(CLOCK_MONOTONIC, &t1);
	free(as_run);
	(void)signal(SIGINT, SIG_DFL);
	(void)signal(SIGTERM, SIG_DFL);
	(void)signal(SIGPIPE, SIG_DFL);
	assert_int_equal(rc, -1);
	assert_int_equal(sig_count, 1);
	assert_int_equal(sig_first, SIGINT);
	sig_count = sig_first = sig_poll = 0;
	assert_non_null(strstr(err, "killed by SIGINT"));
	if (t1.tv_sec - t0.tv_sec > 3)
		fail_msg("mkfs ran %ld s after SIGINT: not passed on",
		    (long)(t1.tv_sec - t0.tv_sec));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_last_line, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_run, setup, teardown),
		cmocka_unit_test_setup_teardown(test_run_interrupted, setup,
		    teardown),
	};

	return cmocka_run_group_tests_name("mkfs", tests, NULL, NULL);
}
