/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * config_opt: the form of an option (struct config_opt), which the run's
 * table in config.c and a backend's own table (backend_ops.options) both
 * fill in, and what is done with a value by its type: check and parse it
 * (config_opt_parse()), store it into the struct that keeps it and load
 * it back, and spell it as the record of a run does.
 */

#ifndef LD_CONFIG_OPT_H
#define LD_CONFIG_OPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct config;			/* config.h: what a CUSTOM option parses into */

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

int	config_opt_bad(char *, const char *, const char *, const char *);
int	config_opt_parse(struct config *, const struct config_opt *,
	    const char *, union config_val *, char *);
void	config_opt_store(const struct config_opt *, void *,
	    const union config_val *);
void	config_opt_load(const struct config_opt *, const void *,
	    union config_val *);
const char *
	config_opt_show(const struct config_opt *, const union config_val *,
	    char *, size_t);

#endif /* LD_CONFIG_OPT_H */
