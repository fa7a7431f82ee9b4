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
 * not.  posix_mount_ops() gives posix's table of the mount's version.
 */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "backend/backend.h"
#include "backend/knfs.h"
#include "backend/posix.h"
#include "base/util.h"
#include "machine/probe.h"
#include "record/output.h"

#define V3	TEST_DATA "/mountstats/v3"
#define V4	TEST_DATA "/mountstats/v4"

/* The index of counter 'name' of 'k'. */
static size_t
at(const struct knfs *k, const char *name)
{
	const char *const	*names = knfs_names(k);
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
	struct kvlist	 kv = { 0 };
	struct knfs		 k;
	char			 err[LD_ERRLEN];

	(void)state;
	assert_int_equal(knfs_open(&k, "ext4", "/", V3, err), 0);
	assert_string_equal(err, "");
	assert_int_equal(k.vers, 0);
	assert_null(knfs_names(&k));
	assert_ptr_equal(posix_mount_ops("ext4", "/", V3, &kv, err),
	    &posix_ops);
	assert_string_equal(err, "");
	/* NFS, but no such mount in the file, or another version. */
	assert_int_equal(knfs_open(&k, "nfs", "/mnt/none", V3, err), -1);
	assert_string_equal(err, V3 ": no NFSv3 mount on /mnt/none");
	assert_ptr_equal(posix_mount_ops("nfs4", "/mnt/nfs3", V3, &kv, err),
	    &posix_ops);
	assert_string_equal(err, V3 ": no NFSv4 mount on /mnt/nfs3");
	assert_int_equal(kv.len, 0);
	knfs_close(&k);
	assert_null(knfs_names(&k));
	kv_free(&kv);
}

static void
test_v3(void **state)
{
	struct kvlist		 kv = { 0 };
	const struct backend_ops	*ops;
	struct knfs			 k;
	uint64_t			 v[BACKEND_MAX_COUNTERS];
	char				 err[LD_ERRLEN];

	(void)state;
	ops = posix_mount_ops("nfs", "/mnt/nfs3", V3, &kv, err);
	assert_string_equal(err, "");
	assert_ptr_not_equal(ops, &posix_ops);
	assert_ptr_equal(ops->create, posix_ops.create);
	assert_int_equal(ops->flags, posix_ops.flags);
	assert_true(ops->shared_counters);
	assert_int_equal(ops->ncalls, 22);
	assert_int_equal(backend_ncounters(ops), 22 + 17);
	assert_ptr_equal(ops->counter_names, knfs_v3_names);
	assert_string_equal(ops->counter_names[0], "rpc_null");
	assert_non_null(strstr(kv_get(&kv, "rpc_counts"),
	    "NFSv3 client's"));
	/* What decides the counts, as the kernel reports the mount. */
	assert_int_equal(strncmp(kv_get(&kv, "nfs_opts"),
	    "rw,relatime,vers=3,rsize=1048576,", 33), 0);
	assert_string_equal(kv_get(&kv, "nfs_caps"),
	    "caps=0x3fef,wtmult=4096,dtsize=1048576,bsize=0,namlen=255");
	assert_string_equal(kv_get(&kv, "nfs_xprt"),
	    "tcp 876 1 1 0 0 2470 2470 0 4940 0 2 0 1");
	assert_string_equal(kv_get(&kv, "nfs_connections"), "1");
	assert_int_equal(knfs_open(&k, "nfs", "/mnt/nfs3", V3, err), 0);
	assert_int_equal(knfs_read(&k, v, err), 0);
	assert_int_equal(v[at(&k, "rpc_create")], 1000);
	assert_int_equal(v[at(&k, "rpc_remove")], 1000);
	assert_int_equal(v[at(&k, "rpc_lookup")], 300);
	assert_int_equal(v[at(&k, "rpc_readdir")], 4);
	assert_int_equal(v[at(&k, "rpc_readdirplus")], 11);
	assert_int_equal(v[at(&k, "rpc_commit")], 0);
	/* Sums over all procedures; ms become ns. */
	assert_int_equal(v[at(&k, "rpc_trans")], 2540);
	assert_int_equal(v[at(&k, "rpc_timeouts")], 1);
	assert_int_equal(v[at(&k, "rpc_rtt_ns")], 2000 * 1000000ULL);
	assert_int_equal(v[at(&k, "rpc_errors")], 150);
	/* The events. */
	assert_int_equal(v[at(&k, "nfs_dentryrevalidate")], 2100);
	assert_int_equal(v[at(&k, "nfs_vfsgetdents")], 15);
	assert_int_equal(v[at(&k, "nfs_vfsrelease")], 1000);
	assert_int_equal(v[at(&k, "nfs_sillyrename")], 0);
	/* The counters op's values are the same. */
	memset(v, 0, sizeof(v));
	knfs_counters(&k, v);
	assert_int_equal(v[at(&k, "rpc_create")], 1000);
	knfs_close(&k);
	kv_free(&kv);
}

static void
test_v4(void **state)
{
	struct kvlist		 kv = { 0 };
	const struct backend_ops	*ops;
	struct knfs			 k;
	uint64_t			 v[BACKEND_MAX_COUNTERS];
	char				 err[LD_ERRLEN];

	(void)state;
	ops = posix_mount_ops("nfs4", "/mnt/nfs4", V4, &kv, err);
	assert_string_equal(err, "");
	assert_int_equal(ops->ncalls, 24);
	assert_ptr_equal(ops->counter_names, knfs_v4_names);
	/* Two xprt: lines: two connections (nconnect=2), the first kept. */
	assert_string_equal(kv_get(&kv, "nfs_connections"), "2");
	assert_string_equal(kv_get(&kv, "nfs_xprt"),
	    "tcp 876 1 1 0 0 2470 2470 0 4940 0 2 0 1");
	assert_non_null(strstr(kv_get(&kv, "nfs_opts"), "vers=4.2"));
	assert_int_equal(knfs_open(&k, "nfs4", "/mnt/nfs4", V4, err), 0);
	assert_int_equal(knfs_read(&k, v, err), 0);
	assert_int_equal(v[at(&k, "rpc_open")], 1003);
	assert_int_equal(v[at(&k, "rpc_close")], 1000);
	assert_int_equal(v[at(&k, "rpc_remove")], 1000);
	assert_int_equal(v[at(&k, "rpc_readdir")], 9);
	assert_int_equal(v[at(&k, "rpc_sequence")], 20);
	/* SERVER_CAPS 3, EXCHANGE_ID 2 and four more of 1. */
	assert_int_equal(v[at(&k, "rpc_other")], 9);
	assert_int_equal(v[at(&k, "rpc_errors")], 143);
	knfs_close(&k);
	kv_free(&kv);
}

static void
test_unexplained(void **state)
{
	struct knfs	k;
	uint64_t	d[BACKEND_MAX_COUNTERS];
	char		err[LD_ERRLEN];

	(void)state;
	assert_int_equal(knfs_open(&k, "nfs", "/mnt/nfs3", V3, err), 0);
	memset(d, 0, sizeof(d));
	d[at(&k, "rpc_readdir")] = 5;
	d[at(&k, "rpc_getattr")] = 2;
	assert_null(knfs_unexplained(&k, "list", d, false));
	d[at(&k, "rpc_remove")] = 3;
	d[at(&k, "rpc_write")] = 1;
	assert_string_equal(knfs_unexplained(&k, "list", d, false),
	    "WRITE 1, REMOVE 3");
	/* --churn creates and removes during the listings only. */
	assert_null(knfs_unexplained(&k, "list", d, true));
	assert_string_equal(knfs_unexplained(&k, "delete", d, true),
	    "WRITE 1, READDIR 5");
	/* The sums and events are not calls. */
	memset(d, 0, sizeof(d));
	d[at(&k, "rpc_trans")] = 99;
	d[at(&k, "nfs_vfsopen")] = 99;
	assert_null(knfs_unexplained(&k, "open", d, false));
	knfs_close(&k);
	assert_null(knfs_unexplained(&k, "list", d, false));

	/*
	 * v4: the client's upkeep of its state (a delegation given back, a
	 * revoked stateid tested and freed, a v4.0 lease renewed) may come
	 * during any phase; pNFS layouts only where files are written or
	 * read; the rest is the mount's other work.
	 */
	assert_int_equal(knfs_open(&k, "nfs4", "/mnt/nfs4", V4, err), 0);
	memset(d, 0, sizeof(d));
	d[at(&k, "rpc_remove")] = 10;
	d[at(&k, "rpc_delegreturn")] = 2;
	d[at(&k, "rpc_test_stateid")] = 1;
	d[at(&k, "rpc_free_stateid")] = 1;
	d[at(&k, "rpc_renew")] = 1;
	d[at(&k, "rpc_sequence")] = 3;
	assert_null(knfs_unexplained(&k, "delete", d, false));
	d[at(&k, "rpc_layoutget")] = 1;
	d[at(&k, "rpc_other")] = 4;
	assert_string_equal(knfs_unexplained(&k, "delete", d, false),
	    "LAYOUTGET 1, other 4");
	d[at(&k, "rpc_remove")] = 0;
	d[at(&k, "rpc_other")] = 0;
	assert_null(knfs_unexplained(&k, "open", d, false));
	knfs_close(&k);
}

/* On a directory here (not NFS), refine keeps the table as it is. */
static void
test_refine(void **state)
{
	struct kvlist	 kv = { 0 };
	struct probe_mount	 pm;
	char			 err[LD_ERRLEN];

	(void)state;
	memset(&pm, 0, sizeof(pm));
	if (probe_mount(TEST_DATA, &pm) == 0 && pm.fstype != NULL &&
	    strncmp(pm.fstype, "nfs", 3) == 0) {
		probe_mount_free(&pm);
		skip();
	}
	probe_mount_free(&pm);
	assert_ptr_equal(backend_refine(&posix_ops, TEST_DATA, &kv, err),
	    &posix_ops);
	assert_string_equal(err, "");
	assert_int_equal(kv.len, 0);
	kv_free(&kv);
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test(test_not_nfs),
		cmocka_unit_test(test_v3),
		cmocka_unit_test(test_v4),
		cmocka_unit_test(test_unexplained),
		cmocka_unit_test(test_refine),
	};

	return cmocka_run_group_tests_name("knfs", tests, NULL, NULL);
}
