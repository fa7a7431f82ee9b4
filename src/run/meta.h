/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * meta: what a run's outputs say of it, from the run's set-up to its
 * end: the run directory and its files (refusing to overwrite earlier
 * results), the metadata and settings of the document, its columns
 * (with the backend's table for the target, whose counters name some),
 * every rewrite of the outputs, and the record of why a run stopped.
 * Called by largedir.c with the run (setup.h); like the set-up steps,
 * it prints nothing and exits never: what it has to say comes back in
 * a struct setup_say.
 */

#ifndef LD_META_H
#define LD_META_H

#include "run/setup.h"

int	meta_init(struct run *, int, char **, struct setup_say *);
int	meta_open(struct run *, struct setup_say *);
int	meta_flush(struct run *, struct setup_say *);
int	meta_stop(struct run *);
int	meta_failed(struct run *, char *);

#endif /* LD_META_H */
