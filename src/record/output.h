/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * output: the run's results as one in-memory document, and the writers
 * that turn it into files.
 *
 * A document holds the metadata ("# key: value" lines), the settings, the
 * column names and one row per round and repetition, a per-round summary
 * (median and spread when rounds are repeated), and the run's status.
 * Every writer prints the whole document; output_flush() rewrites each
 * file under a temporary name and renames it into place, so a reader, a
 * crash or a kill -9 never meets a half-written file, and every file
 * stays valid after every round.
 *
 * Writers: out_dat.c (<label>.out, whitespace-separated for gnuplot, and
 * <label>.summary, the per-round medians and ranges, the same way),
 * out_csv.c (<label>.csv, RFC 4180), out_json.c (<label>.json, format 1).
 */

#ifndef LD_OUTPUT_H
#define LD_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/kv.h"

#define OUTPUT_FORMAT	1	/* bump when a column is renamed or removed */

/*
 * A column: its name (snake_case with the unit in it: "create_ns",
 * "create_per_s") and how its values print: 'prec' < 0 for an unsigned
 * integer, else a decimal with that many digits after the point.
 */
struct output_col {
	char	*name;
	int	 prec;
};

/* A table: columns and rows of numbers (row-major, ncols per row). */
struct output_table {
	struct output_col	*cols;
	size_t			 ncols;
	double			*cells;		/* nrows * ncols */
	size_t			 nrows;
	size_t			 cap;		/* rows allocated */
};

void	output_table_init(struct output_table *);
size_t	output_table_col(struct output_table *, const char *, int);
double	*output_table_row(struct output_table *);
void	output_table_free(struct output_table *);

/* How the run ended (JSON "status"; "# status:" in the .out file). */
enum output_status {
	OUTPUT_RUNNING,		/* still going: the file is a snapshot */
	OUTPUT_COMPLETE,	/* the budget or --max-files ended it */
	OUTPUT_STOPPED,		/* the filesystem stopped it (ENOSPC, ...) */
	OUTPUT_INTERRUPTED,	/* SIGINT or SIGTERM */
	OUTPUT_FAILED		/* an unexpected error */
};

struct output_doc {
	char			*largedir;	/* version string */
	struct kvlist	 meta;		/* environment, in order */
	struct kvlist	 config;	/* settings, in order */
	struct output_table	 rows;		/* one row per round and rep */
	struct output_table	 summary;	/* one row per round */
	enum output_status	 status;
	char			*stop_reason;	/* one line, or NULL */
	int			 stop_errno;	/* 0 if none */
	uint64_t		 stop_n;	/* n of the round it ended in */
	char			*stop_phase;	/* phase it ended in, or NULL */
};

const char	*output_status_name(enum output_status);
void		 output_doc_init(struct output_doc *);
void		 output_doc_free(struct output_doc *);

struct writer {
	const char	*name;			/* "out", "csv", "json" */
	const char	*ext;			/* file name extension */
	int		(*write)(FILE *, const struct output_doc *);
};

extern const struct writer	output_writers[];	/* NULL-terminated */

int	out_dat_write(FILE *, const struct output_doc *);
int	out_csv_write(FILE *, const struct output_doc *);
int	out_json_write(FILE *, const struct output_doc *);
int	out_sum_write(FILE *, const struct output_doc *);

/*
 * The file a writer last renamed into place, held open, so the next
 * write replaces that file and nothing another process put under its
 * name: while it is open its inode cannot be freed, so a file with the
 * same device and inode number is the same file.  Zeroed: nothing
 * written yet, and the name must not exist.
 */
struct output_id {
	bool	set;
	int	fd;		/* the file, open read-only */
};

#define OUTPUT_NWRITERS	4	/* entries of output_writers[] */

int	output_flush(int, const char *, const struct output_doc *,
	    struct output_id *, char *);
int	output_write_file(int, const char *, int (*)(FILE *, const void *),
	    const void *, struct output_id *, char *);
int	output_adopt(int, const char *, int, char *);
void	output_ids_close(struct output_id *, size_t);

/* For the writers. */
void	output_put_table(FILE *, const struct output_table *, int,
	    const char *, void (*)(FILE *, const char *),
	    void (*)(FILE *, const struct output_col *, double));
int	output_finish(FILE *);

#endif /* LD_OUTPUT_H */
