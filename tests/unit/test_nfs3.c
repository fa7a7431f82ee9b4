/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * test_nfs3: what needs no server.  The nfs:// URL, taken apart or
 * refused with a message naming the part at fault (table-driven), and the
 * names of NFS statuses.  What the calls send is counted against a real
 * server in tests/sh/t_nfs.sh.
 */

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "base/util.h"
#include "nfs/nfs3.h"

#define NELEM(a)	(sizeof(a) / sizeof((a)[0]))

static void
test_url(void **state)
{
	static const struct {
		const char	*url;
		const char	*host, *path;
		int		 nfsport, mountport;
		const char	*err;		/* NULL: accepted */
	} cases[] = {
		{ "nfs://127.0.0.1/export", "127.0.0.1", "/export", 0, 0,
		    NULL },
		{ "nfs://filer/srv/nfs/home/", "filer", "/srv/nfs/home", 0, 0,
		    NULL },
		{ "nfs://h/x?nfsport=2049&mountport=20048", "h", "/x", 2049,
		    20048, NULL },
		{ "nfs://h/x?version=3", "h", "/x", 0, 0, NULL },
		{ "nfs://h/", "h", "/", 0, 0, NULL },
		{ "nfs://", NULL, NULL, 0, 0, "no server, or no export path" },
		{ "nfs://host", NULL, NULL, 0, 0, "no server" },
		{ "nfs:///x", NULL, NULL, 0, 0, "no server" },
		{ "file:///x", NULL, NULL, 0, 0, "not an nfs:// URL" },
		{ "nfs://h:2049/x", NULL, NULL, 0, 0, "a port after the host" },
		{ "nfs://h/x?version=4", NULL, NULL, 0, 0, "only NFSv3" },
		{ "nfs://h/x?foo=1", NULL, NULL, 0, 0, "unknown 'foo'" },
		{ "nfs://h/x?nfsport", NULL, NULL, 0, 0, "not key=value" },
		{ "nfs://h/x?nfsport=0", NULL, NULL, 0, 0,
		    "not a number from 1 to 65535" },
		{ "nfs://h/x?mountport=65536", NULL, NULL, 0, 0,
		    "not a number from 1 to 65535" },
	};
	struct nfs3_url	u;
	char		err[LD_ERRLEN];
	size_t		i;

	(void)state;
	for (i = 0; i < NELEM(cases); i++) {
		err[0] = '\0';
		if (cases[i].err == NULL) {
			if (nfs3_parse_url(cases[i].url, &u, err) == -1)
				fail_msg("%s: %s", cases[i].url, err);
			assert_string_equal(u.host, cases[i].host);
			assert_string_equal(u.path, cases[i].path);
			assert_int_equal(u.nfsport, cases[i].nfsport);
			assert_int_equal(u.mountport, cases[i].mountport);
			assert_int_equal(u.version, 3);
			nfs3_url_free(&u);
			continue;
		}
		if (nfs3_parse_url(cases[i].url, &u, err) != -1)
			fail_msg("%s: accepted", cases[i].url);
		assert_int_equal(errno, EINVAL);
		if (strstr(err, cases[i].err) == NULL ||
		    strstr(err, cases[i].url) == NULL)
			fail_msg("%s: said '%s'", cases[i].url, err);
	}
}

static void
test_statuses(void **state)
{
	(void)state;
	assert_string_equal(nfs3_status_name(28), "NFS3ERR_NOSPC");
	assert_string_equal(nfs3_status_name(70), "NFS3ERR_STALE");
	assert_string_equal(nfs3_status_name(0), "NFS3_OK");
	assert_string_equal(nfs3_status_name(12345),
	    "an unknown NFS status");
	assert_int_equal(nfs3_errno(28), ENOSPC);
	assert_int_equal(nfs3_errno(69), EDQUOT);
	assert_int_equal(nfs3_errno(10008), EAGAIN);	/* JUKEBOX */
	assert_int_equal(nfs3_errno(10001), ESTALE);	/* BADHANDLE */
	assert_int_equal(nfs3_errno(5), EIO);
	assert_int_equal(nfs3_errno(12345), EIO);
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test(test_url),
		cmocka_unit_test(test_statuses),
	};

	return cmocka_run_group_tests_name("nfs3", tests, NULL, NULL);
}
