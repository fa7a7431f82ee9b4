/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * Tests for pagesense.c: what the section says comes from the numbers.
 * Each case builds targets in memory (rows of n, round, rep, warmup and
 * create columns; metadata) and checks the sentences in both languages,
 * and that a label never decides one: the same numbers under any name
 * say the same.
 */

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/util.h"
#include "page/html.h"
#include "page/pagesense.h"
#include "record/results.h"

#define NCOLS	9

static const char *const cols[NCOLS] = {
	"round", "rep", "warmup", "n", "create_per_s", "create_ns",
	"create_sys_ns", "create_sectors_read", "create_inodes"
};
/* The caches' inodes at the start of create, per file of n; NAN: none. */
static double	inodes_per_file = NAN;
static const char *const phases[1] = { "create" };
static const bool	has[1] = { true };
static const double	fixed[3] = { 1e4, 1e5, 1e6 };	/* as page.c */

/* A knee at 3,375 files that reads from the disk, and a decline. */
static const double	knee[][6] = {
	{ 1, 1, 1000, 1000, 0.5, 0 }, { 2, 1, 1500, 1000, 0.5, 0 },
	{ 3, 1, 2250, 990, 0.5, 0 }, { 4, 1, 3375, 300, 0.5, 20 },
	{ 5, 1, 5062, 290, 0.5, 22 },
};
static const double	decline[][6] = {
	{ 1, 1, 1000, 1000, 0.9, 0 }, { 2, 1, 1500, 660, 0.9, 0 },
	{ 3, 1, 2250, 440, 0.9, 0 }, { 4, 1, 3375, 300, 0.9, 0 },
	{ 5, 1, 5062, 200, 0.9, 0 },
};

/*
 * Target 'label' with 'nr' rows, each { round, rep, n, rate, sys share,
 * sectors read }, and 'nm' metadata pairs.
 */
static void
target(struct results_target *t, const char *label, const double (*rows)[6],
    size_t nr, const char *const *meta, size_t nm)
{
	size_t	r, i;
	double	*c;

	memset(t, 0, sizeof(*t));
	t->label = xstrdup(label);
	t->ncols = NCOLS;
	t->col = xreallocarray(NULL, NCOLS, sizeof(*t->col));
	for (i = 0; i < NCOLS; i++)
		t->col[i] = xstrdup(cols[i]);
	t->nrows = nr;
	t->cell = xreallocarray(NULL, nr * NCOLS + 1, sizeof(*t->cell));
	for (r = 0; r < nr; r++) {
		c = t->cell + r * NCOLS;
		c[0] = rows[r][0];
		c[1] = rows[r][1];
		c[2] = 0;
		c[3] = rows[r][2];
		c[4] = rows[r][3];
		c[5] = rows[r][2] / rows[r][3] * 1e9;	/* ns of n at rate */
		c[6] = rows[r][4] * c[5];
		c[7] = rows[r][5] * rows[r][2];
		c[8] = inodes_per_file * rows[r][2];
	}
	t->nmeta = nm;
	t->meta = xreallocarray(NULL, nm + 1, sizeof(*t->meta));
	for (i = 0; i < nm; i++) {
		t->meta[i].key = xstrdup(meta[2 * i]);
		t->meta[i].value = xstrdup(meta[2 * i + 1]);
	}
}

/* What pagesense_put() writes for 'rs' in 'lang' (allocated). */
static char *
section(const struct results *rs, enum html_lang lang)
{
	char	*buf = NULL;
	size_t	 len = 0;
	FILE	*fp;

	assert_non_null(fp = open_memstream(&buf, &len));
	pagesense_put(fp, rs, phases, has, 1, fixed, 3, lang);
	assert_int_equal(fclose(fp), 0);
	return buf;
}

static void
has_text(const char *s, const char *want)
{
	if (strstr(s, want) == NULL)
		fail_msg("no '%s' in:\n%s", want, s);
}

/* The fastest at each fixed n, and by how much against the next. */
static void
test_fastest(void **state)
{
	static const double	a[][6] = {
		{ 1, 1, 10000, 900, 0.5, 0 }, { 2, 1, 100000, 800, 0.5, 0 },
	};
	static const double	b[][6] = {
		{ 1, 1, 10000, 300, 0.5, 0 }, { 2, 1, 100000, 1600, 0.5, 0 },
		{ 3, 1, 1000000, 1001, 0.5, 0 },
	};
	static const double	c[][6] = {
		{ 1, 1, 1000000, 1000, 0.5, 0 },
	};
	struct results	rs;
	char		*s;

	(void)state;
	rs.nt = 3;
	rs.t = xreallocarray(NULL, 3, sizeof(*rs.t));
	target(&rs.t[0], "alpha", a, 2, NULL, 0);
	target(&rs.t[1], "beta", b, 3, NULL, 0);
	target(&rs.t[2], "gamma", c, 1, NULL, 0);
	s = section(&rs, HTML_EN);
	has_text(s, "<h2>What this means</h2>");
	has_text(s, "<li>At n = 10,000, the fastest were: create "
	    "<strong>alpha</strong> (900/s, 3 times beta).</li>");
	has_text(s, "<li>At n = 100,000, the fastest were: create "
	    "<strong>beta</strong> (1,600/s, 2 times alpha).</li>");
	/* Within half a per cent, a tie. */
	has_text(s, "<li>At n = 1,000,000, the fastest were: create "
	    "<strong>beta</strong> (1,001/s, as fast as gamma).</li>");
	free(s);
	s = section(&rs, HTML_DE);
	has_text(s, "<h2>Was das bedeutet</h2>");
	has_text(s, "<li>Bei n = 100.000 waren am schnellsten: create "
	    "<strong>beta</strong> (1.600/s, 2-mal so schnell wie alpha).</li>");
	free(s);
	results_free(&rs);
}

/*
 * Targets inside User-Mode Linux and on the host: each kind's fastest
 * among its own, never one kind against the other.
 */
static void
test_fastest_mixed(void **state)
{
	static const double	fast[][6] = { { 1, 1, 10000, 9000, 0.5, 0 } };
	static const double	slow[][6] = { { 1, 1, 10000, 3000, 0.5, 0 } };
	static const double	u1[][6] = { { 1, 1, 10000, 200, 0.5, 0 } };
	static const double	u2[][6] = { { 1, 1, 10000, 100, 0.5, 0 } };
	static const char *const uml[] = { "target_kind", "uml" };
	struct results	rs;
	char		*s;

	(void)state;
	rs.nt = 4;
	rs.t = xreallocarray(NULL, 4, sizeof(*rs.t));
	target(&rs.t[0], "u1", u1, 1, uml, 1);
	target(&rs.t[1], "fast", fast, 1, NULL, 0);
	target(&rs.t[2], "u2", u2, 1, uml, 1);
	target(&rs.t[3], "slow", slow, 1, NULL, 0);
	s = section(&rs, HTML_EN);
	has_text(s, "<li>At n = 10,000 on this machine's kernel, the fastest "
	    "were: create <strong>fast</strong> (9,000/s, 3 times slow).</li>");
	has_text(s, "<li>At n = 10,000 inside User-Mode Linux, the fastest "
	    "were: create <strong>u1</strong> (200/s, 2 times u2).</li>");
	if (strstr(s, "times u1") != NULL || strstr(s, "times fast") != NULL)
		fail_msg("one kind against the other:\n%s", s);
	free(s);
	s = section(&rs, HTML_DE);
	has_text(s, "<li>Bei n = 10.000 in User-Mode Linux waren am "
	    "schnellsten: create <strong>u1</strong> (200/s, 2-mal so schnell "
	    "wie u2).</li>");
	free(s);
	/* All inside User-Mode Linux: no kind named. */
	results_free(&rs);
	rs.nt = 2;
	rs.t = xreallocarray(NULL, 2, sizeof(*rs.t));
	target(&rs.t[0], "u1", u1, 1, uml, 1);
	target(&rs.t[1], "u2", u2, 1, uml, 1);
	s = section(&rs, HTML_EN);
	has_text(s, "<li>At n = 10,000, the fastest were: create "
	    "<strong>u1</strong> (200/s, 2 times u2).</li>");
	free(s);
	results_free(&rs);
}

/*
 * A knee with the disk reading from it on; a decline; a sudden collapse
 * with the CPU in the kernel and no sector read; noise.  Told from the
 * numbers: the labels are anything.
 */
static void
test_falls(void **state)
{
	static const double	collapse[][6] = {
		{ 1, 1, 1000, 1000, 0.7, 0 }, { 2, 1, 1500, 1010, 0.7, 0 },
		{ 3, 1, 2250, 1000, 0.7, 0 }, { 4, 1, 3375, 100, 0.99, 0 },
		{ 5, 1, 5062, 90, 0.98, 0 },
	};
	static const double	noisy[][6] = {
		{ 1, 1, 1000, 1000, 0.5, 0 }, { 1, 2, 1000, 500, 0.5, 0 },
		{ 1, 3, 1000, 1000, 0.5, 0 },
	};
	static const char *const dmeta[] = { "knee_create", "decline" };
	static const char *const wmeta[] = { "warning_load", "round 1" };
	struct results	rs;
	char		*s;

	(void)state;
	rs.nt = 4;
	rs.t = xreallocarray(NULL, 4, sizeof(*rs.t));
	target(&rs.t[0], "k", knee, 5, NULL, 0);
	target(&rs.t[1], "ext4", decline, 5, dmeta, 1);
	target(&rs.t[2], "xfs", collapse, 5, NULL, 0);
	target(&rs.t[3], "n", noisy, 3, wmeta, 1);
	s = section(&rs, HTML_EN);
	has_text(s, "<li><strong>k</strong>: create falls below half its "
	    "plateau between n = 2,250 and n = 3,375; from there on it reads "
	    "21 sectors per file from the disk, 0 before: the directory and "
	    "its inodes no longer fit in the caches.</li>");
	has_text(s, "<li><strong>ext4</strong>: create falls from the start");
	has_text(s, "<li><strong>xfs</strong>: create fell below a quarter "
	    "of its best rate in 2 rounds, with the CPU in the kernel for 98% "
	    "of the time and the disk reading nothing");
	has_text(s, "<li><strong>n</strong>: its run recorded 1 warning of "
	    "noise");
	has_text(s, "and its repetitions of a round differ by 50% (the median "
	    "over rounds and phases): compare its rates with care.</li>");
	/* A decline is no collapse; the knee's target did not collapse. */
	assert_null(strstr(s, "<strong>ext4</strong>: create fell"));
	assert_null(strstr(s, "<strong>k</strong>: create fell"));
	free(s);
	s = section(&rs, HTML_DE);
	has_text(s, "<li><strong>k</strong>: create fällt zwischen n = 2.250 "
	    "und n = 3.375 unter die Hälfte seines Plateaus; von dort an liest "
	    "es 21 Sektoren je Datei von der Platte, vorher 0: Verzeichnis und "
	    "Inodes passen nicht mehr in die Caches.</li>");
	has_text(s, "<li><strong>xfs</strong>: create fiel in 2 Runden unter "
	    "ein Viertel seiner besten Rate, wobei die CPU 98 % der Zeit im "
	    "Kernel war und die Platte nichts las");
	free(s);
	results_free(&rs);
}

/*
 * The causes are named only where the numbers bear them out: a decline
 * is a linear directory's only where mkfs turned dir_index off, and a
 * knee is the caches' only where they held fewer inodes than files.
 */
static void
test_causes(void **state)
{
	static const char *const linear[] = { "knee_create", "decline",
		"mkfs", "mkfs.ext4 -q -F -O ^dir_index /dev/loop0" };
	static const char *const indexed[] = { "knee_create", "decline",
		"mkfs", "mkfs.btrfs -q -f /dev/loop0" };
	struct results	rs;
	char		*s;

	(void)state;
	inodes_per_file = 1.1;	/* the caches hold every file's inode */
	rs.nt = 3;
	rs.t = xreallocarray(NULL, 3, sizeof(*rs.t));
	target(&rs.t[0], "k", knee, 5, NULL, 0);
	target(&rs.t[1], "lin", decline, 5, linear, 2);
	target(&rs.t[2], "idx", decline, 5, indexed, 2);
	s = section(&rs, HTML_EN);
	has_text(s, "<li><strong>k</strong>: create falls below half its "
	    "plateau between n = 2,250 and n = 3,375; from there on it reads "
	    "21 sectors per file from the disk, 0 before.</li>");
	has_text(s, "<li><strong>lin</strong>: create falls from the start, "
	    "as it does where every name is looked for through the whole "
	    "directory (a directory searched linearly, with no index).</li>");
	has_text(s, "<li><strong>idx</strong>: create falls from the "
	    "start.</li>");
	assert_null(strstr(s, "fit in the caches"));
	free(s);
	s = section(&rs, HTML_DE);
	has_text(s, "von der Platte, vorher 0.</li>");
	has_text(s, "<li><strong>idx</strong>: create fällt von Anfang "
	    "an.</li>");
	has_text(s, "<li><strong>lin</strong>: create fällt von Anfang an, "
	    "typisch für ein linear durchsuchtes Verzeichnis ohne Index");
	free(s);
	results_free(&rs);
	inodes_per_file = NAN;
}

/* Nothing to say, no section: one target, one round, no noise. */
static void
test_nothing(void **state)
{
	static const double	one[][6] = { { 1, 1, 1000, 1000, 0.5, 0 } };
	struct results		rs;
	char			*s;

	(void)state;
	rs.nt = 1;
	rs.t = xreallocarray(NULL, 1, sizeof(*rs.t));
	target(&rs.t[0], "solo", one, 1, NULL, 0);
	s = section(&rs, HTML_EN);
	assert_string_equal(s, "");
	free(s);
	results_free(&rs);
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test(test_fastest),
		cmocka_unit_test(test_fastest_mixed),
		cmocka_unit_test(test_falls),
		cmocka_unit_test(test_causes),
		cmocka_unit_test(test_nothing),
	};

	return cmocka_run_group_tests_name("pagesense", tests, NULL, NULL);
}
