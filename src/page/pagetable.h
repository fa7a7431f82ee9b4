/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * pagetable: the comparison page's RPC table (see pagetable.c), the
 * blocks of "largedir table" as HTML in English or German.
 */

#ifndef LD_PAGETABLE_H
#define LD_PAGETABLE_H

#include <stdio.h>

#include "page/html.h"
#include "record/results.h"

void	pagetable_put(FILE *, const struct results *, enum html_lang);

#endif /* LD_PAGETABLE_H */
