/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * Unit tests for config.c: a table of option values, each accepted with
 * its effect or refused with a message naming the option and the value;
 * --phases ordering; the cross-checks of config_check(); what holds for
 * every option of the table (unique names and letters, help, metavars,
 * defaults, sorted short options); every option taken and refused, at
 * the edges of its limits; the record of the settings, in its order; and
 * a backend's own option (the fake backend's --fake-batch), before and
 * after the backend is registered.  config_read.c has test_config_read.c.
 */

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/parse.h"
#include "base/util.h"
#include "fake.h"
#include "machine/perf.h"
#include "settings/config.h"

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
	/* File names may be any bytes, as the kernel's are. */
	assert_int_equal(config_set(&c, "output", "/tmp/caf\xe9", err), 0);
	assert_string_equal(c.output, "/tmp/caf\xe9");
	assert_int_equal(config_set(&c, "scratch", "/srv/caf\xe9", err), 0);
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
		{ "cold", "warm", "--cold 'warm': must be none, drop, all or "
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
		    "(mkdir, create, open, list, liststat, delete, rmrf; of a "
		    "mailbox: deliver, move, flag, scan, read, expunge)" },
		{ "phases", "deliver,open", "--phases 'deliver,open': the "
		    "phases of a mailbox (deliver, move, flag, scan, read, "
		    "expunge) and of a directory do not mix" },
		{ "phases", "deliver,flag,move", "--phases 'deliver,flag,move'"
		    ": move comes before flag (a flag moves a message still "
		    "in new/ to cur/ itself)" },
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
		/* Text must be UTF-8 (file names need not: test_good). */
		{ "events", "cycles,caf\xe9", "--events: not valid UTF-8 "
		    "(byte 11)" },
		{ "label", "x\xff", "--label: not valid UTF-8 (byte 2)" },
		{ "growth", "1.5\xc3", "--growth: not valid UTF-8 (byte 4)" },
		{ "phases", "create,\xed\xa0\x80", "--phases: not valid "
		    "UTF-8 (byte 8)" },
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
 * --workload maildir: all six phases unless --phases says otherwise,
 * maildir names, nothing recorded for the classic one; and what does not
 * go with a mailbox, or a mailbox's phases without it, refused by name.
 */
static void
test_workload(void **state)
{
	static const struct {
		const char	*key, *value, *want;
	} bad[] = {
		{ "layout", "tree", "--workload maildir: not with --layout "
		    "tree (a mailbox is its tmp/, new/ and cur/)" },
		{ "names", "fixed", "--workload maildir: not with --names "
		    "fixed (a mailbox's names are maildir names)" },
		{ "churn", "10", "--workload maildir: not with --churn" },
		{ "mpi", "yes", "--workload maildir: not with --mpi" },
		{ "phases", "create,list", "--workload maildir: not with "
		    "--phases of a directory (a mailbox's: deliver, move, "
		    "flag, scan, read, expunge)" },
	};
	struct kvlist	kv = { 0 };
	struct config	c;
	char		err[LD_ERRLEN];
	size_t		i;

	(void)state;
	config_init(&c);
	assert_int_equal(config_set(&c, "workload", "maildir", err), 0);
	assert_int_equal(config_check(&c, err), 0);
	assert_int_equal(c.names, NAMES_MAILDIR);
	assert_int_equal(c.nphases, 6);
	assert_int_equal(c.phases[1], PHASE_MOVE);
	assert_int_equal(c.phases[3], PHASE_SCAN);
	config_dump(&c, &kv);
	assert_string_equal(kv_get(&kv, "workload"), "maildir");
	assert_string_equal(kv_get(&kv, "phases"),
	    "deliver,move,flag,scan,read,expunge");
	kv_free(&kv);
	config_free(&c);

	config_init(&c);
	assert_int_equal(config_set(&c, "workload", "maildir", err), 0);
	assert_int_equal(config_set(&c, "phases", "scan,read", err), 0);
	assert_int_equal(config_check(&c, err), 0);
	assert_int_equal(c.nphases, 4);
	assert_int_equal(c.phases[0], PHASE_DELIVER);
	assert_int_equal(c.phases[3], PHASE_EXPUNGE);
	config_free(&c);

	for (i = 0; i < NELEM(bad); i++) {
		config_init(&c);
		assert_int_equal(config_set(&c, "workload", "maildir", err),
		    0);
		assert_int_equal(config_set(&c, bad[i].key, bad[i].value,
		    err), 0);
		assert_int_equal(config_check(&c, err), -1);
		assert_string_equal(err, bad[i].want);
		config_free(&c);
	}

	/* The classic workload: not recorded, and no mailbox's phases. */
	config_init(&c);
	assert_int_equal(config_check(&c, err), 0);
	config_dump(&c, &kv);
	assert_null(kv_get(&kv, "workload"));
	kv_free(&kv);
	assert_int_equal(config_set(&c, "phases", "deliver,read", err), 0);
	assert_int_equal(config_check(&c, err), -1);
	assert_string_equal(err, "--phases deliver goes with --workload "
	    "maildir");
	config_free(&c);
}

/*
 * --preset maildir sets what it names unless it was given, before or
 * after it, and says so; --preset classic is the defaults.
 */
static void
test_preset(void **state)
{
	struct kvlist	kv = { 0 };
	struct config		c;
	char			err[LD_ERRLEN];

	(void)state;
	config_init(&c);
	assert_int_equal(config_set(&c, "fsync", "none", err), 0);
	assert_int_equal(config_set(&c, "preset", "maildir", err), 0);
	assert_int_equal(config_set(&c, "repeat", "5", err), 0);
	assert_int_equal(config_check(&c, err), 0);
	assert_int_equal(c.workload, CONFIG_WORKLOAD_MAILDIR);
	assert_int_equal(c.names, NAMES_MAILDIR);
	assert_int_equal(c.file_size, 4096);
	assert_int_equal(c.fsync, BACKEND_FSYNC_NONE);
	assert_int_equal(c.repeat, 5);
	assert_int_equal(c.nphases, 6);
	assert_int_equal(c.phases[0], PHASE_DELIVER);
	assert_int_equal(c.phases[5], PHASE_EXPUNGE);
	assert_string_equal(c.preset_note, "maildir: --workload maildir "
	    "--file-size 4k --clients 4; given instead: --fsync --repeat");
	assert_int_equal(config_check(&c, err), 0);	/* settled once */
	assert_int_equal(c.repeat, 5);
	config_dump(&c, &kv);
	assert_string_equal(kv_get(&kv, "preset"), "maildir");
	assert_string_equal(kv_get(&kv, "fsync"), "none");
	assert_string_equal(kv_get(&kv, "file-size"), "4096");
	kv_free(&kv);
	config_free(&c);

	config_init(&c);
	assert_int_equal(config_set(&c, "preset", "maildir", err), 0);
	assert_int_equal(config_check(&c, err), 0);
	assert_int_equal(c.fsync, BACKEND_FSYNC_BOTH);
	assert_int_equal(c.repeat, 3);
	assert_string_equal(c.preset_note, "maildir: --workload maildir "
	    "--file-size 4k --fsync both --clients 4 --repeat 3");
	config_free(&c);

	/* classic is what a run does without it. */
	config_init(&c);
	assert_int_equal(config_set(&c, "preset", "classic", err), 0);
	assert_int_equal(config_check(&c, err), 0);
	assert_int_equal(c.names, NAMES_FIXED);
	assert_int_equal(c.file_size, 0);
	assert_int_equal(c.fsync, BACKEND_FSYNC_NONE);
	assert_int_equal(c.repeat, 1);
	assert_int_equal(c.nphases, 3);
	config_free(&c);

	/* The preset's names with a width are refused as maildir's are. */
	config_init(&c);
	assert_int_equal(config_set(&c, "preset", "maildir", err), 0);
	assert_int_equal(config_set(&c, "name-len", "10", err), 0);
	assert_int_equal(config_check(&c, err), -1);
	assert_non_null(strstr(err, "--name-len applies to --names=fixed"));
	config_free(&c);
}

/*
 * Each row of 'tab' ('n' rows: up to three options, name and value, and
 * the message): config_check() refuses those settings with that message.
 */
struct refusal {
	const char	*opts[6];	/* name, value, ... */
	const char	*want;		/* the error */
};

static void
check_refusals(const struct refusal *tab, size_t n)
{
	struct config	c;
	char		err[LD_ERRLEN];
	size_t		i, j;

	for (i = 0; i < n; i++) {
		config_init(&c);
		for (j = 0; j < 6 && tab[i].opts[j] != NULL; j += 2)
			assert_int_equal(config_set(&c, tab[i].opts[j],
			    tab[i].opts[j + 1], err), 0);
		assert_int_equal(config_check(&c, err), -1);
		assert_string_equal(err, tab[i].want);
		config_free(&c);
	}
}

/*
 * The tree layout: its options go with it only; --dirs sets the first n;
 * mkdir comes first whether named or not; rmrf and --churn are the flat
 * layout's; files-per-dir is recorded for a tree only.
 */
static void
test_layout(void **state)
{
	static const struct refusal	tab[] = {
		{ { "dirs", "10" }, "--dirs goes with --layout tree" },
		{ { "files-per-dir", "3" },
		    "--files-per-dir goes with --layout tree" },
		{ { "phases", "mkdir" }, "--phases mkdir goes with --layout "
		    "tree" },
		{ { "layout", "tree", "phases", "rmrf" }, "--phases rmrf goes "
		    "with --layout flat; a tree's delete removes it as rm -rf "
		    "does, directory by directory" },
		{ { "layout", "tree", "churn", "10", "phases", "list" },
		    "--churn goes with --layout flat: it works in the round "
		    "directory" },
		{ { "layout", "tree", "dirs", "10", "start", "20" },
		    "--dirs 10 and --start 20 both set the first round: give "
		    "one" },
		{ { "layout", "tree", "dirs", "4294967295" },
		    "--dirs 4294967295 x --files-per-dir 15 is more than "
		    "4294967295 files" },
	};
	struct kvlist	kv = { 0 };
	struct config		c;
	char			err[LD_ERRLEN], buf[128];
	size_t			j;

	(void)state;
	check_refusals(tab, NELEM(tab));
	config_init(&c);
	assert_int_equal(config_set(&c, "layout", "tree", err), 0);
	assert_int_equal(config_set(&c, "dirs", "50000", err), 0);
	assert_int_equal(config_set(&c, "phases", "list,create", err), 0);
	assert_int_equal(config_check(&c, err), 0);
	assert_int_equal(config_check(&c, err), 0);	/* settled once */
	assert_int_equal(c.start, 750000);
	assert_int_equal(c.nphases, 4);
	buf[0] = '\0';
	for (j = 0; j < c.nphases; j++)
		(void)snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf),
		    "%s%s", j > 0 ? "," : "", phase_name(c.phases[j]));
	assert_string_equal(buf, "mkdir,create,list,delete");
	config_dump(&c, &kv);
	assert_string_equal(kv_get(&kv, "files-per-dir"), "15");
	assert_string_equal(kv_get(&kv, "layout"), "tree");
	assert_string_equal(kv_get(&kv, "phases"),
	    "mkdir,create,list,delete");
	kv_free(&kv);
	config_free(&c);
}

/*
 * --clients and --split: what they refuse, and that one client's record
 * is what it always was (neither is dumped).
 */
static void
test_clients_opts(void **state)
{
	static const struct refusal	tab[] = {
		{ { "split", "blocked" }, "--split goes with --clients 2 or "
		    "more" },
		{ { "clients", "2", "layout", "tree" }, "--clients 2: not with "
		    "--layout tree (its directories are not divided among "
		    "clients)" },
		{ { "clients", "3", "phases", "create,rmrf" }, "--clients 3: "
		    "not with --phases rmrf (each client would remove names "
		    "another one listed); use delete" },
		{ { "clients", "2", "churn", "5", "phases", "list" },
		    "--clients 2: not with --churn" },
		{ { "clients", "8", "start", "5" }, "--clients 8 needs --start "
		    "8 at least (a file for each), not 5" },
		{ { "mpi", "yes", "clients", "2" }, "--mpi: not with --clients "
		    "(the ranks are the clients)" },
		{ { "mpi", "yes", "cold", "drop" }, "--mpi: not with --cold (it "
		    "empties one machine's caches)" },
		{ { "mpi", "yes", "memory-limit", "64M" }, "--mpi: not with "
		    "--memory-limit (it limits one machine's)" },
	};
	struct kvlist	kv = { 0 };
	struct config		c;
	char			err[LD_ERRLEN];

	(void)state;
	check_refusals(tab, NELEM(tab));
	config_init(&c);
	assert_int_equal(config_set(&c, "clients", "65", err), -1);
	assert_string_equal(err, "--clients '65': must be a whole number "
	    "from 1 to 64");
	assert_int_equal(config_check(&c, err), 0);
	config_dump(&c, &kv);
	assert_null(kv_get(&kv, "clients"));
	assert_null(kv_get(&kv, "split"));
	kv_free(&kv);
	assert_int_equal(config_set(&c, "clients", "4", err), 0);
	assert_int_equal(config_set(&c, "split", "blocked", err), 0);
	assert_int_equal(config_check(&c, err), 0);
	config_dump(&c, &kv);
	assert_string_equal(kv_get(&kv, "clients"), "4");
	assert_string_equal(kv_get(&kv, "split"), "blocked");
	kv_free(&kv);
	config_free(&c);
}

/* ===== The table ===== */

/* Whether 'o' takes a value: everything but a flag. */
static bool
takes_value(const struct config_opt *o)
{
	return o->type != CONFIG_FLAG;
}

/* The registered backend whose option 'o' is. */
static const struct backend_ops *
owner(const struct config_opt *o)
{
	const struct backend_ops	*ops;
	const struct config_opt		*m;
	size_t				 b;

	for (b = 0; (ops = backend_nth(b)) != NULL; b++)
		for (m = ops->options; m != NULL && m->name != NULL; m++)
			if (m == o)
				return ops;
	fail_msg("--%s: no backend's", o->name);
	return NULL;
}

/*
 * What holds for every option of the table and of every registered
 * backend: unique names and letters, help, a metavar when it takes a
 * value (for a choice: its words), a default config_init() can parse,
 * a message for the verb that does not take it, room for its value, and
 * dump places 1..N without a gap.
 */
static void
check_invariants(void)
{
	const struct config_opt		*o, *p;
	const struct config_word	*w;
	struct config			 c;
	char				 err[LD_ERRLEN], words[256];
	size_t				 i, j;
	int				 maxrank = 0, n;
	bool				 seen[64] = { false };

	for (i = 0; (o = config_opt_at(i)) != NULL; i++) {
		assert_non_null(o->name);
		for (j = 0; j < i; j++) {
			p = config_opt_at(j);
			if (strcmp(o->name, p->name) == 0)
				fail_msg("--%s twice", o->name);
			if (o->letter != 0 && o->letter == p->letter)
				fail_msg("-%c twice", o->letter);
		}
		if (o->help == NULL || *o->help == '\0')
			fail_msg("--%s has no help", o->name);
		if (takes_value(o) && o->metavar == NULL)
			fail_msg("--%s takes a value but has no metavar",
			    o->name);
		if (o->type == CONFIG_CHOICE) {
			assert_non_null(o->words);
			words[0] = '\0';
			for (w = o->words; w->word != NULL; w++)
				(void)snprintf(words + strlen(words),
				    sizeof(words) - strlen(words), "%s%s",
				    w == o->words ? "" : "|", w->word);
			assert_string_equal(o->metavar, words);
			if (o->size != 0)
				assert_int_equal(o->size, sizeof(int));
		}
		if (o->type == CONFIG_COUNT && o->size != 0)
			assert_true(o->size == sizeof(unsigned) ||
			    o->size == sizeof(uint64_t));
		if (o->type == CONFIG_CUSTOM)
			assert_non_null(o->parse);
		if (config_opt_backend(o)) {
			assert_int_equal(o->letter, 0);
			assert_int_equal(o->isset, 0);
			assert_int_equal(o->act, CONFIG_ACT_SET);
			assert_true(o->size != 0 || o->parse != NULL);
			assert_true(o->off + o->size <=
			    owner(o)->settings_size);
		}
		if ((o->verbs & (CONFIG_RUN | CONFIG_SUITE)) !=
		    (CONFIG_RUN | CONFIG_SUITE) && !config_opt_backend(o))
			assert_non_null(o->refuse);
		if (o->init != NULL) {
			config_init(&c);
			err[0] = '\0';
			if (config_set(&c, o->name, o->init, err) == -1)
				fail_msg("--%s: default '%s' refused: %s",
				    o->name, o->init, err);
			config_free(&c);
		}
		if (!config_opt_backend(o) && o->dump != 0) {
			assert_true(o->dump > 0 && o->dump < 64);
			if (seen[o->dump])
				fail_msg("--%s: dump place %d taken", o->name,
				    o->dump);
			seen[o->dump] = true;
			if (o->dump > maxrank)
				maxrank = o->dump;
		}
	}
	for (n = 1; n <= maxrank; n++)
		if (!seen[n])
			fail_msg("no option in dump place %d", n);
}

static void
test_invariants(void **state)
{
	struct option	*lo;
	char		 optstring[CONFIG_NSHORT];
	const char	*s;
	size_t		 n;
	int		 prev = 0, ch;

	(void)state;
	check_invariants();
	/* The short options: sorted as OpenBSD sorts them ("aAbB"). */
	lo = config_getopt(optstring);
	assert_int_equal(optstring[0], ':');
	for (s = optstring + 1; *s != '\0'; s++) {
		if (*s == ':')
			continue;
		ch = (unsigned char)*s;
		if (prev != 0 && (tolower(prev) > tolower(ch) ||
		    (tolower(prev) == tolower(ch) && prev >= ch)))
			fail_msg("optstring %s: '%c' after '%c'", optstring, ch,
			    prev);
		prev = ch;
	}
	assert_string_equal(optstring, ":b:c:g:hl:N:n:o:p:qr:s:V");
	for (n = 0; lo[n].name != NULL; n++)
		assert_ptr_equal(config_opt_find(lo[n].name),
		    config_opt_at(n));
	assert_int_equal(n, 61);
	free(lo);
}

/*
 * Every option of the table, by name: a value config_set() takes and
 * one it refuses, with the message.  An option that is no setting (-c,
 * --cleanup, -h, -V, a target key) is unknown to config_set().  A new
 * option must join this table.
 */
static void
test_every_option(void **state)
{
	static const struct {
		const char	*name, *good, *badv, *want;
	} tab[] = {
		{ "budget", "2h", "2x", "--budget '2x': not a duration (e.g. "
		    "90s, 5m, 1h)" },
		{ "budget-policy", "classic", "x", "--budget-policy 'x': must "
		    "be predict or classic" },
		{ "churn", "1000000", "1000001", "--churn '1000001': must be "
		    "a whole number from 0 to 1000000" },
		{ "clients", "64", "0", "--clients '0': must be a whole number "
		    "from 1 to 64" },
		{ "cold", "all", "x", "--cold 'x': must be none, drop, all or "
		    "remount" },
		{ "config", NULL, "x.conf", "unknown option 'config'" },
		{ "dirs", "50000", "0", "--dirs '0': must be a whole number "
		    "from 1 to 4294967295" },
		{ "events", "none", ",", "--events ',': empty event name" },
		{ "file-size", "1M", "-1", "--file-size '-1': not a size (e.g. "
		    "0, 512, 4k, 1M)" },
		{ "files-per-dir", "15", "0", "--files-per-dir '0': must be a "
		    "whole number from 1 to 1000000" },
		{ "fsync", "dir", "x", "--fsync 'x': must be none, file, dir "
		    "or both" },
		{ "growth", "1.01", "1", "--growth '1': must be greater than "
		    "1" },
		{ "label", "a", "", "--label '': use 1 to 64 letters, digits, "
		    "'.', '_' or '-', not starting with '.'" },
		{ "layout", "tree", "x", "--layout 'x': must be flat or "
		    "tree" },
		{ "split", "blocked", "x", "--split 'x': must be interleaved "
		    "or blocked" },
		{ "preset", "maildir", "mbox", "--preset 'mbox': must be "
		    "classic or maildir" },
		{ "max-files", "1", "0", "--max-files '0': must be a whole "
		    "number from 1 to 4294967295" },
		{ "memory-limit", "1P", "1G1", "--memory-limit '1G1': not a "
		    "size (e.g. 64M, 1G)" },
		{ "name-len", "255", "256", "--name-len '256': must be a whole "
		    "number from 1 to 255" },
		{ "names", "fixed", "x", "--names 'x': must be fixed or "
		    "maildir" },
		{ "output", "x", "", "--output '': must not be empty" },
		{ "phases", "rmrf", "x", "--phases 'x': unknown phase 'x' "
		    "(mkdir, create, open, list, liststat, delete, rmrf; of a "
		    "mailbox: deliver, move, flag, scan, read, expunge)" },
		{ "mpi", "yes", "1", "--mpi '1': must be yes or no" },
		{ "quiet", "yes", "1", "--quiet '1': must be yes or no" },
		{ "repeat", "1000", "1001", "--repeat '1001': must be a whole "
		    "number from 1 to 1000" },
		{ "scratch", "/", "x", "--scratch 'x': must be an absolute "
		    "path" },
		{ "seed", "0", "x", "--seed 'x': not a number" },
		{ "start", "4294967295", "4294967296", "--start '4294967296': "
		    "must be a whole number from 1 to 4294967295" },
		{ "setup-only", "yes", "1", "--setup-only '1': must be yes or "
		    "no" },
		{ "sync", "none", "x", "--sync 'x': must be none, phase or "
		    "round" },
		{ "warmup", "100", "101", "--warmup '101': must be a whole "
		    "number from 0 to 100" },
		{ "workload", "maildir", "mbox", "--workload 'mbox': must be "
		    "classic or maildir" },
		{ "rmrf-batch", "1", "0", "--rmrf-batch '0': must be a whole "
		    "number from 1 to 10000000" },
		{ "total-budget", "1h", "0", "--total-budget '0': must be "
		    "more than 0" },
		{ "kernels", "/a,/b", "", "--kernels '': must not be empty" },
		/* Target keys: target_conf_set() checks them (-c). */
		{ "description", NULL, "x", "unknown option 'description'" },
		{ "description-de", NULL, "x", "unknown option "
		    "'description-de'" },
		{ "device", NULL, "/dev/x", "unknown option 'device'" },
		{ "fstype", NULL, "ext4", "unknown option 'fstype'" },
		{ "image-size", NULL, "1G", "unknown option 'image-size'" },
		{ "kernel", NULL, "uml", "unknown option 'kernel'" },
		{ "mkfs", NULL, "mkfs.ext4", "unknown option 'mkfs'" },
		{ "mount-options", NULL, "noatime", "unknown option "
		    "'mount-options'" },
		{ "path", NULL, "/x", "unknown option 'path'" },
		{ "server", NULL, "x", "unknown option 'server'" },
		{ "source", NULL, "h:/x", "unknown option 'source'" },
		{ "uml", NULL, "/x", "unknown option 'uml'" },
		{ "uml-grace", NULL, "5s", "unknown option 'uml-grace'" },
		{ "uml-mem", NULL, "1G", "unknown option 'uml-mem'" },
		{ "uml-cpus", NULL, "2", "unknown option 'uml-cpus'" },
		{ "url", NULL, "nfs://h/x", "unknown option 'url'" },
		{ "wipe", NULL, "yes", "unknown option 'wipe'" },
		{ "cleanup", NULL, "yes", "unknown option 'cleanup'" },
		{ "help", NULL, "yes", "unknown option 'help'" },
		{ "version", NULL, "yes", "unknown option 'version'" },
	};
	const struct config_opt	*o;
	struct config		 c;
	char			 err[LD_ERRLEN];
	size_t			 i, n = 0;

	(void)state;
	for (o = config_opts; o->name != NULL; o++, n++) {
		for (i = 0; i < NELEM(tab); i++)
			if (strcmp(tab[i].name, o->name) == 0)
				break;
		if (i == NELEM(tab))
			fail_msg("--%s is not in test_every_option", o->name);
	}
	assert_int_equal(n, NELEM(tab));
	for (i = 0; i < NELEM(tab); i++) {
		config_init(&c);
		err[0] = '\0';
		if (tab[i].good != NULL && config_set(&c, tab[i].name,
		    tab[i].good, err) == -1)
			fail_msg("--%s '%s' refused: %s", tab[i].name,
			    tab[i].good, err);
		if (config_set(&c, tab[i].name, tab[i].badv, err) != -1)
			fail_msg("--%s '%s' accepted", tab[i].name,
			    tab[i].badv);
		assert_int_equal(errno, EINVAL);
		assert_string_equal(err, tab[i].want);
		config_free(&c);
	}
}

/*
 * The limits of each numeric option and the words of each choice, from
 * the table itself: the edges are taken, one past them is refused, and a
 * choice is recorded as the word that set it.
 */
static void
test_limits(void **state)
{
	struct kvlist		 kv = { 0 };
	const struct config_opt		*o;
	const struct config_word	*w;
	struct config			 c;
	char				 err[LD_ERRLEN], v[64];

	(void)state;
	for (o = config_opts; o->name != NULL; o++) {
		config_init(&c);
		switch (o->type) {
		case CONFIG_COUNT:
			if (o->parse != NULL)
				break;
			(void)snprintf(v, sizeof(v), "%" PRIu64, o->min);
			assert_int_equal(config_set(&c, o->name, v, err), 0);
			(void)snprintf(v, sizeof(v), "%" PRIu64, o->max);
			assert_int_equal(config_set(&c, o->name, v, err), 0);
			(void)snprintf(v, sizeof(v), "%" PRIu64, o->max + 1);
			assert_int_equal(config_set(&c, o->name, v, err), -1);
			(void)snprintf(v, sizeof(v), "%lld",
			    (long long)o->min - 1);
			assert_int_equal(config_set(&c, o->name, v, err), -1);
			break;
		case CONFIG_SIZE:
			(void)snprintf(v, sizeof(v), "%" PRIu64, o->max);
			assert_int_equal(config_set(&c, o->name, v, err), 0);
			(void)snprintf(v, sizeof(v), "%" PRIu64, o->max + 1);
			assert_int_equal(config_set(&c, o->name, v, err), -1);
			if (o->min > 0) {
				(void)snprintf(v, sizeof(v), "%" PRIu64,
				    o->min - 1);
				assert_int_equal(config_set(&c, o->name, v,
				    err), -1);
			}
			break;
		case CONFIG_DURATION:
			(void)snprintf(v, sizeof(v), "%" PRIu64 "ns", o->max);
			assert_int_equal(config_set(&c, o->name, v, err), 0);
			/* A second more: parse_duration() counts in doubles. */
			(void)snprintf(v, sizeof(v), "%" PRIu64 "s",
			    o->max / (uint64_t)NS_PER_S + 1);
			assert_int_equal(config_set(&c, o->name, v, err), -1);
			assert_int_equal(config_set(&c, o->name, "1ns", err),
			    0);
			assert_int_equal(config_set(&c, o->name, "0", err),
			    -1);
			break;
		case CONFIG_REAL:
			(void)snprintf(v, sizeof(v), "%" PRIu64, o->max);
			assert_int_equal(config_set(&c, o->name, v, err), 0);
			(void)snprintf(v, sizeof(v), "%" PRIu64, o->min);
			assert_int_equal(config_set(&c, o->name, v, err), -1);
			(void)snprintf(v, sizeof(v), "%" PRIu64 ".5", o->max);
			assert_int_equal(config_set(&c, o->name, v, err), -1);
			break;
		case CONFIG_CHOICE:
			for (w = o->words; w->word != NULL; w++) {
				assert_int_equal(config_set(&c, o->name,
				    w->word, err), 0);
				/* A shown one: its test checks the record. */
				if (o->dump == 0 || o->show != NULL)
					continue;
				config_dump(&c, &kv);
				assert_string_equal(kv_get(&kv,
				    o->name), w->word);
			}
			break;
		default:
			break;
		}
		config_free(&c);
	}
	kv_free(&kv);
}

static void
test_dump(void **state)
{
	struct kvlist	kv = { 0 };
	struct config		c;
	char			err[LD_ERRLEN];

	(void)state;
	config_init(&c);
	assert_int_equal(config_set(&c, "phases", "list,rmrf", err), 0);
	assert_int_equal(config_set(&c, "seed", "42", err), 0);
	config_dump(&c, &kv);
	assert_string_equal(kv_get(&kv, "phases"), "create,list,rmrf");
	assert_string_equal(kv_get(&kv, "seed"), "42");
	assert_string_equal(kv_get(&kv, "budget"), "1800.000s");
	assert_string_equal(kv_get(&kv, "max-files"), "none");
	assert_string_equal(kv_get(&kv, "sync"), "phase");
	assert_string_equal(kv_get(&kv, "name-len"), "8");
	assert_string_equal(kv_get(&kv, "scratch"), TARGET_SCRATCH);
	assert_string_equal(kv_get(&kv, "cold"), "none");
	assert_string_equal(kv_get(&kv, "memory-limit"), "none");
	assert_string_equal(kv_get(&kv, "events"), PERF_DEFAULT);
	assert_int_equal(config_set(&c, "scratch", "/srv/ld", err), 0);
	config_dump(&c, &kv);
	assert_string_equal(kv_get(&kv, "scratch"), "/srv/ld");
	kv_free(&kv);
	config_free(&c);
}

/*
 * The record of the defaults, key by key in its order: the outputs keep
 * it (run.json's "config" too), so neither a key, a value nor the order
 * may change.
 */
static void
test_dump_order(void **state)
{
	static const char *const want[][2] = {
		{ "budget", "1800.000s" }, { "budget-policy", "predict" },
		{ "growth", "1.5" }, { "start", "1000" },
		{ "max-files", "none" }, { "repeat", "1" }, { "warmup", "0" },
		{ "phases", "create,open,delete" }, { "names", "fixed" },
		{ "name-len", "8" }, { "file-size", "0" }, { "fsync", "none" },
		{ "sync", "phase" }, { "seed", "0" },
		{ "scratch", TARGET_SCRATCH }, { "cold", "none" },
		{ "memory-limit", "none" }, { "events", PERF_DEFAULT },
		{ "churn", "0" }, { "layout", "flat" }, { "preset", "classic" },
	};
	struct kvlist	kv = { 0 };
	struct config		c;
	char			err[LD_ERRLEN];
	size_t			i;

	(void)state;
	config_init(&c);
	config_dump(&c, &kv);
	assert_int_equal(kv.len, NELEM(want));
	for (i = 0; i < NELEM(want); i++) {
		assert_string_equal(kv.kv[i].key, want[i][0]);
		assert_string_equal(kv.kv[i].value, want[i][1]);
	}
	kv_free(&kv);
	/* maildir names have no name-len; set values are recorded as set. */
	assert_int_equal(config_set(&c, "names", "maildir", err), 0);
	assert_int_equal(config_set(&c, "budget", "90s", err), 0);
	assert_int_equal(config_set(&c, "max-files", "5000", err), 0);
	assert_int_equal(config_set(&c, "memory-limit", "1M", err), 0);
	assert_int_equal(config_set(&c, "growth", "2.25", err), 0);
	assert_int_equal(config_set(&c, "repeat", "3", err), 0);
	assert_int_equal(config_set(&c, "events", "task-clock", err), 0);
	assert_int_equal(config_set(&c, "total-budget", "1h", err), 0);
	config_dump(&c, &kv);
	assert_int_equal(kv.len, NELEM(want) - 1);
	assert_null(kv_get(&kv, "name-len"));
	assert_null(kv_get(&kv, "total-budget"));
	assert_string_equal(kv.kv[0].value, "90.000s");
	assert_string_equal(kv_get(&kv, "max-files"), "5000");
	assert_string_equal(kv_get(&kv, "memory-limit"), "1048576");
	assert_string_equal(kv_get(&kv, "growth"), "2.25");
	assert_string_equal(kv_get(&kv, "repeat"), "3");
	assert_string_equal(kv_get(&kv, "events"), "task-clock");
	assert_string_equal(kv.kv[kv.len - 1].key, "preset");
	kv_free(&kv);
	config_free(&c);
}

/* ===== A backend's own options ===== */

/*
 * The fake backend's --fake-batch: unknown until the backend is
 * registered; then taken by config_set(), config files and the command
 * line, recorded after the table's own, listed by -h, and handed to the
 * backend when it is opened.  Registering is for good, so this runs
 * last.
 */
static void
test_backend_option(void **state)
{
	struct kvlist	 kv = { 0 };
	struct config		 c;
	struct config_args	 a;
	struct target_conf	 tc;
	struct backend		 be;
	struct backend_dir	*d;
	struct backend_opts	 bo = { 0 };
	const char		**names;
	char			 err[LD_ERRLEN], path[] = "/tmp/tc.XXXXXX";
	char			*argv[] = { (char *)"largedir",
				    (char *)"--fake-batch=5", (char *)"dir",
				    NULL };
	char			*buf = NULL;
	size_t			 len = 0;
	FILE			*fp;
	bool			 end;
	int			 fd;

	(void)state;
	config_init(&c);
	assert_int_equal(config_set(&c, "fake-batch", "3", err), -1);
	assert_string_equal(err, "unknown option 'fake-batch'");
	assert_int_equal(config_parse_args(&c, NULL, CONFIG_RUN, 3, argv, &a,
	    err), -1);
	assert_string_equal(err, "unknown option '--fake-batch=5' (see "
	    "largedir -h)");
	config_free(&c);

	assert_int_equal(backend_register(&fake_ops), 0);
	check_invariants();
	config_init(&c);
	config_dump(&c, &kv);
	assert_string_equal(kv_get(&kv, "fake-batch"), "7");
	assert_string_equal(kv.kv[kv.len - 1].key, "fake-batch");
	assert_int_equal(config_set(&c, "fake-batch", "3", err), 0);
	assert_int_equal(config_set(&c, "fake-batch", "65", err), -1);
	assert_string_equal(err, "--fake-batch '65': must be a whole number "
	    "from 1 to 64");
	assert_int_equal(config_set(&c, "fake-batch", "3\xff", err), -1);
	assert_string_equal(err, "--fake-batch: not valid UTF-8 (byte 2)");
	config_dump(&c, &kv);
	assert_string_equal(kv_get(&kv, "fake-batch"), "3");
	assert_int_equal(config_parse_args(&c, NULL, CONFIG_RUN, 3, argv, &a,
	    err), 0);
	assert_int_equal(a.nrest, 1);
	config_dump(&c, &kv);
	assert_string_equal(kv_get(&kv, "fake-batch"), "5");

	/* A config file may set it too. */
	assert_true((fd = mkstemp(path)) != -1);
	assert_non_null(fp = fdopen(fd, "w"));
	assert_true(fputs("fstype = tmpfs\nfake-batch = 2\n", fp) >= 0);
	assert_int_equal(fclose(fp), 0);
	target_conf_init(&tc);
	if (config_load(&c, &tc, path, err) == -1)
		fail_msg("%s", err);
	target_conf_free(&tc);
	assert_int_equal(unlink(path), 0);

	/* -h lists it under its backend. */
	assert_non_null(fp = open_memstream(&buf, &len));
	assert_int_equal(config_usage(fp), 0);
	assert_int_equal(fclose(fp), 0);
	assert_non_null(strstr(buf, "\noptions of the fake backend:\n"
	    "      --fake-batch count"));
	free(buf);

	/* The backend reads it when it is opened: 2 names a batch. */
	bo.settings = config_settings(&c, &fake_ops);
	assert_non_null(bo.settings);
	assert_int_equal(((const struct fake_settings *)bo.settings)->batch,
	    2);
	assert_int_equal(backend_open(&be, &fake_ops, "fake://t", &bo, err),
	    0);
	assert_int_equal(be.ops->mkdir(&be, "round-0001-1", 100, &d), 0);
	assert_int_equal(be.ops->create(&be, d, "a"), 0);
	assert_int_equal(be.ops->create(&be, d, "b"), 0);
	assert_int_equal(be.ops->create(&be, d, "c"), 0);
	assert_int_equal(be.ops->rewind(&be, d), 0);
	assert_int_equal(be.ops->readdir(&be, d, &names, &end), 2);
	assert_int_equal(be.ops->readdir(&be, d, &names, &end), 1);
	assert_int_equal(be.ops->unlink(&be, d, "a"), 0);
	assert_int_equal(be.ops->unlink(&be, d, "b"), 0);
	assert_int_equal(be.ops->unlink(&be, d, "c"), 0);
	assert_int_equal(be.ops->rmdir(&be, d, true), 0);
	assert_int_equal(backend_close(&be, false, err), 0);
	kv_free(&kv);
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
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_clients_opts),
		cmocka_unit_test(test_workload),
		cmocka_unit_test(test_preset),
		cmocka_unit_test(test_invariants),
		cmocka_unit_test(test_every_option),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_dump),
		cmocka_unit_test(test_dump_order),
		/* Last: it registers the fake backend for good. */
		cmocka_unit_test(test_backend_option),
	};

	return cmocka_run_group_tests_name("config", tests, NULL, NULL);
}
