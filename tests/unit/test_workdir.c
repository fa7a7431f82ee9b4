/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * Unit tests for workdir.c in a mkdtemp(3) directory: the marker records
 * the directory's own inode and how its names are made, removal keeps
 * the marker when the directory cannot go and leaves a work directory
 * that was moved away where it went, and workdir_sweep() (largedir
 * --cleanup) removes a dead run's directories and names and nothing
 * else: not look-alikes without a marker, not copies of a marker, not
 * foreign files (not even ones named like largedir's, beyond the n the
 * run recorded), not a live run's; one it cannot read it reports.
 */

#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "backend/workdir.h"
#include "backend/workdir_sweep.h"
#include "base/util.h"

struct seen {
	int			n;
	struct backend_report	r[8];
	char			path[8][256];
};

static char	top[64];

/* How the rounds of the tests' work directories name their files. */
static const struct backend_opts	opts = {
	.names = NAMES_FIXED, .name_len = 8, .seed = 1,
	.started = "2026-11-29T00:00:00Z"
};

static int
setup(void **state)
{
	(void)state;
	(void)strcpy(top, "/tmp/largedir-unit.XXXXXX");
	assert_non_null(mkdtemp(top));
	return 0;
}

/* rm -r of the scratch directory: the tests plant several levels. */
static void
rm_r(const char *path)
{
	char	cmd[300];

	(void)snprintf(cmd, sizeof(cmd), "rm -rf '%s'", path);
	assert_int_equal(system(cmd), 0);
}

static int
teardown(void **state)
{
	(void)state;
	rm_r(top);
	return 0;
}

static void
touch(const char *dir, const char *name, const char *content)
{
	char	path[512];
	int	fd;

	(void)snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
	assert_true(fd >= 0);
	if (content != NULL)
		assert_int_equal(write(fd, content, strlen(content)),
		    (ssize_t)strlen(content));
	assert_int_equal(close(fd), 0);
}

static bool
exists(const char *dir, const char *name)
{
	char	path[512];

	(void)snprintf(path, sizeof(path), "%s/%s", dir, name);
	return access(path, F_OK) == 0;
}

static void
collect(void *arg, const struct backend_report *r)
{
	struct seen	*s = arg;

	assert_true(s->n < 8);
	s->r[s->n] = *r;
	(void)snprintf(s->path[s->n], sizeof(s->path[0]), "%s", r->path);
	s->r[s->n].path = s->path[s->n];
	s->n++;
}

/*
 * In a child that then dies without cleaning up, as kill -9 leaves it:
 * a work directory with one round directory of 'nfiles' names, in
 * subdirectories of 'per_dir' each (0: flat).  Return the work
 * directory's path (static).
 */
static const char *
dead_tree(unsigned nfiles, unsigned per_dir)
{
	static char	path[256];
	int		pfd[2], status;
	pid_t		pid;
	ssize_t		len;

	assert_int_equal(pipe(pfd), 0);
	if ((pid = fork()) == 0) {
		struct workdir		wd;
		struct backend_opts	o = opts;
		char			err[LD_ERRLEN], round[128], name[16];
		char			dir[160];
		unsigned		i;

		o.per_dir = per_dir;
		if (workdir_create(&wd, top, &opts, err) == -1 ||
		    workdir_round(&wd, "round-0001-1", nfiles, &o) == -1)
			_exit(1);
		(void)snprintf(round, sizeof(round), "%s/round-0001-1",
		    wd.path);
		if (mkdir(round, 0700) == -1)
			_exit(1);
		for (i = 0; i < nfiles; i++) {
			(void)snprintf(name, sizeof(name), "%08u", i);
			if (per_dir == 0) {
				touch(round, name, NULL);
				continue;
			}
			(void)snprintf(dir, sizeof(dir), "%s/d%08u", round,
			    i / per_dir);
			if (i % per_dir == 0 && mkdir(dir, 0700) == -1)
				_exit(1);
			touch(dir, name, NULL);
		}
		(void)!write(pfd[1], wd.path, strlen(wd.path));
		_exit(0);
	}
	assert_true(pid > 0);
	(void)close(pfd[1]);
	len = read(pfd[0], path, sizeof(path) - 1);
	(void)close(pfd[0]);
	assert_true(waitpid(pid, &status, 0) == pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	assert_true(len > 0);
	path[len] = '\0';
	return path;
}

/* A dead run of the flat layout. */
static const char *
dead_run(unsigned nfiles)
{
	return dead_tree(nfiles, 0);
}

static void
test_create_remove(void **state)
{
	struct workdir	wd;
	struct stat	st;
	char		err[LD_ERRLEN], want[64];

	(void)state;
	assert_int_equal(workdir_create(&wd, top, &opts, err), 0);
	assert_int_equal(strncmp(wd.path, top, strlen(top)), 0);
	assert_non_null(strstr(wd.path, "/" WORKDIR_PREFIX));
	assert_int_equal(stat(wd.path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0700);
	(void)snprintf(want, sizeof(want), "inode: %" PRIu64 "\n",
	    (uint64_t)st.st_ino);
	assert_non_null(strstr(wd.marker, want));
	assert_int_equal(strncmp(wd.marker, WORKDIR_MAGIC "\n",
	    sizeof(WORKDIR_MAGIC)), 0);
	assert_non_null(strstr(wd.marker, "names: fixed 8\nseed: 1\n"
	    "file_size: 0\n"));
	assert_true(exists(wd.path, WORKDIR_MARKER));
	assert_int_equal(workdir_remove(&wd, err), 0);
	assert_null(wd.path);
	assert_int_equal(rmdir(top), 0);	/* nothing left behind */
	assert_int_equal(mkdir(top, 0700), 0);
}

/* workdir_suspend() and _resume(): the same directory, checked again. */
static void
test_suspend_resume(void **state)
{
	struct workdir	wd, other;
	struct stat	st0, st1;
	char		err[LD_ERRLEN], path[256], moved[300];

	(void)state;
	assert_int_equal(workdir_create(&wd, top, &opts, err), 0);
	assert_int_equal(fstat(wd.fd, &st0), 0);
	workdir_suspend(&wd);
	assert_int_equal(wd.fd, -1);
	workdir_suspend(&wd);			/* idempotent */
	assert_int_equal(workdir_resume(&wd, err), 0);
	assert_true(wd.fd >= 0);
	assert_int_equal(fstat(wd.fd, &st1), 0);
	assert_true(st0.st_ino == st1.st_ino);
	assert_int_equal(workdir_resume(&wd, err), 0);	/* already open */

	/*
	 * A look-alike in its place, with a copy of another work
	 * directory's marker, is refused.
	 */
	assert_int_equal(workdir_create(&other, top, &opts, err), 0);
	workdir_suspend(&wd);
	(void)snprintf(path, sizeof(path), "%s", wd.path);
	(void)snprintf(moved, sizeof(moved), "%s.moved", path);
	assert_int_equal(rename(path, moved), 0);
	assert_int_equal(mkdir(path, 0700), 0);
	touch(path, WORKDIR_MARKER, other.marker);
	assert_int_equal(workdir_resume(&wd, err), -1);
	assert_int_equal(errno, ESTALE);
	assert_non_null(strstr(err, "its marker is not ours any more"));
	assert_int_equal(wd.fd, -1);

	/* The real one back: accepted again. */
	(void)snprintf(moved, sizeof(moved), "%s/%s", path, WORKDIR_MARKER);
	assert_int_equal(unlink(moved), 0);
	assert_int_equal(rmdir(path), 0);
	(void)snprintf(moved, sizeof(moved), "%s.moved", path);
	assert_int_equal(rename(moved, path), 0);
	assert_int_equal(workdir_resume(&wd, err), 0);
	assert_int_equal(workdir_remove(&wd, err), 0);
	assert_int_equal(workdir_remove(&other, err), 0);
}

static void
test_remove_keeps_foreign(void **state)
{
	struct workdir	wd;
	char		err[LD_ERRLEN], path[256];

	(void)state;
	assert_int_equal(workdir_create(&wd, top, &opts, err), 0);
	(void)snprintf(path, sizeof(path), "%s", wd.path);
	touch(path, "foreign", "mine");
	assert_int_equal(workdir_remove(&wd, err), -1);
	assert_int_equal(errno, ENOTEMPTY);
	assert_non_null(strstr(err, path));
	/* The marker is back, so --cleanup can still find it. */
	assert_true(exists(path, WORKDIR_MARKER));
	assert_true(exists(path, "foreign"));
	workdir_keep(&wd);
	assert_null(wd.path);
	assert_true(exists(path, WORKDIR_MARKER));
}

static void
test_round_name(void **state)
{
	char	buf[32];

	(void)state;
	backend_round_name(buf, sizeof(buf), 7, 2);
	assert_string_equal(buf, "round-0007-2");
	backend_round_name(buf, sizeof(buf), 12345, 10);
	assert_string_equal(buf, "round-12345-10");
}

static void
test_sweep_dead_run(void **state)
{
	struct seen	 s = { 0 };
	const char	*wd;
	char		 err[LD_ERRLEN], path[256];

	(void)state;
	wd = dead_run(5);
	(void)snprintf(path, sizeof(path), "%s", wd);
	assert_int_equal(workdir_sweep(top, collect, &s, err), 1);
	assert_int_equal(s.n, 1);
	assert_true(s.r[0].removed);
	assert_int_equal(s.r[0].files, 5);
	assert_int_equal(s.r[0].kept, 0);
	assert_null(s.r[0].why);
	assert_int_equal(access(path, F_OK), -1);
	assert_int_equal(rmdir(top), 0);	/* nothing left behind */
	assert_int_equal(mkdir(top, 0700), 0);
}

static void
test_sweep_keeps_foreign(void **state)
{
	struct seen	 s = { 0 };
	char		 err[LD_ERRLEN], wd[256], round[300];

	(void)state;
	(void)snprintf(wd, sizeof(wd), "%s", dead_run(4));
	(void)snprintf(round, sizeof(round), "%s/round-0001-1", wd);
	touch(round, "notes.txt", "keep me");
	touch(wd, "other", NULL);
	assert_int_equal(workdir_sweep(top, collect, &s, err), 1);
	assert_false(s.r[0].removed);
	assert_int_equal(s.r[0].files, 4);
	/* notes.txt and other: the round directory is largedir's own. */
	assert_int_equal(s.r[0].kept, 2);
	assert_true(exists(round, "notes.txt"));
	assert_true(exists(wd, "other"));
	assert_true(exists(wd, WORKDIR_MARKER));
	assert_false(exists(round, "00000000"));
}

static void
test_sweep_ignores_lookalikes(void **state)
{
	struct seen	 s = { 0 };
	struct workdir	 live;
	char		 err[LD_ERRLEN], fake[256], copy[256], buf[512];
	char		 real[256];
	int		 fd;
	ssize_t		 len;

	(void)state;
	/* A directory named like ours, without a marker. */
	(void)snprintf(fake, sizeof(fake), "%s/" WORKDIR_PREFIX "AAAAAA", top);
	assert_int_equal(mkdir(fake, 0755), 0);
	assert_int_equal(mkdir(strcat(strcpy(buf, fake), "/round-0001-1"),
	    0755), 0);
	touch(buf, "00000000", "x");
	/* One with a copy of a dead run's marker: the inode differs. */
	(void)snprintf(real, sizeof(real), "%s", dead_run(0));
	(void)snprintf(copy, sizeof(copy), "%s/" WORKDIR_PREFIX "BBBBBB", top);
	assert_int_equal(mkdir(copy, 0755), 0);
	(void)snprintf(buf, sizeof(buf), "%s/" WORKDIR_MARKER, real);
	fd = open(buf, O_RDONLY);
	assert_true(fd >= 0);
	len = read(fd, buf, sizeof(buf) - 1);
	assert_true(len > 0);
	buf[len] = '\0';
	(void)close(fd);
	touch(copy, WORKDIR_MARKER, buf);
	touch(copy, "00000001", "y");
	/* And a live one: this process's own. */
	assert_int_equal(workdir_create(&live, top, &opts, err), 0);

	assert_int_equal(workdir_sweep(top, collect, &s, err), 2);
	/* The real dead run went; the live one was reported, not touched. */
	assert_int_equal(access(real, F_OK), -1);
	assert_true(exists(fake, "round-0001-1/00000000"));
	assert_true(exists(copy, "00000001"));
	assert_true(exists(copy, WORKDIR_MARKER));
	assert_true(exists(live.path, WORKDIR_MARKER));
	if (s.r[0].why == NULL)
		s.r[0] = s.r[1];
	assert_non_null(s.r[0].why);
	assert_non_null(strstr(s.r[0].why, "in use"));
	assert_int_equal(workdir_remove(&live, err), 0);
}

/*
 * Issue 16, point 11: a dead run's round recorded 4 files; a foreign
 * file named like one of ours but beyond that n ("99999999", and
 * "00000004") stays, and is counted as kept; a --churn file goes.
 */
static void
test_sweep_only_its_n(void **state)
{
	struct seen	 s = { 0 };
	char		 err[LD_ERRLEN], wd[256], round[300];

	(void)state;
	(void)snprintf(wd, sizeof(wd), "%s", dead_run(4));
	(void)snprintf(round, sizeof(round), "%s/round-0001-1", wd);
	touch(round, "99999999", "foreign");
	touch(round, "00000004", "foreign too");
	/* --churn's files go; names only like them stay. */
	touch(round, "churn-0000000007", "");
	touch(round, "churn-7", "foreign");
	touch(round, "churn-00000000077", "foreign");
	assert_int_equal(workdir_sweep(top, collect, &s, err), 1);
	assert_false(s.r[0].removed);
	assert_int_equal(s.r[0].files, 5);
	assert_int_equal(s.r[0].kept, 4);
	assert_true(exists(round, "99999999"));
	assert_true(exists(round, "00000004"));
	assert_false(exists(round, "00000003"));
	assert_false(exists(round, "churn-0000000007"));
	assert_true(exists(round, "churn-7"));
	assert_true(exists(round, "churn-00000000077"));
}

/*
 * A dead run of the tree layout (7 files, 3 a directory): its files and
 * directories go; a file of ours in the wrong directory, a directory
 * beyond its last and a foreign file stay, with the directories that
 * hold them, counted as kept.
 */
static void
test_sweep_tree(void **state)
{
	struct seen	 s = { 0 };
	char		 err[LD_ERRLEN], wd[256], round[300], d1[320];
	char		 d2[320];

	(void)state;
	(void)snprintf(wd, sizeof(wd), "%s", dead_tree(7, 3));
	(void)snprintf(round, sizeof(round), "%s/round-0001-1", wd);
	(void)snprintf(d1, sizeof(d1), "%s/d00000001", round);
	(void)snprintf(d2, sizeof(d2), "%s/d00000002", round);
	assert_true(exists(round, "d00000000"));
	assert_true(exists(d2, "00000006"));
	touch(d1, "foreign", "x");
	touch(d2, "00000000", "ours, but d00000000's");
	assert_int_equal(mkdir(strcat(strcpy(err, round), "/d00000003"), 0700),
	    0);
	assert_int_equal(workdir_sweep(top, collect, &s, err), 1);
	assert_false(s.r[0].removed);
	assert_int_equal(s.r[0].files, 7);
	assert_int_equal(s.r[0].kept, 3);
	assert_false(exists(round, "d00000000"));
	assert_true(exists(d1, "foreign"));
	assert_false(exists(d1, "00000003"));
	assert_true(exists(d2, "00000000"));
	assert_false(exists(d2, "00000006"));
	assert_true(exists(round, "d00000003"));
}

/*
 * A marker of an older largedir, without the seed: names of the
 * recorded shape go, as they always did.
 */
static void
test_sweep_old_marker(void **state)
{
	struct seen	 s = { 0 };
	struct stat	 st;
	char		 err[LD_ERRLEN], wd[256], round[300], host[256];
	char		 text[512];

	(void)state;
	(void)snprintf(wd, sizeof(wd), "%s/" WORKDIR_PREFIX "OLDOLD", top);
	assert_int_equal(mkdir(wd, 0700), 0);
	assert_int_equal(stat(wd, &st), 0);
	assert_int_equal(gethostname(host, sizeof(host)), 0);
	(void)snprintf(text, sizeof(text), WORKDIR_MAGIC "\nhost: %s\n"
	    "pid: 99999999\ninode: %" PRIu64 "\nnames: fixed 8\n", host,
	    (uint64_t)st.st_ino);
	touch(wd, WORKDIR_MARKER, text);
	(void)snprintf(round, sizeof(round), "%s/round-0001-1", wd);
	assert_int_equal(mkdir(round, 0700), 0);
	touch(round, "00000000", NULL);
	touch(round, "12345678", NULL);
	assert_int_equal(workdir_sweep(top, collect, &s, err), 1);
	assert_true(s.r[0].removed);
	assert_int_equal(s.r[0].files, 2);
}

/*
 * Issue 16, point 4: the work directory moved away and an empty
 * directory of the same name put in its place.  Removing it keeps the
 * foreign directory, leaves ours where it went with its marker, and says
 * where that is.
 */
static void
test_remove_moved(void **state)
{
	struct workdir	wd;
	char		err[LD_ERRLEN], path[256], moved[300];

	(void)state;
	assert_int_equal(workdir_create(&wd, top, &opts, err), 0);
	(void)snprintf(path, sizeof(path), "%s", wd.path);
	(void)snprintf(moved, sizeof(moved), "%s/elsewhere", top);
	assert_int_equal(rename(path, moved), 0);
	assert_int_equal(mkdir(path, 0700), 0);
	assert_int_equal(workdir_remove(&wd, err), -1);
	assert_int_equal(errno, EXDEV);
	assert_non_null(strstr(err, "was moved to "));
	assert_non_null(strstr(err, moved));
	assert_true(exists(path, "."));
	assert_false(exists(path, WORKDIR_MARKER));
	assert_true(exists(moved, WORKDIR_MARKER));
	assert_null(wd.path);
}

/* A work directory this process cannot read is reported, not hidden. */
static void
test_sweep_unreadable(void **state)
{
	struct seen	 s = { 0 };
	char		 err[LD_ERRLEN], path[256];
	pid_t		 pid;
	int		 status;

	(void)state;
	if (geteuid() != 0)
		skip();		/* needs another uid to be refused */
	(void)snprintf(path, sizeof(path), "%s/" WORKDIR_PREFIX "CLOSED", top);
	assert_int_equal(mkdir(path, 0700), 0);
	assert_int_equal(chmod(top, 0755), 0);
	if ((pid = fork()) == 0) {
		if (setgid(65534) == -1 || setuid(65534) == -1)
			_exit(2);
		if (workdir_sweep(top, collect, &s, err) != 1 || s.n != 1 ||
		    s.r[0].why == NULL ||
		    strstr(s.r[0].why, "permission denied") == NULL)
			_exit(1);
		_exit(0);
	}
	assert_true(pid > 0);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

static void
test_sweep_bad_parent(void **state)
{
	struct seen	s = { 0 };
	char		err[LD_ERRLEN];

	(void)state;
	assert_int_equal(workdir_sweep("/nonexistent/largedir", collect, &s,
	    err), -1);
	assert_int_equal(errno, ENOENT);
	assert_non_null(strstr(err, "/nonexistent/largedir"));
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test_setup_teardown(test_create_remove, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_suspend_resume, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_remove_keeps_foreign,
		    setup, teardown),
		cmocka_unit_test(test_round_name),
		cmocka_unit_test_setup_teardown(test_sweep_dead_run, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_sweep_keeps_foreign,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_sweep_ignores_lookalikes,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_sweep_only_its_n, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_sweep_tree, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_sweep_old_marker, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_remove_moved, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_sweep_unreadable, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_sweep_bad_parent, setup,
		    teardown),
	};

	return cmocka_run_group_tests_name("workdir", tests, NULL, NULL);
}
