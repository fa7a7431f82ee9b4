/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * pagesense: the section at the top of a results page that says in words
 * what its numbers show, found in the numbers alone, never in a label:
 * which target was fastest in each phase at 10,000, 100,000 and 1,000,000
 * files and by how much against the next; where curves fall (a knee, and
 * whether the disk reads more from there on; a decline from the start, as
 * a directory searched linearly shows; a collapse with the CPU busy in
 * the kernel and the disk idle, as journal-less ext4 shows while it skips
 * recently freed inodes); and which targets were noisy (warnings, and
 * repetitions that differ).  page.c calls it; html.c prints.
 */

#ifndef LD_PAGESENSE_H
#define LD_PAGESENSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "page/html.h"
#include "record/results.h"

#define PAGESENSE_COLLAPSE	0.25	/* of the round before: a collapse */
#define PAGESENSE_KERNEL	0.8	/* of the time in the kernel */
#define PAGESENSE_NOISY		0.2	/* repetitions that differ by more */

void	pagesense_put(FILE *, const struct results *, const char *const *,
	    const bool *, size_t, const double *, size_t, enum html_lang);

#endif /* LD_PAGESENSE_H */
