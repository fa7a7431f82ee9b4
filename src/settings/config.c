/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * config: see config.h.  This file holds the option table, the few
 * options no type describes (--phases, --seed, --events), and what is
 * done with a setting by the table: its default (config_init()), its
 * check (config_set()), its record (config_dump()).  config_read.c reads
 * settings from the command line and config files.
 *
 * Error messages name the option and the value and say what would be
 * accepted, in one line without a trailing period, e.g.
 *
 *	--growth '1': must be greater than 1
 *
 * The front-ends prefix them with the program name and exit 2.
 *
 * The order of config_opts[] is the order of -h; 'dump' gives the order
 * of the record, which the outputs keep (JSON keys included), so a new
 * option takes the next free place there and none moves.
 */

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/parse.h"
#include "base/util.h"
#include "machine/perf.h"
#include "settings/config.h"
#include "settings/optvals.h"

#define MAX_BUDGET_NS	(366ULL * 86400 * NS_PER_S)	/* a year */
#define MAX_FILES	CONFIG_MAX_FILES
#define MAX_LABEL	64
#define PERF_DEFAULT_HELP	"cycles,instructions,..."
#define STR(x)		STR1(x)
#define STR1(x)		#x

/* Where a value goes in struct config, and the flag set with it. */
#define FIELD(m)	.off = offsetof(struct config, m), \
			.size = sizeof(((struct config *)NULL)->m)
#define SETS(m)		.isset = offsetof(struct config, m) + 1
/* A default that -h shows as it is written. */
#define DEF(s)		.def = (s), .init = (s)
#define ALL		(CONFIG_RUN | CONFIG_SUITE | CONFIG_FILE)
/* What describes the work, which a comparison runs on A and on B. */
#define WORK		(ALL | CONFIG_COMPARE)
#define NOT_SUITE	"suite: %s: each config names its own target and label"
/* A target key on the command line, for target_conf_set(). */
#define TKEY(n, t, m, h) { .name = (n), .type = (t), .verbs = CONFIG_RUN, \
			.act = CONFIG_ACT_TARGET, .metavar = (m), .help = (h), \
			.refuse = NOT_TKEY }
#define NOT_TKEY	"suite: --%s: target keys are per target: set them " \
			    "in each config file"

static void	*base(const struct config *, const struct config_opt *);
static int	show_split(const struct config *, char *, size_t);
static int	show_workload(const struct config *, char *, size_t);

static const struct config_word policies[] = {
	{ "predict", TIMING_PREDICT }, { "classic", TIMING_CLASSIC },
	{ NULL, 0 }
};
static const struct config_word colds[] = {
	{ "none", CONFIG_COLD_NONE }, { "drop", CONFIG_COLD_DROP },
	{ "all", CONFIG_COLD_ALL }, { "remount", CONFIG_COLD_REMOUNT },
	{ NULL, 0 }
};
static const struct config_word fsyncs[] = {
	{ "none", BACKEND_FSYNC_NONE }, { "file", BACKEND_FSYNC_FILE },
	{ "dir", BACKEND_FSYNC_DIR }, { "both", BACKEND_FSYNC_BOTH },
	{ NULL, 0 }
};
static const struct config_word kinds[] = {
	{ "fixed", NAMES_FIXED }, { "maildir", NAMES_MAILDIR }, { NULL, 0 }
};
static const struct config_word layouts[] = {
	{ "flat", CONFIG_LAYOUT_FLAT }, { "tree", CONFIG_LAYOUT_TREE },
	{ NULL, 0 }
};
static const struct config_word splits[] = {
	{ "interleaved", CONFIG_SPLIT_INTERLEAVED },
	{ "blocked", CONFIG_SPLIT_BLOCKED }, { NULL, 0 }
};
static const struct config_word workloads[] = {
	{ "classic", CONFIG_WORKLOAD_CLASSIC },
	{ "maildir", CONFIG_WORKLOAD_MAILDIR },
	{ NULL, 0 }
};
static const struct config_word presets[] = {
	{ "classic", CONFIG_PRESET_CLASSIC },
	{ "maildir", CONFIG_PRESET_MAILDIR },
	{ NULL, 0 }
};
static const struct config_word syncs[] = {
	{ "none", CONFIG_SYNC_NONE }, { "phase", CONFIG_SYNC_PHASE },
	{ "round", CONFIG_SYNC_ROUND }, { NULL, 0 }
};

/* ===== The options ===== */

const struct config_opt config_opts[] = {
	{ .name = "budget", .letter = 'b', .type = CONFIG_DURATION,
	  .verbs = ALL, .flags = CONFIG_SYNOPSIS, .metavar = "duration",
	  .help = "time budget of the run", DEF("30m"), FIELD(budget_ns),
	  .max = MAX_BUDGET_NS, .bad = "not a duration (e.g. 90s, 5m, 1h)",
	  .low = "must be more than 0", .high = "at most 366d", .dump = 1 },
	{ .name = "budget-policy", .type = CONFIG_CHOICE, .verbs = ALL,
	  .flags = CONFIG_SYNOPSIS, .metavar = "predict|classic",
	  .help = "predict: plan the last rounds to end at the budget",
	  .init = "predict", FIELD(policy), .words = policies, .dump = 2 },
	{ .name = "churn", .type = CONFIG_COUNT, .verbs = WORK,
	  .flags = CONFIG_SYNOPSIS, .metavar = "rate",
	  .help = "files/s made and removed while listing", DEF("0"),
	  FIELD(churn), .min = 0, .max = 1000000, .dump = 19 },
	{ .name = "clients", .type = CONFIG_COUNT, .verbs = WORK,
	  .flags = CONFIG_SYNOPSIS, .metavar = "count",
	  .help = "processes sharing each round's files", DEF("1"),
	  FIELD(clients), SETS(clients_set), .min = 1,
	  .max = CONFIG_MAX_CLIENTS, .dump = 23,
	  .show = optvals_show_clients },
	{ .name = "cold", .type = CONFIG_CHOICE, .verbs = WORK,
	  .flags = CONFIG_SYNOPSIS, .metavar = "none|drop|all|remount",
	  .help = "empty the caches after create (all: pages too)",
	  DEF("none"), FIELD(cold),
	  SETS(cold_set), .words = colds, .dump = 16 },
	{ .name = "config", .letter = 'c', .type = CONFIG_STRING,
	  .verbs = CONFIG_RUN, .act = CONFIG_ACT_READ,
	  .flags = CONFIG_FILENAME, .metavar = "file",
	  .help = "a target config file (configs/NAME.conf)",
	  .refuse = NOT_SUITE },
	{ .name = "dirs", .type = CONFIG_COUNT, .verbs = WORK,
	  .flags = CONFIG_SYNOPSIS, .metavar = "count",
	  .help = "directories of the first round (--layout tree)",
	  .def = "none", FIELD(dirs), .min = 1, .max = MAX_FILES },
	{ .name = "events", .type = CONFIG_STRING, .verbs = WORK,
	  .flags = CONFIG_SYNOPSIS, .metavar = "list",
	  .help = "libpfm4 events per phase",
	  .def = PERF_DEFAULT_HELP, FIELD(events), .parse = optvals_set_events,
	  .dump = 18, .unset = PERF_DEFAULT },
	{ .name = "file-size", .type = CONFIG_SIZE, .verbs = WORK,
	  .flags = CONFIG_SYNOPSIS, .metavar = "size",
	  .help = "bytes written to each file (a mailbox's: A-B, drawn)",
	  DEF("0"), FIELD(file_size), SETS(file_size_set),
	  .max = CONFIG_MAX_FILE_SIZE, .parse = optvals_set_file_size,
	  .bad = "not a size (e.g. 0, 512, 4k, 1M)",
	  .high = "too large (at most 1G)", .dump = 11,
	  .show = optvals_show_file_size },
	{ .name = "files-per-dir", .type = CONFIG_COUNT, .verbs = WORK,
	  .flags = CONFIG_SYNOPSIS, .metavar = "count",
	  .help = "files in each directory of a tree",
	  DEF("15"), FIELD(files_per_dir), SETS(files_per_dir_set),
	  .min = 1, .max = 1000000, .dump = 21, .show = optvals_show_per_dir },
	{ .name = "fsync", .type = CONFIG_CHOICE, .verbs = WORK,
	  .flags = CONFIG_SYNOPSIS, .metavar = "none|file|dir|both",
	  .help = "fsync, inside the timing", DEF("none"), FIELD(fsync),
	  SETS(fsync_set), .words = fsyncs, .dump = 12 },
	{ .name = "growth", .letter = 'g', .type = CONFIG_REAL, .verbs = ALL,
	  .flags = CONFIG_SYNOPSIS, .metavar = "factor",
	  .help = "n grows by this factor", DEF("1.5"), FIELD(growth),
	  .min = 1, .max = 100, .bad = "not a number",
	  .low = "must be greater than 1", .high = "at most 100",
	  .dump = 3 },
	{ .name = "label", .letter = 'l', .type = CONFIG_STRING,
	  .verbs = CONFIG_RUN | CONFIG_FILE, .flags = CONFIG_SYNOPSIS,
	  .metavar = "label", .help = "name of the outputs",
	  .def = "the fs type", FIELD(label), .valid = config_label_ok,
	  .bad = "use 1 to 64 letters, digits, '.', '_' or '-', not "
	  "starting with '.'", .refuse = NOT_SUITE },
	{ .name = "layout", .type = CONFIG_CHOICE, .verbs = WORK,
	  .flags = CONFIG_SYNOPSIS, .metavar = "flat|tree",
	  .help = "tree: the files in subdirectories", DEF("flat"),
	  FIELD(layout), .words = layouts, .dump = 20 },
	{ .name = "max-files", .letter = 'N', .type = CONFIG_COUNT,
	  .verbs = ALL, .flags = CONFIG_SYNOPSIS, .metavar = "count",
	  .help = "largest n", .def = "10^name-len", FIELD(max_files),
	  .min = 1, .max = MAX_FILES, .dump = 5, .unset = "none" },
	{ .name = "memory-limit", .type = CONFIG_SIZE, .verbs = WORK,
	  .flags = CONFIG_SYNOPSIS, .metavar = "size",
	  .help = "reading phases in a memory cgroup (--cold); suite: A,B,...",
	  .def = "none", FIELD(memory_limit), .min = CONFIG_MIN_MEMORY,
	  .max = CONFIG_MAX_MEMORY, .bad = "not a size (e.g. 64M, 1G)",
	  .low = "must be from 64k to 1P", .high = "must be from 64k to 1P",
	  .parse = optvals_set_memory_limit, .dump = 17, .unset = "none" },
	{ .name = "mpi", .type = CONFIG_FLAG, .verbs = CONFIG_RUN,
	  .flags = CONFIG_SYNOPSIS,
	  .help = "the clients are the ranks of mpirun (make MPI=1)",
	  FIELD(mpi), .refuse = "suite: %s: run each target under mpirun on "
	  "its own" },
	{ .name = "name-len", .type = CONFIG_COUNT, .verbs = WORK,
	  .flags = CONFIG_SYNOPSIS, .metavar = "length",
	  .help = "width of fixed names", DEF(STR(NAMES_DEFAULT_LEN)),
	  FIELD(name_len), SETS(name_len_set), .min = 1,
	  .max = NAMES_MAX_LEN, .dump = 10, .show = optvals_show_name_len },
	{ .name = "names", .type = CONFIG_CHOICE, .verbs = WORK,
	  .flags = CONFIG_SYNOPSIS, .metavar = "fixed|maildir",
	  .help = "how files are named", DEF("fixed"), FIELD(names),
	  SETS(names_set), .words = kinds, .dump = 9 },
	{ .name = "output", .letter = 'o', .type = CONFIG_STRING,
	  .verbs = WORK, .flags = CONFIG_SYNOPSIS | CONFIG_LOCAL |
	  CONFIG_FILENAME, .metavar = "path", .help = "run directory",
	  .def = "results/STAMP-LABEL", FIELD(output),
	  .valid = optvals_nonempty,
	  .bad = "must not be empty" },
	{ .name = "phases", .letter = 'p', .type = CONFIG_CUSTOM,
	  .verbs = WORK, .flags = CONFIG_SYNOPSIS, .metavar = "phases",
	  .help = "phases to run", DEF("create,open,delete"),
	  SETS(phases_set), .parse = optvals_set_phases, .dump = 8,
	  .show = optvals_show_phases },
	{ .name = "preset", .type = CONFIG_CHOICE, .verbs = WORK,
	  .flags = CONFIG_SYNOPSIS, .metavar = "classic|maildir",
	  .help = "maildir sets --workload, size, fsync, -r",
	  DEF("classic"), FIELD(preset), .words = presets, .dump = 22 },
	{ .name = "quiet", .letter = 'q', .type = CONFIG_FLAG, .verbs = WORK,
	  .flags = CONFIG_SYNOPSIS, .help = "no per-round lines, no progress",
	  FIELD(quiet) },
	{ .name = "rmrf-batch", .type = CONFIG_COUNT, .verbs = WORK,
	  .flags = CONFIG_SYNOPSIS, .metavar = "count",
	  .help = "entries rmrf reads before it unlinks them (fts's)",
	  DEF("100000"), FIELD(rmrf_batch), .min = 1, .max = 10000000,
	  .dump = 26, .show = optvals_show_rmrf_batch },
	{ .name = "repeat", .letter = 'r', .type = CONFIG_COUNT,
	  .verbs = WORK, .flags = CONFIG_SYNOPSIS, .metavar = "count",
	  .help = "measure each n this many times", DEF("1"), FIELD(repeat),
	  SETS(repeat_set), .min = 1, .max = 1000, .dump = 6 },
	{ .name = "scratch", .type = CONFIG_STRING, .verbs = WORK,
	  .flags = CONFIG_SYNOPSIS | CONFIG_FILENAME, .metavar = "dir",
	  .help = "where images and mounts live", .def = TARGET_SCRATCH,
	  FIELD(scratch), .valid = optvals_absolute,
	  .bad = "must be an absolute path", .dump = 15,
	  .unset = TARGET_SCRATCH },
	{ .name = "seed", .letter = 's', .type = CONFIG_COUNT, .verbs = WORK,
	  .flags = CONFIG_SYNOPSIS, .metavar = "seed",
	  .help = "seed of the random order", .def = "random", FIELD(seed),
	  SETS(seed_set), .parse = optvals_set_seed, .dump = 14 },
	{ .name = "start", .letter = 'n', .type = CONFIG_COUNT,
	  .verbs = WORK, .flags = CONFIG_SYNOPSIS, .metavar = "count",
	  .help = "n of the first round", DEF("1000"), FIELD(start),
	  SETS(start_set), .min = 1, .max = MAX_FILES, .dump = 4 },
	{ .name = "setup-only", .type = CONFIG_FLAG, .verbs = CONFIG_RUN,
	  .help = "set the target up and take it down again",
	  FIELD(setup_only), .refuse = "suite: %s: check one target with "
	  "largedir -c FILE --setup-only" },
	{ .name = "split", .type = CONFIG_CHOICE, .verbs = WORK,
	  .flags = CONFIG_SYNOPSIS, .metavar = "interleaved|blocked",
	  .help = "how --clients share the names", DEF("interleaved"),
	  FIELD(split), SETS(split_set), .words = splits, .dump = 24,
	  .show = show_split },
	{ .name = "sync", .type = CONFIG_CHOICE, .verbs = WORK,
	  .flags = CONFIG_SYNOPSIS, .metavar = "none|phase|round",
	  .help = "syncfs, outside the timing", DEF("phase"), FIELD(sync),
	  .words = syncs, .dump = 13 },
	{ .name = "warmup", .type = CONFIG_COUNT, .verbs = ALL,
	  .flags = CONFIG_SYNOPSIS, .metavar = "count",
	  .help = "warm-up rounds, not in the summary", DEF("0"),
	  FIELD(warmup), .min = 0, .max = 100, .dump = 7 },
	{ .name = "workload", .type = CONFIG_CHOICE, .verbs = WORK,
	  .flags = CONFIG_SYNOPSIS, .metavar = "classic|maildir",
	  .help = "maildir: a mailbox's phases, as mail servers work",
	  DEF("classic"), FIELD(workload), SETS(workload_set),
	  .words = workloads, .dump = 25, .show = show_workload },
	/* The suite's; the synopsis names it, no line of -h does. */
	{ .name = "total-budget", .type = CONFIG_DURATION,
	  .verbs = CONFIG_SUITE, .flags = CONFIG_UNLISTED | CONFIG_LOCAL,
	  .metavar = "duration",
	  .help = "time budget of the suite, split evenly among the targets",
	  FIELD(total_budget_ns), .max = MAX_BUDGET_NS,
	  .bad = "not a duration (e.g. 30m, 2h)",
	  .low = "must be more than 0",
	  .high = "not a duration (e.g. 30m, 2h)",
	  .refuse = "--total-budget goes with 'largedir suite'" },
	{ .name = "kernels", .type = CONFIG_STRING, .verbs = CONFIG_SUITE,
	  .flags = CONFIG_UNLISTED | CONFIG_LOCAL, .metavar = "path,...",
	  .help = "UML kernels: each kernel = uml config once per kernel",
	  FIELD(kernels), .valid = optvals_nonempty,
	  .bad = "must not be empty",
	  .refuse = "--kernels goes with 'largedir suite'" },
	/* -c's target keys (config_read.c); config_set() knows them not. */
	TKEY("description", CONFIG_STRING, "text", "a sentence on the target"),
	TKEY("description-de", CONFIG_STRING, "text",
	    "the sentence in German, for German pages"),
	TKEY("device", CONFIG_STRING, "path", "a block device, not an image"),
	TKEY("fstype", CONFIG_STRING, "type", "the filesystem type"),
	TKEY("image-size", CONFIG_STRING, "size", "size of the image (8G)"),
	TKEY("kernel", CONFIG_STRING, "host|uml",
	    "uml: measure inside User-Mode Linux"),
	TKEY("mkfs", CONFIG_STRING, "command", "the mkfs command line"),
	TKEY("mount-options", CONFIG_STRING, "options", "the mount options"),
	TKEY("path", CONFIG_STRING, "dir", "an existing directory to measure"),
	TKEY("server", CONFIG_STRING, "text",
	    "what serves the export (software, disk, cache)"),
	TKEY("source", CONFIG_STRING, "host:/path", "an NFS export to mount"),
	TKEY("uml", CONFIG_STRING, "path", "the UML kernel (kernel = uml)"),
	TKEY("uml-grace", CONFIG_STRING, "duration",
	    "a UML guest's time past 1.25 x budget (300s)"),
	TKEY("uml-mem", CONFIG_STRING, "size", "a UML guest's memory (512M)"),
	TKEY("uml-cpus", CONFIG_STRING, "count",
	    "a UML guest's CPUs (1; more from Linux 6.19)"),
	TKEY("url", CONFIG_STRING, "url", "a server a backend measures"),
	TKEY("wipe", CONFIG_FLAG, NULL, "mkfs on a device with a signature"),
	/* Not settings: what the command line does. */
	{ .name = "cleanup", .type = CONFIG_FLAG, .verbs = CONFIG_RUN,
	  .act = CONFIG_ACT_CLEANUP, .metavar = "[dir]",
	  .help = "remove what killed runs left behind",
	  .refuse = "suite: --cleanup goes alone" },
	{ .name = "help", .letter = 'h', .type = CONFIG_FLAG,
	  .verbs = CONFIG_RUN | CONFIG_SUITE | CONFIG_COMPARE,
	  .act = CONFIG_ACT_HELP,
	  .flags = CONFIG_SYNOPSIS, .help = "print this help" },
	{ .name = "version", .letter = 'V', .type = CONFIG_FLAG,
	  .verbs = CONFIG_RUN | CONFIG_SUITE | CONFIG_COMPARE,
	  .act = CONFIG_ACT_VERSION,
	  .flags = CONFIG_SYNOPSIS, .help = "print the version" },
	{ .name = NULL }
};

/*
 * Whether 'value' can be a --label: a file name of its own, and not a
 * hidden one (the graphs and pages rely on it: see plot.c).
 */
bool
config_label_ok(const char *value)
{
	return *value != '\0' && *value != '.' &&
	    strlen(value) <= MAX_LABEL && strspn(value,
	    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "0123456789._-") == strlen(value);
}

/* --workload, recorded when it is not the classic one. */
static int
show_workload(const struct config *cfg, char *buf, size_t len)
{
	if (cfg->workload == CONFIG_WORKLOAD_CLASSIC)
		return -1;
	(void)snprintf(buf, len, "%s", workloads[cfg->workload].word);
	return 0;
}

static int
show_split(const struct config *cfg, char *buf, size_t len)
{
	if (cfg->clients <= 1)
		return -1;
	(void)snprintf(buf, len, "%s", splits[cfg->split].word);
	return 0;
}

/* ===== Settings by the table ===== */

/*
 * Where the values of 'o' are kept in 'cfg': the config itself for the
 * options of config_opts[], the struct of its backend's settings for a
 * backend's (config_init() made it), or NULL if there is none.
 */
static void *
base(const struct config *cfg, const struct config_opt *o)
{
	const struct backend_ops	*ops;
	const struct config_opt		*m;
	size_t				 b;

	for (m = config_opts; m->name != NULL; m++)
		if (m == o)
			return (void *)(uintptr_t)cfg;
	for (b = 0; (ops = backend_nth(b)) != NULL; b++)
		for (m = ops->options; m != NULL && m->name != NULL; m++)
			if (m == o)
				return cfg->bset[b];
	return NULL;
}

/*
 * The 'i'-th option (from 0): those of config_opts[], then those of each
 * registered backend in turn.  NULL past the last.
 */
const struct config_opt *
config_opt_at(size_t i)
{
	const struct backend_ops	*ops;
	const struct config_opt		*o;
	size_t				 b;

	for (o = config_opts; o->name != NULL; o++)
		if (i-- == 0)
			return o;
	for (b = 0; (ops = backend_nth(b)) != NULL; b++)
		for (o = ops->options; o != NULL && o->name != NULL; o++)
			if (i-- == 0)
				return o;
	return NULL;
}

/* The option called 'name' (config_opts[] first), or NULL. */
const struct config_opt *
config_opt_find(const char *name)
{
	const struct config_opt	*o;
	size_t			 i;

	for (i = 0; (o = config_opt_at(i)) != NULL; i++)
		if (strcmp(o->name, name) == 0)
			return o;
	return NULL;
}

/* Whether 'o' is a backend's option rather than one of config_opts[]. */
bool
config_opt_backend(const struct config_opt *o)
{
	const struct config_opt	*m;

	for (m = config_opts; m->name != NULL; m++)
		if (m == o)
			return false;
	return true;
}

/*
 * Fill 'cfg' with the defaults: each option's 'init', and those of the
 * registered backends' options, each backend's in a struct of its own
 * (its settings_size bytes, zero but for them).
 */
void
config_init(struct config *cfg)
{
	const struct backend_ops	*ops;
	const struct config_opt		*o;
	union config_val		 v;
	char				 err[LD_ERRLEN];
	size_t				 i;

	memset(cfg, 0, sizeof(*cfg));
	for (i = 0; (ops = backend_nth(i)) != NULL; i++)
		if (ops->settings_size != 0)
			cfg->bset[i] = xcalloc(1, ops->settings_size);
	for (i = 0; (o = config_opt_at(i)) != NULL; i++) {
		if (o->init == NULL ||
		    config_opt_parse(cfg, o, o->init, &v, err) == -1)
			continue;	/* test_config checks every init */
		config_opt_store(o, base(cfg, o), &v);
	}
}

/* Free what 'cfg' owns. */
void
config_free(struct config *cfg)
{
	const struct config_opt	*o;
	char			*p;
	size_t			 i;

	for (i = 0; (o = config_opt_at(i)) != NULL; i++)
		if (o->type == CONFIG_STRING && o->size != 0 &&
		    (p = base(cfg, o)) != NULL)
			free(*(char **)(void *)(p + o->off));
	for (i = 0; i < BACKEND_MAX; i++)
		free(cfg->bset[i]);
	free(cfg->overrides);
	free(cfg->preset_note);
	memset(cfg, 0, sizeof(*cfg));
}

/*
 * The settings of the backend 'ops' in 'cfg': its own struct, as its
 * options filled it (backend_ops.settings_size), or NULL if it has none
 * or is not in the registry.  'cfg' owns it.
 */
const void *
config_settings(const struct config *cfg, const struct backend_ops *ops)
{
	const struct backend_ops	*b;
	size_t				 i;

	for (i = 0; (b = backend_nth(i)) != NULL; i++)
		if (b == ops)
			return cfg->bset[i];
	return NULL;
}

/*
 * What a backend of 'ops' is opened with, from the settings 'cfg', into
 * 'bo'; its own options are the ones 'cfg' owns.  'started' is the run's
 * start (ISO 8601), recorded in the work directory's mark, or NULL.
 */
void
config_backend_opts(const struct config *cfg, const struct backend_ops *ops,
    const char *started, struct backend_opts *bo)
{
	memset(bo, 0, sizeof(*bo));
	bo->file_size = cfg->file_size;
	bo->file_size_max = cfg->file_size_max;
	bo->fsync = cfg->fsync;
	bo->names = cfg->names;
	bo->name_len = cfg->name_len;
	bo->seed = cfg->seed;
	bo->per_dir = cfg->layout == CONFIG_LAYOUT_TREE ? cfg->files_per_dir :
	    0;
	bo->churn = cfg->churn;
	bo->mailbox = cfg->workload == CONFIG_WORKLOAD_MAILDIR;
	bo->started = started;
	bo->settings = config_settings(cfg, ops);
}

/*
 * Set option 'key' (a long option name) to 'value' (NULL for a flag) in
 * 'cfg'.  Options that are no settings (-c, --cleanup, -h, -V, the
 * target keys) are unknown here.  A value must be UTF-8 unless it is a
 * file name (CONFIG_FILENAME), which may be any bytes, as the kernel's
 * are; the message of one that is not names the option and the first
 * bad byte, counted from 1, without quoting the value.  Return 0, or -1
 * with errno EINVAL and a one-line message naming the option and the
 * value in 'err' (LD_ERRLEN bytes).
 */
int
config_set(struct config *cfg, const char *key, const char *value, char *err)
{
	const struct config_opt	*o;
	union config_val	 v;
	size_t			 off;

	o = config_opt_find(key);
	if (value == NULL && (o == NULL || o->type != CONFIG_FLAG)) {
		(void)snprintf(err, LD_ERRLEN, "--%s: needs a value", key);
		errno = EINVAL;
		return -1;
	}
	if (o == NULL || (o->size == 0 && o->parse == NULL)) {
		(void)snprintf(err, LD_ERRLEN, "unknown option '%s'", key);
		errno = EINVAL;
		return -1;
	}
	if (value != NULL && (o->flags & CONFIG_FILENAME) == 0 &&
	    !util_utf8_valid(value, &off)) {
		(void)snprintf(err, LD_ERRLEN, "--%s: not valid UTF-8 (byte "
		    "%zu)", key, off + 1);
		errno = EINVAL;
		return -1;
	}
	if (config_opt_parse(cfg, o, value, &v, err) == -1)
		return -1;
	config_opt_store(o, base(cfg, o), &v);
	if (o->isset != 0)
		*config_given(cfg, o) = true;
	return 0;
}

/* The flag of 'cfg' that says option 'o' was given (o->isset is set). */
bool *
config_given(struct config *cfg, const struct config_opt *o)
{
	return (bool *)(void *)((char *)cfg + o->isset - 1);
}

/*
 * Add every setting of 'cfg', defaults included, to 'kv' under its long
 * option name, as the outputs record them: the options of config_opts[]
 * in the order of their 'dump', then the recorded options of the
 * registered backends in the order of their tables.
 */
void
config_dump(const struct config *cfg, struct kvlist *kv)
{
	const struct config_opt	*o;
	union config_val	 v, zero;
	char			 buf[128];
	size_t			 i;
	int			 rank, more = 1;

	for (rank = 1; more; rank++) {
		more = 0;
		for (o = config_opts; o->name != NULL; o++) {
			more |= o->dump > rank;
			if (o->dump != rank)
				continue;
			if (o->show != NULL) {
				if (o->show(cfg, buf, sizeof(buf)) == 0)
					kv_set(kv, o->name, "%s", buf);
				continue;
			}
			config_opt_load(o, base(cfg, o), &v);
			kv_set(kv, o->name, "%s", config_opt_show(o, &v, buf,
			    sizeof(buf)));
		}
	}
	/* A backend's option without a default is recorded when given. */
	memset(&zero, 0, sizeof(zero));
	for (i = 0; (o = config_opt_at(i)) != NULL; i++) {
		if (!config_opt_backend(o) || o->dump == 0 ||
		    o->type == CONFIG_CUSTOM)
			continue;
		config_opt_load(o, base(cfg, o), &v);
		if (o->init != NULL || memcmp(&v, &zero, sizeof(v)) != 0)
			kv_set(kv, o->name, "%s", config_opt_show(o, &v, buf,
			    sizeof(buf)));
	}
}
