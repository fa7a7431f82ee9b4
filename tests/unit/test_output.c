/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * test_output: the result document, the three writers and the atomic
 * flush.
 *
 * One fixed document, with awkward metadata (newline, tab, quote,
 * backslash, comma, UTF-8 and a byte that is not UTF-8) and a missing
 * cell, is printed by each writer into open_memstream(3) and compared
 * byte for byte with tests/data/golden/doc.{out,csv,json}; those files
 * are the specification of the formats.  The JSON is also parsed back
 * with jansson.  The flush tests work in a mkdtemp(3) directory with real
 * system calls; failures are staged with a removed directory, a bad file
 * descriptor, a directory in the way and /dev/full, and the attack of
 * issue 16 (links and a FIFO planted under the names the writers use)
 * must leave its victim untouched.
 */

#include <sys/resource.h>
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "base/util.h"
#include "record/output.h"

#ifndef TEST_DATA
#define TEST_DATA "tests/data"
#endif

#define NELEM(a)	(sizeof(a) / sizeof((a)[0]))

/* A value with everything a metadata writer must escape. */
#define NOTE	"line1\nline2\ttab \"quoted\" back\\slash, comma"

static void	 build_doc(struct output_doc *);
static char	*render(int (*)(FILE *, const struct output_doc *),
		    const struct output_doc *, size_t *);
static char	*slurp(const char *, size_t *);
static char	*slurp_at(int, const char *, size_t *);
static void	 check_golden(int (*)(FILE *, const struct output_doc *),
		    const char *);
static int	 count_entries(const char *);
static char	*contents(const char *);
static int	 print_x(FILE *, const void *);
static void	 remove_tree(const char *);

/* ===== Helpers ===== */

/* Fill 'doc' with the fixed document the golden files show. */
static void
build_doc(struct output_doc *doc)
{
	double	*r;

	output_doc_init(doc);
	doc->largedir = xstrdup("0.1.0-test");
	kv_set(&doc->meta, "host", "%s", "box");
	kv_set(&doc->meta, "note", "%s", NOTE);
	kv_set(&doc->meta, "label", "%s", "Gr\xc3\xb6\xc3\x9f" "e");
	kv_set(&doc->meta, "raw", "a\xff" "b");
	kv_set(&doc->meta, "empty", "%s", "");
	kv_set(&doc->config, "budget", "%s", "60s");
	kv_set(&doc->config, "order", "%s", "random");
	kv_set(&doc->config, "seed", "%d", 42);

	output_table_col(&doc->rows, "round", -1);
	output_table_col(&doc->rows, "rep", -1);
	output_table_col(&doc->rows, "warmup", -1);
	output_table_col(&doc->rows, "n", -1);
	output_table_col(&doc->rows, "create_ns", -1);
	output_table_col(&doc->rows, "create_per_s", 1);
	output_table_col(&doc->rows, "load1_start", 2);
	r = output_table_row(&doc->rows);
	r[0] = 0, r[1] = 0, r[2] = 1, r[3] = 100, r[4] = 1500000;
	r[5] = 100 / 1.5e-3, r[6] = 0.25;
	r = output_table_row(&doc->rows);
	r[0] = 1, r[1] = 0, r[2] = 0, r[3] = 150, r[4] = 2250000;
	r[5] = 150 / 2.25e-3;			/* load1_start missing */
	r = output_table_row(&doc->rows);
	r[0] = 2, r[1] = 0, r[2] = 0, r[3] = 225, r[4] = 9007199254740991.0;
	r[5] = 1234567.89, r[6] = 12.5;

	output_table_col(&doc->summary, "round", -1);
	output_table_col(&doc->summary, "n", -1);
	output_table_col(&doc->summary, "create_per_s_median", 1);
	output_table_col(&doc->summary, "create_per_s_mad", 1);
	r = output_table_row(&doc->summary);
	r[0] = 1, r[1] = 150, r[2] = 66666.66, r[3] = 0;

	doc->status = OUTPUT_STOPPED;
	doc->stop_reason = xstrdup("no space left on device");
	doc->stop_errno = ENOSPC;
	doc->stop_n = 337;
	doc->stop_phase = xstrdup("create");
}

/* Run 'fn' on 'doc' into memory; return the bytes (caller frees). */
static char *
render(int (*fn)(FILE *, const struct output_doc *),
    const struct output_doc *doc, size_t *lenp)
{
	FILE	*fp;
	char	*buf = NULL;
	size_t	 len = 0;

	fp = open_memstream(&buf, &len);
	assert_non_null(fp);
	assert_int_equal(fn(fp, doc), 0);
	assert_int_equal(fclose(fp), 0);
	if (lenp != NULL)
		*lenp = len;
	return buf;
}

/* Read the file 'path' into a NUL-terminated buffer (caller frees). */
static char *
slurp(const char *path, size_t *lenp)
{
	return slurp_at(AT_FDCWD, path, lenp);
}

/* Read 'path' relative to 'dirfd'; NULL if it cannot be opened. */
static char *
slurp_at(int dirfd, const char *path, size_t *lenp)
{
	char	*buf;
	size_t	 len = 0, cap = 4096;
	ssize_t	 n;
	int	 fd;

	if ((fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC)) == -1)
		return NULL;
	buf = xmalloc(cap);
	for (;;) {
		if (len + 1 == cap)
			buf = xreallocarray(buf, cap *= 2, 1);
		n = read(fd, buf + len, cap - len - 1);
		assert_true(n >= 0);
		if (n == 0)
			break;
		len += (size_t)n;
	}
	assert_int_equal(close(fd), 0);
	buf[len] = '\0';
	if (lenp != NULL)
		*lenp = len;
	return buf;
}

/* Compare the output of 'fn' for the fixed document with 'golden'. */
static void
check_golden(int (*fn)(FILE *, const struct output_doc *),
    const char *golden)
{
	struct output_doc	 doc;
	char			*got, *want;
	size_t			 got_len, want_len;

	build_doc(&doc);
	got = render(fn, &doc, &got_len);
	want = slurp(golden, &want_len);
	if (want == NULL)
		fail_msg("cannot read %s: %s", golden, strerror(errno));
	assert_string_equal(got, want);
	assert_int_equal(got_len, want_len);
	free(got);
	free(want);
	output_doc_free(&doc);
}

/* Return the number of entries in directory 'path', without . and .. */
static int
count_entries(const char *path)
{
	DIR		*d;
	struct dirent	*e;
	int		 n = 0;

	d = opendir(path);
	assert_non_null(d);
	while ((e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			n++;
	assert_int_equal(closedir(d), 0);
	return n;
}

/* Remove the flat directory 'path' and everything in it. */
static void
remove_tree(const char *path)
{
	DIR		*d;
	struct dirent	*e;

	d = opendir(path);
	assert_non_null(d);
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (unlinkat(dirfd(d), e->d_name, 0) == -1)
			assert_int_equal(unlinkat(dirfd(d), e->d_name,
			    AT_REMOVEDIR), 0);
	}
	assert_int_equal(closedir(d), 0);
	assert_int_equal(rmdir(path), 0);
}

/* ===== Document ===== */

static void
test_kv_order(void **state)
{
	struct kvlist	list = { NULL, 0, 0 };
	int			i;

	(void)state;
	kv_set(&list, "a", "%d", 1);
	kv_set(&list, "b", "%s-%s", "x", "y");
	kv_set(&list, "c", "three");
	kv_set(&list, "b", "%d", 22);
	assert_int_equal(list.len, 3);
	assert_string_equal(list.kv[0].key, "a");
	assert_string_equal(list.kv[1].key, "b");
	assert_string_equal(list.kv[1].value, "22");
	assert_string_equal(list.kv[2].key, "c");
	assert_string_equal(kv_get(&list, "a"), "1");
	assert_string_equal(kv_get(&list, "c"), "three");
	assert_null(kv_get(&list, "d"));
	for (i = 0; i < 100; i++)
		kv_set(&list, "k", "%d", i);
	assert_int_equal(list.len, 4);
	assert_string_equal(kv_get(&list, "k"), "99");
	kv_free(&list);
	assert_int_equal(list.len, 0);
	assert_null(kv_get(&list, "a"));
	kv_free(&list);
}

static void
test_table(void **state)
{
	struct output_table	 t;
	double			*r;
	size_t			 i;

	(void)state;
	output_table_init(&t);
	assert_int_equal(output_table_col(&t, "a", -1), 0);
	assert_int_equal(output_table_col(&t, "b", 2), 1);
	assert_int_equal(output_table_col(&t, "c", 0), 2);
	for (i = 0; i < 100; i++) {
		r = output_table_row(&t);
		assert_true(isnan(r[0]) && isnan(r[1]) && isnan(r[2]));
		r[0] = (double)i;
		r[2] = (double)i * 2;
	}
	assert_int_equal(t.nrows, 100);
	for (i = 0; i < 100; i++) {
		assert_true(t.cells[i * 3] == (double)i);
		assert_true(isnan(t.cells[i * 3 + 1]));
		assert_true(t.cells[i * 3 + 2] == (double)i * 2);
	}
	errno = 0;
	assert_true(output_table_col(&t, "late", 0) == SIZE_MAX);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(t.ncols, 3);
	output_table_free(&t);
	assert_int_equal(t.ncols, 0);
	assert_int_equal(t.nrows, 0);
	output_table_free(&t);
}

static void
test_status_names(void **state)
{
	static const struct {
		enum output_status	 status;
		const char		*name;
	} tab[] = {
		{ OUTPUT_RUNNING, "running" },
		{ OUTPUT_COMPLETE, "complete" },
		{ OUTPUT_STOPPED, "stopped" },
		{ OUTPUT_INTERRUPTED, "interrupted" },
		{ OUTPUT_FAILED, "failed" },
	};
	struct output_doc	doc;
	size_t			i;

	(void)state;
	for (i = 0; i < NELEM(tab); i++)
		assert_string_equal(output_status_name(tab[i].status),
		    tab[i].name);
	output_doc_init(&doc);
	assert_int_equal(doc.status, OUTPUT_RUNNING);
	assert_null(doc.largedir);
	assert_int_equal(doc.meta.len, 0);
	assert_int_equal(doc.rows.ncols, 0);
	output_doc_free(&doc);
	output_doc_free(&doc);
}

/* ===== Writers against the golden files ===== */

static void
test_dat_golden(void **state)
{
	(void)state;
	check_golden(out_dat_write, TEST_DATA "/golden/doc.out");
}

static void
test_csv_golden(void **state)
{
	(void)state;
	check_golden(out_csv_write, TEST_DATA "/golden/doc.csv");
}

static void
test_json_golden(void **state)
{
	(void)state;
	check_golden(out_json_write, TEST_DATA "/golden/doc.json");
}

static void
test_sum_golden(void **state)
{
	(void)state;
	check_golden(out_sum_write, TEST_DATA "/golden/doc.summary");
}

/* ===== JSON read back ===== */

static void
test_json_parse(void **state)
{
	struct output_doc	 doc;
	json_error_t		 jerr;
	json_t			*root, *v, *row;
	char			*text;

	(void)state;
	build_doc(&doc);
	text = render(out_json_write, &doc, NULL);
	root = json_loads(text, 0, &jerr);
	if (root == NULL)
		fail_msg("json line %d: %s", jerr.line, jerr.text);
	assert_int_equal(json_integer_value(json_object_get(root, "format")),
	    1);
	assert_string_equal(json_string_value(json_object_get(root,
	    "largedir")), "0.1.0-test");
	assert_string_equal(json_string_value(json_object_get(root,
	    "status")), "stopped");
	v = json_object_get(root, "stop");
	assert_string_equal(json_string_value(json_object_get(v, "errno")),
	    "ENOSPC");
	assert_int_equal(json_integer_value(json_object_get(v, "n")), 337);
	assert_string_equal(json_string_value(json_object_get(v, "phase")),
	    "create");

	v = json_object_get(root, "meta");
	assert_int_equal(json_object_size(v), 5);
	assert_string_equal(json_string_value(json_object_get(v, "note")),
	    NOTE);
	assert_string_equal(json_string_value(json_object_get(v, "label")),
	    "Gr\xc3\xb6\xc3\x9f" "e");
	assert_string_equal(json_string_value(json_object_get(v, "raw")),
	    "a\xef\xbf\xbd" "b");
	assert_string_equal(json_string_value(json_object_get(v, "empty")),
	    "");
	v = json_object_get(root, "config");
	assert_int_equal(json_object_size(v), 3);
	assert_string_equal(json_string_value(json_object_get(v, "seed")),
	    "42");

	assert_int_equal(json_array_size(json_object_get(root, "columns")),
	    7);
	v = json_object_get(root, "rounds");
	assert_int_equal(json_array_size(v), 3);
	row = json_array_get(v, 2);
	assert_int_equal(json_object_size(row), 7);
	assert_true(json_integer_value(json_object_get(row, "create_ns")) ==
	    9007199254740991LL);
	assert_true(json_is_real(json_object_get(row, "load1_start")));
	assert_true(json_real_value(json_object_get(row, "load1_start")) ==
	    12.5);
	row = json_array_get(v, 1);
	assert_true(json_is_null(json_object_get(row, "load1_start")));
	assert_int_equal(json_integer_value(json_object_get(row, "n")), 150);
	v = json_object_get(root, "summary");
	assert_int_equal(json_array_size(v), 1);
	row = json_array_get(v, 0);
	assert_int_equal(json_object_size(row), 4);
	assert_true(json_real_value(json_object_get(row,
	    "create_per_s_median")) == 66666.7);

	json_decref(root);
	free(text);
	output_doc_free(&doc);
}

static void
test_empty_doc(void **state)
{
	struct output_doc	 doc;
	json_error_t		 jerr;
	json_t			*root;
	char			*text;

	(void)state;
	output_doc_init(&doc);
	text = render(out_json_write, &doc, NULL);
	assert_string_equal(text, "{\n"
	    "  \"format\": 1,\n"
	    "  \"largedir\": \"\",\n"
	    "  \"status\": \"running\",\n"
	    "  \"stop\": null,\n"
	    "  \"meta\": {},\n"
	    "  \"config\": {},\n"
	    "  \"columns\": [],\n"
	    "  \"rounds\": [],\n"
	    "  \"summary\": []\n"
	    "}\n");
	root = json_loads(text, 0, &jerr);
	if (root == NULL)
		fail_msg("json line %d: %s", jerr.line, jerr.text);
	assert_true(json_is_null(json_object_get(root, "stop")));
	assert_int_equal(json_array_size(json_object_get(root, "rounds")), 0);
	json_decref(root);
	free(text);

	text = render(out_dat_write, &doc, NULL);
	assert_string_equal(text, "# largedir: \n# format: 1\n"
	    "# status: running\n");
	free(text);
	text = render(out_csv_write, &doc, NULL);
	assert_string_equal(text, "");
	free(text);
	output_doc_free(&doc);
}

/* ===== Escaping and number tables ===== */

static void
test_json_escape(void **state)
{
	static const struct {
		const char	*in;
		const char	*out;
	} tab[] = {
		{ "plain", "\"plain\"" },
		{ "q\"b\\s/", "\"q\\\"b\\\\s/\"" },
		{ "\b\f\n\r\t", "\"\\b\\f\\n\\r\\t\"" },
		{ "\x01\x1f\x7f", "\"\\u0001\\u001f\\u007f\"" },
		{ "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80",
		    "\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"" },
		{ "\xff", "\"\\ufffd\"" },
		{ "\x80x", "\"\\ufffdx\"" },			/* stray */
		{ "\xc0\xaf", "\"\\ufffd\\ufffd\"" },		/* overlong */
		{ "\xe0\x80\xaf", "\"\\ufffd\\ufffd\\ufffd\"" },
		/* A surrogate (U+D800) and a code point above U+10FFFF. */
		{ "\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"" },
		{ "\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"" },
		{ "\xf5", "\"\\ufffd\"" },
		{ "\xe2\x82", "\"\\ufffd\\ufffd\"" },		/* cut short */
	};
	struct output_doc	 doc;
	json_error_t		 jerr;
	json_t			*root;
	char			*text, *want;
	size_t			 i;

	(void)state;
	for (i = 0; i < NELEM(tab); i++) {
		output_doc_init(&doc);
		kv_set(&doc.meta, "k", "%s", tab[i].in);
		text = render(out_json_write, &doc, NULL);
		want = xasprintf("\"k\": %s\n", tab[i].out);
		if (strstr(text, want) == NULL)
			fail_msg("case %zu: want %s in %s", i, want, text);
		root = json_loads(text, 0, &jerr);
		if (root == NULL)
			fail_msg("case %zu: %s", i, jerr.text);
		json_decref(root);
		free(want);
		free(text);
		output_doc_free(&doc);
	}
}

static void
test_dat_escape(void **state)
{
	static const struct {
		const char	*key;
		const char	*value;
		const char	*line;
	} tab[] = {
		{ "k", "plain text", "# k: plain text\n" },
		{ "k", "a\nb", "# k: a\\nb\n" },
		{ "k", "\t\r\\", "# k: \\t\\r\\\\\n" },
		{ "k", "\x01\x1b\x7f", "# k: \\x01\\x1b\\x7f\n" },
		{ "k", "\"q\", \xc3\xa9\xff", "# k: \"q\", \xc3\xa9\xff\n" },
		{ "a\nkey", "v", "# a\\nkey: v\n" },
	};
	struct output_doc	 doc;
	char			*text;
	size_t			 i;

	(void)state;
	for (i = 0; i < NELEM(tab); i++) {
		output_doc_init(&doc);
		kv_set(&doc.meta, tab[i].key, "%s", tab[i].value);
		kv_set(&doc.config, tab[i].key, "%s", tab[i].value);
		text = render(out_dat_write, &doc, NULL);
		if (strstr(text, tab[i].line) == NULL)
			fail_msg("case %zu: want %s in %s", i, tab[i].line,
			    text);
		free(text);
		output_doc_free(&doc);
	}
}

static void
test_csv_quoting(void **state)
{
	static const struct {
		const char	*name;
		const char	*field;
	} tab[] = {
		{ "plain", "plain" },
		{ "with space", "with space" },
		{ "a,b", "\"a,b\"" },
		{ "say \"hi\"", "\"say \"\"hi\"\"\"" },
		{ "\"", "\"\"\"\"" },
		{ "cr\rlf\n", "\"cr\rlf\n\"" },
		{ "crlf\r\nx", "\"crlf\r\nx\"" },
	};
	struct output_doc	 doc;
	char			*text, *want;
	size_t			 i;
	double			*r;

	(void)state;
	for (i = 0; i < NELEM(tab); i++) {
		output_doc_init(&doc);
		output_table_col(&doc.rows, "n", -1);
		output_table_col(&doc.rows, tab[i].name, -1);
		r = output_table_row(&doc.rows);
		r[0] = 1, r[1] = 2;
		output_table_row(&doc.rows);
		text = render(out_csv_write, &doc, NULL);
		want = xasprintf("n,%s\r\n1,2\r\n,\r\n", tab[i].field);
		assert_string_equal(text, want);
		free(want);
		free(text);
		output_doc_free(&doc);
	}
}

static void
test_cells(void **state)
{
	static const struct {
		int		 prec;
		double		 v;
		const char	*text;	/* NULL: missing */
	} tab[] = {
		{ -1, 0, "0" },
		{ -1, -0.0, "0" },
		{ -1, 42, "42" },
		{ -1, 9007199254740991.0, "9007199254740991" },
		{ -1, 1e15, "1000000000000000" },
		{ 0, 2.5, "2" },
		{ 1, 66666.666666, "66666.7" },
		{ 2, 0.125, "0.12" },
		{ 3, 1, "1.000" },
		{ 2, NAN, NULL },
		{ -1, INFINITY, NULL },
		{ 1, -INFINITY, NULL },
	};
	struct output_doc	 doc;
	char			*text, *want;
	size_t			 i;

	(void)state;
	for (i = 0; i < NELEM(tab); i++) {
		output_doc_init(&doc);
		output_table_col(&doc.rows, "v", tab[i].prec);
		output_table_row(&doc.rows)[0] = tab[i].v;

		text = render(out_dat_write, &doc, NULL);
		want = xasprintf("\nv\n%s\n", tab[i].text == NULL ? "NaN" :
		    tab[i].text);
		if (strstr(text, want) == NULL)
			fail_msg("case %zu: want %s in %s", i, want, text);
		free(want);
		free(text);

		text = render(out_csv_write, &doc, NULL);
		want = xasprintf("v\r\n%s\r\n", tab[i].text == NULL ? "" :
		    tab[i].text);
		assert_string_equal(text, want);
		free(want);
		free(text);

		text = render(out_json_write, &doc, NULL);
		want = xasprintf("{\"v\": %s}", tab[i].text == NULL ? "null" :
		    tab[i].text);
		if (strstr(text, want) == NULL)
			fail_msg("case %zu: want %s in %s", i, want, text);
		free(want);
		free(text);
		output_doc_free(&doc);
	}
}

static void
test_write_error(void **state)
{
	struct output_doc	 doc;
	const struct writer	*w;
	FILE			*fp;

	(void)state;
	build_doc(&doc);
	for (w = output_writers; w->name != NULL; w++) {
		if ((fp = fopen("/dev/full", "w")) == NULL)
			skip();
		errno = 0;
		assert_int_equal(w->write(fp, &doc), -1);
		assert_int_equal(errno, ENOSPC);
		(void)fclose(fp);
	}
	output_doc_free(&doc);
}

/* ===== Atomic flush ===== */

static void
test_flush(void **state)
{
	static const char	*names[] = { "doc.out", "doc.csv", "doc.json",
	    "doc.summary" };
	struct output_doc	 doc;
	struct output_id	 ids[OUTPUT_NWRITERS];
	const struct writer	*w;
	char			 dir[] = "/tmp/test_output.XXXXXX";
	char			 err[LD_ERRLEN];
	char			*got, *want, *old;
	size_t			 i, got_len, want_len;
	int			 dfd, pass;
	double			*r;

	(void)state;
	assert_non_null(mkdtemp(dir));
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(dfd >= 0);
	build_doc(&doc);
	memset(ids, 0, sizeof(ids));
	for (pass = 0; pass < 2; pass++) {
		old = slurp_at(dfd, "doc.json", NULL);
		if (pass == 1) {
			r = output_table_row(&doc.rows);
			r[0] = 3, r[1] = 0, r[2] = 0, r[3] = 337;
			doc.status = OUTPUT_COMPLETE;
		}
		err[0] = '\0';
		assert_int_equal(output_flush(dfd, "doc", &doc, ids, err), 0);
		assert_string_equal(err, "");
		assert_int_equal(count_entries(dir), NELEM(names));
		for (i = 0, w = output_writers; w->name != NULL; i++, w++) {
			assert_true(i < NELEM(names));
			got = slurp_at(dfd, names[i], &got_len);
			assert_non_null(got);
			want = render(w->write, &doc, &want_len);
			assert_int_equal(got_len, want_len);
			assert_memory_equal(got, want, want_len);
			free(got);
			free(want);
		}
		got = slurp_at(dfd, "doc.json", NULL);
		if (pass == 1) {
			assert_non_null(old);
			assert_string_not_equal(old, got);
			assert_non_null(strstr(got, "\"complete\""));
		}
		free(got);
		free(old);
	}
	output_ids_close(ids, OUTPUT_NWRITERS);
	output_doc_free(&doc);
	assert_int_equal(close(dfd), 0);
	remove_tree(dir);
}

static void
test_flush_bad_dir(void **state)
{
	struct output_doc	 doc;
	struct output_id	 ids[OUTPUT_NWRITERS] = { { 0 } };
	char			 dir[] = "/tmp/test_output.XXXXXX";
	char			 err[LD_ERRLEN];
	int			 dfd;

	(void)state;
	build_doc(&doc);
	assert_non_null(mkdtemp(dir));
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(dfd >= 0);
	assert_int_equal(rmdir(dir), 0);
	err[0] = '\0';
	assert_int_equal(output_flush(dfd, "doc", &doc, ids, err), -1);
	assert_int_equal(errno, ENOENT);
	assert_string_equal(err, "open doc.out: No such file or directory");
	assert_int_equal(close(dfd), 0);
	assert_int_equal(access(dir, F_OK), -1);

	err[0] = '\0';
	assert_int_equal(output_flush(-1, "doc", &doc, ids, err), -1);
	assert_int_equal(errno, EBADF);
	assert_non_null(strstr(err, "doc.out"));
	output_doc_free(&doc);
}

/*
 * A directory where doc.csv should go is left in place: EEXIST, and no
 * file is written, so the files agree.
 */
static void
test_flush_dir_in_the_way(void **state)
{
	struct output_doc	 doc;
	struct output_id	 ids[OUTPUT_NWRITERS] = { { 0 } };
	char			 dir[] = "/tmp/test_output.XXXXXX";
	char			 err[LD_ERRLEN];
	char			*path;
	struct stat		 sb;
	int			 dfd;

	(void)state;
	build_doc(&doc);
	assert_non_null(mkdtemp(dir));
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(dfd >= 0);
	assert_int_equal(mkdirat(dfd, "doc.csv", 0755), 0);
	err[0] = '\0';
	assert_int_equal(output_flush(dfd, "doc", &doc, ids, err), -1);
	assert_int_equal(errno, EEXIST);
	assert_string_equal(err, "doc.csv exists and is not a file largedir "
	    "wrote: left in place");
	assert_int_equal(fstatat(dfd, "doc.out", &sb, 0), -1);
	assert_int_equal(fstatat(dfd, "doc.csv", &sb, 0), 0);
	assert_true(S_ISDIR(sb.st_mode));
	assert_int_equal(fstatat(dfd, "doc.json", &sb, 0), -1);
	/* The directory alone: no temporary file is left. */
	assert_int_equal(count_entries(dir), 1);
	path = xasprintf("%s/doc.csv", dir);
	assert_int_equal(rmdir(path), 0);
	free(path);
	output_ids_close(ids, OUTPUT_NWRITERS);
	output_doc_free(&doc);
	assert_int_equal(close(dfd), 0);
	remove_tree(dir);
}

/*
 * Issue 16, point 5: a flush that runs out of room half way (a file size
 * limit stands in for a full filesystem) changes no file: the four stay
 * those of the flush before, which agree, and nothing temporary is left.
 */
static void
test_flush_full(void **state)
{
	static const char	*names[] = { "doc.out", "doc.csv", "doc.json",
	    "doc.summary" };
	struct output_doc	 doc;
	struct output_id	 ids[OUTPUT_NWRITERS] = { { 0 } };
	struct rlimit		 rl, small;
	struct stat		 sb;
	char			 dir[] = "/tmp/test_output.XXXXXX";
	char			 err[LD_ERRLEN], *before[4], *after;
	double			*r;
	size_t			 i;
	int			 dfd;
	void			(*old)(int);

	(void)state;
	build_doc(&doc);
	assert_non_null(mkdtemp(dir));
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(dfd >= 0);
	assert_int_equal(output_flush(dfd, "doc", &doc, ids, err), 0);
	for (i = 0; i < 4; i++)
		before[i] = slurp_at(dfd, names[i], NULL);
	/* The .out file fits, the larger .json does not. */
	assert_int_equal(fstatat(dfd, "doc.out", &sb, 0), 0);
	for (i = 0; i < 200; i++) {
		r = output_table_row(&doc.rows);
		r[0] = (double)i;
	}
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &rl), 0);
	small = rl;
	small.rlim_cur = 16384;
	old = signal(SIGXFSZ, SIG_IGN);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
	assert_int_equal(output_flush(dfd, "doc", &doc, ids, err), -1);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &rl), 0);
	(void)signal(SIGXFSZ, old);
	assert_int_equal(errno, EFBIG);
	assert_non_null(strstr(err, "write doc."));
	/* .out was written: a flush file by file would have renamed it. */
	assert_null(strstr(err, "doc.out"));
	for (i = 0; i < 4; i++) {
		after = slurp_at(dfd, names[i], NULL);
		assert_string_equal(before[i], after);
		free(after);
		free(before[i]);
	}
	assert_int_equal(count_entries(dir), 4);
	output_ids_close(ids, OUTPUT_NWRITERS);
	output_doc_free(&doc);
	assert_int_equal(close(dfd), 0);
	remove_tree(dir);
}

/* What the contents of 'path' are, or "" if it cannot be read. */
static char *
contents(const char *path)
{
	char	*s;

	s = slurp(path, NULL);
	return s != NULL ? s : xstrdup("");
}

/*
 * The attack of issue 16: what another user plants in a shared output
 * directory is never opened or written through.  Links under every
 * temporary name the old writer used and a FIFO under another; a link
 * under the final name before the first write; and after a good write, a
 * link swapped in for the file we wrote.  The victim keeps its contents,
 * the planted entries stay as they were, and the run does not hang.
 */
static void
test_flush_planted(void **state)
{
	static const char	*exts[] = { "out", "csv", "json", "summary" };
	struct output_doc	 doc;
	struct output_id	 ids[OUTPUT_NWRITERS] = { { 0 } };
	char			 dir[] = "/tmp/test_output.XXXXXX";
	char			 victim[] = "/tmp/test_output_victim.XXXXXX";
	char			 err[LD_ERRLEN], *name, *got;
	struct stat		 sb;
	size_t			 i;
	int			 dfd, vfd;

	(void)state;
	build_doc(&doc);
	assert_non_null(mkdtemp(dir));
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(dfd >= 0);
	vfd = mkstemp(victim);
	assert_true(vfd >= 0);
	assert_int_equal(write(vfd, "precious\n", 9), 9);
	assert_int_equal(close(vfd), 0);
	for (i = 0; i < NELEM(exts); i++) {
		name = xasprintf(".doc.%s.tmp", exts[i]);
		if (i == 1)
			assert_int_equal(mkfifoat(dfd, name, 0644), 0);
		else
			assert_int_equal(symlinkat(victim, dfd, name), 0);
		free(name);
	}

	/* Temporary names already taken do not matter. */
	assert_int_equal(output_flush(dfd, "doc", &doc, ids, err), 0);
	got = contents(victim);
	assert_string_equal(got, "precious\n");
	free(got);
	assert_int_equal(fstatat(dfd, ".doc.csv.tmp", &sb, AT_SYMLINK_NOFOLLOW),
	    0);
	assert_true(S_ISFIFO(sb.st_mode));
	assert_int_equal(count_entries(dir), 2 * NELEM(exts));

	/* A link swapped in for a file we wrote is left in place. */
	assert_int_equal(unlinkat(dfd, "doc.json", 0), 0);
	assert_int_equal(symlinkat(victim, dfd, "doc.json"), 0);
	assert_int_equal(output_flush(dfd, "doc", &doc, ids, err), -1);
	assert_int_equal(errno, EEXIST);
	assert_string_equal(err, "doc.json exists and is not a file largedir "
	    "wrote: left in place");
	got = contents(victim);
	assert_string_equal(got, "precious\n");
	free(got);
	assert_int_equal(fstatat(dfd, "doc.json", &sb, AT_SYMLINK_NOFOLLOW), 0);
	assert_true(S_ISLNK(sb.st_mode));

	/* So is a regular file someone put there: not the one we wrote. */
	assert_int_equal(unlinkat(dfd, "doc.json", 0), 0);
	vfd = openat(dfd, "doc.json", O_WRONLY | O_CREAT | O_EXCL, 0644);
	assert_true(vfd >= 0);
	assert_int_equal(close(vfd), 0);
	assert_int_equal(output_flush(dfd, "doc", &doc, ids, err), -1);
	assert_int_equal(errno, EEXIST);

	/* A dangling link under a final name before the first write. */
	memset(ids, 0, sizeof(ids));
	assert_int_equal(symlinkat("/nonexistent/largedir-test", dfd,
	    "new.out"), 0);
	assert_int_equal(output_flush(dfd, "new", &doc, ids, err), -1);
	assert_int_equal(errno, EEXIST);
	assert_string_equal(err, "new.out exists and is not a file largedir "
	    "wrote: left in place");
	assert_int_equal(fstatat(dfd, "new.out", &sb, AT_SYMLINK_NOFOLLOW), 0);
	assert_true(S_ISLNK(sb.st_mode));

	output_ids_close(ids, OUTPUT_NWRITERS);
	output_doc_free(&doc);
	assert_int_equal(close(dfd), 0);
	remove_tree(dir);
	assert_int_equal(unlink(victim), 0);
}

/* What output_write_file() with a NULL id and output_adopt() replace. */
static int
print_x(FILE *fp, const void *arg)
{
	(void)arg;
	return fputs("x\n", fp) == EOF ? -1 : 0;
}

static void
test_write_file_no_id(void **state)
{
	char		 dir[] = "/tmp/test_output.XXXXXX";
	char		 sub[] = "/tmp/test_output.XXXXXX/priv";
	char		 err[LD_ERRLEN];
	struct stat	 sb;
	int		 dfd, pfd, fd;

	(void)state;
	assert_non_null(mkdtemp(dir));
	memcpy(sub, dir, strlen(dir));
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(dfd >= 0);
	/* An earlier page of ours is replaced; a link is not. */
	assert_int_equal(output_write_file(dfd, "p.html", print_x, NULL, NULL,
	    err), 0);
	assert_int_equal(output_write_file(dfd, "p.html", print_x, NULL, NULL,
	    err), 0);
	assert_int_equal(symlinkat("p.html", dfd, "q.html"), 0);
	assert_int_equal(output_write_file(dfd, "q.html", print_x, NULL, NULL,
	    err), -1);
	assert_int_equal(errno, EEXIST);
	assert_int_equal(fstatat(dfd, "q.html", &sb, AT_SYMLINK_NOFOLLOW), 0);
	assert_true(S_ISLNK(sb.st_mode));

	/* Adopting from a private directory: the same rules. */
	assert_int_equal(mkdir(sub, 0700), 0);
	pfd = open(sub, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(pfd >= 0);
	fd = openat(pfd, "g.svg", O_WRONLY | O_CREAT | O_EXCL, 0644);
	assert_true(fd >= 0 && close(fd) == 0);
	fd = openat(pfd, "q.html", O_WRONLY | O_CREAT | O_EXCL, 0644);
	assert_true(fd >= 0 && close(fd) == 0);
	assert_int_equal(output_adopt(pfd, "g.svg", dfd, err), 0);
	assert_int_equal(fstatat(dfd, "g.svg", &sb, AT_SYMLINK_NOFOLLOW), 0);
	assert_true(S_ISREG(sb.st_mode));
	assert_int_equal(output_adopt(pfd, "q.html", dfd, err), -1);
	assert_int_equal(errno, EEXIST);
	assert_string_equal(err, "q.html exists and is not a file largedir "
	    "wrote: left in place");
	assert_int_equal(unlinkat(pfd, "q.html", 0), 0);
	assert_int_equal(close(pfd), 0);
	assert_int_equal(close(dfd), 0);
	remove_tree(dir);
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test(test_kv_order),
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_status_names),
		cmocka_unit_test(test_dat_golden),
		cmocka_unit_test(test_csv_golden),
		cmocka_unit_test(test_json_golden),
		cmocka_unit_test(test_sum_golden),
		cmocka_unit_test(test_json_parse),
		cmocka_unit_test(test_empty_doc),
		cmocka_unit_test(test_json_escape),
		cmocka_unit_test(test_dat_escape),
		cmocka_unit_test(test_csv_quoting),
		cmocka_unit_test(test_cells),
		cmocka_unit_test(test_write_error),
		cmocka_unit_test(test_flush),
		cmocka_unit_test(test_flush_bad_dir),
		cmocka_unit_test(test_flush_dir_in_the_way),
		cmocka_unit_test(test_flush_full),
		cmocka_unit_test(test_flush_planted),
		cmocka_unit_test(test_write_file_no_id),
	};

	return cmocka_run_group_tests_name("output", tests, NULL, NULL);
}
