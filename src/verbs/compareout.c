/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * compareout: see compareout.h.  A repetition's row holds its pair, its
 * place in the order, its side (0 for A, 1 for B), its files, each
 * phase's time and rate and its exit status; the summary holds for each
 * phase its pairs, the median times and rates, B against A in percent,
 * the spread and the verdict (0 faster, 1 slower, 2 within noise, 3 one
 * pair), all NAN for a phase no pair completed.
 */

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "engine/workload.h"
#include "gitid.h"	/* $(O)/gitid.h, from the Makefile */
#include "record/output.h"
#include "verbs/compareout.h"

/* A phase's summary columns, in the order the row fills them. */
static const struct {
	const char	*suffix;
	int		 prec;
} sum_cols[] = { { "pairs", -1 }, { "a_ns", -1 }, { "b_ns", -1 },
    { "a_per_s", 1 }, { "b_per_s", 1 }, { "pct", 2 },
    { "spread", 2 }, { "verdict", -1 } };

#define NSUM	(sizeof(sum_cols) / sizeof(sum_cols[0]))

static void	put_meta(struct output_doc *, const struct compare_run *,
		    const char *);
static void	put_cols(struct output_doc *, const struct compare_run *);
static void	put_rows(struct output_doc *, const struct compare_run *);
static void	put_summary(struct output_doc *, const struct compare_run *);

/*
 * What was compared and how, into the metadata of 'doc': version, the
 * command 'cmd', the sides, n, the pairs, the seed, how to read the
 * order and the verdict, and for each run that did not complete,
 * why_ORDER, its own words, if it had any.
 */
static void
put_meta(struct output_doc *doc, const struct compare_run *cm,
    const char *cmd)
{
	char		col[64];
	unsigned	r;

	kv_set(&doc->meta, "version", "%s", LD_VERSION);
	kv_set(&doc->meta, "git", "%s", LD_GIT);
	kv_set(&doc->meta, "command", "%s", cmd);
	kv_set(&doc->meta, "a", "%s (%s)", cm->side[0].label,
	    cm->side[0].arg);
	kv_set(&doc->meta, "b", "%s (%s)", cm->side[1].label,
	    cm->side[1].arg);
	kv_set(&doc->meta, "n", "%" PRIu64, cm->n);
	if (cm->dirs != 0)
		kv_set(&doc->meta, "dirs", "%" PRIu64 " (%" PRIu64
		    " files in each)", cm->dirs, cm->cfg.files_per_dir);
	if (compare_run_complete(cm) == cm->pairs)
		kv_set(&doc->meta, "pairs", "%u", cm->pairs);
	else
		kv_set(&doc->meta, "pairs", "%u (%u complete)",
		    cm->pairs, compare_run_complete(cm));
	kv_set(&doc->meta, "seed", "%s", cm->seed);
	kv_set(&doc->meta, "runs", "%s: a largedir run each, labelled "
	    "LABEL.PAIR, with its environment", cm->runs);
	kv_set(&doc->meta, "order", "A B, B A, A B, ...: side 0 is A, "
	    "1 is B");
	kv_set(&doc->meta, "verdict", "0 faster, 1 slower, 2 within "
	    "noise (the repetitions' times overlap), 3 one pair");
	for (r = 0; r < cm->nrun; r++)
		if (!compare_run_completed(cm, r) && cm->why[r] != NULL) {
			(void)snprintf(col, sizeof(col), "why_%u", r + 1);
			kv_set(&doc->meta, col, "%s", cm->why[r]);
		}
}

/* The columns of the rows and of the summary of 'doc'. */
static void
put_cols(struct output_doc *doc, const struct compare_run *cm)
{
	char		 col[64];
	const char	*pn;
	size_t		 i, j;

	(void)output_table_col(&doc->rows, "pair", -1);
	(void)output_table_col(&doc->rows, "order", -1);
	(void)output_table_col(&doc->rows, "side", -1);
	(void)output_table_col(&doc->rows, "n", -1);
	for (i = 0; i < cm->cfg.nphases; i++) {
		pn = phase_name(cm->cfg.phases[i]);
		(void)snprintf(col, sizeof(col), "%s_ns", pn);
		(void)output_table_col(&doc->rows, col, -1);
		(void)snprintf(col, sizeof(col), "%s_per_s", pn);
		(void)output_table_col(&doc->rows, col, 1);
	}
	(void)output_table_col(&doc->rows, "exit", -1);
	for (i = 0; i < cm->cfg.nphases; i++) {
		pn = phase_name(cm->cfg.phases[i]);
		for (j = 0; j < NSUM; j++) {
			(void)snprintf(col, sizeof(col), "%s_%s", pn,
			    sum_cols[j].suffix);
			(void)output_table_col(&doc->summary, col,
			    sum_cols[j].prec);
		}
	}
}

/* A row of 'doc' for every repetition of 'cm' that ran. */
static void
put_rows(struct output_doc *doc, const struct compare_run *cm)
{
	double		*v;
	size_t		 i, p, nc;
	unsigned	 r;

	for (r = 0; r < cm->nrun; r++) {
		v = output_table_row(&doc->rows);
		nc = 0;
		v[nc++] = r / 2 + 1;
		v[nc++] = r + 1;
		v[nc++] = pairs_side(r) == PAIRS_A ? 0 : 1;
		v[nc++] = (double)cm->n;
		for (i = 0; i < cm->cfg.nphases; i++) {
			p = cm->cfg.phases[i];
			v[nc++] = cm->ns[r * PHASE_COUNT + p];
			v[nc++] = compare_run_entries(cm, p) * 1e9 /
			    cm->ns[r * PHASE_COUNT + p];
		}
		v[nc++] = compare_run_exit(cm->ws[r]);
	}
}

/*
 * The summary row of 'doc': each phase's figures of its pairs_row(), and
 * its line of the table as metadata, compare_PHASE.
 */
static void
put_summary(struct output_doc *doc, const struct compare_run *cm)
{
	struct pairs_row	 row;
	double			*v;
	char			 col[64], line[160];
	const char		*pn;
	size_t			 i, j, p, nc = 0;

	v = output_table_row(&doc->summary);
	for (i = 0; i < cm->cfg.nphases; i++) {
		p = cm->cfg.phases[i];
		pn = phase_name(p);
		if (compare_run_row(cm, p, &row) == -1) {
			for (j = 0; j < NSUM; j++)
				v[nc++] = NAN;
			continue;
		}
		v[nc++] = (double)row.pairs;
		v[nc++] = row.a_ns;
		v[nc++] = row.b_ns;
		v[nc++] = row.a_per_s;
		v[nc++] = row.b_per_s;
		v[nc++] = row.pct;
		v[nc++] = row.spread;
		v[nc++] = row.verdict;
		pairs_format(line, sizeof(line), pn, &row);
		(void)snprintf(col, sizeof(col), "compare_%s", pn);
		kv_set(&doc->meta, col, "%s", line);
	}
}

/*
 * Write the outputs of comparison 'cm', whose command line was 'cmd',
 * into its directory cm->out (see compareout.h).  Return 0, or -1 with
 * errno set and a message in 'err' (LD_ERRLEN bytes).
 */
int
compare_out_write(const struct compare_run *cm, const char *cmd, char *err)
{
	struct output_doc	doc;
	struct output_id	ids[OUTPUT_NWRITERS];
	char			errbuf[LD_ERRLEN];
	int			fd, rc = 0, saved = 0;

	output_doc_init(&doc);
	memset(ids, 0, sizeof(ids));
	doc.largedir = xstrdup(LD_VERSION);
	put_meta(&doc, cm, cmd);
	put_cols(&doc, cm);
	put_rows(&doc, cm);
	put_summary(&doc, cm);
	doc.status = compare_run_outcome(cm);
	if ((fd = open(cm->out, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1 ||
	    output_flush(fd, "compare", &doc, ids, errbuf) == -1) {
		saved = errno;
		(void)snprintf(err, LD_ERRLEN, "%s", fd == -1 ?
		    strerror(saved) : errbuf);
		rc = -1;
	}
	if (fd != -1)
		(void)close(fd);
	output_ids_close(ids, OUTPUT_NWRITERS);
	output_doc_free(&doc);
	errno = saved;
	return rc;
}
