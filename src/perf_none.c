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

#include "perf.h"
#include "util.h"

static int	parse_list(struct perf *, const char *, char *);
static void	column(char *, size_t, const char *);

/*
 * Store in 'buf' of 'len' bytes the column name of the event 'name':
 * lower case, with every character but [a-z0-9_] turned into '_'.
 */
static void
column(char *buf, size_t len, const char *name)
{
	size_t	i;
	char	c;

	for (i = 0; i + 1 < len && name[i] != '\0'; i++) {
		c = name[i];
		if (c >= 'A' && c <= 'Z')
			c = c - 'A' + 'a';
		if ((c < 'a' || c > 'z') && (c < '0' || c > '9'))
			c = '_';
		buf[i] = c;
	}
	if (len > 0)
		buf[i] = '\0';
}

/*
 * Split the comma-separated 'list' into the names of 'pf->items', blanks
 * around each name removed.  "" and "none" give no items.  Return 0, or
 * -1 with a message in 'err' for an empty item, a name too long, more
 * than PERF_MAX_EVENTS items, or two items with the same column name.
 * The same code is in perf.c.
 */
static int
parse_list(struct perf *pf, const char *list, char *err)
{
	char		 col[PERF_NAMELEN], other[PERF_NAMELEN];
	const char	*p, *end;
	size_t		 n, i;

	p = list + strspn(list, " \t");
	n = strlen(p);
	while (n > 0 && (p[n - 1] == ' ' || p[n - 1] == '\t'))
		n--;
	if (n == 0 || (n == strlen("none") && strncmp(p, "none", n) == 0))
		return 0;
	for (;;) {
		p += strspn(p, " \t");
		end = p + strcspn(p, ",");
		n = (size_t)(end - p);
		while (n > 0 && (p[n - 1] == ' ' || p[n - 1] == '\t'))
			n--;
		if (n == 0) {
			(void)snprintf(err, LD_ERRLEN,
			    "--events '%s': empty event name", list);
			return -1;
		}
		if (n >= PERF_NAMELEN) {
			(void)snprintf(err, LD_ERRLEN, "--events '%.*s...': "
			    "event name longer than %d characters", 40, p,
			    PERF_NAMELEN - 1);
			return -1;
		}
		if (pf->nitems == PERF_MAX_EVENTS) {
			(void)snprintf(err, LD_ERRLEN, "--events '%.*s': "
			    "more than %d events", (int)n, p,
			    PERF_MAX_EVENTS);
			return -1;
		}
		memcpy(pf->items[pf->nitems].name, p, n);
		pf->items[pf->nitems].name[n] = '\0';
		column(col, sizeof(col), pf->items[pf->nitems].name);
		for (i = 0; i < pf->nitems; i++) {
			column(other, sizeof(other), pf->items[i].name);
			if (strcmp(col, other) != 0)
				continue;
			if (strcmp(pf->items[i].name,
			    pf->items[pf->nitems].name) == 0)
				(void)snprintf(err, LD_ERRLEN,
				    "--events '%s': listed twice",
				    pf->items[i].name);
			else
				(void)snprintf(err, LD_ERRLEN,
				    "--events '%s': the same column name "
				    "as '%s'", pf->items[pf->nitems].name,
				    pf->items[i].name);
			return -1;
		}
		pf->nitems++;
		if (*end == '\0')
			return 0;
		p = end + 1;
	}
}

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
	if (parse_list(pf, list == NULL ? "" : list, err) == -1) {
		pf->nitems = 0;
		errno = EINVAL;
		return -1;
	}
	return 0;
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

/*
 * Return the line that names the events of 'pf' and says that this
 * build cannot count them, or "" without events or before perf_open().
 * The string is in 'pf'.
 */
const char *
perf_unavailable(const struct perf *pf)
{
	return pf->unavailable;
}

/* Return 0: this build has no values. */
size_t
perf_nvalues(const struct perf *pf)
{
	return pf->nvalues;
}

/* Return the name of value 'i' of 'pf'; there are none in this build. */
const char *
perf_value_name(const struct perf *pf, size_t i)
{
	return pf->values[i].name;
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

/*
 * Write into 'buf' of 'len' bytes the events of 'pf', each marked
 * "(unavailable)" once perf_open() ran, or "none" without events.
 * Truncated to fit.
 */
void
perf_describe(const struct perf *pf, char *buf, size_t len)
{
	size_t	i, off = 0;

	if (len == 0)
		return;
	buf[0] = '\0';
	if (pf->nitems == 0)
		(void)snprintf(buf, len, "none");
	for (i = 0; i < pf->nitems && off < len; i++)
		off += snprintf(buf + off, len - off, "%s%s(%s)",
		    i > 0 ? " " : "", pf->items[i].name,
		    pf->items[i].mode == PERF_CLOSED ? "closed" :
		    "unavailable");
}
