/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * minloop: the smallest honest program that does what one round of
 * largedir does with its default options, used by bench/overhead.sh as
 * the yardstick for largedir's own overhead.  It shares no code with
 * largedir.
 *
 *	minloop DIR N SEED
 *
 * makes a fresh directory DIR/minloop.XXXXXX and, with everything
 * prepared before any clock starts (the N names "00000000", "00000001",
 * ..., laid out as largedir lays them out, and a seeded random
 * permutation), times three loops with CLOCK_MONOTONIC:
 *
 *	create	openat(O_CREAT|O_EXCL|O_WRONLY, 0644) + close, in order
 *	open	openat(O_RDONLY) + close, in the permuted order
 *	delete	unlinkat(0), in creation order
 *
 * These are the system calls and flags of largedir's posix backend
 * (src/backend/posix.c) with --file-size 0 and --fsync none.  Like largedir's
 * default --sync phase, it calls syncfs(2) before each phase, outside the
 * timing.  It prints one line, "create_per_s open_per_s delete_per_s" in
 * files per second, and removes its directory.  Any error is fatal.
 */

#include <sys/stat.h>
#include <sys/types.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define NAME_LEN	8			/* largedir's default width */
#define NAME_STRIDE	(NAME_LEN + 1)		/* name and its NUL */
#define MAX_FILES	UINT64_C(100000000)	/* 10^NAME_LEN */

static uint64_t	 now_ns(void);
static double	 per_s(uint64_t, uint64_t);
static uint64_t	 parse_u64(const char *, uint64_t, uint64_t, const char *);
static uint64_t	 splitmix64(uint64_t *);
static void	 shuffle(uint32_t *, uint64_t, uint64_t);
static char	*build_names(uint64_t);
static void	 sync_dir(int);
static void	 usage(void) __attribute__((noreturn));

static uint64_t
now_ns(void)
{
	struct timespec	ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts) == -1)
		err(1, "clock_gettime");
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* 'n' files in 'elapsed_ns' as files per second. */
static double
per_s(uint64_t n, uint64_t elapsed_ns)
{
	return (double)n * 1e9 / (double)(elapsed_ns > 0 ? elapsed_ns : 1);
}

/* The decimal number 's' in ['min', 'max'], or die naming it 'what'. */
static uint64_t
parse_u64(const char *s, uint64_t min, uint64_t max, const char *what)
{
	unsigned long long	 v;
	char			*end;

	if (*s < '0' || *s > '9')
		errx(2, "%s is not a number: %s", what, s);
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno != 0 || *end != '\0' || v < min || v > max)
		errx(2, "%s out of range [%" PRIu64 ", %" PRIu64 "]: %s",
		    what, min, max, s);
	return (uint64_t)v;
}

static uint64_t
splitmix64(uint64_t *state)
{
	uint64_t	z;

	z = (*state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/*
 * Fill 'order' with a permutation of 0 .. 'n'-1 drawn from 'seed'
 * (Fisher-Yates; the slight modulo bias does not matter for a yardstick).
 */
static void
shuffle(uint32_t *order, uint64_t n, uint64_t seed)
{
	uint64_t	state = seed, i, j;
	uint32_t	tmp;

	for (i = 0; i < n; i++)
		order[i] = (uint32_t)i;
	for (i = n; i > 1; i--) {
		j = splitmix64(&state) % i;
		tmp = order[i - 1];
		order[i - 1] = order[j];
		order[j] = tmp;
	}
}

/* The 'n' names, NAME_STRIDE bytes apart, as largedir's name table. */
static char *
build_names(uint64_t n)
{
	char		*names, *p;
	uint64_t	 i, v;
	int		 k;

	/* calloc: every name ends in a NUL already. */
	if ((names = calloc(n, NAME_STRIDE)) == NULL)
		err(1, "calloc");
	for (i = 0; i < n; i++) {
		p = names + i * NAME_STRIDE;
		for (v = i, k = NAME_LEN - 1; k >= 0; k--, v /= 10)
			p[k] = (char)('0' + v % 10);
	}
	return names;
}

static void
sync_dir(int dirfd)
{
	if (syncfs(dirfd) == -1)
		err(1, "syncfs");
}

static void
usage(void)
{
	(void)fprintf(stderr, "usage: minloop dir count seed\n");
	exit(2);
}

int
main(int argc, char *argv[])
{
	char		*names, *path;
	const char	*name;
	uint32_t	*order;
	uint64_t	 n, seed, i, t0, t1, create_ns, open_ns, delete_ns;
	int		 dirfd, fd;

	if (argc != 4)
		usage();
	n = parse_u64(argv[2], 1, MAX_FILES, "count");
	seed = parse_u64(argv[3], 0, UINT64_MAX, "seed");

	/* Everything the loops need, before any clock starts. */
	names = build_names(n);
	if ((order = calloc(n, sizeof(*order))) == NULL)
		err(1, "calloc");
	shuffle(order, n, seed);
	if (asprintf(&path, "%s/minloop.XXXXXX", argv[1]) == -1)
		err(1, "asprintf");
	if (mkdtemp(path) == NULL)
		err(1, "mkdtemp %s", path);
	if ((dirfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1)
		err(1, "open %s", path);

	sync_dir(dirfd);
	t0 = now_ns();
	for (i = 0; i < n; i++) {
		name = names + i * NAME_STRIDE;
		if ((fd = openat(dirfd, name, O_CREAT | O_EXCL | O_WRONLY,
		    0644)) == -1)
			err(1, "create %s/%s", path, name);
		if (close(fd) == -1)
			err(1, "close %s/%s", path, name);
	}
	t1 = now_ns();
	create_ns = t1 - t0;

	sync_dir(dirfd);
	t0 = now_ns();
	for (i = 0; i < n; i++) {
		name = names + (uint64_t)order[i] * NAME_STRIDE;
		if ((fd = openat(dirfd, name, O_RDONLY)) == -1)
			err(1, "open %s/%s", path, name);
		if (close(fd) == -1)
			err(1, "close %s/%s", path, name);
	}
	t1 = now_ns();
	open_ns = t1 - t0;

	sync_dir(dirfd);
	t0 = now_ns();
	for (i = 0; i < n; i++) {
		name = names + i * NAME_STRIDE;
		if (unlinkat(dirfd, name, 0) == -1)
			err(1, "unlink %s/%s", path, name);
	}
	t1 = now_ns();
	delete_ns = t1 - t0;

	if (close(dirfd) == -1)
		err(1, "close %s", path);
	if (rmdir(path) == -1)
		err(1, "rmdir %s", path);
	printf("%.1f %.1f %.1f\n", per_s(n, create_ns), per_s(n, open_ns),
	    per_s(n, delete_ns));
	if (fflush(stdout) == EOF || ferror(stdout))
		err(1, "stdout");
	free(order);
	free(names);
	free(path);
	return 0;
}
