/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * config: every setting of a run, its default, and the one place that
 * checks it.  One table, config_opts[], lists each option once: its long
 * name (also its key in config files), short letter, type and limits,
 * default, help, where its value goes in struct config, which verbs take
 * it and how the outputs record it.  config_set() checks and stores a
 * value by the table; the command line (config_parse_args()), config
 * files (config_load()), -h (config_usage()) and the record of a run
 * (config_dump()) all read it, as fio shares one option table between
 * its command line and its job files.
 *
 * A backend may bring options of its own (backend_ops.options): they are
 * consulted after config_opts[], checked by the same types and bounds,
 * and stored, parsed once, into a struct of the backend's own
 * (backend_ops.settings_size bytes, config.bset), which the backend is
 * opened with (backend_opts.settings, config_settings()); its
 * check_settings op checks them against the run's other settings in
 * config_check().
 *
 * config.c holds the table and the settings; config_check.c checks that
 * they agree; config_read.c reads them from the command line and from
 * files; config_usage.c prints -h.
 */

#ifndef LD_CONFIG_H
#define LD_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "backend/backend.h"
#include "base/config_opt.h"
#include "base/kv.h"
#include "base/names.h"
#include "base/phase.h"
#include "base/timing.h"
#include "target/target.h"

#define CONFIG_MAX_FILES	UINT32_MAX	/* n: the open order is uint32_t */
#define CONFIG_MAX_FILE_SIZE	(1ULL << 30)	/* --file-size */
#define CONFIG_MAX_CLIENTS	64	/* --clients */
#define CONFIG_MAX_PASS	127	/* options a suite passes on to a target */
#define CONFIG_MAX_LIMITS	16	/* --memory-limit A,B,...: a suite's */
#define CONFIG_MIN_MEMORY	(64ULL << 10)	/* --memory-limit */
#define CONFIG_MAX_MEMORY	(1ULL << 50)
#define CONFIG_NSHORT	128	/* bytes of config_getopt()'s optstring */

enum config_sync {
	CONFIG_SYNC_NONE,	/* never syncfs */
	CONFIG_SYNC_PHASE,	/* syncfs before every phase */
	CONFIG_SYNC_ROUND	/* syncfs before every round */
};

enum config_cold {
	CONFIG_COLD_NONE,	/* measure with whatever create left cached */
	CONFIG_COLD_DROP,	/* sync + drop dentries and inodes */
	CONFIG_COLD_ALL,	/* sync + drop them and the page cache */
	CONFIG_COLD_REMOUNT	/* unmount and mount the target again */
};

enum config_layout {
	CONFIG_LAYOUT_FLAT,	/* all files in the round directory */
	CONFIG_LAYOUT_TREE	/* subdirectories of files_per_dir each */
};

enum config_split {
	CONFIG_SPLIT_INTERLEAVED,	/* client c: names c, c + K, ... */
	CONFIG_SPLIT_BLOCKED		/* client c: the c-th run of n/K */
};

enum config_workload {
	CONFIG_WORKLOAD_CLASSIC,	/* files in a directory (or a tree) */
	CONFIG_WORKLOAD_MAILDIR		/* a mailbox: tmp/, new/, cur/ */
};

enum config_preset {
	CONFIG_PRESET_CLASSIC,	/* the classic experiment: the defaults */
	CONFIG_PRESET_MAILDIR	/* a mail spool's work */
};

struct config {
	uint64_t		budget_ns;
	enum timing_policy	policy;
	double			growth;
	uint64_t		start;
	bool			start_set;
	uint64_t		max_files;	/* 0: no limit */
	unsigned		repeat;
	bool			repeat_set;
	unsigned		warmup;
	enum phase		phases[PHASE_COUNT];	/* run order */
	size_t			nphases;
	bool			phases_set;
	enum config_workload	workload;
	bool			workload_set;
	enum config_preset	preset;
	char			*preset_note;	/* what it set, for the
						   header and the record;
						   NULL: nothing */
	enum config_layout	layout;
	uint64_t		dirs;		/* --dirs: the first round's
						   directories; 0: not given */
	uint64_t		files_per_dir;
	bool			files_per_dir_set;
	enum names_kind		names;
	bool			names_set;
	unsigned		name_len;
	bool			name_len_set;
	uint64_t		file_size;
	uint64_t		file_size_max;	/* a range's top; 0: none */
	bool			file_size_set;
	enum backend_fsync	fsync;
	bool			fsync_set;
	enum config_sync	sync;
	uint64_t		seed;
	bool			seed_set;
	char			*label;		/* NULL: the fstype */
	char			*output;	/* NULL: results/STAMP-LABEL */
	bool			quiet;
	char			*scratch;	/* NULL: TARGET_SCRATCH */
	enum config_cold	cold;		/* before each phase after
						   create */
	bool			cold_set;
	uint64_t		memory_limit;	/* bytes; 0: none */
	uint64_t		memory_limits[CONFIG_MAX_LIMITS];
	unsigned		nmemory_limits;	/* A,B,...: a sweep, in a
						   suite; memory_limit is A */
	uint64_t		churn;		/* files/s while listing; 0:
						   none */
	unsigned		rmrf_batch;	/* entries rmrf reads before it
						   unlinks them */
	bool			mpi;		/* the clients are MPI ranks */
	unsigned		clients;	/* processes sharing a round
						   (--mpi: the ranks) */
	bool			clients_set;
	enum config_split	split;		/* how they share its names */
	bool			split_set;
	char			*events;	/* libpfm4 names; NULL:
						   PERF_DEFAULT */
	uint64_t		total_budget_ns;	/* suite; 0: none */
	char			*kernels;	/* suite: UML kernels, "A,B" */
	bool			setup_only;	/* set the target up, no
						   more */
	void			*bset[BACKEND_MAX];	/* each registered
						   backend's options, in
						   its own struct; NULL:
						   none */
	char			*overrides;	/* the target keys the command
						   line set, "--source
						   --mount-options"; NULL:
						   none */
};

/* One option as the command line gave it to a suite. */
struct config_given {
	const struct config_opt	*opt;
	const char		*value;		/* in argv, or NULL */
};

/* What config_parse_args() found besides the settings. */
struct config_args {
	const char		*conf;		/* run: -c FILE, or NULL */
	bool			 cleanup;	/* run: --cleanup */
	char			**rest;		/* the operands */
	int			 nrest;
	/* suite, compare: the options to pass on to each run, in order */
	struct config_given	 given[CONFIG_MAX_PASS];
	size_t			 ngiven;
};

extern const struct config_opt	config_opts[];	/* name NULL ends it */

/* config.c: the table and the settings */
void	config_init(struct config *);
void	config_free(struct config *);
int	config_set(struct config *, const char *, const char *, char *);
void	config_dump(const struct config *, struct kvlist *);
bool	config_label_ok(const char *);
const struct config_opt	*config_opt_at(size_t);
const struct config_opt	*config_opt_find(const char *);
bool	config_opt_backend(const struct config_opt *);
const void	*config_settings(const struct config *,
		    const struct backend_ops *);
void	config_backend_opts(const struct config *, const struct backend_ops *,
	    const char *, struct backend_opts *);

bool	*config_given(struct config *, const struct config_opt *);

/* config_check.c: what options must agree on */
int	config_check(struct config *, char *);

/* config_read.c: config files and the command line */
int	config_load(struct config *, struct target_conf *, const char *,
	    char *);
int	config_parse_args(struct config *, struct target_conf *,
	    enum config_verb, int, char **, struct config_args *, char *);

/* config_usage.c: getopt's tables and -h */
struct option;
struct option	*config_getopt(char *);
int	config_usage(FILE *);

#endif /* LD_CONFIG_H */
