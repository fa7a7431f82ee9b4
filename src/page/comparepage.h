/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * comparepage: the page of a comparison (see comparepage.c).
 */

#ifndef LD_COMPAREPAGE_H
#define LD_COMPAREPAGE_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/workload.h"
#include "report/pairs.h"

/* A run of the comparison that did not complete. */
struct compare_failure {
	unsigned		 pair;		/* from 1 */
	int			 side;		/* 0 A, 1 B */
	int			 exit;		/* its status, 128 + a signal */
	const char		*why;		/* its own words, or NULL */
};

/* What the page says; compare.c fills it. */
struct compare_page {
	const char		*dir;		/* the comparison's */
	const char		*label[2];	/* A, B */
	const char		*arg[2];	/* as given */
	const char		*command, *seed, *version, *git;
	const char		*status;	/* "complete", ... */
	uint64_t		 n;
	uint64_t		 dirs;		/* a tree's, or 0 */
	unsigned		 pairs;		/* asked for */
	unsigned		 complete;	/* whose two runs completed */
	const struct compare_failure *failed;	/* the runs that did not */
	size_t			 nfailed;
	size_t			 nphases;
	const char		*phase[PHASE_COUNT];
	struct pairs_row	 row[PHASE_COUNT];
	bool			 has[PHASE_COUNT];	/* row[i] is one */
};

int	compare_page_write(const struct compare_page *, char *);
int	compare_page_rewrite(const char *, char *);

#endif /* LD_COMPAREPAGE_H */
