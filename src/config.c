/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * config: see config.h.
 *
 * Error messages name the option and the value and say what would be
 * accepted, in one line without a trailing period, e.g.
 *
 *	--growth '1': must be greater than 1
 *
 * largedir.c prefixes them with the program name and exits 2.
 *
 * config_load() reads a target file (configs/NAME.conf): "key = value"
 * lines whose keys are the target's (target_conf_key()) or the long
 * names of the options above, so a file and the command line share every
 * check.  Its messages carry the file and line instead:
 *
 *	configs/ext4.conf:12: --growth '1': must be greater than 1
 */

#include <ctype.h>
#include <getopt.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "perf.h"
#include "util.h"

#define MAX_BUDGET_NS	(366ULL * 86400 * NS_PER_S)	/* a year */
#define MAX_FILES	UINT32_MAX
#define MAX_REPEAT	1000
#define MAX_WARMUP	100
#define MAX_FILE_SIZE	(1ULL << 30)
#define MAX_LABEL	64
#define MAX_LINE	4096	/* bytes in a config file line, without '\n' */
#define MIN_MEMORY	(64ULL << 10)		/* --memory-limit */
#define MAX_MEMORY	(1ULL << 50)
#define PERF_DEFAULT_HELP	"cycles,instructions,..."

const struct config_opt config_opts[] = {
	{ "budget", 'b', "duration", "time budget of the run (30m)" },
	{ "budget-policy", 0, "predict|classic",
	    "predict: skip rounds that would overrun" },
	{ "cold", 0, "none|drop|remount",
	    "empty the caches after create (none)" },
	{ "config", 'c', "file", "a target config file (configs/NAME.conf)" },
	{ "events", 0, "list", "libpfm4 events per phase (" PERF_DEFAULT_HELP
	    ")" },
	{ "file-size", 0, "size", "bytes written to each file (0)" },
	{ "fsync", 0, "none|file|dir|both", "fsync, inside the timing (none)" },
	{ "growth", 'g', "factor", "n grows by this factor (1.5)" },
	{ "label", 'l', "label", "name of the outputs (the fs type)" },
	{ "max-files", 'N', "count", "largest n (10^name-len)" },
	{ "memory-limit", 0, "size",
	    "phases after create in a memory cgroup (none)" },
	{ "name-len", 0, "length", "width of fixed names (8)" },
	{ "names", 0, "fixed|maildir", "how files are named (fixed)" },
	{ "output", 'o', "path", "run directory (results/STAMP-LABEL)" },
	{ "phases", 'p', "phases", "phases to run (create,open,delete)" },
	{ "quiet", 'q', NULL, "no per-round lines, no progress" },
	{ "repeat", 'r', "count", "measure each n this many times (1)" },
	{ "scratch", 0, "dir",
	    "where images and mounts live (/var/tmp/largedir)" },
	{ "seed", 's', "seed", "seed of the random order (random)" },
	{ "start", 'n', "count", "n of the first round (1000)" },
	{ "sync", 0, "none|phase|round", "syncfs, outside the timing (phase)" },
	{ "warmup", 0, "count", "warm-up rounds, not in the summary (0)" },
	{ NULL, 0, NULL, NULL }
};

static int	bad(char *, const char *, const char *, const char *);
static int	set_phases(struct config *, const char *, char *);
static int	pick(const char *, const char *const *, int *);
static int	split(char *, char **, char **);
static bool	known(const char *);
static void	prefix(char *, const char *, size_t, const char *);
static int	load_line(struct config *, struct target_conf *, char *,
		    char ***, size_t *, char *);

/* Fill 'cfg' with the defaults. */
void
config_init(struct config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->budget_ns = 30 * 60 * NS_PER_S;
	cfg->policy = TIMING_PREDICT;
	cfg->growth = 1.5;
	cfg->start = 1000;
	cfg->repeat = 1;
	cfg->phases[0] = PHASE_CREATE;
	cfg->phases[1] = PHASE_OPEN;
	cfg->phases[2] = PHASE_DELETE;
	cfg->nphases = 3;
	cfg->names = NAMES_FIXED;
	cfg->name_len = NAMES_DEFAULT_LEN;
	cfg->fsync = BACKEND_FSYNC_NONE;
	cfg->sync = CONFIG_SYNC_PHASE;
}

/* Free what 'cfg' owns. */
void
config_free(struct config *cfg)
{
	free(cfg->label);
	free(cfg->output);
	free(cfg->scratch);
	free(cfg->events);
	memset(cfg, 0, sizeof(*cfg));
}

/* Write "--KEY 'VALUE': WHY" into 'err'; return -1 with errno EINVAL. */
static int
bad(char *err, const char *key, const char *value, const char *why)
{
	(void)snprintf(err, LD_ERRLEN, "--%s '%s': %s", key, value, why);
	errno = EINVAL;
	return -1;
}

/* Index of 'value' in the NULL-terminated 'words', or -1. */
static int
pick(const char *value, const char *const *words, int *out)
{
	int	i;

	for (i = 0; words[i] != NULL; i++)
		if (strcmp(value, words[i]) == 0) {
			*out = i;
			return 0;
		}
	return -1;
}

/*
 * Parse the --phases list 'list' into 'cfg': create always runs first and
 * a deletion (delete or rmrf) always last, added if missing; the phases
 * between run in the order given.
 */
static int
set_phases(struct config *cfg, const char *list, char *err)
{
	enum phase	 p, mid[PHASE_COUNT], del = PHASE_DELETE;
	char		*copy, *tok, *save;
	bool		 seen[PHASE_COUNT] = { false }, has_del = false;
	size_t		 nmid = 0, i;

	if (*list == '\0' || *list == ',' || list[strlen(list) - 1] == ',' ||
	    strstr(list, ",,") != NULL)
		return bad(err, "phases", list, "empty phase name");
	copy = xstrdup(list);
	for (tok = strtok_r(copy, ",", &save); tok != NULL;
	    tok = strtok_r(NULL, ",", &save)) {
		if (workload_phase_parse(tok, &p) == -1) {
			(void)snprintf(err, LD_ERRLEN, "--phases '%s': unknown "
			    "phase '%s' (create, open, list, liststat, delete, "
			    "rmrf)", list, tok);
			free(copy);
			errno = EINVAL;
			return -1;
		}
		if (seen[p]) {
			(void)snprintf(err, LD_ERRLEN, "--phases '%s': phase "
			    "'%s' given twice", list, tok);
			free(copy);
			errno = EINVAL;
			return -1;
		}
		seen[p] = true;
		if (p == PHASE_DELETE || p == PHASE_RMRF) {
			if (has_del) {
				free(copy);
				return bad(err, "phases", list, "choose one of "
				    "delete and rmrf");
			}
			has_del = true;
			del = p;
		} else if (p != PHASE_CREATE)
			mid[nmid++] = p;
	}
	free(copy);
	cfg->nphases = 0;
	cfg->phases[cfg->nphases++] = PHASE_CREATE;
	for (i = 0; i < nmid; i++)
		cfg->phases[cfg->nphases++] = mid[i];
	cfg->phases[cfg->nphases++] = del;
	return 0;
}

/*
 * Set option 'key' (a long option name) to 'value' (NULL for a flag) in
 * 'cfg'.  Return 0, or -1 with errno EINVAL and a one-line message naming
 * the option and the value in 'err' (LD_ERRLEN bytes).
 */
int
config_set(struct config *cfg, const char *key, const char *value, char *err)
{
	static const char *const policies[] = { "predict", "classic", NULL };
	static const char *const kinds[] = { "fixed", "maildir", NULL };
	static const char *const fsyncs[] = { "none", "file", "dir", "both",
	    NULL };
	static const char *const syncs[] = { "none", "phase", "round", NULL };
	static const char *const colds[] = { "none", "drop", "remount", NULL };
	const char	*errstr;
	long long	 v;
	int		 w;

	if (strcmp(key, "quiet") == 0) {
		if (value != NULL && strcmp(value, "yes") != 0 &&
		    strcmp(value, "no") != 0)
			return bad(err, key, value, "must be yes or no");
		cfg->quiet = value == NULL || strcmp(value, "yes") == 0;
		return 0;
	}
	if (value == NULL) {
		(void)snprintf(err, LD_ERRLEN, "--%s: needs a value", key);
		errno = EINVAL;
		return -1;
	}
	if (strcmp(key, "budget") == 0) {
		if (parse_duration(value, MAX_BUDGET_NS, &cfg->budget_ns,
		    &errstr) == -1)
			return bad(err, key, value, strcmp(errstr, "invalid") ==
			    0 ? "not a duration (e.g. 90s, 5m, 1h)" :
			    strcmp(errstr, "too small") == 0 ?
			    "must be more than 0" : "at most 366d");
	} else if (strcmp(key, "budget-policy") == 0) {
		if (pick(value, policies, &w) == -1)
			return bad(err, key, value, "must be predict or "
			    "classic");
		cfg->policy = w == 0 ? TIMING_PREDICT : TIMING_CLASSIC;
	} else if (strcmp(key, "cold") == 0) {
		if (pick(value, colds, &w) == -1)
			return bad(err, key, value, "must be none, drop or "
			    "remount");
		cfg->cold = (enum config_cold)w;
		cfg->cold_set = true;
	} else if (strcmp(key, "events") == 0) {
		static struct perf	pf;	/* only to check the list */

		if (perf_init(&pf, value, err) == -1)
			return -1;
		free(cfg->events);
		cfg->events = xstrdup(value);
	} else if (strcmp(key, "file-size") == 0) {
		if (parse_size(value, MAX_FILE_SIZE, &cfg->file_size,
		    &errstr) == -1)
			return bad(err, key, value, strcmp(errstr, "invalid") ==
			    0 ? "not a size (e.g. 0, 512, 4k, 1M)" :
			    "too large (at most 1G)");
	} else if (strcmp(key, "fsync") == 0) {
		if (pick(value, fsyncs, &w) == -1)
			return bad(err, key, value, "must be none, file, dir "
			    "or both");
		cfg->fsync = (enum backend_fsync)w;
	} else if (strcmp(key, "growth") == 0) {
		if (parse_double(value, 1, 100, &cfg->growth, &errstr) == -1)
			return bad(err, key, value, strcmp(errstr, "invalid") ==
			    0 ? "not a number" : strcmp(errstr, "too small") ==
			    0 ? "must be greater than 1" : "at most 100");
	} else if (strcmp(key, "label") == 0) {
		if (*value == '\0' || *value == '.' ||
		    strlen(value) > MAX_LABEL ||
		    strspn(value, "abcdefghijklmnopqrstuvwxyz"
		    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") != strlen(value))
			return bad(err, key, value, "use 1 to 64 letters, "
			    "digits, '.', '_' or '-', not starting with '.'");
		free(cfg->label);
		cfg->label = xstrdup(value);
	} else if (strcmp(key, "max-files") == 0) {
		v = parse_num(value, 1, MAX_FILES, &errstr);
		if (errstr != NULL)
			return bad(err, key, value, "must be a whole number "
			    "from 1 to 4294967295");
		cfg->max_files = (uint64_t)v;
	} else if (strcmp(key, "memory-limit") == 0) {
		if (parse_size(value, MAX_MEMORY, &cfg->memory_limit,
		    &errstr) == -1 || cfg->memory_limit < MIN_MEMORY)
			return bad(err, key, value, errstr != NULL &&
			    strcmp(errstr, "invalid") == 0 ? "not a size "
			    "(e.g. 64M, 1G)" : "must be from 64k to 1P");
	} else if (strcmp(key, "name-len") == 0) {
		v = parse_num(value, 1, NAMES_MAX_LEN, &errstr);
		if (errstr != NULL)
			return bad(err, key, value, "must be a whole number "
			    "from 1 to 255");
		cfg->name_len = (unsigned)v;
		cfg->name_len_set = true;
	} else if (strcmp(key, "names") == 0) {
		if (pick(value, kinds, &w) == -1)
			return bad(err, key, value, "must be fixed or maildir");
		cfg->names = (enum names_kind)w;
	} else if (strcmp(key, "output") == 0) {
		if (*value == '\0')
			return bad(err, key, value, "must not be empty");
		free(cfg->output);
		cfg->output = xstrdup(value);
	} else if (strcmp(key, "phases") == 0) {
		return set_phases(cfg, value, err);
	} else if (strcmp(key, "repeat") == 0) {
		v = parse_num(value, 1, MAX_REPEAT, &errstr);
		if (errstr != NULL)
			return bad(err, key, value, "must be a whole number "
			    "from 1 to 1000");
		cfg->repeat = (unsigned)v;
	} else if (strcmp(key, "scratch") == 0) {
		if (*value != '/')
			return bad(err, key, value, "must be an absolute path");
		free(cfg->scratch);
		cfg->scratch = xstrdup(value);
	} else if (strcmp(key, "seed") == 0) {
		char	*end;

		errno = 0;
		if (*value < '0' || *value > '9')
			return bad(err, key, value, "not a number");
		/* Decimal, or hex after 0x; a leading 0 is not octal. */
		if (value[0] == '0' && (value[1] == 'x' || value[1] == 'X')) {
			if (!isxdigit((unsigned char)value[2]))
				return bad(err, key, value, "not a number");
			cfg->seed = strtoull(value + 2, &end, 16);
		} else
			cfg->seed = strtoull(value, &end, 10);
		if (errno != 0 || *end != '\0')
			return bad(err, key, value, "not a number (decimal or "
			    "0x hex, below 2^64)");
		cfg->seed_set = true;
	} else if (strcmp(key, "start") == 0) {
		v = parse_num(value, 1, MAX_FILES, &errstr);
		if (errstr != NULL)
			return bad(err, key, value, "must be a whole number "
			    "from 1 to 4294967295");
		cfg->start = (uint64_t)v;
	} else if (strcmp(key, "sync") == 0) {
		if (pick(value, syncs, &w) == -1)
			return bad(err, key, value, "must be none, phase or "
			    "round");
		cfg->sync = (enum config_sync)w;
	} else if (strcmp(key, "warmup") == 0) {
		v = parse_num(value, 0, MAX_WARMUP, &errstr);
		if (errstr != NULL)
			return bad(err, key, value, "must be a whole number "
			    "from 0 to 100");
		cfg->warmup = (unsigned)v;
	} else {
		(void)snprintf(err, LD_ERRLEN, "unknown option '%s'", key);
		errno = EINVAL;
		return -1;
	}
	return 0;
}

/*
 * Check what single options cannot: that the settings in 'cfg' agree with
 * each other.  Return 0, or -1 with errno EINVAL and a message in 'err'.
 */
int
config_check(const struct config *cfg, char *err)
{
	uint64_t	cap;

	errno = EINVAL;
	if (cfg->max_files != 0 && cfg->max_files < cfg->start) {
		(void)snprintf(err, LD_ERRLEN, "--max-files %" PRIu64 " is "
		    "smaller than --start %" PRIu64, cfg->max_files,
		    cfg->start);
		return -1;
	}
	if (cfg->names == NAMES_MAILDIR && cfg->name_len_set) {
		(void)snprintf(err, LD_ERRLEN, "--name-len applies to "
		    "--names=fixed only; maildir names have their own length");
		return -1;
	}
	cap = names_capacity(cfg->names, cfg->name_len);
	if (cfg->start > cap || cfg->max_files > cap) {
		(void)snprintf(err, LD_ERRLEN, "--name-len %u allows at most "
		    "%" PRIu64 " files, fewer than --%s %" PRIu64,
		    cfg->name_len, cap, cfg->start > cap ? "start" :
		    "max-files", cfg->start > cap ? cfg->start :
		    cfg->max_files);
		return -1;
	}
	errno = 0;
	return 0;
}

/* The name of cold mode 'c' as --cold spells it. */
const char *
config_cold_name(enum config_cold c)
{
	return c == CONFIG_COLD_DROP ? "drop" : c == CONFIG_COLD_REMOUNT ?
	    "remount" : "none";
}

/* The name of sync mode 's' as --sync spells it. */
const char *
config_sync_name(enum config_sync s)
{
	return s == CONFIG_SYNC_NONE ? "none" : s == CONFIG_SYNC_ROUND ?
	    "round" : "phase";
}

/*
 * Add every setting of 'cfg', defaults included, to 'kv' under its long
 * option name, as the outputs record them.
 */
void
config_dump(const struct config *cfg, struct output_kvlist *kv)
{
	char	phases[128] = "";
	size_t	i;

	for (i = 0; i < cfg->nphases; i++) {
		if (i > 0)
			(void)strcat(phases, ",");
		(void)strcat(phases, workload_phase_name(cfg->phases[i]));
	}
	output_kv_set(kv, "budget", "%.3fs", cfg->budget_ns / 1e9);
	output_kv_set(kv, "budget-policy", "%s", cfg->policy ==
	    TIMING_CLASSIC ? "classic" : "predict");
	output_kv_set(kv, "growth", "%g", cfg->growth);
	output_kv_set(kv, "start", "%" PRIu64, cfg->start);
	if (cfg->max_files != 0)
		output_kv_set(kv, "max-files", "%" PRIu64, cfg->max_files);
	else
		output_kv_set(kv, "max-files", "none");
	output_kv_set(kv, "repeat", "%u", cfg->repeat);
	output_kv_set(kv, "warmup", "%u", cfg->warmup);
	output_kv_set(kv, "phases", "%s", phases);
	output_kv_set(kv, "names", "%s", names_kind_name(cfg->names));
	if (cfg->names == NAMES_FIXED)
		output_kv_set(kv, "name-len", "%u", cfg->name_len);
	output_kv_set(kv, "file-size", "%" PRIu64, cfg->file_size);
	output_kv_set(kv, "fsync", "%s", backend_fsync_name(cfg->fsync));
	output_kv_set(kv, "sync", "%s", config_sync_name(cfg->sync));
	output_kv_set(kv, "seed", "%" PRIu64, cfg->seed);
	output_kv_set(kv, "scratch", "%s", cfg->scratch != NULL ?
	    cfg->scratch : TARGET_SCRATCH);
	output_kv_set(kv, "cold", "%s", config_cold_name(cfg->cold));
	if (cfg->memory_limit != 0)
		output_kv_set(kv, "memory-limit", "%" PRIu64,
		    cfg->memory_limit);
	else
		output_kv_set(kv, "memory-limit", "none");
	output_kv_set(kv, "events", "%s", cfg->events != NULL ? cfg->events :
	    PERF_DEFAULT);
}

/* ===== Target config files ===== */

/*
 * Split the config file line 'line' in place into 'key' and 'value',
 * trimming blanks around both.  The first '=' ends the key, so the value
 * may hold '=' and '#'.  Return -1 if there is no '=' or no key.
 */
static int
split(char *line, char **key, char **value)
{
	char	*eq, *end;

	if ((eq = strchr(line, '=')) == NULL)
		return -1;
	*eq = '\0';
	*key = line;
	*value = eq + 1;
	while (isspace((unsigned char)**key))
		(*key)++;
	for (end = eq; end > *key && isspace((unsigned char)end[-1]); end--)
		;
	*end = '\0';
	while (isspace((unsigned char)**value))
		(*value)++;
	for (end = *value + strlen(*value); end > *value &&
	    isspace((unsigned char)end[-1]); end--)
		;
	*end = '\0';
	return **key == '\0' ? -1 : 0;
}

/*
 * Whether 'key' is an option a config file may set: any in config_opts[]
 * but "config", as a file cannot name another.
 */
static bool
known(const char *key)
{
	const struct config_opt	*o;

	if (strcmp(key, "config") == 0)
		return false;
	for (o = config_opts; o->name != NULL; o++)
		if (strcmp(key, o->name) == 0)
			return true;
	return false;
}

/*
 * Write "PATH:LINE: MSG" (or "PATH: MSG" when 'lineno' is 0) into 'err'
 * (LD_ERRLEN bytes), cut to fit.
 */
static void
prefix(char *err, const char *path, size_t lineno, const char *msg)
{
	int	n;

	if (lineno != 0)
		n = snprintf(err, LD_ERRLEN, "%s:%zu: ", path, lineno);
	else
		n = snprintf(err, LD_ERRLEN, "%s: ", path);
	if (n >= 0 && n < LD_ERRLEN)
		(void)snprintf(err + n, LD_ERRLEN - (size_t)n, "%s", msg);
}

/*
 * Apply one line of a config file (newline removed) to 'cfg' or 'tc'.
 * The keys set so far are in 'seen' ('nseen' of them, owned by the
 * caller), and this line's key is added.  Return 0, or -1 with the
 * message, without file and line, in 'msg' (LD_ERRLEN bytes).
 */
static int
load_line(struct config *cfg, struct target_conf *tc, char *line,
    char ***seen, size_t *nseen, char *msg)
{
	char	*key, *value;
	size_t	 i;

	while (isspace((unsigned char)*line))
		line++;
	if (*line == '\0' || *line == '#')
		return 0;
	if (split(line, &key, &value) == -1) {
		(void)snprintf(msg, LD_ERRLEN, "expected 'key = value'");
		return -1;
	}
	for (i = 0; i < *nseen; i++)
		if (strcmp((*seen)[i], key) == 0) {
			(void)snprintf(msg, LD_ERRLEN, "key '%.64s' given "
			    "twice", key);
			return -1;
		}
	*seen = xreallocarray(*seen, *nseen + 1, sizeof(**seen));
	(*seen)[(*nseen)++] = xstrdup(key);
	if (target_conf_key(key))
		return target_conf_set(tc, key, value, msg);
	if (!known(key)) {
		/* No key is longer than 64 bytes: quoting more helps no one. */
		(void)snprintf(msg, LD_ERRLEN, "unknown key '%.64s'", key);
		return -1;
	}
	return config_set(cfg, key, value, msg);
}

/*
 * Read the target config file 'path' into 'cfg' and 'tc', which the
 * caller has initialised (config_init(), target_conf_init()); what the
 * file sets replaces what they hold.  A line is "key = value" (blanks
 * around '=' and at both ends are trimmed; the value may hold '=' and
 * '#'), empty, or a comment starting with '#'.  Target keys go to
 * target_conf_set(), the long names of options to config_set() (a flag
 * such as quiet takes yes or no); no key may come twice.  The result is
 * checked with target_conf_check().
 *
 * Return 0, or -1 with a one-line message in 'err' (LD_ERRLEN bytes):
 * "PATH:LINE: why" and errno EINVAL for a bad line, "PATH: why" and
 * errno EINVAL when target_conf_check() refuses the whole, and
 * "PATH: strerror" with that errno when the file cannot be read.  After
 * an error 'cfg' and 'tc' may hold part of the file; the caller still
 * frees them.
 */
int
config_load(struct config *cfg, struct target_conf *tc, const char *path,
    char *err)
{
	FILE	 *fp;
	char	  line[MAX_LINE + 2], msg[LD_ERRLEN];
	char		**seen = NULL;
	const char	 *key;
	size_t		  nseen = 0, lineno = 0, len, i, keyline = 0;
	size_t		 *lines = NULL;
	int		  rc = -1, saved;

	if ((fp = fopen(path, "r")) == NULL) {
		saved = errno;
		(void)snprintf(err, LD_ERRLEN, "%s: %s", path,
		    strerror(saved));
		errno = saved;
		return -1;
	}
	while (fgets(line, sizeof(line), fp) != NULL) {
		lineno++;
		len = strlen(line);
		if (len > 0 && line[len - 1] == '\n')
			line[--len] = '\0';
		else if (len > MAX_LINE) {
			(void)snprintf(msg, LD_ERRLEN, "line longer than %d "
			    "bytes", MAX_LINE);
			goto bad_line;
		}
		i = nseen;
		if (load_line(cfg, tc, line, &seen, &nseen, msg) == -1)
			goto bad_line;
		if (nseen > i) {
			lines = xreallocarray(lines, nseen, sizeof(*lines));
			lines[nseen - 1] = lineno;
		}
	}
	if (ferror(fp)) {
		saved = errno;
		(void)snprintf(err, LD_ERRLEN, "%s: %s", path,
		    strerror(saved));
		errno = saved;
		goto out;
	}
	if (target_conf_check(tc, &key, msg) == -1) {
		/* Name the line of the key at fault, if it was given. */
		for (i = 0; key != NULL && i < nseen; i++)
			if (strcmp(seen[i], key) == 0)
				keyline = lines[i];
		prefix(err, path, keyline, msg);
		errno = EINVAL;
		goto out;
	}
	rc = 0;
	goto out;
bad_line:
	prefix(err, path, lineno, msg);
	errno = EINVAL;
out:
	saved = errno;
	for (i = 0; i < nseen; i++)
		free(seen[i]);
	free(seen);
	free(lines);
	(void)fclose(fp);
	errno = saved;
	return rc;
}

/* ===== The command line ===== */

/*
 * Fill 'longopts' (CONFIG_NLONGOPTS entries) and 'optstring'
 * (CONFIG_NLONGOPTS bytes) for getopt_long(3) from config_opts[], so the
 * command line and config_set() never differ, plus --cleanup ('C'),
 * --help, --version and, for suites, --total-budget ('T').  An option
 * without a letter gets the value 256 + its index in config_opts[]; the
 * optstring starts with ':', so a missing value is ':' and not '?'.
 */
void
config_getopt(struct option *longopts, char *optstring)
{
	size_t	i, nl = 0, ns = 0;

	optstring[ns++] = ':';
	for (i = 0; config_opts[i].name != NULL; i++) {
		longopts[nl].name = config_opts[i].name;
		longopts[nl].has_arg = config_opts[i].arg != NULL ?
		    required_argument : no_argument;
		longopts[nl].flag = NULL;
		longopts[nl].val = config_opts[i].letter != 0 ?
		    config_opts[i].letter : 256 + (int)i;
		nl++;
		if (config_opts[i].letter != 0) {
			optstring[ns++] = (char)config_opts[i].letter;
			if (config_opts[i].arg != NULL)
				optstring[ns++] = ':';
		}
	}
	longopts[nl++] = (struct option){ "cleanup", no_argument, NULL, 'C' };
	longopts[nl++] = (struct option){ "help", no_argument, NULL, 'h' };
	longopts[nl++] = (struct option){ "version", no_argument, NULL, 'V' };
	longopts[nl++] = (struct option){ "total-budget", required_argument,
	    NULL, 'T' };
	longopts[nl] = (struct option){ NULL, 0, NULL, 0 };
	(void)strcpy(optstring + ns, "hV");
}

/*
 * The long name of the option getopt_long() returned as 'ch' with the
 * tables of config_getopt(), or NULL if it is not one of config_opts[].
 */
const char *
config_opt_name(int ch)
{
	size_t	i;

	for (i = 0; config_opts[i].name != NULL; i++)
		if (ch == config_opts[i].letter || ch == 256 + (int)i)
			return config_opts[i].name;
	return NULL;
}

/*
 * Print largedir -h to 'fp': the synopsis, as in the man page, and one
 * line per option.  Return 0, or -1 with errno if 'fp' failed.
 */
int
config_usage(FILE *fp)
{
	const struct config_opt	*o;
	char			 left[64];

	(void)fprintf(fp,
	    "usage: largedir [-hqV] [-b duration] [-g factor] [-l label] "
	    "[-N count]\n"
	    "                [-n count] [-o path] [-p phases] [-r count] "
	    "[-s seed]\n"
	    "                [--budget-policy predict|classic] "
	    "[--file-size size]\n"
	    "                [--fsync none|file|dir|both] "
	    "[--name-len length]\n"
	    "                [--names fixed|maildir] [--scratch dir]\n"
	    "                [--sync none|phase|round] [--warmup count] "
	    "dir\n"
	    "       largedir -c file [options]\n"
	    "       largedir suite [options] [--total-budget duration] "
	    "file ...\n"
	    "       largedir plot results\n"
	    "       largedir page results\n"
	    "       largedir --cleanup [--scratch dir] [dir]\n");
	(void)fprintf(fp, "\n");
	for (o = config_opts; o->name != NULL; o++) {
		if (o->letter != 0)
			(void)snprintf(left, sizeof(left), "-%c, --%s%s%s",
			    o->letter, o->name, o->arg != NULL ? " " : "",
			    o->arg != NULL ? o->arg : "");
		else
			(void)snprintf(left, sizeof(left), "    --%s%s%s",
			    o->name, o->arg != NULL ? " " : "",
			    o->arg != NULL ? o->arg : "");
		(void)fprintf(fp, "  %-35s %s\n", left, o->help);
	}
	(void)fprintf(fp, "  %-35s %s\n  %-35s %s\n  %-35s %s\n",
	    "    --cleanup [dir]", "remove what killed runs left behind",
	    "-h, --help", "print this help", "-V, --version",
	    "print the version");
	return fflush(fp) == EOF || ferror(fp) ? -1 : 0;
}
