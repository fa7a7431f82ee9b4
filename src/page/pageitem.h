/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * pageitem: the metadata the results page (page.c) shows as paragraphs
 * of "name: value", in English and German: which keys make up a
 * workload, a machine and a target, and how each value prints (a count,
 * seconds, KiB or bytes as MiB and GiB, yes or no, or as it is).  A
 * value that should be a number and is none prints as text; a key that
 * means nothing where a target has some other (a loop device is
 * "rotational" whatever lies below it) is left out.
 */

#ifndef LD_PAGEITEM_H
#define LD_PAGEITEM_H

#include <stdio.h>

#include "page/html.h"
#include "record/results.h"

#define PAGEITEM_MAX	32	/* items in a list, with its end */

/* How pageitem_put() prints a metadata value. */
enum pageitem_kind {
	PAGEITEM_TEXT, PAGEITEM_COUNT, PAGEITEM_NUM, PAGEITEM_SECONDS,
	PAGEITEM_KIB, PAGEITEM_BYTES, PAGEITEM_YESNO,
	PAGEITEM_WORDS		/* text of largedir's words: translated */
};

/* One "name: value" of a paragraph: metadata 'key' printed as 'kind'. */
struct pageitem {
	const char		*key;		/* NULL ends a list */
	const char		*name[2];	/* English, German */
	enum pageitem_kind	 kind;
};

/* The lists, each ended by an item whose key is NULL. */
extern const struct pageitem	pageitem_workload[];
extern const struct pageitem	pageitem_machine[];
extern const struct pageitem	pageitem_target[];

void	pageitem_put(FILE *, const struct results_target *,
	    const struct pageitem *, const char *, const char *, const char *,
	    enum html_lang);

#endif /* LD_PAGEITEM_H */
