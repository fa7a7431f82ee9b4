/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * workdir: the work directory of the posix backend (posix.c), and the
 * only place it ever removes anything but a round's own files.
 *
 * workdir_create() makes "largedir.XXXXXX" with mkdtemp(3) inside the
 * directory the user named and writes a marker file into it that records
 * who made it (host, pid), how its file names look, and the directory's
 * own inode number, so a copied or hand-made look-alike is never taken
 * for ours.  Rounds run in subdirectories "round-K-R"
 * (backend_round_name()).  workdir_sweep()
 * (largedir --cleanup) removes what a killed run left behind: only marked
 * work directories whose run is gone, only round directories and names of
 * the recorded shape, and it keeps and reports anything else.
 */

#ifndef LD_WORKDIR_H
#define LD_WORKDIR_H

#include <stdbool.h>
#include <stdint.h>

#include "backend.h"
#include "names.h"

#define WORKDIR_PREFIX	"largedir."
#define WORKDIR_MARKER	".largedir-work"
#define WORKDIR_MAGIC	"largedir work directory"

struct workdir {
	int	 fd;		/* the work directory */
	char	*path;		/* its path, as given + name */
	char	*marker;	/* the marker's contents */
};

int	workdir_create(struct workdir *, const char *, enum names_kind,
	    unsigned, const char *, char *);
int	workdir_remove(struct workdir *, char *);
void	workdir_keep(struct workdir *);
void	workdir_suspend(struct workdir *);
int	workdir_resume(struct workdir *, char *);
int	workdir_sweep(const char *, void (*)(void *,
	    const struct backend_report *), void *, char *);

#endif /* LD_WORKDIR_H */
