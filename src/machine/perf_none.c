/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * perf_none: the perf API for a build without libpfm4 ("make PFM=0"), so
 * callers need no #ifdef.  perf_init() checks the list as perf.c does
 * (empty items, duplicates, too many) but cannot know the event names,
 * so it takes any; perf_open() opens nothing, every event is unavailable
 * and perf_unavailable() says why.  There are no values.
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "base/util.h"
#include "machine/perf.h"



/*
 * Remember the names of the comma-separated event list 'list' ("" or
 * "none" gives no events) in 'pf'.  Any name is taken.  Return 0, or -1
 * with errno EINVAL and a one-line message in 'err' (LD_ERRLEN bytes)
 * for an empty item, a duplicate or more than PERF_MAX_EVENTS events.
 */
int
perf_init(struct perf *pf, const char *list, char *err)
{
	size_t	i;

	memset(pf, 0, sizeof(*pf));
	for (i = 0; i < PERF_MAX_VALUES; i++)
		pf->values[i].fd = -1;
	if (perf_parse_list(pf, list == NULL ? "" : list, err) == -1) {
		pf->nitems = 0;
		errno = EINVAL;
		return -1;
	}
	return 0;
}

/* As perf_init(): this build encodes nothing, so nothing differs. */
int
perf_init_default(struct perf *pf, const char *list, char *err)
{
	return perf_init(pf, list, err);
}

/*
 * Mark every event of 'pf' unavailable, as this build cannot count, and
 * write the line perf_unavailable() returns.  Return 0, the number of
 * events that opened.
 */
int
perf_open(struct perf *pf)
{
	char	*buf = pf->unavailable;
	size_t	 i, len = sizeof(pf->unavailable), off = 0;

	buf[0] = '\0';
	for (i = 0; i < pf->nitems; i++) {
		pf->items[i].mode = PERF_UNAVAILABLE;
		pf->items[i].error = ENOTSUP;
		if (off < len)
			off += snprintf(buf + off, len - off, "%s%s",
			    i > 0 ? ", " : "", pf->items[i].name);
	}
	if (pf->nitems > 0 && off < len)
		(void)snprintf(buf + off, len - off, ": largedir was built "
		    "without libpfm4 (make PFM=0)");
	return 0;
}

/* Do nothing: there are no counters to open again after fork(). */
void
perf_reopen(struct perf *pf)
{
	(void)pf;
}

/* Do nothing: there are no counters to enable. */
void
perf_start(struct perf *pf)
{
	(void)pf;
}

/* Write no values: there are no counters. */
void
perf_stop(struct perf *pf, double *values)
{
	(void)pf;
	(void)values;
}

/* Do nothing: there are no counters to close. */
void
perf_close(struct perf *pf)
{
	(void)pf;
}

