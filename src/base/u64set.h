/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * u64set: a set of nonzero 64-bit numbers, open-addressed and kept at
 * most half full, for the NFS backend to see a listing go round (a
 * cookie it went on from before).  u64set_clear() empties it and keeps
 * its memory for the next listing.
 */

#ifndef LD_U64SET_H
#define LD_U64SET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct u64set {
	uint64_t	*slots;		/* 0: empty */
	size_t		 n, cap;
};

bool	u64set_add(struct u64set *, uint64_t);
void	u64set_clear(struct u64set *);
void	u64set_free(struct u64set *);

#endif /* LD_U64SET_H */
