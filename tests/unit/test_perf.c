/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * Unit tests for perf (the libpfm4 build): list parsing is table-driven;
 * the counters are opened for real.  Software events (task-clock,
 * page-faults) must count what the test does between perf_start() and
 * perf_stop().  Whether hardware events open depends on the machine (a
 * virtual machine often has no PMU): the test asks perf_event_open(2)
 * itself and expects either a count or the refusal.  The unprivileged
 * case runs in a child that drops root, and expects what the host's
 * perf_event_paranoid allows.  Without perf_event_open at all (EACCES,
 * ENOSYS even for task-clock) the counting tests are skipped.
 */

#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include <errno.h>
#include <grp.h>
#include <linux/perf_event.h>
#include <math.h>
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
#include "machine/perf.h"

#define PAGES		64	/* pages work() faults in */
#define NOBODY		65534
#define PARANOID	"/proc/sys/kernel/perf_event_paranoid"
#define VM_HINT		"the kernel has no hardware counters here " \
			"(ENOENT), as in many virtual machines"

static bool	can_count(void);
static void	work(size_t);
static double	sum(const struct perf *, const double *, const char *);
static int	hw_errno(uint64_t);
static int	paranoid(void);
static bool	privileged(void);

/*
 * Whether the kernel opens even task-clock for this process; if not,
 * say why before the caller skips.
 */
static bool
can_count(void)
{
	struct perf	pf;
	char		err[LD_ERRLEN];

	assert_int_equal(perf_init(&pf, "task-clock", err), 0);
	if (perf_open(&pf) == 0) {
		print_message("skipped: perf_event_open refuses even "
		    "task-clock: %s\n", perf_unavailable(&pf));
		return false;
	}
	perf_close(&pf);
	return true;
}

/*
 * Fault in 'pages' fresh pages, one fault each (no huge pages), then
 * spin a little so that the clocks advance.
 */
static void
work(size_t pages)
{
	volatile unsigned long	 spin = 0;
	size_t			 psize = (size_t)sysconf(_SC_PAGESIZE), i;
	char			*p = NULL;

	if (pages > 0) {
		p = mmap(NULL, pages * psize, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		assert_true(p != MAP_FAILED);
		(void)madvise(p, pages * psize, MADV_NOHUGEPAGE);
		for (i = 0; i < pages; i++)
			p[i * psize] = 1;
	}
	for (i = 0; i < 2000000; i++)
		spin += i;
	assert_true(spin > 0);
	if (p != NULL)
		assert_int_equal(munmap(p, pages * psize), 0);
}

/*
 * Return the sum of the values of 'pf' in 'v' whose names are 'col'
 * or start with 'col' and '_user' or '_kernel'; NAN if there are none.
 */
static double
sum(const struct perf *pf, const double *v, const char *col)
{
	const char	*name;
	double		 s = NAN;
	size_t		 i, n = strlen(col);

	for (i = 0; i < perf_nvalues(pf); i++) {
		name = perf_value_name(pf, i);
		if (strncmp(name, col, n) != 0 || (name[n] != '\0' &&
		    strcmp(name + n, "_user") != 0 &&
		    strcmp(name + n, "_kernel") != 0))
			continue;
		s = isnan(s) ? v[i] : s + v[i];
	}
	return s;
}

/*
 * Return 0 if perf_event_open(2) opens the generic hardware event
 * 'config' for this thread, in both modes or user mode alone, else its
 * errno.
 */
static int
hw_errno(uint64_t config)
{
	struct perf_event_attr	attr;
	int			fd, error;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_HARDWARE;
	attr.config = config;
	attr.disabled = 1;
	attr.exclude_hv = 1;
	fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
	if (fd == -1) {
		error = errno;
		attr.exclude_kernel = 1;
		fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
		if (fd == -1)
			return error;
	}
	(void)close(fd);
	return 0;
}

/* Return kernel.perf_event_paranoid, or -2 if it cannot be read. */
static int
paranoid(void)
{
	FILE	*fp;
	int	 level = -2;

	if ((fp = fopen(PARANOID, "r")) == NULL)
		return -2;
	if (fscanf(fp, "%d", &level) != 1)
		level = -2;
	(void)fclose(fp);
	return level;
}

/* Whether the kernel lets this process count kernel mode. */
static bool
privileged(void)
{
	return geteuid() == 0 || (paranoid() != -2 && paranoid() <= 1);
}

/* ===== perf_init() ===== */

static const struct init_case {
	const char	*list;
	int		 want;		/* perf_init()'s return */
	size_t		 nitems;
	const char	*err;		/* on -1 */
} init_cases[] = {
	{ PERF_DEFAULT, 0, 5, NULL },
	{ "", 0, 0, NULL },
	{ "none", 0, 0, NULL },
	{ " none\t", 0, 0, NULL },
	{ "task-clock", 0, 1, NULL },
	{ " task-clock , page-faults ", 0, 2, NULL },
	{ "cycles:u,page-faults:k", 0, 2, NULL },
	{ "PERF_COUNT_SW_CPU_MIGRATIONS", 0, 1, NULL },
	{ "foo", -1, 0,
	    "--events 'foo': no such event (libpfm4: event not found)" },
	{ "cycles,foo,instructions", -1, 0,
	    "--events 'foo': no such event (libpfm4: event not found)" },
	{ "cycles:nosuchflag", -1, 0, "--events 'cycles:nosuchflag': "
	    "invalid event (libpfm4: invalid event attribute)" },
	{ "cycles,cycles", -1, 0, "--events 'cycles': listed twice" },
	{ "cycles,instructions,Cycles", -1, 0,
	    "--events 'Cycles': the same column name as 'cycles'" },
	{ "cycles:u,cycles_u", -1, 0,
	    "--events 'cycles_u': the same column name as 'cycles:u'" },
	{ "cycles,cpu-cycles", -1, 0,
	    "--events 'cpu-cycles': the same event as 'cycles'" },
	{ "page-faults,faults", -1, 0,
	    "--events 'faults': the same event as 'page-faults'" },
	/*
	 * The list's own syntax (empty items, too many, too long) is read
	 * by perf_common.c for both builds: test_perf_none covers it.
	 */
	{ "cycles,,instructions", -1, 0,
	    "--events 'cycles,,instructions': empty event name" },
};

static void
test_init_table(void **state)
{
	struct perf	pf;
	char		err[LD_ERRLEN];
	size_t		i;

	(void)state;
	for (i = 0; i < sizeof(init_cases) / sizeof(init_cases[0]); i++) {
		const struct init_case	*c = &init_cases[i];

		print_message("'%s'\n", c->list);
		err[0] = '\0';
		errno = 0;
		assert_int_equal(perf_init(&pf, c->list, err), c->want);
		assert_int_equal(pf.nitems, c->nitems);
		if (c->want == -1) {
			assert_int_equal(errno, EINVAL);
			assert_string_equal(err, c->err);
		}
		assert_int_equal(perf_nvalues(&pf), 0);
		assert_string_equal(perf_unavailable(&pf), "");
	}
}

/* Sixteen events are fine; NULL is no list. */
static void
test_init_limits(void **state)
{
	struct perf	pf;
	char		err[LD_ERRLEN], buf[256];

	(void)state;
	assert_int_equal(perf_init(&pf, "task-clock,cpu-clock,page-faults,"
	    "minor-faults,major-faults,context-switches,cpu-migrations,"
	    "instructions:u,branches:u,cycles,instructions,"
	    "cache-references,cache-misses,branches,branch-misses,"
	    "cycles:u", err), 0);
	assert_int_equal(pf.nitems, PERF_MAX_EVENTS);
	assert_int_equal(perf_init(&pf, NULL, err), 0);
	assert_int_equal(pf.nitems, 0);
	perf_describe(&pf, buf, sizeof(buf));
	assert_string_equal(buf, "none");
	assert_int_equal(perf_open(&pf), 0);
	assert_string_equal(perf_unavailable(&pf), "");
	perf_describe(&pf, buf, sizeof(buf));
	assert_string_equal(buf, "none");

	assert_int_equal(perf_init(&pf, "task-clock,page-faults", err), 0);
	perf_describe(&pf, buf, sizeof(buf));
	assert_string_equal(buf, "task-clock(closed) page-faults(closed)");
	perf_describe(&pf, buf, 12);
	assert_string_equal(buf, "task-clock(");
	perf_close(&pf);
}

/*
 * The default list (perf_init_default()): an event libpfm4 does not know
 * on this machine, as "cycles" in User-Mode Linux, is unavailable, not a
 * usage error, and the others are counted; a list the user gave stays
 * strict.
 */
static void
test_init_default(void **state)
{
	struct perf	pf;
	char		err[LD_ERRLEN];

	(void)state;
	assert_int_equal(perf_init(&pf, "task-clock,nosuchevent", err), -1);
	assert_string_equal(err, "--events 'nosuchevent': no such event "
	    "(libpfm4: event not found)");
	assert_int_equal(perf_init_default(&pf, "task-clock,nosuchevent",
	    err), 0);
	assert_string_equal(err, "");
	assert_int_equal(pf.nitems, 2);
	(void)perf_open(&pf);
	assert_non_null(strstr(perf_unavailable(&pf), "nosuchevent: not "
	    "known on this machine (libpfm4: event not found)"));
	assert_null(strstr(perf_unavailable(&pf), "task-clock: not known"));
	perf_close(&pf);
	/* Bad shapes are still bad. */
	assert_int_equal(perf_init_default(&pf, "task-clock,,x", err), -1);
}

/* ===== perf_open() and the values ===== */

/*
 * Each value is named after its event and how it is counted: a clock
 * and an event listed with a mode are never split.
 */
static void
test_value_names(void **state)
{
	static const char *const	split[] = {
		"task_clock", "page_faults_user", "page_faults_kernel",
		"page_faults_u", "perf_count_sw_cpu_migrations_user",
		"perf_count_sw_cpu_migrations_kernel",
	};
	struct perf			pf;
	char				err[LD_ERRLEN], buf[256];
	size_t				i;

	(void)state;
	if (!can_count())
		skip();
	assert_int_equal(perf_init(&pf, "task-clock,page-faults,"
	    "page-faults:u,PERF_COUNT_SW_CPU_MIGRATIONS", err), 0);
	assert_int_equal(perf_open(&pf), 4);
	perf_describe(&pf, buf, sizeof(buf));
	print_message("%s\n", buf);
	if (!privileged()) {
		print_message("not privileged: kernel mode may be refused; "
		    "only the names are checked\n");
		for (i = 0; i < perf_nvalues(&pf); i++)
			assert_true(strncmp(perf_value_name(&pf, i),
			    "task_clock", 10) == 0 ||
			    strncmp(perf_value_name(&pf, i),
			    "page_faults", 11) == 0 ||
			    strncmp(perf_value_name(&pf, i),
			    "perf_count_sw_cpu_migrations", 28) == 0);
		perf_close(&pf);
		return;
	}
	assert_string_equal(buf, "task-clock(total) page-faults(user+kernel) "
	    "page-faults:u(total) "
	    "PERF_COUNT_SW_CPU_MIGRATIONS(user+kernel)");
	assert_int_equal(perf_nvalues(&pf), 6);
	for (i = 0; i < 6; i++)
		assert_string_equal(perf_value_name(&pf, i), split[i]);
	assert_string_equal(perf_unavailable(&pf), "");
	perf_close(&pf);
	/* The layout outlives perf_close(). */
	assert_int_equal(perf_nvalues(&pf), 6);
}

/*
 * task-clock and page-faults count what happens between perf_start() and
 * perf_stop(), and only that: a second, idle measurement counts anew.
 */
static void
test_count(void **state)
{
	struct perf	pf;
	char		err[LD_ERRLEN];
	double		v[PERF_MAX_VALUES];
	size_t		i, n;

	(void)state;
	if (!can_count())
		skip();
	assert_int_equal(perf_init(&pf, "task-clock,page-faults", err), 0);
	assert_int_equal(perf_open(&pf), 2);
	n = perf_nvalues(&pf);
	assert_true(n >= 2);

	perf_start(&pf);
	work(PAGES);
	perf_stop(&pf, v);
	for (i = 0; i < n; i++) {
		print_message("%s = %.0f\n", perf_value_name(&pf, i), v[i]);
		assert_false(isnan(v[i]));
	}
	assert_true(sum(&pf, v, "task_clock") > 0);
	assert_true(sum(&pf, v, "page_faults") >= PAGES);
	/* The test touches its pages in user mode. */
	for (i = 0; i < n; i++)
		if (strcmp(perf_value_name(&pf, i), "page_faults_user") == 0)
			assert_true(v[i] >= PAGES);

	perf_start(&pf);
	work(0);
	perf_stop(&pf, v);
	assert_true(sum(&pf, v, "task_clock") > 0);
	assert_true(sum(&pf, v, "page_faults") < PAGES);

	/* Closed counters read NAN. */
	perf_close(&pf);
	perf_start(&pf);
	perf_stop(&pf, v);
	for (i = 0; i < n; i++)
		assert_true(isnan(v[i]));
}

/*
 * A hardware event either counts or is refused and has no values,
 * whichever perf_event_open(2) says on this machine.
 */
static void
test_hardware(void **state)
{
	struct perf	pf;
	char		err[LD_ERRLEN], want[PERF_MSGLEN], buf[256];
	double		v[PERF_MAX_VALUES];
	int		ecycles, einstr;
	size_t		i;

	(void)state;
	if (!can_count())
		skip();
	ecycles = hw_errno(PERF_COUNT_HW_CPU_CYCLES);
	einstr = hw_errno(PERF_COUNT_HW_INSTRUCTIONS);
	print_message("cycles: %s, instructions: %s\n",
	    ecycles == 0 ? "open" : strerror(ecycles),
	    einstr == 0 ? "open" : strerror(einstr));
	assert_int_equal(perf_init(&pf, PERF_DEFAULT, err), 0);
	assert_int_equal(perf_open(&pf),
	    3 + (ecycles == 0) + (einstr == 0));
	print_message("unavailable: '%s'\n", perf_unavailable(&pf));
	perf_describe(&pf, buf, sizeof(buf));
	print_message("%s\n", buf);

	perf_start(&pf);
	work(PAGES);
	perf_stop(&pf, v);
	if (ecycles == 0)
		assert_true(sum(&pf, v, "cycles") > 0);
	else
		assert_true(isnan(sum(&pf, v, "cycles")));
	if (einstr == 0)
		assert_true(sum(&pf, v, "instructions") > 0);
	else
		assert_true(isnan(sum(&pf, v, "instructions")));
	for (i = 0; i < perf_nvalues(&pf); i++)
		assert_false(isnan(v[i]));

	if (ecycles == ENOENT && einstr == ENOENT) {
		(void)snprintf(want, sizeof(want), "cycles, instructions: "
		    "%s", VM_HINT);
		assert_string_equal(perf_unavailable(&pf), want);
		if (privileged())
			assert_string_equal(buf, "cycles(unavailable) "
			    "instructions(unavailable) "
			    "context-switches(user+kernel) "
			    "page-faults(user+kernel) task-clock(total)");
	} else if (ecycles != 0)
		assert_true(strncmp(perf_unavailable(&pf), "cycles",
		    strlen("cycles")) == 0);
	else if (einstr != 0)
		assert_true(strncmp(perf_unavailable(&pf), "instructions",
		    strlen("instructions")) == 0);
	perf_close(&pf);

	/* One refused event alone: "it". */
	if (einstr == ENOENT) {
		assert_int_equal(perf_init(&pf, "instructions,task-clock",
		    err), 0);
		assert_int_equal(perf_open(&pf), 1);
		(void)snprintf(want, sizeof(want), "instructions: %s",
		    VM_HINT);
		assert_string_equal(perf_unavailable(&pf), want);
		assert_int_equal(perf_nvalues(&pf), 1);
		assert_string_equal(perf_value_name(&pf, 0), "task_clock");
		perf_close(&pf);
	}
}

/*
 * After fork() the child opens its own counters with the same layout;
 * the parent's go on.  The child reports through its exit status: a bit
 * for each check that failed.
 */
static void
test_reopen(void **state)
{
	struct perf	pf;
	struct rlimit	rl;
	char		err[LD_ERRLEN];
	double		v[PERF_MAX_VALUES];
	size_t		i, n;
	pid_t		pid;
	int		status, bad;

	(void)state;
	if (!can_count())
		skip();
	assert_int_equal(perf_init(&pf, "task-clock,page-faults", err), 0);
	assert_int_equal(perf_open(&pf), 2);
	n = perf_nvalues(&pf);
	perf_start(&pf);
	work(PAGES);
	perf_stop(&pf, v);

	assert_true((pid = fork()) != -1);
	if (pid == 0) {
		bad = 0;
		perf_reopen(&pf);
		if (perf_nvalues(&pf) != n)
			bad |= 1;
		perf_start(&pf);
		work(PAGES);
		perf_stop(&pf, v);
		if (!(sum(&pf, v, "task_clock") > 0))
			bad |= 2;
		if (!(sum(&pf, v, "page_faults") >= PAGES))
			bad |= 4;
		_exit(bad);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);

	perf_start(&pf);
	work(PAGES);
	perf_stop(&pf, v);
	assert_true(sum(&pf, v, "task_clock") > 0);
	assert_true(sum(&pf, v, "page_faults") >= PAGES);

	/* A child that cannot open its counters keeps the layout: NAN. */
	assert_true((pid = fork()) != -1);
	if (pid == 0) {
		bad = 0;
		/* Room for stdin, stdout and stderr only. */
		rl.rlim_cur = rl.rlim_max = 3;
		if (setrlimit(RLIMIT_NOFILE, &rl) == -1)
			_exit(64);
		perf_reopen(&pf);
		if (perf_nvalues(&pf) != n)
			bad |= 1;
		perf_start(&pf);
		work(PAGES);
		perf_stop(&pf, v);
		for (i = 0; i < n; i++)
			if (!isnan(v[i]))
				bad |= 2;
		_exit(bad);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	perf_close(&pf);
}

/*
 * Without root, perf_event_paranoid decides: 2 refuses kernel mode (so
 * page-faults counts user mode only, and task-clock, which the kernel
 * times in both modes anyway, stays whole), 3 and above refuse
 * everything, 1 and below allow everything.  A child drops root and
 * sends back what perf saw.
 */
static void
test_unprivileged(void **state)
{
	struct perf	pf;
	char		err[LD_ERRLEN], got[PERF_MSGLEN + 256], want[512];
	char		buf[256];
	const char	*names;
	ssize_t		r;
	size_t		i, off;
	pid_t		pid;
	int		fds[2], status, level = paranoid();

	(void)state;
	if (geteuid() != 0) {
		print_message("skipped: needs root to drop privileges\n");
		skip();
	}
	if (!can_count())
		skip();
	assert_int_equal(pipe(fds), 0);
	assert_true((pid = fork()) != -1);
	if (pid == 0) {
		(void)close(fds[0]);
		if (setgroups(0, NULL) == -1 || setgid(NOBODY) == -1 ||
		    setuid(NOBODY) == -1)
			_exit(1);
		if (perf_init(&pf, "task-clock,page-faults", err) == -1)
			_exit(2);
		(void)perf_open(&pf);
		perf_describe(&pf, buf, sizeof(buf));
		off = (size_t)snprintf(got, sizeof(got), "%s\n%s\n",
		    perf_unavailable(&pf), buf);
		for (i = 0; i < perf_nvalues(&pf) && off < sizeof(got); i++)
			off += (size_t)snprintf(got + off, sizeof(got) - off,
			    "%s ", perf_value_name(&pf, i));
		if (write(fds[1], got, strlen(got)) == -1)
			_exit(3);
		_exit(0);
	}
	(void)close(fds[1]);
	off = 0;
	while ((r = read(fds[0], got + off, sizeof(got) - 1 - off)) > 0)
		off += (size_t)r;
	got[off] = '\0';
	(void)close(fds[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	print_message("perf_event_paranoid %d:\n%s\n", level, got);

	if (level >= 3) {
		(void)snprintf(want, sizeof(want), "task-clock, page-faults: "
		    "the kernel refused them (Permission denied: "
		    "kernel.perf_event_paranoid is %d: run as root or lower "
		    "it to 1)\ntask-clock(unavailable) "
		    "page-faults(unavailable)\n", level);
		names = "";
	} else if (level == 2) {
		(void)snprintf(want, sizeof(want), "page-faults: counted in "
		    "user mode only, the kernel refused kernel mode "
		    "(Permission denied: kernel.perf_event_paranoid is 2: "
		    "run as root or lower it to 1)\n"
		    "task-clock(total) page-faults(user)\n");
		names = "task_clock page_faults_user ";
	} else {
		(void)snprintf(want, sizeof(want), "\ntask-clock(total) "
		    "page-faults(user+kernel)\n");
		names = "task_clock page_faults_user page_faults_kernel ";
	}
	assert_true(strlen(want) + strlen(names) < sizeof(want));
	(void)strcat(want, names);
	assert_string_equal(got, want);
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test(test_init_table),
		cmocka_unit_test(test_init_limits),
		cmocka_unit_test(test_init_default),
		cmocka_unit_test(test_value_names),
		cmocka_unit_test(test_count),
		cmocka_unit_test(test_hardware),
		cmocka_unit_test(test_reopen),
		cmocka_unit_test(test_unprivileged),
	};

	return cmocka_run_group_tests_name("perf", tests, NULL, NULL);
}
