/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * memcg_place: where memcg.c's child cgroup goes.  memcg_place_locate()
 * finds our own memory cgroup and the top of its mount, from
 * /proc/self/cgroup and /proc/self/mountinfo below a root ("/", or a
 * fixture directory in the tests); memcg_place_parent() the cgroup the
 * child may go below: on v1 ours, on v2 the nearest of ours and its
 * ancestors whose cgroup.subtree_control lists memory (see memcg.h).
 * Both only read.
 */

#ifndef LD_MEMCG_PLACE_H
#define LD_MEMCG_PLACE_H

#include "target/memcg.h"

int	memcg_place_locate(const char *, enum memcg_version *, char **,
	    char **, char *);
int	memcg_place_parent(const char *, enum memcg_version *, char **,
	    char *);

#endif /* LD_MEMCG_PLACE_H */
