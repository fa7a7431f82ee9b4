/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * memcg: a child memory cgroup for --memory-limit, on cgroup v1 (the
 * memory controller's own hierarchy) or cgroup v2 (the unified one).
 *
 * largedir makes one child cgroup "largedir.<pid>" at start, with the
 * limit and swap shut off (memcg_create()).  Each limited phase runs in
 * a forked child that moves itself in with memcg_enter(); the parent
 * waits and asks memcg_oom_kills() whether a SIGKILL was the OOM
 * killer's.  Every way out calls memcg_remove(), and largedir --cleanup
 * calls memcg_sweep() for what a run killed with SIGKILL left, looking
 * where memcg_create() would make the child.
 *
 * Where the child goes.  v1: below our own memory cgroup.  v2: below
 * the nearest of our cgroup and its ancestors, up to the top of the
 * mount, whose cgroup.subtree_control already lists memory (the root
 * cgroup of a systemd machine does, and so do delegated slices).  Our
 * own v2 cgroup is rarely that one: a cgroup other than the root that
 * holds processes (ours holds largedir, and often the user's shell)
 * cannot hand a controller to its children, and the kernel refuses
 * "+memory" there with EBUSY.  memcg never writes cgroup.subtree_control
 * (the system's cgroup configuration is not ours to change); root may
 * move a process into any cgroup, so memcg_enter() works there.
 *
 * Every path is read below a root ("/" normally, a fixture directory in
 * the tests): ROOT/proc/self/cgroup, ROOT/proc/self/mountinfo, and the
 * mount points found there, below ROOT too.
 */

#ifndef LD_MEMCG_H
#define LD_MEMCG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MEMCG_PREFIX	"largedir."	/* <parent>/largedir.<pid> */

enum memcg_version { MEMCG_NONE = 0, MEMCG_V1 = 1, MEMCG_V2 = 2 };

/* A child cgroup; filled by memcg_create(), emptied by memcg_remove(). */
struct memcg {
	enum memcg_version	 version;
	char			*dir;	/* the child's directory, or NULL */
	uint64_t		 limit;	/* bytes */
	int			 peak_fd; /* v2: memory.peak kept open, or -1 */
};

/* What memcg_sweep() did with one stale child cgroup. */
struct memcg_report {
	const char	*path;		/* the child cgroup's directory */
	bool		 removed;	/* it is gone */
	const char	*why;		/* why it was kept, or NULL */
};

int	memcg_find(const char *, enum memcg_version *, char *, size_t,
	    char *);
int	memcg_create(struct memcg *, const char *, uint64_t, char *);
int	memcg_enter(const struct memcg *);
int	memcg_oom_kills(const struct memcg *, uint64_t *);
int	memcg_peak(const struct memcg *, uint64_t *);
int	memcg_peak_reset(const struct memcg *);
int	memcg_remove(struct memcg *, char *);
int	memcg_sweep(const char *, void (*)(void *,
	    const struct memcg_report *), void *, char *);

#endif /* LD_MEMCG_H */
