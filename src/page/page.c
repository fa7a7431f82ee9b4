/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * page: the comparison page of a results directory.  page_write() reads
 * every LABEL.out in the directory (metadata, header and rows: the .out
 * file has everything the page needs) and writes index.html in English
 * and index.de.html in German, each linking the other: what was run
 * (the workload and the machine as pageitem.c's paragraphs), what the
 * curves say (pagesense.c), the comparison graphs rates-PHASE.png that
 * plot/rates.gp drew, the summary table of files per second at fixed n
 * (pagesum.c), for targets that counted their calls to a server the
 * table of those calls (pagecalls.c) and the RPC table of their
 * listings at each power of ten (pagetable.c), and one section per
 * target with its machine, its filesystem, its graph and its raw files.
 * page_main() is the verb "largedir page" (a comparison's directory gets
 * comparepage.c's page instead); suite.c calls page_write() after a
 * suite; html.c prints the pieces.
 *
 * The page is static and self-contained (inline CSS, no scripts, nothing
 * fetched from elsewhere) and links only to files that exist in the
 * directory, so the directory can be copied to a web server as it is.
 * Every text taken from the files is HTML-escaped after its .out escapes
 * are undone.  Each page is written under a temporary name and renamed,
 * as output_flush() does, so a reader never sees half a page.
 */

#include <sys/stat.h>

#include <ctype.h>
#include <dirent.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/sig.h"
#include "base/util.h"
#include "page/comparepage.h"
#include "page/html.h"
#include "page/page.h"
#include "page/pagecalls.h"
#include "page/pageitem.h"
#include "page/pagephase.h"
#include "page/pagerepro.h"
#include "page/pagerounds.h"
#include "page/pagesense.h"
#include "page/pagesum.h"
#include "page/pagekneemem.h"
#include "page/pagetable.h"
#include "record/output.h"
#include "record/results.h"
#include "report/report.h"

#define NFIXED	3
#define NPHASES	PAGEPHASE_N

struct page {
	int			 dirfd;
	struct results		 r;	/* the targets, sorted by label */
	bool			 has[NPHASES];	/* some target rates it */
	size_t			 nphases;
	bool			 one_machine;	/* all targets ran on it */
};

static bool	stopped(const char *, char *);
static int	read_targets(struct page *, const char *, char *);
static void	run_end(const struct results_target *, const char *, char *,
		    size_t);
static bool	same_meta(const struct results_target *,
		    const struct results_target *, const char *);
static bool	has_file(const struct page *, const char *, const char *);
static int	write_lang(struct page *, enum html_lang, const char *,
		    char *);
static int	print_page(FILE *, const void *);
static void	put_graph(FILE *, const struct page *, const char *,
		    const char *, const char *, enum html_lang);
static void	put_page(FILE *, const struct page *, enum html_lang);
static void	put_intro(FILE *, const struct page *, enum html_lang);
static void	put_graphs(FILE *, const struct page *, enum html_lang);
static void	put_uml_mix(FILE *, const struct page *, enum html_lang);
static void	put_summary(FILE *, const struct page *, enum html_lang);
static void	put_warnings(FILE *, const struct results_target *,
		    enum html_lang);
static void	put_virtual(FILE *, const struct results_target *,
		    enum html_lang);
static void	put_target(FILE *, const struct page *,
		    const struct results_target *, enum html_lang);

static const double fixed_n[NFIXED] = { 1e4, 1e5, 1e6 };


/* ===== Reading the results ===== */

/*
 * Write the comparison page of the results directory 'results':
 * RESULTS/index.html in English and RESULTS/index.de.html in German, each
 * written to a temporary name in the directory and renamed into place.
 * The page is built from every LABEL.out there and links the graphs
 * (rates-PHASE.png/.svg, LABEL.png/.svg) and raw files (LABEL.out, .csv,
 * .json, .summary) that exist.  Return 0, or -1 with errno set and a
 * one-line message in 'err' (LD_ERRLEN bytes), e.g. when the directory
 * holds no .out file.  Nothing needs freeing.
 */
int
page_write(const char *results, char *err)
{
	struct page	pg;
	int		rc = -1, saved;

	memset(&pg, 0, sizeof(pg));
	pg.dirfd = open(results, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (pg.dirfd == -1) {
		saved = errno;
		(void)snprintf(err, LD_ERRLEN, "open %s: %s", results,
		    strerror(saved));
		errno = saved;
		return -1;
	}
	if (read_targets(&pg, results, err) == 0 && !stopped(results, err) &&
	    write_lang(&pg, HTML_EN, results, err) == 0 &&
	    !stopped(results, err) &&
	    write_lang(&pg, HTML_DE, results, err) == 0)
		rc = 0;
	saved = errno;
	results_free(&pg.r);
	(void)close(pg.dirfd);
	errno = saved;
	return rc;
}

/*
 * Read the targets of the directory and note which phases any of them
 * rates.  Return 0, or -1 with errno and 'err' set.
 */
static int
read_targets(struct page *pg, const char *results, char *err)
{
	const struct pageitem	*it;
	char			 name[32];
	size_t			 i, p;

	if (results_read(&pg->r, pg->dirfd, results, err) == -1)
		return -1;
	for (p = 0; p < NPHASES; p++) {
		(void)snprintf(name, sizeof(name), "%s_per_s",
		    pagephase_names[p]);
		for (i = 0; i < pg->r.nt && !pg->has[p]; i++)
			pg->has[p] = results_col(&pg->r.t[i], name) != -1;
		pg->nphases += pg->has[p] ? 1 : 0;
	}
	pg->one_machine = pg->r.nt > 1;
	for (it = pageitem_machine; it->key != NULL; it++)
		for (i = 1; i < pg->r.nt; i++)
			pg->one_machine = pg->one_machine && same_meta(
			    &pg->r.t[0], &pg->r.t[i], it->key);
	return 0;
}

/* ===== Looking things up ===== */

/*
 * The end of target 't''s run, which started at 'start' (ISO 8601, UTC)
 * and took its elapsed_s, into 'last' ('len' bytes) if it is later than
 * what 'last' holds ("" at first).  A run without elapsed_s ends, for
 * this, where it started.
 */
static void
run_end(const struct results_target *t, const char *start, char *last,
    size_t len)
{
	struct tm	 tm;
	const char	*el, *rest;
	char		 end[32];
	double		 s;
	time_t		 at;

	memset(&tm, 0, sizeof(tm));
	rest = strptime(start, "%Y-%m-%dT%H:%M:%SZ", &tm);
	if (rest == NULL || *rest != '\0')
		return;
	at = timegm(&tm);
	if ((el = results_meta(t, "elapsed_s")) != NULL &&
	    (s = strtod(el, NULL)) > 0 && s < 1e9)
		at += (time_t)llround(s);
	if (strftime(end, sizeof(end), "%Y-%m-%dT%H:%M:%SZ",
	    gmtime(&at)) == 0)
		return;
	if (strcmp(end, last) > 0)
		(void)snprintf(last, len, "%s", end);
}

/* Whether 'a' and 'b' have the same value (or none) for 'key'. */
static bool
same_meta(const struct results_target *a, const struct results_target *b,
    const char *key)
{
	const char	*x, *y;

	x = results_meta(a, key);
	y = results_meta(b, key);
	return x == y || (x != NULL && y != NULL && strcmp(x, y) == 0);
}

/* Whether the regular file 'base' + 'ext' is in the results directory. */
static bool
has_file(const struct page *pg, const char *base, const char *ext)
{
	struct stat	 st;
	char		*name;
	bool		 yes;

	name = xasprintf("%s%s", base, ext);
	yes = fstatat(pg->dirfd, name, &st, 0) == 0 && S_ISREG(st.st_mode);
	free(name);
	return yes;
}

/* ===== Writing ===== */

/* What print_page() needs: the page and its language. */
struct page_arg {
	const struct page	*pg;
	enum html_lang		 lang;
};

/* Adapt put_page() to output_write_file(). */
static int
print_page(FILE *fp, const void *arg)
{
	const struct page_arg	*pa = arg;

	put_page(fp, pa->pg, pa->lang);
	return 0;
}

/*
 * Write the page in 'lang' as index.html or index.de.html, atomically
 * (output_write_file()).  Return 0, or -1 with errno and 'err' set.
 */
static int
write_lang(struct page *pg, enum html_lang lang, const char *results, char *err)
{
	struct page_arg	pa = { pg, lang };
	char		msg[LD_ERRLEN];
	int		saved;

	if (output_write_file(pg->dirfd, lang == HTML_DE ? "index.de.html" :
	    "index.html", print_page, &pa, NULL, msg) == 0)
		return 0;
	saved = errno;
	(void)snprintf(err, LD_ERRLEN, "%s: %.200s", results, msg);
	errno = saved;
	return -1;
}

/*
 * Print a paragraph with the graph 'base'.png, linked to 'base'.svg if
 * that exists, with the alt text "'what': 'alt'" (plain text); on the
 * German page 'base'.de.png and .svg, the graph in German, where plot
 * drew them.
 */
static void
put_graph(FILE *fp, const struct page *pg, const char *base,
    const char *what, const char *alt, enum html_lang lang)
{
	bool		 de = lang == HTML_DE && has_file(pg, base, ".de.png");
	const char	*png = de ? ".de.png" : ".png";
	const char	*svg = de ? ".de.svg" : ".svg";
	bool		 link;

	link = has_file(pg, base, svg);
	html_put(fp, "<p>");
	if (link) {
		html_put(fp, "<a href=\"");
		html_url(fp, base, svg);
		html_put(fp, "\">");
	}
	html_put(fp, "<img src=\"");
	html_url(fp, base, png);
	html_put(fp, "\" width=\"900\" height=\"600\" alt=\"");
	html_esc(fp, "", what, ": ");
	html_put(fp, "%s\">%s</p>\n", alt, link ? "</a>" : "");
}

/* ===== The page ===== */

/* Print the whole page in 'lang'. */
static void
put_page(FILE *fp, const struct page *pg, enum html_lang lang)
{
	const char	*title;
	size_t		 i;

	title = html_tr(lang, "largedir: files per second as one directory "
	    "grows", "largedir: Dateien pro Sekunde, während ein Verzeichnis "
	    "wächst");
	html_head(fp, lang, title);
	put_intro(fp, pg, lang);
	pagesense_put(fp, &pg->r, pagephase_names, pg->has, NPHASES, fixed_n,
	    NFIXED, lang);
	put_graphs(fp, pg, lang);
	if (pagekneemem_put(fp, &pg->r, lang) && has_file(pg, "knee", ".png"))
		put_graph(fp, pg, "knee", "knee", html_tr(lang, "the knee's "
		    "directory size against the memory limit, with the line "
		    "fitted to it", "Verzeichnisgröße am Knick über der "
		    "Speichergrenze, mit der angepassten Geraden"), lang);
	put_summary(fp, pg, lang);
	pagecalls_put(fp, &pg->r, lang);
	pagetable_put(fp, &pg->r, lang);
	for (i = 0; i < pg->r.nt; i++)
		put_target(fp, pg, &pg->r.t[i], lang);
	pagerepro_put(fp, pg->dirfd, &pg->r, lang);
	html_put(fp, "<p>%s</p>\n</body>\n</html>\n", html_tr(lang,
	    "Written by largedir page from the files in this directory.",
	    "Erstellt mit „largedir page“ aus den Dateien dieses "
	    "Verzeichnisses."));
}

/*
 * Print what was run: version, dates, seeds and the workload settings
 * all targets share, then per target those in which they differ.
 */
static void
put_intro(FILE *fp, const struct page *pg, enum html_lang lang)
{
	const struct results_target	*t0 = &pg->r.t[0];
	const struct pageitem		*it;
	struct pageitem		 same[PAGEITEM_MAX], diff[PAGEITEM_MAX];
	const char			*s, *first = NULL;
	char				 last[32] = "";
	bool				 one_seed = true;
	size_t				 i, ns = 0, nd = 0;

	for (it = pageitem_workload; it->key != NULL; it++) {
		i = 1;
		while (i < pg->r.nt && same_meta(t0, &pg->r.t[i], it->key))
			i++;
		if (i == pg->r.nt)
			same[ns++] = *it;
		else
			diff[nd++] = *it;
	}
	same[ns].key = diff[nd].key = NULL;
	for (i = 0; i < pg->r.nt; i++) {
		one_seed = one_seed && same_meta(t0, &pg->r.t[i], "seed");
		if ((s = results_meta(&pg->r.t[i], "start_utc")) == NULL)
			continue;
		if (first == NULL || strcmp(s, first) < 0)
			first = s;
		run_end(&pg->r.t[i], s, last, sizeof(last));
	}
	html_put(fp, "<p>largedir ");
	s = results_meta(t0, "version") != NULL ? results_meta(t0, "version") :
	    results_meta(t0, "largedir");
	html_esc(fp, "", s, "");
	if ((s = results_meta(t0, "git")) != NULL)
		html_esc(fp, " (git ", s, ")");
	html_put(fp, html_tr(lang, " measured %zu target%s", " hat %zu "
	    "Target%s"), pg->r.nt, pg->r.nt == 1 ? "" : "s");
	if (first != NULL && strcmp(first, last) != 0) {
		html_esc(fp, html_tr(lang, " from ", " von "), first, "");
		html_esc(fp, html_tr(lang, " to ", " bis "), last, "");
	} else if (first != NULL)
		html_esc(fp, html_tr(lang, ", started ", " ab "), first, "");
	html_put(fp, "%s", html_tr(lang, "", " gemessen"));
	html_put(fp, ".%s", one_seed ? " Seed: " : " Seeds: ");
	for (i = 0; i < (one_seed ? 1 : pg->r.nt); i++) {
		if (!one_seed)
			html_esc(fp, i > 0 ? ", " : "", pg->r.t[i].label, " ");
		html_esc(fp, "", results_meta(&pg->r.t[i], "seed"), "");
	}
	html_put(fp, ". ");
	/* A suite's command, as typed, where all targets ran under it. */
	for (i = 1; i < pg->r.nt && same_meta(t0, &pg->r.t[i],
	    "suite_command"); i++)
		;
	if (i == pg->r.nt && (s = results_meta(t0, "suite_command")) != NULL)
		html_esc(fp, html_tr(lang, "Command: <code>", "Aufruf: <code>"),
		    s, "</code>. ");
	pageitem_put(fp, t0, same, "", html_tr(lang, "Workload", "Arbeitslast"),
	    "", lang);
	if (nd > 0)
		html_put(fp, " %s", html_tr(lang, "The targets did not all "
		    "run the same workload; they differ in:", "Die Targets "
		    "liefen nicht alle mit derselben Arbeitslast; sie "
		    "unterscheiden sich in:"));
	html_put(fp, "</p>\n");
	for (i = 0; i < pg->r.nt && nd > 0; i++)
		pageitem_put(fp, &pg->r.t[i], diff, "<p>", pg->r.t[i].label,
		    "</p>\n", lang);
	/* The machine once, where every target ran on the same. */
	if (pg->one_machine)
		pageitem_put(fp, t0, pageitem_machine, "<p>", html_tr(lang,
		    "Machine", "Rechner"), "</p>\n", lang);
}

/*
 * If some targets of the page ran inside User-Mode Linux and some did
 * not, their curves share the graphs: say so, and name the UML ones.
 */
static void
put_uml_mix(FILE *fp, const struct page *pg, enum html_lang lang)
{
	size_t	i, k = 0;

	if (!results_mixed_kernels(&pg->r))
		return;
	html_put(fp, "<p><strong>%s</strong> ", html_tr(lang, "Mixed "
	    "kernels:", "Gemischte Kernel:"));
	for (i = 0; i < pg->r.nt; i++)
		if (results_in_uml(&pg->r.t[i]))
			html_esc(fp, k++ > 0 ? ", " : "", pg->r.t[i].label, "");
	html_put(fp, "%s</p>\n", html_tr(lang, ": measured inside "
	    "User-Mode Linux, the others on this machine's own kernel. A "
	    "system call costs 50 to 100 times more in User-Mode Linux, so "
	    "the rates of the two kinds do not compare; the calls counted "
	    "are exact.", ": in User-Mode Linux gemessen, die übrigen auf "
	    "dem eigenen Kernel dieser Maschine. Ein Systemaufruf kostet in "
	    "User-Mode Linux 50- bis 100-mal so viel; die Raten der beiden "
	    "Arten lassen sich also nicht vergleichen, die gezählten Aufrufe "
	    "sind genau."));
}

/* Print the comparison graphs rates-PHASE.png that exist. */
static void
put_graphs(FILE *fp, const struct page *pg, enum html_lang lang)
{
	char	*base;
	size_t	 p, n = 0;

	html_put(fp, "<h2>%s</h2>\n<p>%s</p>\n", html_tr(lang, "Files per "
	    "second by phase", "Dateien pro Sekunde je Phase"),
	    html_tr(lang, "Each graph shows files per second (higher is "
	    "better) against the number n of files in the directory, on a "
	    "logarithmic axis, one curve per target. A flat curve means a "
	    "file costs the same however large the directory is. Each phase's "
	    "graph has a rate axis of its own, and the graphs of the targets "
	    "further down share one: logarithmic where the rates span more "
	    "than a factor of 10, linear from 0 otherwise. Where a target "
	    "measured each n more "
	    "than once, a point is the median of its repetitions and its bar "
	    "spans the slowest to the fastest. Each graph links to its SVG.",
	    "Jedes Diagramm zeigt Dateien pro Sekunde (mehr ist besser) über der "
	    "Zahl n der Dateien im Verzeichnis, auf einer logarithmischen "
	    "Achse, eine Kurve je Target. Eine flache Kurve heißt, dass eine "
	    "Datei unabhängig von der Verzeichnisgröße gleich viel kostet. "
	    "Jedes Phasendiagramm hat eine eigene y-Achse, die Diagramme der "
	    "Targets weiter unten haben eine gemeinsame: logarithmisch, wo "
	    "die Raten um mehr als den Faktor 10 auseinanderliegen, sonst "
	    "linear ab 0. Wo ein "
	    "Target jedes n mehrmals gemessen hat, ist ein Punkt der Median "
	    "seiner Wiederholungen, und sein Balken reicht vom langsamsten "
	    "bis zum schnellsten Wert. Jedes Diagramm ist mit seiner "
	    "SVG-Fassung verlinkt."));
	put_uml_mix(fp, pg, lang);
	for (p = 0; p < NPHASES; p++) {
		base = xasprintf("rates-%s", pagephase_names[p]);
		if (has_file(pg, base, ".png")) {
			pagephase_put(fp, &pg->r, p, lang);
			put_graph(fp, pg, base, pagephase_names[p],
			    html_tr(lang, "files per second against directory "
			    "size, one curve per target", "Dateien pro Sekunde "
			    "über der Verzeichnisgröße, eine Kurve je Target"),
			    lang);
			n++;
		}
		free(base);
	}
	if (n == 0)
		html_put(fp, "<p>%s</p>\n", html_tr(lang, "There are no "
		    "comparison graphs in this directory; gnuplot -c "
		    "plot/rates.gp DIR draws them.", "In diesem Verzeichnis "
		    "gibt es noch keine Vergleichsdiagramme; gnuplot -c "
		    "plot/rates.gp DIR zeichnet sie."));
}

/* The summary table (pagesum.c) of the targets of 'pg'. */
static void
put_summary(FILE *fp, const struct page *pg, enum html_lang lang)
{
	struct pagesum	ps;

	ps.dirfd = pg->dirfd;
	ps.r = &pg->r;
	ps.phases = pagephase_names;
	ps.has = pg->has;
	ps.nphases = NPHASES;
	ps.nrated = pg->nphases;
	ps.fixed_n = fixed_n;
	ps.nfixed = NFIXED;
	pagesum_put(fp, &ps, lang);
}

/*
 * Print the section of target 't': description, machine, filesystem,
 * its graph and links to its files.
 */
static void
put_target(FILE *fp, const struct page *pg, const struct results_target *t,
    enum html_lang lang)
{
	static const char *const ext[] = {
		".out", ".csv", ".json", ".summary", ".svg", ".png", NULL
	};
	const char	*s;
	size_t		 i, n = 0;

	html_esc(fp, "<h2>", t->label, "</h2>\n");
	s = lang == HTML_DE ? results_meta(t, "target_description_de") : NULL;
	if (s == NULL)
		s = results_meta(t, "target_description");
	if (s != NULL)
		html_esc(fp, "<p>", s, "</p>\n");
	if (results_not_durable(t))
		html_put(fp, "<p>%s</p>\n", html_tr(lang, "<strong>Not "
		    "durable:</strong> fsync does nothing here (the files live "
		    "in memory), so what this target did for work that syncs "
		    "is shown, but it is never named the fastest.",
		    "<strong>Nicht dauerhaft:</strong> fsync bewirkt hier "
		    "nichts (die Dateien liegen im Speicher); was dieses Target "
		    "bei Arbeit mit fsync geleistet hat, wird gezeigt, aber "
		    "nie als das schnellste genannt."));
	if (!pg->one_machine)
		pageitem_put(fp, t, pageitem_machine, "<p>",
	    html_tr(lang, "Machine", "Rechner"), "</p>\n", lang);
	pageitem_put(fp, t, pageitem_target, "<p>", html_tr(lang, "Target",
	    "Target"), "</p>\n", lang);
	put_virtual(fp, t, lang);
	put_warnings(fp, t, lang);
	pagerounds_put(fp, t, lang);
	if (has_file(pg, t->label, ".png"))
		put_graph(fp, pg, t->label, t->label, html_tr(lang, "files per "
		    "second of each phase against directory size", "Dateien "
		    "pro Sekunde jeder Phase über der Verzeichnisgröße"),
		    lang);
	for (i = 0; ext[i] != NULL; i++) {
		if (!has_file(pg, t->label, ext[i]))
			continue;
		html_put(fp, "%s<a href=\"", n++ == 0 ?
		    html_tr(lang, "<p>Files: ", "<p>Dateien: ") : ", ");
		html_url(fp, t->label, ext[i]);
		html_esc(fp, "\">", t->label, ext[i]);
		html_put(fp, "</a>");
	}
	html_put(fp, "%s", n > 0 ? "</p>\n" : "");
}

/*
 * Under a target whose image lies on a virtual machine's disk, for work
 * that syncs: what its fsync rate says.
 */
static void
put_virtual(FILE *fp, const struct results_target *t, enum html_lang lang)
{
	const char	*d = results_meta(t, "image_on_disk");
	const char	*sync = results_meta(t, "config.fsync");

	if (d == NULL || sync == NULL || strcmp(sync, "none") == 0 ||
	    (strstr(d, "virtio") == NULL && strstr(d, "QEMU") == NULL &&
	    strstr(d, "VBOX") == NULL && strstr(d, "Virtual") == NULL))
		return;
	html_put(fp, "<p>%s</p>\n", html_tr(lang, "This image lies on a "
	    "virtual machine's disk: an fsync there returns when the host "
	    "says the data is safe, which may be in its cache, so the rates "
	    "of work that syncs say little of a real disk. A hard disk at "
	    "7,200 rpm syncs at most about 120 times a second (a rotation "
	    "each); an NVMe drive with power-loss protection, many thousand "
	    "times.", "Dieses Image liegt auf der Platte einer virtuellen "
	    "Maschine: Ein fsync kehrt dort zurück, sobald der Wirt die Daten "
	    "für sicher erklärt, womöglich schon in seinem Cache; die Raten "
	    "von Arbeit mit fsync sagen darum wenig über eine echte Platte. "
	    "Eine Festplatte mit 7.200 Umdrehungen schafft höchstens etwa 120 "
	    "fsync in der Sekunde (eine Umdrehung je fsync), eine NVMe-SSD "
	    "mit Schutz gegen Stromausfall viele tausend."));
}

/*
 * The warnings target 't''s run recorded (warning_KIND keys), as a list,
 * each as the run said it, after a word on its kind.
 */
static void
put_warnings(FILE *fp, const struct results_target *t, enum html_lang lang)
{
	static const struct {
		const char	*key, *en, *de;
	} kinds[] = {
		{ "warning_load", "busy machine", "Systemlast" },
		{ "warning_busy", "calls it cannot have made",
		    "Aufrufe, die die Phase nicht gemacht haben kann" },
		{ "warning_outliers", "outliers among the repetitions",
		    "Ausreißer unter den Wiederholungen" },
		{ "warning_swing", "a rate off both neighbouring rounds",
		    "eine Rate weit weg von beiden Nachbarrunden" },
		{ "warning_stopped", "time lost while stopped",
		    "Zeit, in der der Lauf angehalten war" },
	};
	const char	*what;
	size_t		 i, k, n = 0;

	for (i = 0; i < t->nmeta; i++) {
		if (strncmp(t->meta[i].key, "warning_", 8) != 0)
			continue;
		what = t->meta[i].key + 8;
		for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
			if (strcmp(kinds[k].key, t->meta[i].key) == 0)
				what = html_tr(lang, kinds[k].en, kinds[k].de);
		if (n++ == 0)
			html_put(fp, "<p>%s</p>\n<ul>\n", html_tr(lang,
			    "Warnings of its run:", "Warnungen seines Laufs:"));
		html_esc(fp, "<li>", what, ": ");
		html_esc(fp, "", t->meta[i].value, "</li>\n");
	}
	if (n > 0)
		html_put(fp, "</ul>\n");
}

/*
 * Whether a signal came (see sig.h): then no other page is begun, and
 * 'err' and errno (EINTR) say so.  A page being written is finished or
 * removed, never left half-written or as a temporary file.
 */
static bool
stopped(const char *results, char *err)
{
	if (sig_count == 0)
		return false;
	(void)snprintf(err, LD_ERRLEN, "%s: interrupted by SIG%s", results,
	    sigabbrev_np(sig_first));
	errno = EINTR;
	return true;
}

/* largedir page RESULTS: the verb; returns the exit status. */
int
page_main(int argc, char **argv)
{
	const char	*dir;
	char		 errbuf[LD_ERRLEN];

	/* A signal only stops it between files: no temporary is left. */
	if ((dir = report_dir_verb(argc, argv, "usage: largedir page RESULTS",
	    "Write the page of the run or suite in RESULTS, index.html and\n"
	    "index.de.html: what was measured where, the graphs, the tables "
	    "and the\nset-up of every target.\n")) == NULL)
		return 0;
	/* A comparison's directory gets a comparison's page. */
	if ((results_is_compare(dir) ? compare_page_rewrite(dir, errbuf) :
	    page_write(dir, errbuf)) == -1)
		errx(sig_count > 0 ? 128 + sig_first : 1, "%s", errbuf);
	if (sig_count > 0)
		errx(128 + sig_first, "%s: interrupted by SIG%s", dir,
		    sigabbrev_np(sig_first));
	printf("page: %s/index.html and index.de.html\n", dir);
	if (fflush(stdout) == EOF)
		err(1, "stdout");
	return 0;
}
