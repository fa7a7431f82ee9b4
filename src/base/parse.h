/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * parse: the strict parsers of numbers the settings and the files
 * largedir reads back are made of: a whole number in a range, a real
 * number, a size with a unit (512, 4k, 1M) and a duration (90s, 5m, 1h).
 */

#ifndef LD_PARSE_H
#define LD_PARSE_H

#include <stdint.h>

long long	parse_num(const char *, long long, long long, const char **);
int		parse_double(const char *, double, double, double *,
		    const char **);
int		parse_size(const char *, uint64_t, uint64_t *, const char **);
int		parse_duration(const char *, uint64_t, uint64_t *,
		    const char **);

#endif /* LD_PARSE_H */
