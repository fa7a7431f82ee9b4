/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * suite: what largedir suite needs besides running each target: reading
 * a finished target's results back for the summary table.
 */

#ifndef LD_SUITE_H
#define LD_SUITE_H

#include <stddef.h>

int	suite_read_csv(const char *, const char *const *, size_t, double *);

#endif /* LD_SUITE_H */
