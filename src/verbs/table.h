/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * table: largedir table, the RPC table as text or Markdown (see
 * table.c); rpctab.h has the blocks it prints.
 */

#ifndef LD_TABLE_H
#define LD_TABLE_H

#include <stdio.h>

#include "record/rpctab.h"

enum table_format { TABLE_TEXT, TABLE_MD };

void	table_put(FILE *, const struct rpctab *, enum table_format);
int	table_main(int, char **);

#endif /* LD_TABLE_H */
