/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * html: writing HTML text in English or German (see html.c): escaping,
 * file names in links, numbers with the language's separators.
 */

#ifndef LD_HTML_H
#define LD_HTML_H

#include <stdio.h>

/* What the page prints for a number it has not got. */
#define HTML_DASH	"\u2013"

/*
 * The language of a page.  The values index arrays of { English, German }
 * texts, so HTML_EN must stay 0 and HTML_DE 1.
 */
enum html_lang { HTML_EN, HTML_DE };


void	html_put(FILE *, const char *, ...)
	    __attribute__((format(printf, 2, 3)));
void	html_esc(FILE *, const char *, const char *, const char *);
void	html_url(FILE *, const char *, const char *);
void	html_num(FILE *, double, int, enum html_lang);
const char	*html_tr(enum html_lang, const char *, const char *);
void	html_head(FILE *, enum html_lang, const char *);

#endif /* LD_HTML_H */
