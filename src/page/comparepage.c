/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * comparepage: the page of a comparison (largedir compare), index.html
 * in English and index.de.html in German in the comparison's directory:
 * what was compared and how, the table, how to read it, the graphs, the
 * machine and the two set-ups as their first runs recorded them, and
 * links to the raw files.  Written like the results page (page.c): to a
 * temporary name, renamed into place.
 */

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "page/comparepage.h"
#include "page/html.h"
#include "page/pagewords.h"
#include "record/output.h"
#include "record/results.h"
#include "report/pairs.h"

struct page_arg {
	const struct compare_page	*cp;
	enum html_lang			 lang;
	int				 dirfd;
};

/* What the page shows of a run's metadata, in both languages. */
static const struct {
	const char	*key;
	const char	*name[2];
} machine_keys[] = {
	{ "host", { "host", "Rechner" } },
	{ "kernel", { "kernel", "Kernel" } },
	{ "cpu_model", { "CPU", "CPU" } },
	{ "cpus_online", { "CPUs online", "aktive CPUs" } },
	{ "mem_total_kib", { "memory", "Arbeitsspeicher" } },
	{ NULL, { NULL, NULL } }
}, side_keys[] = {
	{ "target_description", { "description", "Beschreibung" } },
	{ "fstype", { "filesystem", "Dateisystem" } },
	{ "mkfs", { "mkfs", "mkfs" } },
	{ "mount_options", { "mount options", "Mount-Optionen" } },
	{ "device", { "device", "Gerät" } },
	{ "dir", { "directory", "Verzeichnis" } },
	{ NULL, { NULL, NULL } }
};

static void	put_pct(FILE *, double, enum html_lang);
static int	print_page(FILE *, const void *);
static int	rows_of(const struct results_target *, struct compare_page *,
		    struct compare_failure *);
static void	runs_of(const struct results_target *, struct compare_page *,
		    struct compare_failure *);
static bool	row_ok(const double *, int);
static void	put_failures(FILE *, const struct compare_page *,
		    enum html_lang);
static const char	*value(const struct results_target *, const char *,
		    enum html_lang);
static void	put_time(FILE *, double, enum html_lang);
static void	put_meta(FILE *, int, const char *, const char *,
		    const char *, bool, enum html_lang);
static void	put_intro(FILE *, const struct compare_page *, enum html_lang);
static void	put_table(FILE *, const struct compare_page *, enum html_lang);
static void	put_graphs(FILE *, const struct compare_page *, int,
		    enum html_lang);
static void	put_setup(FILE *, const struct compare_page *, int,
		    enum html_lang);

/*
 * Metadata 'key' of 'rt' as the page in 'lang' shows it: the German page
 * takes the German version of a key that has one, where the run has it.
 */
static const char *
value(const struct results_target *rt, const char *key, enum html_lang lang)
{
	static const char *const de[][2] = {
		{ "target_description", "target_description_de" },
		{ NULL, NULL }
	};
	const char	*v;
	size_t		 i;

	for (i = 0; lang == HTML_DE && de[i][0] != NULL; i++)
		if (strcmp(key, de[i][0]) == 0 &&
		    (v = results_meta(rt, de[i][1])) != NULL)
			return v;
	return results_meta(rt, key);
}

/* A table cell with the time 'ns': in ms below a second, else in s. */
static void
put_time(FILE *fp, double ns, enum html_lang lang)
{
	html_put(fp, "<td class=\"num\">");
	if (ns < 1e9) {
		html_num(fp, ns / 1e6, 1, lang);
		html_put(fp, " ms</td>");
	} else {
		html_num(fp, ns / 1e9, ns < 60e9 ? 2 : 1, lang);
		html_put(fp, " s</td>");
	}
}

/* The verdicts of pairs_verdict_name() in German. */
static const char *
verdict(enum pairs_verdict v, enum html_lang lang)
{
	static const char *const de[] = { "schneller", "langsamer",
		"im Rauschen", "ein Paar" };

	return lang == HTML_DE ? de[v] : pairs_verdict_name(v);
}

/*
 * The metadata of the run 'label' in DIR/runs that 'keys' names, as a
 * list item 'title' ('keys' is machine_keys or side_keys: 'machine'),
 * or nothing if the run's outputs cannot be read.
 */
static void
put_meta(FILE *fp, int dirfd, const char *label, const char *title,
    const char *pre, bool machine, enum html_lang lang)
{
	struct results_target	 rt;
	char			 err[LD_ERRLEN];
	const char		*v;
	size_t			 i, n = 0;
	int			 fd;

	memset(&rt, 0, sizeof(rt));
	if ((fd = openat(dirfd, "runs", O_RDONLY | O_DIRECTORY |
	    O_CLOEXEC)) == -1)
		return;
	if (results_read_one(&rt, fd, "runs", label, err) == 0) {
		html_esc(fp, pre, title, ": ");
		for (i = 0; (machine ? machine_keys[i].key :
		    side_keys[i].key) != NULL; i++) {
			const char *key = machine ? machine_keys[i].key :
			    side_keys[i].key;
			const char *name = machine ? machine_keys[i].name[lang]
			    : side_keys[i].name[lang];

			if ((v = value(&rt, key, lang)) == NULL)
				continue;
			html_esc(fp, n++ > 0 ? "; " : "", name, ": ");
			if (strcmp(key, "mem_total_kib") == 0) {
				/* As on the other pages: 23.5 GiB. */
				html_num(fp, strtod(v, NULL) / 1048576.0, 1,
				    lang);
				html_put(fp, " GiB");
			} else
				html_esc(fp, "", v, "");
		}
		html_put(fp, ".</li>\n");
	}
	results_target_free(&rt);
	(void)close(fd);
}

/*
 * The runs that did not complete, if there are any: which they were
 * (pair, side, label), their exit status and their own words.
 */
static void
put_failures(FILE *fp, const struct compare_page *cp, enum html_lang lang)
{
	const struct compare_failure	*f;
	size_t				 i;

	if (cp->nfailed == 0)
		return;
	html_put(fp, "<p>%s</p>\n<ul>\n", html_tr(lang, "Not every run "
	    "completed; the table counts only the pairs whose two runs both "
	    "did:", "Nicht jeder Lauf kam zu Ende; die Tabelle zählt nur die "
	    "Paare, deren beide Läufe zu Ende kamen:"));
	for (i = 0; i < cp->nfailed; i++) {
		f = &cp->failed[i];
		html_put(fp, html_tr(lang, "<li>pair %u, %c (", "<li>Paar %u, "
		    "%c ("), f->pair, "AB"[f->side]);
		html_esc(fp, "", cp->label[f->side], "");
		html_put(fp, ".%u): %s %d", f->pair, html_tr(lang,
		    "exit status", "Exit-Status"), f->exit);
		if (f->why != NULL) {
			html_put(fp, ": ");
			pagewords_put_reason(fp, f->why, lang);
		} else
			html_put(fp, "%s", html_tr(lang, ", with no message of "
			    "its own", ", ohne eigene Meldung"));
		html_put(fp, "</li>\n");
	}
	html_put(fp, "</ul>\n");
}

/*
 * The first paragraph: what was compared, how many files, in how many
 * pairs, with which seed and largedir, its status and its command.
 */
static void
put_intro(FILE *fp, const struct compare_page *cp, enum html_lang lang)
{
	html_esc(fp, "<p>A: <b>", cp->label[0], "</b> (");
	html_esc(fp, "<code>", cp->arg[0], "</code>); B: <b>");
	html_esc(fp, "", cp->label[1], "</b> (");
	html_esc(fp, "<code>", cp->arg[1], "</code>). ");
	html_put(fp, "%s", html_tr(lang, "Each run made ",
	    "Jeder Lauf legte "));
	html_num(fp, (double)cp->n, 0, lang);
	if (cp->dirs == 0)
		html_put(fp, "%s", html_tr(lang, " files in a new directory",
		    " Dateien in einem neuen Verzeichnis an"));
	else {
		html_put(fp, "%s", html_tr(lang, " files in ", " Dateien in "));
		html_num(fp, (double)cp->dirs, 0, lang);
		html_put(fp, "%s", html_tr(lang, " new directories (",
		    " neuen Verzeichnissen an ("));
		html_num(fp, (double)((cp->n + cp->dirs - 1) / cp->dirs), 0,
		    lang);
		html_put(fp, "%s", html_tr(lang, " in each; mkdir counts "
		    "directories, delete files and directories)",
		    " in jedem; mkdir zählt Verzeichnisse, delete Dateien und "
		    "Verzeichnisse)"));
	}
	html_put(fp, "%s", html_tr(lang, ", on a target set up afresh; ",
	    ", auf einem jeweils neu eingerichteten Target; "));
	if (cp->complete == cp->pairs)
		html_put(fp, html_tr(lang, "%u pair%s of runs",
		    "%u Paar%s von Läufen"), cp->pairs, cp->pairs == 1 ? "" :
		    html_tr(lang, "s", "e"));
	else
		html_put(fp, html_tr(lang, "%u pair%s of runs planned, %u of "
		    "them complete", "%u Paar%s von Läufen geplant, davon %u "
		    "vollständig"), cp->pairs, cp->pairs == 1 ? "" :
		    html_tr(lang, "s", "e"), cp->complete);
	html_put(fp, "%s", html_tr(lang, ", in the order A B, B A, A B, ..., "
	    "all with the seed ", ", in der Reihenfolge A B, B A, A B, …, "
	    "alle mit dem Seed "));
	html_esc(fp, "", cp->seed, ". ");
	html_esc(fp, html_tr(lang, "largedir ", "largedir "), cp->version,
	    "");
	html_esc(fp, " (git ", cp->git, ")");
	html_esc(fp, html_tr(lang, ", status: ", ", Status: "),
	    pagewords_status(cp->status, lang), ". ");
	html_esc(fp, html_tr(lang, "Command: <code>", "Aufruf: <code>"),
	    cp->command, "</code>.</p>\n");
}

/* The table, a row per phase, and how to read it. */
static void
put_table(FILE *fp, const struct compare_page *cp, enum html_lang lang)
{
	const struct pairs_row	*r;
	size_t			 i;

	html_put(fp, "<div class=\"wide\"><table>\n<tr><th>%s</th>"
	    "<th colspan=\"2\">A</th><th colspan=\"2\">B</th>"
	    "<th>%s</th><th>±</th><th>%s</th></tr>\n",
	    html_tr(lang, "phase", "Phase"), html_tr(lang, "B against A",
	    "B gegen A"), html_tr(lang, "verdict", "Urteil"));
	for (i = 0; i < cp->nphases; i++) {
		r = &cp->row[i];
		html_esc(fp, "<tr><td>", cp->phase[i], "</td>");
		if (!cp->has[i]) {
			html_put(fp, "<td colspan=\"7\">%s</td></tr>\n",
			    html_tr(lang, "no pair ran it to the end",
			    "kein Paar hat sie zu Ende gebracht"));
			continue;
		}
		put_time(fp, r->a_ns, lang);
		html_put(fp, "<td class=\"num\">");
		html_num(fp, r->a_per_s, 0, lang);
		html_put(fp, "/s</td>");
		put_time(fp, r->b_ns, lang);
		html_put(fp, "<td class=\"num\">");
		html_num(fp, r->b_per_s, 0, lang);
		html_put(fp, "/s</td><td class=\"num\">");
		put_pct(fp, r->pct, lang);
		html_put(fp, "</td><td class=\"num\">");
		html_num(fp, r->spread, 1, lang);
		html_put(fp, " %%</td><td>%s</td></tr>\n", verdict(r->verdict,
		    lang));
	}
	html_put(fp, "</table></div>\n<p>%s</p>\n", html_tr(lang,
	    "Times are the medians of each side's runs, rates the files (or "
	    "directories) divided by them. B against A is the ratio of the "
	    "median times: +265 % means that B took 3.65 times as long as A, "
	    "−13 % that it took 13 % less time. ± is half the range of the "
	    "pairs' own percentages. The verdict is faster or slower only when "
	    "no run of one side lies within the range of the other's; else the "
	    "runs overlap and the difference is within noise.",
	    "Die Zeiten sind die Mediane der Läufe jeder Seite, die Raten die "
	    "Dateien (oder Verzeichnisse) geteilt durch sie. „B gegen A“ ist "
	    "das Verhältnis der Mediane: +265 % heißt, dass B 3,65-mal so "
	    "lange brauchte wie A, −13 %, dass B 13 % weniger Zeit brauchte. ± "
	    "ist die halbe Spannweite der Prozentwerte der einzelnen Paare. "
	    "Das Urteil lautet nur dann schneller oder langsamer, wenn kein "
	    "Lauf der einen Seite im Bereich der anderen liegt; sonst "
	    "überlappen sich die Läufe, und der Unterschied liegt im "
	    "Rauschen."));
}

/*
 * The graph compare-PHASE.png of each phase in the table, linked to its
 * SVG; on the German page compare-PHASE.de.png and .svg, where plot drew
 * them in German (in 'dirfd').
 */
static void
put_graphs(FILE *fp, const struct compare_page *cp, int dirfd,
    enum html_lang lang)
{
	struct stat	 st;
	char		*name;
	size_t		 i;
	bool		 de;

	for (i = 0; i < cp->nphases; i++) {
		if (!cp->has[i])
			continue;
		name = xasprintf("compare-%s.de.png", cp->phase[i]);
		de = lang == HTML_DE && fstatat(dirfd, name, &st, 0) == 0 &&
		    S_ISREG(st.st_mode);
		free(name);
		html_put(fp, "<p><a href=\"");
		html_url(fp, "compare-", "");
		html_url(fp, cp->phase[i], de ? ".de.svg\"><img src=\"" :
		    ".svg\"><img src=\"");
		html_url(fp, "compare-", "");
		html_url(fp, cp->phase[i], de ? ".de.png\" alt=\"" :
		    ".png\" alt=\"");
		html_esc(fp, "", cp->phase[i], "\" width=\"900\" "
		    "height=\"600\"></a></p>\n");
	}
}

/*
 * The set-up as the first pair's runs recorded it (the machine, A and B;
 * the runs are in 'dirfd''s runs/), and the links to the raw files; the
 * end of the page.
 */
static void
put_setup(FILE *fp, const struct compare_page *cp, int dirfd,
    enum html_lang lang)
{
	char	run[80];
	int	s;

	html_put(fp, "<h2>%s</h2>\n<ul>\n", html_tr(lang, "Set-up",
	    "Einrichtung"));
	(void)snprintf(run, sizeof(run), "%s.1", cp->label[0]);
	put_meta(fp, dirfd, run, html_tr(lang, "Machine", "Maschine"),
	    "<li>", true, lang);
	for (s = 0; s < 2; s++) {
		(void)snprintf(run, sizeof(run), "%s.1", cp->label[s]);
		put_meta(fp, dirfd, run, s == 0 ? "A" : "B", "<li>", false,
		    lang);
	}
	html_put(fp, "</ul>\n<p>%s <a href=\"compare.out\">compare.out</a>, "
	    "<a href=\"compare.csv\">.csv</a>, <a href=\"compare.json\">"
	    ".json</a>, <a href=\"compare.summary\">.summary</a>; %s "
	    "<a href=\"runs/\">runs/</a>.</p>\n</body>\n</html>\n",
	    html_tr(lang, "Raw data: every run in the order it ran in",
	    "Rohdaten: jeder Lauf in der Reihenfolge, in der er lief, in"),
	    html_tr(lang, "each run's own outputs, with its environment, in",
	    "die eigenen Ausgaben jedes Laufs mit seiner Umgebung in"));
}

/* The page of 'arg' (a struct page_arg) to 'fp'; for output_write_file(). */
static int
print_page(FILE *fp, const void *arg)
{
	const struct page_arg	*pa = arg;

	html_head(fp, pa->lang, html_tr(pa->lang, "largedir compare: B "
	    "against A", "largedir compare: B gegen A"));
	put_intro(fp, pa->cp, pa->lang);
	put_failures(fp, pa->cp, pa->lang);
	put_table(fp, pa->cp, pa->lang);
	put_graphs(fp, pa->cp, pa->dirfd, pa->lang);
	put_setup(fp, pa->cp, pa->dirfd, pa->lang);
	return 0;
}

/*
 * Write the page of the comparison in 'dir' again from its compare.out,
 * as largedir page does for a run: what the comparison recorded (its
 * command, seed, sides, n, pairs, and each run's time per phase), with
 * the rows worked out as compare did.  Return 0, or -1 with errno and
 * 'err'.
 */
int
compare_page_rewrite(const char *dir, char *err)
{
	struct results_target	 t;
	struct compare_page	 cp;
	struct compare_failure	*fail;
	char			 label[2][256], arg[2][256];
	const char		*v;
	int			 fd, rc;

	memset(&cp, 0, sizeof(cp));
	memset(&t, 0, sizeof(t));
	if ((fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1)
		return util_fail(err, errno, "%s: %s", dir, strerror(errno));
	rc = results_read_one(&t, fd, dir, "compare", err);
	(void)close(fd);
	if (rc == -1)
		return -1;
	cp.dir = dir;
	results_compare_side(results_meta(&t, "a"), label[0], arg[0],
	    sizeof(label[0]));
	results_compare_side(results_meta(&t, "b"), label[1], arg[1],
	    sizeof(label[1]));
	cp.label[0] = label[0];
	cp.label[1] = label[1];
	cp.arg[0] = arg[0];
	cp.arg[1] = arg[1];
	cp.command = results_meta(&t, "command");
	cp.seed = results_meta(&t, "seed");
	cp.version = results_meta(&t, "version");
	cp.git = results_meta(&t, "git");
	cp.status = results_status(&t);
	if ((v = results_meta(&t, "n")) != NULL)
		cp.n = strtoull(v, NULL, 10);
	if ((v = results_meta(&t, "dirs")) != NULL)
		cp.dirs = strtoull(v, NULL, 10);	/* "D (F in each)" */
	/* "P", or "P (C complete)" when not all of them completed. */
	if ((v = results_meta(&t, "pairs")) != NULL)
		cp.pairs = (unsigned)strtoul(v, NULL, 10);
	fail = xreallocarray(NULL, t.nrows + 1, sizeof(*fail));
	if (cp.command == NULL || cp.version == NULL || cp.n == 0 ||
	    rows_of(&t, &cp, fail) == -1)
		rc = util_fail(err, EINVAL, "%s/compare.out: not a comparison "
		    "largedir compare wrote", dir);
	else
		rc = compare_page_write(&cp, err);
	free(fail);
	results_target_free(&t);
	return rc;
}

/*
 * Whether the run of 'row' completed: its exit (column 'cexit') is 0, or
 * not known.
 */
static bool
row_ok(const double *row, int cexit)
{
	return cexit == -1 || !isfinite(row[cexit]) || row[cexit] == 0;
}

/*
 * The runs of 't' that did not complete, into 'fail' (room for a row
 * each) as cp->failed, each with its words (why_ORDER) if the
 * comparison kept them; and cp->complete, the pairs whose two runs
 * completed.  't' has the columns pair and side.
 */
static void
runs_of(const struct results_target *t, struct compare_page *cp,
    struct compare_failure *fail)
{
	bool		 ok[2][PAIRS_MAX];
	const double	*row;
	char		 key[32];
	size_t		 r, k;
	int		 cpair, cside, corder, cexit, s;

	cpair = results_col(t, "pair");
	cside = results_col(t, "side");
	corder = results_col(t, "order");
	cexit = results_col(t, "exit");
	memset(ok, 0, sizeof(ok));
	cp->failed = fail;
	for (r = 0; r < t->nrows; r++) {
		row = t->cell + r * t->ncols;
		if (!(row[cpair] >= 1 && row[cpair] <= cp->pairs))
			continue;
		k = (size_t)row[cpair] - 1;
		s = row[cside] == 0 ? 0 : 1;
		if (row_ok(row, cexit)) {
			ok[s][k] = true;
			continue;
		}
		fail[cp->nfailed].pair = (unsigned)k + 1;
		fail[cp->nfailed].side = s;
		fail[cp->nfailed].exit = (int)row[cexit];
		fail[cp->nfailed].why = NULL;
		if (corder != -1 && isfinite(row[corder])) {
			(void)snprintf(key, sizeof(key), "why_%.0f",
			    row[corder]);
			fail[cp->nfailed].why = results_meta(t, key);
		}
		cp->nfailed++;
	}
	for (k = 0; k < cp->pairs; k++)
		if (ok[0][k] && ok[1][k])
			cp->complete++;
}

/*
 * The phases of the comparison (the columns PHASE_ns, in order) and
 * their rows: each pair's times of A and B, as pairs_row() takes them,
 * of the runs that completed; and its runs, as runs_of() finds them
 * ('fail' has room for a row each).  Return 0, or -1 if the columns are
 * not a comparison's.
 */
static int
rows_of(const struct results_target *t, struct compare_page *cp,
    struct compare_failure *fail)
{
	double		 a[PAIRS_MAX], b[PAIRS_MAX], entries;
	const double	*row;
	enum phase	 p;
	char		 name[32];
	size_t		 i, len, r;
	int		 cpair, cside, cns, cexit;

	if ((cpair = results_col(t, "pair")) == -1 ||
	    (cside = results_col(t, "side")) == -1 || cp->pairs == 0 ||
	    cp->pairs > PAIRS_MAX)
		return -1;
	runs_of(t, cp, fail);
	cexit = results_col(t, "exit");
	for (i = 0; i < t->ncols && cp->nphases < PHASE_COUNT; i++) {
		len = strlen(t->col[i]);
		if (len <= 3 || strcmp(t->col[i] + len - 3, "_ns") != 0 ||
		    len - 3 >= sizeof(name))
			continue;
		(void)snprintf(name, sizeof(name), "%.*s", (int)(len - 3),
		    t->col[i]);
		if (phase_parse(name, &p) == -1)
			continue;
		cns = (int)i;
		for (r = 0; r < cp->pairs; r++)
			a[r] = b[r] = NAN;
		for (r = 0; r < t->nrows; r++) {
			row = t->cell + r * t->ncols;
			if (!(row[cpair] >= 1 && row[cpair] <= cp->pairs) ||
			    !row_ok(row, cexit))
				continue;
			/*
			 * Two plain stores: GCC 12's object-size check takes
			 * (c ? a : b)[i] for a store past a single double.
			 */
			if (row[cside] == 0)
				a[(size_t)row[cpair] - 1] = row[cns];
			else
				b[(size_t)row[cpair] - 1] = row[cns];
		}
		entries = p == PHASE_MKDIR ? (double)cp->dirs :
		    p == PHASE_DELETE ? (double)(cp->n + cp->dirs) :
		    (double)cp->n;
		cp->phase[cp->nphases] = phase_name(p);
		cp->has[cp->nphases] = pairs_row(a, b, cp->pairs, entries,
		    &cp->row[cp->nphases]) == 0;
		cp->nphases++;
	}
	return cp->nphases > 0 ? 0 : -1;
}

/*
 * Write cp->dir/index.html and index.de.html.  Return 0, or -1 with errno
 * and a one-line message in 'err' (LD_ERRLEN bytes).
 */
int
compare_page_write(const struct compare_page *cp, char *err)
{
	struct page_arg	pa = { cp, HTML_EN, -1 };
	char		msg[LD_ERRLEN];
	int		rc = 0;

	if ((pa.dirfd = open(cp->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) ==
	    -1)
		return util_fail(err, errno, "%s: %s", cp->dir,
		    strerror(errno));
	if (output_write_file(pa.dirfd, "index.html", print_page, &pa, NULL,
	    msg) == -1)
		rc = util_fail(err, errno, "%s: %.200s", cp->dir, msg);
	pa.lang = HTML_DE;
	if (rc == 0 && output_write_file(pa.dirfd, "index.de.html",
	    print_page, &pa, NULL, msg) == -1)
		rc = util_fail(err, errno, "%s: %.200s", cp->dir, msg);
	(void)close(pa.dirfd);
	return rc;
}

/*
 * A change of 'pct' per cent as the text writes it: a sign, one decimal
 * always, the minus a minus: "+1.0 %", "\u221213.0 %" (German "+1,0 %").
 */
static void
put_pct(FILE *fp, double pct, enum html_lang lang)
{
	char	buf[64], *dot;

	if (!isfinite(pct)) {
		html_put(fp, HTML_DASH);
		return;
	}
	(void)snprintf(buf, sizeof(buf), "%.1f", fabs(pct));
	if (lang == HTML_DE && (dot = strchr(buf, '.')) != NULL)
		*dot = ',';
	html_put(fp, "%s%s %%", strcmp(buf, "0.0") == 0 ||
	    strcmp(buf, "0,0") == 0 ? "" : pct < 0 ? "\u2212" : "+", buf);
}
