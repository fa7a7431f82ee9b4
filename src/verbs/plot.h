/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * plot: the graphs of a results directory, drawn by gnuplot (a
 * front-end module: it prints and returns an exit status).
 */

#ifndef LD_PLOT_H
#define LD_PLOT_H

#include <stdbool.h>

int	plot_results(const char *, bool);
int	plot_compare(const char *, const char *, const char *, const char *);
int	plot_main(int, char **);

#endif /* LD_PLOT_H */
