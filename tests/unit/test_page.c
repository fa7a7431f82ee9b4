/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * Unit tests for page.c: the comparison page written from a fixture
 * results directory (tests/data/page/run: three trimmed .out files, one
 * CSV and a tiny comparison graph) copied into a mkdtemp(3) directory.
 * The pages are read back and checked for escaping, links that resolve
 * inside the directory, the summary table, German number formats and,
 * where xmllint is installed, HTML that parses without errors.
 */

#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/util.h"
#include "page/page.h"

#ifndef TEST_DATA
#define TEST_DATA "tests/data"
#endif

#define FIXTURE	TEST_DATA "/page/run"
#define NELEM(a)	(sizeof(a) / sizeof((a)[0]))
#define ESCAPED	"&lt;b&gt;&amp;&quot;quotes&quot;&#39;"

static char	dir[64];

/* Read the whole file 'name' of the test directory; the caller frees it. */
static char *
slurp(const char *name)
{
	FILE	*fp;
	char	*path, *buf;
	long	 len;

	path = xasprintf("%s/%s", dir, name);
	fp = fopen(path, "r");
	assert_non_null(fp);
	assert_int_equal(fseek(fp, 0, SEEK_END), 0);
	assert_true((len = ftell(fp)) >= 0);
	rewind(fp);
	buf = xmalloc((size_t)len + 1);
	assert_int_equal(fread(buf, 1, (size_t)len, fp), (size_t)len);
	buf[len] = '\0';
	assert_int_equal(fclose(fp), 0);
	free(path);
	return buf;
}

/*
 * Copy the fixture file 'name' (of FIXTURE, or "mail/NAME" of the
 * mailbox fixture) into the test directory.
 */
static void
copy_in(const char *name)
{
	FILE	*in, *out;
	char	*src, *dst, buf[4096];
	size_t	 n;

	if (strncmp(name, "mail/", 5) == 0) {
		src = xasprintf("%s/page/%s", TEST_DATA, name);
		name += 5;
	} else
		src = xasprintf("%s/%s", FIXTURE, name);
	dst = xasprintf("%s/%s", dir, name);
	assert_non_null(in = fopen(src, "r"));
	assert_non_null(out = fopen(dst, "w"));
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		assert_int_equal(fwrite(buf, 1, n, out), n);
	assert_int_equal(fclose(in), 0);
	assert_int_equal(fclose(out), 0);
	free(src);
	free(dst);
}

/* Make the test directory and copy the fixture files 'names' into it. */
static void
setup_dir(const char *const *names)
{
	(void)strcpy(dir, "/tmp/largedir-page.XXXXXX");
	assert_non_null(mkdtemp(dir));
	for (; *names != NULL; names++)
		copy_in(*names);
}

/*
 * Remove the test directory, failing if a file in it starts with a dot
 * (a temporary page left behind).
 */
static void
remove_dir(void)
{
	DIR		*d;
	struct dirent	*de;
	char		*path;

	assert_non_null(d = opendir(dir));
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0)
			continue;
		assert_true(de->d_name[0] != '.');
		path = xasprintf("%s/%s", dir, de->d_name);
		assert_int_equal(unlink(path), 0);
		free(path);
	}
	assert_int_equal(closedir(d), 0);
	assert_int_equal(rmdir(dir), 0);
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

/*
 * Check every value of the attribute 'attr' (e.g. " href=\"") in 'html':
 * a plain file name, no scheme or absolute path, of a file that exists
 * in the test directory.  Return how many there are.
 */
static size_t
check_refs(const char *html, const char *attr)
{
	const char	*p, *end;
	char		*name, *path;
	struct stat	 st;
	size_t		 n = 0;

	for (p = html; (p = strstr(p, attr)) != NULL; p = end) {
		p += strlen(attr);
		assert_non_null(end = strchr(p, '"'));
		name = xasprintf("%.*s", (int)(end - p), p);
		assert_null(strchr(name, ':'));
		assert_null(strchr(name, '/'));
		assert_null(strchr(name, '%'));
		path = xasprintf("%s/%s", dir, name);
		if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
			fail_msg("%s=\"%s\": no such file", attr, name);
		free(path);
		free(name);
		n++;
	}
	return n;
}

/*
 * The German page says every kind of stop reason in German: no English
 * word of them is left in its row.
 */
static void
test_page_reasons(void **state)
{
	static const char *const reasons[] = {
		"interrupted by SIGINT: create in round 4 (n=3,375), after "
		"700 of 3375 files",
		"a measuring process died: open in round 4 (n=3,375), client 2 "
		"(pid 4242) died of SIGKILL",
		"No space left on device: create in round 4 (n=3,375), client "
		"3: after 700 of its 844 files",
		"the work directory vanished (ENOENT): delete in round 4 "
		"(n=3,375), after 5 of 3375 files",
		"Read-only file system: round in round 4 (n=3,375), creating "
		"the round directory",
	};
	static const char *const english[] = {
		"interrupted", " in round ", "after", " of ", "files",
		"process", "died", "client", "vanished", "creating", " its ",
		"No space",
	};
	const char *const	 names[] = { "tmpfs-full.out", NULL };
	char			 err[LD_ERRLEN], *path, *de, *row, *end;
	FILE			*fp;
	size_t			 i, j;

	(void)state;
	for (i = 0; i < NELEM(reasons); i++) {
		setup_dir(names);
		de = slurp("tmpfs-full.out");
		assert_non_null(row = strstr(de, "# stop_reason: "));
		assert_non_null(end = strchr(row, '\n'));
		path = xasprintf("%s/tmpfs-full.out", dir);
		assert_non_null(fp = fopen(path, "w"));
		(void)fprintf(fp, "%.*s# stop_reason: %s%s", (int)(row - de), de,
		    reasons[i], end);
		assert_int_equal(fclose(fp), 0);
		free(de);
		free(path);
		assert_int_equal(page_write(dir, err), 0);
		de = slurp("index.de.html");
		assert_non_null(row = strstr(de, "<td>abgebrochen: "));
		assert_non_null(end = strstr(row, "</td>"));
		*end = '\0';
		for (j = 0; j < NELEM(english); j++)
			if (strstr(row, english[j]) != NULL)
				fail_msg("'%s' in %s", english[j], row);
		free(de);
		remove_dir();
	}
}

/*
 * Run xmllint --html on the page 'name' if xmllint is installed; it must
 * report no error other than an unknown HTML5 tag.
 */
static void
check_xmllint(const char *name)
{
	FILE	*fp;
	char	*cmd, line[1024];

	if (system("command -v xmllint >/dev/null 2>&1") != 0)
		return;
	cmd = xasprintf("xmllint --html --noout %s/%s 2>%s/lint.err", dir,
	    name, dir);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	cmd = xasprintf("%s/lint.err", dir);
	assert_non_null(fp = fopen(cmd, "r"));
	while (fgets(line, sizeof(line), fp) != NULL)
		if (strstr(line, "error") != NULL &&
		    (strstr(line, "Tag ") == NULL ||
		    strstr(line, " invalid") == NULL))
			fail_msg("xmllint %s: %s", name, line);
	assert_int_equal(fclose(fp), 0);
	assert_int_equal(unlink(cmd), 0);
	free(cmd);
}

/* Checks both languages share: structure, escaping, links, resources. */
static void
check_common(const char *html, const char *lang, const char *other)
{
	char	*s;

	s = xasprintf("<html lang=\"%s\">", lang);
	assert_non_null(strstr(html, s));
	free(s);
	assert_true(strncmp(html, "<!DOCTYPE html>\n", 16) == 0);
	assert_non_null(strstr(html, "<meta charset=\"utf-8\">"));
	s = xasprintf("<a href=\"%s\"", other);
	assert_non_null(strstr(html, s));
	free(s);

	/* The description, escaped once, after \x21 was undone. */
	assert_non_null(strstr(html, "tmpfs " ESCAPED "! in RAM"));
	assert_null(strstr(html, "<b>"));
	assert_null(strstr(html, "&amp;lt;"));

	/* One row per target, sorted by label. */
	assert_int_equal(count(html, "<tr class=\"row\">"), 3);
	assert_true(strstr(html, "<td>ext4</td>") <
	    strstr(html, "<td>tmpfs</td>"));
	assert_true(strstr(html, "<td>tmpfs</td>") <
	    strstr(html, "<td>tmpfs-full</td>"));

	/* Links and images only to files of the directory. */
	assert_int_equal(check_refs(html, " href=\""), 6);
	assert_int_equal(check_refs(html, " src=\""), 1);
	assert_non_null(strstr(html, "<img src=\"rates-create.png\" "
	    "width=\"900\" height=\"600\" alt=\"create: "));
	assert_non_null(strstr(html, "<a href=\"rates-create.svg\">"));
	assert_non_null(strstr(html, "<a href=\"ext4.csv\">"));
	assert_null(strstr(html, "href=\"tmpfs.csv\""));
	assert_null(strstr(html, "<script"));
	assert_null(strstr(html, "url("));
	assert_null(strstr(html, "@import"));
	assert_null(strstr(html, "=\"http"));
	assert_null(strstr(html, "=\"//"));

	/* The warm-up row at n = 10,000 is left out. */
	assert_null(strstr(html, "999,999"));
	assert_null(strstr(html, "999.999"));
}

static void
test_page_full(void **state)
{
	const char	*const names[] = { "ext4.out", "ext4.csv", "tmpfs.out",
			    "tmpfs-full.out", "rates-create.png",
			    "rates-create.svg", NULL };
	char		 err[LD_ERRLEN];
	char		*en, *de;

	(void)state;
	setup_dir(names);
	err[0] = '\0';
	assert_int_equal(page_write(dir, err), 0);
	assert_string_equal(err, "");
	en = slurp("index.html");
	de = slurp("index.de.html");
	check_common(en, "en", "index.de.html");
	check_common(de, "de", "index.html");

	/* The median of the three repetitions at n = 11,389. */
	assert_non_null(strstr(en, "title=\"n = 11,389\">200,000</td>"));
	assert_non_null(strstr(de, "title=\"n = 11.389\">200.000</td>"));
	/* No target came near 1,000,000: no columns for it. */
	assert_non_null(strstr(en, "files/s at n = 10,000"));
	assert_non_null(strstr(de, "Dateien/s bei n = 10.000"));
	assert_null(strstr(en, "files/s at n = 1,000,000"));
	assert_non_null(strstr(en, "files/s at the largest n"));
	assert_non_null(strstr(de, "Dateien/s beim größten n"));
	/*
	 * The knee column: the rounds around it (the one before from the
	 * rows), a decline, and nothing for "none".
	 */
	assert_non_null(strstr(en, "<td>create n = 1,000\u201311,389; "
	    "delete: decline</td>"));
	assert_non_null(strstr(de, "<td>create n = 1.000\u201311.389; "
	    "delete: Rückgang</td>"));
	assert_null(strstr(en, "open n ="));
	/* ext4 at n = 100,000 comes from its row at 86,481. */
	assert_non_null(strstr(en, "title=\"n = 86,481\">77,895</td>"));
	assert_non_null(strstr(de, "Arbeitsspeicher: 23,5 GiB"));
	assert_non_null(strstr(en, "memory: 23.5 GiB"));

	/* tmpfs-full ran another budget, and stopped. */
	assert_non_null(strstr(en, "did not all run the same workload"));
	assert_non_null(strstr(en, "<p>tmpfs-full \u2014 time budget: 1 min; "
	    "caches emptied before each phase after create (--cold): drop "
	    "(dentries and inodes); memory limit of the reading phases: "
	    "64 MiB.</p>"));
	assert_non_null(strstr(de, "Speicherlimit der lesenden Phasen: "
	    "64 MiB.</p>"));
	assert_non_null(strstr(de, "<p>ext4 \u2014 Zeitbudget: 18 s."
	    "</p>"));
	assert_non_null(strstr(en, "<td>stopped: No space left on device: "
	    "create in round 4 (n=3,375), after 2996 of 3375 files</td>"));
	/* The German page has the German description where there is one. */
	assert_non_null(strstr(de, "<p>ext4 mit seinem vorgegebenen "
	    "gehashten Verzeichnisindex (zweistufiger Htree)</p>"));
	assert_null(strstr(de, "<p>ext4 with its default"));
	assert_non_null(strstr(en, "<p>ext4 with its default hashed "
	    "directory index (two-level htree)</p>"));
	/* The German page says the stop reason in German. */
	assert_non_null(strstr(de, "<td>abgebrochen: Kein Platz mehr auf dem "
	    "Gerät: create in Runde 4 (n=3.375), nach 2996 von 3375 "
	    "Dateien</td>"));
	assert_non_null(strstr(de, "<td>vollständig</td>"));
	free(en);
	free(de);
	check_xmllint("index.html");
	check_xmllint("index.de.html");
	remove_dir();
}

static void
test_page_same_workload(void **state)
{
	const char	*const names[] = { "ext4.out", "tmpfs.out", NULL };
	char		 err[LD_ERRLEN];
	char		*en;

	(void)state;
	setup_dir(names);
	assert_int_equal(page_write(dir, err), 0);
	/* A second run replaces the pages. */
	assert_int_equal(page_write(dir, err), 0);
	en = slurp("index.html");
	assert_null(strstr(en, "did not all run"));
	assert_null(strstr(en, "Mixed kernels"));
	assert_non_null(strstr(en, "Workload \u2014 phases: create,open,"
	    "delete;"));
	assert_non_null(strstr(en, "There are no comparison graphs"));
	assert_null(strstr(en, "<img"));
	assert_int_equal(count(en, "<tr class=\"row\">"), 2);
	(void)check_refs(en, " href=\"");
	free(en);
	check_xmllint("index.html");
	remove_dir();
}

/* Replace 'from' by 'to' in the test directory's file 'name'. */
static void
rewrite(const char *name, const char *from, const char *to)
{
	FILE	*fp;
	char	*buf, *at, *path;

	buf = slurp(name);
	assert_non_null(at = strstr(buf, from));
	path = xasprintf("%s/%s", dir, name);
	assert_non_null(fp = fopen(path, "w"));
	assert_int_equal(fprintf(fp, "%.*s%s%s", (int)(at - buf), buf, to,
	    at + strlen(from)) > 0, 1);
	assert_int_equal(fclose(fp), 0);
	free(path);
	free(buf);
}

/*
 * Work that syncs on tmpfs, whose fsync does nothing: the target is
 * shown, marked "not durable" in the summary and in its section, and
 * never named the fastest; without fsync it may be.
 */
static void
test_page_durable(void **state)
{
	const char	*const names[] = { "ext4.out", "tmpfs.out", NULL };
	char		 err[LD_ERRLEN];
	char		*en, *de;

	(void)state;
	setup_dir(names);
	assert_int_equal(page_write(dir, err), 0);
	en = slurp("index.html");
	assert_non_null(strstr(en, "create <strong>tmpfs</strong>"));
	assert_null(strstr(en, "not durable"));
	free(en);
	rewrite("ext4.out", "# config.fsync: none", "# config.fsync: file\n"
	    "# image_on_disk: virtio (a virtual machine's disk), write "
	    "cache: write back");
	rewrite("tmpfs.out", "# config.fsync: none", "# config.fsync: file\n"
	    "# warning_load: load 9.00 on 2 CPUs in round 1");
	assert_int_equal(page_write(dir, err), 0);
	en = slurp("index.html");
	de = slurp("index.de.html");
	assert_null(strstr(en, "<strong>tmpfs</strong> ("));
	assert_int_equal(count(en, "<td>tmpfs (not durable)</td>"), 1);
	assert_int_equal(count(en, "<strong>Not durable:</strong>"), 1);
	assert_int_equal(count(de, "<td>tmpfs (nicht dauerhaft)</td>"), 1);
	assert_int_equal(count(de, "<strong>Nicht dauerhaft:</strong>"), 1);
	assert_null(strstr(en, "<td>ext4 (not durable)"));
	/* A virtual disk's fsync, said once, under ext4. */
	assert_int_equal(count(en, "lies on a virtual machine's disk"), 1);
	assert_int_equal(count(de, "auf der Platte einer virtuellen"), 1);
	/* The warning in the section it points to. */
	assert_int_equal(count(en, "<li>busy machine: load 9.00 on 2 CPUs in "
	    "round 1</li>"), 1);
	assert_int_equal(count(de, "<li>Systemlast: load 9.00"), 1);
	free(en);
	free(de);
	check_xmllint("index.html");
	remove_dir();
}

/*
 * Two mailboxes (--workload maildir): the summary has the delivery at
 * the largest n, its rate and latency, "What this means" the latency of
 * the fastest delivery, and each graph's sentence the work that ran.
 */
static void
test_page_mail(void **state)
{
	const char	*const names[] = { "mail/a.out", "mail/b.out", NULL };
	char		 err[LD_ERRLEN];
	char		*en, *de;

	(void)state;
	setup_dir(names);
	assert_int_equal(page_write(dir, err), 0);
	en = slurp("index.html");
	de = slurp("index.de.html");
	assert_int_equal(count(en, "deliver at the largest n</th>"), 1);
	assert_int_equal(count(de, "deliver beim größten n</th>"), 1);
	assert_int_equal(count(en, "<th>mails/s</th><th>p50</th><th>p99"
	    "</th>"), 1);
	assert_int_equal(count(en, " ms</td>"), 4);
	assert_int_equal(count(en, "the fastest were: deliver <strong>"), 1);
	assert_non_null(strstr(en, " ms, p99 "));
	assert_non_null(strstr(en, "<td>complete</td>"));
	assert_int_equal(count(en, "<tr class=\"row\">"), 2);
	free(en);
	free(de);
	check_xmllint("index.html");
	remove_dir();
}

/*
 * How to make it again: each run's command once (the two of the fixture
 * differ), and the notes and logs of the directory linked, in order, but
 * no hidden file and no FIFO.
 */
static void
test_page_reproduce(void **state)
{
	const char	*const names[] = { "ext4.out", "tmpfs.out", NULL };
	char		 err[LD_ERRLEN], *path;
	char		*en;
	FILE		*fp;
	size_t		 i;
	static const char *const extra[] = { "NOTES", "suite.log", ".x.log",
	    "b.conf" };

	(void)state;
	setup_dir(names);
	for (i = 0; i < NELEM(extra); i++) {
		path = xasprintf("%s/%s", dir, extra[i]);
		assert_non_null(fp = fopen(path, "w"));
		assert_int_equal(fclose(fp), 0);
		free(path);
	}
	path = xasprintf("%s/fifo.log", dir);
	assert_int_equal(mkfifo(path, 0600), 0);
	assert_int_equal(page_write(dir, err), 0);
	assert_int_equal(unlink(path), 0);
	free(path);
	en = slurp("index.html");
	assert_int_equal(count(en, "<h2>Reproduce</h2>"), 1);
	assert_int_equal(count(en, "<pre><code>"), 2);
	assert_non_null(strstr(en, "<a href=\"NOTES\">NOTES</a>, "
	    "<a href=\"b.conf\">b.conf</a>, <a href=\"suite.log\">suite.log"
	    "</a>.</p>"));
	assert_null(strstr(en, ".x.log"));
	assert_null(strstr(en, "fifo.log"));
	(void)check_refs(en, " href=\"");
	free(en);
	for (i = 0; i < NELEM(extra); i++) {
		path = xasprintf("%s/%s", dir, extra[i]);
		assert_int_equal(unlink(path), 0);
		free(path);
	}
	remove_dir();
}

/*
 * Targets measured inside User-Mode Linux beside others: the page says
 * so above the graphs and names them; with one kind only it says
 * nothing (test_page_same_workload).
 */
static void
test_page_uml_mix(void **state)
{
	const char	*const names[] = { "ext4.out", "tmpfs.out", NULL };
	char		 err[LD_ERRLEN], *text, *at, *path;
	FILE		*fp;

	(void)state;
	setup_dir(names);
	text = slurp("tmpfs.out");
	assert_non_null(at = strstr(text, "# target_kind: tmpfs\n"));
	path = xasprintf("%s/tmpfs.out", dir);
	assert_non_null(fp = fopen(path, "w"));
	(void)fprintf(fp, "%.*s# target_kind: uml\n%s", (int)(at - text),
	    text, at + strlen("# target_kind: tmpfs\n"));
	assert_int_equal(fclose(fp), 0);
	free(path);
	free(text);
	assert_int_equal(page_write(dir, err), 0);
	text = slurp("index.html");
	assert_non_null(strstr(text, "<p><strong>Mixed kernels:</strong> "
	    "tmpfs: measured inside User-Mode Linux, the others on this "
	    "machine's own kernel."));
	free(text);
	text = slurp("index.de.html");
	assert_non_null(strstr(text, "<p><strong>Gemischte Kernel:</strong> "
	    "tmpfs: in User-Mode Linux gemessen"));
	free(text);
	check_xmllint("index.html");
	remove_dir();
}

static void
test_page_nothing(void **state)
{
	const char	*const none[] = { NULL };
	char		 err[LD_ERRLEN], *path;

	(void)state;
	setup_dir(none);
	errno = 0;
	assert_int_equal(page_write(dir, err), -1);
	assert_int_equal(errno, ENOENT);
	path = xasprintf("no .out files in %s", dir);
	assert_string_equal(err, path);
	free(path);
	/* A directory named like a target is none. */
	path = xasprintf("%s/x.out", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	assert_int_equal(page_write(dir, err), -1);
	assert_int_equal(rmdir(path), 0);
	free(path);
	remove_dir();

	assert_int_equal(page_write("/nonexistent/largedir", err), -1);
	assert_int_equal(errno, ENOENT);
	assert_string_equal(err, "open /nonexistent/largedir: "
	    "No such file or directory");
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test(test_page_full),
		cmocka_unit_test(test_page_reasons),
		cmocka_unit_test(test_page_same_workload),
		cmocka_unit_test(test_page_durable),
		cmocka_unit_test(test_page_mail),
		cmocka_unit_test(test_page_reproduce),
		cmocka_unit_test(test_page_uml_mix),
		cmocka_unit_test(test_page_nothing),
	};

	return cmocka_run_group_tests_name("page", tests, NULL, NULL);
}
