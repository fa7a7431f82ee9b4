/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * out_dat: the <label>.out file, the classic raw data gnuplot reads.
 *
 * The file starts with metadata lines "# key: value" (gnuplot skips them
 * as comments): largedir, format and status; if the run has a stop
 * reason, stop_reason, stop_errno (the symbolic name, or the number if
 * the C library has none; left out if 0), stop_n and stop_phase (left out
 * if NULL); then the environment and the settings ("# config.key:
 * value"), each in the order it was set.  Then comes one uncommented
 * header line with the column names, which gnuplot uses with
 * "columnheader" so scripts can address columns by name, and one line
 * per row.  Fields are separated by single spaces and a missing
 * value is written NaN, which gnuplot treats as undefined.
 *
 * Keys and values are escaped C-style (\n, \r, \t, \\, \xNN for the other
 * control characters), so every metadata item stays on one line.  Bytes
 * from 0x80 up are copied as they are, so UTF-8 text stays readable.
 */

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "record/output.h"

static void	put_escaped(FILE *, const char *);
static void	put_meta(FILE *, const char *, const char *, const char *);
static void	put_cell(FILE *, const struct output_col *, double);
static void	put_name(FILE *, const char *);

/*
 * Print the document 'doc' to 'fp' in the .out format described above.
 * Return 0, or -1 with errno if 'fp' reports an error.  'fp' stays open.
 */
int
out_dat_write(FILE *fp, const struct output_doc *doc)
{
	const char			*name;
	size_t				 i;

	errno = 0;
	put_meta(fp, "", "largedir",
	    doc->largedir == NULL ? "" : doc->largedir);
	(void)fprintf(fp, "# format: %d\n", OUTPUT_FORMAT);
	put_meta(fp, "", "status", output_status_name(doc->status));
	if (doc->stop_reason != NULL) {
		put_meta(fp, "", "stop_reason", doc->stop_reason);
		if (doc->stop_errno != 0) {
			if ((name = strerrorname_np(doc->stop_errno)) != NULL)
				(void)fprintf(fp, "# stop_errno: %s\n", name);
			else
				(void)fprintf(fp, "# stop_errno: %d\n",
				    doc->stop_errno);
		}
		(void)fprintf(fp, "# stop_n: %" PRIu64 "\n", doc->stop_n);
		if (doc->stop_phase != NULL)
			put_meta(fp, "", "stop_phase", doc->stop_phase);
	}
	for (i = 0; i < doc->meta.len; i++)
		put_meta(fp, "", doc->meta.kv[i].key, doc->meta.kv[i].value);
	for (i = 0; i < doc->config.len; i++)
		put_meta(fp, "config.", doc->config.kv[i].key,
		    doc->config.kv[i].value);

	output_put_table(fp, &doc->rows, ' ', "\n", put_name, put_cell);
	return output_finish(fp);
}

/* Print a column name as it is: names are snake_case. */
static void
put_name(FILE *fp, const char *s)
{
	(void)fputs(s, fp);
}

/* Print the line "# <prefix><key>: <value>" with both parts escaped. */
static void
put_meta(FILE *fp, const char *prefix, const char *key, const char *value)
{
	(void)fputs("# ", fp);
	(void)fputs(prefix, fp);
	put_escaped(fp, key);
	(void)fputs(": ", fp);
	put_escaped(fp, value);
	(void)putc('\n', fp);
}

/* Print 's' with control characters and backslashes escaped C-style. */
static void
put_escaped(FILE *fp, const char *s)
{
	unsigned char	c;

	for (; *s != '\0'; s++) {
		c = (unsigned char)*s;
		if (c == '\\')
			(void)fputs("\\\\", fp);
		else if (c == '\n')
			(void)fputs("\\n", fp);
		else if (c == '\r')
			(void)fputs("\\r", fp);
		else if (c == '\t')
			(void)fputs("\\t", fp);
		else if (c < 0x20 || c == 0x7f)
			(void)fprintf(fp, "\\x%02x", c);
		else
			(void)putc(c, fp);
	}
}

/*
 * Print the cell 'v' of column 'col': NaN if it is missing (or not
 * finite), else with the column's precision.  A negative zero prints as 0.
 */
static void
put_cell(FILE *fp, const struct output_col *col, double v)
{
	if (!isfinite(v))
		(void)fputs("NaN", fp);
	else
		(void)fprintf(fp, "%.*f", col->prec < 0 ? 0 : col->prec,
		    v == 0 ? 0.0 : v);
}

/*
 * Print the per-round summary of 'doc' to 'fp', the <label>.summary file:
 * the median, smallest and largest rate of each phase over a round's
 * repetitions, one line per round, as whitespace-separated columns like
 * the .out file, so gnuplot can draw medians with min-max bars.  Return
 * 0, or -1 with errno if 'fp' reports an error.
 */
int
out_sum_write(FILE *fp, const struct output_doc *doc)
{
	errno = 0;
	(void)fprintf(fp, "# largedir: %s\n# format: %d\n# status: %s\n"
	    "# summary: per round, the median, smallest and largest rate of "
	    "each phase over its repetitions\n", doc->largedir != NULL ?
	    doc->largedir : "", OUTPUT_FORMAT,
	    output_status_name(doc->status));
	output_put_table(fp, &doc->summary, ' ', "\n", put_name, put_cell);
	return output_finish(fp);
}
