/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * results: finished runs read back from their LABEL.out files (see
 * results.c): the page, the suite's table and later the knee use it.
 */

#ifndef LD_RESULTS_H
#define LD_RESULTS_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The procedures of NFS version 3 but NULL (RFC 1813, section 3.3), and
 * the NFSv4 operations a kernel client's mountstats adds, which a backend
 * that counts its calls records as PHASE_rpc_PROC columns.
 */
#define RESULTS_NPROC	34

struct results_meta {
	char	*key;
	char	*value;			/* with the .out escapes undone */
};

/* One target: LABEL.out as read. */
struct results_target {
	char			*label;	/* the file name without ".out" */
	struct results_meta	*meta;
	size_t			 nmeta;
	char			**col;	/* the header's column names */
	size_t			 ncols;
	double			*cell;	/* nrows rows of ncols cells */
	size_t			 nrows;
};

/* A results directory: its targets, sorted by label. */
struct results {
	struct results_target	*t;
	size_t			 nt;
};

int	results_read(struct results *, int, const char *, char *);
int	results_read_one(struct results_target *, int, const char *,
	    const char *, char *);
void	results_free(struct results *);
void	results_target_free(struct results_target *);
const char	*results_meta(const struct results_target *, const char *);
const char	*results_status(const struct results_target *);
int	results_col(const struct results_target *, const char *);
double	results_max_n(const struct results_target *);
double	results_knee_above(const struct results_target *, const char *,
	    double);
bool		 results_is_compare(const char *);
bool		 results_not_durable(const struct results_target *);
bool		 results_in_uml(const struct results_target *);
bool		 results_mixed_kernels(const struct results *);
void		 results_compare_side(const char *, char *, char *, size_t);
const char	*results_proc_name(size_t);
int	results_proc(const char *, const char *);
double	results_rate_at(const struct results_target *, const char *, double,
	    double *);
double	results_value_at(const struct results_target *, const char *,
	    double, double *);

#endif /* LD_RESULTS_H */
