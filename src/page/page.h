/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * page: the static comparison page of a results directory, index.html in
 * English and index.de.html in German, written from the LABEL.out files
 * and linking the graphs and raw files next to them (page_write()), and
 * the verb largedir page (page_main()).
 */

#ifndef LD_PAGE_H
#define LD_PAGE_H

int	page_write(const char *, char *);
int	page_main(int, char **);

#endif /* LD_PAGE_H */
