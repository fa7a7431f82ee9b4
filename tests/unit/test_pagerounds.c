/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * test_pagerounds: the paragraph under a target on the page that names
 * its rounds not like the others, from the metadata, in English and in
 * German: a sampled open phase, a round that narrowed the knee, one that
 * filled in, and the plan's last round that stopped creating short of
 * its limit; nothing for a target without them, or with values it cannot
 * read.  And what a run records of its time-boxed last round
 * (report_timebox_done()) is what the page reads.
 */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/kv.h"
#include "page/pagerounds.h"
#include "record/output.h"
#include "report/budgetsay.h"

/* The paragraph for metadata 'kv' (key, value, ..., NULL) in 'lang'. */
static char *
put(const char *const *kv, enum html_lang lang)
{
	struct results_target	 t;
	struct results_meta	 m[8];
	char			*buf = NULL;
	size_t			 len = 0;
	FILE			*fp;

	memset(&t, 0, sizeof(t));
	t.label = (char *)"x";
	t.meta = m;
	while (kv[2 * t.nmeta] != NULL && t.nmeta < 8) {
		m[t.nmeta].key = (char *)kv[2 * t.nmeta];
		m[t.nmeta].value = (char *)kv[2 * t.nmeta + 1];
		t.nmeta++;
	}
	fp = open_memstream(&buf, &len);
	assert_non_null(fp);
	pagerounds_put(fp, &t, lang);
	assert_int_equal(fclose(fp), 0);
	return buf;
}

static void
test_rounds(void **state)
{
	static const char *const kv[] = {
		"plan_round_14", "plan: 1 more round, n = about 270,814",
		"open_boxed_round_14", "127488 of 812442",
		"refine_round_15", "refine: n=87,141 narrows the knee, "
		    "between n=75,937 and n=100,000",
		"refine_round_22", "fill: n=686,172 between n=506,250 and "
		    "n=759,375, with time no larger round fits in",
		"timebox_round_18", "made 632,915 of at most 3,495,777; "
		    "planned at about 1,165,259",
		NULL };
	char	*en, *de;

	(void)state;
	en = put(kv, HTML_EN);
	assert_non_null(strstr(en, "<p>Rounds to note \u2014"));
	assert_non_null(strstr(en, "Round 14 opened a random sample of "
	    "127,488 of its 812,442 files"));
	assert_non_null(strstr(en, "Round 15 narrowed the knee: n = 87,141 "
	    "between 75,937 and 100,000."));
	assert_non_null(strstr(en, "Round 22 filled in, with time no larger "
	    "round fitted in: n = 686,172 between 506,250 and 759,375."));
	assert_non_null(strstr(en, "Round 18 was the plan's last, planned at "
	    "about 1,165,259 files: it stopped creating at 632,915 of at "
	    "most 3,495,777, so as to end at the budget."));
	assert_non_null(strstr(en, "</p>\n"));
	de = put(kv, HTML_DE);
	assert_non_null(strstr(de, "<p>Besondere Runden \u2014"));
	assert_non_null(strstr(de, "Runde 18 war die letzte des Plans, "
	    "geplant mit etwa 1.165.259 Dateien: Sie hörte bei 632.915 von "
	    "höchstens 3.495.777 auf anzulegen, um mit dem Budget zu enden."));
	assert_non_null(strstr(de, "Runde 15 grenzte den Knick ein: "
	    "n = 87.141 zwischen 75.937 und 100.000."));
	free(en);
	free(de);
}

static void
test_none(void **state)
{
	static const char *const plain[] = { "plan_round_3", "plan: ...",
		"knee_open", "none", NULL };
	static const char *const bad[] = { "timebox_round_4", "made lots",
		NULL };
	char	*s;

	(void)state;
	s = put(plain, HTML_EN);
	assert_string_equal(s, "");
	free(s);
	/* A value it cannot read: left out, and no paragraph left open. */
	s = put(bad, HTML_EN);
	assert_string_equal(s, "");
	free(s);
}

static void
test_recorded(void **state)
{
	struct output_doc	 doc;
	const char		*v;
	const char		*kv[3] = { "timebox_round_18", NULL, NULL };
	char			*s;

	(void)state;
	output_doc_init(&doc);
	/* A round that made all it might is on the grid: nothing to note. */
	report_timebox_done(&doc, 17, 400000, 1000000, 1000000);
	assert_null(kv_get(&doc.meta, "timebox_round_17"));
	report_timebox_done(&doc, 18, 1165259, 3495777, 632915);
	v = kv_get(&doc.meta, "timebox_round_18");
	assert_non_null(v);
	assert_string_equal(v, "made 632,915 of at most 3,495,777; planned "
	    "at about 1,165,259");
	kv[1] = v;
	s = put(kv, HTML_EN);
	assert_non_null(strstr(s, "it stopped creating at 632,915 of at "
	    "most 3,495,777"));
	free(s);
	output_doc_free(&doc);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rounds),
		cmocka_unit_test(test_none),
		cmocka_unit_test(test_recorded),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
