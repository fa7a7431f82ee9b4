/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * clients: the arithmetic of K client processes sharing a round
 * (--clients): which names each one takes, and one phase's record made
 * from theirs.  Running them is runner.c's; when a phase runs them is
 * round.c's.
 *
 * The record of a phase counts all clients together, as mdtest does: the
 * files (a listing: the entries) of all of them, divided by the time from
 * the first client's start to the last one's end, so that no client's
 * wait at the start barrier counts; the CPU time, context switches,
 * blocks, events and operations are sums, the latencies come from the
 * merged histograms.  Each client's own rate, and the slowest and
 * fastest of them, are extra columns: client_min_per_s,
 * client_max_per_s, client1_per_s ... clientK_per_s.
 */

#ifndef LD_CLIENTS_H
#define LD_CLIENTS_H

#include <stddef.h>
#include <stdint.h>

#include "engine/runner.h"
#include "engine/workload.h"
#include "settings/config.h"

void		clients_share(enum config_split, unsigned, unsigned, uint64_t,
		    struct workload_share *);
size_t		clients_ncolumns(unsigned);
const char	*clients_column(unsigned, size_t);
void		clients_merge(const struct runner_client *, unsigned, size_t,
		    struct phase_out *);
void		clients_bounds(const struct runner_client *, unsigned,
		    uint64_t, uint64_t *, uint64_t *);

#endif /* LD_CLIENTS_H */
