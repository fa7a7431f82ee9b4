/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * util: the small pieces every module needs.  Nothing here prints or
 * exits, except the x* allocators, which die when memory is out: a
 * benchmark that cannot allocate its name table has nothing useful left
 * to do.  The parsers of numbers are parse.c's.
 */

#include <sys/stat.h>

#include <fcntl.h>
#include <err.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"

static int	append_errno(char *, int, const char *);

/* ===== Allocation ===== */

/*
 * Allocate 'size' bytes or die.  A zero size still returns a unique
 * pointer.  The caller owns the memory.
 */
void *
xmalloc(size_t size)
{
	void	*p;

	if ((p = malloc(size == 0 ? 1 : size)) == NULL)
		err(1, "malloc %zu bytes", size);
	return p;
}

/* Allocate 'nmemb' zeroed elements of 'size' bytes or die. */
void *
xcalloc(size_t nmemb, size_t size)
{
	void	*p;

	if ((p = calloc(nmemb == 0 ? 1 : nmemb, size == 0 ? 1 : size)) == NULL)
		err(1, "calloc %zu x %zu bytes", nmemb, size);
	return p;
}

/* Resize 'p' to 'nmemb' elements of 'size' bytes, checking overflow. */
void *
xreallocarray(void *p, size_t nmemb, size_t size)
{
	void	*q;

	if ((q = reallocarray(p, nmemb == 0 ? 1 : nmemb, size == 0 ? 1 :
	    size)) == NULL)
		err(1, "reallocarray %zu x %zu bytes", nmemb, size);
	return q;
}

/* Duplicate the string 's' or die. */
char *
xstrdup(const char *s)
{
	char	*p;

	if ((p = strdup(s)) == NULL)
		err(1, "strdup");
	return p;
}

/* Format into a newly allocated string or die.  The caller frees it. */
char *
xasprintf(const char *fmt, ...)
{
	va_list	 ap;
	char	*p;
	int	 r;

	va_start(ap, fmt);
	r = vasprintf(&p, fmt, ap);
	va_end(ap);
	if (r == -1)
		err(1, "vasprintf");
	return p;
}

/* ===== Randomness ===== */

/*
 * Advance the splitmix64 state '*state' and return the next 64-bit
 * output.  Any seed, including 0, gives a full-period sequence.
 */
uint64_t
util_splitmix64(uint64_t *state)
{
	uint64_t	z;

	z = (*state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/*
 * Return a uniformly distributed integer in [0, 'bound') from '*state',
 * without modulo bias: outputs below 2^64 mod 'bound' are rejected, so
 * every residue is equally likely.  'bound' > 0.
 */
uint64_t
util_below(uint64_t *state, uint64_t bound)
{
	uint64_t	r, threshold;

	threshold = -bound % bound;
	do
		r = util_splitmix64(state);
	while (r < threshold);
	return r % bound;
}

/* ===== Human-readable formatting ===== */

/*
 * Write 'ns' into 'buf' the way a person reads it: "850ns", "12.3us",
 * "4.56ms", "7.89s", "2m05s", "1h02m".
 */
void
util_fmt_duration(char *buf, size_t len, uint64_t ns)
{
	uint64_t	s;

	/* Each bound is where the rounded figure would reach the next unit. */
	if (ns < NS_PER_US)
		(void)snprintf(buf, len, "%" PRIu64 "ns", ns);
	else if (ns < 999950)
		(void)snprintf(buf, len, "%.1fus", ns / 1e3);
	else if (ns < 999995000)
		(void)snprintf(buf, len, "%.2fms", ns / 1e6);
	else if (ns < 59995000000ULL)
		(void)snprintf(buf, len, "%.2fs", ns / 1e9);
	else if ((s = (ns + NS_PER_S / 2) / NS_PER_S) < 3600)
		(void)snprintf(buf, len, "%" PRIu64 "m%02" PRIu64 "s",
		    s / 60, s % 60);
	else
		(void)snprintf(buf, len, "%" PRIu64 "h%02" PRIu64 "m",
		    s / 3600, s / 60 % 60);
}

/* Write a rate per second into 'buf' with a k/M/G scale: "350.1k". */
void
util_fmt_rate(char *buf, size_t len, double rate)
{
	if (rate < 999.95)
		(void)snprintf(buf, len, "%.1f", rate);
	else if (rate < 999950)
		(void)snprintf(buf, len, "%.1fk", rate / 1e3);
	else if (rate < 999995000)
		(void)snprintf(buf, len, "%.2fM", rate / 1e6);
	else
		(void)snprintf(buf, len, "%.2fG", rate / 1e9);
}

/* Append 's' to the string in 'buf' ('len' bytes), cut to fit. */
void
util_append(char *buf, size_t len, const char *s)
{
	size_t	n = strlen(buf);

	if (n < len)
		(void)snprintf(buf + n, len - n, "%s", s);
}

/*
 * Write a size in bytes as --memory-limit takes it into 'buf': "32M",
 * "1G", "640k", in the largest binary unit that divides it ("1000" if
 * none).
 */
void
util_fmt_size(char *buf, size_t len, uint64_t v)
{
	static const char	units[] = "kMGTP";
	int			i = -1;

	while (v != 0 && v % 1024 == 0 && i + 1 < (int)sizeof(units) - 1) {
		v /= 1024;
		i++;
	}
	if (i < 0)
		(void)snprintf(buf, len, "%" PRIu64, v);
	else
		(void)snprintf(buf, len, "%" PRIu64 "%c", v, units[i]);
}

/*
 * Write a count with thousands separators into 'buf': "1,234,567".  If
 * 'len' is too small for that, the plain digits are cut as snprintf cuts.
 */
void
util_fmt_count(char *buf, size_t len, uint64_t v)
{
	char	tmp[32];
	size_t	n, i, o = 0;

	n = (size_t)snprintf(tmp, sizeof(tmp), "%" PRIu64, v);
	if (n + (n - 1) / 3 + 1 > len) {
		(void)snprintf(buf, len, "%s", tmp);
		return;
	}
	for (i = 0; i < n && o + 1 < len; i++) {
		if (i > 0 && (n - i) % 3 == 0 && o + 2 < len)
			buf[o++] = ',';
		buf[o++] = tmp[i];
	}
	if (len > 0)
		buf[o < len ? o : len - 1] = '\0';
}

/*
 * Split the comma-separated list 's' into its elements, as every list an
 * option takes is split (--phases, --events, table's --n and --phases):
 * no blanks are trimmed and no element may be empty, so "", ",a", "a,"
 * and "a,,b" are refused.  Return a NULL-terminated array of the
 * elements, their number in '*n'; one block holds the array and the
 * strings, so the caller frees the array alone.  Return NULL with errno
 * EINVAL for an empty element.
 */
char **
util_list_split(const char *s, size_t *n)
{
	char	**v, *p;
	size_t	  len = strlen(s), count = 1, i;

	for (i = 0; i < len; i++)
		if (s[i] == ',')
			count++;
	v = xmalloc((count + 1) * sizeof(*v) + len + 1);
	p = (char *)(v + count + 1);
	memcpy(p, s, len + 1);
	for (i = 0; i < count; i++) {
		v[i] = p;
		p += strcspn(p, ",");
		if (p == v[i]) {
			free(v);
			errno = EINVAL;
			return NULL;
		}
		*p++ = '\0';
	}
	v[count] = NULL;
	*n = count;
	return v;
}

/* ===== Files ===== */

/*
 * mkdir -p 'path': make it and every missing parent, mode 0755.  Return
 * 0, or -1 with errno.
 */
int
util_mkdir_p(const char *path)
{
	char	*p, *s, c;
	int	 rc = 0, saved;

	p = xstrdup(path);
	for (s = p + 1; ; s++) {
		if (*s != '/' && *s != '\0')
			continue;
		c = *s;
		*s = '\0';
		if (mkdir(p, 0755) == -1 && errno != EEXIST) {
			rc = -1;
			break;
		}
		if (c == '\0')
			break;
		*s = c;
	}
	saved = errno;
	free(p);
	errno = saved;
	return rc;
}

/*
 * Write 'value' to the existing file 'path' in one write(2), as /proc, /sys
 * and cgroup files want it.  Async-signal-safe, so a child may call it
 * between fork() and its work.  Return 0, or -1 with errno.
 */
int
util_write_file(const char *path, const char *value)
{
	size_t	len;
	int	fd, rc = 0, saved = 0;

	len = strlen(value);
	if ((fd = open(path, O_WRONLY | O_CLOEXEC)) == -1)
		return -1;
	if (write(fd, value, len) != (ssize_t)len) {
		rc = -1;
		saved = errno != 0 ? errno : EIO;
	}
	if (close(fd) == -1 && rc == 0) {
		rc = -1;
		saved = errno;
	}
	errno = saved;
	return rc;
}

/*
 * Open 'name' in the directory 'dirfd' for reading, but only if it is a
 * regular file (a link to one is followed only with 'follow'): a FIFO,
 * a device or a socket that someone put into a results directory is
 * never opened for good or at all.  It is looked at before the open, so
 * that no device is opened, and the open is non-blocking and checked
 * again by fstat(2), so that a FIFO put there in between cannot block.
 * Return the descriptor (close on exec), or -1 with errno (EINVAL: not a
 * regular file).
 */
int
util_open_regular(int dirfd, const char *name, bool follow)
{
	struct stat	st;
	int		fd;

	if (fstatat(dirfd, name, &st, follow ? 0 : AT_SYMLINK_NOFOLLOW) == -1)
		return -1;
	if (!S_ISREG(st.st_mode)) {
		errno = EINVAL;
		return -1;
	}
	if ((fd = openat(dirfd, name, O_RDONLY | O_NONBLOCK | O_NOCTTY |
	    O_CLOEXEC | (follow ? 0 : O_NOFOLLOW))) == -1)
		return -1;
	if (fstat(fd, &st) == -1 || !S_ISREG(st.st_mode)) {
		(void)close(fd);
		errno = EINVAL;
		return -1;
	}
	return fd;
}

/*
 * Whether 'dir' is an existing directory (stat(2), following links).
 * Return 0, or -1 with errno and "DIR: why" in 'err' (LD_ERRLEN bytes).
 */
int
util_check_dir(const char *dir, char *err)
{
	struct stat	st;

	if (*dir == '\0') {
		(void)snprintf(err, LD_ERRLEN, "'': an empty name is no "
		    "directory");
		errno = ENOENT;
		return -1;
	}
	if (stat(dir, &st) == -1) {
		(void)snprintf(err, LD_ERRLEN, "%s: %s", dir, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		(void)snprintf(err, LD_ERRLEN, "%s: not a directory", dir);
		errno = ENOTDIR;
		return -1;
	}
	return 0;
}

/*
 * The command line 'argv' ('argc' words) as a shell would need it typed:
 * words of safe characters as they are, others in single quotes.  Return
 * a new string.
 */
char *
util_quote_argv(int argc, char **argv)
{
	static const char	 safe[] = "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./=:,+-@%";
	char			*s = xstrdup(""), *t;
	const char		*a;
	int			 i;

	for (i = 0; i < argc; i++) {
		a = argv[i];
		if (*a != '\0' && strspn(a, safe) == strlen(a))
			t = xasprintf("%s%s%s", s, i > 0 ? " " : "", a);
		else {
			/* 'it'\''s' */
			char	*q = xmalloc(4 * strlen(a) + 3), *o = q;

			*o++ = '\'';
			for (; *a != '\0'; a++) {
				if (*a == '\'') {
					memcpy(o, "'\\''", 4);
					o += 4;
				} else
					*o++ = *a;
			}
			*o++ = '\'';
			*o = '\0';
			t = xasprintf("%s%s%s", s, i > 0 ? " " : "", q);
			free(q);
		}
		free(s);
		s = t;
	}
	return s;
}

/*
 * For the core modules' messages: write the printf-style 'fmt' into 'err'
 * (LD_ERRLEN bytes), set errno to 'errnum' and return -1.
 */
int
util_fail(char *err, int errnum, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	(void)vsnprintf(err, LD_ERRLEN, fmt, ap);
	va_end(ap);
	errno = errnum;
	return -1;
}

/*
 * As util_fail(), for the errno a system call left: write 'fmt' and
 * ": strerror(errno)" into 'err', keep errno and return -1.
 */
int
util_syserr(char *err, const char *fmt, ...)
{
	va_list	ap;
	int	saved = errno;

	va_start(ap, fmt);
	(void)vsnprintf(err, LD_ERRLEN, fmt, ap);
	va_end(ap);
	return append_errno(err, saved, NULL);
}

/*
 * As util_syserr(), with the failing party's own words 'why' after the
 * errno's: "fmt: strerror(errno) (why)", as a stop reason reads.
 */
int
util_syserr_why(char *err, const char *why, const char *fmt, ...)
{
	va_list	ap;
	int	saved = errno;

	va_start(ap, fmt);
	(void)vsnprintf(err, LD_ERRLEN, fmt, ap);
	va_end(ap);
	return append_errno(err, saved, why);
}

/* Append ": strerror(e)" and " (why)" to 'err'; set errno to 'e', -1. */
static int
append_errno(char *err, int e, const char *why)
{
	size_t	len = strlen(err);

	(void)snprintf(err + len, LD_ERRLEN - len, ": %s%s%s%s", strerror(e),
	    why != NULL ? " (" : "", why != NULL ? why : "",
	    why != NULL ? ")" : "");
	errno = e;
	return -1;
}

/*
 * Return the length of the well-formed UTF-8 sequence that starts at 'p'
 * (1 to 4 bytes), or 0 if there is none: a stray continuation byte, an
 * overlong form, a surrogate, a code point above U+10FFFF or a sequence
 * cut short (the terminating NUL is never a continuation byte).  The
 * ranges are those of Table 3-7 of the Unicode Standard.
 */
size_t
util_utf8_len(const unsigned char *p)
{
	unsigned char	lo = 0x80, hi = 0xbf;
	size_t		n, i;

	if (*p < 0x80)
		return 1;
	if (*p >= 0xc2 && *p <= 0xdf)
		n = 2;
	else if (*p >= 0xe0 && *p <= 0xef) {
		n = 3;
		if (*p == 0xe0)
			lo = 0xa0;
		else if (*p == 0xed)
			hi = 0x9f;
	} else if (*p >= 0xf0 && *p <= 0xf4) {
		n = 4;
		if (*p == 0xf0)
			lo = 0x90;
		else if (*p == 0xf4)
			hi = 0x8f;
	} else
		return 0;
	if (p[1] < lo || p[1] > hi)
		return 0;
	for (i = 2; i < n; i++)
		if (p[i] < 0x80 || p[i] > 0xbf)
			return 0;
	return n;
}

/*
 * Whether the string 's' is well-formed UTF-8 from end to end, sequence
 * by sequence as util_utf8_len() reads them.  If not and 'bad' is not
 * NULL, '*bad' is the offset (from 0) of the first byte that starts no
 * well-formed sequence.
 */
bool
util_utf8_valid(const char *s, size_t *bad)
{
	const unsigned char	*p = (const unsigned char *)s;
	size_t			 n;

	while (*p != '\0') {
		if ((n = util_utf8_len(p)) == 0) {
			if (bad != NULL)
				*bad = (size_t)(p - (const unsigned char *)s);
			return false;
		}
		p += n;
	}
	return true;
}
