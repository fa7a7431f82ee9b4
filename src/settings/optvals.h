/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * optvals: the values of the run's options that need more than their
 * type (config_opt.h) to be read or recorded: the phases, the seed, the
 * events, a size range, and what is recorded only where it means
 * something.  The table in config.c names them as its parse and show.
 */

#ifndef LD_OPTVALS_H
#define LD_OPTVALS_H

#include <stdbool.h>
#include <stddef.h>

#include "base/config_opt.h"

int	optvals_set_phases(struct config *, const char *, union config_val *,
	    char *);
int	optvals_set_seed(struct config *, const char *, union config_val *,
	    char *);
int	optvals_set_events(struct config *, const char *, union config_val *,
	    char *);
bool	optvals_nonempty(const char *);
bool	optvals_absolute(const char *);
int	optvals_show_phases(const struct config *, char *, size_t);
int	optvals_show_per_dir(const struct config *, char *, size_t);
int	optvals_show_clients(const struct config *, char *, size_t);
int	optvals_set_file_size(struct config *, const char *, union config_val *,
	    char *);
int	optvals_show_file_size(const struct config *, char *, size_t);
int	optvals_set_memory_limit(struct config *, const char *,
	    union config_val *, char *);
int	optvals_show_rmrf_batch(const struct config *, char *, size_t);
int	optvals_show_name_len(const struct config *, char *, size_t);

#endif /* LD_OPTVALS_H */
