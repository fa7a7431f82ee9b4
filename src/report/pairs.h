/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * pairs: the arithmetic of an A/B comparison (largedir compare): the
 * order in which the repetitions of the two set-ups run, and for each
 * phase the row of its table: the median time and rate of A and of B,
 * B's time against A's in percent with its spread over the pairs, and a
 * verdict.  Pure: no I/O, no state; comparerun.c, compare.c,
 * compareout.c and comparepage.c call it.
 *
 * The repetitions run in pairs, A B, B A, A B, ... (pairs_side()), so
 * that a machine that drifts (caches filling, a neighbour starting)
 * weighs on both alike.  B against A is the ratio of the median times:
 * +265% means B took 3.65 times as long as A.  The spread is half the
 * range of the pairs' own percentages, as the round line's ±.  The
 * verdict is "faster" or "slower" when no time of B lies within the
 * range of A's times and no time of A within B's, else "within noise";
 * one pair has no spread and gets no verdict.
 */

#ifndef LD_PAIRS_H
#define LD_PAIRS_H

#include <stddef.h>

/* The pairs a row counts at most (a --repeat far beyond need). */
#define PAIRS_MAX	1000

enum pairs_side {
	PAIRS_A,
	PAIRS_B
};

enum pairs_verdict {
	PAIRS_FASTER,		/* B took less time than A */
	PAIRS_SLOWER,
	PAIRS_NOISE,		/* their repetitions overlap */
	PAIRS_ONE_PAIR	/* one pair: nothing to judge by */
};

struct pairs_row {
	size_t			pairs;		/* with both times */
	double			a_ns, b_ns;	/* median times */
	double			a_per_s, b_per_s;  /* entries / median */
	double			pct;		/* B against A */
	double			spread;		/* +- of pct */
	enum pairs_verdict	verdict;
};

enum pairs_side	 pairs_side(unsigned);
int			 pairs_row(const double *, const double *, size_t,
			    double, struct pairs_row *);
const char		*pairs_verdict_name(enum pairs_verdict);
void			 pairs_format(char *, size_t, const char *,
			    const struct pairs_row *);

#endif /* LD_PAIRS_H */
