/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * pagecalls: the table "Calls to the server" of the comparison page.
 * page.c calls pagecalls_put() after its summary table.  It prints
 * nothing unless some target's LABEL.out has PHASE_rpc_* columns, which
 * only a backend that counts its calls writes (the NFS backend, see
 * nfsrpc.c), so the pages of local filesystems stay as they were.
 *
 * Each phase of such a target gets one row, taken from the rows of the
 * round with the largest n that is not a warm-up and averaged over its
 * repetitions: the calls per file, which procedures they were, the bytes
 * sent and received per file, and the mean round trip per call.  Counts
 * are per file rather than per phase because a phase does something to
 * each of its n files, so a number that grows with n shows a cost that
 * grows with the directory.
 *
 * The phases are found by their PHASE_rpc_rtt_ns column and come in the
 * order of the columns, which is the order the run ran them in.  A
 * procedure is a column PHASE_rpc_X whose X names an NFS procedure
 * (results_proc()): files of older versions lack some procedures
 * (PATHCONF) and the byte counts, so columns are never taken by their
 * position.
 */

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "page/html.h"
#include "page/pagecalls.h"
#include "record/results.h"

#define RPC	"_rpc_"
#define RTT	"_rpc_rtt_ns"
#define MAXPREC	12	/* decimals of the smallest count per file */

static double	largest_n(const struct results_target *);
static bool	next_phase(const struct results_target *, size_t *, char *,
		    size_t);
static size_t	count_phases(const struct results_target *, bool *);
static int	prec(double, int);
static void	put_head(FILE *, bool, enum html_lang);
static void	put_row(FILE *, const struct results_target *, size_t,
		    const char *, const struct pagecalls_phase *, bool,
		    enum html_lang);

/* ===== Reading the counts ===== */

/*
 * Fill 'ph' with what 'phase' of target 't' asked of the server: at the
 * largest n of the rows that are no warm-up, the mean over those rows
 * of the calls per file, of each procedure's calls per file (those with
 * calls only, most first; equal ones in the order of the columns), of
 * the bytes sent and received per file if the file has those columns,
 * and the round trips summed over all the rows divided by their calls,
 * which is the mean round trip of a call.  A row whose counts of the
 * phase are not numbers (the phase did not run) is left out.  Return 0,
 * or -1 with errno ENOENT if 't' has no PHASE_rpc_rtt_ns column or no
 * row to average; 'ph' is then zeroed but for NANs in its numbers.  The
 * names in 'ph' are static.
 */
int
pagecalls_phase(const struct results_target *t, const char *phase,
    struct pagecalls_phase *ph)
{
	const char	*name[PAGECALLS_NPROC];
	const double	*row;
	double		 sum[PAGECALLS_NPROC], calls = 0.0, rtt = 0.0;
	double		 out = 0.0, in = 0.0, v, files;
	char		 col[128];
	size_t		 len, np = 0, i, k, r;
	int		 cp[PAGECALLS_NPROC], cn, cw, crtt, cout, cin, p;

	memset(ph, 0, sizeof(*ph));
	ph->n = ph->calls = ph->bytes_out = ph->bytes_in = ph->rtt_us = NAN;
	len = strlen(phase);
	cn = results_col(t, "n");
	cw = results_col(t, "warmup");
	if (len + sizeof(RPC "bytes_out") > sizeof(col) || cn == -1) {
		errno = ENOENT;
		return -1;
	}
	(void)snprintf(col, sizeof(col), "%s" RTT, phase);
	crtt = results_col(t, col);
	(void)snprintf(col, sizeof(col), "%s" RPC "bytes_out", phase);
	cout = results_col(t, col);
	(void)snprintf(col, sizeof(col), "%s" RPC "bytes_in", phase);
	cin = results_col(t, col);
	for (i = 0; i < t->ncols && np < PAGECALLS_NPROC; i++)
		if ((p = results_proc(phase, t->col[i])) != -1) {
			name[np] = results_proc_name((size_t)p);
			cp[np++] = (int)i;
		}

	ph->n = largest_n(t);
	memset(sum, 0, sizeof(sum));
	for (r = 0; r < t->nrows && crtt != -1; r++) {
		row = t->cell + r * t->ncols;
		if ((cw != -1 && row[cw] > 0.0) || row[cn] != ph->n)
			continue;
		for (v = 0.0, k = 0; k < np; k++)
			v += row[cp[k]];
		if (!isfinite(v))
			continue;
		for (k = 0; k < np; k++)
			sum[k] += row[cp[k]];
		calls += v;
		rtt += row[crtt];
		out += cout != -1 ? row[cout] : 0.0;
		in += cin != -1 ? row[cin] : 0.0;
		ph->nreps++;
	}
	if (ph->nreps == 0 || !(ph->n > 0.0)) {
		ph->n = NAN;
		ph->nreps = 0;
		errno = ENOENT;
		return -1;
	}

	files = (double)ph->nreps * ph->n;
	ph->calls = calls / files;
	ph->rtt_us = calls > 0.0 ? rtt / calls / 1000.0 : NAN;
	ph->has_bytes = cout != -1 && cin != -1;
	if (ph->has_bytes) {
		ph->bytes_out = out / files;
		ph->bytes_in = in / files;
	}
	/* An insertion sort that keeps equal counts in column order. */
	for (k = 0; k < np; k++) {
		if (!(sum[k] > 0.0))
			continue;
		v = sum[k] / files;
		for (i = ph->nproc; i > 0 && ph->proc[i - 1].per_file < v; i--)
			ph->proc[i] = ph->proc[i - 1];
		ph->proc[i].name = name[k];
		ph->proc[i].per_file = v;
		ph->nproc++;
	}
	return 0;
}

/* The largest n of the rows of 't' that are no warm-up, or NAN. */
static double
largest_n(const struct results_target *t)
{
	double	n, best = NAN;
	size_t	r;
	int	cn, cw;

	if ((cn = results_col(t, "n")) == -1)
		return NAN;
	cw = results_col(t, "warmup");
	for (r = 0; r < t->nrows; r++) {
		if (cw != -1 && t->cell[r * t->ncols + (size_t)cw] > 0.0)
			continue;
		n = t->cell[r * t->ncols + (size_t)cn];
		if (isfinite(n) && (isnan(best) || n > best))
			best = n;
	}
	return best;
}

/*
 * Find the next phase of 't' that has calls counted: the first column
 * from index '*col' on that ends in RTT, whose phase name is put into
 * 'buf' ('size' bytes).  '*col' is moved past it.  Return false when
 * there is none left.  A name too long for 'buf' is skipped.
 */
static bool
next_phase(const struct results_target *t, size_t *col, char *buf,
    size_t size)
{
	const char	*s;
	size_t		 len;

	for (; *col < t->ncols; (*col)++) {
		s = t->col[*col];
		len = strlen(s);
		if (len <= strlen(RTT) || strcmp(s + len - strlen(RTT),
		    RTT) != 0 || len - strlen(RTT) >= size)
			continue;
		(void)snprintf(buf, size, "%.*s", (int)(len - strlen(RTT)), s);
		(*col)++;
		return true;
	}
	return false;
}

/*
 * The number of phases of 't' that get a row.  Unless 'bytes' is NULL,
 * '*bytes' is set if one of them has byte counts and left alone
 * otherwise.
 */
static size_t
count_phases(const struct results_target *t, bool *bytes)
{
	struct pagecalls_phase	ph;
	char			phase[64];
	size_t			c = 0, n = 0;

	while (next_phase(t, &c, phase, sizeof(phase)))
		if (pagecalls_phase(t, phase, &ph) == 0) {
			n++;
			if (bytes != NULL && ph.has_bytes)
				*bytes = true;
		}
	return n;
}

/* ===== Printing the table ===== */

/*
 * Print the table "Calls to the server" of the targets of 'r' that
 * counted their calls, in 'lang', with a sentence under it that says
 * what it shows; the columns of bytes only if some target counted them.
 * Print nothing at all if no target has a phase to show.
 */
void
pagecalls_put(FILE *fp, const struct results *r, enum html_lang lang)
{
	const struct results_target	*t;
	struct pagecalls_phase		 ph;
	char				 phase[64];
	size_t				 i, c, span, rows = 0;
	bool				 bytes = false;

	for (i = 0; i < r->nt; i++)
		rows += count_phases(&r->t[i], &bytes);
	if (rows == 0)
		return;
	put_head(fp, bytes, lang);
	for (i = 0; i < r->nt; i++) {
		t = &r->t[i];
		span = count_phases(t, NULL);
		for (c = 0; next_phase(t, &c, phase, sizeof(phase)); )
			if (pagecalls_phase(t, phase, &ph) == 0) {
				put_row(fp, t, span, phase, &ph, bytes, lang);
				span = 0;
			}
	}
	html_put(fp, "</table></div>\n<p>%s</p>\n", html_tr(lang,
	    "Each row is one phase of an NFS target at the largest n it "
	    "reached outside warm-up rounds, averaged over the repetitions of "
	    "that round: the calls largedir sent to the server per file, "
	    "which procedures they were (named as in RFC 1813, the most "
	    "frequent first), the bytes it sent and received per file where "
	    "the run counted them, RPC headers and TCP record marks included, "
	    "and the mean time from sending a call to receiving its reply.",
	    "Jede Zeile ist eine Phase eines NFS-Targets beim größten n, das es "
	    "außerhalb der Aufwärmrunden erreicht hat, gemittelt über die "
	    "Wiederholungen dieser Runde: die Aufrufe, die largedir je Datei "
	    "an den Server geschickt hat, welche Prozeduren das waren "
	    "(benannt wie in RFC 1813, die häufigste zuerst), die je Datei "
	    "gesendeten und empfangenen Byte, wo der Lauf sie gezählt hat, "
	    "RPC-Header und TCP-Record-Marker eingerechnet, und die mittlere "
	    "Zeit vom Senden eines Aufrufs bis zum Eintreffen seiner "
	    "Antwort."));
}

/*
 * The decimals to print 'v' with: 'dec' from 1 up, else three
 * significant digits, so a procedure called once for many files still
 * shows as more than zero.
 */
static int
prec(double v, int dec)
{
	int	d;

	v = fabs(v);
	if (!isfinite(v) || v == 0.0 || v >= 1.0)
		return dec;
	d = 2 - (int)floor(log10(v));
	return d < MAXPREC ? d : MAXPREC;
}

/* Print the heading, the start of the table and its header row. */
static void
put_head(FILE *fp, bool bytes, enum html_lang lang)
{
	html_put(fp, "<h2>%s</h2>\n<div class=\"wide\"><table>\n<tr>"
	    "<th>%s</th><th>n</th><th>Phase</th><th>%s</th><th>%s</th>",
	    html_tr(lang, "Calls to the server", "Aufrufe an den Server"),
	    html_tr(lang, "Target", "Target"),
	    html_tr(lang, "Calls per file", "Aufrufe je Datei"),
	    html_tr(lang, "By procedure", "Nach Prozedur"));
	if (bytes)
		html_put(fp, "<th>%s</th><th>%s</th>",
		    html_tr(lang, "Bytes sent per file",
		    "Gesendete Byte je Datei"),
		    html_tr(lang, "Bytes received per file",
		    "Empfangene Byte je Datei"));
	html_put(fp, "<th>%s</th></tr>\n", html_tr(lang,
	    "Round trip per call (\u00b5s)", "Umlaufzeit je Aufruf (\u00b5s)"));
}

/*
 * Print the row of 'phase' of target 't', whose counts are 'ph'.  The
 * first row of a target ('span' > 0) starts with its label and n, which
 * span its 'span' rows; the others have 'span' 0.  'bytes' says whether
 * the table has the columns of bytes.
 */
static void
put_row(FILE *fp, const struct results_target *t, size_t span,
    const char *phase, const struct pagecalls_phase *ph, bool bytes,
    enum html_lang lang)
{
	char	rs[32] = "";
	size_t	k;

	html_put(fp, "<tr>");
	if (span > 0) {
		if (span > 1)
			(void)snprintf(rs, sizeof(rs), " rowspan=\"%zu\"",
			    span);
		html_put(fp, "<td%s>", rs);
		html_esc(fp, "", t->label, "");
		html_put(fp, "</td><td%s class=\"num\">", rs);
		html_num(fp, ph->n, 0, lang);
		html_put(fp, "</td>");
	}
	html_esc(fp, "<td>", phase, "</td><td class=\"num\">");
	html_num(fp, ph->calls, prec(ph->calls, 3), lang);
	html_put(fp, "</td><td>");
	for (k = 0; k < ph->nproc; k++) {
		html_put(fp, "%s%s ", k > 0 ? ", " : "", ph->proc[k].name);
		html_num(fp, ph->proc[k].per_file,
		    prec(ph->proc[k].per_file, 3), lang);
	}
	html_put(fp, "%s</td>", ph->nproc == 0 ? HTML_DASH : "");
	if (bytes) {
		html_put(fp, "<td class=\"num\">");
		html_num(fp, ph->bytes_out, prec(ph->bytes_out, 1), lang);
		html_put(fp, "</td><td class=\"num\">");
		html_num(fp, ph->bytes_in, prec(ph->bytes_in, 1), lang);
		html_put(fp, "</td>");
	}
	html_put(fp, "<td class=\"num\">");
	html_num(fp, ph->rtt_us, prec(ph->rtt_us, 1), lang);
	html_put(fp, "</td></tr>\n");
}
