/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * sweep: the one walk of largedir cleanup.  What killed runs leave is
 * swept in four places: the work directories of the posix backend
 * (workdir.c) and of the NFS backend (nfsb_sweep.c), the run directories
 * of targets (target_sweep.c) and the child memory cgroups (memcg.c).
 * Each has the same shape: read a directory, decide which entries are
 * ours, remove those, keep the others and count them.  sweep_walk()
 * reads; the caller's callback decides, removes and says what became of
 * each entry.  The walker itself removes nothing, so a name no callback
 * knows as ours is never touched.
 *
 * A directory is read through a struct sweep_dir: a readdir(3) stream
 * (sweep_dir_posix()) or a reader of the caller's own (nfsb_sweep.c
 * reads with READDIR calls).  It is walked one of two ways:
 *
 *	SWEEP_ONCE	every name first, then the callback once for each:
 *			for a directory holding whole work directories,
 *			run directories or cgroups, each of which is
 *			reported once, and which the callback removes
 *			while nothing is being read
 *	SWEEP_PASSES	the callback as the names come, then from the
 *			start again until a pass removes nothing: for the
 *			inside of a round directory, too large to hold in
 *			memory, where removing while reading may make a
 *			filesystem skip entries (rm -rf reads again too)
 */

#ifndef LD_SWEEP_H
#define LD_SWEEP_H

#include <dirent.h>
#include <stdint.h>

enum sweep_mode { SWEEP_ONCE, SWEEP_PASSES };

/* A callback's answer for an entry it removed; else the entries it kept. */
#define SWEEP_GONE	(-1)

/* One entry as a reader gives it, valid until its next call. */
struct sweep_entry {
	const char	*name;
	unsigned char	 type;		/* DT_DIR, DT_REG, ... or DT_UNKNOWN */
};

/*
 * A directory being read: next() gives the next entry but "." and ".."
 * (1), says it has no more (0), or fails (-1 with errno); rewind() starts
 * it again from the first (0, or -1 with errno).
 */
struct sweep_dir {
	int	(*next)(void *, struct sweep_entry *);
	int	(*rewind)(void *);
	void	*arg;
};

/* What a walk did. */
struct sweep_count {
	uint64_t	kept;		/* entries kept (in its last pass) */
	uint64_t	gone;		/* entries removed, in all passes */
};

int	sweep_walk(const struct sweep_dir *, const char *, enum sweep_mode,
	    int64_t (*)(void *, const struct sweep_entry *), void *,
	    struct sweep_count *);
void	sweep_dir_posix(struct sweep_dir *, DIR *);

#endif /* LD_SWEEP_H */
