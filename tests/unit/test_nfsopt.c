/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * test_nfsopt: the nfs backend's options are parsed once, by their
 * table, into its struct nfsopt: the defaults config_init() stores are
 * nfsopt_defaults; a value out of bounds is refused in one line naming
 * the option; --churn wants one call in flight, however it is spelt.
 */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "backend/backend.h"
#include "backend/nfsb.h"
#include "backend/nfsopt.h"
#include "base/util.h"
#include "settings/config.h"

/* The struct nfsopt of 'c'. */
static const struct nfsopt *
settings(const struct config *c)
{
	const struct nfsopt	*o;

	o = config_settings(c, &nfsb_ops);
	assert_non_null(o);
	return o;
}

/* The backend's check of 'c', as config_check() calls it. */
static int
check(const struct config *c, char *err)
{
	struct backend_opts	bo;

	config_backend_opts(c, &nfsb_ops, NULL, &bo);
	return nfsopt_check(&bo, err);
}

static void
test_defaults(void **state)
{
	const struct nfsopt	*o, *d = &nfsopt_defaults;
	struct config		 c;
	struct backend		 be;

	(void)state;
	assert_int_equal(nfsb_ops.settings_size, sizeof(struct nfsopt));
	assert_ptr_equal(nfsb_ops.options, nfsopt_options);
	config_init(&c);
	o = settings(&c);
	assert_int_equal(o->create, d->create);
	assert_int_equal(o->readdir, d->readdir);
	assert_int_equal(o->dircount, d->dircount);
	assert_int_equal(o->maxcount, d->maxcount);
	assert_int_equal(o->window, d->window);
	assert_int_equal(o->timeout_ns, d->timeout_ns);
	config_free(&c);
	/* Opened without settings, the backend takes the defaults. */
	memset(&be, 0, sizeof(be));
	assert_ptr_equal(nfsopt_of(&be), d);
}

/* Values in and out of bounds, as the command line gives them. */
static void
test_values(void **state)
{
	static const struct {
		const char	*key, *value, *err;
	} bad[] = {
		{ "nfs-dircount", "7", "--nfs-dircount '7': at least 512" },
		{ "nfs-dircount", "4G", "--nfs-dircount '4G': at most 1M" },
		{ "nfs-maxcount", "x", "--nfs-maxcount 'x': not a size (e.g. "
		    "8k, 32k)" },
		{ "nfs-window", "0", "--nfs-window '0': at least 1" },
		{ "nfs-window", "257", "--nfs-window '257': at most 256" },
		{ "nfs-create", "foo", "--nfs-create 'foo': must be exclusive "
		    "or guarded" },
		{ "nfs-timeout", "2h", "--nfs-timeout '2h': at most 1h" },
	};
	const struct nfsopt	*o;
	struct config		 c;
	char			 err[LD_ERRLEN];
	size_t			 i;

	(void)state;
	config_init(&c);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(config_set(&c, bad[i].key, bad[i].value, err),
		    -1);
		assert_string_equal(err, bad[i].err);
	}
	o = settings(&c);
	assert_int_equal(o->dircount, 0);	/* none taken */
	assert_int_equal(config_set(&c, "nfs-dircount", "8k", err), 0);
	assert_int_equal(config_set(&c, "nfs-maxcount", "1M", err), 0);
	assert_int_equal(config_set(&c, "nfs-window", "16", err), 0);
	assert_int_equal(config_set(&c, "nfs-create", "guarded", err), 0);
	assert_int_equal(config_set(&c, "nfs-readdir", "plus", err), 0);
	assert_int_equal(config_set(&c, "nfs-timeout", "10s", err), 0);
	assert_int_equal(o->dircount, 8192);
	assert_int_equal(o->maxcount, 1U << 20);
	assert_int_equal(o->window, 16);
	assert_int_equal(o->create, NFSOPT_GUARDED);
	assert_int_equal(o->readdir, NFSOPT_PLUS);
	assert_int_equal(o->timeout_ns, 10 * NS_PER_S);
	config_free(&c);
}

/* --churn and calls in flight: by the value, not by its spelling. */
static void
test_churn(void **state)
{
	struct config	c;
	char		err[LD_ERRLEN];

	(void)state;
	config_init(&c);
	c.churn = 10;
	assert_int_equal(check(&c, err), 0);
	assert_int_equal(config_set(&c, "nfs-window", "04", err), 0);
	assert_int_equal(check(&c, err), -1);
	assert_string_equal(err, "--churn needs --nfs-window 1 (not 4): a "
	    "name the churn removed is skipped only with one call in "
	    "flight");
	assert_int_equal(config_set(&c, "nfs-window", "01", err), 0);
	assert_int_equal(check(&c, err), 0);
	assert_int_equal(config_set(&c, "nfs-window", "8", err), 0);
	c.churn = 0;
	assert_int_equal(check(&c, err), 0);
	config_free(&c);
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_churn),
	};

	return cmocka_run_group_tests_name("nfsopt", tests, NULL, NULL);
}
