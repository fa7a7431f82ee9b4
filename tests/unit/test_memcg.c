/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * Unit tests for memcg.c.  memcg_find() runs against fixture roots in
 * tests/data/memcg/ (table-driven): "v1" is a copy of a machine with the
 * v1 memory controller, "v2" a CI runner (system.slice hands memory to
 * its services), "v2-deep" a cgroup three levels down whose ancestors'
 * cgroup.subtree_control the tests rewrite, "v2-nomem" a cgroup v2
 * without memory, "none" nothing mounted, "ns-v1", "ns-v2" and "nsroot"
 * mounts whose root is a prefix of our cgroup (containers, cgroup
 * namespaces), "escapes" a mount point with \040 and look-alike
 * controllers.
 *
 * The functions that write work on a copy of a fixture in a mkdtemp(3)
 * directory.  mkdir(2) there makes no control files, so memcg_create()
 * can only be followed up to its first write (which fails, and the new
 * directory must be gone again): far enough to see where on v2 the
 * child goes, and that no cgroup.subtree_control was written.
 * memcg_enter(), the counters, the reset, memcg_remove() and
 * memcg_sweep() work on plain files and directories.
 *
 * The live tests need root and a memory controller, and are skipped
 * without them: a limit that reads back, a child that enters, a child
 * that the OOM killer kills, the peak and its reset, and the sweep.
 * The teardown removes whatever cgroup a failed test left.
 */

#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/util.h"
#include "target/memcg.h"

#ifndef TEST_DATA
#define TEST_DATA "tests/data"
#endif

#define DATA		TEST_DATA "/memcg"
#define MIB		(1024ULL * 1024)
#define V1_DIR		"/sys/fs/cgroup/memory/process_api/" \
			"eb6d34a78d5723e57fca4419c610af39"
#define V2_DIR		"/sys/fs/cgroup/system.slice/runner.service"
#define V2_TOP		"/sys/fs/cgroup"
#define V2_DEEP		"/ci.slice/ci-job.slice/run.scope"
#define SUBTREE		"/cgroup.subtree_control"
#define NO_MEMCG	"no memory cgroup controller (neither cgroup v1 " \
			"memory nor cgroup v2 with memory in " \
			"cgroup.controllers"

struct seen {
	int	n;
	char	path[8][PATH_MAX];
	bool	removed[8];
	char	why[8][128];
};

static char		scratch[64];	/* a test's copy of a fixture */
static struct memcg	live;		/* the live cgroup a test made */
static char		extra[4][PATH_MAX]; /* cgroups made by hand */

static void	fmt(char *, size_t, const char *, ...)
		    __attribute__((format(printf, 3, 4)));

/* ===== Helpers ===== */

/* snprintf(3) into 'buf' of 'len' bytes, which must be enough. */
static void
fmt(char *buf, size_t len, const char *f, ...)
{
	va_list	ap;
	int	n;

	va_start(ap, f);
	n = vsnprintf(buf, len, f, ap);
	va_end(ap);
	assert_true(n >= 0 && (size_t)n < len);
}

/* Copy fixture 'name' into a new scratch directory. */
static void
copy_fixture(const char *name)
{
	char	cmd[PATH_MAX * 2];

	(void)strcpy(scratch, "/tmp/test_memcg.XXXXXX");
	assert_non_null(mkdtemp(scratch));
	fmt(cmd, sizeof(cmd), "cp -a '%s/%s/.' '%s'", DATA, name,
	    scratch);
	assert_int_equal(system(cmd), 0);
}

/* Read the file 'path' into 'buf' of 'len' bytes; return its length. */
static ssize_t
slurp(const char *path, char *buf, size_t len)
{
	ssize_t	n;
	int	fd;

	if ((fd = open(path, O_RDONLY)) == -1)
		return -1;
	n = read(fd, buf, len - 1);
	(void)close(fd);
	if (n >= 0)
		buf[n] = '\0';
	return n;
}

/* Write 'text' to the file 'path', creating it. */
static void
spit(const char *path, const char *text)
{
	FILE	*fp;

	assert_non_null(fp = fopen(path, "w"));
	assert_int_equal(fputs(text, fp) >= 0, 1);
	assert_int_equal(fclose(fp), 0);
}

static bool
exists(const char *path)
{
	struct stat	st;

	return lstat(path, &st) == 0;
}

/* A pid that was ours and is gone: a child that exited and was reaped. */
static pid_t
dead_pid(void)
{
	pid_t	pid;
	int	status;

	assert_true((pid = fork()) != -1);
	if (pid == 0)
		_exit(0);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	return pid;
}

/* A child that exited and was not reaped yet. */
static pid_t
zombie_pid(void)
{
	char	path[64], buf[256], *p;
	pid_t	pid;
	int	i;

	assert_true((pid = fork()) != -1);
	if (pid == 0)
		_exit(0);
	fmt(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	for (i = 0; i < 500; i++) {
		if (slurp(path, buf, sizeof(buf)) > 0 &&
		    (p = strrchr(buf, ')')) != NULL && p[2] == 'Z')
			return pid;
		(void)usleep(2000);
	}
	fail_msg("child %ld did not become a zombie", (long)pid);
	return -1;
}

/* A live child whose name is "largedir", as a running largedir's is. */
static pid_t
largedir_pid(void)
{
	char	path[64], buf[64];
	pid_t	pid;
	int	i;

	assert_true((pid = fork()) != -1);
	if (pid == 0) {
		(void)prctl(PR_SET_NAME, "largedir", 0, 0, 0);
		for (;;)
			(void)pause();
	}
	fmt(path, sizeof(path), "/proc/%ld/comm", (long)pid);
	for (i = 0; i < 500; i++) {
		if (slurp(path, buf, sizeof(buf)) > 0 &&
		    strcmp(buf, "largedir\n") == 0)
			return pid;
		(void)usleep(2000);
	}
	fail_msg("child %ld was not renamed", (long)pid);
	return -1;
}

static void
record(void *arg, const struct memcg_report *r)
{
	struct seen	*s = arg;

	assert_true(s->n < 8);
	(void)snprintf(s->path[s->n], PATH_MAX, "%s", r->path);
	s->removed[s->n] = r->removed;
	(void)snprintf(s->why[s->n], 128, "%s", r->why != NULL ? r->why : "");
	s->n++;
}

/* The report on 'path', or -1. */
static int
seen_at(const struct seen *s, const char *path)
{
	int	i;

	for (i = 0; i < s->n; i++)
		if (strcmp(s->path[i], path) == 0)
			return i;
	return -1;
}

/* Whether the live tests can run; if not, say why and skip. */
static void
need_live(void)
{
	enum memcg_version	v;
	char			dir[PATH_MAX], err[LD_ERRLEN];

	if (geteuid() != 0) {
		print_message("skipped: needs root to make memory cgroups\n");
		skip();
	}
	if (memcg_find("/", &v, dir, sizeof(dir), err) == -1) {
		print_message("skipped: %s\n", err);
		skip();
	}
}

/*
 * Make the live cgroup with 'limit', skipping where no v2 cgroup hands
 * memory to its children.
 */
static void
make_live(uint64_t limit)
{
	char	err[LD_ERRLEN];

	if (memcg_create(&live, "/", limit, err) == -1) {
		if (errno == ENOTSUP && strncmp(err, "cgroup v2: ",
		    strlen("cgroup v2: ")) == 0) {
			print_message("skipped: %s\n", err);
			skip();
		}
		fail_msg("memcg_create: %s", err);
	}
}

/*
 * Run 'fn'('arg') in a child that entered the live cgroup first; return
 * its wait status.  The child exits 100 if it could not enter, 101 if
 * /proc/self/cgroup does not show the cgroup afterwards.
 */
static int
in_child(int (*fn)(uint64_t), uint64_t arg)
{
	FILE	*fp;
	char	 line[PATH_MAX], want[64];
	pid_t	 pid;
	int	 status, found = 0;

	fmt(want, sizeof(want), "/" MEMCG_PREFIX "%ld\n",
	    (long)getpid());
	assert_true((pid = fork()) != -1);
	if (pid == 0) {
		if (memcg_enter(&live) == -1)
			_exit(100);
		if ((fp = fopen("/proc/self/cgroup", "r")) == NULL)
			_exit(101);
		while (fgets(line, sizeof(line), fp) != NULL)
			if ((live.version == MEMCG_V1 ?
			    strstr(line, ":memory:") != NULL :
			    strncmp(line, "0::", 3) == 0) &&
			    strlen(line) > strlen(want) &&
			    strcmp(line + strlen(line) - strlen(want),
			    want) == 0)
				found = 1;
		(void)fclose(fp);
		_exit(found ? fn(arg) : 101);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	return status;
}

static int
do_nothing(uint64_t arg)
{
	(void)arg;
	return 0;
}

/* Touch 'bytes' of new anonymous memory, one write a page. */
static int
touch(uint64_t bytes)
{
	volatile char	*p;
	size_t		 i;

	p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return 2;
	for (i = 0; i < bytes; i += 4096)
		p[i] = 1;
	return 0;
}

/* The number in the file 'name' of the live cgroup. */
static uint64_t
live_num(const char *name)
{
	char	path[PATH_MAX], buf[64];

	fmt(path, sizeof(path), "%s/%s", live.dir, name);
	assert_true(slurp(path, buf, sizeof(buf)) > 0);
	return strtoull(buf, NULL, 10);
}

static int
setup(void **state)
{
	(void)state;
	scratch[0] = '\0';
	memset(&live, 0, sizeof(live));
	memset(extra, 0, sizeof(extra));
	return 0;
}

/* Undo whatever a test left, even when it failed half-way. */
static int
teardown(void **state)
{
	char	cmd[PATH_MAX + 64], err[LD_ERRLEN];
	size_t	i;

	(void)state;
	if (live.dir != NULL && memcg_remove(&live, err) == -1)
		print_message("teardown: %s\n", err);
	for (i = 0; i < sizeof(extra) / sizeof(extra[0]); i++)
		if (extra[i][0] != '\0')
			(void)rmdir(extra[i]);
	if (scratch[0] != '\0') {
		fmt(cmd, sizeof(cmd), "rm -rf '%s'", scratch);
		assert_int_equal(system(cmd), 0);
	}
	return 0;
}

/* ===== memcg_find() on fixtures ===== */

static const struct find_case {
	const char		*what;
	const char		*root;
	const char		*base;	/* 'root' without a trailing slash */
	enum memcg_version	 version;
	const char		*dir;	/* below 'base' */
} find_cases[] = {
	{ "v1, this machine", DATA "/v1", DATA "/v1", MEMCG_V1, V1_DIR },
	{ "v1, trailing slash", DATA "/v1/", DATA "/v1", MEMCG_V1, V1_DIR },
	{ "v2, CI runner", DATA "/v2", DATA "/v2", MEMCG_V2, V2_DIR },
	{ "v2, three levels down", DATA "/v2-deep", DATA "/v2-deep", MEMCG_V2,
	    V2_TOP V2_DEEP },
	{ "v1 in a container", DATA "/ns-v1", DATA "/ns-v1", MEMCG_V1,
	    "/sys/fs/cgroup/memory" },
	{ "v2, mounts of other roots", DATA "/ns-v2", DATA "/ns-v2",
	    MEMCG_V2, "/sys/fs/cgroup/job42" },
	{ "v2, namespace root", DATA "/nsroot", DATA "/nsroot", MEMCG_V2,
	    "/sys/fs/cgroup" },
	{ "escapes", DATA "/escapes", DATA "/escapes", MEMCG_V1,
	    "/sys/fs/cgroup/cpu mem/job" },
};

static void
test_find_table(void **state)
{
	enum memcg_version	 v;
	char			 dir[PATH_MAX], want[PATH_MAX];
	char			 err[LD_ERRLEN];
	size_t			 i;

	(void)state;
	for (i = 0; i < sizeof(find_cases) / sizeof(find_cases[0]); i++) {
		const struct find_case	*c = &find_cases[i];

		print_message("%s\n", c->what);
		err[0] = '\0';
		assert_int_equal(memcg_find(c->root, &v, dir, sizeof(dir),
		    err), 0);
		assert_int_equal(v, c->version);
		fmt(want, sizeof(want), "%s%s", c->base, c->dir);
		assert_string_equal(dir, want);
		assert_string_equal(err, "");
	}
}

static void
test_find_errors(void **state)
{
	enum memcg_version	v;
	char			dir[PATH_MAX], err[LD_ERRLEN], small[16];

	(void)state;
	errno = 0;
	assert_int_equal(memcg_find(DATA "/none", &v, dir, sizeof(dir), err),
	    -1);
	assert_int_equal(errno, ENOTSUP);
	assert_int_equal(v, MEMCG_NONE);
	assert_string_equal(err, NO_MEMCG ")");

	errno = 0;
	assert_int_equal(memcg_find(DATA "/v2-nomem", &v, dir, sizeof(dir),
	    err), -1);
	assert_int_equal(errno, ENOTSUP);
	/* The top of the mount has no memory, so no cgroup below can. */
	assert_string_equal(err, NO_MEMCG " of " DATA
	    "/v2-nomem/sys/fs/cgroup)");

	errno = 0;
	assert_int_equal(memcg_find(DATA "/nonexistent", &v, dir, sizeof(dir),
	    err), -1);
	assert_int_equal(errno, ENOENT);
	assert_string_equal(err, DATA "/nonexistent/proc/self/cgroup: "
	    "No such file or directory");

	errno = 0;
	assert_int_equal(memcg_find(DATA "/v1", &v, small, sizeof(small),
	    err), -1);
	assert_int_equal(errno, ENAMETOOLONG);
	assert_int_equal(v, MEMCG_NONE);

	/* No memory controller means nothing to sweep. */
	assert_int_equal(memcg_sweep(DATA "/none", record, NULL, err), 0);
	errno = 0;
	assert_int_equal(memcg_sweep(DATA "/nonexistent", record, NULL, err),
	    -1);
	assert_int_equal(errno, ENOENT);
}

/* ===== Counters on fixtures ===== */

static void
test_counters(void **state)
{
	static const struct {
		enum memcg_version	 version;
		const char		*dir;
		int			 kills_rc, kills_errno;
		uint64_t		 kills;
		int			 peak_rc, peak_errno;
		uint64_t		 peak;
	} cases[] = {
		{ MEMCG_V1, DATA "/v1" V1_DIR, 0, 0, 3, 0, 0, 5705728 },
		{ MEMCG_V2, DATA "/v2" V2_DIR, 0, 0, 1, 0, 0, 12345678 },
		/* Before Linux 4.13 oom_control had no oom_kill line. */
		{ MEMCG_V1, DATA "/ns-v1/sys/fs/cgroup/memory", -1, ENODATA,
		    0, -1, ENOENT, 0 },
		{ MEMCG_V2, DATA "/nonexistent", -1, ENOENT, 0, -1, ENOENT,
		    0 },
	};
	struct memcg	mc;
	uint64_t	v;
	size_t		i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		mc.version = cases[i].version;
		mc.dir = (char *)cases[i].dir;
		mc.limit = 0;
		mc.peak_fd = -1;
		v = 424242;
		errno = 0;
		assert_int_equal(memcg_oom_kills(&mc, &v), cases[i].kills_rc);
		assert_int_equal(errno, cases[i].kills_errno);
		assert_int_equal(v, cases[i].kills_rc == 0 ? cases[i].kills :
		    424242);
		v = 424242;
		errno = 0;
		assert_int_equal(memcg_peak(&mc, &v), cases[i].peak_rc);
		assert_int_equal(errno, cases[i].peak_errno);
		assert_int_equal(v, cases[i].peak_rc == 0 ? cases[i].peak :
		    424242);
	}

	/* No cgroup. */
	mc.dir = NULL;
	errno = 0;
	assert_int_equal(memcg_oom_kills(&mc, &v), -1);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(memcg_peak(&mc, &v), -1);
	assert_int_equal(memcg_peak_reset(&mc), -1);
	assert_int_equal(memcg_enter(&mc), -1);
	assert_int_equal(errno, EINVAL);
}

static void
test_peak_reset_fixture(void **state)
{
	struct memcg	mc;
	char		path[PATH_MAX], buf[64];
	uint64_t	peak = 0;

	(void)state;
	copy_fixture("v1");
	fmt(path, sizeof(path), "%s%s", scratch, V1_DIR);
	mc.version = MEMCG_V1;
	mc.dir = path;
	mc.limit = 0;
	mc.peak_fd = -1;
	assert_int_equal(memcg_peak_reset(&mc), 0);
	fmt(path, sizeof(path), "%s%s/memory.max_usage_in_bytes",
	    scratch, V1_DIR);
	assert_true(slurp(path, buf, sizeof(buf)) > 0);
	/* Written over the first byte: cgroupfs never needs O_TRUNC. */
	assert_string_equal(buf, "0705728\n");

	/* v2 without a writable memory.peak (before Linux 6.12). */
	mc.version = MEMCG_V2;
	mc.dir = path;
	errno = 0;
	assert_int_equal(memcg_peak_reset(&mc), -1);
	assert_int_equal(errno, ENOTSUP);

	/* v2 reads the peak through the descriptor it keeps. */
	fmt(path, sizeof(path), "%s/peak", scratch);
	spit(path, "987654\n");
	assert_true((mc.peak_fd = open(path, O_RDONLY)) != -1);
	mc.dir = scratch;
	assert_int_equal(memcg_peak(&mc, &peak), 0);
	assert_int_equal(peak, 987654);
	assert_int_equal(close(mc.peak_fd), 0);
}

/* ===== memcg_create() and memcg_remove() on fixtures ===== */

/* Check that the file 'dir'/cgroup.subtree_control holds 'want'. */
static void
assert_subtree(const char *dir, const char *want)
{
	char	path[PATH_MAX], buf[256];

	fmt(path, sizeof(path), "%s" SUBTREE, dir);
	assert_true(slurp(path, buf, sizeof(buf)) >= 0);
	assert_string_equal(buf, want);
}

static void
test_create_fixture_v2(void **state)
{
	struct memcg	mc;
	char		path[PATH_MAX], err[LD_ERRLEN], want[LD_ERRLEN];

	(void)state;
	copy_fixture("v2");
	errno = 0;
	assert_int_equal(memcg_create(&mc, scratch, 1 * MIB, err), -1);
	/*
	 * It got as far as memory.max, which mkdir made in no real cgroup,
	 * below system.slice: runner.service holds the runner, and its
	 * parent is the nearest that hands memory to its children.
	 */
	assert_int_equal(errno, ENOENT);
	fmt(want, sizeof(want), "write 1048576 to %s" V2_TOP
	    "/system.slice/" MEMCG_PREFIX "%ld/memory.max: No such file or "
	    "directory", scratch, (long)getpid());
	assert_string_equal(err, want);
	assert_int_equal(mc.version, MEMCG_NONE);
	assert_null(mc.dir);
	assert_int_equal(mc.peak_fd, -1);
	/* No cgroup.subtree_control was written. */
	fmt(path, sizeof(path), "%s" V2_DIR, scratch);
	assert_subtree(path, "");
	fmt(path, sizeof(path), "%s" V2_TOP "/system.slice", scratch);
	assert_subtree(path, "memory pids\n");
	fmt(path, sizeof(path), "%s" V2_TOP, scratch);
	assert_subtree(path, "cpuset cpu io memory pids\n");
	/* The half-made child is gone again. */
	fmt(path, sizeof(path), "%s" V2_TOP "/system.slice/" MEMCG_PREFIX
	    "%ld", scratch, (long)getpid());
	assert_false(exists(path));
	fmt(path, sizeof(path), "%s" V2_DIR "/" MEMCG_PREFIX "%ld",
	    scratch, (long)getpid());
	assert_false(exists(path));
}

/* Which of the v2-deep cgroups list memory, and where the child goes. */
static const struct walk_case {
	const char	*what;
	const char	*subtree[4];	/* top, ci.slice, ci-job, run.scope */
	const char	*parent;	/* below V2_TOP, or NULL: none */
} walk_cases[] = {
	/* Only a root cgroup can, holding us; the walk does not care. */
	{ "our own cgroup", { "cpu io pids\n", "", "", "memory\n" },
	    V2_DEEP },
	{ "only the grandparent", { "cpu io pids\n", "cpu memory\n", "",
	    "" }, "/ci.slice" },
	{ "only the root", { "cpu io memory pids\n", "", "", "" }, "" },
	{ "the nearest of two", { "memory\n", "memory pids\n", "pids\n",
	    "" }, "/ci.slice" },
	{ "look-alike names", { "cpu io pids\n", "memoryx\n", "hugetlb\n",
	    "" }, NULL },
	{ "nowhere", { "cpu io pids\n", "", "", "" }, NULL },
};

static const char *const walk_dirs[4] = {
	"", "/ci.slice", "/ci.slice/ci-job.slice", V2_DEEP,
};

static void
test_create_fixture_v2_walk(void **state)
{
	struct memcg	mc;
	char		path[PATH_MAX], err[LD_ERRLEN], want[LD_ERRLEN];
	size_t		i, j;

	(void)state;
	copy_fixture("v2-deep");
	for (i = 0; i < sizeof(walk_cases) / sizeof(walk_cases[0]); i++) {
		const struct walk_case	*c = &walk_cases[i];

		print_message("%s\n", c->what);
		for (j = 0; j < 4; j++) {
			fmt(path, sizeof(path), "%s" V2_TOP "%s" SUBTREE,
			    scratch, walk_dirs[j]);
			spit(path, c->subtree[j]);
		}
		errno = 0;
		assert_int_equal(memcg_create(&mc, scratch, 1 * MIB, err), -1);
		if (c->parent != NULL) {
			assert_int_equal(errno, ENOENT);
			fmt(want, sizeof(want), "write 1048576 to %s" V2_TOP
			    "%s/" MEMCG_PREFIX "%ld/memory.max: No such file "
			    "or directory", scratch, c->parent,
			    (long)getpid());
		} else {
			assert_int_equal(errno, ENOTSUP);
			fmt(want, sizeof(want), "cgroup v2: no cgroup from "
			    "%s" V2_TOP V2_DEEP " up to %s" V2_TOP " enables "
			    "memory for its children; e.g. echo +memory > "
			    "%s" V2_TOP SUBTREE, scratch, scratch, scratch);
		}
		assert_string_equal(err, want);
		assert_null(mc.dir);
		/* Nothing written, and no child left anywhere. */
		for (j = 0; j < 4; j++) {
			fmt(path, sizeof(path), "%s" V2_TOP "%s", scratch,
			    walk_dirs[j]);
			assert_subtree(path, c->subtree[j]);
			fmt(path, sizeof(path), "%s" V2_TOP "%s/" MEMCG_PREFIX
			    "%ld", scratch, walk_dirs[j], (long)getpid());
			assert_false(exists(path));
		}
	}

	/* A cgroup.subtree_control that cannot be read is an error. */
	fmt(path, sizeof(path), "%s" V2_TOP V2_DEEP SUBTREE, scratch);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(mkdir(path, 0755), 0);
	errno = 0;
	assert_int_equal(memcg_create(&mc, scratch, 1 * MIB, err), -1);
	assert_int_equal(errno, EISDIR);
	fmt(want, sizeof(want), "%s: %s", path, strerror(EISDIR));
	assert_string_equal(err, want);
}

static void
test_create_fixture_stale(void **state)
{
	struct memcg	mc;
	char		dir[PATH_MAX], path[PATH_MAX], err[LD_ERRLEN];
	char		want[LD_ERRLEN];

	(void)state;
	copy_fixture("v1");
	fmt(dir, sizeof(dir), "%s" V1_DIR "/" MEMCG_PREFIX "%ld",
	    scratch, (long)getpid());

	/* A stale cgroup of our name that holds tasks stays. */
	assert_int_equal(mkdir(dir, 0755), 0);
	fmt(path, sizeof(path), "%s/cgroup.procs", dir);
	spit(path, "4242\n");
	errno = 0;
	assert_int_equal(memcg_create(&mc, scratch, 1 * MIB, err), -1);
	assert_int_equal(errno, EBUSY);
	fmt(want, sizeof(want), "%s already exists and holds "
	    "tasks", dir);
	assert_string_equal(err, want);
	assert_true(exists(path));

	/*
	 * An empty one is replaced: the new directory has no control
	 * files, so the first write fails and the directory goes.
	 */
	spit(path, "");
	assert_int_equal(unlink(path), 0);
	errno = 0;
	assert_int_equal(memcg_create(&mc, scratch, 4096, err), -1);
	assert_int_equal(errno, ENOENT);
	fmt(want, sizeof(want), "write 4096 to %s/"
	    "memory.limit_in_bytes: No such file or directory", dir);
	assert_string_equal(err, want);
	assert_false(exists(dir));
	assert_null(mc.dir);

	/* Too small a limit is refused before anything is looked at. */
	errno = 0;
	assert_int_equal(memcg_create(&mc, DATA "/nonexistent", 4095, err),
	    -1);
	assert_int_equal(errno, EINVAL);
	assert_string_equal(err, "memory limit 4095 bytes: less than 4096");

	/* No memory controller. */
	errno = 0;
	assert_int_equal(memcg_create(&mc, DATA "/none", 1 * MIB, err), -1);
	assert_int_equal(errno, ENOTSUP);
	assert_string_equal(err, NO_MEMCG ")");
}

static void
test_enter_fixture(void **state)
{
	struct memcg	mc;
	char		path[PATH_MAX], buf[64], want[64];

	(void)state;
	copy_fixture("v1");
	fmt(path, sizeof(path), "%s" V1_DIR, scratch);
	mc.version = MEMCG_V1;
	mc.dir = path;
	mc.peak_fd = -1;
	assert_int_equal(memcg_enter(&mc), 0);
	fmt(path, sizeof(path), "%s" V1_DIR "/cgroup.procs",
	    scratch);
	assert_true(slurp(path, buf, sizeof(buf)) > 0);
	/* The file was not truncated: the pid went over its first bytes. */
	fmt(want, sizeof(want), "%ld\n", (long)getpid());
	assert_memory_equal(buf, want, strlen(want));

	fmt(path, sizeof(path), "%s/nonexistent", scratch);
	mc.dir = path;
	errno = 0;
	assert_int_equal(memcg_enter(&mc), -1);
	assert_int_equal(errno, ENOENT);
}

static void
test_remove_fixture(void **state)
{
	struct memcg	mc;
	char		path[PATH_MAX], err[LD_ERRLEN], want[LD_ERRLEN];

	(void)state;
	copy_fixture("v1");
	fmt(path, sizeof(path), "%s/" MEMCG_PREFIX "%ld", scratch,
	    (long)getpid());
	assert_int_equal(mkdir(path, 0755), 0);
	mc.version = MEMCG_V1;
	mc.dir = xstrdup(path);
	mc.peak_fd = -1;
	assert_int_equal(memcg_remove(&mc, err), 0);
	assert_null(mc.dir);
	assert_int_equal(mc.version, MEMCG_NONE);
	assert_false(exists(path));
	/* Again, and already gone: both fine. */
	assert_int_equal(memcg_remove(&mc, err), 0);
	mc.dir = xstrdup(path);
	assert_int_equal(memcg_remove(&mc, err), 0);
	assert_null(mc.dir);

	/* A directory that cannot go is kept, for a later try. */
	assert_int_equal(mkdir(path, 0755), 0);
	fmt(want, sizeof(want), "%s/cgroup.procs", path);
	spit(want, "");
	mc.dir = xstrdup(path);
	errno = 0;
	assert_int_equal(memcg_remove(&mc, err), -1);
	assert_int_equal(errno, ENOTEMPTY);
	fmt(want, sizeof(want), "remove cgroup %s: %s", path,
	    strerror(ENOTEMPTY));
	assert_string_equal(err, want);
	assert_string_equal(mc.dir, path);
	free(mc.dir);

	/* A forked child's copy leaves the parent's cgroup alone. */
	fmt(path, sizeof(path), "%s/" MEMCG_PREFIX "1", scratch);
	assert_int_equal(mkdir(path, 0755), 0);
	mc.dir = xstrdup(path);
	assert_int_equal(memcg_remove(&mc, err), 0);
	assert_null(mc.dir);
	assert_true(exists(path));
}

static void
test_sweep_fixture(void **state)
{
	struct seen	s;
	char		base[PATH_MAX], dead[PATH_MAX], zombie[PATH_MAX];
	char		self[PATH_MAX], busy[PATH_MAX], other[PATH_MAX];
	char		running[PATH_MAX], path[PATH_MAX], err[LD_ERRLEN];
	pid_t		zpid, rpid;
	int		i, n, status;

	(void)state;
	copy_fixture("v1");
	fmt(base, sizeof(base), "%s" V1_DIR, scratch);
	fmt(dead, sizeof(dead), "%s/" MEMCG_PREFIX "%ld", base,
	    (long)dead_pid());
	zpid = zombie_pid();
	rpid = largedir_pid();
	fmt(zombie, sizeof(zombie), "%s/" MEMCG_PREFIX "%ld", base,
	    (long)zpid);
	fmt(running, sizeof(running), "%s/" MEMCG_PREFIX "%ld",
	    base, (long)rpid);
	fmt(self, sizeof(self), "%s/" MEMCG_PREFIX "%ld", base,
	    (long)getpid());
	fmt(busy, sizeof(busy), "%s/" MEMCG_PREFIX "%ld", base,
	    (long)dead_pid());
	fmt(other, sizeof(other), "%s/other.1", base);
	assert_int_equal(mkdir(dead, 0755), 0);
	assert_int_equal(mkdir(zombie, 0755), 0);
	assert_int_equal(mkdir(running, 0755), 0);
	assert_int_equal(mkdir(self, 0755), 0);
	assert_int_equal(mkdir(busy, 0755), 0);
	fmt(path, sizeof(path), "%s/cgroup.procs", busy);
	spit(path, "77\n");
	assert_int_equal(mkdir(other, 0755), 0);
	fmt(path, sizeof(path), "%s/" MEMCG_PREFIX "x1", base);
	assert_int_equal(mkdir(path, 0755), 0);
	fmt(path, sizeof(path), "%s/" MEMCG_PREFIX "0", base);
	assert_int_equal(mkdir(path, 0755), 0);

	memset(&s, 0, sizeof(s));
	n = memcg_sweep(scratch, record, &s, err);
	(void)kill(rpid, SIGKILL);
	assert_int_equal(waitpid(rpid, &status, 0), rpid);
	assert_int_equal(waitpid(zpid, &status, 0), zpid);
	assert_int_equal(n, 5);
	assert_int_equal(s.n, 5);

	assert_true((i = seen_at(&s, dead)) != -1);
	assert_true(s.removed[i]);
	assert_string_equal(s.why[i], "");
	assert_false(exists(dead));
	/* A zombie's run is over too. */
	assert_true((i = seen_at(&s, zombie)) != -1);
	assert_true(s.removed[i]);
	assert_false(exists(zombie));
	assert_true((i = seen_at(&s, self)) != -1);
	assert_false(s.removed[i]);
	assert_string_equal(s.why[i], "in use by this largedir");
	assert_true(exists(self));
	assert_true((i = seen_at(&s, running)) != -1);
	assert_false(s.removed[i]);
	assert_string_equal(s.why[i], "in use by a running largedir");
	assert_true(exists(running));
	assert_true((i = seen_at(&s, busy)) != -1);
	assert_false(s.removed[i]);
	assert_string_equal(s.why[i], "holds tasks");
	assert_true(exists(busy));
	/* Other names are not ours to look at. */
	assert_true(exists(other));
}

static void
test_sweep_fixture_v2(void **state)
{
	struct seen	s;
	char		top[PATH_MAX], slice[PATH_MAX], ours[PATH_MAX];
	char		gone[PATH_MAX], near[PATH_MAX], path[PATH_MAX];
	char		err[LD_ERRLEN];
	pid_t		pid;

	(void)state;
	copy_fixture("v2-deep");
	fmt(top, sizeof(top), "%s" V2_TOP, scratch);
	fmt(slice, sizeof(slice), "%s/ci.slice", top);
	fmt(ours, sizeof(ours), "%s" V2_DEEP, top);
	pid = dead_pid();
	fmt(gone, sizeof(gone), "%s/" MEMCG_PREFIX "%ld", slice, (long)pid);
	fmt(near, sizeof(near), "%s/" MEMCG_PREFIX "%ld", ours, (long)pid);
	assert_int_equal(mkdir(gone, 0755), 0);
	assert_int_equal(mkdir(near, 0755), 0);

	/* No cgroup hands memory on: nothing is looked at. */
	memset(&s, 0, sizeof(s));
	assert_int_equal(memcg_sweep(scratch, record, &s, err), 0);
	assert_int_equal(s.n, 0);
	assert_true(exists(gone));

	/* Only where memcg_create() would make the child. */
	fmt(path, sizeof(path), "%s" SUBTREE, slice);
	spit(path, "memory\n");
	assert_int_equal(memcg_sweep(scratch, record, &s, err), 1);
	assert_int_equal(s.n, 1);
	assert_string_equal(s.path[0], gone);
	assert_true(s.removed[0]);
	assert_false(exists(gone));
	assert_true(exists(near));
	assert_int_equal(rmdir(near), 0);
}

/* ===== Live: root and a memory controller ===== */

static void
test_live_limit_enter(void **state)
{
	char		path[PATH_MAX], err[LD_ERRLEN];
	uint64_t	kills = 1;
	int		status;

	(void)state;
	need_live();
	make_live(32 * MIB);
	print_message("cgroup v%d: %s\n", (int)live.version, live.dir);
	assert_int_equal(live.limit, 32 * MIB);
	if (live.version == MEMCG_V1) {
		assert_int_equal(live_num("memory.limit_in_bytes"), 32 * MIB);
		fmt(path, sizeof(path),
		    "%s/memory.memsw.limit_in_bytes", live.dir);
		if (exists(path))
			assert_int_equal(live_num(
			    "memory.memsw.limit_in_bytes"), 32 * MIB);
	} else {
		assert_int_equal(live_num("memory.max"), 32 * MIB);
		fmt(path, sizeof(path), "%s/memory.swap.max",
		    live.dir);
		if (exists(path))
			assert_int_equal(live_num("memory.swap.max"), 0);
	}
	status = in_child(do_nothing, 0);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_int_equal(memcg_oom_kills(&live, &kills), 0);
	assert_int_equal(kills, 0);

	/* memcg_remove() leaves nothing. */
	fmt(path, sizeof(path), "%s", live.dir);
	assert_int_equal(memcg_remove(&live, err), 0);
	assert_null(live.dir);
	assert_false(exists(path));
}

static void
test_live_oom(void **state)
{
	char		path[PATH_MAX], err[LD_ERRLEN];
	uint64_t	kills = 0;
	int		status;

	(void)state;
	need_live();
	make_live(4 * MIB);
	status = in_child(touch, 64 * MIB);
	if (WIFEXITED(status))
		fail_msg("child exited %d instead of being killed",
		    WEXITSTATUS(status));
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGKILL);
	assert_int_equal(memcg_oom_kills(&live, &kills), 0);
	assert_true(kills >= 1);
	print_message("oom_kill %llu\n", (unsigned long long)kills);

	/* The parent is fine, and still outside the limit. */
	assert_int_equal(touch(64 * MIB), 0);
	fmt(path, sizeof(path), "%s", live.dir);
	assert_int_equal(memcg_remove(&live, err), 0);
	assert_false(exists(path));
}

static void
test_live_peak(void **state)
{
	uint64_t	peak;
	int		status;

	(void)state;
	need_live();
	make_live(512 * MIB);
	status = in_child(touch, 48 * MIB);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_int_equal(memcg_peak(&live, &peak), 0);
	print_message("peak after 48 MiB: %llu\n", (unsigned long long)peak);
	assert_true(peak >= 48 * MIB);
	assert_true(peak < 128 * MIB);

	if (memcg_peak_reset(&live) == -1) {
		assert_int_equal(errno, ENOTSUP);
		print_message("skipped: the peak cannot be reset "
		    "(memory.peak before Linux 6.12)\n");
		skip();
	}
	assert_int_equal(memcg_peak(&live, &peak), 0);
	print_message("peak after reset: %llu\n", (unsigned long long)peak);
	assert_true(peak < 16 * MIB);
	status = in_child(touch, 16 * MIB);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_int_equal(memcg_peak(&live, &peak), 0);
	print_message("peak after 16 MiB: %llu\n", (unsigned long long)peak);
	/* Without the reset it would still be 48 MiB or more. */
	assert_true(peak >= 16 * MIB);
	assert_true(peak < 48 * MIB);
}

static void
test_live_sweep(void **state)
{
	struct seen	 s;
	char		 base[PATH_MAX], err[LD_ERRLEN], *slash;
	int		 i, n;

	(void)state;
	need_live();
	make_live(32 * MIB);
	/* The sweep looks where memcg_create() made the cgroup. */
	fmt(base, sizeof(base), "%s", live.dir);
	assert_non_null(slash = strrchr(base, '/'));
	*slash = '\0';
	fmt(extra[0], PATH_MAX, "%s/" MEMCG_PREFIX "%ld", base,
	    (long)dead_pid());
	fmt(extra[1], PATH_MAX, "%s/test_memcg.%ld", base,
	    (long)getpid());
	assert_int_equal(mkdir(extra[0], 0755), 0);
	assert_int_equal(mkdir(extra[1], 0755), 0);

	memset(&s, 0, sizeof(s));
	n = memcg_sweep("/", record, &s, err);
	assert_true(n >= 2);
	assert_int_equal(n, s.n);
	assert_true((i = seen_at(&s, extra[0])) != -1);
	assert_true(s.removed[i]);
	assert_false(exists(extra[0]));
	assert_true((i = seen_at(&s, live.dir)) != -1);
	assert_false(s.removed[i]);
	assert_string_equal(s.why[i], "in use by this largedir");
	assert_true(exists(live.dir));
	assert_int_equal(seen_at(&s, extra[1]), -1);
	assert_true(exists(extra[1]));
	assert_int_equal(rmdir(extra[1]), 0);
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test(test_find_table),
		cmocka_unit_test(test_find_errors),
		cmocka_unit_test(test_counters),
		cmocka_unit_test_setup_teardown(test_peak_reset_fixture,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_create_fixture_v2,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_create_fixture_v2_walk,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_create_fixture_stale,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_enter_fixture,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_remove_fixture,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_sweep_fixture,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_sweep_fixture_v2,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_live_limit_enter,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_live_oom,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_live_peak,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_live_sweep,
		    setup, teardown),
	};

	return cmocka_run_group_tests_name("memcg", tests, NULL, NULL);
}
