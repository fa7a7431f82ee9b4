/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * test_knfs: the counters of a kernel NFS mount, from the mountstats
 * fixtures (tests/data/mountstats, written from the kernel's format
 * strings).  Not NFS: plain posix.  NFSv3: a column per procedure named
 * as the libnfs backend's, the sums and the events, times in ns.  NFSv4:
 * the operations named, the rest in rpc_other.  A mount that is not there
 * (or not of that version): posix, and why.  What a phase cannot have
 * sent is named; with --churn, the listings' creates and removes are
 * not.
 */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "backend.h"
#include "knfs.h"
#include "util.h"

#define V3	TEST_DATA "/mountstats/v3"
#define V4	TEST_DATA "/mountstats/v4"

/* The index of counter 'name'. */
static size_t
at(const char *name)
{
	const char *const	*names = knfs_names();
	size_t			 i;

	assert_non_null(names);
	for (i = 0; names[i] != NULL; i++)
		if (strcmp(names[i], name) == 0)
			return i;
	fail_msg("no counter %s", name);
	return 0;
}

static void
test_not_nfs(void **state)
{
	char	err[LD_ERRLEN];

	(void)state;
	assert_ptr_equal(knfs_ops("ext4", "/", V3, err), &posix_ops);
	assert_string_equal(err, "");
	assert_null(knfs_names());
	/* NFS, but no such mount in the file, or another version. */
	assert_ptr_equal(knfs_ops("nfs", "/mnt/none", V3, err), &posix_ops);
	assert_string_equal(err, V3 ": no NFSv3 mount on /mnt/none");
	assert_ptr_equal(knfs_ops("nfs4", "/mnt/nfs3", V3, err), &posix_ops);
	assert_string_equal(err, V3 ": no NFSv4 mount on /mnt/nfs3");
	assert_null(knfs_names());
}

static void
test_v3(void **state)
{
	const struct backend_ops	*ops;
	uint64_t			 v[BACKEND_MAX_COUNTERS];
	char				 err[LD_ERRLEN];

	(void)state;
	ops = knfs_ops("nfs", "/mnt/nfs3", V3, err);
	assert_string_equal(err, "");
	assert_ptr_not_equal(ops, &posix_ops);
	assert_ptr_equal(ops->create, posix_ops.create);
	assert_int_equal(ops->ncalls, 22);
	assert_int_equal(backend_ncounters(ops), 22 + 17);
	assert_string_equal(ops->counter_names[0], "rpc_null");
	assert_int_equal(knfs_read(V3, v, err), 0);
	assert_int_equal(v[at("rpc_create")], 1000);
	assert_int_equal(v[at("rpc_remove")], 1000);
	assert_int_equal(v[at("rpc_lookup")], 300);
	assert_int_equal(v[at("rpc_readdir")], 4);
	assert_int_equal(v[at("rpc_readdirplus")], 11);
	assert_int_equal(v[at("rpc_commit")], 0);
	/* Sums over all procedures; ms become ns. */
	assert_int_equal(v[at("rpc_trans")], 2540);
	assert_int_equal(v[at("rpc_timeouts")], 1);
	assert_int_equal(v[at("rpc_rtt_ns")], 2000 * 1000000ULL);
	assert_int_equal(v[at("rpc_errors")], 150);
	/* The events. */
	assert_int_equal(v[at("nfs_dentryrevalidate")], 2100);
	assert_int_equal(v[at("nfs_vfsgetdents")], 15);
	assert_int_equal(v[at("nfs_vfsrelease")], 1000);
	assert_int_equal(v[at("nfs_sillyrename")], 0);
	knfs_reset();
}

static void
test_v4(void **state)
{
	const struct backend_ops	*ops;
	uint64_t			 v[BACKEND_MAX_COUNTERS];
	char				 err[LD_ERRLEN];

	(void)state;
	ops = knfs_ops("nfs4", "/mnt/nfs4", V4, err);
	assert_string_equal(err, "");
	assert_int_equal(ops->ncalls, 18);
	assert_int_equal(knfs_read(V4, v, err), 0);
	assert_int_equal(v[at("rpc_open")], 1003);
	assert_int_equal(v[at("rpc_close")], 1000);
	assert_int_equal(v[at("rpc_remove")], 1000);
	assert_int_equal(v[at("rpc_readdir")], 9);
	assert_int_equal(v[at("rpc_sequence")], 20);
	/* SERVER_CAPS 3, EXCHANGE_ID 2 and four more of 1. */
	assert_int_equal(v[at("rpc_other")], 9);
	assert_int_equal(v[at("rpc_errors")], 143);
	knfs_reset();
}

static void
test_unexplained(void **state)
{
	uint64_t	d[BACKEND_MAX_COUNTERS];
	char		err[LD_ERRLEN];

	(void)state;
	(void)knfs_ops("nfs", "/mnt/nfs3", V3, err);
	memset(d, 0, sizeof(d));
	d[at("rpc_readdir")] = 5;
	d[at("rpc_getattr")] = 2;
	assert_null(knfs_unexplained("list", d, false));
	d[at("rpc_remove")] = 3;
	d[at("rpc_write")] = 1;
	assert_string_equal(knfs_unexplained("list", d, false),
	    "WRITE 1, REMOVE 3");
	/* --churn creates and removes during the listings only. */
	assert_null(knfs_unexplained("list", d, true));
	assert_string_equal(knfs_unexplained("delete", d, true),
	    "WRITE 1, READDIR 5");
	/* The sums and events are not calls. */
	memset(d, 0, sizeof(d));
	d[at("rpc_trans")] = 99;
	d[at("nfs_vfsopen")] = 99;
	assert_null(knfs_unexplained("open", d, false));
	knfs_reset();
	assert_null(knfs_unexplained("list", d, false));
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test(test_not_nfs),
		cmocka_unit_test(test_v3),
		cmocka_unit_test(test_v4),
		cmocka_unit_test(test_unexplained),
	};

	return cmocka_run_group_tests_name("knfs", tests, NULL, NULL);
}
