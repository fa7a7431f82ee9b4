/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * Unit tests for pagecalls.c, on the crafted results of
 * tests/data/page-nfs: nfs-new.out (a newer NFS file with PATHCONF and
 * byte counts, two repetitions at its largest n, warm-ups at that n and
 * above it, a smaller round, errors that are no calls), nfs-old.out (an
 * older one without PATHCONF or bytes) and local.out (no rpc columns).
 * The counts of a phase are checked as numbers, the table as exact
 * fragments of its HTML in both languages, written with open_memstream(3);
 * files written here cover rows that are not numbers and labels that
 * need escaping, and one page_write() checks where the table goes.
 */

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/util.h"
#include "page/html.h"
#include "page/page.h"
#include "page/pagecalls.h"
#include "record/results.h"

#ifndef TEST_DATA
#define TEST_DATA "tests/data"
#endif

#define FIXTURE	TEST_DATA "/page-nfs"
#define NAMES	4	/* files in a directory of a test case, at most */
#define WANTS	6	/* fragments a test case looks for, at most */

static char	dir[64];

/* ===== Helpers ===== */

/* Copy the fixture file 'name' into the test directory as 'as'. */
static void
copy_in(const char *name, const char *as)
{
	FILE	*in, *out;
	char	*src, *dst, buf[4096];
	size_t	 n;

	src = xasprintf("%s/%s", FIXTURE, name);
	dst = xasprintf("%s/%s", dir, as);
	assert_non_null(in = fopen(src, "r"));
	assert_non_null(out = fopen(dst, "w"));
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		assert_int_equal(fwrite(buf, 1, n, out), n);
	assert_int_equal(fclose(in), 0);
	assert_int_equal(fclose(out), 0);
	free(src);
	free(dst);
}

/* Write 'text' into the file 'name' of the test directory. */
static void
write_file(const char *name, const char *text)
{
	FILE	*fp;
	char	*path;

	path = xasprintf("%s/%s", dir, name);
	assert_non_null(fp = fopen(path, "w"));
	assert_int_equal(fputs(text, fp) >= 0, 1);
	assert_int_equal(fclose(fp), 0);
	free(path);
}

/* Make an empty test directory. */
static void
make_dir(void)
{
	(void)strcpy(dir, "/tmp/largedir-pagecalls.XXXXXX");
	assert_non_null(mkdtemp(dir));
}

/* Remove the test directory and the files 'names' (NULL-terminated). */
static void
remove_dir(const char *const *names)
{
	char	*path;

	for (; *names != NULL; names++) {
		path = xasprintf("%s/%s", dir, *names);
		assert_int_equal(unlink(path), 0);
		free(path);
	}
	assert_int_equal(rmdir(dir), 0);
}

/* The table pagecalls_put() prints for the directory 'path' in 'lang'. */
static char *
table_of(const char *path, enum html_lang lang)
{
	struct results	 r;
	FILE		*fp;
	char		*buf = NULL, err[LD_ERRLEN];
	size_t		 len = 0;
	int		 dfd;

	assert_true((dfd = open(path, O_RDONLY | O_DIRECTORY)) >= 0);
	assert_int_equal(results_read(&r, dfd, path, err), 0);
	assert_non_null(fp = open_memstream(&buf, &len));
	pagecalls_put(fp, &r, lang);
	assert_int_equal(fclose(fp), 0);
	results_free(&r);
	assert_int_equal(close(dfd), 0);
	return buf;
}

/* How often 'needle' occurs in 'hay'. */
static size_t
count(const char *hay, const char *needle)
{
	size_t	n = 0;

	while ((hay = strstr(hay, needle)) != NULL) {
		n++;
		hay += strlen(needle);
	}
	return n;
}

/* 'v' and 'want' are equal but for rounding (or both NAN). */
static void
assert_near(double v, double want)
{
	if (isnan(want) ? !isnan(v) : !(fabs(v - want) <= 1e-9 *
	    fmax(1.0, fabs(want))))
		fail_msg("%.12g, expected %.12g", v, want);
}

/* ===== The counts of a phase ===== */

static void
test_phase(void **state)
{
	static const struct {
		const char	*label, *phase;
		int		 rc;
		double		 n;
		size_t		 nreps;
		double		 calls;
		const char	*procs;
		double		 out, in, rtt_us;
	} cases[] = {
		/* GETATTR 4 and 8: the mean of the repetitions. */
		{ "nfs-new", "create", 0, 2000, 2, 2.003,
		  "CREATE 1, SETATTR 1, GETATTR 0.003", 1234.5, 500,
		  1001600000.0 / 8012 / 1000 },
		/* Its 3 errors are no calls of their own. */
		{ "nfs-new", "list", 0, 2000, 2, 0.002, "READDIR 0.002", 0.5,
		  20, 250 },
		{ "nfs-new", "open", -1, NAN, 0, NAN, "", NAN, NAN, NAN },
		/* No PATHCONF and no bytes: the bytes are NAN. */
		{ "nfs-old", "create", 0, 1500, 1, 2, "CREATE 1, SETATTR 1",
		  NAN, NAN, 100 },
		{ "nfs-old", "liststat", 0, 1500, 1, 1.002,
		  "LOOKUP 1, READDIR 0.002", NAN, NAN, 50 },
		{ "nfs-old", "list", -1, NAN, 0, NAN, "", NAN, NAN, NAN },
		{ "local", "create", -1, NAN, 0, NAN, "", NAN, NAN, NAN },
	};
	struct results_target	 t;
	struct pagecalls_phase	 ph;
	char			 err[LD_ERRLEN], got[256];
	size_t			 i, k, len;
	int			 dfd;

	(void)state;
	assert_true((dfd = open(FIXTURE, O_RDONLY | O_DIRECTORY)) >= 0);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(results_read_one(&t, dfd, FIXTURE,
		    cases[i].label, err), 0);
		errno = 0;
		assert_int_equal(pagecalls_phase(&t, cases[i].phase, &ph),
		    cases[i].rc);
		if (cases[i].rc == -1)
			assert_int_equal(errno, ENOENT);
		assert_near(ph.n, cases[i].n);
		assert_int_equal(ph.nreps, cases[i].nreps);
		assert_near(ph.calls, cases[i].calls);
		got[0] = '\0';
		for (k = 0, len = 0; k < ph.nproc; k++)
			len += (size_t)snprintf(got + len, sizeof(got) - len,
			    "%s%s %g", k > 0 ? ", " : "", ph.proc[k].name,
			    ph.proc[k].per_file);
		assert_string_equal(got, cases[i].procs);
		assert_int_equal(ph.has_bytes, !isnan(cases[i].out));
		assert_near(ph.bytes_out, cases[i].out);
		assert_near(ph.bytes_in, cases[i].in);
		assert_near(ph.rtt_us, cases[i].rtt_us);
		results_target_free(&t);
	}
	assert_int_equal(close(dfd), 0);
}

/* Rows whose counts are no numbers, and runs with nothing to average. */
static void
test_phase_odd_rows(void **state)
{
	static const char head[] = "# status: complete\n"
	    "round rep warmup n create_rpc_create create_rpc_getattr "
	    "create_rpc_errors create_rpc_rtt_ns\n";
	static const struct {
		const char	*rows;
		int		 rc;
		double		 calls;
		size_t		 nproc;
		double		 rtt_us;
	} cases[] = {
		/* The second repetition has no counts: only the first. */
		{ "1 1 0 10 10 2 0 24000\n1 2 0 10 NaN NaN 0 NaN\n", 0, 1.2,
		  2, 2 },
		/* No round but warm-ups. */
		{ "1 1 1 10 10 2 0 24000\n", -1, NAN, 0, NAN },
		/* The largest round has no counts at all. */
		{ "1 1 0 10 10 2 0 24000\n2 1 0 15 NaN NaN 0 NaN\n", -1, NAN,
		  0, NAN },
		/* Calls without a round trip: no mean. */
		{ "1 1 0 10 10 0 0 NaN\n", 0, 1, 1, NAN },
		/* No calls: no procedure and no round trip per call. */
		{ "1 1 0 10 0 0 5 0\n", 0, 0, 0, NAN },
		/* No rows. */
		{ "", -1, NAN, 0, NAN },
	};
	const char *const	 names[] = { "odd.out", NULL };
	struct results_target	 t;
	struct pagecalls_phase	 ph;
	char			 err[LD_ERRLEN], *text;
	size_t			 i;
	int			 dfd;

	(void)state;
	make_dir();
	assert_true((dfd = open(dir, O_RDONLY | O_DIRECTORY)) >= 0);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		text = xasprintf("%s%s", head, cases[i].rows);
		write_file("odd.out", text);
		free(text);
		assert_int_equal(results_read_one(&t, dfd, dir, "odd", err),
		    0);
		assert_int_equal(pagecalls_phase(&t, "create", &ph),
		    cases[i].rc);
		assert_near(ph.calls, cases[i].calls);
		assert_near(ph.rtt_us, cases[i].rtt_us);
		assert_int_equal(ph.nproc, cases[i].nproc);
		assert_false(ph.has_bytes);
		results_target_free(&t);
	}
	assert_int_equal(close(dfd), 0);
	remove_dir(names);
}

/* An NFSv4 kernel client's operations get rows of their own. */
static void
test_phase_v4(void **state)
{
	const char *const	 names[] = { "v4.out", NULL };
	struct results_target	 t;
	struct pagecalls_phase	 ph;
	char			 err[LD_ERRLEN];
	int			 dfd;

	(void)state;
	make_dir();
	write_file("v4.out", "# status: complete\n"
	    "round rep warmup n create_rpc_open create_rpc_close "
	    "create_rpc_sequence create_rpc_getattr create_rpc_other "
	    "create_rpc_rtt_ns\n1 1 0 100 100 100 200 0 3 40300\n");
	assert_true((dfd = open(dir, O_RDONLY | O_DIRECTORY)) >= 0);
	assert_int_equal(results_read_one(&t, dfd, dir, "v4", err), 0);
	assert_int_equal(pagecalls_phase(&t, "create", &ph), 0);
	assert_near(ph.calls, 4.03);
	assert_int_equal(ph.nproc, 4);
	/* The most frequent first; GETATTR, never called, is left out. */
	assert_string_equal(ph.proc[0].name, "SEQUENCE");
	assert_near(ph.proc[0].per_file, 2);
	assert_string_equal(ph.proc[1].name, "OPEN");
	assert_string_equal(ph.proc[2].name, "CLOSE");
	assert_string_equal(ph.proc[3].name, "OTHER");
	assert_near(ph.proc[3].per_file, 0.03);
	results_target_free(&t);
	assert_int_equal(close(dfd), 0);
	remove_dir(names);
}

/* ===== The table ===== */

static void
test_put(void **state)
{
	static const struct {
		const char	*names[NAMES];
		enum html_lang	 lang;
		size_t		 rows;		/* <tr> in the table */
		const char	*want[WANTS];
		const char	*not[WANTS];
	} cases[] = {
		{ { "nfs-new.out", "nfs-old.out", "local.out" }, HTML_EN, 5,
		  { "<h2>Calls to the server</h2>\n<div class=\"wide\"><table>"
		    "\n<tr><th>Target</th><th>n</th><th>Phase</th>"
		    "<th>Calls per file</th><th>By procedure</th>"
		    "<th>Bytes sent per file</th><th>Bytes received per file"
		    "</th><th>Round trip per call (\u00b5s)</th></tr>\n",
		    "<tr><td rowspan=\"2\">nfs-new</td><td rowspan=\"2\" "
		    "class=\"num\">2,000</td><td>create</td><td class=\"num\">"
		    "2.003</td><td>CREATE 1, SETATTR 1, GETATTR 0.003</td>"
		    "<td class=\"num\">1,234.5</td><td class=\"num\">500</td>"
		    "<td class=\"num\">125</td></tr>\n",
		    "<tr><td>list</td><td class=\"num\">0.002</td><td>READDIR "
		    "0.002</td><td class=\"num\">0.5</td><td class=\"num\">20"
		    "</td><td class=\"num\">250</td></tr>\n",
		    /* An old file in a table with bytes: dashes. */
		    "<td>liststat</td><td class=\"num\">1.002</td><td>"
		    "LOOKUP 1, READDIR 0.002</td><td class=\"num\">\u2013</td>"
		    "<td class=\"num\">\u2013</td><td class=\"num\">50</td>",
		    "</table></div>\n<p>Each row is one phase of an NFS target "
		    "at the largest n" },
		  /* No local target, warm-up or smaller round. */
		  { "local", "8,000", "999", "0.777", "LOOKUP 0" } },
		{ { "nfs-new.out", "nfs-old.out", "local.out" }, HTML_DE, 5,
		  { "<h2>Aufrufe an den Server</h2>",
		    "<th>Target</th><th>n</th><th>Phase</th><th>Aufrufe je Datei"
		    "</th><th>Nach Prozedur</th><th>Gesendete Byte je Datei"
		    "</th><th>Empfangene Byte je Datei</th><th>Umlaufzeit je "
		    "Aufruf (\u00b5s)</th>",
		    "class=\"num\">2.000</td><td>create</td><td class=\"num\">"
		    "2,003</td><td>CREATE 1, SETATTR 1, GETATTR 0,003</td>"
		    "<td class=\"num\">1.234,5</td>",
		    "<td>liststat</td><td class=\"num\">1,002</td><td>"
		    "LOOKUP 1, READDIR 0,002</td>",
		    "<p>Jede Zeile ist eine Phase eines NFS-Targets beim "
		    "größten n" },
		  { "local", "1,234.5", "Bytes" } },
		/* Only an old file: no columns of bytes. */
		{ { "nfs-old.out", "local.out" }, HTML_EN, 3,
		  { "<th>By procedure</th><th>Round trip per call (\u00b5s)"
		    "</th></tr>\n",
		    "<tr><td rowspan=\"2\">nfs-old</td><td rowspan=\"2\" "
		    "class=\"num\">1,500</td><td>create</td><td class=\"num\">"
		    "2</td><td>CREATE 1, SETATTR 1</td><td class=\"num\">100"
		    "</td></tr>\n<tr><td>liststat</td><td class=\"num\">1.002"
		    "</td><td>LOOKUP 1, READDIR 0.002</td><td class=\"num\">"
		    "50</td></tr>\n</table></div>\n" },
		  { "Bytes", "\u2013" } },
		/* Nothing to show: no table at all, in either language. */
		{ { "local.out" }, HTML_EN, 0, { NULL }, { NULL } },
		{ { "local.out" }, HTML_DE, 0, { NULL }, { NULL } },
	};
	char	*html;
	size_t	 i, k;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		make_dir();
		for (k = 0; k < NAMES && cases[i].names[k] != NULL; k++)
			copy_in(cases[i].names[k], cases[i].names[k]);
		html = table_of(dir, cases[i].lang);
		if (cases[i].rows == 0)
			assert_string_equal(html, "");
		else
			assert_int_equal(count(html, "<tr>"),
			    cases[i].rows);
		for (k = 0; k < WANTS && cases[i].want[k] != NULL; k++)
			if (strstr(html, cases[i].want[k]) == NULL)
				fail_msg("case %zu: no \"%s\" in\n%s", i,
				    cases[i].want[k], html);
		for (k = 0; k < WANTS && cases[i].not[k] != NULL; k++)
			if (strstr(html, cases[i].not[k]) != NULL)
				fail_msg("case %zu: \"%s\" in\n%s", i,
				    cases[i].not[k], html);
		free(html);
		remove_dir(cases[i].names);
	}
}

/* The fixture of test_page.c, local filesystems only, gets no table. */
static void
test_put_local_run(void **state)
{
	char	*html;

	(void)state;
	html = table_of(TEST_DATA "/page/run", HTML_EN);
	assert_string_equal(html, "");
	free(html);
	html = table_of(TEST_DATA "/page/run", HTML_DE);
	assert_string_equal(html, "");
	free(html);
}

/* A label and a phase name from the files are HTML-escaped. */
static void
test_put_escape(void **state)
{
	const char *const	 names[] = { "<b>&\"x'.out", "odd.out",
				    NULL };
	char			*html;

	(void)state;
	make_dir();
	copy_in("nfs-old.out", names[0]);
	write_file("odd.out", "round rep warmup n a<i>_rpc_lookup "
	    "a<i>_rpc_rtt_ns\n1 1 0 4 4 4000\n");
	html = table_of(dir, HTML_EN);
	assert_non_null(strstr(html, "<tr><td rowspan=\"2\">"
	    "&lt;b&gt;&amp;&quot;x&#39;</td>"));
	assert_non_null(strstr(html, "<tr><td>odd</td><td class=\"num\">4"
	    "</td><td>a&lt;i&gt;</td><td class=\"num\">1</td><td>LOOKUP 1"
	    "</td><td class=\"num\">1</td></tr>"));
	assert_null(strstr(html, "<b>"));
	assert_null(strstr(html, "<i>"));
	free(html);
	remove_dir(names);
}

/* ===== On the page ===== */

/* The page shows the table between the summary and the targets. */
static void
test_page_place(void **state)
{
	static const struct {
		const char	*file, *summary, *calls;
	} pages[] = {
		{ "index.html", "<h2>Summary</h2>",
		  "<h2>Calls to the server</h2>" },
		{ "index.de.html", "<h2>\u00dcbersicht</h2>",
		  "<h2>Aufrufe an den Server</h2>" },
	};
	const char *const	 names[] = { "nfs-new.out", "nfs-old.out",
				    "local.out", "index.html",
				    "index.de.html", NULL };
	FILE			*fp;
	char			 err[LD_ERRLEN], *path, *html, *s, *c, *t;
	long			 len;
	size_t			 i;

	(void)state;
	make_dir();
	for (i = 0; i < 3; i++)
		copy_in(names[i], names[i]);
	assert_int_equal(page_write(dir, err), 0);
	for (i = 0; i < 2; i++) {
		path = xasprintf("%s/%s", dir, pages[i].file);
		assert_non_null(fp = fopen(path, "r"));
		assert_int_equal(fseek(fp, 0, SEEK_END), 0);
		assert_true((len = ftell(fp)) > 0);
		rewind(fp);
		html = xmalloc((size_t)len + 1);
		assert_int_equal(fread(html, 1, (size_t)len, fp),
		    (size_t)len);
		html[len] = '\0';
		assert_int_equal(fclose(fp), 0);
		assert_non_null(s = strstr(html, pages[i].summary));
		assert_non_null(c = strstr(html, pages[i].calls));
		assert_non_null(t = strstr(html, "<h2>local</h2>"));
		assert_true(s < c && c < t);
		assert_int_equal(count(html, pages[i].calls), 1);
		free(html);
		free(path);
	}
	remove_dir(names);
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test(test_phase),
		cmocka_unit_test(test_phase_odd_rows),
		cmocka_unit_test(test_phase_v4),
		cmocka_unit_test(test_put),
		cmocka_unit_test(test_put_local_run),
		cmocka_unit_test(test_put_escape),
		cmocka_unit_test(test_page_place),
	};

	return cmocka_run_group_tests_name("pagecalls", tests, NULL, NULL);
}
