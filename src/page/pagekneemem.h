/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * pagekneemem: the page's section on the knee against memory, for the
 * targets of a sweep of memory limits (largedir suite --memory-limit
 * A,B,...; report/kneemem.h finds it): what was run, each limit's knee and
 * the memory a file took there, and what the line fitted to the knees
 * says a cached file takes.  page.c calls it and adds the graph
 * (knee.png, drawn by plot/knee.gp); html.c prints.
 */

#ifndef LD_PAGEKNEEMEM_H
#define LD_PAGEKNEEMEM_H

#include <stdbool.h>
#include <stdio.h>

#include "page/html.h"
#include "record/results.h"

bool	pagekneemem_put(FILE *, const struct results *, enum html_lang);

#endif /* LD_PAGEKNEEMEM_H */
