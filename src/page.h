/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * page: the static comparison page of a results directory, index.html in
 * English and index.de.html in German, written from the LABEL.out files
 * and linking the graphs and raw files next to them.
 */

#ifndef LD_PAGE_H
#define LD_PAGE_H

#include <stdio.h>

#include "html.h"

int		 page_write(const char *, char *);
int		 page_main(int, char **);
const char	*page_status_word(const char *, enum html_lang);
void		 page_put_reason(FILE *, const char *, enum html_lang);

#endif /* LD_PAGE_H */
