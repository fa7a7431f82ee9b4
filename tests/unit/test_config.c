/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * Unit tests for config.c: a table of option values, each accepted with
 * its effect or refused with a message naming the option and the value;
 * --phases ordering; the cross-checks of config_check(); and that
 * config_opts[] and config_set() know the same options.
 */

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>

#include <cmocka.h>

#include "config.h"
#include "util.h"

#define NELEM(a)	(sizeof(a) / sizeof((a)[0]))

static void
test_good(void **state)
{
	struct config	c;
	char		err[LD_ERRLEN];

	(void)state;
	config_init(&c);
	assert_int_equal(c.budget_ns, 30 * 60 * NS_PER_S);
	assert_true(c.growth == 1.5);
	assert_int_equal(c.start, 1000);
	assert_int_equal(c.nphases, 3);
	assert_int_equal(c.sync, CONFIG_SYNC_PHASE);

	assert_int_equal(config_set(&c, "budget", "90s", err), 0);
	assert_int_equal(c.budget_ns, 90 * NS_PER_S);
	assert_int_equal(config_set(&c, "budget", "5m", err), 0);
	assert_int_equal(c.budget_ns, 300 * NS_PER_S);
	assert_int_equal(config_set(&c, "budget", "1h", err), 0);
	assert_int_equal(c.budget_ns, 3600 * NS_PER_S);
	assert_int_equal(config_set(&c, "budget-policy", "classic", err), 0);
	assert_int_equal(c.policy, TIMING_CLASSIC);
	assert_int_equal(config_set(&c, "growth", "2", err), 0);
	assert_true(c.growth == 2);
	assert_int_equal(config_set(&c, "start", "5", err), 0);
	assert_int_equal(c.start, 5);
	assert_int_equal(config_set(&c, "max-files", "4294967295", err), 0);
	assert_int_equal(c.max_files, UINT32_MAX);
	assert_int_equal(config_set(&c, "repeat", "3", err), 0);
	assert_int_equal(c.repeat, 3);
	assert_int_equal(config_set(&c, "warmup", "0", err), 0);
	assert_int_equal(config_set(&c, "file-size", "4k", err), 0);
	assert_int_equal(c.file_size, 4096);
	assert_int_equal(config_set(&c, "fsync", "both", err), 0);
	assert_int_equal(c.fsync, BACKEND_FSYNC_BOTH);
	assert_int_equal(config_set(&c, "sync", "round", err), 0);
	assert_int_equal(c.sync, CONFIG_SYNC_ROUND);
	assert_int_equal(config_set(&c, "names", "maildir", err), 0);
	assert_int_equal(c.names, NAMES_MAILDIR);
	assert_int_equal(config_set(&c, "seed", "0x10", err), 0);
	assert_int_equal(c.seed, 16);
	assert_int_equal(config_set(&c, "seed", "010", err), 0);
	assert_int_equal(c.seed, 10);		/* not octal */
	assert_true(c.seed_set);
	assert_int_equal(config_set(&c, "seed", "18446744073709551615", err),
	    0);
	assert_int_equal(c.seed, UINT64_MAX);
	assert_int_equal(config_set(&c, "label", "ext4-nodirindex_2.a", err),
	    0);
	assert_string_equal(c.label, "ext4-nodirindex_2.a");
	assert_int_equal(config_set(&c, "output", "/tmp/x", err), 0);
	assert_int_equal(config_set(&c, "quiet", NULL, err), 0);
	assert_true(c.quiet);
	assert_int_equal(config_set(&c, "quiet", "no", err), 0);
	assert_false(c.quiet);
	config_free(&c);
}

static void
test_bad(void **state)
{
	static const struct {
		const char	*key, *value, *want;
	} tab[] = {
		{ "growth", "1", "--growth '1': must be greater than 1" },
		{ "growth", "0.5", "--growth '0.5': must be greater than 1" },
		{ "growth", "abc", "--growth 'abc': not a number" },
		{ "growth", "1.5x", "--growth '1.5x': not a number" },
		{ "growth", "101", "--growth '101': at most 100" },
		{ "budget", "-5", "--budget '-5': not a duration (e.g. 90s, "
		    "5m, 1h)" },
		{ "budget", "5x", "--budget '5x': not a duration (e.g. 90s, "
		    "5m, 1h)" },
		{ "budget", "0", "--budget '0': must be more than 0" },
		{ "budget", "400d", "--budget '400d': at most 366d" },
		{ "start", "0", "--start '0': must be a whole number from 1 "
		    "to 4294967295" },
		{ "start", "10x", "--start '10x': must be a whole number from "
		    "1 to 4294967295" },
		{ "start", "", "--start '': must be a whole number from 1 to "
		    "4294967295" },
		{ "max-files", "4294967296", "--max-files '4294967296': must "
		    "be a whole number from 1 to 4294967295" },
		{ "repeat", "0", "--repeat '0': must be a whole number from 1 "
		    "to 1000" },
		{ "warmup", "-1", "--warmup '-1': must be a whole number from "
		    "0 to 100" },
		{ "name-len", "0", "--name-len '0': must be a whole number "
		    "from 1 to 255" },
		{ "names", "foo", "--names 'foo': must be fixed or maildir" },
		{ "file-size", "1.5x", "--file-size '1.5x': not a size (e.g. 0, "
		    "512, 4k, 1M)" },
		{ "file-size", "2G", "--file-size '2G': too large (at most 1G)" },
		{ "fsync", "maybe", "--fsync 'maybe': must be none, file, dir "
		    "or both" },
		{ "sync", "sometimes", "--sync 'sometimes': must be none, "
		    "phase or round" },
		{ "budget-policy", "greedy", "--budget-policy 'greedy': must be "
		    "predict or classic" },
		{ "seed", "-1", "--seed '-1': not a number" },
		{ "seed", "0x", "--seed '0x': not a number" },
		{ "seed", "0xg", "--seed '0xg': not a number" },
		{ "seed", "0x-5", "--seed '0x-5': not a number" },
		{ "seed", "12abc", "--seed '12abc': not a number (decimal or "
		    "0x hex, below 2^64)" },
		{ "seed", "18446744073709551616", "--seed "
		    "'18446744073709551616': not a number (decimal or 0x hex, "
		    "below 2^64)" },
		{ "label", "a/b", "--label 'a/b': use 1 to 64 letters, digits, "
		    "'.', '_' or '-', not starting with '.'" },
		{ "label", ".hidden", "--label '.hidden': use 1 to 64 letters, "
		    "digits, '.', '_' or '-', not starting with '.'" },
		{ "phases", "bogus", "--phases 'bogus': unknown phase 'bogus' "
		    "(create, open, list, liststat, delete, rmrf)" },
		{ "phases", "create,,open", "--phases 'create,,open': empty "
		    "phase name" },
		{ "phases", "", "--phases '': empty phase name" },
		{ "phases", "open,", "--phases 'open,': empty phase name" },
		{ "phases", "delete,rmrf", "--phases 'delete,rmrf': choose one "
		    "of delete and rmrf" },
		{ "phases", "open,open", "--phases 'open,open': phase 'open' "
		    "given twice" },
		{ "quiet", "maybe", "--quiet 'maybe': must be yes or no" },
		{ "output", "", "--output '': must not be empty" },
		{ "frobnicate", "1", "unknown option 'frobnicate'" },
		{ "budget", NULL, "--budget: needs a value" },
	};
	struct config	c;
	char		err[LD_ERRLEN];
	size_t		i;

	(void)state;
	for (i = 0; i < NELEM(tab); i++) {
		config_init(&c);
		err[0] = '\0';
		if (config_set(&c, tab[i].key, tab[i].value, err) != -1)
			fail_msg("--%s '%s' accepted", tab[i].key,
			    tab[i].value);
		assert_int_equal(errno, EINVAL);
		assert_string_equal(err, tab[i].want);
		assert_null(strchr(err, '\n'));
		config_free(&c);
	}
}

static void
test_phases(void **state)
{
	static const struct {
		const char	*list;
		enum phase	 want[PHASE_COUNT];
		size_t		 n;
	} tab[] = {
		{ "create,open,delete", { PHASE_CREATE, PHASE_OPEN,
		    PHASE_DELETE }, 3 },
		{ "open", { PHASE_CREATE, PHASE_OPEN, PHASE_DELETE }, 3 },
		{ "rmrf,list,create", { PHASE_CREATE, PHASE_LIST, PHASE_RMRF },
		    3 },
		{ "liststat,open,list", { PHASE_CREATE, PHASE_LISTSTAT,
		    PHASE_OPEN, PHASE_LIST, PHASE_DELETE }, 5 },
		{ "create", { PHASE_CREATE, PHASE_DELETE }, 2 },
	};
	struct config	c;
	char		err[LD_ERRLEN];
	size_t		i, j;

	(void)state;
	for (i = 0; i < NELEM(tab); i++) {
		config_init(&c);
		assert_int_equal(config_set(&c, "phases", tab[i].list, err),
		    0);
		assert_int_equal(c.nphases, tab[i].n);
		for (j = 0; j < tab[i].n; j++)
			assert_int_equal(c.phases[j], tab[i].want[j]);
		config_free(&c);
	}
}

static void
test_check(void **state)
{
	struct config	c;
	char		err[LD_ERRLEN];

	(void)state;
	config_init(&c);
	assert_int_equal(config_check(&c, err), 0);
	assert_int_equal(config_set(&c, "start", "100", err), 0);
	assert_int_equal(config_set(&c, "max-files", "10", err), 0);
	assert_int_equal(config_check(&c, err), -1);
	assert_string_equal(err, "--max-files 10 is smaller than --start 100");
	config_free(&c);

	config_init(&c);
	assert_int_equal(config_set(&c, "name-len", "3", err), 0);
	assert_int_equal(config_set(&c, "max-files", "5000", err), 0);
	assert_int_equal(config_check(&c, err), -1);
	assert_string_equal(err, "--name-len 3 allows at most 1000 files, "
	    "fewer than --max-files 5000");
	assert_int_equal(config_set(&c, "max-files", "1000", err), 0);
	assert_int_equal(config_check(&c, err), 0);
	config_free(&c);

	config_init(&c);
	assert_int_equal(config_set(&c, "names", "maildir", err), 0);
	assert_int_equal(config_set(&c, "name-len", "10", err), 0);
	assert_int_equal(config_check(&c, err), -1);
	assert_non_null(strstr(err, "--name-len applies to --names=fixed"));
	config_free(&c);
}

/* Every option in the table is one config_set() knows, and vice versa. */
static void
test_table(void **state)
{
	const struct config_opt	*o;
	struct config		 c;
	char			 err[LD_ERRLEN];
	size_t			 n = 0;

	(void)state;
	for (o = config_opts; o->name != NULL; o++, n++) {
		config_init(&c);
		err[0] = '\0';
		(void)config_set(&c, o->name, o->arg != NULL ? "" : NULL, err);
		if (strstr(err, "unknown option") != NULL)
			fail_msg("config_set does not know --%s", o->name);
		assert_non_null(o->help);
		config_free(&c);
	}
	assert_int_equal(n, 17);
}

static void
test_dump(void **state)
{
	struct output_kvlist	kv = { 0 };
	struct config		c;
	char			err[LD_ERRLEN];

	(void)state;
	config_init(&c);
	assert_int_equal(config_set(&c, "phases", "list,rmrf", err), 0);
	assert_int_equal(config_set(&c, "seed", "42", err), 0);
	config_dump(&c, &kv);
	assert_string_equal(output_kv_get(&kv, "phases"), "create,list,rmrf");
	assert_string_equal(output_kv_get(&kv, "seed"), "42");
	assert_string_equal(output_kv_get(&kv, "budget"), "1800.000s");
	assert_string_equal(output_kv_get(&kv, "max-files"), "none");
	assert_string_equal(output_kv_get(&kv, "sync"), "phase");
	assert_string_equal(output_kv_get(&kv, "name-len"), "8");
	output_kv_free(&kv);
	config_free(&c);
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test(test_good),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_phases),
		cmocka_unit_test(test_check),
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_dump),
	};

	return cmocka_run_group_tests_name("config", tests, NULL, NULL);
}
