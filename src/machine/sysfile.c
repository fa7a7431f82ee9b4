/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * sysfile: the one reader of the kernel's small text files; see
 * sysfile.h.  cache, memcg, probe, marker, loop, perf and mountinfo read
 * through it.
 *
 * Files are opened with O_CLOEXEC, so a child that execs mkfs or gnuplot
 * never inherits one, and every open(2) and read(2) is retried on EINTR,
 * so a signal (SIGINT sets a flag and returns) never turns into a failed
 * reading.  /proc and /sys files are read with read(2) until end of
 * file, as seq_file hands them out in pieces.
 *
 * Two ways of reading: sysfile_read() and sysfile_line() fill a caller's
 * buffer (a file too big for it is EFBIG for the first, cut for the
 * second, which wants only the first line); sysfile_lines() streams any
 * number of lines of any length (mountinfo, slabinfo, cpuinfo grow with
 * the machine) through a callback, and the key reader is built on it.
 */

#include <sys/types.h>

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/parse.h"
#include "base/util.h"
#include "machine/sysfile.h"

#define WS		" \t\n"
#define NUMLEN		32	/* longer than any int64_t in decimal */
#define CHUNK		4096	/* first size of the line buffer */
#define VALLEN		64	/* longest value read as a number */

/* What sysfile_key() looks for, and where it puts the value. */
struct keyscan {
	const char	*key;
	size_t		 klen;
	char		*buf;
	size_t		 len;
	int		 found;	/* 1: copied, -1: too long for 'buf' */
};

static int	open_ro(const char *);
static ssize_t	fill(const char *, char *, size_t, bool);
static int	num(const char *, size_t, uint64_t *);
static int	key_line(void *, char *);

/* ===== Reading ===== */

/* open(2) 'path' for reading, retrying on EINTR. */
static int
open_ro(const char *path)
{
	int	fd;

	do
		fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	while (fd == -1 && errno == EINTR);
	return fd;
}

/*
 * Read the file 'path' into 'buf' of 'len' (> 0) bytes and end it with a
 * NUL.  With 'whole', all of it must fit (else EFBIG); without, reading
 * stops at the first newline or when 'buf' is full.  Return the number
 * of bytes read, or -1 with errno.
 */
static ssize_t
fill(const char *path, char *buf, size_t len, bool whole)
{
	size_t	got = 0;
	ssize_t	n;
	char	more;
	int	fd, saved;

	buf[0] = '\0';
	if ((fd = open_ro(path)) == -1)
		return -1;
	while (got < len - 1) {
		if ((n = read(fd, buf + got, len - 1 - got)) == -1) {
			if (errno == EINTR)
				continue;
			goto fail;
		}
		if (n == 0)
			break;
		if (!whole && memchr(buf + got, '\n', (size_t)n) != NULL) {
			got += (size_t)n;
			break;
		}
		got += (size_t)n;
	}
	if (whole && got == len - 1) {
		/* 'buf' is full: the file must end here. */
		do
			n = read(fd, &more, 1);
		while (n == -1 && errno == EINTR);
		if (n == -1)
			goto fail;
		if (n == 1) {
			errno = EFBIG;
			goto fail;
		}
	}
	(void)close(fd);
	buf[got] = '\0';
	return (ssize_t)got;
fail:
	saved = errno;
	(void)close(fd);
	buf[0] = '\0';
	errno = saved;
	return -1;
}

/*
 * Return the new string 'root' + "/" + 'rel' for a file below the
 * filesystem root 'root' ("/" on a live system, a fixture directory in
 * the tests): 'root' loses its trailing slashes, so ("/", "proc/meminfo")
 * is "/proc/meminfo".  'rel' is relative.  The caller frees the string.
 */
char *
sysfile_path(const char *root, const char *rel)
{
	size_t	n;

	n = strlen(root);
	while (n > 0 && root[n - 1] == '/')
		n--;
	return xasprintf("%.*s/%s", (int)n, root, rel);
}

/*
 * Read all of the file 'path' into 'buf' of 'len' bytes, ended by a NUL
 * (so the file may hold at most 'len' - 1 bytes).  Return the number of
 * bytes read, or -1 with errno: EFBIG if the file does not fit, EINVAL
 * if 'len' is 0, or that of open(2) or read(2); 'buf' then holds "".
 */
ssize_t
sysfile_read(const char *path, char *buf, size_t len)
{
	if (len == 0) {
		errno = EINVAL;
		return -1;
	}
	return fill(path, buf, len, true);
}

/*
 * Read the first line of the file 'path' into 'buf' of 'len' bytes,
 * without its newline and trimmed of blanks at both ends; a line longer
 * than 'buf' is cut to fit.  Return 0, or -1 with errno: ENODATA if the
 * line is empty or blank, EINVAL if 'len' is 0, or that of open(2) or
 * read(2).
 */
int
sysfile_line(const char *path, char *buf, size_t len)
{
	char	*t;

	if (len == 0) {
		errno = EINVAL;
		return -1;
	}
	if (fill(path, buf, len, false) == -1)
		return -1;
	buf[strcspn(buf, "\n")] = '\0';
	t = sysfile_trim(buf);
	(void)memmove(buf, t, strlen(t) + 1);
	if (*buf == '\0') {
		errno = ENODATA;
		return -1;
	}
	return 0;
}

/*
 * Call 'fn'('arg', line) for each line of the file 'path' in turn, the
 * newline removed (a last line without one counts too).  The line is
 * NUL-terminated, any length, and 'fn' may change it; it lives until
 * 'fn' returns.  'fn' returns 0 to go on; anything else stops the
 * reading and is returned (-1 with errno for an error of its own).
 * Return 0 at the end of the file, or -1 with the errno of open(2) or
 * read(2).
 */
int
sysfile_lines(const char *path, int (*fn)(void *, char *), void *arg)
{
	char	*buf, *nl, *line;
	size_t	 cap = CHUNK, have = 0, off = 0;
	ssize_t	 n;
	int	 fd, r = 0, saved;
	bool	 eof = false;

	if ((fd = open_ro(path)) == -1)
		return -1;
	buf = xmalloc(cap);
	for (;;) {
		nl = memchr(buf + off, '\n', have - off);
		if (nl == NULL && !eof) {
			/* Keep the partial line and read more behind it. */
			if (off > 0) {
				(void)memmove(buf, buf + off, have - off);
				have -= off;
				off = 0;
			}
			if (have + 1 >= cap) {
				cap *= 2;
				buf = xreallocarray(buf, cap, 1);
			}
			n = read(fd, buf + have, cap - have - 1);
			if (n == -1 && errno == EINTR)
				continue;
			if (n == -1) {
				r = -1;
				break;
			}
			if (n == 0)
				eof = true;
			have += (size_t)n;
			continue;
		}
		if (nl == NULL) {
			if (off == have)
				break;
			nl = buf + have;	/* a last line without '\n' */
		}
		*nl = '\0';
		line = buf + off;
		off = nl == buf + have ? have : (size_t)(nl - buf) + 1;
		if ((r = fn(arg, line)) != 0)
			break;
	}
	saved = errno;
	free(buf);
	(void)close(fd);
	errno = saved;
	return r;
}

/* sysfile_lines() callback of sysfile_key(). */
static int
key_line(void *arg, char *line)
{
	struct keyscan	*k = arg;
	char		*v;
	size_t		 n;

	if (strncmp(line, k->key, k->klen) != 0)
		return 0;
	v = line + k->klen;
	if (*v == ':')
		v++;
	else if (*v != ' ' && *v != '\t')
		return 0;
	v = sysfile_trim(v);
	if ((n = strlen(v)) >= k->len) {
		k->found = -1;
		return 1;
	}
	(void)memcpy(k->buf, v, n + 1);
	k->found = 1;
	return 1;
}

/*
 * Copy into 'buf' of 'len' bytes the value of the first line of the file
 * 'path' that is 'key' followed by a colon or a blank ("MemTotal:  1 kB",
 * "oom_kill 0", "VmRSS:\t 8 kB"), trimmed: "1 kB".  "Mem" is not the key
 * of "MemTotal:", nor "Active" of "Active(anon):".  Return 0, or -1 with
 * errno: ENODATA if no line has the key, ERANGE if the value does not
 * fit 'buf', EINVAL if 'len' is 0, or that of open(2) or read(2).
 */
int
sysfile_key(const char *path, const char *key, char *buf, size_t len)
{
	struct keyscan	k;

	if (len == 0) {
		errno = EINVAL;
		return -1;
	}
	k.key = key;
	k.klen = strlen(key);
	k.buf = buf;
	k.len = len;
	k.found = 0;
	if (sysfile_lines(path, key_line, &k) == -1)
		return -1;
	if (k.found != 1) {
		errno = k.found == 0 ? ENODATA : ERANGE;
		return -1;
	}
	return 0;
}

/*
 * Store in '*v' the number that is the value of 'key' in the file 'path'
 * (see sysfile_key()), in the unit the file gives: a "kB" after it, as
 * in meminfo and /proc/PID/status, is allowed and dropped, any other
 * unit is not.  '*v' is left alone on error.  Return 0, or -1 with
 * errno: ENODATA if there is no such key, EINVAL if its value is not a
 * number, or that of open(2) or read(2).
 */
int
sysfile_key_u64(const char *path, const char *key, uint64_t *v)
{
	char	buf[VALLEN], *unit;

	if (sysfile_key(path, key, buf, sizeof(buf)) == -1) {
		if (errno == ERANGE)
			errno = EINVAL;
		return -1;
	}
	if ((unit = strpbrk(buf, " \t")) != NULL) {
		if (strcmp(sysfile_trim(unit), "kB") != 0) {
			errno = EINVAL;
			return -1;
		}
		*unit = '\0';
	}
	return num(buf, strlen(buf), v);
}

/*
 * Store in '*v' the number on the first line of the file 'path'
 * (memory.peak, a /sys counter), blanks around it allowed.  '*v' is left
 * alone on error.  Return 0, or -1 with errno: EINVAL if it is not a
 * number, ENODATA if the line is empty, or that of open(2) or read(2).
 */
int
sysfile_u64(const char *path, uint64_t *v)
{
	char	buf[VALLEN];

	if (sysfile_line(path, buf, sizeof(buf)) == -1)
		return -1;
	return sysfile_parse_u64(buf, v);
}

/* ===== Taking lines apart ===== */

/*
 * Store in '*v' the 'n' bytes at 's' read as a decimal number from 0 to
 * INT64_MAX.  Return 0, or -1 with errno EINVAL.
 */
static int
num(const char *s, size_t n, uint64_t *v)
{
	char		 buf[NUMLEN];
	const char	*errstr;
	long long	 x;

	if (n >= sizeof(buf)) {
		errno = EINVAL;
		return -1;
	}
	(void)memcpy(buf, s, n);
	buf[n] = '\0';
	x = parse_num(buf, 0, LLONG_MAX, &errstr);
	if (errstr != NULL) {
		errno = EINVAL;
		return -1;
	}
	*v = (uint64_t)x;
	return 0;
}

/*
 * Store in '*v' the decimal number 's', which may be followed by a
 * newline and whatever comes after it (what read(2) gives of a file of
 * one number) but by nothing else.  Return 0, or -1 with errno EINVAL;
 * '*v' is then left alone.
 */
int
sysfile_parse_u64(const char *s, uint64_t *v)
{
	return num(s, strcspn(s, "\n"), v);
}

/*
 * Store in '*v' the 'k'th (from 1) blank-separated field of 's' as a
 * decimal number ("113453\t112125\t45" has 112125 as field 2).  Return
 * 0, or -1 with errno EINVAL if there is no such field or it is not a
 * number; '*v' is then left alone.
 */
int
sysfile_field_u64(const char *s, int k, uint64_t *v)
{
	const char	*p;
	size_t		 n;

	if ((p = sysfile_token(s, k, &n)) == NULL) {
		errno = EINVAL;
		return -1;
	}
	return num(p, n, v);
}

/*
 * Return the 'k'th (from 1) blank-separated token of 's' (blanks are
 * spaces, tabs and newlines) and store its length in '*n', or return
 * NULL if there is no such token.  The token is not NUL-terminated.
 */
const char *
sysfile_token(const char *s, int k, size_t *n)
{
	*n = 0;
	if (k < 1)
		return NULL;
	for (;;) {
		s += strspn(s, WS);
		if ((*n = strcspn(s, WS)) == 0)
			return NULL;
		if (--k == 0)
			return s;
		s += *n;
	}
}

/*
 * Whether 'word' is one of the words of 'list' separated by any of the
 * characters of 'seps': cgroup.controllers ("cpu memory", " "), mount
 * options ("rw,memory", ",").  Words are matched whole.
 */
bool
sysfile_has_word(const char *list, const char *word, const char *seps)
{
	size_t	n, wlen;

	wlen = strlen(word);
	for (;;) {
		list += strspn(list, seps);
		if ((n = strcspn(list, seps)) == 0)
			return false;
		if (n == wlen && strncmp(list, word, n) == 0)
			return true;
		list += n;
	}
}

/*
 * Cut the blanks (isspace(3)) off both ends of the string 's' in place:
 * the end gets a new NUL.  Return the first character that is not a
 * blank, which lies within 's'.
 */
char *
sysfile_trim(char *s)
{
	size_t	n;

	while (*s != '\0' && isspace((unsigned char)*s))
		s++;
	n = strlen(s);
	while (n > 0 && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	return s;
}
