/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * optvals: see optvals.h.
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

/*
 * --phases: a list of the phases of one workload.  The directory's:
 * create first, then the others in the order given, delete or rmrf last
 * (mkdir before create, for a tree); a mailbox's: deliver first, the
 * others in the order given (a move before a flag), expunge last.  The
 * first and the last are there even when not given.
 */
int
optvals_set_phases(struct config *cfg, const char *list, union config_val *v,
    char *err)
{
	enum phase	 p, mid[PHASE_COUNT], del = PHASE_DELETE;
	char		**names;
	const char	*why = NULL;
	bool		 seen[PHASE_COUNT] = { false }, has_del = false;
	bool		 mail = false;
	size_t		 nmid = 0, i, n;

	(void)v;
	if ((names = util_list_split(list, &n)) == NULL)
		return config_opt_bad(err, "phases", list, "empty phase name");
	for (i = 0; i < n && why == NULL; i++) {
		if (phase_parse(names[i], &p) == -1) {
			(void)snprintf(err, LD_ERRLEN, "--phases '%s': unknown "
			    "phase '%s' (mkdir, create, open, list, liststat, "
			    "delete, rmrf; of a mailbox: deliver, move, flag, "
			    "scan, read, expunge)", list, names[i]);
			free(names);
			errno = EINVAL;
			return -1;
		}
		if (seen[p]) {
			(void)snprintf(err, LD_ERRLEN, "--phases '%s': phase "
			    "'%s' given twice", list, names[i]);
			free(names);
			errno = EINVAL;
			return -1;
		}
		if (i > 0 && phase_maildir(p) != mail)
			why = "the phases of a mailbox (deliver, move, flag, "
			    "scan, read, expunge) and of a directory do not "
			    "mix";
		else if (p == PHASE_MOVE && seen[PHASE_FLAG])
			why = "move comes before flag (a flag moves a message "
			    "still in new/ to cur/ itself)";
		else if (p == PHASE_DELETE || p == PHASE_RMRF) {
			if (has_del)
				why = "choose one of delete and rmrf";
			has_del = true;
			del = p;
		} else if (p != PHASE_CREATE && p != PHASE_MKDIR &&
		    p != PHASE_DELIVER && p != PHASE_EXPUNGE)
			mid[nmid++] = p;
		mail = phase_maildir(p);
		seen[p] = true;
	}
	free(names);
	if (why != NULL)
		return config_opt_bad(err, "phases", list, why);
	cfg->nphases = 0;
	if (seen[PHASE_MKDIR])
		cfg->phases[cfg->nphases++] = PHASE_MKDIR;
	cfg->phases[cfg->nphases++] = mail ? PHASE_DELIVER : PHASE_CREATE;
	for (i = 0; i < nmid; i++)
		cfg->phases[cfg->nphases++] = mid[i];
	cfg->phases[cfg->nphases++] = mail ? PHASE_EXPUNGE : del;
	return 0;
}

/* --seed: decimal, or hex after 0x; a leading 0 is not octal. */
int
optvals_set_seed(struct config *cfg, const char *value, union config_val *v,
    char *err)
{
	char	*end;

	(void)cfg;
	errno = 0;
	if (*value < '0' || *value > '9')
		return config_opt_bad(err, "seed", value, "not a number");
	if (value[0] == '0' && (value[1] == 'x' || value[1] == 'X')) {
		if (!isxdigit((unsigned char)value[2]))
			return config_opt_bad(err, "seed", value,
			    "not a number");
		v->u = strtoull(value + 2, &end, 16);
	} else
		v->u = strtoull(value, &end, 10);
	if (errno != 0 || *end != '\0')
		return config_opt_bad(err, "seed", value, "not a number "
		    "(decimal or 0x hex, below 2^64)");
	return 0;
}

/* --events: libpfm4 must know every event of the list. */
int
optvals_set_events(struct config *cfg, const char *value, union config_val *v,
    char *err)
{
	static struct perf	pf;	/* only to check the list */

	(void)cfg;
	if (perf_init(&pf, value, err) == -1)
		return -1;
	v->s = value;
	return 0;
}

bool
optvals_nonempty(const char *value)
{
	return *value != '\0';
}

bool
optvals_absolute(const char *value)
{
	return *value == '/';
}

/* The phases in run order, as --phases spells them. */
int
optvals_show_phases(const struct config *cfg, char *buf, size_t len)
{
	size_t	i;

	*buf = '\0';
	for (i = 0; i < cfg->nphases; i++) {
		if (i > 0)
			util_append(buf, len, ",");
		util_append(buf, len, phase_name(cfg->phases[i]));
	}
	return 0;
}

/* --files-per-dir is recorded for the tree layout only. */
int
optvals_show_per_dir(const struct config *cfg, char *buf, size_t len)
{
	if (cfg->layout != CONFIG_LAYOUT_TREE)
		return -1;
	(void)snprintf(buf, len, "%" PRIu64, cfg->files_per_dir);
	return 0;
}

/*
 * --clients and --split are recorded with several clients only: one
 * client's record is what it always was.
 */
int
optvals_show_clients(const struct config *cfg, char *buf, size_t len)
{
	if (cfg->clients <= 1)
		return -1;
	(void)snprintf(buf, len, "%u", cfg->clients);
	return 0;
}

/*
 * --file-size: a size, or a range A-B (A below B) from which each
 * delivery of a mailbox draws its own (names_mail_size()).
 */
int
optvals_set_file_size(struct config *cfg, const char *value,
    union config_val *v, char *err)
{
	const char	*errstr = NULL, *dash = strchr(value, '-');
	char		 lo[64];
	uint64_t	 max = 0;

	if (dash != NULL && (size_t)(dash - value) < sizeof(lo)) {
		(void)snprintf(lo, sizeof(lo), "%.*s", (int)(dash - value),
		    value);
		if (parse_size(lo, CONFIG_MAX_FILE_SIZE, &v->u, &errstr) == 0)
			(void)parse_size(dash + 1, CONFIG_MAX_FILE_SIZE, &max,
			    &errstr);
		if (errstr == NULL && max <= v->u)
			return config_opt_bad(err, "file-size", value,
			    "a range A-B needs A below B");
	} else
		(void)parse_size(dash == NULL ? value : "",
		    CONFIG_MAX_FILE_SIZE, &v->u, &errstr);
	if (errstr != NULL)
		return config_opt_bad(err, "file-size", value,
		    strcmp(errstr, "too large") == 0 ? "too large (at most 1G)"
		    : "not a size (e.g. 0, 512, 4k, 1M)");
	cfg->file_size_max = max;
	return 0;
}

/*
 * --memory-limit: a size, or in a suite a list A,B,... of them, each
 * from 64k to 1P, none twice: a sweep, one run of each target per limit
 * (suite.c).  The first is cfg->memory_limit, as with one.
 */
int
optvals_set_memory_limit(struct config *cfg, const char *value,
    union config_val *v, char *err)
{
	const char	*errstr = NULL;
	char		**el;
	size_t		 n, i, j;
	int		 rc = 0;

	if ((el = util_list_split(value, &n)) == NULL)
		return config_opt_bad(err, "memory-limit", value, "a list "
		    "A,B,... has an empty element");
	if (n > CONFIG_MAX_LIMITS) {
		free(el);
		return config_opt_bad(err, "memory-limit", value, "at most "
		    "16 limits");
	}
	for (i = 0; i < n && rc == 0; i++) {
		if (parse_size(el[i], CONFIG_MAX_MEMORY, &cfg->memory_limits[i],
		    &errstr) == -1 || cfg->memory_limits[i] < CONFIG_MIN_MEMORY)
			rc = config_opt_bad(err, "memory-limit", el[i],
			    errstr != NULL && strcmp(errstr, "invalid") == 0 ?
			    "not a size (e.g. 64M, 1G)" :
			    "must be from 64k to 1P");
		for (j = 0; j < i && rc == 0; j++)
			if (cfg->memory_limits[j] == cfg->memory_limits[i])
				rc = config_opt_bad(err, "memory-limit",
				    value, "a limit given twice");
	}
	free(el);
	if (rc == -1)
		return -1;
	cfg->nmemory_limits = (unsigned)n;
	v->u = cfg->memory_limits[0];
	return 0;
}

/* --file-size as it was given: "4096", or the range "2048-65536". */
int
optvals_show_file_size(const struct config *cfg, char *buf, size_t len)
{
	if (cfg->file_size_max == 0)
		(void)snprintf(buf, len, "%" PRIu64, cfg->file_size);
	else
		(void)snprintf(buf, len, "%" PRIu64 "-%" PRIu64,
		    cfg->file_size, cfg->file_size_max);
	return 0;
}

/* --rmrf-batch, recorded where rmrf runs. */
int
optvals_show_rmrf_batch(const struct config *cfg, char *buf, size_t len)
{
	size_t	i;

	for (i = 0; i < cfg->nphases; i++)
		if (cfg->phases[i] == PHASE_RMRF) {
			(void)snprintf(buf, len, "%u", cfg->rmrf_batch);
			return 0;
		}
	return -1;
}

/* --name-len, recorded for fixed names only: maildir names have theirs. */
int
optvals_show_name_len(const struct config *cfg, char *buf, size_t len)
{
	if (cfg->names != NAMES_FIXED)
		return -1;
	(void)snprintf(buf, len, "%u", cfg->name_len);
	return 0;
}
