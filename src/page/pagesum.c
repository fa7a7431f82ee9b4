/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * pagesum: see pagesum.h.  The table has a column per fixed n and phase
 * that some target rates, under a header row per fixed n; a target of
 * a suite that did not start gets a dash in each of them.
 */

#include <sys/stat.h>

#include <dirent.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "page/pagesum.h"
#include "page/pagewords.h"

static void	put_head(FILE *, const struct pagesum *, enum html_lang);
static void	put_row(FILE *, const struct pagesum *,
		    const struct results_target *, enum html_lang);
static void	put_knees(FILE *, const struct pagesum *,
		    const struct results_target *, enum html_lang);
static void	put_failed(FILE *, const struct pagesum *, enum html_lang);
static bool	has_out(const struct pagesum *, const char *);
static bool	has_deliver(const struct pagesum *);
static bool	reached(const struct pagesum *, size_t);
static void	put_ms(FILE *, double, enum html_lang);
static int	cmp_names(const void *, const void *);

/*
 * Print the summary table of 'ps' in 'lang': per target its filesystem,
 * largest n, files per second of each phase at the fixed n and at its
 * largest n, its knee and how the run ended; the targets that did not
 * start; how to read it.
 */
void
pagesum_put(FILE *fp, const struct pagesum *ps, enum html_lang lang)
{
	size_t	i;

	put_head(fp, ps, lang);
	for (i = 0; i < ps->r->nt; i++)
		put_row(fp, ps, &ps->r->t[i], lang);
	put_failed(fp, ps, lang);
	html_put(fp, "</table></div>\n<p>%s %s</p>\n", html_tr(lang,
	    "Knee: where a phase's rate falls below half of its plateau for "
	    "good, between the last round above and the first below; "
	    "decline: it falls from the start; none: no phase does either; "
	    HTML_DASH ": too few rounds to tell, or a run that did not look "
	    "(see largedir(1)).", "Knick: wo die Rate einer Phase dauerhaft "
	    "unter die Hälfte ihres Plateaus fällt, zwischen der letzten "
	    "Runde darüber und der ersten darunter; Rückgang: sie fällt von "
	    "Anfang an; keiner: keine Phase zeigt eines von beiden; "
	    HTML_DASH ": zu wenige Runden für eine Aussage, oder ein Lauf, der "
	    "nicht danach gesucht hat (siehe largedir(1))."), html_tr(lang,
	    "Each rate is the median over the repetitions of the round whose "
	    "n is closest to the given n, within a factor of 1.25 (hover over "
	    "a cell to see its n); " HTML_DASH " where no round came that "
	    "close.",
	    "Jede Rate ist der Median über die Wiederholungen der Runde, "
	    "deren n dem angegebenen am nächsten liegt, höchstens um den "
	    "Faktor 1,25 entfernt (der Tooltip einer Zelle nennt ihr n); "
	    HTML_DASH " wo keine Runde so nahe kam."));
}

/*
 * Whether some target has a round near the fixed n 'f' (as
 * results_rate_at() finds one), so that its columns are worth showing.
 */
static bool
reached(const struct pagesum *ps, size_t f)
{
	double	at;
	size_t	i, p;

	for (i = 0; i < ps->r->nt; i++)
		for (p = 0; p < ps->nphases; p++)
			if (ps->has[p] && isfinite(results_rate_at(
			    &ps->r->t[i], ps->phases[p], ps->fixed_n[f], &at)))
				return true;
	return false;
}

/* The heading and the header rows: one per fixed n, then the phases. */
static void
put_head(FILE *fp, const struct pagesum *ps, enum html_lang lang)
{
	const char	*rs;
	size_t		 f, p;

	rs = ps->nrated > 0 ? " rowspan=\"2\"" : "";
	html_put(fp, "<h2>%s</h2>\n<div class=\"wide\"><table>\n"
	    "<tr><th%s>%s</th><th%s>%s</th><th%s>%s</th>",
	    html_tr(lang, "Summary", "Übersicht"), rs,
	    html_tr(lang, "Target", "Target"), rs,
	    html_tr(lang, "Filesystem", "Dateisystem"), rs,
	    html_tr(lang, "Largest n", "Größtes n"));
	if (has_deliver(ps))
		html_put(fp, "<th colspan=\"3\">%s</th>", html_tr(lang,
		    "deliver at the largest n", "deliver beim größten n"));
	for (f = 0; f < ps->nfixed && ps->nrated > 0; f++) {
		if (!reached(ps, f))
			continue;
		html_put(fp, "<th colspan=\"%zu\">%s", ps->nrated,
		    html_tr(lang, "files/s at n = ", "Dateien/s bei n = "));
		html_num(fp, ps->fixed_n[f], 0, lang);
		html_put(fp, "</th>");
	}
	if (ps->nrated > 0)
		html_put(fp, "<th colspan=\"%zu\">%s</th>", ps->nrated,
		    html_tr(lang, "files/s at the largest n",
		    "Dateien/s beim größten n"));
	html_put(fp, "<th%s>%s</th><th%s>%s</th></tr>\n", rs,
	    html_tr(lang, "Knee", "Knick"), rs,
	    html_tr(lang, "End of the run", "Ende des Laufs"));
	if (ps->nrated > 0) {
		html_put(fp, "<tr>");
		if (has_deliver(ps))
			html_put(fp, "<th>%s</th><th>p50</th><th>p99</th>",
			    html_tr(lang, "mails/s", "Mails/s"));
		for (f = 0; f <= ps->nfixed; f++)
			for (p = 0; p < ps->nphases; p++)
				if (ps->has[p] && (f == ps->nfixed ||
				    reached(ps, f)))
					html_put(fp, "<th>%s</th>",
					    ps->phases[p]);
		html_put(fp, "</tr>\n");
	}
}

/* The row of target 't'. */
static void
put_row(FILE *fp, const struct pagesum *ps, const struct results_target *t,
    enum html_lang lang)
{
	const char	*s, *fs;
	double		 rate, at;
	size_t		 f, p;

	html_esc(fp, "<tr class=\"row\"><td>", t->label, "");
	if (results_not_durable(t))
		html_put(fp, " (%s)", html_tr(lang, "not durable",
		    "nicht dauerhaft"));
	html_put(fp, "</td><td>");
	fs = results_meta(t, "fstype");
	html_esc(fp, "", fs, "");
	if ((s = results_meta(t, "driver")) != NULL && (fs == NULL ||
	    strcmp(s, fs) != 0))
		html_esc(fp, html_tr(lang, " (driver ", " (Treiber "), s, ")");
	html_put(fp, "</td><td class=\"num\">");
	html_num(fp, results_max_n(t), 0, lang);
	html_put(fp, "</td>");
	if (has_deliver(ps)) {
		/* A mail's latency: the median and the 99th percentile. */
		rate = results_value_at(t, "deliver_per_s", results_max_n(t),
		    &at);
		html_put(fp, "<td class=\"num\">");
		html_num(fp, rate, rate < 100.0 ? 1 : 0, lang);
		html_put(fp, "</td><td class=\"num\">");
		put_ms(fp, results_value_at(t, "deliver_p50_ns",
		    results_max_n(t), &at), lang);
		html_put(fp, "</td><td class=\"num\">");
		put_ms(fp, results_value_at(t, "deliver_p99_ns",
		    results_max_n(t), &at), lang);
		html_put(fp, "</td>");
	}
	/* At the fixed n some target reached, then at the largest. */
	for (f = 0; f <= ps->nfixed; f++)
		for (p = 0; p < ps->nphases; p++) {
			if (!ps->has[p] || (f < ps->nfixed && !reached(ps, f)))
				continue;
			rate = results_rate_at(t, ps->phases[p], f <
			    ps->nfixed ? ps->fixed_n[f] : results_max_n(t),
			    &at);
			html_put(fp, "<td class=\"num\"");
			if (isfinite(rate)) {
				html_put(fp, " title=\"n = ");
				html_num(fp, at, 0, lang);
				html_put(fp, "\"");
			}
			html_put(fp, ">");
			html_num(fp, rate, rate < 100.0 ? 1 : 0, lang);
			html_put(fp, "</td>");
		}
	put_knees(fp, ps, t, lang);
	html_put(fp, "<td>");
	html_esc(fp, "", pagewords_status(results_status(t), lang), "");
	if ((s = results_meta(t, "stop_reason")) != NULL) {
		html_put(fp, ": ");
		pagewords_put_reason(fp, s, lang);
	}
	html_put(fp, "</td></tr>\n");
}

/*
 * The knee cell of target 't': for every phase whose knee_PHASE says
 * something, "phase n = A–B" (between the rounds A and B; A from the rows
 * in results from before it was recorded) or "phase: decline"; a dash if
 * none does.
 */
static void
put_knees(FILE *fp, const struct pagesum *ps, const struct results_target *t,
    enum html_lang lang)
{
	const char	*s;
	char		 key[32], *end;
	double		 v, above;
	size_t		 p;
	bool		 any = false, none = false;

	html_put(fp, "<td>");
	for (p = 0; p < ps->nphases; p++) {
		(void)snprintf(key, sizeof(key), "knee_%s", ps->phases[p]);
		if ((s = results_meta(t, key)) == NULL)
			continue;
		v = strtod(s, &end);
		if (end != s && *end == '\0' && v > 0) {
			html_put(fp, "%s%s n = ", any ? "; " : "",
			    ps->phases[p]);
			above = results_knee_above(t, ps->phases[p], v);
			if (above > 0) {
				html_num(fp, above, 0, lang);
				html_put(fp, "%s", HTML_DASH);
			}
			html_num(fp, v, 0, lang);
		} else if (strcmp(s, "decline") == 0)
			html_put(fp, "%s%s: %s", any ? "; " : "", ps->phases[p],
			    html_tr(lang, "decline", "Rückgang"));
		else {
			none |= strcmp(s, "none") == 0;
			continue;
		}
		any = true;
	}
	/* "none" was looked for and not found; a dash, not looked for. */
	html_put(fp, "%s</td>", any ? "" : none ? html_tr(lang, "none",
	    "keiner") : HTML_DASH);
}

/*
 * The rows of the summary for the targets of a suite that did not start: a
 * LABEL.failed in the directory (written by largedir in a suite) without
 * a LABEL.out, with the reason it holds.
 */
static void
put_failed(FILE *fp, const struct pagesum *ps, enum html_lang lang)
{
	struct dirent	 *d;
	DIR		 *dp;
	char		**names = NULL, line[LD_ERRLEN], *label;
	size_t		  n = 0, i, len, cells;
	FILE		 *in;
	int		  fd;

	if ((fd = dup(ps->dirfd)) == -1 || (dp = fdopendir(fd)) == NULL) {
		if (fd != -1)
			(void)close(fd);
		return;
	}
	rewinddir(dp);
	while ((d = readdir(dp)) != NULL) {
		len = strlen(d->d_name);
		if (len <= 7 || strcmp(d->d_name + len - 7, ".failed") != 0)
			continue;
		names = xreallocarray(names, n + 1, sizeof(*names));
		names[n++] = xstrdup(d->d_name);
	}
	(void)closedir(dp);
	if (n > 0)	/* qsort(NULL, 0, ...) is undefined */
		qsort(names, n, sizeof(*names), cmp_names);
	cells = ps->nfixed * ps->nrated + 3;
	for (i = 0; i < n; i++) {
		label = xstrdup(names[i]);
		label[strlen(label) - 7] = '\0';
		if (has_out(ps, label) || (fd = util_open_regular(ps->dirfd,
		    names[i], false)) == -1 || (in = fdopen(fd, "r")) == NULL) {
			free(label);
			continue;
		}
		if (fgets(line, sizeof(line), in) == NULL)
			line[0] = '\0';
		line[strcspn(line, "\n")] = '\0';
		(void)fclose(in);
		html_esc(fp, "<tr class=\"row\"><td>", label, "</td>");
		for (len = 0; len < cells; len++)
			html_put(fp, "<td>%s</td>", HTML_DASH);
		html_esc(fp, html_tr(lang, "<td>did not start: ",
		    "<td>nicht gestartet: "), line, "</td></tr>\n");
		free(label);
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/* qsort(3) order of two names: as strcmp. */
static int
cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Whether the regular file 'label'.out is in the results directory. */
static bool
has_out(const struct pagesum *ps, const char *label)
{
	struct stat	 st;
	char		*name;
	bool		 yes;

	name = xasprintf("%s.out", label);
	yes = fstatat(ps->dirfd, name, &st, 0) == 0 && S_ISREG(st.st_mode);
	free(name);
	return yes;
}

/* Whether some target of the table delivered mail (a mailbox's work). */
static bool
has_deliver(const struct pagesum *ps)
{
	size_t	p;

	for (p = 0; p < ps->nphases; p++)
		if (ps->has[p] && strcmp(ps->phases[p], "deliver") == 0)
			return true;
	return false;
}

/* 'ns' nanoseconds as milliseconds, "1.25 ms", or a dash. */
static void
put_ms(FILE *fp, double ns, enum html_lang lang)
{
	html_num(fp, ns / 1e6, ns < 1e7 ? 2 : 1, lang);
	if (isfinite(ns))
		html_put(fp, " ms");
}
