/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * pagesum: the summary table of the results page (page.c), in English
 * or German: a row per target with its filesystem, its largest n, the
 * files per second of each phase at a few fixed n (results_rate_at()),
 * its knee (knee_PHASE in its metadata) and how its run ended, then a
 * row for each target of a suite that did not start (a LABEL.failed in
 * the directory without a LABEL.out, with the reason it holds), and
 * the notes on how to read it.  It prints with html.c and reads only
 * the LABEL.failed files.
 */

#ifndef LD_PAGESUM_H
#define LD_PAGESUM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "page/html.h"
#include "record/results.h"

/* What the summary table is made of. */
struct pagesum {
	int			 dirfd;		/* the results directory */
	const struct results	*r;		/* its targets */
	const char *const	*phases;	/* the phases a page knows */
	const bool		*has;		/* a target rates phases[p] */
	size_t			 nphases;	/* of phases and has */
	size_t			 nrated;	/* of them with has */
	const double		*fixed_n;	/* the n of the rate columns */
	size_t			 nfixed;
};

void	pagesum_put(FILE *, const struct pagesum *, enum html_lang);

#endif /* LD_PAGESUM_H */
