/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * out_csv: the <label>.csv file, the rows table as RFC 4180 CSV.
 *
 * One header line with the column names, then one line per row, every
 * line ended by CRLF as the RFC asks.  A field is quoted only when it
 * holds a comma, a double quote, CR or LF, and quotes inside it are
 * doubled.  A missing value is an empty field.  CSV has no comments, so
 * the metadata lives in the .out and .json files only; the column names
 * are the same in all three.
 */

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "record/output.h"

static void	put_field(FILE *, const char *);
static void	put_cell(FILE *, const struct output_col *, double);

/*
 * Print the rows table of 'doc' to 'fp' as CSV; a table without columns
 * prints nothing.  Return 0, or -1 with errno if 'fp' reports an error.
 * 'fp' stays open.
 */
int
out_csv_write(FILE *fp, const struct output_doc *doc)
{
	errno = 0;
	output_put_table(fp, &doc->rows, ',', "\r\n", put_field, put_cell);
	return output_finish(fp);
}

/* Print the text field 's', quoted if it needs to be. */
static void
put_field(FILE *fp, const char *s)
{
	if (strpbrk(s, ",\"\r\n") == NULL) {
		(void)fputs(s, fp);
		return;
	}
	(void)putc('"', fp);
	for (; *s != '\0'; s++) {
		if (*s == '"')
			(void)putc('"', fp);
		(void)putc(*s, fp);
	}
	(void)putc('"', fp);
}

/*
 * Print the cell 'v' of column 'col': nothing if it is missing (or not
 * finite), else with the column's precision.  A negative zero prints as 0.
 */
static void
put_cell(FILE *fp, const struct output_col *col, double v)
{
	if (isfinite(v))
		(void)fprintf(fp, "%.*f", col->prec < 0 ? 0 : col->prec,
		    v == 0 ? 0.0 : v);
}
