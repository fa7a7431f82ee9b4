/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * Unit tests for config.c: a table of option values, each accepted with
 * its effect or refused with a message naming the option and the value;
 * --phases ordering; the cross-checks of config_check(); that
 * config_opts[] and config_set() know the same options; and config_load()
 * on the fixture files in tests/data/conf/, on files written into a
 * mkdtemp(3) directory, and on every config shipped in configs/.
 */

#include <errno.h>
#include <glob.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "config.h"
#include "perf.h"
#include "util.h"

#define NELEM(a)	(sizeof(a) / sizeof((a)[0]))

#ifndef TEST_DATA
#define TEST_DATA	"tests/data"
#endif
#define CONF		TEST_DATA "/conf/"
#define CONFIGS		TEST_DATA "/../../configs"	/* the shipped ones */

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
	assert_false(c.cold_set);
	assert_int_equal(config_set(&c, "cold", "remount", err), 0);
	assert_int_equal(c.cold, CONFIG_COLD_REMOUNT);
	assert_true(c.cold_set);
	assert_int_equal(config_set(&c, "memory-limit", "64M", err), 0);
	assert_int_equal(c.memory_limit, 64 << 20);
	assert_int_equal(config_set(&c, "memory-limit", "64k", err), 0);
	assert_int_equal(c.memory_limit, 64 << 10);
	assert_int_equal(config_set(&c, "events", "task-clock", err), 0);
	assert_string_equal(c.events, "task-clock");
	assert_int_equal(config_set(&c, "events", "none", err), 0);
	assert_string_equal(c.events, "none");
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
	assert_null(c.scratch);
	assert_int_equal(config_set(&c, "scratch", "/srv/scratch", err), 0);
	assert_string_equal(c.scratch, "/srv/scratch");
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
		{ "file-size", "1.5x", "--file-size '1.5x': not a size (e.g. "
		    "0, 512, 4k, 1M)" },
		{ "file-size", "2G", "--file-size '2G': too large (at most "
		    "1G)" },
		{ "fsync", "maybe", "--fsync 'maybe': must be none, file, dir "
		    "or both" },
		{ "sync", "sometimes", "--sync 'sometimes': must be none, "
		    "phase or round" },
		{ "cold", "warm", "--cold 'warm': must be none, drop or "
		    "remount" },
		{ "memory-limit", "63k", "--memory-limit '63k': must be from "
		    "64k to 1P" },
		{ "memory-limit", "lots", "--memory-limit 'lots': not a size "
		    "(e.g. 64M, 1G)" },
		{ "memory-limit", "2P", "--memory-limit '2P': must be from "
		    "64k to 1P" },
		{ "events", "task-clock,,page-faults", "--events "
		    "'task-clock,,page-faults': empty event name" },
		{ "budget-policy", "greedy", "--budget-policy 'greedy': must "
		    "be predict or classic" },
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
		{ "scratch", "var/tmp", "--scratch 'var/tmp': must be an "
		    "absolute path" },
		{ "scratch", "", "--scratch '': must be an absolute path" },
		{ "config", "x.conf", "unknown option 'config'" },
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

/*
 * Every option in the table is one config_set() knows, and vice versa,
 * except --config: largedir.c reads that file itself, before the other
 * options, and a config file cannot name another.
 */
static void
test_table(void **state)
{
	const struct config_opt	*o;
	struct config		 c;
	char			 err[LD_ERRLEN];
	size_t			 n = 0;
	bool			 unknown;

	(void)state;
	for (o = config_opts; o->name != NULL; o++, n++) {
		config_init(&c);
		err[0] = '\0';
		(void)config_set(&c, o->name, o->arg != NULL ? "" : NULL, err);
		unknown = strstr(err, "unknown option") != NULL;
		if (strcmp(o->name, "config") == 0) {
			assert_true(unknown);
			assert_int_equal(o->letter, 'c');
		} else if (unknown)
			fail_msg("config_set does not know --%s", o->name);
		assert_non_null(o->help);
		config_free(&c);
	}
	assert_int_equal(n, 22);
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
	assert_string_equal(output_kv_get(&kv, "scratch"), TARGET_SCRATCH);
	assert_string_equal(output_kv_get(&kv, "cold"), "none");
	assert_string_equal(output_kv_get(&kv, "memory-limit"), "none");
	assert_string_equal(output_kv_get(&kv, "events"), PERF_DEFAULT);
	assert_int_equal(config_set(&c, "scratch", "/srv/ld", err), 0);
	config_dump(&c, &kv);
	assert_string_equal(output_kv_get(&kv, "scratch"), "/srv/ld");
	output_kv_free(&kv);
	config_free(&c);
}

/* ===== config_load() ===== */

/* Load 'path' into fresh structures; return what config_load() did. */
static int
load(const char *path, struct config *c, struct target_conf *tc, char *err)
{
	config_init(c);
	target_conf_init(tc);
	err[0] = '\0';
	errno = 0;
	return config_load(c, tc, path, err);
}

/* good.conf: every kind of line, target keys and workload options. */
static void
test_load_good(void **state)
{
	struct config		c;
	struct target_conf	tc;
	char			err[LD_ERRLEN];

	(void)state;
	if (load(CONF "good.conf", &c, &tc, err) == -1)
		fail_msg("%s", err);
	assert_string_equal(tc.label, "good");
	assert_string_equal(tc.description, "a value with = and # inside");
	assert_string_equal(tc.fstype, "ext4");
	assert_string_equal(tc.mkfs, "mkfs.ext4 -q -F -N 1000 -E "
	    "lazy_itable_init=0");
	assert_string_equal(tc.mount_options, "noatime,commit=30");
	assert_int_equal(tc.image_size, 1ULL << 30);
	assert_null(tc.path);
	assert_int_equal(c.budget_ns, 5 * 60 * NS_PER_S);
	assert_int_equal(c.nphases, 4);
	assert_int_equal(c.phases[0], PHASE_CREATE);
	assert_int_equal(c.phases[1], PHASE_OPEN);
	assert_int_equal(c.phases[2], PHASE_LIST);
	assert_int_equal(c.phases[3], PHASE_DELETE);
	assert_true(c.quiet);
	assert_null(c.label);		/* label is the target's key */
	assert_true(c.growth == 1.5);	/* not in the file: the default */
	target_conf_free(&tc);
	config_free(&c);
}

/* Each bad fixture, refused with one line naming the file and line. */
static void
test_load_bad(void **state)
{
	static const struct {
		const char	*path, *want;
		int		 eno;
	} tab[] = {
		{ CONF "unknown-key.conf", CONF "unknown-key.conf:3: unknown "
		    "key 'colour'", EINVAL },
		{ CONF "missing-eq.conf", CONF "missing-eq.conf:4: expected "
		    "'key = value'", EINVAL },
		{ CONF "bad-size.conf", CONF "bad-size.conf:4: image_size "
		    "'8X': not a size (e.g. 8G, 512M)", EINVAL },
		{ CONF "bad-growth.conf", CONF "bad-growth.conf:4: --growth "
		    "'1': must be greater than 1", EINVAL },
		{ CONF "twice.conf", CONF "twice.conf:5: key 'label' given "
		    "twice", EINVAL },
		{ CONF "both-path-device.conf", CONF "both-path-device.conf:4: "
		    "path and device are both set: a target is one or the "
		    "other", EINVAL },
		{ CONF "no-mkfs.conf", CONF "no-mkfs.conf:3: mkfs missing for "
		    "fstype ext4 (e.g. mkfs = mkfs.ext4)", EINVAL },
		{ CONF "mkfs-missing.conf", CONF "mkfs-missing.conf:3: mkfs "
		    "program 'mkfs.nonexistent' not found in PATH", EINVAL },
		{ CONF "unknown-fstype.conf", CONF "unknown-fstype.conf:3: "
		    "fstype 'foofs': unknown (ext2, ext3, ext4, xfs, btrfs, "
		    "tmpfs, reiserfs, vxfs, nfs, nfs4, f2fs, jfs)", EINVAL },
		{ CONF "missing.conf", CONF "missing.conf: No such file or "
		    "directory", ENOENT },
		{ CONF, CONF ": Is a directory", EISDIR },
	};
	struct config		c;
	struct target_conf	tc;
	char			err[LD_ERRLEN];
	size_t			i;

	(void)state;
	for (i = 0; i < NELEM(tab); i++) {
		if (load(tab[i].path, &c, &tc, err) != -1)
			fail_msg("%s accepted", tab[i].path);
		assert_int_equal(errno, tab[i].eno);
		assert_string_equal(err, tab[i].want);
		assert_null(strchr(err, '\n'));
		target_conf_free(&tc);
		config_free(&c);
	}
}

/*
 * Files written on the spot: the line length limit at its edge (comments
 * count too), keys a file may not set, an empty key, a flag option, CRLF
 * line ends, a last line without a newline.  Each has a target that
 * target_conf_check() accepts (tmpfs).
 */
static void
test_load_lines(void **state)
{
	static const struct {
		const char	*body;
		size_t		 fill;	/* a comment line this long */
		const char	*want;	/* after "PATH", or NULL: accepted */
	} tab[] = {
		{ "fstype = tmpfs\n", 4096, NULL },
		{ "fstype = tmpfs\n", 4097, ":2: line longer than 4096 bytes" },
		{ "fstype = tmpfs\n", 10000, ":2: line longer than 4096 "
		    "bytes" },
		{ "fstype = tmpfs\nconfig = other.conf\n", 0,
		    ":2: unknown key 'config'" },
		{ "fstype = tmpfs\n = value\n", 0,
		    ":2: expected 'key = value'" },
		{ "fstype = tmpfs\n=\n", 0, ":2: expected 'key = value'" },
		{ "fstype = tmpfs\nquiet = maybe\n", 0,
		    ":2: --quiet 'maybe': must be yes or no" },
		{ "fstype = tmpfs\nquiet = no\n", 0, NULL },
		{ "fstype = tmpfs\nscratch = tmp\n", 0,
		    ":2: --scratch 'tmp': must be an absolute path" },
		{ "fstype = tmpfs\r\nbudget = 90s\r\n", 0, NULL },
		{ "\n\n#\nfstype = tmpfs", 0, NULL },
		{ "fstype = tmpfs\nbudget = 5m\nbudget = 5m\n", 0,
		    ":3: key 'budget' given twice" },
	};
	struct config		c;
	struct target_conf	tc;
	char			dir[] = "/tmp/test_config.XXXXXX", path[64];
	char			err[LD_ERRLEN], want[LD_ERRLEN];
	size_t			i, k;
	FILE			*fp;

	(void)state;
	assert_non_null(mkdtemp(dir));
	(void)snprintf(path, sizeof(path), "%s/t.conf", dir);
	for (i = 0; i < NELEM(tab); i++) {
		assert_non_null(fp = fopen(path, "w"));
		assert_true(fputs(tab[i].body, fp) >= 0);
		if (tab[i].fill > 0) {
			assert_int_equal(fputc('#', fp), '#');
			for (k = 1; k < tab[i].fill; k++)
				assert_int_equal(fputc('x', fp), 'x');
			assert_int_equal(fputc('\n', fp), '\n');
		}
		assert_int_equal(fclose(fp), 0);
		if (tab[i].want == NULL) {
			if (load(path, &c, &tc, err) == -1)
				fail_msg("case %zu: %s", i, err);
		} else {
			if (load(path, &c, &tc, err) != -1)
				fail_msg("case %zu accepted", i);
			assert_int_equal(errno, EINVAL);
			(void)snprintf(want, sizeof(want), "%s%s", path,
			    tab[i].want);
			assert_string_equal(err, want);
		}
		target_conf_free(&tc);
		config_free(&c);
	}
	assert_int_equal(unlink(path), 0);
	assert_int_equal(rmdir(dir), 0);
}

/*
 * Every config shipped in configs/ loads and passes target_conf_check()
 * (mkfs.ext4, mkfs.xfs and mkfs.btrfs must be installed; the reiserfs,
 * vxfs and nfs configs name a path and need no mkfs).  Each has a label
 * that is its file name, a description and an fstype, and a config that
 * makes an image says how large.
 */
static void
test_load_shipped(void **state)
{
	struct config		 c;
	struct target_conf	 tc;
	char			 err[LD_ERRLEN];
	const char		*base;
	glob_t			 g;
	size_t			 i;

	(void)state;
	assert_int_equal(glob(CONFIGS "/*.conf", 0, NULL, &g), 0);
	assert_true(g.gl_pathc >= 11);
	for (i = 0; i < g.gl_pathc; i++) {
		if (load(g.gl_pathv[i], &c, &tc, err) == -1)
			fail_msg("%s", err);
		base = strrchr(g.gl_pathv[i], '/') + 1;
		assert_non_null(tc.label);
		assert_int_equal(strlen(tc.label) + strlen(".conf"),
		    strlen(base));
		assert_memory_equal(tc.label, base, strlen(tc.label));
		assert_non_null(tc.description);
		assert_non_null(tc.fstype);
		if (tc.mkfs != NULL)
			assert_true(tc.image_size > 0);
		else
			assert_true(tc.path != NULL ||
			    strcmp(tc.fstype, "tmpfs") == 0);
		target_conf_free(&tc);
		config_free(&c);
	}
	globfree(&g);
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
		cmocka_unit_test(test_load_good),
		cmocka_unit_test(test_load_bad),
		cmocka_unit_test(test_load_lines),
		cmocka_unit_test(test_load_shipped),
	};

	return cmocka_run_group_tests_name("config", tests, NULL, NULL);
}
