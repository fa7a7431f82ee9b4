/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * noise: see noise.h.
 *
 * The metadata keys: warning_load, warning_outliers and warning_swing
 * (the first case only, as the warning), warning_stopped and
 * warning_busy (every case, joined by "; "; warning_busy stops growing
 * past 1000 bytes, enough to see the pattern) and open_boxed_round_K
 * (every repetition of round K whose open was cut short).
 */

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/stats.h"
#include "base/util.h"
#include "report/noise.h"

/*
 * Round 'k' saw load average 'load' on 'cpus' CPUs online: the first time
 * it says that other programs compete (more than one per CPU, besides
 * largedir's own processes past the first: ns->own clients, each running
 * or waiting for the disk, count in the load), record it in 'doc' as
 * warning_load and return true (the caller warns); else return false.
 * In a User-Mode Linux guest (ns->guest) the load is the guest's: its
 * one CPU, largedir, init and the guest kernel's own threads (an NFS
 * client's, waiting on the server); it tells nothing of other programs
 * on the host, so no warning.
 */
bool
noise_load(struct noise *ns, struct output_doc *doc, unsigned k, double load,
    long cpus)
{
	double	own = ns->own > 1 ? ns->own - 1 : 0;

	if (ns->warned_load || ns->guest || isnan(load) || cpus < 1 ||
	    load <= cpus + own)
		return false;
	ns->warned_load = true;
	kv_set(&doc->meta, "warning_load", "load %.2f on %ld CPUs in "
	    "round %u", load, cpus, k);
	return true;
}

/*
 * Whether one of 3 or more repetitions of round 'k' ('res', the 'np'
 * phases 'phases') is an outlier by its modified z-score, the first
 * time the run sees noise: then record it in 'doc' as warning_outliers,
 * store the phase in '*which' and return true (the caller warns).
 */
bool
noise_outliers(struct noise *ns, struct output_doc *doc, unsigned k,
    const enum phase *phases, size_t np, const struct round_result *res,
    enum phase *which)
{
	bool		flags[1000];	/* --repeat is at most 1000 */
	enum phase	p;
	size_t		i;

	for (i = 0; i < np && res->reps >= 3 && res->reps <= 1000; i++) {
		p = phases[i];
		if (ns->warned_noise || stats_outliers(res->rates[p],
		    res->reps, NOISE_OUTLIER_Z, flags) == 0)
			continue;
		ns->warned_noise = true;
		kv_set(&doc->meta, "warning_outliers", "round %u %s", k,
		    phase_name(p));
		*which = p;
		return true;
	}
	return false;
}

/*
 * Keep round 'k''s median rates 'med' of the 'np' phases 'phases'.  The
 * first time the run sees noise as the round before 'k' swinging far off
 * both of its neighbours in a phase (noise, not a knee: a knee stays
 * down), record it in 'doc' as warning_swing, store the phase in
 * '*which' and return true (the caller warns about round k - 1).
 */
bool
noise_swing(struct noise *ns, struct output_doc *doc, unsigned k,
    const enum phase *phases, size_t np, const double *med,
    enum phase *which)
{
	double		*v;
	enum phase	 p;
	size_t		 i, m;
	bool		 found = false;

	m = ns->nrates++;
	for (i = 0; i < np; i++) {
		p = phases[i];
		ns->rates[p] = xreallocarray(ns->rates[p], ns->nrates,
		    sizeof(double));
		ns->rates[p][m] = med[p];
		v = ns->rates[p];
		if (m < 2 || ns->warned_noise ||
		    !stats_swing(v[m - 2], v[m - 1], v[m], NOISE_SWING))
			continue;
		ns->warned_noise = true;
		kv_set(&doc->meta, "warning_swing", "round %u %s", k - 1,
		    phase_name(p));
		*which = p;
		found = true;
	}
	return found;
}

/*
 * Phase 'pn' of round 'k' lost about 'lost_s' seconds that went neither
 * to the CPU nor to the filesystem (record_lost_time(), or a SIGCONT):
 * add it to warning_stopped in the metadata of 'doc'.
 */
void
noise_stopped(struct output_doc *doc, unsigned k, const char *pn,
    double lost_s)
{
	const char	*was;
	char		*copy;

	was = kv_get(&doc->meta, "warning_stopped");
	if (was == NULL) {
		kv_set(&doc->meta, "warning_stopped", "round %u %s "
		    "%.2fs", k, pn, lost_s);
		return;
	}
	copy = xstrdup(was);
	kv_set(&doc->meta, "warning_stopped", "%s; round %u %s %.2fs",
	    copy, k, pn, lost_s);
	free(copy);
}

/*
 * Round 'k''s phase 'pn' counted calls it cannot have made ('what'): the
 * counters are shared, and something else used the mount.  Add it to
 * warning_busy in the metadata of 'doc'; return true the first time (the
 * caller warns once).
 */
bool
noise_busy(struct output_doc *doc, unsigned k, const char *pn,
    const char *what)
{
	const char	*was = kv_get(&doc->meta, "warning_busy");
	char		*copy;

	if (was == NULL) {
		kv_set(&doc->meta, "warning_busy", "round %u %s: %s", k,
		    pn, what);
		return true;
	}
	if (strlen(was) > 1000)
		return false;	/* enough to see the pattern */
	copy = xstrdup(was);
	kv_set(&doc->meta, "warning_busy", "%s; round %u %s: %s", copy,
	    k, pn, what);
	free(copy);
	return false;
}

/*
 * Round 'k''s open phase stopped after 'done' of its 'n' files, for the
 * round to end at the budget (timing_open_stop()): keep it as
 * open_boxed_round_K in the metadata of 'doc' (a repetition after the
 * first adds to it).
 */
void
noise_boxed(struct output_doc *doc, unsigned k, uint64_t done, uint64_t n)
{
	char		 key[48], *copy;
	const char	*was;

	(void)snprintf(key, sizeof(key), "open_boxed_round_%u", k);
	was = kv_get(&doc->meta, key);
	if (was == NULL) {
		kv_set(&doc->meta, key, "%" PRIu64 " of %" PRIu64,
		    done, n);
		return;
	}
	copy = xstrdup(was);
	kv_set(&doc->meta, key, "%s; %" PRIu64 " of %" PRIu64, copy,
	    done, n);
	free(copy);
}

/* Free what the checks of 'ns' kept, and zero it. */
void
noise_free(struct noise *ns)
{
	size_t	i;

	for (i = 0; i < PHASE_COUNT; i++)
		free(ns->rates[i]);
	memset(ns, 0, sizeof(*ns));
}
