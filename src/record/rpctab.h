/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * rpctab: the blocks of the RPC table (see rpctab.c): one per n and
 * listing phase, a column per target, rows real/user/sys and the calls of
 * each NFS procedure; table.c prints them, pagetable.c puts them on the
 * page.
 */

#ifndef LD_RPCTAB_H
#define LD_RPCTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "record/results.h"

/* The listing phases: list, liststat, rmrf. */
#define RPCTAB_NPHASES	3

/* The rows of a block, in the order they print. */
enum rpctab_row {
	RPCTAB_REAL, RPCTAB_USER, RPCTAB_SYS,
	RPCTAB_PROC,				/* RESULTS_NPROC of them */
	RPCTAB_LOOP = RPCTAB_PROC + RESULTS_NPROC,
	RPCTAB_LOST,
	RPCTAB_NROWS
};

/* One block: a listing phase at one n, for every target. */
struct rpctab_block {
	size_t	 phase;			/* index of rpctab_phase_name() */
	double	 n;
	double	*v;	/* v[target * RPCTAB_NROWS + row]; NAN: nothing */
	bool	 show[RPCTAB_NROWS];	/* the rows that print */
};

struct rpctab {
	const struct results	*r;	/* the targets, one column each */
	struct rpctab_block	*b;
	size_t			 nb;
};

/* Which blocks to build. */
struct rpctab_want {
	unsigned	 phases;	/* 1 << phase; 0: every phase present */
	const double	*n;		/* only these n; NULL: every n */
	size_t		 nn;
	bool		 decades;	/* only the n nearest each 10^k */
};

bool	rpctab_has_calls(const struct results *);
void	rpctab_build(struct rpctab *, const struct results *,
	    const struct rpctab_want *);
void	rpctab_free(struct rpctab *);
int	rpctab_phase(const char *);
const char	*rpctab_phase_name(size_t);
const char	*rpctab_phase_cmd(size_t);
const char	*rpctab_row_name(size_t);
bool	rpctab_time(double, double *, int *, const char **);

#endif /* LD_RPCTAB_H */
