/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * util: allocation that dies on exhaustion, strict number, size and
 * duration parsers (strtonum(3) style: they never accept garbage after the
 * number), the seeded pseudo-random generator, and human-readable
 * formatting of rates and durations.
 */

#ifndef LD_UTIL_H
#define LD_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LD_ERRLEN	256	/* size of the 'err' buffers modules fill */

/* Exit statuses (EXIT STATUS in the man page). */
#define EXIT_USAGE	2	/* bad option, bad directory */
#define EXIT_STOPPED	3	/* the filesystem stopped the run */
#define EXIT_TARGET	4	/* the target cannot be set up here */
#define EXIT_SUITE	5	/* a suite target did not complete */
#define EXIT_LISTING	6	/* a listing went round or lost entries */

#define NS_PER_US	1000ULL
#define NS_PER_MS	1000000ULL
#define NS_PER_S	1000000000ULL

void	*xmalloc(size_t);
void	*xcalloc(size_t, size_t);
void	*xreallocarray(void *, size_t, size_t);
char	*xstrdup(const char *);
char	*xasprintf(const char *, ...) __attribute__((format(printf, 1, 2)));

uint64_t	util_splitmix64(uint64_t *);
uint64_t	util_below(uint64_t *, uint64_t);

void	util_fmt_duration(char *, size_t, uint64_t);
void	util_fmt_rate(char *, size_t, double);
void	util_fmt_count(char *, size_t, uint64_t);
void	util_fmt_size(char *, size_t, uint64_t);
void	util_append(char *, size_t, const char *);
char	**util_list_split(const char *, size_t *);
size_t	util_utf8_len(const unsigned char *);
bool	util_utf8_valid(const char *, size_t *);

int	util_mkdir_p(const char *);
int	util_write_file(const char *, const char *);
int	util_check_dir(const char *, char *);
int	util_open_regular(int, const char *, bool);
char	*util_quote_argv(int, char **);
int	util_fail(char *, int, const char *, ...)
	    __attribute__((format(printf, 3, 4)));
int	util_syserr(char *, const char *, ...)
	    __attribute__((format(printf, 2, 3)));
int	util_syserr_why(char *, const char *, const char *, ...)
	    __attribute__((format(printf, 3, 4)));

#endif /* LD_UTIL_H */
