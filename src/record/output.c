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

#include <sys/random.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/timing.h"
#include "base/util.h"
#include "record/output.h"

/* What write_doc() needs: a writer and its document. */
struct flush_arg {
	const struct writer	*w;
	const struct output_doc	*doc;
};

struct staged;
static int	write_doc(FILE *, const void *);
static int	stage(int, struct staged *, int (*)(FILE *, const void *),
		    const void *, const struct output_id *, char *);
static int	commit(int, struct staged *, struct output_id *, char *);
static void	discard(int, struct staged *);
static int	say(char *, const char *, const char *, int);
static int	may_replace(int, const char *, const struct output_id *);
static int	open_unique(int, const char *, char **);

const struct writer output_writers[] = {
	{ "out", "out", out_dat_write },
	{ "csv", "csv", out_csv_write },
	{ "json", "json", out_json_write },
	{ "summary", "summary", out_sum_write },
	{ NULL, NULL, NULL }
};
_Static_assert(sizeof(output_writers) / sizeof(output_writers[0]) ==
    OUTPUT_NWRITERS + 1, "OUTPUT_NWRITERS is the number of writers");

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
	kv_free(&doc->meta);
	kv_free(&doc->config);
	output_table_free(&doc->rows);
	output_table_free(&doc->summary);
	output_doc_init(doc);
}

/* ===== Atomic flush ===== */

/* A file written under a temporary name, not yet renamed into place. */
struct staged {
	char	*name;		/* the final name */
	char	*tmp;		/* the temporary one, or NULL */
	int	 keep;		/* the file, held open, or -1 */
};

/*
 * Write 'doc' with every writer of output_writers[] to "<'label'>.<ext>"
 * in the directory 'dirfd'.  All files are written first, each under a
 * temporary name (stage()), and only when all are complete are they
 * renamed into place, one after the other, and the directory fsync'ed: a
 * full filesystem or any other failure while writing leaves every file
 * as it was, so the files agree with each other.  (Only a rename that
 * fails, which takes an I/O error, or a kill -9 in the microseconds
 * between the renames, leaves some files a round ahead of the others.)
 * 'ids' holds one struct output_id per writer, in the order of
 * output_writers[]; zeroed before the first flush of a run, it records
 * the file each writer put in place, so a later flush replaces only that
 * file and never one another process put under its name.
 *
 * Return 0.  On failure 'err' (LD_ERRLEN bytes) gets a one-line message
 * naming the file, and -1 is returned with errno from the failing call.
 */
int
output_flush(int dirfd, const char *label, const struct output_doc *doc,
    struct output_id *ids, char *err)
{
	struct staged		 st[OUTPUT_NWRITERS];
	struct flush_arg	 fa;
	size_t			 i, k;
	int			 rc = 0, saved = 0;

	for (k = 0; k < OUTPUT_NWRITERS; k++) {
		fa.w = &output_writers[k];
		fa.doc = doc;
		st[k].name = xasprintf("%s.%s", label, fa.w->ext);
		if (stage(dirfd, &st[k], write_doc, &fa, &ids[k], err) == -1) {
			rc = -1;
			saved = errno;
			free(st[k].name);
			break;
		}
	}
	for (i = 0; i < k; i++) {
		if (rc == 0 && commit(dirfd, &st[i], &ids[i], err) == -1) {
			rc = -1;
			saved = errno;
		}
		discard(dirfd, &st[i]);
		free(st[i].name);
	}
	if (rc == 0 && fsync(dirfd) == -1) {
		saved = errno;
		rc = say(err, "fsync", label, saved);
	}
	errno = saved;
	return rc;
}

/* Adapt a writer to stage(). */
static int
write_doc(FILE *fp, const void *arg)
{
	const struct flush_arg	*fa = arg;

	return fa->w->write(fp, fa->doc);
}

/*
 * Put the message for step 'what' on file 'name', which failed with
 * 'errnum', into 'err' (LD_ERRLEN bytes); return -1 with errno 'errnum'.
 */
static int
say(char *err, const char *what, const char *name, int errnum)
{
	if (errnum == EEXIST && strcmp(what, "replace") == 0)
		(void)snprintf(err, LD_ERRLEN, "%s exists and is not a file "
		    "largedir wrote: left in place", name);
	else
		(void)snprintf(err, LD_ERRLEN, "%s %s: %s", what, name,
		    strerror(errnum));
	errno = errnum;
	return -1;
}

/*
 * Whether the final name 'name' in 'dirfd' may be replaced, as 'id' says
 * (see output_write_file()).  Return 0 if it may (it does not exist, or
 * it is the file we wrote), else -1 with errno EEXIST, or the errno of
 * fstatat(2), or why we may not write in 'dirfd' (EACCES, EROFS), which
 * tells the user more than that the name is not ours.  Someone who swaps
 * the name between this check and the rename loses only the entry they
 * put there: rename(2) replaces a name and never writes through it.
 */
static int
may_replace(int dirfd, const char *name, const struct output_id *id)
{
	struct stat	sb, ours;

	if (fstatat(dirfd, name, &sb, AT_SYMLINK_NOFOLLOW) == -1)
		return errno == ENOENT ? 0 : -1;
	if (id != NULL && id->set) {
		if (S_ISREG(sb.st_mode) && fstat(id->fd, &ours) == 0 &&
		    ours.st_nlink > 0 && sb.st_dev == ours.st_dev &&
		    sb.st_ino == ours.st_ino)
			return 0;
	} else if (id == NULL && S_ISREG(sb.st_mode) &&
	    sb.st_uid == geteuid())
		return 0;
	/* Not ours; but if we may not write here at all, say that. */
	if (faccessat(dirfd, ".", W_OK, AT_EACCESS) == -1)
		return -1;
	errno = EEXIST;
	return -1;
}

/*
 * Create a new file ".<'name'>.XXXXXX" in 'dirfd' with a random suffix,
 * with O_EXCL and O_NOFOLLOW, so nothing that is already there (a link,
 * a FIFO, another process's temporary file) is ever opened.  Store the
 * name in 'tmp' (a new string) and return the descriptor, or -1 with
 * errno.
 */
static int
open_unique(int dirfd, const char *name, char **tmp)
{
	static const char	 chars[] = "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	uint64_t		 r;
	char			 suffix[7];
	int			 fd, tries, i;

	for (tries = 0; tries < 100; tries++) {
		if (getrandom(&r, sizeof(r), 0) != (ssize_t)sizeof(r))
			r = timing_now() ^
			    ((uint64_t)getpid() << 32) ^ (uint64_t)tries;
		for (i = 0; i < 6; i++, r /= sizeof(chars) - 1)
			suffix[i] = chars[r % (sizeof(chars) - 1)];
		suffix[6] = '\0';
		*tmp = xasprintf(".%s.%s", name, suffix);
		fd = openat(dirfd, *tmp, O_WRONLY | O_CREAT | O_EXCL |
		    O_NOFOLLOW | O_CLOEXEC, 0644);
		if (fd != -1 || errno != EEXIST)
			return fd;
		free(*tmp);
		*tmp = NULL;
	}
	errno = EEXIST;
	return -1;
}

/*
 * Write a new temporary file for 'st'->name in 'dirfd' (open_unique()):
 * 'fn'(fp, 'arg') prints it; it is flushed, fsync'ed and closed, and
 * held open in 'st'->keep.  'id' says what the final name may hold
 * (may_replace()); a name that may not be replaced fails before
 * anything is written.  Return 0, or -1 with errno and a message naming
 * the step and the file in 'err'; nothing is left behind.
 */
static int
stage(int dirfd, struct staged *st, int (*fn)(FILE *, const void *),
    const void *arg, const struct output_id *id, char *err)
{
	FILE		*fp;
	const char	*what;
	int		 fd, saved;

	st->tmp = NULL;
	st->keep = -1;
	what = "replace";
	if (may_replace(dirfd, st->name, id) == -1)
		goto fail;
	what = "open";
	if ((fd = open_unique(dirfd, st->name, &st->tmp)) == -1)
		goto fail;
	if ((fp = fdopen(fd, "w")) == NULL) {
		saved = errno;
		(void)close(fd);
		errno = saved;
		goto fail;
	}
	what = "write";
	errno = 0;
	if (fn(fp, arg) == -1 || fflush(fp) == EOF || ferror(fp)) {
		saved = errno == 0 ? EIO : errno;
		(void)fclose(fp);
		errno = saved;
		goto fail;
	}
	what = "fsync";
	if (fsync(fileno(fp)) == -1 || (st->keep = fcntl(fileno(fp),
	    F_DUPFD_CLOEXEC, 0)) == -1) {
		saved = errno;
		(void)fclose(fp);
		errno = saved;
		goto fail;
	}
	what = "close";
	if (fclose(fp) == EOF)
		goto fail;
	return 0;
fail:
	saved = errno;
	discard(dirfd, st);
	return say(err, what, st->name, saved);
}

/*
 * Rename the staged file 'st' over its final name, if that may still be
 * replaced, and let 'id' hold it (NULL: let go of it).  Return 0, or -1
 * with errno and a message in 'err'.
 */
static int
commit(int dirfd, struct staged *st, struct output_id *id, char *err)
{
	if (may_replace(dirfd, st->name, id) == -1)
		return say(err, "replace", st->name, errno);
	if (renameat(dirfd, st->tmp, dirfd, st->name) == -1)
		return say(err, "rename", st->name, errno);
	free(st->tmp);
	st->tmp = NULL;
	if (id != NULL) {
		if (id->set)
			(void)close(id->fd);
		id->fd = st->keep;
		id->set = true;
		st->keep = -1;
	}
	return 0;
}

/* Remove what is left of 'st': its temporary file, the held file. */
static void
discard(int dirfd, struct staged *st)
{
	if (st->tmp != NULL)
		(void)unlinkat(dirfd, st->tmp, 0);
	free(st->tmp);
	st->tmp = NULL;
	if (st->keep != -1)
		(void)close(st->keep);
	st->keep = -1;
}

/*
 * Write the file 'name' in directory 'dirfd' atomically and durably:
 * 'fn'(fp, 'arg') prints it into a new temporary file, which is
 * fsync'ed, closed and renamed over 'name', and then the directory is
 * fsync'ed; so at any moment, even after a power cut, 'name' is either
 * the old file or the complete new one.
 *
 * 'id' says what may be replaced.  With 'id' NULL, an existing 'name'
 * must be a regular file of the effective user (a page written before).
 * Otherwise 'id' holds the file this writer put in place last (zeroed:
 * none yet, so 'name' must not exist), 'name' must still be that file,
 * and 'id' then holds the new one (output_ids_close() lets go).
 * Anything else under 'name' (a symbolic link, a FIFO, a directory,
 * another user's file) is left alone and the write fails with EEXIST.
 *
 * Return 0, or -1 with errno and a one-line message naming the step and
 * the file in 'err'; the temporary file is removed.
 */
int
output_write_file(int dirfd, const char *name, int (*fn)(FILE *,
    const void *), const void *arg, struct output_id *id, char *err)
{
	struct staged	st;
	int		rc, saved;

	st.name = xstrdup(name);
	if ((rc = stage(dirfd, &st, fn, arg, id, err)) == 0 &&
	    (rc = commit(dirfd, &st, id, err)) == 0 && fsync(dirfd) == -1)
		rc = say(err, "fsync", name, errno);
	saved = errno;
	discard(dirfd, &st);
	free(st.name);
	errno = saved;
	return rc;
}

/* Close the files the 'n' ids hold and zero them. */
void
output_ids_close(struct output_id *ids, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		if (ids[i].set)
			(void)close(ids[i].fd);
		ids[i].set = false;
		ids[i].fd = -1;
	}
}

/*
 * Move the file 'name' from the directory 'fromfd' (a private directory
 * another program wrote into) to the same name in 'dirfd', replacing only
 * what output_write_file() with a NULL 'id' would replace, and fsync
 * 'dirfd'.  Return 0, or -1 with errno and a one-line message in 'err'.
 */
int
output_adopt(int fromfd, const char *name, int dirfd, char *err)
{
	const char	*what = "replace";

	if (may_replace(dirfd, name, NULL) == 0) {
		what = "rename";
		if (renameat(fromfd, name, dirfd, name) == 0) {
			what = "fsync";
			if (fsync(dirfd) == 0)
				return 0;
		}
	}
	return say(err, what, name, errno);
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
