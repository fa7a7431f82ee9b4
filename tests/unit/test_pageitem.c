/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * test_pageitem: a target's setup paragraph on the page, from its
 * metadata, in English and German: what decides a kernel NFS mount's
 * counts (the options in effect, the capabilities with dtsize, the
 * connections and the transport) is named; a count prints in the page's
 * language; keys it does not list are left out.  A machine whose DAMON
 * pages memory out says so.
 */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "page/pageitem.h"

static const struct results_meta	nfs[] = {
	{ (char *)"fstype", (char *)"nfs" },
	{ (char *)"mount_options", (char *)"rw,nordirplus" },
	{ (char *)"nfs_opts", (char *)"rw,relatime,vers=3,nconnect=2" },
	{ (char *)"nfs_caps", (char *)"caps=0x3fef,dtsize=1048576,bsize=0" },
	{ (char *)"nfs_xprt", (char *)"tcp 876 1 1 0 0 2470" },
	{ (char *)"nfs_connections", (char *)"2000" },
	{ (char *)"rpc_counts", (char *)"not on the list" },
};

/* The target paragraph for 'nfs' in 'lang'. */
static char *
put(enum html_lang lang)
{
	struct results_target	 t;
	char			*buf = NULL;
	size_t			 len = 0;
	FILE			*fp;

	memset(&t, 0, sizeof(t));
	t.label = (char *)"nfs3";
	t.meta = (struct results_meta *)nfs;
	t.nmeta = sizeof(nfs) / sizeof(nfs[0]);
	fp = open_memstream(&buf, &len);
	assert_non_null(fp);
	pageitem_put(fp, &t, pageitem_target, "<p>", "Target", "</p>", lang);
	assert_int_equal(fclose(fp), 0);
	return buf;
}

static void
test_nfs(void **state)
{
	char	*en, *de;

	(void)state;
	en = put(HTML_EN);
	assert_non_null(strstr(en, "; NFS options in effect: "
	    "rw,relatime,vers=3,nconnect=2;"));
	assert_non_null(strstr(en, "; NFS capabilities (dtsize: READDIR "
	    "size): caps=0x3fef,dtsize=1048576,bsize=0;"));
	assert_non_null(strstr(en, "; connections to the server: 2,000;"));
	assert_non_null(strstr(en, "; transport (first connection): tcp 876 "
	    "1 1 0 0 2470."));
	assert_null(strstr(en, "not on the list"));
	de = put(HTML_DE);
	assert_non_null(strstr(de, "; wirksame NFS-Optionen: "));
	assert_non_null(strstr(de, "; NFS-Fähigkeiten (dtsize: "
	    "READDIR-Größe): "));
	assert_non_null(strstr(de, "; Verbindungen zum Server: 2.000;"));
	free(en);
	free(de);
}

/* A machine whose DAMON pages memory out: said, in both languages. */
static void
test_damon(void **state)
{
	static const struct results_meta	m[] = {
		{ (char *)"host", (char *)"vm" },
		{ (char *)"damon", (char *)"pageout of memory idle for 60 s or "
		    "more (kdamond 0, paddr)" },
	};
	struct results_target	 t;
	char			*buf = NULL;
	size_t			 len = 0;
	FILE			*fp;
	int			 lang;

	(void)state;
	memset(&t, 0, sizeof(t));
	t.label = (char *)"x";
	t.meta = (struct results_meta *)m;
	t.nmeta = 2;
	for (lang = HTML_EN; lang <= HTML_DE; lang++) {
		fp = open_memstream(&buf, &len);
		assert_non_null(fp);
		pageitem_put(fp, &t, pageitem_machine, "<p>", "Machine",
		    "</p>", (enum html_lang)lang);
		assert_int_equal(fclose(fp), 0);
		assert_non_null(strstr(buf, lang == HTML_EN ? "; memory the "
		    "kernel reclaims on its own (DAMON): pageout of memory "
		    "idle for 60 s or more (kdamond 0, paddr)." : "; Speicher, "
		    "den der Kernel selbst zurückholt (DAMON): Auslagern von "
		    "Speicher, der 60 s oder länger unbenutzt war (kdamond 0, "
		    "paddr)."));
		free(buf);
		buf = NULL;
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nfs),
		cmocka_unit_test(test_damon),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
