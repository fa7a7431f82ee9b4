/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * pagewords: largedir's own words as the pages say them, in English as
 * they are and in German in the German page's words: the state a run
 * ended in (output_status_name(), results_status()) and the reason it
 * stopped (outcome_of(), the phases' "what"), with German
 * numbers.  The results page's summary (pagesum.c) and the comparison
 * page (comparepage.c) print them; nothing else here.
 */

#ifndef LD_PAGEWORDS_H
#define LD_PAGEWORDS_H

#include <stdio.h>

#include "page/html.h"

const char	*pagewords_status(const char *, enum html_lang);
void		 pagewords_put_reason(FILE *, const char *, enum html_lang);

#endif /* LD_PAGEWORDS_H */
