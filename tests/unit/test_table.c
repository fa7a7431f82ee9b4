/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * Unit tests for rpctab.c, table.c and pagetable.c, on the crafted results of
 * tests/data/table: run/ holds nfs-a.out (list and liststat with calls,
 * two repetitions at n = 100 whose median is checked, a round at 1,000,
 * warm-ups at 1,000 and 5,000 that must not count), nfs-b.out (list at
 * n = 100 only, a loop and a lost file in different repetitions) and
 * local.out (times but no calls, a round at 10,000 without a listing);
 * old/ holds nfs-old.out, written before PHASE_loop and _lost existed.
 * The text and Markdown are compared whole; the HTML as fragments in
 * both languages.
 */

#include <fcntl.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/util.h"
#include "page/html.h"
#include "page/pagetable.h"
#include "record/results.h"
#include "record/rpctab.h"
#include "verbs/table.h"

#ifndef TEST_DATA
#define TEST_DATA "tests/data"
#endif

#define RUN	TEST_DATA "/table/run"
#define OLD	TEST_DATA "/table/old"

/* What table_put() prints for the directory 'path' as 'want' asks. */
static char *
table_of(const char *path, const struct rpctab_want *want,
    enum table_format format, size_t *nb)
{
	struct results	 r;
	struct rpctab	 t;
	FILE		*fp;
	char		*buf = NULL, err[LD_ERRLEN];
	size_t		 len = 0;
	int		 dfd;

	assert_true((dfd = open(path, O_RDONLY | O_DIRECTORY)) >= 0);
	assert_int_equal(results_read(&r, dfd, path, err), 0);
	assert_true(rpctab_has_calls(&r));
	rpctab_build(&t, &r, want);
	*nb = t.nb;
	assert_non_null(fp = open_memstream(&buf, &len));
	table_put(fp, &t, format);
	assert_int_equal(fclose(fp), 0);
	rpctab_free(&t);
	results_free(&r);
	assert_int_equal(close(dfd), 0);
	return buf;
}

/* What pagetable_put() prints for the directory 'path' in 'lang'. */
static char *
page_of(const char *path, enum html_lang lang)
{
	struct results	 r;
	FILE		*fp;
	char		*buf = NULL, err[LD_ERRLEN];
	size_t		 len = 0;
	int		 dfd;

	assert_true((dfd = open(path, O_RDONLY | O_DIRECTORY)) >= 0);
	assert_int_equal(results_read(&r, dfd, path, err), 0);
	assert_non_null(fp = open_memstream(&buf, &len));
	pagetable_put(fp, &r, lang);
	assert_int_equal(fclose(fp), 0);
	results_free(&r);
	assert_int_equal(close(dfd), 0);
	return buf;
}

/* ===== Times ===== */

static void
test_time(void **state)
{
	static const struct {
		double		 ns;
		double		 v;
		int		 dec;
		const char	*unit;
	} cases[] = {
		{ 0, 0, 0, "s" },
		{ 1, 1, 2, "ns" },
		{ 999, 999, 0, "ns" },
		{ 1000, 1, 2, "\u00b5s" },
		{ 55000, 55, 1, "\u00b5s" },
		{ 999600, 1, 2, "ms" },		/* 3 digits: 1.00 ms */
		{ 1234567, 1.23, 2, "ms" },
		{ 12345678900.0, 12.3, 1, "s" },
		{ 999400000000.0, 999, 0, "s" },
		{ 999600000000.0, 1000, 0, "s" },	/* whole seconds */
		{ 1234567890000.0, 1235, 0, "s" },
	};
	const char	*unit;
	double		 v;
	size_t		 i;
	int		 dec;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_true(rpctab_time(cases[i].ns, &v, &dec, &unit));
		if (fabs(v - cases[i].v) > 1e-9 * fmax(1.0, cases[i].v))
			fail_msg("%g ns: %.12g, expected %g", cases[i].ns, v,
			    cases[i].v);
		assert_int_equal(dec, cases[i].dec);
		assert_string_equal(unit, cases[i].unit);
	}
	assert_false(rpctab_time(NAN, &v, &dec, &unit));
}

/* ===== The text and Markdown ===== */

/*
 * Every n and listing phase; the local target keeps its column with
 * dashes for calls; nfs-b has no round at 1,000 and no liststat; loop
 * and lost show where nfs-b had them and nowhere else; the median of
 * READDIR 1 and 2 rounds to 2; the warm-ups and the round at 10,000
 * without a listing make no block.
 */
static void
test_text(void **state)
{
	static const char want_text[] =
	    "ls -f (list), n = 100     local     nfs-a     nfs-b\n"
	    "  real                  50.0 \u00b5s   2.00 ms   2.00 ms\n"
	    "  user                      0 s   10.0 \u00b5s       0 s\n"
	    "  sys                   40.0 \u00b5s   60.0 \u00b5s       0 s\n"
	    "  READDIR                     -         2         -\n"
	    "  READDIRPLUS                 -         0         2\n"
	    "  loop                        0         0        57\n"
	    "  lost                        0         0         3\n"
	    "\n"
	    "ls -lU (liststat), n = 100    local     nfs-a   nfs-b\n"
	    "  real                       120 \u00b5s   4.00 ms       -\n"
	    "  user                          0 s    200 \u00b5s       -\n"
	    "  sys                        100 \u00b5s    300 \u00b5s       -\n"
	    "  LOOKUP                          -       100       -\n"
	    "  READDIR                         -         1       -\n"
	    "\n"
	    "ls -f (list), n = 1,000    local    nfs-a   nfs-b\n"
	    "  real                    400 \u00b5s   12.3 s       -\n"
	    "  user                       0 s   1.50 s       -\n"
	    "  sys                     300 \u00b5s   1.00 s       -\n"
	    "  READDIR                      -       20       -\n"
	    "\n"
	    "ls -lU (liststat), n = 1,000     local     nfs-a   nfs-b\n"
	    "  real                         1.30 ms   1,235 s       -\n"
	    "  user                          100 \u00b5s    500 ms       -\n"
	    "  sys                          1.20 ms       0 s       -\n"
	    "  LOOKUP                             -     1,000       -\n"
	    "  READDIR                            -        20       -\n";
	struct rpctab_want	 want = { 0, NULL, 0, false };
	char			*s;
	size_t			 nb;

	(void)state;
	s = table_of(RUN, &want, TABLE_TEXT, &nb);
	assert_int_equal(nb, 4);
	assert_string_equal(s, want_text);
	free(s);
}

/* --n and --phases choose the blocks; an n nobody has is left out. */
static void
test_md(void **state)
{
	static const char want_md[] =
	    "### ls -f (list), n = 100\n"
	    "\n"
	    "| | local | nfs-a | nfs-b |\n"
	    "|---|---:|---:|---:|\n"
	    "| real | 50.0 \u00b5s | 2.00 ms | 2.00 ms |\n"
	    "| user | 0 s | 10.0 \u00b5s | 0 s |\n"
	    "| sys | 40.0 \u00b5s | 60.0 \u00b5s | 0 s |\n"
	    "| READDIR | - | 2 | - |\n"
	    "| READDIRPLUS | - | 0 | 2 |\n"
	    "| loop | 0 | 0 | 57 |\n"
	    "| lost | 0 | 0 | 3 |\n"
	    "\n"
	    "### ls -f (list), n = 1,000\n"
	    "\n"
	    "| | local | nfs-a | nfs-b |\n"
	    "|---|---:|---:|---:|\n"
	    "| real | 400 \u00b5s | 12.3 s | - |\n"
	    "| user | 0 s | 1.50 s | - |\n"
	    "| sys | 300 \u00b5s | 1.00 s | - |\n"
	    "| READDIR | - | 20 | - |\n";
	static const double	 ns[] = { 100, 1000, 777 };
	struct rpctab_want	 want = { 1U << 0, ns, 3, false };
	char			*s;
	size_t			 nb;

	(void)state;
	s = table_of(RUN, &want, TABLE_MD, &nb);
	assert_int_equal(nb, 2);
	assert_string_equal(s, want_md);
	free(s);
}

/* Results without loop or lost columns: no such rows. */
static void
test_old(void **state)
{
	static const char want_old[] =
	    "### ls -f (list), n = 100\n"
	    "\n"
	    "| | nfs-old |\n"
	    "|---|---:|\n"
	    "| real | 1.00 ms |\n"
	    "| user | 0 s |\n"
	    "| sys | 0 s |\n"
	    "| READDIR | 1 |\n"
	    "\n"
	    "### ls -f (list), n = 150\n"
	    "\n"
	    "| | nfs-old |\n"
	    "|---|---:|\n"
	    "| real | 2.00 ms |\n"
	    "| user | 10.0 \u00b5s |\n"
	    "| sys | 20.0 \u00b5s |\n"
	    "| READDIR | 2 |\n";
	struct rpctab_want	 want = { 0, NULL, 0, false };
	char			*s;
	size_t			 nb;

	(void)state;
	s = table_of(OLD, &want, TABLE_MD, &nb);
	assert_int_equal(nb, 2);
	assert_string_equal(s, want_old);
	free(s);
}

/* The page takes the n nearest each power of ten: 100 of 100 and 150. */
static void
test_decades(void **state)
{
	struct rpctab_want	 want = { 0, NULL, 0, true };
	char			*s;
	size_t			 nb;

	(void)state;
	s = table_of(OLD, &want, TABLE_TEXT, &nb);
	assert_int_equal(nb, 1);
	assert_non_null(strstr(s, "n = 100 "));
	assert_null(strstr(s, "n = 150"));
	free(s);
}

/* ===== On the page ===== */

static void
test_page(void **state)
{
	static const struct {
		enum html_lang	 lang;
		const char	*want[4];
	} cases[] = {
		{ HTML_EN, {
		    "<h2>Calls and times per listing</h2>\n<div class=\"wide"
		    "\"><table>\n<tr><th></th><th>local</th><th>nfs-a</th>"
		    "<th>nfs-b</th></tr>\n<tr><th colspan=\"4\">ls -f (list), "
		    "n = 100</th></tr>\n<tr><td>real</td><td class=\"num\">"
		    "50 \u00b5s</td><td class=\"num\">2 ms</td><td class=\"num"
		    "\">2 ms</td></tr>\n",
		    "<tr><td>loop</td><td class=\"num\">0</td><td class=\"num"
		    "\">0</td><td class=\"num\">57</td></tr>\n",
		    "<tr><th colspan=\"4\">ls -lU (liststat), n = 1,000</th>"
		    "</tr>\n<tr><td>real</td><td class=\"num\">1.3 ms</td><td "
		    "class=\"num\">1,235 s</td><td class=\"num\">\u2013</td>",
		    "</table></div>\n<p>One group of rows per listing "
		    "phase" } },
		{ HTML_DE, {
		    "<h2>Aufrufe und Zeiten je Auflistung</h2>",
		    "<tr><th colspan=\"4\">ls -lU (liststat), n = 1.000</th>"
		    "</tr>\n<tr><td>real</td><td class=\"num\">1,3 ms</td><td "
		    "class=\"num\">1.235 s</td><td class=\"num\">\u2013</td>",
		    "<td>LOOKUP</td><td class=\"num\">\u2013</td><td class=\""
		    "num\">1.000</td>",
		    "</table></div>\n<p>Eine Gruppe von Zeilen je "
		    "Auflistungsphase" } },
	};
	char	*html;
	size_t	 i, k;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		html = page_of(RUN, cases[i].lang);
		for (k = 0; k < 4; k++)
			if (strstr(html, cases[i].want[k]) == NULL)
				fail_msg("no \"%s\" in\n%s", cases[i].want[k],
				    html);
		assert_null(strstr(html, "n = 10,000"));
		assert_null(strstr(html, "n = 10.000"));
		free(html);
	}
}

/*
 * Nothing on pages without calls of a listing (local filesystems), or
 * whose listings have calls but no times (tests/data/page-nfs).
 */
static void
test_page_nothing(void **state)
{
	static const char *const dirs[] = {
		TEST_DATA "/page/run", TEST_DATA "/page-nfs"
	};
	char	*html;
	size_t	 i;

	(void)state;
	for (i = 0; i < 2; i++) {
		html = page_of(dirs[i], HTML_EN);
		assert_string_equal(html, "");
		free(html);
		html = page_of(dirs[i], HTML_DE);
		assert_string_equal(html, "");
		free(html);
	}
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test(test_time),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_md),
		cmocka_unit_test(test_old),
		cmocka_unit_test(test_decades),
		cmocka_unit_test(test_page),
		cmocka_unit_test(test_page_nothing),
	};

	return cmocka_run_group_tests_name("table", tests, NULL, NULL);
}
