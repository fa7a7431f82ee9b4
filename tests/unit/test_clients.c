/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * Unit tests for clients.c: the shares cover every name exactly once,
 * whatever n and K; a phase's record adds the clients up over the span
 * from the first start to the last end; what may be left after clients
 * that finished, stopped or died; and the column names.
 */

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/stats.h"
#include "engine/clients.h"

static struct runner_client	slots[4];

/* Every name below n in exactly one share, in increasing order. */
static void
test_share_cover(void **state)
{
	static const uint64_t	ns[] = { 1, 2, 3, 7, 64, 1000, 1001, 99991 };
	static const unsigned	ks[] = { 1, 2, 3, 4, 7, 64 };
	enum config_split	split;
	struct workload_share	sh;
	unsigned char		*seen;
	uint64_t		i, n, prev;
	size_t			a, b;
	unsigned		c;

	(void)state;
	for (split = CONFIG_SPLIT_INTERLEAVED; split <= CONFIG_SPLIT_BLOCKED;
	    split++)
		for (a = 0; a < sizeof(ns) / sizeof(ns[0]); a++)
			for (b = 0; b < sizeof(ks) / sizeof(ks[0]); b++) {
				n = ns[a];
				if (ks[b] > n)
					continue;	/* config_check() */
				seen = calloc(n, 1);
				assert_non_null(seen);
				for (c = 0; c < ks[b]; c++) {
					clients_share(split, ks[b], c, n, &sh);
					assert_true(sh.step >= 1);
					assert_true(sh.end <= n);
					/* Nobody goes empty-handed. */
					assert_true(sh.first < sh.end);
					prev = UINT64_MAX;
					for (i = sh.first; i < sh.end;
					    i += sh.step) {
						assert_true(prev == UINT64_MAX ||
						    i > prev);
						seen[i]++;
						prev = i;
					}
				}
				for (i = 0; i < n; i++)
					assert_int_equal(seen[i], 1);
				free(seen);
			}
}

/* Interleaved: side by side; blocked: runs of n / K. */
static void
test_share_shape(void **state)
{
	struct workload_share	sh;

	(void)state;
	clients_share(CONFIG_SPLIT_INTERLEAVED, 4, 1, 10, &sh);
	assert_int_equal(sh.first, 1);
	assert_int_equal(sh.step, 4);
	assert_int_equal(sh.end, 10);
	clients_share(CONFIG_SPLIT_BLOCKED, 4, 1, 10, &sh);
	assert_int_equal(sh.first, 2);
	assert_int_equal(sh.step, 1);
	assert_int_equal(sh.end, 5);
	clients_share(CONFIG_SPLIT_BLOCKED, 4, 3, 10, &sh);
	assert_int_equal(sh.first, 7);
	assert_int_equal(sh.end, 10);
}

/* Client i: 'done' files in 'ns' ns from 'begin'; latencies 'lat' each. */
static void
fill(unsigned i, uint64_t done, uint64_t begin, uint64_t ns, uint64_t lat)
{
	struct runner_client	*s = &slots[i];
	uint64_t		 j;

	memset(s, 0, sizeof(*s));
	record_phase_init(&s->o.rec);
	s->o.done_ok = 1;
	s->o.done = done;
	s->o.rec.ns = (double)ns;
	s->o.rec.ops = (double)done;
	s->o.rec.user_ns = 1000.0 * (i + 1);
	s->o.rec.sys_ns = 2000.0 * (i + 1);
	s->o.rec.vcsw = 3;
	s->o.rec.ivcsw = 4;
	s->o.rec.inblock = 5;
	s->o.rec.oublock = 6;
	s->o.rec.stopped = 0;
	s->o.rec.extra[0] = 10.0 * (i + 1);	/* an event */
	s->o.rec.extra[1] = 99;		/* a counter of its connection */
	s->t_begin = begin;
	s->t_end = begin + ns;
	stats_hist_reset(&s->hist);
	for (j = 0; j < done; j++)
		stats_hist_add(&s->hist, lat);
}

/* Sums, the span of all, each client's rate, the slowest and fastest. */
static void
test_merge(void **state)
{
	struct phase_out	o;

	(void)state;
	/* 0: 600 in 1 s from t=100 ns; 1: 400 in 0.5 s from t=300 ns. */
	fill(0, 600, 100, 1000000000, 1000);
	fill(1, 400, 300, 500000000, 3000);
	clients_merge(slots, 2, 2, &o);
	assert_int_equal(o.err, 0);
	assert_int_equal(o.done, 1000);
	/* From the first start to the last end: client 0's, 1 s. */
	assert_true(o.rec.ns == 1000000000.0);
	assert_true(fabs(o.rec.per_s - 1000.0) < 1e-9);
	assert_true(o.rec.ops == 1000);
	assert_true(o.rec.user_ns == 3000 && o.rec.sys_ns == 6000);
	assert_true(o.rec.vcsw == 6 && o.rec.oublock == 12);
	assert_true(o.rec.extra[0] == 30);	/* events add up, */
	assert_true(o.rec.extra[1] == 198);	/* and counters */
	assert_true(o.rec.extra[2] == 600);	/* the slowest */
	assert_true(o.rec.extra[3] == 800);	/* the fastest */
	assert_true(o.rec.extra[4] == 600);	/* client 1 */
	assert_true(o.rec.extra[5] == 800);	/* client 2 */
	/* The merged latencies: 600 of 1000 ns, 400 of 3000 ns. */
	assert_true(fabs(o.rec.p50_ns - 1000) / 1000 < 0.04);
	assert_true(fabs(o.rec.p90_ns - 3000) / 3000 < 0.04);
	assert_true(o.rec.max_ns == 3000);
	assert_true(o.rec.stopped == 0);
	assert_true(isnan(o.rec.loop));		/* not a listing */
}

/* A client's error is the phase's, named; a listing's finding too. */
static void
test_merge_error(void **state)
{
	struct phase_out	o;

	(void)state;
	fill(0, 600, 0, 1000, 1);
	fill(1, 17, 0, 1000, 1);
	fill(2, 600, 0, 1000, 1);
	slots[1].o.err = 28;
	(void)strcpy(slots[1].o.what, "after 17 of 1,234 files");
	slots[2].o.rec.stopped = 1;
	slots[2].o.rec.loop = slots[2].o.rec.lost = 0;
	slots[2].o.lost = 5;
	clients_merge(slots, 3, 0, &o);
	assert_int_equal(o.err, 28);
	assert_string_equal(o.what, "client 2: after 17 of 1,234 files");
	assert_int_equal(o.done, 1217);
	assert_int_equal(o.lost, 5);
	assert_true(o.rec.stopped == 1);
}

/* What clean-up must try after the clients finished, stopped or died. */
static void
test_bounds(void **state)
{
	uint64_t	made, gone;

	(void)state;
	fill(0, 5, 0, 1, 1);
	fill(1, 5, 0, 1, 1);
	clients_bounds(slots, 2, 10, &made, &gone);
	assert_int_equal(made, 10);
	assert_int_equal(gone, 10);
	/* Client 2 stopped at name 7 (made up to it, removed below 5). */
	slots[1].o.err = 4;
	slots[1].created = 7;
	slots[1].deleted = 5;
	clients_bounds(slots, 2, 10, &made, &gone);
	assert_int_equal(made, 10);	/* client 1 made its last, 9... */
	assert_int_equal(gone, 5);
	slots[0].o.err = 4;
	slots[0].created = 4;
	slots[0].deleted = 2;
	clients_bounds(slots, 2, 10, &made, &gone);
	assert_int_equal(made, 7);
	assert_int_equal(gone, 2);
	/* One died: anything may be left. */
	slots[1].o.done_ok = 0;
	clients_bounds(slots, 2, 10, &made, &gone);
	assert_int_equal(made, 10);
	assert_int_equal(gone, 0);
}

/* None for one client; the slowest, fastest, then each. */
static void
test_columns(void **state)
{
	(void)state;
	assert_int_equal(clients_ncolumns(1), 0);
	assert_int_equal(clients_ncolumns(3), 5);
	assert_string_equal(clients_column(3, 0), "client_min_per_s");
	assert_string_equal(clients_column(3, 1), "client_max_per_s");
	assert_string_equal(clients_column(3, 2), "client1_per_s");
	assert_string_equal(clients_column(3, 4), "client3_per_s");
	assert_null(clients_column(3, 5));
	assert_string_equal(clients_column(64, 65), "client64_per_s");
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test(test_share_cover),
		cmocka_unit_test(test_share_shape),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_merge_error),
		cmocka_unit_test(test_bounds),
		cmocka_unit_test(test_columns),
	};

	return cmocka_run_group_tests_name("clients", tests, NULL, NULL);
}
