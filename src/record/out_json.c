/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * out_json: the <label>.json file, the whole document as one JSON object
 * (format 1), written by hand.
 *
 * Keys come in a fixed order: "format", "largedir", "status", "stop"
 * (null, or why the run ended), "meta" and "config" (objects of strings,
 * in the order they were set), "columns" (the names of the rows table),
 * "rounds" (one object per row) and "summary" (one object per summary
 * row, with that table's own columns).  The object is indented by two
 * spaces, and each row object sits on one line.
 *
 * Strings are escaped per RFC 8259, and any byte that is not part of a
 * well-formed UTF-8 sequence becomes U+FFFD, so the file is valid JSON
 * whatever the environment strings hold.  Missing cells (NAN) and other
 * non-finite values are null; numbers print with the column's precision
 * in the "C" locale, which the caller sets.
 */

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/util.h"
#include "record/output.h"

static void	put_string(FILE *, const char *);
static void	put_stop(FILE *, const struct output_doc *);
static void	put_kvlist(FILE *, const char *, const struct kvlist *);
static void	put_rows(FILE *, const char *, const struct output_table *);
static void	put_cell(FILE *, const struct output_col *, double);

/*
 * Print the document 'doc' to 'fp' as one JSON object and a newline.
 * Return 0, or -1 with errno if 'fp' reports an error.  'fp' stays open.
 */
int
out_json_write(FILE *fp, const struct output_doc *doc)
{
	const struct output_table	*t = &doc->rows;
	size_t				 i;

	errno = 0;
	(void)fprintf(fp, "{\n  \"format\": %d,\n  \"largedir\": ",
	    OUTPUT_FORMAT);
	put_string(fp, doc->largedir == NULL ? "" : doc->largedir);
	(void)fputs(",\n  \"status\": ", fp);
	put_string(fp, output_status_name(doc->status));
	(void)fputs(",\n", fp);
	put_stop(fp, doc);
	put_kvlist(fp, "meta", &doc->meta);
	put_kvlist(fp, "config", &doc->config);
	(void)fputs("  \"columns\": [", fp);
	for (i = 0; i < t->ncols; i++) {
		if (i != 0)
			(void)fputs(", ", fp);
		put_string(fp, t->cols[i].name);
	}
	(void)fputs("],\n", fp);
	put_rows(fp, "rounds", &doc->rows);
	(void)fputs(",\n", fp);
	put_rows(fp, "summary", &doc->summary);
	(void)fputs("\n}\n", fp);

	return output_finish(fp);
}

/*
 * Print the "stop" member and the comma after it: null if the run has no
 * stop reason, else its reason, errno name (null if none; the number as
 * a string if the C library has no name for it), n and phase.
 */
static void
put_stop(FILE *fp, const struct output_doc *doc)
{
	const char	*name;

	if (doc->stop_reason == NULL) {
		(void)fputs("  \"stop\": null,\n", fp);
		return;
	}
	(void)fputs("  \"stop\": {\n    \"reason\": ", fp);
	put_string(fp, doc->stop_reason);
	(void)fputs(",\n    \"errno\": ", fp);
	if (doc->stop_errno == 0)
		(void)fputs("null", fp);
	else if ((name = strerrorname_np(doc->stop_errno)) != NULL)
		put_string(fp, name);
	else
		(void)fprintf(fp, "\"%d\"", doc->stop_errno);
	(void)fprintf(fp, ",\n    \"n\": %" PRIu64 ",\n    \"phase\": ",
	    doc->stop_n);
	if (doc->stop_phase == NULL)
		(void)fputs("null", fp);
	else
		put_string(fp, doc->stop_phase);
	(void)fputs("\n  },\n", fp);
}

/* Print the member 'name', an object of the strings of 'list', and ",". */
static void
put_kvlist(FILE *fp, const char *name, const struct kvlist *list)
{
	size_t	i;

	(void)fprintf(fp, "  \"%s\": {", name);
	for (i = 0; i < list->len; i++) {
		(void)fputs(i == 0 ? "\n    " : ",\n    ", fp);
		put_string(fp, list->kv[i].key);
		(void)fputs(": ", fp);
		put_string(fp, list->kv[i].value);
	}
	(void)fputs(list->len == 0 ? "},\n" : "\n  },\n", fp);
}

/* Print the member 'name', an array with one object per row of 't'. */
static void
put_rows(FILE *fp, const char *name, const struct output_table *t)
{
	size_t	i, r;

	(void)fprintf(fp, "  \"%s\": [", name);
	for (r = 0; r < t->nrows; r++) {
		(void)fputs(r == 0 ? "\n    {" : ",\n    {", fp);
		for (i = 0; i < t->ncols; i++) {
			if (i != 0)
				(void)fputs(", ", fp);
			put_string(fp, t->cols[i].name);
			(void)fputs(": ", fp);
			put_cell(fp, &t->cols[i], t->cells[r * t->ncols + i]);
		}
		(void)putc('}', fp);
	}
	(void)fputs(t->nrows == 0 ? "]" : "\n  ]", fp);
}

/*
 * Print the cell 'v' of column 'col': null if it is missing (or not
 * finite), else with the column's precision.  A negative zero prints as 0.
 */
static void
put_cell(FILE *fp, const struct output_col *col, double v)
{
	if (!isfinite(v))
		(void)fputs("null", fp);
	else
		(void)fprintf(fp, "%.*f", col->prec < 0 ? 0 : col->prec,
		    v == 0 ? 0.0 : v);
}

/*
 * Print 's' as a JSON string: quotes, backslashes and control characters
 * escaped, well-formed UTF-8 copied, every other byte replaced by U+FFFD.
 */
static void
put_string(FILE *fp, const char *s)
{
	const unsigned char	*p = (const unsigned char *)s;
	size_t			 n;

	(void)putc('"', fp);
	while (*p != '\0') {
		switch (*p) {
		case '"':
			(void)fputs("\\\"", fp);
			break;
		case '\\':
			(void)fputs("\\\\", fp);
			break;
		case '\b':
			(void)fputs("\\b", fp);
			break;
		case '\f':
			(void)fputs("\\f", fp);
			break;
		case '\n':
			(void)fputs("\\n", fp);
			break;
		case '\r':
			(void)fputs("\\r", fp);
			break;
		case '\t':
			(void)fputs("\\t", fp);
			break;
		default:
			if (*p < 0x20 || *p == 0x7f)
				(void)fprintf(fp, "\\u%04x", *p);
			else if ((n = util_utf8_len(p)) == 0)
				(void)fputs("\\ufffd", fp);
			else {
				(void)fwrite(p, 1, n, fp);
				p += n - 1;
			}
			break;
		}
		p++;
	}
	(void)putc('"', fp);
}
