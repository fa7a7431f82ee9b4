/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * workdir_sweep: largedir cleanup DIR, the posix backend's sweep (its
 * ops table's 'sweep').  The work directories "largedir.XXXXXX" in DIR
 * (workdir.h) whose run is gone, as their marker's lock tells, lose the
 * names their runs made (workdir_names.h), then go; anything else in
 * them is kept and counted, and a work directory made on another host,
 * or one whose run is alive, is left alone and said so.
 */

#ifndef LD_WORKDIR_SWEEP_H
#define LD_WORKDIR_SWEEP_H

#include <stdint.h>

#include "backend/backend.h"
#include "backend/sweep.h"

/*
 * The work directories "largedir.*" of a directory being swept, by
 * whichever backend: 'one'('one_arg', name, report) sweeps the one named
 * and returns 0, or -1 if it is none of ours; the report, whose path is
 * 'base'/name, goes to 'report'('arg', ...).
 */
struct workdir_found {
	const char	*base;
	int		(*one)(void *, const char *, struct backend_report *);
	void		*one_arg;
	void		(*report)(void *, const struct backend_report *);
	void		*arg;
};

struct workdir_names;

/*
 * A directory of a dead run's work directory being swept, by whichever
 * backend: the work directory itself ('round' NULL), round directory
 * 'round' ('sub' WORKDIR_NO_SUB) or its subdirectory 'sub' of the tree
 * layout; 'dir' is the backend's handle on it.  The backend's
 * 'unlink'(at, name) unlinks a file there (0, or -1 with errno); its
 * 'sweep'(at, name, round, sub) sweeps the directory 'name' there, as
 * round directory 'round' or its subdirectory 'sub', in passes with
 * workdir_sweep_entry() (a struct workdir_sweeper of its own, the same
 * but for 'round', 'sub' and 'dir'), and removes it once nothing keeps
 * it: SWEEP_GONE, or the entries it keeps.
 */
struct workdir_sweeper {
	struct workdir_names	*wn;
	const char		*round;
	uint64_t		 sub;
	uint64_t		*files;		/* unlinked, counted */
	void			*dir;
	int			(*unlink)(const struct workdir_sweeper *,
				    const char *);
	int64_t			(*sweep)(const struct workdir_sweeper *,
				    const char *, const char *, uint64_t);
};

int	workdir_sweep(const char *, void (*)(void *,
	    const struct backend_report *), void *, char *);
int64_t	workdir_sweep_found(void *, const struct sweep_entry *);
int64_t	workdir_sweep_entry(void *, const struct sweep_entry *);

#endif /* LD_WORKDIR_SWEEP_H */
