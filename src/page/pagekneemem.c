/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * pagekneemem: the page's section on the knee against memory, for the
 * targets of a sweep of memory limits (sweep.h): what was run, a table of
 * each limit's knee and the memory a file took there, and what the line
 * fitted to them says.
 */

#include <math.h>
#include <stdio.h>

#include "page/html.h"
#include "page/pagekneemem.h"
#include "report/kneemem.h"

static void	put_rows(FILE *, const struct kneemem *, enum html_lang);
static void	put_line(FILE *, const struct kneemem *, enum html_lang);

/*
 * Print the section into 'fp' in 'lang' if the targets of 'rs' are a
 * sweep (at least two memory limits with a knee in the same phase), up
 * to where its graph goes.  Return whether it printed it.
 */
bool
pagekneemem_put(FILE *fp, const struct results *rs, enum html_lang lang)
{
	struct kneemem	sw;

	if (kneemem_find(rs, &sw) < 2)
		return false;
	html_put(fp, "<h2>%s</h2>\n<p>", html_tr(lang, "The knee against "
	    "memory", "Der Knick über dem Speicher"));
	html_put(fp, html_tr(lang, "These targets ran the same workload with "
	    "the caches held to different sizes (<code>--memory-limit</code>, "
	    "a cold run for each limit). For each, the knee of %s lies "
	    "between the last round whose rate is above half its plateau and "
	    "the first below; its point is the middle of the two on a "
	    "logarithmic axis. A file's share of the memory at the knee is "
	    "the limit divided by that point.", "Diese Targets liefen mit "
	    "derselben Last, aber mit unterschiedlich großen Caches "
	    "(<code>--memory-limit</code>, ein kalter Lauf je Grenze). Bei "
	    "jedem liegt der Knick von %s zwischen der letzten Runde, deren "
	    "Rate über der Hälfte ihres Plateaus liegt, und der ersten "
	    "darunter; sein Punkt ist die Mitte der beiden auf einer "
	    "logarithmischen Achse. Der Anteil einer Datei am Speicher beim "
	    "Knick ist die Grenze geteilt durch diesen Punkt."), sw.phase);
	html_put(fp, "</p>\n");
	put_rows(fp, &sw, lang);
	put_line(fp, &sw, lang);
	return true;
}

/* The table: per limit, the knee's interval and the memory per file. */
static void
put_rows(FILE *fp, const struct kneemem *sw, enum html_lang lang)
{
	size_t	i;

	html_put(fp, "<div class=\"wide\"><table>\n<tr><th>%s</th><th>%s"
	    "</th><th>%s</th><th>%s</th></tr>\n", html_tr(lang, "target",
	    "Target"), html_tr(lang, "memory limit (MiB)",
	    "Speichergrenze (MiB)"), html_tr(lang, "knee between n =",
	    "Knick zwischen n ="), html_tr(lang, "bytes per file at the knee",
	    "Bytes je Datei beim Knick"));
	for (i = 0; i < sw->n; i++) {
		html_esc(fp, "<tr class=\"row\"><td>", sw->p[i].label,
		    "</td><td class=\"num\">");
		html_num(fp, sw->p[i].mem / 1048576, 0, lang);
		html_put(fp, "</td><td class=\"num\">");
		if (sw->p[i].above > 0) {
			html_num(fp, sw->p[i].above, 0, lang);
			html_put(fp, "%s", HTML_DASH);
		}
		html_num(fp, sw->p[i].knee, 0, lang);
		html_put(fp, "</td><td class=\"num\">");
		html_num(fp, sw->p[i].mem / sw->p[i].mid, 0, lang);
		html_put(fp, "</td></tr>\n");
	}
	html_put(fp, "</table></div>\n");
}

/* What the line fitted to the knees' points says, if it rises. */
static void
put_line(FILE *fp, const struct kneemem *sw, enum html_lang lang)
{
	double	per = kneemem_bytes_per_file(sw), zero;

	html_put(fp, "<p>");
	if (!isfinite(per)) {
		html_put(fp, "%s</p>\n", html_tr(lang, "The knee does not move "
		    "to larger directories with more memory here, so no line "
		    "says what a cached file takes: look at the rows of each "
		    "target.", "Der Knick wandert hier mit mehr Speicher nicht "
		    "zu größeren Verzeichnissen, also sagt keine Gerade, was "
		    "eine Datei im Cache belegt: Die Zeilen der einzelnen "
		    "Targets geben Auskunft."));
		return;
	}
	html_put(fp, "%s", html_tr(lang, "A straight line fitted to the knees' "
	    "points by least squares says that each further MiB of the "
	    "caches holds ", "Eine Gerade, nach der Methode der kleinsten "
	    "Quadrate an die Punkte der Knicke gelegt, sagt: Jedes weitere "
	    "MiB Cache fasst "));
	html_num(fp, 1048576 / per, 0, lang);
	html_put(fp, "%s", html_tr(lang, " more files: a cached file takes "
	    "about ", " Dateien mehr, eine Datei im Cache belegt also etwa "));
	html_num(fp, per, 0, lang);
	html_put(fp, "%s", html_tr(lang, " bytes (its dentry, its inode and "
	    "its share of the directory's blocks and of the inode tables)",
	    " Bytes (ihr Dentry, ihr Inode und ihr Anteil an den Blöcken des "
	    "Verzeichnisses und an den Inode-Tabellen)"));
	zero = -sw->a / sw->b;
	if (zero > 0) {
		html_put(fp, "%s", html_tr(lang, ". The line reaches no files "
		    "at ", ". Die Gerade erreicht null Dateien bei "));
		html_num(fp, zero / 1048576, 1, lang);
		html_put(fp, "%s", html_tr(lang, " MiB: memory the cgroup "
		    "holds besides the directory", " MiB: Speicher, den die "
		    "Cgroup außer dem Verzeichnis belegt"));
	}
	html_put(fp, "%s</p>\n", html_tr(lang, ". With more memory than any "
	    "limit here, the knee lies further out, as far as the line holds "
	    "there.", ". Mit mehr Speicher als bei allen Grenzen hier liegt "
	    "der Knick weiter draußen, soweit die Gerade dort noch gilt."));
}
