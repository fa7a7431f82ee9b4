/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * pagephase: what the graph of a phase shows, in a sentence, in English
 * and German, from the work that ran: a directory's phases or a
 * mailbox's, and the size and the fsync of their files where the
 * targets of the page agree on them (config.file-size, config.fsync).
 */

#ifndef LD_PAGEPHASE_H
#define LD_PAGEPHASE_H

#include <stdio.h>

#include "page/html.h"
#include "record/results.h"

#define PAGEPHASE_N	13	/* the phases a page knows */

extern const char *const pagephase_names[PAGEPHASE_N];

void	pagephase_put(FILE *, const struct results *, size_t,
	    enum html_lang);

#endif /* LD_PAGEPHASE_H */
