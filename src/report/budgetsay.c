/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * budgetsay: the lines the time budget's schedule has a run say (see
 * timing.c and plan.c): the plan of the last rounds when it is made,
 * redone or dropped, the time-boxed last round, a round below the
 * largest n that refines the knee or fills in, and why the rounds
 * ended.  The plan and the rounds below the largest n are recorded in
 * the metadata too, as the lines said (plan_round_K, refine_round_K),
 * and so is a time-boxed round that stopped short (timebox_round_K).
 * Nothing is said with -q (report_quiet()).
 */

#include <stdio.h>

#include "base/kv.h"
#include "base/util.h"
#include "report/budgetsay.h"
#include "report/report.h"

static void	report_plan(const struct timing_round *, char *, size_t);
static void	report_refine(const struct timing_round *, char *, size_t);
static void	report_timebox(uint64_t, uint64_t);

/*
 * Before round 'plan->k': say the plan of the last rounds when one was
 * made, redone or dropped, and that this is the time-boxed last round,
 * or a round below the largest n; record the plan and such a round in
 * 'doc' as the lines said.
 */
void
report_planned(struct output_doc *doc, const struct timing_round *plan)
{
	char	line[256], key[32];

	if (plan->plan_event != TIMING_PLAN_NONE) {
		report_plan(plan, line, sizeof(line));
		(void)snprintf(key, sizeof(key), "plan_round_%u", plan->k);
		kv_set(&doc->meta, key, "%s", line);
	}
	if (plan->timebox)
		report_timebox(plan->n_about, plan->n);
	if (plan->kind != TIMING_GROW) {
		report_refine(plan, line, sizeof(line));
		(void)snprintf(key, sizeof(key), "refine_round_%u", plan->k);
		kv_set(&doc->meta, key, "%s", line);
	}
}

/*
 * The plan made before round 'rd' (rd->plan_event is not
 * TIMING_PLAN_NONE), as one line into 'buf' of 'len' bytes: "plan: 2 more
 * rounds, n = 9,800,000 and about 15,100,000, ending about 29m40s", or
 * "plan redone after round 21 (took 3m10s, predicted 2m40s): ..." when
 * redone, "plan dropped after round 21 (...): n grows by the growth
 * factor again" when no plan is needed any more (more rounds fit, or
 * --max-files comes first).  Said on stdout unless quiet.
 */
static void
report_plan(const struct timing_round *rd, char *buf, size_t len)
{
	const struct plan	*p = &rd->plan;
	char			 c[32], d1[32], d2[32];
	size_t			 o;
	unsigned		 i;

	util_fmt_duration(d1, sizeof(d1), (uint64_t)rd->redo_took_ns);
	util_fmt_duration(d2, sizeof(d2), (uint64_t)rd->redo_pred_ns);
	if (rd->plan_event == TIMING_PLAN_DROPPED) {
		(void)snprintf(buf, len, "plan dropped after round %u (took "
		    "%s, predicted %s): n grows by the growth factor again",
		    rd->redo_k, d1, d2);
		if (!report_quiet())
			printf("%s\n", buf);
		return;
	}
	if (rd->plan_event == TIMING_PLAN_REDONE)
		o = (size_t)snprintf(buf, len, "plan redone after round %u "
		    "(took %s, predicted %s): ", rd->redo_k, d1, d2);
	else
		o = (size_t)snprintf(buf, len, "plan: ");
	o += (size_t)snprintf(buf + o, o < len ? len - o : 0, "%u more "
	    "round%s, n = ", p->m, p->m == 1 ? "" : "s");
	for (i = 0; i < p->m && o < len; i++) {
		util_fmt_count(c, sizeof(c), p->n[i]);
		o += (size_t)snprintf(buf + o, len - o, "%s%s%s",
		    i == 0 ? "" : i + 1 == p->m ? " and " : ", ",
		    i + 1 == p->m ? "about " : "", c);
	}
	util_fmt_duration(d1, sizeof(d1), (uint64_t)rd->plan_end_ns);
	if (o < len)
		(void)snprintf(buf + o, len - o, ", ending about %s", d1);
	if (!report_quiet())
		printf("%s\n", buf);
}

/*
 * A round below the largest n ('rd->kind' is not TIMING_GROW), as one
 * line into 'buf' of 'len' bytes: "refine: n=82,670 narrows the knee,
 * between n=67,500 and n=101,250", or "fill: n=4,130,000 between
 * n=3,375,000 and n=5,062,500, with time no larger round fits in".  Said
 * on stdout unless quiet.
 */
static void
report_refine(const struct timing_round *rd, char *buf, size_t len)
{
	char	c[32], c1[32], c2[32];

	util_fmt_count(c, sizeof(c), rd->n);
	util_fmt_count(c1, sizeof(c1), rd->gap_lo);
	util_fmt_count(c2, sizeof(c2), rd->gap_hi);
	if (rd->kind == TIMING_REFINE)
		(void)snprintf(buf, len, "refine: n=%s narrows the knee, "
		    "between n=%s and n=%s", c, c1, c2);
	else
		(void)snprintf(buf, len, "fill: n=%s between n=%s and n=%s, "
		    "with time no larger round fits in", c, c1, c2);
	if (!report_quiet())
		printf("%s\n", buf);
}

/* The time-boxed last round: about 'n_about' files, at most 'n'. */
static void
report_timebox(uint64_t n_about, uint64_t n)
{
	char	c1[32], c2[32];

	if (report_quiet())
		return;
	util_fmt_count(c1, sizeof(c1), n_about);
	util_fmt_count(c2, sizeof(c2), n);
	printf("budget: the last round (about n=%s, at most %s) stops "
	    "creating files in time to end at the budget\n", c1, c2);
}

/*
 * The time-boxed round 'k' is done, planned at about 'n_about' files,
 * at most 'n_max', having made 'made': when its create phase stopped
 * short of 'n_max' to end at the budget, record it in 'doc' as
 * timebox_round_K ("made M of at most N; planned at about A"), so that
 * the page can say why its n is off the grid.
 */
void
report_timebox_done(struct output_doc *doc, unsigned k, uint64_t n_about,
    uint64_t n_max, uint64_t made)
{
	char	key[32], c1[32], c2[32], c3[32];

	if (made >= n_max)
		return;
	util_fmt_count(c1, sizeof(c1), made);
	util_fmt_count(c2, sizeof(c2), n_max);
	util_fmt_count(c3, sizeof(c3), n_about);
	(void)snprintf(key, sizeof(key), "timebox_round_%u", k);
	kv_set(&doc->meta, key, "made %s of at most %s; planned at about %s",
	    c1, c2, c3);
}

/*
 * Why the rounds ended, as the schedule's 'last' plan says; 'max' names
 * the largest n's limit ("--max-files").
 */
void
report_end(const struct config *cfg, const struct timing_round *last,
    const char *max)
{
	char	d1[32], d2[32], c1[32];

	if (report_quiet())
		return;
	if (last->end == TIMING_END_MAX)
		printf("%s reached: done\n", max);
	else if (cfg->policy == TIMING_PREDICT && last->pred_ns > 0 &&
	    last->left_ns > 0) {
		util_fmt_duration(d1, sizeof(d1), (uint64_t)last->pred_ns);
		util_fmt_duration(d2, sizeof(d2), last->left_ns);
		util_fmt_count(c1, sizeof(c1), last->n);
		printf("budget: the next round (n=%s) would take about %s, "
		    "%s left: done\n", c1, d1, d2);
	} else
		printf("budget spent: done\n");
}
