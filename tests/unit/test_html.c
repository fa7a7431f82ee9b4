/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * Unit tests for html.c: numbers in English and German, escaping and
 * percent-encoding, each printed into open_memstream(3) and compared
 * with the exact text.
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

#include "page/html.h"

/* What to print and how: one of the three printers. */
enum what { NUM, ESC, URL };

static void
test_html(void **state)
{
	static const struct {
		enum what	 what;
		double		 v;
		int		 prec;
		enum html_lang	 lang;
		const char	*s, *want;
	} cases[] = {
		{ NUM, 1234.5, 1, HTML_EN, NULL, "1,234.5" },
		{ NUM, 1234.5, 1, HTML_DE, NULL, "1.234,5" },
		{ NUM, 1234567, 0, HTML_DE, NULL, "1.234.567" },
		{ NUM, 999.96, 1, HTML_EN, NULL, "1,000" },
		{ NUM, 0.00200, 5, HTML_EN, NULL, "0.002" },
		{ NUM, 0.00200, 5, HTML_DE, NULL, "0,002" },
		{ NUM, 2.0, 3, HTML_EN, NULL, "2" },
		{ NUM, -1234.25, 2, HTML_EN, NULL, "-1,234.25" },
		{ NUM, -0.0001, 1, HTML_EN, NULL, "0" },	/* no "-0" */
		{ NUM, 100, 0, HTML_EN, NULL, "100" },
		{ NUM, NAN, 1, HTML_EN, NULL, HTML_DASH },
		{ NUM, INFINITY, 1, HTML_DE, NULL, HTML_DASH },
		{ ESC, 0, 0, HTML_EN, "<b>&\"x'",
		  "[&lt;b&gt;&amp;&quot;x&#39;]" },
		{ ESC, 0, 0, HTML_EN, "a\tb\nc\x01\x7f", "[a\tb\nc&#xfffd;"
		  "&#xfffd;]" },
		{ ESC, 0, 0, HTML_EN, NULL, "[?]" },
		{ ESC, 0, 0, HTML_EN, "Gr\u00f6\u00dfe", "[Gr\u00f6\u00dfe]" },
		/* Not UTF-8: Latin-1, a stray continuation byte, a cut
		 * sequence, an overlong '/', a surrogate. */
		{ ESC, 0, 0, HTML_EN, "Gr\xf6\xdf" "e", "[Gr&#xfffd;&#xfffd;e]" },
		{ ESC, 0, 0, HTML_EN, "\x80x\xe2\x82", "[&#xfffd;x&#xfffd;"
		  "&#xfffd;]" },
		{ ESC, 0, 0, HTML_EN, "\xc0\xaf\xed\xa0\x80", "[&#xfffd;"
		  "&#xfffd;&#xfffd;&#xfffd;&#xfffd;]" },
		{ URL, 0, 0, HTML_EN, "a b&c<d>.~_-",
		  "a%20b%26c%3Cd%3E.~_-.png" },
		{ URL, 0, 0, HTML_EN, "\u00e4", "%C3%A4.png" },
	};
	FILE	*fp;
	char	*buf;
	size_t	 len, i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		buf = NULL;
		assert_non_null(fp = open_memstream(&buf, &len));
		if (cases[i].what == NUM)
			html_num(fp, cases[i].v, cases[i].prec, cases[i].lang);
		else if (cases[i].what == ESC)
			html_esc(fp, "[", cases[i].s, "]");
		else
			html_url(fp, cases[i].s, ".png");
		assert_int_equal(fclose(fp), 0);
		if (strcmp(buf, cases[i].want) != 0)
			fail_msg("case %zu: \"%s\", expected \"%s\"", i, buf,
			    cases[i].want);
		free(buf);
	}
	assert_string_equal(html_tr(HTML_EN, "en", "de"), "en");
	assert_string_equal(html_tr(HTML_DE, "en", "de"), "de");
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test(test_html),
	};

	return cmocka_run_group_tests_name("html", tests, NULL, NULL);
}
