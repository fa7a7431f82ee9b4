/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * perf: CPU and kernel counters (cycles, page faults, task clock, ...)
 * for the calling thread, named as libpfm4 names them, read around each
 * phase.  perf.c uses libpfm4 and perf_event_open(2); perf_none.c, built
 * with "make PFM=0", has the same API and opens nothing, so callers need
 * no #ifdef.
 *
 * The order of calls: perf_init() parses the list once, perf_open()
 * opens what the kernel allows and fixes the values, then any number of
 * perf_start()/perf_stop() pairs, perf_reopen() in a child after fork(),
 * and perf_close().  All in one thread, which has no other struct perf
 * open: perf_start() switches on every counter the thread opened.
 *
 * An event the kernel refuses is no error: it has no values, and
 * perf_unavailable() says why.  An event is counted in user and kernel
 * mode apart ("cycles_user", "cycles_kernel") where the kernel allows it,
 * else in total ("cycles").
 *
 * A struct perf is plain memory that the caller owns: nothing in it is
 * allocated, and the strings the functions return point into it.
 */

#ifndef LD_PERF_H
#define LD_PERF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PERF_MAX_EVENTS	16
/* Each event has at most two values: user and kernel mode apart. */
#define PERF_MAX_VALUES	(2 * PERF_MAX_EVENTS)
#define PERF_NAMELEN	64	/* longest event name, with its '\0' */
#define PERF_VALUELEN	(PERF_NAMELEN + 8)	/* name + "_kernel" */
#define PERF_MSGLEN	1024	/* perf_unavailable()'s line */
#define PERF_ATTRLEN	32	/* words for a struct perf_event_attr */
#define PERF_DEFAULT	\
	"cycles,instructions,context-switches,page-faults,task-clock"

/* How an event is counted; see perf_open(). */
enum perf_mode {
	PERF_CLOSED,		/* not opened yet */
	PERF_SPLIT,		/* user and kernel mode apart: two values */
	PERF_TOTAL,		/* both modes in one value */
	PERF_USER,		/* user mode only, kernel mode refused */
	PERF_UNAVAILABLE	/* refused: no values */
};

/* Which mode a counter leaves out, on top of the event's own encoding. */
enum perf_exclude {
	PERF_EXCL_NONE,		/* the event as listed */
	PERF_EXCL_KERNEL,	/* user mode only */
	PERF_EXCL_USER		/* kernel mode only */
};

/* One event of the list. */
struct perf_item {
	char		name[PERF_NAMELEN];	/* as listed */
	/* libpfm4's encoding, a struct perf_event_attr (perf.c only) */
	uint64_t	attr[PERF_ATTRLEN];
	int		flags;		/* perf_event_open(2) flags */
	bool		split;		/* may count modes apart */
	enum perf_mode	mode;
	int		error;		/* errno of a refusal */
	int		pfm_error;	/* libpfm4 cannot encode it here
					   (perf_init_default()), or 0 */
};

/* One value: one counter of an opened event. */
struct perf_value {
	char		name[PERF_VALUELEN];	/* "cycles_user" */
	size_t		item;		/* index into items[] */
	int		fd;		/* -1 if it did not open */
	enum perf_exclude excl;
	/* count, time enabled, time running at the last perf_stop() */
	uint64_t	base[3];
};

/*
 * The counters of one thread; see perf_init().  Callers use the
 * functions, not the fields.
 */
struct perf {
	size_t			nitems;
	struct perf_item	items[PERF_MAX_EVENTS];
	size_t			nvalues;
	struct perf_value	values[PERF_MAX_VALUES];
	char			unavailable[PERF_MSGLEN];
};

int		 perf_init(struct perf *, const char *, char *);
int		 perf_init_default(struct perf *, const char *, char *);
int		 perf_open(struct perf *);
const char	*perf_unavailable(const struct perf *);
size_t		 perf_nvalues(const struct perf *);
const char	*perf_value_name(const struct perf *, size_t);
void		 perf_reopen(struct perf *);
void		 perf_start(struct perf *);
void		 perf_stop(struct perf *, double *);
void		 perf_close(struct perf *);
void		 perf_describe(const struct perf *, char *, size_t);

/* perf_common.c: shared by perf.c and perf_none.c, not for callers. */
int		 perf_parse_list(struct perf *, const char *, char *);
void		 perf_column(char *, size_t, const char *);

#endif /* LD_PERF_H */
