/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * config_check: what single options cannot check (config.h): that the
 * settings of a run agree with each other, and what follows from them.
 * It has a part per concern: the preset's options, the layout's, the
 * clients'; a backend checks its own options (its check_settings op).
 * Messages follow config.c's rule: one line naming the options, without
 * a trailing period.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "base/util.h"
#include "settings/config.h"

static int	preset_apply(struct config *, char *);
static int	layout_check(struct config *, char *);
static int	clients_check(struct config *, char *);
static int	mpi_check(const struct config *, char *);
static int	workload_check(struct config *, char *);

/*
 * Check what single options cannot: that the settings in 'cfg' agree with
 * each other; and settle what follows from them (the options --preset
 * sets that were not given, the tree layout's mkdir phase, and the first
 * n from --dirs).  Return 0, or -1 with errno EINVAL and a message in
 * 'err'.
 */
int
config_check(struct config *cfg, char *err)
{
	const struct backend_ops	*ops;
	struct backend_opts		 bo;
	uint64_t			 cap;
	size_t				 i;

	errno = EINVAL;
	if (preset_apply(cfg, err) == -1 || workload_check(cfg, err) == -1 ||
	    layout_check(cfg, err) == -1 || clients_check(cfg, err) == -1)
		return -1;
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
	for (i = 0; cfg->churn > 0 && i < cfg->nphases; i++)
		if (cfg->phases[i] == PHASE_LIST ||
		    cfg->phases[i] == PHASE_LISTSTAT ||
		    cfg->phases[i] == PHASE_RMRF)
			break;
	if (cfg->churn > 0 && i == cfg->nphases) {
		(void)snprintf(err, LD_ERRLEN, "--churn %" PRIu64 " needs a "
		    "phase that lists (list, liststat or rmrf)", cfg->churn);
		return -1;
	}
	/* The backends' own options, against the others. */
	for (i = 0; (ops = backend_nth(i)) != NULL; i++) {
		if (ops->check_settings == NULL)
			continue;
		config_backend_opts(cfg, ops, NULL, &bo);
		if (ops->check_settings(&bo, err) == -1)
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

/*
 * What each preset sets: the options of a workload, each as config_set()
 * takes it.  classic is the defaults; maildir is a mail spool's work, as
 * Dovecot or Postfix deliver and Dovecot serves IMAP: the Maildir
 * workload (all its phases), 4 KiB mails (one block of ext4, xfs and
 * btrfs, about a short mail with its headers), each fsync'd and its new/
 * fsync'd after the rename, as a server does before it answers "250 OK",
 * four at a time (an MTA delivers in parallel; each client does a share
 * of every phase), and three repetitions, since fsync'd runs are noisy.
 */
static const struct {
	const char	*key, *value;
} preset_opts[][5] = {
	[CONFIG_PRESET_CLASSIC] = {
		{ "names", "fixed" }, { "file-size", "0" },
		{ "fsync", "none" }, { "phases", "create,open,delete" },
		{ "repeat", "1" } },
	[CONFIG_PRESET_MAILDIR] = {
		{ "workload", "maildir" }, { "file-size", "4k" },
		{ "fsync", "both" }, { "clients", "4" }, { "repeat", "3" } },
};

/*
 * The preset's part of config_check(): set each option of the preset
 * that was not given (an option given, on the command line or in a
 * config file, wins), and say in cfg->preset_note what it set and what
 * was given instead.  Settled once: what it set counts as given after.
 */
static int
preset_apply(struct config *cfg, char *err)
{
	const struct config_opt	*o;
	char			 set[256] = "", kept[128] = "";
	size_t			 i;

	if (cfg->preset_note != NULL)
		return 0;
	for (i = 0; i < sizeof(preset_opts[0]) / sizeof(preset_opts[0][0]);
	    i++) {
		if (preset_opts[cfg->preset][i].key == NULL)
			break;			/* the end of a shorter list */
		o = config_opt_find(preset_opts[cfg->preset][i].key);
		/* A mailbox has its own names and phases. */
		if (cfg->workload == CONFIG_WORKLOAD_MAILDIR &&
		    cfg->preset == CONFIG_PRESET_CLASSIC &&
		    (strcmp(o->name, "names") == 0 ||
		    strcmp(o->name, "phases") == 0))
			continue;
		if (*config_given(cfg, o)) {
			util_append(kept, sizeof(kept), " --");
			util_append(kept, sizeof(kept), o->name);
			continue;
		}
		if (config_set(cfg, o->name, preset_opts[cfg->preset][i].value,
		    err) == -1)
			return -1;
		util_append(set, sizeof(set), " --");
		util_append(set, sizeof(set), o->name);
		util_append(set, sizeof(set), " ");
		util_append(set, sizeof(set), preset_opts[cfg->preset][i].value);
	}
	cfg->preset_note = xasprintf("%s:%s%s%s",
	    config_opt_find("preset")->words[cfg->preset].word,
	    *set != '\0' ? set : " nothing", *kept != '\0' ? "; given instead:"
	    : "", kept);
	return 0;
}

/*
 * The workload's part of config_check(): a mailbox's phases go with
 * --workload maildir, a directory's with classic.  A mailbox has its
 * three directories (so the flat layout), maildir names, all six phases
 * unless --phases says otherwise, and neither --churn nor --mpi.
 */
static int
workload_check(struct config *cfg, char *err)
{
	const char	*what = NULL;
	bool		 mail;

	mail = cfg->nphases > 0 && phase_maildir(cfg->phases[0]);
	if (cfg->workload == CONFIG_WORKLOAD_CLASSIC) {
		if (cfg->file_size_max != 0) {
			(void)snprintf(err, LD_ERRLEN, "--file-size %" PRIu64
			    "-%" PRIu64 ": a range goes with --workload "
			    "maildir", cfg->file_size, cfg->file_size_max);
			return -1;
		}
		if (!mail)
			return 0;
		(void)snprintf(err, LD_ERRLEN, "--phases %s goes with "
		    "--workload maildir", phase_name(cfg->phases[0]));
		return -1;
	}
	if (!cfg->phases_set) {
		if (config_set(cfg, "phases",
		    "deliver,move,flag,scan,read,expunge", err) == -1)
			return -1;
		mail = true;
	}
	if (!mail)
		what = "--phases of a directory (a mailbox's: deliver, move, "
		    "flag, scan, read, expunge)";
	else if (cfg->layout == CONFIG_LAYOUT_TREE)
		what = "--layout tree (a mailbox is its tmp/, new/ and cur/)";
	else if (cfg->names_set && cfg->names != NAMES_MAILDIR)
		what = "--names fixed (a mailbox's names are maildir names)";
	else if (cfg->churn > 0)
		what = "--churn";
	else if (cfg->mpi)
		what = "--mpi";
	if (what != NULL) {
		(void)snprintf(err, LD_ERRLEN, "--workload maildir: not with "
		    "%s", what);
		return -1;
	}
	cfg->names = NAMES_MAILDIR;
	return 0;
}

/*
 * The layout's part of config_check(): what goes with a tree and what
 * only with the flat layout; a tree's first phase is mkdir, and --dirs D
 * sets the first n to D x --files-per-dir.
 */
static int
layout_check(struct config *cfg, char *err)
{
	const char	*flat_only = NULL;
	size_t		 i;

	if (cfg->layout == CONFIG_LAYOUT_FLAT) {
		if (cfg->dirs != 0)
			flat_only = "--dirs";
		else if (cfg->files_per_dir_set)
			flat_only = "--files-per-dir";
		else if (cfg->nphases > 0 && cfg->phases[0] == PHASE_MKDIR)
			flat_only = "--phases mkdir";
		if (flat_only == NULL)
			return 0;
		(void)snprintf(err, LD_ERRLEN, "%s goes with --layout tree",
		    flat_only);
		return -1;
	}
	for (i = 0; i < cfg->nphases; i++)
		if (cfg->phases[i] == PHASE_RMRF) {
			(void)snprintf(err, LD_ERRLEN, "--phases rmrf goes "
			    "with --layout flat; a tree's delete removes it "
			    "as rm -rf does, directory by directory");
			return -1;
		}
	if (cfg->churn > 0) {
		(void)snprintf(err, LD_ERRLEN, "--churn goes with --layout "
		    "flat: it works in the round directory");
		return -1;
	}
	if (cfg->dirs != 0 && cfg->start_set) {
		(void)snprintf(err, LD_ERRLEN, "--dirs %" PRIu64 " and --start "
		    "%" PRIu64 " both set the first round: give one",
		    cfg->dirs, cfg->start);
		return -1;
	}
	if (cfg->dirs != 0) {
		if (cfg->dirs > CONFIG_MAX_FILES / cfg->files_per_dir) {
			(void)snprintf(err, LD_ERRLEN, "--dirs %" PRIu64 " x "
			    "--files-per-dir %" PRIu64 " is more than %" PRIu64
			    " files", cfg->dirs, cfg->files_per_dir,
			    (uint64_t)CONFIG_MAX_FILES);
			return -1;
		}
		cfg->start = cfg->dirs * cfg->files_per_dir;
	}
	if (cfg->nphases > 0 && cfg->phases[0] != PHASE_MKDIR) {
		memmove(cfg->phases + 1, cfg->phases, cfg->nphases *
		    sizeof(*cfg->phases));
		cfg->phases[0] = PHASE_MKDIR;
		cfg->nphases++;
	}
	return 0;
}

/*
 * The clients' part of config_check(): --split goes with --clients, and
 * K clients need a first round of K files at least.  What they cannot do
 * yet is refused by name: divide a tree's directories among them, share
 * one rm -rf (each would remove names another listed), or list beside a
 * churn.
 */
static int
clients_check(struct config *cfg, char *err)
{
	size_t	i;

	if (cfg->mpi && mpi_check(cfg, err) == -1)
		return -1;
	if (cfg->clients <= 1) {
		if (!cfg->split_set || cfg->mpi)	/* ranks: later */
			return 0;
		(void)snprintf(err, LD_ERRLEN, "--split goes with --clients "
		    "2 or more");
		return -1;
	}
	if (cfg->layout == CONFIG_LAYOUT_TREE) {
		(void)snprintf(err, LD_ERRLEN, "--clients %u: not with "
		    "--layout tree (its directories are not divided among "
		    "clients)", cfg->clients);
		return -1;
	}
	for (i = 0; i < cfg->nphases; i++)
		if (cfg->phases[i] == PHASE_RMRF) {
			(void)snprintf(err, LD_ERRLEN, "--clients %u: not with "
			    "--phases rmrf (each client would remove names "
			    "another one listed); use delete", cfg->clients);
			return -1;
		}
	if (cfg->churn > 0) {
		(void)snprintf(err, LD_ERRLEN, "--clients %u: not with "
		    "--churn", cfg->clients);
		return -1;
	}
	if (cfg->start < cfg->clients) {
		(void)snprintf(err, LD_ERRLEN, "--clients %u needs --start %u "
		    "at least (a file for each), not %" PRIu64, cfg->clients,
		    cfg->clients, cfg->start);
		return -1;
	}
	return 0;
}

/*
 * --mpi's part: the ranks are the clients, across machines, so what acts
 * on one machine only (--cold, --memory-limit) cannot go with it, nor
 * --clients.
 */
static int
mpi_check(const struct config *cfg, char *err)
{
	const char	*what;

	what = cfg->clients_set ? "--clients (the ranks are the clients)" :
	    cfg->cold != CONFIG_COLD_NONE ? "--cold (it empties one "
	    "machine's caches)" : cfg->memory_limit != 0 ? "--memory-limit "
	    "(it limits one machine's)" : NULL;
	if (what == NULL)
		return 0;
	(void)snprintf(err, LD_ERRLEN, "--mpi: not with %s", what);
	return -1;
}
