/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * pagetable: the RPC table of "largedir table" on the comparison page,
 * in English and German (rpctab.c builds its blocks, table.c prints
 * them as text).  page.c calls pagetable_put() after the table of calls
 * to the server (pagecalls.c).
 * It prints nothing unless some target counted the calls of a listing
 * phase, so the pages of local filesystems stay as they were, byte for
 * byte.
 *
 * The blocks of the text become one HTML table: a header row of the
 * targets, then per block a heading row across the table and its rows,
 * so the columns line up from one block to the next.  To keep the page
 * short it shows only the n nearest each power of ten (100, 1,000,
 * ...; rpctab_build() with 'decades'), and the largest n if none is
 * near one; largedir table prints every n.
 */

#include <math.h>
#include <stdio.h>

#include "page/html.h"
#include "page/pagetable.h"
#include "record/results.h"
#include "record/rpctab.h"

static void	put_cell(FILE *, double, size_t, enum html_lang);

/*
 * Print the RPC table of the targets of 'r' in 'lang' with a heading
 * and a paragraph under it that says how to read it; nothing at all if
 * no target counted the calls of a listing phase.
 */
void
pagetable_put(FILE *fp, const struct results *r, enum html_lang lang)
{
	const struct rpctab_block	*b;
	struct rpctab_want		 want = { 0, NULL, 0, true };
	struct rpctab			 t;
	size_t				 i, k, row;

	if (!rpctab_has_calls(r))
		return;
	rpctab_build(&t, r, &want);
	if (t.nb == 0) {
		rpctab_free(&t);
		return;
	}
	html_put(fp, "<h2>%s</h2>\n<div class=\"wide\"><table>\n<tr><th>"
	    "</th>", html_tr(lang, "Calls and times per listing",
	    "Aufrufe und Zeiten je Auflistung"));
	for (i = 0; i < r->nt; i++)
		html_esc(fp, "<th>", r->t[i].label, "</th>");
	html_put(fp, "</tr>\n");
	for (k = 0; k < t.nb; k++) {
		b = &t.b[k];
		html_put(fp, "<tr><th colspan=\"%zu\">%s (%s), n = ",
		    r->nt + 1, rpctab_phase_cmd(b->phase),
		    rpctab_phase_name(b->phase));
		html_num(fp, b->n, 0, lang);
		html_put(fp, "</th></tr>\n");
		for (row = 0; row < RPCTAB_NROWS; row++) {
			if (!b->show[row])
				continue;
			html_put(fp, "<tr><td>%s</td>", rpctab_row_name(row));
			for (i = 0; i < r->nt; i++)
				put_cell(fp, b->v[i * RPCTAB_NROWS + row], row,
				    lang);
			html_put(fp, "</tr>\n");
		}
	}
	html_put(fp, "</table></div>\n<p>%s</p>\n", html_tr(lang,
	    "One group of rows per listing phase (list as ls -f, liststat "
	    "as ls -lU, rmrf as rm -rf) and n, as the classic NFS readdir "
	    "investigations showed them: real is the time the listing took, "
	    "user and sys the CPU time largedir spent on it, each the median "
	    "over the repetitions of the round at that n; then the calls of "
	    "each NFS procedure some target made (the median over the same "
	    "repetitions), and loop and lost where a listing went round or "
	    "missed files (the largest over the repetitions). A dash ("
	    HTML_DASH ") means nothing was measured: the target has no round "
	    "at that n, or it counts no calls (a local filesystem). The "
	    "page shows the n nearest each power of ten; largedir table "
	    "prints every n, also as Markdown. The table of calls to the "
	    "server above divides the calls by the files at the largest n "
	    "and adds bytes and round trips; this one counts them per "
	    "listing, beside the times, so you can see both grow with n.",
	    "Eine Gruppe von Zeilen je Auflistungsphase (list wie ls -f, "
	    "liststat wie ls -lU, rmrf wie rm -rf) und n, wie sie die "
	    "klassischen Untersuchungen von NFS-READDIR zeigten: real ist die "
	    "Dauer der Auflistung, user und sys die Rechenzeit, die largedir "
	    "dafür brauchte, jeweils der Median über die Wiederholungen der "
	    "Runde bei diesem n; darunter die Aufrufe jeder NFS-Prozedur, die "
	    "ein Target benutzt hat (der Median über dieselben Wiederholungen), "
	    "und loop und lost, wo eine Auflistung im Kreis lief oder Dateien "
	    "übersah (der größte Wert der Wiederholungen). Ein Strich ("
	    HTML_DASH ") heißt, dass nichts gemessen wurde: Das Target hat "
	    "keine Runde bei diesem n, oder es zählt keine Aufrufe (ein "
	    "lokales Dateisystem). Die Seite zeigt das n, das jeder Zehnerpotenz am "
	    "nächsten liegt; largedir table gibt jedes n aus, auch als "
	    "Markdown. Die Tabelle der Aufrufe an den Server weiter oben "
	    "teilt die Aufrufe durch die Dateien beim größten n und nennt "
	    "Byte und Umlaufzeiten; diese zählt sie je Auflistung, neben den "
	    "Zeiten, damit man sieht, wie beide mit n wachsen."));
	rpctab_free(&t);
}

/* Print the cell of value 'v' of row 'row': a time, a count or a dash. */
static void
put_cell(FILE *fp, double v, size_t row, enum html_lang lang)
{
	const char	*unit;
	double		 x;
	int		 dec;

	html_put(fp, "<td class=\"num\">");
	if (row < RPCTAB_PROC && rpctab_time(v, &x, &dec, &unit)) {
		html_num(fp, x, dec, lang);
		html_put(fp, " %s", unit);
	} else
		html_num(fp, isfinite(v) ? floor(v + 0.5) : v, 0, lang);
	html_put(fp, "</td>");
}
