/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * config: every setting of a run, its default, and the one place that
 * checks it.  The command line (getopt_long in largedir.c) and target
 * files (config_load()) call config_set() with the option's long name as
 * the key, so each check exists once, as fio shares one option table
 * between its command line and its job files.  config_opts[] describes
 * the options for getopt and usage().
 */

#ifndef LD_CONFIG_H
#define LD_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "backend.h"
#include "names.h"
#include "output.h"
#include "target.h"
#include "timing.h"
#include "workload.h"

enum config_sync {
	CONFIG_SYNC_NONE,	/* never syncfs */
	CONFIG_SYNC_PHASE,	/* syncfs before every phase */
	CONFIG_SYNC_ROUND	/* syncfs before every round */
};

enum config_cold {
	CONFIG_COLD_NONE,	/* measure with whatever create left cached */
	CONFIG_COLD_DROP,	/* sync + drop dentries and inodes */
	CONFIG_COLD_REMOUNT	/* unmount and mount the target again */
};

struct config {
	uint64_t		budget_ns;
	enum timing_policy	policy;
	double			growth;
	uint64_t		start;
	uint64_t		max_files;	/* 0: no limit */
	unsigned		repeat;
	unsigned		warmup;
	enum phase		phases[PHASE_COUNT];	/* run order */
	size_t			nphases;
	enum names_kind		names;
	unsigned		name_len;
	bool			name_len_set;
	uint64_t		file_size;
	enum backend_fsync	fsync;
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
	char			*events;	/* libpfm4 names; NULL:
						   PERF_DEFAULT */
};

/* One option: its long name (the config key), short letter, argument. */
struct config_opt {
	const char	*name;
	int		 letter;	/* 0 if none */
	const char	*arg;		/* NULL for a flag */
	const char	*help;
};

extern const struct config_opt	config_opts[];	/* NULL-terminated */

void	config_init(struct config *);
void	config_free(struct config *);
int	config_set(struct config *, const char *, const char *, char *);
int	config_check(const struct config *, char *);
void	config_dump(const struct config *, struct output_kvlist *);
const char	*config_sync_name(enum config_sync);
const char	*config_cold_name(enum config_cold);
int	config_load(struct config *, struct target_conf *, const char *,
	    char *);

#define CONFIG_NLONGOPTS	64	/* entries config_getopt() may fill */

struct option;
void	config_getopt(struct option *, char *);
const char	*config_opt_name(int);
int	config_usage(FILE *);

#endif /* LD_CONFIG_H */
