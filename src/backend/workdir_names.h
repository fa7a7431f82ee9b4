/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * workdir_names: which names in a dead run's work directory are the
 * run's, for the sweeps of largedir cleanup (workdir_sweep.c, and the
 * NFS backend's nfsb_sweep.c).  The marker says how the run made its
 * names (kind, width, seed, file size) and the round record which round
 * directory was under way, with its n and, in the tree layout, its files
 * per subdirectory (backend_round_record()); workdir_names_whose() then
 * tells a name the run made from a foreign one, which a sweep keeps.
 */

#ifndef LD_WORKDIR_NAMES_H
#define LD_WORKDIR_NAMES_H

#include <stdbool.h>
#include <stdint.h>

#include "backend/marker.h"
#include "base/names.h"

/* What a dead run's marker and round record say of the names it made. */
struct workdir_names {
	struct marker	 m;
	enum names_kind	 kind;
	unsigned	 len;
	char		 round[64];	/* the round recorded, or "" */
	uint64_t	 n;		/* its n */
	uint64_t	 per_dir;	/* files per subdirectory, or 0 */
	bool		 mailbox;	/* the round is a mailbox: its tmp/,
					   new/ and cur/ are subdirectories
					   0, 1 and 2 */
	struct names	 t;		/* its names, once built */
	bool		 built;
};

/* What a name in a dead run's round directory is. */
enum workdir_whose {
	WORKDIR_FOREIGN,	/* not the run's: it stays */
	WORKDIR_OURS,		/* a file the run made there */
	WORKDIR_SUBDIR		/* a subdirectory of its tree layout */
};
#define WORKDIR_NO_SUB	UINT64_MAX	/* the round directory itself */

int	workdir_names_init(struct workdir_names *, const struct marker *,
	    char *);
enum workdir_whose
	workdir_names_whose(struct workdir_names *, const char *, uint64_t,
	    const char *, uint64_t *);
bool	workdir_names_round_dir(const char *);
void	workdir_names_free(struct workdir_names *);

#endif /* LD_WORKDIR_NAMES_H */
