/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * compare: largedir compare [options] A B, the same work on two set-ups
 * (a config file or a directory each), in pairs of runs A B, B A, ...;
 * the table says per phase how B fares against A.  The verb: largedir.c
 * calls compare_main(); comparerun.c runs the pairs, pairs.c does the
 * arithmetic, compareout.c and comparepage.c write the outputs and the
 * page.
 */

#ifndef LD_COMPARE_H
#define LD_COMPARE_H

int	compare_main(int, char **);

#endif /* LD_COMPARE_H */
