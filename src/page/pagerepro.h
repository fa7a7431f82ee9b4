/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * pagerepro: the section of a results page that says how to make it
 * again: the command as it was typed (a suite's, else each run's), the
 * config each target was read from, and the notes, logs and configs the
 * directory holds, linked.
 */

#ifndef LD_PAGEREPRO_H
#define LD_PAGEREPRO_H

#include <stdio.h>

#include "page/html.h"
#include "record/results.h"

void	pagerepro_put(FILE *, int, const struct results *, enum html_lang);

#endif /* LD_PAGEREPRO_H */
