/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * fake: an in-memory backend for the unit tests only.  It keeps work
 * directories, round directories and names in memory, counts every
 * operation under its own name (counters()), and lets a test make an
 * operation fail, list in another order, or take the work directory
 * away.  It has an option of its own, --fake-batch (entries per readdir
 * call), as a network backend has its buffer sizes: a run's setting
 * wins over the 'batch' knob.  With the 'window' knob above 1 it lets a
 * phase's operations overlap as the NFS backend does with --nfs-window:
 * an operation that fails then takes effect as one that was never done,
 * but its failure comes back only window - 1 operations later (those
 * take effect), or at the end of the phase.  It passes the same
 * conformance tests as posix (test_backend.c), so what the round tests
 * (test_round.c) learn through it holds for the real thing.
 */

#ifndef LD_TEST_FAKE_H
#define LD_TEST_FAKE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "backend/backend.h"

/* What a test can change; fake_reset() puts the defaults back. */
struct fake_knobs {
	long	fail_after;	/* creates left before failing; -1: never */
	int	fail_errno;	/* ... with this errno */
	long	unlink_fail_after;	/* the same for unlinks */
	unsigned window;	/* > 1: a phase's operations overlap */
	size_t	batch;		/* entries per readdir call (7) */
	bool	reverse;	/* list newest first */
	bool	swap_mark;	/* reacquire() finds a mark not ours */
	/* Listings that go wrong, as some NFS clients' did: */
	size_t	repeat_after;	/* after this many entries (0: never), */
	size_t	repeat_back;	/* go back this many, once a listing */
	long	skip_slot;	/* never list this name's slot; -1: none */
	bool	cycle;		/* start again at the end, for ever */
	long	eloop_after;	/* readdir calls before ELOOP (the
				   backend saw a cookie twice); -1 */
	uint64_t open_ns;	/* each open+close takes this long */
};

/* Its own options (--fake-batch), as config.c parses them. */
struct fake_settings {
	unsigned	batch;		/* entries per readdir call */
};

extern struct fake_knobs	fake_knobs;
extern const struct backend_ops	fake_ops;

void	fake_reset(void);
size_t	fake_workdirs(const char *);
int	fake_plant(struct backend *, const char *, const char *);
void	fake_vanish(struct backend *);

#endif /* LD_TEST_FAKE_H */
