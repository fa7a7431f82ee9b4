/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * clients: see clients.h.
 */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/stats.h"
#include "base/util.h"
#include "engine/clients.h"

/* The extra columns before the clients' own: the slowest, the fastest. */
#define CLIENTS_FIXED	2

/* The clients' own columns, for each of up to CONFIG_MAX_CLIENTS. */
static const char *const client_columns[] = {
	"client1_per_s", "client2_per_s", "client3_per_s", "client4_per_s",
	"client5_per_s", "client6_per_s", "client7_per_s", "client8_per_s",
	"client9_per_s", "client10_per_s", "client11_per_s", "client12_per_s",
	"client13_per_s", "client14_per_s", "client15_per_s", "client16_per_s",
	"client17_per_s", "client18_per_s", "client19_per_s", "client20_per_s",
	"client21_per_s", "client22_per_s", "client23_per_s", "client24_per_s",
	"client25_per_s", "client26_per_s", "client27_per_s", "client28_per_s",
	"client29_per_s", "client30_per_s", "client31_per_s", "client32_per_s",
	"client33_per_s", "client34_per_s", "client35_per_s", "client36_per_s",
	"client37_per_s", "client38_per_s", "client39_per_s", "client40_per_s",
	"client41_per_s", "client42_per_s", "client43_per_s", "client44_per_s",
	"client45_per_s", "client46_per_s", "client47_per_s", "client48_per_s",
	"client49_per_s", "client50_per_s", "client51_per_s", "client52_per_s",
	"client53_per_s", "client54_per_s", "client55_per_s", "client56_per_s",
	"client57_per_s", "client58_per_s", "client59_per_s", "client60_per_s",
	"client61_per_s", "client62_per_s", "client63_per_s", "client64_per_s"
};
_Static_assert(sizeof(client_columns) / sizeof(client_columns[0]) ==
    CONFIG_MAX_CLIENTS, "a column for every client");

/*
 * The share of client 'c' of 'k' in a round of 'n' names split as
 * 'split': interleaved, c, c + k, c + 2k, ... (the clients work side by
 * side in the same part of the directory); blocked, the c-th of k runs
 * of about n / k consecutive names.
 */
void
clients_share(enum config_split split, unsigned k, unsigned c, uint64_t n,
    struct workload_share *s)
{
	if (split == CONFIG_SPLIT_INTERLEAVED) {
		s->first = c;
		s->step = k;
		s->end = n;
	} else {
		s->first = n * c / k;
		s->step = 1;
		s->end = n * (c + 1) / k;
	}
}

/* The extra columns of 'k' clients: none for one. */
size_t
clients_ncolumns(unsigned k)
{
	return k > 1 ? CLIENTS_FIXED + k : 0;
}

/*
 * The name of extra column 'i' of 'k' clients (i below
 * clients_ncolumns()), a constant string; NULL past them.
 */
const char *
clients_column(unsigned k, size_t i)
{
	if (i == 0)
		return "client_min_per_s";
	if (i == 1)
		return "client_max_per_s";
	i -= CLIENTS_FIXED;
	if (i >= k || i >= CONFIG_MAX_CLIENTS)
		return NULL;
	return client_columns[i];
}

/*
 * Make 'o' the record of one phase from the 'k' clients in 'slots': see
 * clients.h.  The first 'nsum' extras (events, and the backend's
 * counters of the clients' own connections) are added up; the clients'
 * columns follow them.  A client's error, or
 * the first listing that went wrong, is the phase's.
 */
void
clients_merge(const struct runner_client *slots, unsigned k, size_t nsum,
    struct phase_out *o)
{
	const struct runner_client	*s;
	struct stats_hist		*hist;
	struct phase_rec		*c = &o->rec;
	uint64_t			 t0 = UINT64_MAX, t1 = 0;
	double				 rate, lo = INFINITY, hi = 0;
	unsigned			 i;
	size_t				 j;

	hist = xmalloc(sizeof(*hist));	/* 15 KiB */
	stats_hist_reset(hist);
	memset(o, 0, sizeof(*o));
	record_phase_init(c);
	c->user_ns = c->sys_ns = c->vcsw = c->ivcsw = 0;
	c->inblock = c->oublock = c->ops = c->stopped = 0;
	for (j = 0; j < nsum; j++)
		c->extra[j] = 0;
	for (i = 0; i < k; i++) {
		s = &slots[i];
		if (o->err == 0 && s->o.err != 0) {
			o->err = s->o.err;
			(void)snprintf(o->what, sizeof(o->what), "client %u: "
			    "%s", i + 1, s->o.what);
		}
		if (o->loop_at == 0 && o->lost == 0 && (s->o.loop_at != 0 ||
		    s->o.lost != 0)) {
			o->loop_at = s->o.loop_at;
			o->lost = s->o.lost;
			(void)memcpy(o->odd, s->o.odd, sizeof(o->odd));
		}
		o->done += s->o.done;
		if (s->o.foreign > o->foreign)	/* each saw the same */
			o->foreign = s->o.foreign;
		c->ops += s->o.rec.ops;
		c->user_ns += s->o.rec.user_ns;
		c->sys_ns += s->o.rec.sys_ns;
		c->vcsw += s->o.rec.vcsw;
		c->ivcsw += s->o.rec.ivcsw;
		c->inblock += s->o.rec.inblock;
		c->oublock += s->o.rec.oublock;
		for (j = 0; j < nsum; j++)
			c->extra[j] += s->o.rec.extra[j];
		if (!isnan(s->o.rec.memcg_peak_kib))
			c->memcg_peak_kib = isnan(c->memcg_peak_kib) ?
			    s->o.rec.memcg_peak_kib : fmax(c->memcg_peak_kib,
			    s->o.rec.memcg_peak_kib);
		if (s->o.rec.stopped != 0)
			c->stopped = 1;
		stats_hist_merge(hist, &s->hist);
		if (s->t_begin < t0)
			t0 = s->t_begin;
		if (s->t_end > t1)
			t1 = s->t_end;
		rate = s->o.rec.ns > 0 ? s->o.done * 1e9 / s->o.rec.ns : NAN;
		c->extra[nsum + CLIENTS_FIXED + i] = rate;
		if (!isnan(rate)) {
			lo = fmin(lo, rate);
			hi = fmax(hi, rate);
		}
	}
	c->ns = t1 > t0 ? (double)(t1 - t0) : 0;
	c->per_s = c->ns > 0 ? o->done * 1e9 / c->ns : NAN;
	c->extra[nsum] = isinf(lo) ? NAN : lo;
	c->extra[nsum + 1] = isinf(lo) ? NAN : hi;
	c->p50_ns = (double)stats_hist_percentile(hist, 50);
	c->p90_ns = (double)stats_hist_percentile(hist, 90);
	c->p99_ns = (double)stats_hist_percentile(hist, 99);
	c->p999_ns = (double)stats_hist_percentile(hist, 99.9);
	c->max_ns = (double)hist->max;
	free(hist);
	c->loop = slots[0].o.rec.loop;	/* NAN but for a listing */
	c->lost = slots[0].o.rec.lost;
	if (!isnan(c->loop)) {
		c->loop = (double)o->loop_at;
		c->lost = (double)o->lost;
	}
}

/*
 * What may exist after the 'k' clients of a round of 'n' names ran a
 * phase: '*created' bounds the names made (none from there on), and
 * '*deleted' the names removed (all below it are gone).  A client that
 * finished its share counts as having reached n; the bounds of one that
 * stopped are workload.h's; one that died may have made and removed
 * anything.  So clean-up tries every name that may be left, and at worst
 * some that are gone already.
 */
void
clients_bounds(const struct runner_client *slots, unsigned k, uint64_t n,
    uint64_t *created, uint64_t *deleted)
{
	const struct runner_client	*s;
	uint64_t			 made = 0, gone = n, reach;
	unsigned			 i;

	for (i = 0; i < k; i++) {
		s = &slots[i];
		if (!s->o.done_ok) {	/* it died: it told nothing */
			made = n;
			gone = 0;
			continue;
		}
		reach = s->o.err == 0 ? n : s->created;
		if (reach > made)
			made = reach;
		reach = s->o.err == 0 ? n : s->deleted;
		if (reach < gone)
			gone = reach;
	}
	*created = made;
	*deleted = gone;
}
