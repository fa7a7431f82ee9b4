/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * record: what a phase, a repetition and a round measured, as structs
 * with named fields, and the column tables that turn them into the rows
 * of the result document (output.h).
 *
 * Every column of the .out, .csv and .json files comes from one line of
 * a table here: { suffix, decimals, offset of the field }.  A phase's
 * columns are "PHASE_SUFFIX" for each phase that runs, in the order the
 * table gives, then one column per extra value the run named at its
 * start: the perf events (perf.c) and the backend's counters.  Adding a
 * column is one field in struct phase_rec and one line in its table.
 *
 * Fields are doubles: NAN is a value that could not be measured (a
 * cache counter the kernel does not have, the memory cgroup's peak when
 * no limit is set), which each writer spells its own way.
 */

#ifndef LD_RECORD_H
#define LD_RECORD_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/phase.h"
#include "base/stats.h"
#include "record/output.h"
#include "settings/config.h"

#define RECORD_MAX_EXTRA	160	/* events, counters and clients */
#define RECORD_LOST_SHARE	0.25	/* of a phase's time, unexplained */
#define RECORD_SWITCH_NS	50e6	/* the wait one switch explains */

/* One phase of one repetition. */
struct phase_rec {
	double	ns;			/* elapsed, poll pauses left out */
	double	per_s;			/* files (entries) per second */
	double	ops;			/* timed operations */
	double	user_ns, sys_ns;	/* getrusage differences */
	double	vcsw, ivcsw;
	double	inblock, oublock;	/* 512-byte blocks */
	double	p50_ns, p90_ns, p99_ns, p999_ns, max_ns;  /* latencies */
	/* The caches at the start of the phase, machine-wide (cache.c). */
	double	dentries, dentries_unused, inodes;
	double	dentry_objs, inode_objs, mem_avail_kib;
	/* The target's block device during the phase. */
	double	sectors_read, sectors_written;
	double	cold_ns;		/* --cold before the phase */
	double	memcg_peak_kib;		/* --memory-limit: the peak */
	double	stopped;		/* 1: time went missing */
	double	loop;			/* entry of a readdir loop, or 0 */
	double	lost;			/* names a listing never saw */
	double	churn_made, churn_removed;	/* --churn meanwhile */
	double	extra[RECORD_MAX_EXTRA];	/* events, counters, clients */
};

/*
 * What measuring one phase gave, also across a process boundary (a
 * limited child hands it back through shared memory): no pointers.
 */
struct phase_out {
	int			done_ok;	/* a child got to the end */
	int			err;		/* errno if it failed, else 0 */
	char			what[128];	/* what it was doing then */
	uint64_t		done;		/* files (entries) handled */
	uint64_t		foreign;	/* entries not ours */
	uint64_t		deleted;	/* [0, deleted) are gone */
	uint64_t		loop_at, lost;	/* the listing check */
	char			odd[NAME_MAX + 1];
	struct phase_rec	rec;
};

/* One repetition: its own columns, then each phase's. */
struct rep_rec {
	double			round, rep, warmup, n;
	double			dirs;		/* the tree layout's */
	double			round_ns, sync_ns;
	double			load1_start, load1_end;
	struct phase_rec	phase[PHASE_COUNT];
};

/* One round over its repetitions: per phase the median, min and max. */
struct round_rec {
	double	round, n, dirs, reps;
	double	median[PHASE_COUNT], min[PHASE_COUNT], max[PHASE_COUNT];
};

void	record_describe(struct kvlist *);
void	record_describe_cold(struct kvlist *, enum config_cold);
void	record_phase_init(struct phase_rec *);
bool	record_lost_time(const struct phase_rec *);
void	record_columns(struct output_doc *, const enum phase *, size_t,
	    const char *const *, size_t);
void	record_rep(struct output_doc *, const struct rep_rec *,
	    const enum phase *, size_t, size_t);
void	record_round(struct output_doc *, const struct round_rec *,
	    const enum phase *, size_t);
int	record_knee(const struct output_table *, const char *, double,
	    struct stats_knee *);

#endif /* LD_RECORD_H */
