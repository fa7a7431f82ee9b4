/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * output: the in-memory result document and the atomic flush that turns
 * it into files.
 *
 * largedir.c fills one struct output_doc as the run goes: ordered
 * key/value lists for the environment and the settings, a table with one
 * row per round and repetition, and a summary table.  After every round
 * it calls output_flush(), which runs each writer of output_writers[]
 * into a temporary file in the run directory and renames it over the
 * final name.  rename(2) replaces a name in one step, so a reader, a crash
 * or a kill -9 only ever sees the previous complete file or the new one.
 *
 * Tables store doubles; NAN marks a missing cell, which each writer spells
 * its own way.  Columns are fixed before the first row is added, so a
 * row pointer is always ncols cells long.
 */

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "output.h"
#include "util.h"

/* What write_doc() needs: a writer and its document. */
struct flush_arg {
	const struct writer	*w;
	const struct output_doc	*doc;
};

static int	write_doc(FILE *, const void *);
static int	flush_one(int, const char *, const struct writer *,
		    const struct output_doc *, char *);

const struct writer output_writers[] = {
	{ "out", "out", out_dat_write },
	{ "csv", "csv", out_csv_write },
	{ "json", "json", out_json_write },
	{ "summary", "summary", out_sum_write },
	{ NULL, NULL, NULL }
};

/* ===== Key/value lists ===== */

/*
 * Set 'key' in 'list' to the printf-style 'fmt' and its arguments.  An
 * existing key keeps its place and gets the new value; a new key is
 * appended, so the list stays in the order keys were first set.  The list
 * owns copies of both strings.  A value vasprintf(3) cannot format (out
 * of memory, a bad wide character) is stored empty; xstrdup() dies if
 * memory is out.
 */
void
output_kv_set(struct output_kvlist *list, const char *key, const char *fmt,
    ...)
{
	va_list	 ap;
	char	*value;
	size_t	 i;
	int	 n;

	va_start(ap, fmt);
	n = vasprintf(&value, fmt, ap);
	va_end(ap);
	if (n == -1)
		value = xstrdup("");

	for (i = 0; i < list->len; i++) {
		if (strcmp(list->kv[i].key, key) == 0) {
			free(list->kv[i].value);
			list->kv[i].value = value;
			return;
		}
	}
	if (list->len == list->cap) {
		list->cap = list->cap == 0 ? 16 : list->cap * 2;
		list->kv = xreallocarray(list->kv, list->cap,
		    sizeof(list->kv[0]));
	}
	list->kv[list->len].key = xstrdup(key);
	list->kv[list->len].value = value;
	list->len++;
}

/*
 * Return the value of 'key' in 'list', or NULL if it is not set.  The
 * string belongs to the list and lives until the key is set again or the
 * list is freed.
 */
const char *
output_kv_get(const struct output_kvlist *list, const char *key)
{
	size_t	i;

	for (i = 0; i < list->len; i++)
		if (strcmp(list->kv[i].key, key) == 0)
			return list->kv[i].value;
	return NULL;
}

/* Free every key and value of 'list' and leave it empty and reusable. */
void
output_kv_free(struct output_kvlist *list)
{
	size_t	i;

	for (i = 0; i < list->len; i++) {
		free(list->kv[i].key);
		free(list->kv[i].value);
	}
	free(list->kv);
	memset(list, 0, sizeof(*list));
}

/* ===== Tables ===== */

/* Make 't' an empty table with no columns. */
void
output_table_init(struct output_table *t)
{
	memset(t, 0, sizeof(*t));
}

/*
 * Append a column 'name' that prints with 'prec' digits after the point
 * (< 0: as an integer) to 't' and return its index.  Columns can only be
 * added while 't' has no rows; otherwise nothing changes and SIZE_MAX is
 * returned with errno EINVAL.  The table keeps a copy of 'name'.
 */
size_t
output_table_col(struct output_table *t, const char *name, int prec)
{
	if (t->nrows != 0) {
		errno = EINVAL;
		return SIZE_MAX;
	}
	t->cols = xreallocarray(t->cols, t->ncols + 1, sizeof(t->cols[0]));
	t->cols[t->ncols].name = xstrdup(name);
	t->cols[t->ncols].prec = prec;
	return t->ncols++;
}

/*
 * Append a row to 't' with every cell NAN (missing) and return a pointer
 * to its ncols cells.  The pointer belongs to the table and is valid until
 * the next call to output_table_row() or output_table_free().
 */
double *
output_table_row(struct output_table *t)
{
	double	*row;
	size_t	 i;

	if (t->nrows == t->cap) {
		t->cap = t->cap == 0 ? 16 : t->cap * 2;
		t->cells = xreallocarray(t->cells, t->cap * t->ncols,
		    sizeof(t->cells[0]));
	}
	row = t->cells + t->nrows * t->ncols;
	for (i = 0; i < t->ncols; i++)
		row[i] = NAN;
	t->nrows++;
	return row;
}

/* Free the columns and cells of 't' and leave it empty. */
void
output_table_free(struct output_table *t)
{
	size_t	i;

	for (i = 0; i < t->ncols; i++)
		free(t->cols[i].name);
	free(t->cols);
	free(t->cells);
	output_table_init(t);
}

/* ===== Document ===== */

/*
 * Return the name of 'status' as the files spell it: "running",
 * "complete", "stopped", "interrupted" or "failed" ("unknown" for a value
 * outside the enum).  The string is static.
 */
const char *
output_status_name(enum output_status status)
{
	switch (status) {
	case OUTPUT_RUNNING:
		return "running";
	case OUTPUT_COMPLETE:
		return "complete";
	case OUTPUT_STOPPED:
		return "stopped";
	case OUTPUT_INTERRUPTED:
		return "interrupted";
	case OUTPUT_FAILED:
		return "failed";
	}
	return "unknown";
}

/*
 * Make 'doc' empty: no version, no metadata, no tables, status
 * OUTPUT_RUNNING.  The caller stores malloc'ed strings in 'largedir',
 * 'stop_reason' and 'stop_phase'; the document owns them from then on.
 */
void
output_doc_init(struct output_doc *doc)
{
	memset(doc, 0, sizeof(*doc));
	doc->largedir = NULL;
	doc->stop_reason = NULL;
	doc->stop_phase = NULL;
	doc->status = OUTPUT_RUNNING;
}

/*
 * Free everything 'doc' owns (strings, lists, tables) and leave it as
 * output_doc_init() does, so freeing twice is harmless.
 */
void
output_doc_free(struct output_doc *doc)
{
	free(doc->largedir);
	free(doc->stop_reason);
	free(doc->stop_phase);
	output_kv_free(&doc->meta);
	output_kv_free(&doc->config);
	output_table_free(&doc->rows);
	output_table_free(&doc->summary);
	output_doc_init(doc);
}

/* ===== Atomic flush ===== */

/*
 * Write 'doc' with every writer of output_writers[] to "<'label'>.<ext>"
 * in the directory 'dirfd'.  Each file is written as ".<label>.<ext>.tmp",
 * flushed, closed and renamed over the final name, so at any moment the
 * final name holds a complete file.  The data is not fsync'ed: this
 * guards against killed processes, not against power loss.
 *
 * Return 0.  On failure the temporary file is removed, 'err' (LD_ERRLEN
 * bytes) gets a one-line message naming the file, and -1 is returned
 * with errno from the failing call.  Files written by earlier writers in
 * the same call stay replaced.
 */
int
output_flush(int dirfd, const char *label, const struct output_doc *doc,
    char *err)
{
	const struct writer	*w;

	for (w = output_writers; w->name != NULL; w++)
		if (flush_one(dirfd, label, w, doc, err) == -1)
			return -1;
	return 0;
}

/* Adapt a writer to output_write_file(). */
static int
write_doc(FILE *fp, const void *arg)
{
	const struct flush_arg	*fa = arg;

	return fa->w->write(fp, fa->doc);
}

/* Write one file of output_flush(); see there. */
static int
flush_one(int dirfd, const char *label, const struct writer *w,
    const struct output_doc *doc, char *err)
{
	struct flush_arg	 fa = { w, doc };
	char			*final;
	int			 rc, saved;

	final = xasprintf("%s.%s", label, w->ext);
	rc = output_write_file(dirfd, final, write_doc, &fa, err);
	saved = errno;
	free(final);
	errno = saved;
	return rc;
}

/*
 * Write the file 'name' in directory 'dirfd' atomically: 'fn'(fp, 'arg')
 * prints it into ".<name>.tmp", which is flushed, closed and renamed over
 * 'name', so at any moment 'name' is either the old file or the complete
 * new one.  Return 0, or -1 with errno and a one-line message naming the
 * step and the file in 'err'; the temporary file is removed.
 */
int
output_write_file(int dirfd, const char *name, int (*fn)(FILE *,
    const void *), const void *arg, char *err)
{
	FILE		*fp;
	char		*tmp;
	const char	*what;
	int		 fd, saved;

	tmp = xasprintf(".%s.tmp", name);
	what = "open";
	fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
	    0644);
	if (fd == -1)
		goto fail;
	if ((fp = fdopen(fd, "w")) == NULL) {
		saved = errno;
		(void)close(fd);
		errno = saved;
		goto fail_unlink;
	}
	what = "write";
	errno = 0;
	if (fn(fp, arg) == -1 || fflush(fp) == EOF || ferror(fp)) {
		saved = errno == 0 ? EIO : errno;
		(void)fclose(fp);
		errno = saved;
		goto fail_unlink;
	}
	what = "close";
	if (fclose(fp) == EOF)
		goto fail_unlink;
	what = "rename";
	if (renameat(dirfd, tmp, dirfd, name) == -1)
		goto fail_unlink;
	free(tmp);
	return 0;

fail_unlink:
	saved = errno;
	(void)unlinkat(dirfd, tmp, 0);
	errno = saved;
fail:
	saved = errno;
	(void)snprintf(err, LD_ERRLEN, "%s %s: %s", what, name,
	    strerror(saved));
	free(tmp);
	errno = saved;
	return -1;
}

/*
 * For the writers: print table 't' to 'fp' as one line of column names,
 * each printed by 'name', then one line per row, each cell printed by
 * 'cell'; fields are separated by 'sep' and lines end with 'eol'.  A
 * table without columns prints nothing.
 */
void
output_put_table(FILE *fp, const struct output_table *t, int sep,
    const char *eol, void (*name)(FILE *, const char *),
    void (*cell)(FILE *, const struct output_col *, double))
{
	size_t	i, r;

	if (t->ncols == 0)
		return;
	for (i = 0; i < t->ncols; i++) {
		if (i != 0)
			(void)putc(sep, fp);
		name(fp, t->cols[i].name);
	}
	(void)fputs(eol, fp);
	for (r = 0; r < t->nrows; r++) {
		for (i = 0; i < t->ncols; i++) {
			if (i != 0)
				(void)putc(sep, fp);
			cell(fp, &t->cols[i], t->cells[r * t->ncols + i]);
		}
		(void)fputs(eol, fp);
	}
}

/*
 * For the writers, at the end: flush 'fp' and say whether everything
 * written to it arrived.  Return 0, or -1 with errno (EIO if the stream
 * set none).  The writers clear errno when they start.
 */
int
output_finish(FILE *fp)
{
	if (fflush(fp) == EOF || ferror(fp)) {
		if (errno == 0)
			errno = EIO;
		return -1;
	}
	return 0;
}
