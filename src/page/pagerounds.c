/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * pagerounds: see pagerounds.h.  The metadata say it in English with
 * thousands separators ("127488 of 2549114", "refine: n=6,199 narrows the
 * knee, between n=5,062 and n=7,593"); the page says it in its language.
 */

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "page/pagerounds.h"

static void	put_boxed(FILE *, unsigned, const char *, enum html_lang,
		    bool *);
static void	put_refine(FILE *, unsigned, const char *, enum html_lang,
		    bool *);
static void	put_timebox(FILE *, unsigned, const char *, enum html_lang,
		    bool *);
static void	opening(FILE *, enum html_lang, bool *);
static double	count(const char *);

/*
 * Print a paragraph on the rounds of 't' that sampled open, came below
 * the largest n, or stopped creating to end at the budget, in 'lang', or
 * nothing if it has none.  A value it cannot read is left out.
 */
void
pagerounds_put(FILE *fp, const struct results_target *t,
    enum html_lang lang)
{
	const char	*key;
	unsigned	 k;
	size_t		 i;
	bool		 any = false;

	for (i = 0; i < t->nmeta; i++) {
		key = t->meta[i].key;
		if (sscanf(key, "open_boxed_round_%u", &k) == 1)
			put_boxed(fp, k, t->meta[i].value, lang, &any);
		else if (sscanf(key, "refine_round_%u", &k) == 1)
			put_refine(fp, k, t->meta[i].value, lang, &any);
		else if (sscanf(key, "timebox_round_%u", &k) == 1)
			put_timebox(fp, k, t->meta[i].value, lang, &any);
	}
	if (any)
		html_put(fp, "</p>\n");
}

/* Round 'k' opened a sample: 'v' is "DONE of N" (more after "; "). */
static void
put_boxed(FILE *fp, unsigned k, const char *v, enum html_lang lang,
    bool *any)
{
	unsigned long long	done, n;

	if (sscanf(v, "%llu of %llu", &done, &n) != 2)
		return;
	opening(fp, lang, any);
	html_put(fp, html_tr(lang, " Round %u opened a random sample of ",
	    " Runde %u öffnete eine Zufallsstichprobe von "), k);
	html_num(fp, (double)done, 0, lang);
	html_put(fp, "%s", html_tr(lang, " of its ", " ihrer "));
	html_num(fp, (double)n, 0, lang);
	html_put(fp, "%s", html_tr(lang, " files, so that it ended at the "
	    "budget: its open rate is the sample's.", " Dateien, damit sie mit "
	    "dem Budget endete: Ihre open-Rate ist die der Stichprobe."));
}

/*
 * Round 'k' came below the largest n: 'v' is report_refine()'s line,
 * "refine: n=A narrows the knee, between n=B and n=C" or "fill: n=A
 * between n=B and n=C, ...".
 */
static void
put_refine(FILE *fp, unsigned k, const char *v, enum html_lang lang,
    bool *any)
{
	char	a[32], b[32], c[32];
	bool	refine = strncmp(v, "refine:", 7) == 0;

	if ((refine ? sscanf(v, "refine: n=%31[0-9,] narrows the knee, "
	    "between n=%31[0-9,] and n=%31[0-9,]", a, b, c) :
	    sscanf(v, "fill: n=%31[0-9,] between n=%31[0-9,] and "
	    "n=%31[0-9,]", a, b, c)) != 3)
		return;
	opening(fp, lang, any);
	html_put(fp, refine ? html_tr(lang, " Round %u narrowed the knee: ",
	    " Runde %u grenzte den Knick ein: ") : html_tr(lang, " Round %u "
	    "filled in, with time no larger round fitted in: ", " Runde %u "
	    "füllte eine Lücke, mit Zeit, in die keine größere Runde mehr "
	    "passte: "), k);
	html_put(fp, "n = ");
	html_num(fp, count(a), 0, lang);
	html_put(fp, "%s", html_tr(lang, " between ", " zwischen "));
	html_num(fp, count(b), 0, lang);
	html_put(fp, "%s", html_tr(lang, " and ", " und "));
	html_num(fp, count(c), 0, lang);
	html_put(fp, ".");
}

/* Before the first round noted: the paragraph's start ('*any' says). */
static void
opening(FILE *fp, enum html_lang lang, bool *any)
{
	if (!*any)
		html_put(fp, "<p>%s", html_tr(lang, "Rounds to note \u2014",
		    "Besondere Runden \u2014"));
	*any = true;
}

/*
 * Round 'k' was the time-boxed last round and stopped creating short of
 * its limit: 'v' is "made M of at most N; planned at about A".
 */
static void
put_timebox(FILE *fp, unsigned k, const char *v, enum html_lang lang,
    bool *any)
{
	char	m[32], n[32], a[32];

	if (sscanf(v, "made %31[0-9,] of at most %31[0-9,]; planned at "
	    "about %31[0-9,]", m, n, a) != 3)
		return;
	opening(fp, lang, any);
	html_put(fp, html_tr(lang, " Round %u was the plan's last, planned "
	    "at about ", " Runde %u war die letzte des Plans, geplant mit "
	    "etwa "), k);
	html_num(fp, count(a), 0, lang);
	html_put(fp, "%s", html_tr(lang, " files: it stopped creating at ",
	    " Dateien: Sie hörte bei "));
	html_num(fp, count(m), 0, lang);
	html_put(fp, "%s", html_tr(lang, " of at most ", " von höchstens "));
	html_num(fp, count(n), 0, lang);
	html_put(fp, "%s", html_tr(lang, ", so as to end at the budget.",
	    " auf anzulegen, um mit dem Budget zu enden."));
}

/* A count with thousands separators ("6,199") as a number. */
static double
count(const char *s)
{
	char	digits[32];
	size_t	o = 0;

	for (; *s != '\0' && o + 1 < sizeof(digits); s++)
		if (*s != ',')
			digits[o++] = *s;
	digits[o] = '\0';
	return strtod(digits, NULL);
}
