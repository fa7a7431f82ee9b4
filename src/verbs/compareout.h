/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * compareout: the outputs of a comparison (largedir compare) in its
 * directory, "compare" .out, .csv, .json and .summary, written by
 * output_flush() as a run's are: a row per repetition that ran, a
 * summary row with each phase's figures of pairs_row(), and metadata
 * saying what was compared, how to read the columns, the table's lines
 * and why a run did not complete.  compare.c calls it once the runs are
 * done; it prints nothing.
 */

#ifndef LD_COMPAREOUT_H
#define LD_COMPAREOUT_H

#include "verbs/comparerun.h"

int	compare_out_write(const struct compare_run *, const char *, char *);

#endif /* LD_COMPAREOUT_H */
