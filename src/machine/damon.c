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
static void	context(const char *, unsigned, char *, size_t, size_t *);

/*
 * Describe into 'buf' ('len' bytes) every scheme of a running kdamond
 * under 'admin' (DAMON_ADMIN) that pages memory out: "pageout of memory
 * idle for 60 s or more (kdamond 0, paddr)", several joined by "; ".
 * Return 0 if there is one, -1 if there is none or DAMON cannot be read.
 */
int
damon_describe(const char *admin, char *buf, size_t len)
{
	char		*kd, state[16];
	uint64_t	 nk, nc;
	unsigned	 k, c;
	size_t		 used = 0;

	*buf = '\0';
	if (len == 0 || number(admin, "kdamonds/nr_kdamonds", &nk) == -1)
		return -1;
	for (k = 0; k < nk && k < MAX_EACH; k++) {
		kd = xasprintf("%s/kdamonds/%u", admin, k);
		if (word(kd, "state", state, sizeof(state)) == 0 &&
		    strcmp(state, "on") == 0 &&
		    number(kd, "contexts/nr_contexts", &nc) == 0)
			for (c = 0; c < nc && c < MAX_EACH; c++) {
				char	*ctx = xasprintf("%s/contexts/%u",
					    kd, c);

				context(ctx, k, buf, len, &used);
				free(ctx);
			}
		free(kd);
	}
	return used > 0 ? 0 : -1;
}

/* Add the pageout schemes of context 'ctx' of kdamond 'k' to 'buf'. */
static void
context(const char *ctx, unsigned k, char *buf, size_t len, size_t *used)
{
	char		 ops[32], action[32], *sc;
	uint64_t	 ns, aggr_us, age;
	unsigned	 s;

	if (word(ctx, "operations", ops, sizeof(ops)) == -1 ||
	    number(ctx, "monitoring_attrs/intervals/aggr_us", &aggr_us) ==
	    -1 || number(ctx, "schemes/nr_schemes", &ns) == -1)
		return;
	for (s = 0; s < ns && s < MAX_EACH && *used + 1 < len; s++) {
		sc = xasprintf("%s/schemes/%u", ctx, s);
		if (word(sc, "action", action, sizeof(action)) == 0 &&
		    strcmp(action, "pageout") == 0 &&
		    number(sc, "access_pattern/age/min", &age) == 0)
			*used += (size_t)snprintf(buf + *used, len - *used,
			    "%spageout of memory idle for %.3g s or more "
			    "(kdamond %u, %s)", *used > 0 ? "; " : "",
			    (double)age * (double)aggr_us / 1e6, k, ops);
		if (*used >= len)
			*used = len - 1;
		free(sc);
	}
}

/* The number in the file 'rel' under 'dir' into '*v': 0, or -1. */
static int
number(const char *dir, const char *rel, uint64_t *v)
{
	char	*p = xasprintf("%s/%s", dir, rel);
	int	 rc = sysfile_u64(p, v);

	free(p);
	return rc;
}

/* The first line of the file 'rel' under 'dir' into 'buf': 0, or -1. */
static int
word(const char *dir, const char *rel, char *buf, size_t len)
{
	char	*p = xasprintf("%s/%s", dir, rel);
	int	 rc = sysfile_line(p, buf, len);

	free(p);
	return rc;
}
