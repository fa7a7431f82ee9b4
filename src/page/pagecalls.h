/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * pagecalls: the comparison page's table of calls to the server (see
 * pagecalls.c): what each phase of an NFS target asked of the server
 * per file, read back from the PHASE_rpc_* columns of its LABEL.out.
 */

#ifndef LD_PAGECALLS_H
#define LD_PAGECALLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "page/html.h"
#include "record/results.h"

/* The procedures of NFS version 3 but NULL (see results.h). */
#define PAGECALLS_NPROC	RESULTS_NPROC

/* One procedure's calls per file. */
struct pagecalls_proc {
	const char	*name;		/* upper case, as RFC 1813 spells it */
	double		 per_file;
};

/* What one phase of a target asked of the server at its largest n. */
struct pagecalls_phase {
	double			 n;	/* the largest n but of warm-ups */
	size_t			 nreps;	/* the rows averaged */
	double			 calls;	/* per file, all procedures */
	struct pagecalls_proc	 proc[PAGECALLS_NPROC];	/* largest first */
	size_t			 nproc;	/* those with calls */
	bool			 has_bytes;	/* the file counts bytes */
	double			 bytes_out;	/* per file; NAN without */
	double			 bytes_in;
	double			 rtt_us;	/* mean round trip per call */
};

int	pagecalls_phase(const struct results_target *, const char *,
	    struct pagecalls_phase *);
void	pagecalls_put(FILE *, const struct results *, enum html_lang);

#endif /* LD_PAGECALLS_H */
