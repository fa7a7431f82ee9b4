/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * test_round: rounds and the round loop on the in-memory backend
 * (tests/unit/fake.c) and a fake clock for the schedule.  What a round
 * writes into the result document (a row per repetition, a summary row,
 * the columns of the phases and of the backend's counters, with counts
 * that must match n), how it stops (ENOSPC in create, a signal, a
 * foreign name that keeps its directory) and what round_clean() then
 * removes, and round_loop() driving round after round as timing.c plans
 * them until --max-files or the budget ends the run.  Listings that go
 * wrong (a batch served twice, a name skipped, a listing that starts
 * again for ever, the backend's ELOOP) are found where they happen, the
 * round is still recorded and cleaned up, and round_loop() stops after
 * it.  The phases run at
 * memory speed, so only counts, names and order are asserted.
 */

#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "backend/backend.h"
#include "base/sig.h"
#include "base/timing.h"
#include "base/util.h"
#include "engine/round.h"
#include "fake.h"
#include "machine/perf.h"
#include "record/output.h"
#include "record/record.h"
#include "settings/config.h"
#include "target/target.h"

#define TARGET	"fake://round"

struct fixture {
	struct config		 cfg;
	struct backend		 be;
	struct target		 target;
	struct perf		 perf;
	struct output_doc	 doc;
	struct round		 r;
	/* what the callbacks saw */
	unsigned		 notes[ROUND_NOTE_KINDS];
	uint64_t		 note_count;
	unsigned		 planned, done;
	bool			 plant;		/* on_poll plants a name */
	enum phase		 stop_in;	/* on_poll_stop: a signal in */
	uint64_t		 stop_at;	/* this phase, after so many */
	/* the fake clock of the schedule */
	uint64_t		 now;
};

static struct fixture *fixture_of(const char *, const char *,
		    const char *, bool);

static void
on_poll(void *arg, enum phase p, uint64_t done)
{
	struct fixture	*f = arg;

	(void)done;
	if (f->plant && p == PHASE_CREATE) {
		f->plant = false;
		assert_int_equal(fake_plant(&f->be, f->r.dname, "zz-foreign"),
		    0);
	}
}

/* on_poll of a round stopped by a signal part way through a phase. */
static void
on_poll_stop(void *arg, enum phase p, uint64_t done)
{
	struct fixture	*f = arg;

	sig_poll = sig_tick = 1;	/* a tick at the next one too */
	if (p == f->stop_in && done == f->stop_at) {
		sig_count = 1;
		sig_first = 15;
	}
}

/*
 * on_poll of test_tree_foreign: polled after every directory mkdir makes,
 * it plants a file into the third once it is there.
 */
static void
on_poll_tree(void *arg, enum phase p, uint64_t done)
{
	struct fixture	*f = arg;
	char		 dir[96];

	sig_poll = sig_tick = f->plant;	/* a tick at the next one too */
	if (f->plant && p == PHASE_MKDIR && done >= 3) {
		f->plant = false;
		(void)snprintf(dir, sizeof(dir), "%s/d00000002", f->r.dname);
		assert_int_equal(fake_plant(&f->be, dir, "zz-foreign"), 0);
	}
}

static void
on_note(void *arg, const struct round_note *rn)
{
	struct fixture	*f = arg;

	f->notes[rn->kind]++;
	if (rn->kind == ROUND_NOTE_FOREIGN)
		f->note_count = rn->count;
}

static void
on_sweep(void *arg, const struct backend_report *r)
{
	(void)arg;
	assert_true(r->removed);
	assert_int_equal(r->files, 1);
}

/* The fake clock: each round takes 1 ms a file, so the budget decides. */
/* The fake sweeps what test_tree_foreign kept: a directory, a file. */
static void
on_sweep_kept(void *arg, const struct backend_report *r)
{
	(void)arg;
	assert_true(r->removed);
	assert_int_equal(r->files, 2);
}

static uint64_t
fake_now(void *arg)
{
	return *(uint64_t *)arg;
}

static void
on_planned(void *arg, const struct timing_round *plan)
{
	struct fixture	*f = arg;

	(void)plan;
	f->planned++;
}

static void
on_done(void *arg, const struct timing_round *plan,
    const struct round_result *res)
{
	struct fixture	*f = arg;

	assert_int_equal(plan->k, f->planned);
	assert_true(res->n <= plan->n);
	f->done++;
	f->now += res->n * 1000000ULL;
}

/* Set up a run of 'phases' on the fake backend, 'reps' repetitions. */
/*
 * A round of 'phases', 'reps' times, on the fake backend; with 'per_dir'
 * (not NULL) in the tree layout with so many files per directory.
 */
static struct fixture *
fixture_with(const char *phases, const char *reps, const char *per_dir)
{
	return fixture_of(phases, reps, per_dir, false);
}

/*
 * A round of 'phases', 'reps' times, on the fake backend; with 'per_dir'
 * (not NULL) in the tree layout with so many files per directory; with
 * 'mail', of a mailbox (--workload maildir; 'phases' NULL: all of its).
 */
static struct fixture *
fixture_of(const char *phases, const char *reps, const char *per_dir,
    bool mail)
{
	struct backend_opts	 opts = { .names = NAMES_FIXED,
				    .name_len = 8, .seed = 1,
				    .started = "2026-12-01T00:00:00Z" };
	struct fixture		*f;
	const char		*extra[RECORD_MAX_EXTRA];
	char			 err[LD_ERRLEN];
	size_t			 i, nc;

	fake_reset();
	sig_count = sig_first = 0;
	f = xcalloc(1, sizeof(*f));
	/*
	 * The schedule's fake clock starts at the real one's now: the
	 * phases meet the deadlines it plans on the real clock.
	 */
	f->now = timing_now();
	config_init(&f->cfg);
	if (phases != NULL)
		assert_int_equal(config_set(&f->cfg, "phases", phases, err),
		    0);
	if (mail) {
		assert_int_equal(config_set(&f->cfg, "workload", "maildir",
		    err), 0);
		assert_int_equal(config_set(&f->cfg, "file-size", "4k", err),
		    0);
		opts.names = NAMES_MAILDIR;
		opts.mailbox = true;
	}
	assert_int_equal(config_set(&f->cfg, "repeat", reps, err), 0);
	assert_int_equal(config_set(&f->cfg, "seed", "42", err), 0);
	if (per_dir != NULL) {
		assert_int_equal(config_set(&f->cfg, "layout", "tree", err),
		    0);
		assert_int_equal(config_set(&f->cfg, "files-per-dir", per_dir,
		    err), 0);
		opts.per_dir = f->cfg.files_per_dir;
	}
	assert_int_equal(config_check(&f->cfg, err), 0);
	assert_int_equal(backend_open(&f->be, &fake_ops, TARGET, &opts, err),
	    0);
	output_doc_init(&f->doc);
	nc = backend_ncounters(&fake_ops);
	for (i = 0; i < nc; i++)
		extra[i] = fake_ops.counter_names[i];
	record_columns(&f->doc, f->cfg.phases, f->cfg.nphases, extra, nc);
	round_init(&f->r);
	f->r.cfg = &f->cfg;
	f->r.be = &f->be;
	f->r.target = &f->target;
	f->r.perf = &f->perf;
	f->r.doc = &f->doc;
	/* Create's deadline (every round has one) is on the real clock. */
	f->r.end_ns = timing_budget_end(timing_now(), f->cfg.budget_ns);
	f->r.nperf = 0;
	f->r.ncounters = nc;
	f->r.inode_slab = "";
	f->r.on_poll = on_poll;
	f->r.note = on_note;
	f->r.planned = on_planned;
	f->r.done = on_done;
	f->r.arg = f;
	runner_init(&f->r.runner, NULL, NULL, NULL);
	return f;
}

static void
fixture_free(struct fixture *f)
{
	char	err[LD_ERRLEN];

	round_free(&f->r);
	assert_int_equal(backend_close(&f->be, false, err), 0);
	assert_int_equal(fake_workdirs(TARGET), 0);
	output_doc_free(&f->doc);
	config_free(&f->cfg);
	free(f);
	sig_count = sig_first = 0;
	sig_poll = sig_tick = 0;
}

/* The value of column 'name' in row 'row' of 't'. */
static double
cell(const struct output_table *t, size_t row, const char *name)
{
	size_t	i;

	for (i = 0; i < t->ncols; i++)
		if (strcmp(t->cols[i].name, name) == 0)
			return t->cells[row * t->ncols + i];
	fail_msg("no column %s", name);
	return NAN;
}

/* A round: its rows, its counts, and what the backend saw. */
static struct fixture *
fixture(const char *phases, const char *reps)
{
	return fixture_with(phases, reps, NULL);
}

static void
test_round_rows(void **state)
{
	struct fixture		*f;
	struct round_result	 res;
	size_t			 row;

	(void)state;
	f = fixture("create,open,list,liststat,delete", "3");
	assert_int_equal(round_run(&f->r, 1, 500, false, false, &res), 0);
	assert_false(f->r.in_round);
	assert_int_equal(res.n, 500);
	assert_int_equal(res.reps, 3);
	assert_int_equal(f->doc.rows.nrows, 3);
	assert_int_equal(f->doc.summary.nrows, 1);
	for (row = 0; row < 3; row++) {
		assert_true(cell(&f->doc.rows, row, "rep") == row + 1);
		assert_true(cell(&f->doc.rows, row, "n") == 500);
		assert_true(cell(&f->doc.rows, row, "warmup") == 0);
		assert_true(cell(&f->doc.rows, row, "create_ops") == 500);
		assert_true(cell(&f->doc.rows, row, "open_ops") == 500);
		assert_true(cell(&f->doc.rows, row, "delete_ops") == 500);
		assert_true(cell(&f->doc.rows, row, "liststat_ops") == 500);
		/* The backend's counters, per phase. */
		assert_true(cell(&f->doc.rows, row, "create_create") == 500);
		assert_true(cell(&f->doc.rows, row, "create_unlink") == 0);
		assert_true(cell(&f->doc.rows, row, "open_openclose") == 500);
		assert_true(cell(&f->doc.rows, row, "liststat_stat") == 500);
		assert_true(cell(&f->doc.rows, row, "list_readdir") ==
		    500 / 7 + 2);
		assert_true(cell(&f->doc.rows, row, "delete_unlink") == 500);
		assert_true(cell(&f->doc.rows, row, "create_per_s") > 0);
		assert_true(isnan(cell(&f->doc.rows, row,
		    "open_memcg_peak_kib")));
	}
	assert_true(cell(&f->doc.summary, 0, "reps") == 3);
	assert_true(res.median[PHASE_OPEN] > 0);
	assert_true(res.min[PHASE_OPEN] <= res.median[PHASE_OPEN]);
	assert_true(res.max[PHASE_OPEN] >= res.median[PHASE_OPEN]);
	assert_int_equal(f->notes[ROUND_NOTE_LOAD], 3);
	assert_int_equal(f->notes[ROUND_NOTE_SHORT_LIST], 0);
	/* A warm-up round: marked rows, no summary row. */
	assert_int_equal(round_run(&f->r, 2, 100, true, false, &res), 0);
	assert_int_equal(f->doc.rows.nrows, 6);
	assert_true(cell(&f->doc.rows, 5, "warmup") == 1);
	assert_int_equal(f->doc.summary.nrows, 1);
	fixture_free(f);
}

/*
 * The tree layout: 100 files, 7 a directory, make 15 directories (the
 * last holds 2); every phase calls the backend exactly once per file,
 * mkdir and delete once per directory too, and nothing is left (the
 * fake's close fails on a directory left).
 */
static void
test_tree_rows(void **state)
{
	struct fixture		*f;
	struct round_result	 res;
	size_t			 row;

	(void)state;
	f = fixture_with("create,open,list,liststat,delete", "2", "7");
	assert_int_equal(f->cfg.phases[0], PHASE_MKDIR);
	assert_int_equal(round_run(&f->r, 1, 100, false, false, &res), 0);
	assert_false(f->r.in_round);
	assert_int_equal(res.n, 100);
	assert_int_equal(res.dirs, 15);
	for (row = 0; row < 2; row++) {
		assert_true(cell(&f->doc.rows, row, "n") == 100);
		assert_true(cell(&f->doc.rows, row, "dirs") == 15);
		assert_true(cell(&f->doc.rows, row, "mkdir_ops") == 15);
		assert_true(cell(&f->doc.rows, row, "mkdir_mkdir") == 15);
		assert_true(cell(&f->doc.rows, row, "mkdir_create") == 0);
		assert_true(cell(&f->doc.rows, row, "create_create") == 100);
		assert_true(cell(&f->doc.rows, row, "create_mkdir") == 0);
		assert_true(cell(&f->doc.rows, row, "open_openclose") == 100);
		assert_true(cell(&f->doc.rows, row, "list_ops") >= 15);
		assert_true(cell(&f->doc.rows, row, "liststat_stat") == 100);
		assert_true(cell(&f->doc.rows, row, "liststat_ops") == 100);
		assert_true(cell(&f->doc.rows, row, "delete_unlink") == 100);
		assert_true(cell(&f->doc.rows, row, "delete_rmdir") == 15);
		assert_true(cell(&f->doc.rows, row, "delete_ops") == 115);
		assert_true(cell(&f->doc.rows, row, "mkdir_per_s") > 0);
	}
	assert_true(cell(&f->doc.summary, 0, "dirs") == 15);
	assert_int_equal(f->notes[ROUND_NOTE_SHORT_LIST], 0);
	assert_int_equal(f->notes[ROUND_NOTE_LOST], 0);
	fixture_free(f);
}

/*
 * ENOSPC in a tree's create (out of inodes): the stop says where, and
 * round_clean() removes the files and every directory.
 */
static void
test_tree_enospc(void **state)
{
	struct fixture		*f;
	struct round_result	 res;
	uint64_t		 removed;

	(void)state;
	f = fixture_with("create,delete", "1", "15");
	fake_knobs.fail_after = 40;
	fake_knobs.fail_errno = ENOSPC;
	assert_int_equal(round_run(&f->r, 1, 150, false, false, &res), -1);
	assert_int_equal(f->r.stop.err, ENOSPC);
	assert_string_equal(f->r.stop.phase, "create");
	assert_string_equal(f->r.stop.what, "after 40 of 150 files");
	assert_int_equal(f->r.w.dirs_made, 10);
	assert_int_equal(round_clean(&f->r, &removed), 0);
	assert_int_equal(removed, 40);
	assert_int_equal(f->r.w.dirs_removed, 10);
	assert_false(f->r.in_round);
	fixture_free(f);
}

/*
 * A foreign file in one of the tree's directories: delete removes the
 * rest and stops at that directory, and clean-up keeps the file and its
 * directory (removing what it can).
 */
static void
test_tree_foreign(void **state)
{
	struct fixture		*f;
	struct round_result	 res;
	uint64_t		 removed;
	char			 err[LD_ERRLEN];

	(void)state;
	f = fixture_with("create,delete", "1", "10");
	f->plant = true;
	sig_poll = sig_tick = 1;
	f->r.on_poll = on_poll_tree;
	assert_int_equal(round_run(&f->r, 1, 50, false, false, &res), -1);
	assert_int_equal(f->r.stop.err, ENOTEMPTY);
	assert_string_equal(f->r.stop.phase, "delete");
	assert_int_equal(f->r.w.dirs_removed, 2);
	assert_int_equal(round_clean(&f->r, &removed), -1);
	assert_int_equal(errno, ENOTEMPTY);
	assert_true(f->r.in_round);
	/* The rest went: only d00000002 and the foreign file are left. */
	assert_int_equal(f->r.w.deleted, 50);
	assert_int_equal(f->r.w.dirs_removed, 2);
	assert_non_null(f->r.w.sub[2]);
	assert_null(f->r.w.sub[3]);
	assert_null(f->r.w.sub[4]);
	/* What largedir does then: keep the work directory, marked. */
	(void)f->be.ops->rmdir(&f->be, f->r.w.sub[2], false);
	round_free(&f->r);
	assert_int_equal(backend_close(&f->be, true, err), 0);
	assert_int_equal(fake_workdirs(TARGET), 1);
	assert_int_equal(fake_ops.sweep(TARGET, on_sweep_kept, NULL, err), 1);
	output_doc_free(&f->doc);
	config_free(&f->cfg);
	free(f);
	sig_count = sig_first = 0;
	sig_poll = sig_tick = 0;
}

/*
 * A mailbox: every message goes through each phase once, by the
 * backend's Maildir operations (a rename each for move and for flag, a
 * stat each for scan), the listing finds them all, and the mailbox and
 * its directories are gone after (the fake's close fails otherwise).
 */
static void
test_maildir_rows(void **state)
{
	struct fixture		*f;
	struct round_result	 res;
	size_t			 row;

	(void)state;
	f = fixture_of(NULL, "2", NULL, true);
	assert_int_equal(f->cfg.nphases, 6);
	assert_int_equal(round_run(&f->r, 1, 300, false, false, &res), 0);
	assert_false(f->r.in_round);
	assert_int_equal(f->doc.rows.nrows, 2);
	for (row = 0; row < 2; row++) {
		assert_true(cell(&f->doc.rows, row, "deliver_ops") == 300);
		assert_true(cell(&f->doc.rows, row, "move_ops") == 300);
		assert_true(cell(&f->doc.rows, row, "flag_ops") == 300);
		assert_true(cell(&f->doc.rows, row, "scan_ops") == 300);
		assert_true(cell(&f->doc.rows, row, "read_ops") == 300);
		assert_true(cell(&f->doc.rows, row, "expunge_ops") == 300);
		assert_true(cell(&f->doc.rows, row, "deliver_deliver") ==
		    300);
		assert_true(cell(&f->doc.rows, row, "deliver_create") == 0);
		assert_true(cell(&f->doc.rows, row, "move_rename") == 300);
		assert_true(cell(&f->doc.rows, row, "flag_rename") == 300);
		assert_true(cell(&f->doc.rows, row, "scan_stat") == 300);
		/* new/ and cur/, each to its end: 300 / 7 + 1 + 2 calls. */
		/* new/ empty (1 call), cur/ to its end (300 / 7 + 2). */
		assert_true(cell(&f->doc.rows, row, "scan_readdir") ==
		    1 + 300 / 7 + 2);
		assert_true(cell(&f->doc.rows, row, "scan_loop") == 0);
		assert_true(cell(&f->doc.rows, row, "scan_lost") == 0);
		assert_true(cell(&f->doc.rows, row, "read_readfile") == 300);
		assert_true(cell(&f->doc.rows, row, "expunge_unlink") == 300);
		/* The mailbox: tmp/, new/, cur/, made and removed untimed. */
		assert_true(cell(&f->doc.rows, row, "deliver_mkdir") == 0);
	}
	assert_int_equal(f->notes[ROUND_NOTE_SHORT_LIST], 0);
	fixture_free(f);
}

/*
 * A mailbox whose flag phase a signal stops part way: its messages are
 * then in new/ and in cur/, and round_clean() removes each where it is,
 * and the mailbox.
 */
static void
test_maildir_signal(void **state)
{
	struct fixture		*f;
	struct round_result	 res;
	uint64_t		 removed;

	(void)state;
	f = fixture_of("deliver,flag,read", "1", NULL, true);
	f->stop_in = PHASE_FLAG;
	f->stop_at = 40;
	f->r.on_poll = on_poll_stop;
	sig_poll = sig_tick = 1;
	assert_int_equal(round_run(&f->r, 1, 100, false, false, &res), -1);
	assert_int_equal(f->r.stop.err, EINTR);
	assert_string_equal(f->r.stop.phase, "flag");
	assert_true(f->r.w.mixed);
	sig_count = 0;
	sig_poll = sig_tick = 0;
	assert_int_equal(round_clean(&f->r, &removed), 0);
	assert_int_equal(removed, 100);
	assert_false(f->r.in_round);
	fixture_free(f);
}

/* ENOSPC in a delivery: the stop says where; round_clean() the rest. */
static void
test_maildir_enospc(void **state)
{
	struct fixture		*f;
	struct round_result	 res;
	uint64_t		 removed;

	(void)state;
	f = fixture_of(NULL, "1", NULL, true);
	fake_knobs.fail_after = 40;
	fake_knobs.fail_errno = ENOSPC;
	assert_int_equal(round_run(&f->r, 1, 150, false, false, &res), -1);
	assert_int_equal(f->r.stop.err, ENOSPC);
	assert_string_equal(f->r.stop.phase, "deliver");
	assert_string_equal(f->r.stop.what, "after 40 of 150 files");
	assert_int_equal(round_clean(&f->r, &removed), 0);
	assert_int_equal(removed, 40);
	assert_false(f->r.in_round);
	fixture_free(f);
}

/* ENOSPC in create: the stop says where; round_clean() removes the rest. */
static void
test_round_enospc(void **state)
{
	struct fixture		*f;
	struct round_result	 res;
	uint64_t		 removed;

	(void)state;
	f = fixture("create,delete", "1");
	fake_knobs.fail_after = 300;
	fake_knobs.fail_errno = ENOSPC;
	assert_int_equal(round_run(&f->r, 1, 500, false, false, &res), -1);
	assert_int_equal(f->r.stop.err, ENOSPC);
	assert_string_equal(f->r.stop.phase, "create");
	assert_string_equal(f->r.stop.what, "after 300 of 500 files");
	assert_int_equal(f->r.stop.n, 500);
	assert_false(f->r.stop.vanished);
	assert_true(f->r.in_round);
	assert_int_equal(f->doc.rows.nrows, 0);
	assert_int_equal(round_clean(&f->r, &removed), 0);
	assert_int_equal(removed, 300);
	assert_false(f->r.in_round);
	fixture_free(f);
}

/* A signal before a phase stops the round with EINTR. */
static void
test_round_signal(void **state)
{
	struct fixture		*f;
	struct round_result	 res;
	uint64_t		 removed;

	(void)state;
	f = fixture("create,open,delete", "1");
	sig_count = 1;
	sig_first = 15;
	assert_int_equal(round_run(&f->r, 1, 50, false, false, &res), -1);
	assert_int_equal(f->r.stop.err, EINTR);
	assert_string_equal(f->r.stop.phase, "create");
	assert_string_equal(f->r.stop.what, "before the phase");
	assert_int_equal(round_clean(&f->r, &removed), 0);
	assert_int_equal(removed, 0);
	fixture_free(f);
}

/*
 * A foreign name planted during create: the listing sees one more, rm
 * -rf leaves it and says so, and the round directory it keeps stops the
 * round; round_clean() cannot remove the directory either.
 */
static void
test_round_foreign(void **state)
{
	struct fixture		*f;
	struct round_result	 res;
	uint64_t		 removed;
	char			 err[LD_ERRLEN];

	(void)state;
	f = fixture("create,list,rmrf", "1");
	f->plant = true;
	sig_poll = sig_tick = 1;
	assert_int_equal(round_run(&f->r, 1, 200, false, false, &res), -1);
	assert_int_equal(f->notes[ROUND_NOTE_SHORT_LIST], 1);
	assert_int_equal(f->notes[ROUND_NOTE_FOREIGN], 1);
	assert_int_equal(f->note_count, 1);
	assert_int_equal(f->r.stop.err, ENOTEMPTY);
	assert_string_equal(f->r.stop.phase, "round");
	assert_string_equal(f->r.stop.what, "removing the round directory");
	assert_int_equal(round_clean(&f->r, &removed), -1);
	assert_int_equal(errno, ENOTEMPTY);
	assert_int_equal(removed, 0);
	/* What largedir does then: keep the work directory, marked. */
	round_free(&f->r);
	assert_int_equal(backend_close(&f->be, true, err), 0);
	assert_int_equal(fake_workdirs(TARGET), 1);
	assert_int_equal(fake_ops.sweep(TARGET, on_sweep, NULL, err), 1);
	output_doc_free(&f->doc);
	config_free(&f->cfg);
	free(f);
	sig_poll = sig_tick = 0;
}

/* round_loop(): rounds grow to --max-files, one summary row each. */
static void
test_loop_max(void **state)
{
	struct timing_clock	 clock;
	struct timing_sched	 s;
	struct timing_round	 last;
	struct fixture		*f;
	uint64_t		 n = 100;
	size_t			 i;

	(void)state;
	f = fixture("create,open,delete", "1");
	clock.now = fake_now;
	clock.arg = &f->now;
	timing_sched_init(&s, &clock, f->now, 3600 * NS_PER_S, TIMING_PREDICT,
	    100, 600, 1.5, 1, 1);
	assert_int_equal(round_loop(&f->r, &s, &last), 0);
	assert_int_equal(last.end, TIMING_END_MAX);
	assert_int_equal(f->planned, 7);
	assert_int_equal(f->done, 7);
	/* One warm-up row first, at the first n; no summary row for it. */
	assert_int_equal(f->doc.rows.nrows, 7);
	assert_true(cell(&f->doc.rows, 0, "warmup") == 1);
	assert_true(cell(&f->doc.rows, 0, "n") == 100);
	assert_int_equal(f->doc.summary.nrows, 6);
	for (i = 0; i < 6; i++, n = timing_next_n(n, 1.5, 600)) {
		assert_true(cell(&f->doc.summary, i, "n") == n);
		assert_true(cell(&f->doc.summary, i, "round") == i + 2);
		assert_true(cell(&f->doc.rows, i + 1, "create_ops") == n);
	}
	assert_int_equal(n, 0);
	fixture_free(f);
}

/* round_loop(): the budget ends the run on the fake clock. */
static void
test_loop_budget(void **state)
{
	struct timing_clock	 clock;
	struct timing_sched	 s;
	struct timing_round	 last;
	struct fixture		*f;
	uint64_t		 t0;

	(void)state;
	f = fixture("create,delete", "1");
	clock.now = fake_now;
	clock.arg = &f->now;
	/* 1 ms a file: 10 s are about 10,000 files in all. */
	t0 = f->now;
	timing_sched_init(&s, &clock, t0, 10 * NS_PER_S, TIMING_CLASSIC, 1000,
	    UINT32_MAX, 1.5, 1, 0);
	assert_int_equal(round_loop(&f->r, &s, &last), 0);
	assert_int_equal(last.end, TIMING_END_BUDGET);
	/* 1000 + 1500 + 2250 + 3375 = 8125 ms, + 5062 passes 10 s. */
	assert_int_equal(f->done, 5);
	assert_true(f->now - t0 >= 10 * NS_PER_S);
	assert_int_equal(f->doc.summary.nrows, 5);
	fixture_free(f);
}

/*
 * A round of 4,000 files with a deadline whose budget ends 'left_ms'
 * after its start; each open takes 250 us (1 s in all), and in the
 * round before, what came after open took as long as open, so this
 * one's is predicted at 1 s.  Create had 90% of that round, so its
 * deadline leaves it time even where the fake is slow (ASan).  Return
 * the open phase's files.
 */
static double
boxed_round(struct fixture *f, uint64_t left_ms)
{
	struct round_result	res;
	const uint64_t		n = 4000, budget = 100 * NS_PER_S;

	fake_knobs.open_ns = 250000;
	timing_shape_add(&f->r.last, 2e9, 1.8e9, 0.1e9, 0.1e9);
	f->r.end_ns = timing_now() + left_ms * 1000000ULL;
	assert_int_equal(f->cfg.budget_ns, budget);
	assert_int_equal(round_run(&f->r, 2, n, false, true, &res), 0);
	assert_int_equal(res.n, n);
	assert_false(f->r.in_round);
	assert_true(cell(&f->doc.rows, 0, "delete_ops") == n);
	return cell(&f->doc.rows, 0, "open_ops");
}

/*
 * The open phase's time box: with 1.5 s left, open stops after about
 * half its files (at least TIMING_OPEN_MIN) so that the rest of the
 * round (1 s) ends in time; the rate is of the files it opened, and the
 * next round learns its cost per file from them.  With 30 s left, it
 * opens them all.
 */
static void
test_open_box(void **state)
{
	struct fixture	*f;
	double		 opened;
	char		 err[LD_ERRLEN];

	(void)state;
	f = fixture("create,open,delete", "1");
	assert_int_equal(config_set(&f->cfg, "budget", "100s", err), 0);
	opened = boxed_round(f, 1500);
	assert_true(opened >= TIMING_OPEN_MIN && opened < 4000);
	assert_int_equal((uint64_t)opened % WORKLOAD_BOX_EVERY, 0);
	assert_int_equal(f->notes[ROUND_NOTE_BOXED], 1);
	assert_true(cell(&f->doc.rows, 0, "open_per_s") < 4001);
	/*
	 * The next round learns what a whole open would have taken at its
	 * pace (1 s, not the half it took) against what came after.
	 */
	assert_int_equal(f->r.last.nratios, 2);
	assert_true(f->r.last.open_ns[1] >= 1e9);
	assert_true(f->r.last.after_ns[1] < 0.5e9);
	fixture_free(f);

	f = fixture("create,open,delete", "1");
	assert_int_equal(config_set(&f->cfg, "budget", "100s", err), 0);
	assert_true(boxed_round(f, 30000) == 4000);
	assert_int_equal(f->notes[ROUND_NOTE_BOXED], 0);
	fixture_free(f);
}

/*
 * Run one round of 200 files through 'phases' with the fake backend's
 * listing knobs as the caller set them; return the round's result.
 */
static void
broken_round(struct fixture *f, struct round_result *res)
{
	assert_int_equal(round_run(&f->r, 1, 200, false, false, res), 0);
	assert_false(f->r.in_round);
	assert_true(res->broken);
	assert_int_equal(f->doc.rows.nrows, 1);
}

/* A batch served again: the name that came twice, and where. */
static void
test_listing_repeat(void **state)
{
	struct fixture		*f;
	struct round_result	 res;

	(void)state;
	f = fixture("create,list,liststat,rmrf", "1");
	fake_knobs.repeat_after = 100;
	fake_knobs.repeat_back = 7;
	broken_round(f, &res);
	assert_int_equal(res.bad.phase, PHASE_LIST);
	assert_int_equal(res.bad.loop_at, 101);
	assert_int_equal(res.bad.lost, 0);
	assert_string_equal(res.bad.odd, "00000093");
	/* The listing stopped there: 100 entries, one readdir call more. */
	assert_true(cell(&f->doc.rows, 0, "list_loop") == 101);
	assert_true(cell(&f->doc.rows, 0, "list_lost") == 0);
	assert_true(cell(&f->doc.rows, 0, "list_ops") == 15);
	assert_true(cell(&f->doc.rows, 0, "liststat_loop") == 101);
	assert_true(cell(&f->doc.rows, 0, "liststat_stat") == 100);
	/*
	 * rm -rf: the names it removed are gone, but 00000098 of the
	 * batch under way comes again; the clean-up removes the rest.
	 */
	assert_true(cell(&f->doc.rows, 0, "rmrf_loop") == 101);
	assert_true(cell(&f->doc.rows, 0, "rmrf_unlink") == 100);
	assert_true(isnan(cell(&f->doc.rows, 0, "create_loop")));
	assert_int_equal(f->notes[ROUND_NOTE_LOOP], 3);
	assert_int_equal(f->notes[ROUND_NOTE_SHORT_LIST], 0);
	fixture_free(f);
}

/*
 * A name never listed: lost, counted, named; rm -rf cannot see it, the
 * clean-up removes it by name.
 */
static void
test_listing_skip(void **state)
{
	struct fixture		*f;
	struct round_result	 res;

	(void)state;
	f = fixture("create,list,rmrf", "1");
	fake_knobs.skip_slot = 42;
	broken_round(f, &res);
	assert_int_equal(res.bad.phase, PHASE_LIST);
	assert_int_equal(res.bad.loop_at, 0);
	assert_int_equal(res.bad.lost, 1);
	assert_string_equal(res.bad.odd, "00000042");
	assert_true(cell(&f->doc.rows, 0, "list_lost") == 1);
	assert_true(cell(&f->doc.rows, 0, "list_ops") == 200 / 7 + 2);
	assert_true(cell(&f->doc.rows, 0, "rmrf_unlink") == 199);
	assert_int_equal(f->notes[ROUND_NOTE_LOST], 1);
	fixture_free(f);
}

/*
 * A listing that starts again at its end, for ever, and the backend's
 * own ELOOP (an NFS cookie seen twice).
 */
static void
test_listing_cycle(void **state)
{
	struct fixture		*f;
	struct round_result	 res;

	(void)state;
	f = fixture("create,list,delete", "1");
	fake_knobs.cycle = true;
	broken_round(f, &res);
	assert_int_equal(res.bad.loop_at, 201);
	assert_string_equal(res.bad.odd, "00000000");
	fixture_free(f);

	f = fixture("create,liststat,delete", "1");
	fake_knobs.eloop_after = 3;
	broken_round(f, &res);
	assert_int_equal(res.bad.phase, PHASE_LISTSTAT);
	assert_int_equal(res.bad.loop_at, 22);
	assert_string_equal(res.bad.odd, "READDIR: cookie 7 came twice");
	assert_true(cell(&f->doc.rows, 0, "liststat_stat") == 21);
	fixture_free(f);
}

/* round_loop(): the round of the loop is recorded, then the run stops. */
static void
test_listing_stops_loop(void **state)
{
	struct timing_clock	 clock;
	struct timing_sched	 s;
	struct timing_round	 last;
	struct fixture		*f;

	(void)state;
	f = fixture("create,list,delete", "1");
	fake_knobs.repeat_after = 150;
	fake_knobs.repeat_back = 30;
	clock.now = fake_now;
	clock.arg = &f->now;
	timing_sched_init(&s, &clock, f->now, 3600 * NS_PER_S, TIMING_PREDICT,
	    100, 600, 1.5, 1, 0);
	/* Round 1 (n = 100) never gets to entry 150; round 2 does. */
	assert_int_equal(round_loop(&f->r, &s, &last), -1);
	assert_int_equal(f->done, 2);
	assert_int_equal(f->doc.summary.nrows, 2);
	assert_true(f->r.stop.listing);
	assert_int_equal(f->r.stop.err, ELOOP);
	assert_string_equal(f->r.stop.phase, "list");
	assert_int_equal(f->r.stop.n, 150);
	assert_string_equal(f->r.stop.what,
	    "00000120 at entry 151 (repetition 1)");
	assert_false(f->r.in_round);
	fixture_free(f);

	/* Lost entries stop it the same way, with ENOENT. */
	f = fixture("create,list,delete", "1");
	fake_knobs.skip_slot = 7;
	clock.arg = &f->now;
	timing_sched_init(&s, &clock, f->now, 3600 * NS_PER_S, TIMING_PREDICT,
	    100, 600, 1.5, 1, 0);
	assert_int_equal(round_loop(&f->r, &s, &last), -1);
	assert_int_equal(f->done, 1);
	assert_true(f->r.stop.listing);
	assert_int_equal(f->r.stop.err, ENOENT);
	assert_string_equal(f->r.stop.what,
	    "1 file never listed, the first 00000007 (repetition 1)");
	fixture_free(f);
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test(test_round_rows),
		cmocka_unit_test(test_tree_rows),
		cmocka_unit_test(test_tree_enospc),
		cmocka_unit_test(test_tree_foreign),
		cmocka_unit_test(test_maildir_rows),
		cmocka_unit_test(test_maildir_signal),
		cmocka_unit_test(test_maildir_enospc),
		cmocka_unit_test(test_round_enospc),
		cmocka_unit_test(test_round_signal),
		cmocka_unit_test(test_round_foreign),
		cmocka_unit_test(test_loop_max),
		cmocka_unit_test(test_loop_budget),
		cmocka_unit_test(test_open_box),
		cmocka_unit_test(test_listing_repeat),
		cmocka_unit_test(test_listing_skip),
		cmocka_unit_test(test_listing_cycle),
		cmocka_unit_test(test_listing_stops_loop),
	};

	return cmocka_run_group_tests_name("round", tests, NULL, NULL);
}
