/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * workdir: the work directory of the posix backend (posix.c), and the
 * only place it ever removes anything but a round's own files.
 *
 * workdir_create() makes "largedir.XXXXXX" inside the directory the user
 * named and writes a marker file into it that records who made it (host,
 * pid), how its file names are made (kind, width, seed, file size), and
 * the directory's own inode number, so a copied or hand-made look-alike
 * is never taken for ours.  The run holds a lock on the marker as long as
 * it lives, which is how --cleanup tells a live run from a dead one.
 * Rounds run in subdirectories "round-K-R" (backend_round_name()); before
 * one is made, workdir_round() records its name and n, so --cleanup can
 * rebuild the exact names a dead run's round may hold (workdir_names.c).
 * workdir_sweep() (largedir --cleanup, workdir_sweep.c) removes what a
 * killed run left behind: only marked work directories whose run is gone,
 * only those names, and it keeps and reports anything else.
 *
 * Everything goes through directory descriptors, the final removal too:
 * a work directory someone moved away, with another put in its place, is
 * noticed, reported with its new place, and left with its marker.
 */

#ifndef LD_WORKDIR_H
#define LD_WORKDIR_H

#include <stdbool.h>
#include <stdint.h>

#include "backend/backend.h"

#define WORKDIR_PREFIX	"largedir."
#define WORKDIR_MARKER	".largedir-work"
#define WORKDIR_ROUND	".largedir-round"	/* the round under way */
#define WORKDIR_ROUND_TMP ".largedir-round.tmp"	/* it, half written */
#define WORKDIR_MAGIC	"largedir work directory"

struct workdir {
	int	 fd;		/* the work directory, or -1 */
	int	 parentfd;	/* the directory it was made in, or -1 */
	int	 lockfd;	/* its marker, locked, or -1 */
	char	*parent;	/* that directory's path, as given */
	char	*name;		/* its name there: largedir.XXXXXX */
	char	*path;		/* parent + name, for messages */
	char	*marker;	/* the marker's contents */
};

int	workdir_create(struct workdir *, const char *,
	    const struct backend_opts *, char *);
char	*workdir_mark_extra(const struct backend_opts *);
int	workdir_round(struct workdir *, const char *, uint64_t,
	    const struct backend_opts *);
int	workdir_remove(struct workdir *, char *);
void	workdir_keep(struct workdir *);
void	workdir_suspend(struct workdir *);
int	workdir_resume(struct workdir *, char *);

#endif /* LD_WORKDIR_H */
