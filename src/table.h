/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * table: the RPC table (see table.c): one block per n and listing phase,
 * a column per target, rows real/user/sys and the calls of each NFS
 * procedure; "largedir table" prints it, the page (pagetable.c) shows it.
 */

#ifndef LD_TABLE_H
#define LD_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "results.h"

/* The listing phases: list, liststat, rmrf. */
#define TABLE_NPHASES	3

/* The rows of a block, in the order they print. */
enum table_row {
	TABLE_REAL, TABLE_USER, TABLE_SYS,
	TABLE_PROC,				/* RESULTS_NPROC of them */
	TABLE_LOOP = TABLE_PROC + RESULTS_NPROC,
	TABLE_LOST,
	TABLE_NROWS
};

enum table_format { TABLE_TEXT, TABLE_MD };

/* One block: a listing phase at one n, for every target. */
struct table_block {
	size_t	 phase;			/* index of table_phase_name() */
	double	 n;
	double	*v;	/* v[target * TABLE_NROWS + row]; NAN: nothing */
	bool	 show[TABLE_NROWS];	/* the rows that print */
};

struct table {
	const struct results	*r;	/* the targets, one column each */
	struct table_block	*b;
	size_t			 nb;
};

/* Which blocks to build. */
struct table_want {
	unsigned	 phases;	/* 1 << phase; 0: every phase present */
	const double	*n;		/* only these n; NULL: every n */
	size_t		 nn;
	bool		 decades;	/* only the n nearest each 10^k */
};

bool	table_has_calls(const struct results *);
void	table_build(struct table *, const struct results *,
	    const struct table_want *);
void	table_free(struct table *);
int	table_phase(const char *);
const char	*table_phase_name(size_t);
const char	*table_phase_cmd(size_t);
const char	*table_row_name(size_t);
bool	table_time(double, double *, int *, const char **);
void	table_put(FILE *, const struct table *, enum table_format);
int	table_main(int, char **);

#endif /* LD_TABLE_H */
