/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * pagerounds: under a target on the page, its rounds that are not like
 * the others, from its metadata: an open phase that stopped early and
 * opened a random sample of the files, so that the round ended at the
 * budget (open_boxed_round_K), rounds below the largest n that
 * narrowed a knee or filled in (refine_round_K), and the plan's last
 * round when it stopped creating short of its limit (timebox_round_K).
 * page.c calls it;
 * html.c prints.
 */

#ifndef LD_PAGEROUNDS_H
#define LD_PAGEROUNDS_H

#include <stdio.h>

#include "page/html.h"
#include "record/results.h"

void	pagerounds_put(FILE *, const struct results_target *,
	    enum html_lang);

#endif /* LD_PAGEROUNDS_H */
