/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * Unit tests for sysfile: the readers run against fixtures in
 * tests/data/sysfile/ (an empty file, a blank first line, a file of
 * exactly 16 bytes for the size limit, a line of 10,000 bytes, a last
 * line without a newline, "key: value" lines) and tests/data/meminfo,
 * table-driven; the string functions against tables of strings.  Two
 * tests check what no fixture shows: that a signal during open(2) and
 * read(2) of a FIFO is no error (EINTR), and that the descriptor
 * sysfile_lines() reads has FD_CLOEXEC.  /proc itself is read once, to
 * see that seq_file's pieces are put together.
 */

#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "machine/sysfile.h"

#ifndef TEST_DATA
#define TEST_DATA "tests/data"
#endif

#define DATA	TEST_DATA "/sysfile/"

/* ===== sysfile_read() ===== */

static void
test_read_table(void **state)
{
	static const struct {
		const char	*file;
		size_t		 len;	/* of the buffer */
		ssize_t		 want;	/* bytes, or -1 */
		int		 err;
		const char	*text;	/* what the buffer holds after */
	} cases[] = {
		{ "size-16", 17, 16, 0, "0123456789abcde\n" },
		{ "size-16", 64, 16, 0, "0123456789abcde\n" },
		/* One byte short of room for the NUL: too big. */
		{ "size-16", 16, -1, EFBIG, "" },
		{ "size-16", 2, -1, EFBIG, "" },
		{ "size-16", 1, -1, EFBIG, "" },
		{ "size-16", 0, -1, EINVAL, NULL },
		{ "empty", 1, 0, 0, "" },
		{ "empty", 64, 0, 0, "" },
		{ "long-line", 10008, 10007, 0, NULL },
		{ "long-line", 10007, -1, EFBIG, "" },
		{ "lines", 64, 57, 0, "first line\n\n  third, indented\n"
		    "last line without a newline" },
		{ "no-such-file", 64, -1, ENOENT, "" },
	};
	char	*buf, path[256];
	size_t	 i;
	ssize_t	 n;

	(void)state;
	buf = malloc(20000);
	assert_non_null(buf);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		print_message("%s, %zu bytes\n", cases[i].file, cases[i].len);
		(void)snprintf(path, sizeof(path), DATA "%s", cases[i].file);
		(void)memset(buf, '#', 20000);
		errno = 0;
		n = sysfile_read(path, buf, cases[i].len);
		assert_int_equal(n, cases[i].want);
		if (n == -1)
			assert_int_equal(errno, cases[i].err);
		if (cases[i].text != NULL)
			assert_string_equal(buf, cases[i].text);
		if (n >= 0)
			assert_int_equal(strlen(buf), (size_t)n);
	}
	free(buf);
}

/* seq_file hands out /proc in pieces; the whole must come back. */
static void
test_read_proc(void **state)
{
	char	buf[65536], line[256];
	ssize_t	n;

	(void)state;
	n = sysfile_read("/proc/self/mountinfo", buf, sizeof(buf));
	if (n == -1 && errno == EFBIG)
		skip();
	assert_true(n > 0);
	assert_int_equal(strlen(buf), (size_t)n);
	assert_true(buf[n - 1] == '\n');
	/* The first line of both readers is the same. */
	assert_int_equal(sysfile_line("/proc/self/mountinfo", line,
	    sizeof(line)), 0);
	assert_true(strncmp(buf, line, strlen(line)) == 0);
}

/* ===== sysfile_line() ===== */

static void
test_line_table(void **state)
{
	static const struct {
		const char	*file;
		size_t		 len;
		int		 err;	/* 0: expect 'want' */
		const char	*want;
	} cases[] = {
		{ "oneline", 64, 0, "[mq-deadline] kyber none" },
		/* Cut to fit, then trimmed: "  [mq-dea" */
		{ "oneline", 10, 0, "[mq-dea" },
		{ "size-16", 64, 0, "0123456789abcde" },
		{ "size-16", 16, 0, "0123456789abcde" },
		{ "size-16", 4, 0, "012" },
		{ "lines", 64, 0, "first line" },
		{ "u64-nonl", 64, 0, "123" },
		{ "long-line", 64, 0, "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
		    "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx" },
		{ "blank", 64, ENODATA, NULL },
		{ "empty", 64, ENODATA, NULL },
		{ "oneline", 0, EINVAL, NULL },
		{ "no-such-file", 64, ENOENT, NULL },
	};
	char	buf[64], path[256];
	size_t	i;
	int	r;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		print_message("%s, %zu bytes\n", cases[i].file, cases[i].len);
		(void)snprintf(path, sizeof(path), DATA "%s", cases[i].file);
		errno = 0;
		r = sysfile_line(path, buf, cases[i].len);
		if (cases[i].err != 0) {
			assert_int_equal(r, -1);
			assert_int_equal(errno, cases[i].err);
			continue;
		}
		assert_int_equal(r, 0);
		assert_string_equal(buf, cases[i].want);
	}
}

/* ===== sysfile_lines() ===== */

/* What collect() saw. */
struct seen {
	int	 n;
	size_t	 len[8];
	char	 first[8][32];
	int	 stop_at;	/* return 1 on this line (from 1), or 0 */
	int	 fail_at;	/* return -1 with EIO on this line, or 0 */
	bool	 cloexec;	/* the file's descriptor had FD_CLOEXEC */
};

static int
collect(void *arg, char *line)
{
	struct seen	*s = arg;

	if (s->n < 8) {
		s->len[s->n] = strlen(line);
		(void)snprintf(s->first[s->n], sizeof(s->first[0]), "%s",
		    line);
	}
	s->n++;
	if (s->n == s->stop_at)
		return 1;
	if (s->n == s->fail_at) {
		errno = EIO;
		return -1;
	}
	return 0;
}

static void
test_lines_table(void **state)
{
	static const struct {
		const char	*file;
		int		 stop_at, fail_at;
		int		 ret, err;
		int		 n;		/* lines seen */
		size_t		 len[4];	/* of the first four */
		const char	*third;
	} cases[] = {
		{ "lines", 0, 0, 0, 0, 4, { 10, 0, 17, 27 },
		    "  third, indented" },
		{ "long-line", 0, 0, 0, 0, 2, { 10000, 5, 0, 0 }, NULL },
		{ "empty", 0, 0, 0, 0, 0, { 0, 0, 0, 0 }, NULL },
		{ "blank", 0, 0, 0, 0, 2, { 4, 11, 0, 0 }, NULL },
		{ "lines", 2, 0, 1, 0, 2, { 10, 0, 0, 0 }, NULL },
		{ "lines", 0, 3, -1, EIO, 3, { 10, 0, 17, 0 },
		    "  third, indented" },
		{ "no-such-file", 0, 0, -1, ENOENT, 0, { 0, 0, 0, 0 }, NULL },
	};
	struct seen	s;
	char		path[256];
	size_t		i, j;
	int		r;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		print_message("%s\n", cases[i].file);
		(void)snprintf(path, sizeof(path), DATA "%s", cases[i].file);
		memset(&s, 0, sizeof(s));
		s.stop_at = cases[i].stop_at;
		s.fail_at = cases[i].fail_at;
		errno = 0;
		r = sysfile_lines(path, collect, &s);
		assert_int_equal(r, cases[i].ret);
		if (r == -1)
			assert_int_equal(errno, cases[i].err);
		assert_int_equal(s.n, cases[i].n);
		for (j = 0; j < 4 && j < (size_t)s.n; j++)
			assert_int_equal(s.len[j], cases[i].len[j]);
		if (cases[i].third != NULL)
			assert_string_equal(s.first[2], cases[i].third);
	}
}

/* Look for the descriptor of 'arg' among ours and note its FD_CLOEXEC. */
static int
check_cloexec(void *arg, char *line)
{
	struct seen	*s = arg;
	char		 link[64], target[PATH_MAX], want[PATH_MAX];
	ssize_t		 n;
	int		 fd;

	(void)line;
	assert_non_null(realpath(DATA "lines", want));
	for (fd = 3; fd < 256; fd++) {
		(void)snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
		if ((n = readlink(link, target, sizeof(target) - 1)) == -1)
			continue;
		target[n] = '\0';
		if (strcmp(target, want) == 0) {
			s->n++;
			s->cloexec = (fcntl(fd, F_GETFD) & FD_CLOEXEC) != 0;
		}
	}
	return 1;
}

static void
test_lines_cloexec(void **state)
{
	struct seen	s;

	(void)state;
	memset(&s, 0, sizeof(s));
	assert_int_equal(sysfile_lines(DATA "lines", check_cloexec, &s), 1);
	assert_int_equal(s.n, 1);
	assert_true(s.cloexec);
}

/* ===== EINTR ===== */

static volatile sig_atomic_t	alarms;

static void
on_alarm(int sig)
{
	(void)sig;
	alarms++;
}

/*
 * A FIFO blocks open(2) until a writer comes and read(2) until it
 * writes; a timer without SA_RESTART interrupts both, again and again.
 */
static void
test_eintr(void **state)
{
	struct sigaction	 sa, old;
	struct itimerval	 it, off;
	struct timespec		 ts = { 0, 150000000L };
	char			 dir[] = "/tmp/test_sysfile.XXXXXX";
	char			 fifo[64], buf[64];
	pid_t			 pid;
	ssize_t			 n;
	int			 fd, status, saved;

	(void)state;
	assert_non_null(mkdtemp(dir));
	(void)snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_true((pid = fork()) != -1);
	if (pid == 0) {
		(void)alarm(5);		/* never outlive a failed test */
		(void)nanosleep(&ts, NULL);
		if ((fd = open(fifo, O_WRONLY)) == -1)
			_exit(1);
		(void)nanosleep(&ts, NULL);
		if (write(fd, "12", 2) != 2)
			_exit(1);
		(void)nanosleep(&ts, NULL);
		if (write(fd, "34\n", 3) != 3)
			_exit(1);
		_exit(close(fd) == 0 ? 0 : 1);
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;	/* no SA_RESTART */
	assert_int_equal(sigaction(SIGALRM, &sa, &old), 0);
	memset(&it, 0, sizeof(it));
	it.it_interval.tv_usec = 20000;
	it.it_value.tv_usec = 20000;
	memset(&off, 0, sizeof(off));
	alarms = 0;
	assert_int_equal(setitimer(ITIMER_REAL, &it, NULL), 0);
	n = sysfile_read(fifo, buf, sizeof(buf));
	saved = errno;
	assert_int_equal(setitimer(ITIMER_REAL, &off, NULL), 0);
	assert_int_equal(sigaction(SIGALRM, &old, NULL), 0);
	if (n != 5)
		(void)kill(pid, SIGKILL);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	if (n == -1)
		fail_msg("sysfile_read: %s", strerror(saved));
	assert_int_equal(n, 5);
	assert_string_equal(buf, "1234\n");
	assert_true(alarms > 3);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	assert_int_equal(unlink(fifo), 0);
	assert_int_equal(rmdir(dir), 0);
}

/* ===== Keys ===== */

static void
test_key_table(void **state)
{
	static const struct {
		const char	*file;
		const char	*key;
		size_t		 len;
		int		 err;
		const char	*want;
	} cases[] = {
		{ "keys", "MemTotal", 64, 0, "12x kB" },
		{ "keys", "Name", 64, 0, "largedir" },
		{ "keys", "VmRSS", 64, 0, "5120 kB" },
		{ "keys", "oom_kill", 64, 0, "3" },
		{ "keys", "oom", 64, 0, "1" },
		{ "keys", "file", 64, 0, "4096" },
		{ "keys", "file_mapped", 64, 0, "512" },
		{ "keys", "Empty", 64, 0, "" },
		{ "keys", "Tabbed", 64, 0, "7" },
		/* The key must be followed by ':' or a blank. */
		{ "keys", "Spaced", 64, 0, ": 1" },
		{ "keys", "oom_", 64, ENODATA, NULL },
		{ "keys", "Mem", 64, ENODATA, NULL },
		{ "keys", "memtotal", 64, ENODATA, NULL },
		{ "keys", "Long", 64, ERANGE, NULL },
		{ "keys", "Long", 71, 0, NULL },
		{ "keys", "Long", 70, ERANGE, NULL },
		{ "keys", "Name", 9, 0, "largedir" },
		{ "keys", "Name", 8, ERANGE, NULL },
		{ "keys", "Name", 0, EINVAL, NULL },
		{ "empty", "Name", 64, ENODATA, NULL },
		{ "no-such-file", "Name", 64, ENOENT, NULL },
	};
	char	buf[128], path[256];
	size_t	i;
	int	r;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		print_message("%s in %s\n", cases[i].key, cases[i].file);
		(void)snprintf(path, sizeof(path), DATA "%s", cases[i].file);
		errno = 0;
		r = sysfile_key(path, cases[i].key, buf, cases[i].len);
		if (cases[i].err != 0) {
			assert_int_equal(r, -1);
			assert_int_equal(errno, cases[i].err);
			continue;
		}
		assert_int_equal(r, 0);
		if (cases[i].want != NULL)
			assert_string_equal(buf, cases[i].want);
		else
			assert_int_equal(strlen(buf), cases[i].len - 1);
	}
}

/* The meminfo of a real machine, and the keys' numbers. */
static void
test_key_u64_table(void **state)
{
	static const struct {
		const char	*file;
		const char	*key;
		int		 err;
		uint64_t	 v;
	} cases[] = {
		{ TEST_DATA "/meminfo", "MemTotal", 0, 16318108 },
		{ TEST_DATA "/meminfo", "MemAvailable", 0, 11927344 },
		{ TEST_DATA "/meminfo", "Active", 0, 5417224 },
		{ TEST_DATA "/meminfo", "Active(anon)", 0, 3573904 },
		{ TEST_DATA "/meminfo", "VmallocTotal", 0, 34359738367ULL },
		{ TEST_DATA "/meminfo", "HugePages_Total", 0, 0 },
		{ TEST_DATA "/meminfo", "DirectMap1G", 0, 5242880 },
		{ TEST_DATA "/meminfo", "Mem", ENODATA, 0 },
		{ TEST_DATA "/meminfo", "memtotal", ENODATA, 0 },
		{ TEST_DATA "/meminfo", "NoSuchKey", ENODATA, 0 },
		{ DATA "keys", "VmRSS", 0, 5120 },
		{ DATA "keys", "oom_kill", 0, 3 },
		{ DATA "keys", "oom_kill_disable", 0, 0 },
		{ DATA "keys", "Max", 0, 9223372036854775807ULL },
		{ DATA "keys", "MemTotal", EINVAL, 0 },	/* 12x kB */
		{ DATA "keys", "MemFree", EINVAL, 0 },	/* 7 MB */
		{ DATA "keys", "Cached", EINVAL, 0 },	/* -5 kB */
		{ DATA "keys", "Name", EINVAL, 0 },
		{ DATA "keys", "Big", EINVAL, 0 },
		{ DATA "keys", "TooBig", EINVAL, 0 },
		{ DATA "keys", "Long", EINVAL, 0 },
		{ DATA "keys", "Empty", EINVAL, 0 },
		{ TEST_DATA "/no-such-meminfo", "MemTotal", ENOENT, 0 },
	};
	uint64_t	v;
	size_t		i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		print_message("%s in %s\n", cases[i].key, cases[i].file);
		errno = 0;
		v = 42;
		if (cases[i].err != 0) {
			assert_int_equal(sysfile_key_u64(cases[i].file,
			    cases[i].key, &v), -1);
			assert_int_equal(errno, cases[i].err);
			assert_true(v == 42);
			continue;
		}
		assert_int_equal(sysfile_key_u64(cases[i].file, cases[i].key,
		    &v), 0);
		assert_true(v == cases[i].v);
	}
}

/* ===== Numbers ===== */

static void
test_u64_table(void **state)
{
	static const struct {
		const char	*file;
		int		 err;
		uint64_t	 v;
	} cases[] = {
		{ "u64", 0, 4096 },
		{ "u64-padded", 0, 42 },
		{ "u64-nonl", 0, 123 },
		{ "u64-two", EINVAL, 0 },
		{ "u64-neg", EINVAL, 0 },
		{ "u64-word", EINVAL, 0 },
		{ "empty", ENODATA, 0 },
		{ "no-such-file", ENOENT, 0 },
	};
	char		path[256];
	uint64_t	v;
	size_t		i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		(void)snprintf(path, sizeof(path), DATA "%s", cases[i].file);
		errno = 0;
		v = 42;
		if (cases[i].err != 0) {
			assert_int_equal(sysfile_u64(path, &v), -1);
			assert_int_equal(errno, cases[i].err);
			assert_true(v == 42);
			continue;
		}
		assert_int_equal(sysfile_u64(path, &v), 0);
		assert_true(v == cases[i].v);
	}
}

static void
test_parse_u64_table(void **state)
{
	static const struct {
		const char	*s;
		int		 ok;
		uint64_t	 v;
	} cases[] = {
		{ "0", 1, 0 },
		{ "4096", 1, 4096 },
		{ "4096\n", 1, 4096 },
		{ "4096\nmore lines\n", 1, 4096 },
		{ "9223372036854775807", 1, 9223372036854775807ULL },
		{ "9223372036854775808", 0, 0 },
		{ "", 0, 0 },
		{ "\n", 0, 0 },
		{ " 1", 0, 0 },
		{ "1 ", 0, 0 },
		{ "12 34", 0, 0 },
		{ "-1", 0, 0 },
		{ "max", 0, 0 },
		{ "1x", 0, 0 },
		{ "000000000000000000000000000000001", 0, 0 },
	};
	uint64_t	v;
	size_t		i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		v = 42;
		errno = 0;
		if (!cases[i].ok) {
			if (sysfile_parse_u64(cases[i].s, &v) != -1)
				fail_msg("'%s' was taken", cases[i].s);
			assert_int_equal(errno, EINVAL);
			assert_true(v == 42);
			continue;
		}
		assert_int_equal(sysfile_parse_u64(cases[i].s, &v), 0);
		assert_true(v == cases[i].v);
	}
}

static void
test_field_table(void **state)
{
	static const struct {
		const char	*s;
		int		 k;
		int		 ok;
		uint64_t	 v;
	} cases[] = {
		{ "113453\t112125\t45\t0\t24295\t0\n", 1, 1, 113453 },
		{ "113453\t112125\t45\t0\t24295\t0\n", 2, 1, 112125 },
		{ "113453\t112125\t45\t0\t24295\t0\n", 6, 1, 0 },
		{ "113453\t112125\t45\t0\t24295\t0\n", 7, 0, 0 },
		{ "  266037    50688 11541150   133650", 3, 1, 11541150 },
		{ "dentries 12", 1, 0, 0 },
		{ "dentries 12", 2, 1, 12 },
		{ "1 -2 3", 2, 0, 0 },
		{ "1 2x 3", 2, 0, 0 },
		{ "", 1, 0, 0 },
		{ "   \n", 1, 0, 0 },
		{ "1 2", 0, 0, 0 },
		{ "1 2", -1, 0, 0 },
	};
	uint64_t	v;
	size_t		i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		v = 42;
		errno = 0;
		if (!cases[i].ok) {
			if (sysfile_field_u64(cases[i].s, cases[i].k, &v) != -1)
				fail_msg("field %d of '%s' was taken",
				    cases[i].k, cases[i].s);
			assert_int_equal(errno, EINVAL);
			assert_true(v == 42);
			continue;
		}
		assert_int_equal(sysfile_field_u64(cases[i].s, cases[i].k, &v),
		    0);
		assert_true(v == cases[i].v);
	}
}

/* ===== Words and strings ===== */

static void
test_token_table(void **state)
{
	static const struct {
		const char	*s;
		int		 k;
		const char	*want;	/* NULL: no such token */
	} cases[] = {
		{ "dentry  113502 114429   192", 1, "dentry" },
		{ "dentry  113502 114429   192", 2, "113502" },
		{ "dentry  113502 114429   192", 4, "192" },
		{ "dentry  113502 114429   192", 5, NULL },
		{ "\t a\tb \n", 2, "b" },
		{ "", 1, NULL },
		{ " \t\n", 1, NULL },
		{ "a", 0, NULL },
	};
	const char	*p;
	size_t		 i, n;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		p = sysfile_token(cases[i].s, cases[i].k, &n);
		if (cases[i].want == NULL) {
			assert_null(p);
			continue;
		}
		assert_non_null(p);
		assert_int_equal(n, strlen(cases[i].want));
		assert_true(strncmp(p, cases[i].want, n) == 0);
	}
}

static void
test_has_word_table(void **state)
{
	static const struct {
		const char	*list, *word, *seps;
		bool		 want;
	} cases[] = {
		{ "cpuset cpu io memory pids", "memory", " ", true },
		{ "cpuset cpu io memory pids", "cpu", " ", true },
		{ "cpuset cpu io memory pids", "mem", " ", false },
		{ "cpuset cpu io memory pids", "pid", " ", false },
		{ "rw,cpuacct,memory", "memory", ",", true },
		{ "rw,name=memory", "memory", ",", false },
		{ "memory,rw", "memory", ",", true },
		{ "rw,,memory,", "memory", ",", true },
		{ "rw memory", "memory", ",", false },
		{ "", "memory", " ", false },
		{ "memoryx", "memory", " ", false },
	};
	size_t	i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (sysfile_has_word(cases[i].list, cases[i].word,
		    cases[i].seps) != cases[i].want)
			fail_msg("'%s' in '%s'", cases[i].word, cases[i].list);
}

static void
test_trim_path(void **state)
{
	static const struct {
		const char	*s, *want;
	} trims[] = {
		{ "  a b \t\n", "a b" },
		{ "a", "a" },
		{ "", "" },
		{ " \t\n ", "" },
	};
	static const struct {
		const char	*root, *rel, *want;
	} paths[] = {
		{ "/", "proc/meminfo", "/proc/meminfo" },
		{ "", "proc/meminfo", "/proc/meminfo" },
		{ "tests/data/cache/full", "proc/slabinfo",
		    "tests/data/cache/full/proc/slabinfo" },
		{ "tests/data/cache/full//", "proc/slabinfo",
		    "tests/data/cache/full/proc/slabinfo" },
	};
	char	buf[32], *p;
	size_t	i;

	(void)state;
	for (i = 0; i < sizeof(trims) / sizeof(trims[0]); i++) {
		(void)snprintf(buf, sizeof(buf), "%s", trims[i].s);
		p = sysfile_trim(buf);
		assert_string_equal(p, trims[i].want);
		assert_true(p >= buf && p <= buf + strlen(trims[i].s));
	}
	for (i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		p = sysfile_path(paths[i].root, paths[i].rel);
		assert_string_equal(p, paths[i].want);
		free(p);
	}
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test(test_read_table),
		cmocka_unit_test(test_read_proc),
		cmocka_unit_test(test_line_table),
		cmocka_unit_test(test_lines_table),
		cmocka_unit_test(test_lines_cloexec),
		cmocka_unit_test(test_eintr),
		cmocka_unit_test(test_key_table),
		cmocka_unit_test(test_key_u64_table),
		cmocka_unit_test(test_u64_table),
		cmocka_unit_test(test_parse_u64_table),
		cmocka_unit_test(test_field_table),
		cmocka_unit_test(test_token_table),
		cmocka_unit_test(test_has_word_table),
		cmocka_unit_test(test_trim_path),
	};

	return cmocka_run_group_tests_name("sysfile", tests, NULL, NULL);
}
