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
 * files and prints -h.
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

#define CONFIG_MAX_FILES	UINT32_MAX	/* n: the open order is uint32_t */
#define CONFIG_MAX_CLIENTS	64	/* --clients */
#define CONFIG_MAX_PASS	127	/* options a suite passes on to a target */
#define CONFIG_NSHORT	128	/* bytes of config_getopt()'s optstring */

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

enum config_layout {
	CONFIG_LAYOUT_FLAT,	/* all files in the round directory */
	CONFIG_LAYOUT_TREE	/* subdirectories of files_per_dir each */
};

enum config_split {
	CONFIG_SPLIT_INTERLEAVED,	/* client c: names c, c + K, ... */
	CONFIG_SPLIT_BLOCKED		/* client c: the c-th run of n/K */
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
	uint64_t		churn;		/* files/s while listing; 0:
						   none */
	bool			mpi;		/* the clients are MPI ranks */
	unsigned		clients;	/* processes sharing a round
						   (--mpi: the ranks) */
	bool			clients_set;
	enum config_split	split;		/* how they share its names */
	bool			split_set;
	char			*events;	/* libpfm4 names; NULL:
						   PERF_DEFAULT */
	uint64_t		total_budget_ns;	/* suite; 0: none */
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

/* What an option's value is, and so how it is checked and recorded. */
enum config_type {
	CONFIG_FLAG,		/* bool; no value, a file says yes or no */
	CONFIG_COUNT,		/* whole number, min to max (unsigned or
				   uint64_t) */
	CONFIG_SIZE,		/* bytes: 512, 4k, 1M; min to max */
	CONFIG_DURATION,	/* nanoseconds: 90s, 5m, 1h; at most max */
	CONFIG_REAL,		/* double, above min, at most max */
	CONFIG_CHOICE,		/* one of 'words', stored as its enum value */
	CONFIG_STRING,		/* char *, owned; 'valid' checks it */
	CONFIG_CUSTOM		/* only 'parse' knows: it stores it too */
};

/* Where an option is taken: a bit mask, in config_opt.verbs. */
enum config_verb {
	CONFIG_RUN = 1,		/* largedir [options] dir */
	CONFIG_SUITE = 2,	/* largedir suite [options] file ... */
	CONFIG_FILE = 4,	/* a key of config files */
	CONFIG_COMPARE = 8	/* largedir compare [options] A B */
};

/* What the command line does with an option. */
enum config_act {
	CONFIG_ACT_SET,		/* config_set() */
	CONFIG_ACT_READ,	/* -c: read that file first */
	CONFIG_ACT_CLEANUP,	/* --cleanup */
	CONFIG_ACT_HELP,	/* -h: the caller prints config_usage() */
	CONFIG_ACT_VERSION,	/* -V */
	CONFIG_ACT_TARGET	/* a target key: over what -c's file says */
};

/* config_opt.flags */
#define CONFIG_SYNOPSIS	0x1	/* in the first line of -h */
#define CONFIG_UNLISTED	0x2	/* no line of its own in -h */
#define CONFIG_LOCAL	0x4	/* a suite does not pass it to the targets */
#define CONFIG_FILENAME	0x8	/* a file name: any bytes, not just UTF-8 */

/* One word of a CONFIG_CHOICE option and the enum value it stands for. */
struct config_word {
	const char	*word;		/* NULL ends the list */
	int		 value;
};

/* A value on its way from the parser to struct config and back. */
union config_val {
	bool		 b;		/* CONFIG_FLAG */
	uint64_t	 u;		/* COUNT, SIZE, DURATION */
	double		 d;		/* REAL */
	int		 i;		/* CHOICE */
	const char	*s;		/* STRING, not owned */
};

/*
 * One option.  The messages say why a value is refused; config_set()
 * writes "--NAME 'VALUE': WHY".  A COUNT without them says "must be a
 * whole number from MIN to MAX", a CHOICE "must be A, B or C", a FLAG
 * "must be yes or no".
 */
struct config_opt {
	const char	*name;		/* --name and the key in files */
	int		 letter;	/* -x, or 0 */
	enum config_type type;		/* FLAG: takes no value */
	unsigned	 verbs;		/* enum config_verb bits */
	enum config_act	 act;
	unsigned	 flags;		/* CONFIG_SYNOPSIS ... */
	const char	*metavar;	/* in -h; NULL for most flags */
	const char	*help;
	const char	*def;		/* the default -h shows, or NULL */
	const char	*init;		/* the default config_init() parses;
					   NULL: zero */
	size_t		 off, size;	/* the value in struct config (a
					   backend's: in its struct of
					   settings); size 0: none */
	size_t		 isset;		/* 1 + offset of a bool set with it
					   in struct config, or 0 (always,
					   for a backend's) */
	uint64_t	 min, max;	/* COUNT, SIZE, DURATION; REAL: above
					   min, at most max */
	const struct config_word *words;	/* CHOICE */
	bool		(*valid)(const char *);	/* STRING, or NULL */
	/* Parse 'value' into '*v' (or, for CUSTOM, into the config). */
	int		(*parse)(struct config *, const char *,
			    union config_val *, char *);
	const char	*bad;		/* not a value of the type */
	const char	*low;		/* below min */
	const char	*high;		/* above max */
	/* The message for a verb that does not take it: may hold one %s,
	   the argument as given. */
	const char	*refuse;
	int		 dump;		/* place in config_dump(); 0: not
					   recorded */
	const char	*unset;		/* recorded for a zero value, or NULL */
	/* Record the value into the buffer, or return -1 to leave it out. */
	int		(*show)(const struct config *, char *, size_t);
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
void	config_dump(const struct config *, struct output_kvlist *);
bool	config_label_ok(const char *);
const struct config_opt	*config_opt_at(size_t);
const struct config_opt	*config_opt_find(const char *);
bool	config_opt_backend(const struct config_opt *);
const void	*config_settings(const struct config *,
		    const struct backend_ops *);

bool	*config_given(struct config *, const struct config_opt *);

/* config_check.c: what options must agree on */
int	config_check(struct config *, char *);

/* config_read.c: the command line, config files, -h */
int	config_load(struct config *, struct target_conf *, const char *,
	    char *);
struct option;
struct option	*config_getopt(char *);
int	config_parse_args(struct config *, struct target_conf *,
	    enum config_verb, int, char **, struct config_args *, char *);
int	config_usage(FILE *);

#endif /* LD_CONFIG_H */
