/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * damon: see damon.h.  The sysfs tree, as Documentation/admin-guide/mm/
 * damon/usage.rst describes it:
 *
 *	kdamonds/nr_kdamonds
 *	kdamonds/K/state				on | off
 *	kdamonds/K/contexts/nr_contexts
 *	kdamonds/K/contexts/C/operations		vaddr | paddr | ...
 *	kdamonds/K/contexts/C/monitoring_attrs/intervals/aggr_us
 *	kdamonds/K/contexts/C/schemes/nr_schemes
 *	kdamonds/K/contexts/C/schemes/S/action		pageout | ...
 *	kdamonds/K/contexts/C/schemes/S/access_pattern/age/min
 *
 * where a scheme's minimum age counts aggregation intervals.
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "machine/damon.h"
#include "machine/sysfile.h"

#define MAX_EACH	16	/* kdamonds, contexts, schemes looked at */

static int	number(const char *, const char *, uint64_t *);
static int	word(const char *, const char *, char *, size_t);
static void	context(const char *, unsigned, char *, size_t);

/*
 * Describe into 'buf' ('len' bytes, at least 1) every scheme of a
 * running kdamond under 'admin' (DAMON_ADMIN) that pages memory out:
 * "pageout of memory idle for 60 s or more (kdamond 0, paddr)", several
 * joined by "; ", cut to fit.  Return 0 if there is one, -1 if there is
 * none or DAMON cannot be read.
 */
int
damon_describe(const char *admin, char *buf, size_t len)
{
	char		 kd[64], ctx[96], state[16];
	uint64_t	 nk, nc;
	unsigned	 k, c;

	*buf = '\0';
	if (number(admin, "kdamonds/nr_kdamonds", &nk) == -1)
		return -1;
	for (k = 0; k < nk && k < MAX_EACH; k++) {
		(void)snprintf(kd, sizeof(kd), "kdamonds/%u", k);
		(void)snprintf(ctx, sizeof(ctx), "%s/state", kd);
		if (word(admin, ctx, state, sizeof(state)) == -1 ||
		    strcmp(state, "on") != 0)
			continue;
		(void)snprintf(ctx, sizeof(ctx), "%s/contexts/nr_contexts", kd);
		if (number(admin, ctx, &nc) == -1)
			continue;
		for (c = 0; c < nc && c < MAX_EACH; c++) {
			(void)snprintf(ctx, sizeof(ctx), "%s/%s/contexts/%u",
			    admin, kd, c);
			context(ctx, k, buf, len);
		}
	}
	return *buf != '\0' ? 0 : -1;
}

/* Add the pageout schemes of context 'ctx' of kdamond 'k' to 'buf'. */
static void
context(const char *ctx, unsigned k, char *buf, size_t len)
{
	char		 ops[32], action[32], sc[48], one[128];
	uint64_t	 ns, aggr_us, age;
	unsigned	 s;

	if (word(ctx, "operations", ops, sizeof(ops)) == -1 ||
	    number(ctx, "monitoring_attrs/intervals/aggr_us", &aggr_us) ==
	    -1 || number(ctx, "schemes/nr_schemes", &ns) == -1)
		return;
	for (s = 0; s < ns && s < MAX_EACH; s++) {
		(void)snprintf(sc, sizeof(sc), "schemes/%u/action", s);
		if (word(ctx, sc, action, sizeof(action)) == -1 ||
		    strcmp(action, "pageout") != 0)
			continue;
		(void)snprintf(sc, sizeof(sc),
		    "schemes/%u/access_pattern/age/min", s);
		if (number(ctx, sc, &age) == -1)
			continue;
		(void)snprintf(one, sizeof(one), "%spageout of memory idle for "
		    "%.3g s or more (kdamond %u, %s)", *buf != '\0' ? "; " : "",
		    (double)age * (double)aggr_us / 1e6, k, ops);
		util_append(buf, len, one);
	}
}

/* The number in the file 'rel' under 'dir' into '*v': 0, or -1. */
static int
number(const char *dir, const char *rel, uint64_t *v)
{
	char	*p = sysfile_path(dir, rel);
	int	 rc = sysfile_u64(p, v);

	free(p);
	return rc;
}

/* The first line of the file 'rel' under 'dir' into 'buf': 0, or -1. */
static int
word(const char *dir, const char *rel, char *buf, size_t len)
{
	char	*p = sysfile_path(dir, rel);
	int	 rc = sysfile_line(p, buf, len);

	free(p);
	return rc;
}
