/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * perf_common: what perf.c (libpfm4) and perf_none.c (make PFM=0) share:
 * reading the --events list and naming its columns, so both builds
 * accept and refuse the same lists, and the accessors of struct perf.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "machine/perf.h"

static int	add_item(struct perf *, const char *, const char *, size_t,
		    char *);

/*
 * Store in 'buf' of 'len' bytes the column name of the event 'name':
 * lower case, with every character but [a-z0-9_] turned into '_'.
 */
void
perf_column(char *buf, size_t len, const char *name)
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
 * Add the event name 'p' ('n' bytes) to 'pf->items', as the list 'list'
 * gave it.  Return 0, or -1 with a message in 'err' for an empty name, a
 * name too long, more than PERF_MAX_EVENTS items, or two items with the
 * same column name.
 */
static int
add_item(struct perf *pf, const char *list, const char *p, size_t n,
    char *err)
{
	char	col[PERF_NAMELEN], other[PERF_NAMELEN];
	size_t	i;

	if (n == 0) {
		(void)snprintf(err, LD_ERRLEN, "--events '%s': empty event "
		    "name", list);
		return -1;
	}
	if (n >= PERF_NAMELEN) {
		(void)snprintf(err, LD_ERRLEN, "--events '%.*s...': event name "
		    "longer than %d characters", 40, p, PERF_NAMELEN - 1);
		return -1;
	}
	if (pf->nitems == PERF_MAX_EVENTS) {
		(void)snprintf(err, LD_ERRLEN, "--events '%.*s': more than %d "
		    "events", (int)n, p, PERF_MAX_EVENTS);
		return -1;
	}
	memcpy(pf->items[pf->nitems].name, p, n);
	pf->items[pf->nitems].name[n] = '\0';
	perf_column(col, sizeof(col), pf->items[pf->nitems].name);
	for (i = 0; i < pf->nitems; i++) {
		perf_column(other, sizeof(other), pf->items[i].name);
		if (strcmp(col, other) != 0)
			continue;
		if (strcmp(pf->items[i].name, pf->items[pf->nitems].name) == 0)
			(void)snprintf(err, LD_ERRLEN, "--events '%s': listed "
			    "twice", pf->items[i].name);
		else
			(void)snprintf(err, LD_ERRLEN, "--events '%s': the "
			    "same column name as '%s'",
			    pf->items[pf->nitems].name, pf->items[i].name);
		return -1;
	}
	pf->nitems++;
	return 0;
}

/*
 * Split the comma-separated 'list' into the names of 'pf->items', with
 * util_list_split() as every list of an option is split, blanks around
 * each name removed.  "" and "none" give no items.  Return 0, or -1 with
 * a message in 'err' for an empty item, a name too long, more than
 * PERF_MAX_EVENTS items, or two items with the same column name.
 */
int
perf_parse_list(struct perf *pf, const char *list, char *err)
{
	const char	 *p;
	char		**names;
	size_t		  n, i, count;
	int		  rc = 0;

	p = list + strspn(list, " \t");
	n = strlen(p);
	while (n > 0 && (p[n - 1] == ' ' || p[n - 1] == '\t'))
		n--;
	if (n == 0 || (n == strlen("none") && strncmp(p, "none", n) == 0))
		return 0;
	if ((names = util_list_split(list, &count)) == NULL)
		return add_item(pf, list, "", 0, err);
	for (i = 0; i < count && rc == 0; i++) {
		p = names[i] + strspn(names[i], " \t");
		n = strlen(p);
		while (n > 0 && (p[n - 1] == ' ' || p[n - 1] == '\t'))
			n--;
		rc = add_item(pf, list, p, n, err);
	}
	free(names);
	return rc;
}

/*
 * Return one line that names the events of 'pf' the kernel refused, or
 * counts in user mode only, and why, grouped by reason: "cycles,
 * instructions: the kernel refused them (No such file or directory: no
 * hardware counters here, as in many virtual machines)"; built with
 * PFM=0, that it cannot count them.  Return "" when everything opened,
 * or before perf_open().  The string is in 'pf'.
 */
const char *
perf_unavailable(const struct perf *pf)
{
	return pf->unavailable;
}

/* Return how many values perf_stop() writes for 'pf'. */
size_t
perf_nvalues(const struct perf *pf)
{
	return pf->nvalues;
}

/*
 * Return the name of value 'i' (below perf_nvalues()) of 'pf' as a column
 * suffix: "cycles_user", "cycles_kernel", or "task_clock" for a total.
 * The string is in 'pf'.
 */
const char *
perf_value_name(const struct perf *pf, size_t i)
{
	return pf->values[i].name;
}

/*
 * Write into 'buf' of 'len' bytes a short description of the events of
 * 'pf' and how each is counted, for the run's metadata:
 * "cycles(unavailable) context-switches(user+kernel) task-clock(total)";
 * "none" without events.  Truncated to fit.
 */
void
perf_describe(const struct perf *pf, char *buf, size_t len)
{
	static const char *const	 how[] = {
		[PERF_CLOSED] = "closed",
		[PERF_SPLIT] = "user+kernel",
		[PERF_TOTAL] = "total",
		[PERF_USER] = "user",
		[PERF_UNAVAILABLE] = "unavailable",
	};
	size_t				 i, off = 0;

	if (len == 0)
		return;
	buf[0] = '\0';
	if (pf->nitems == 0)
		(void)snprintf(buf, len, "none");
	for (i = 0; i < pf->nitems && off < len; i++)
		off += snprintf(buf + off, len - off, "%s%s(%s)",
		    i > 0 ? " " : "", pf->items[i].name,
		    how[pf->items[i].mode]);
}
