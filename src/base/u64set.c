/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * u64set: see u64set.h.  Linear probing from a splitmix64 hash of the
 * number; the table doubles before it is half full.
 */

#include <stdlib.h>
#include <string.h>

#include "base/u64set.h"
#include "base/util.h"

#define FIRST_CAP	256

static void	grow(struct u64set *);

/*
 * Add 'v' to 's'.  Return true if it was there already; 0, which cannot
 * be stored, counts as there.
 */
bool
u64set_add(struct u64set *s, uint64_t v)
{
	uint64_t	h = v;
	size_t		i, mask;

	if (v == 0)
		return true;
	if (2 * (s->n + 1) > s->cap)
		grow(s);
	mask = s->cap - 1;
	for (i = util_splitmix64(&h) & mask; s->slots[i] != 0;
	    i = (i + 1) & mask)
		if (s->slots[i] == v)
			return true;
	s->slots[i] = v;
	s->n++;
	return false;
}

/* Empty 's', keeping its table. */
void
u64set_clear(struct u64set *s)
{
	if (s->n > 0)
		memset(s->slots, 0, s->cap * sizeof(*s->slots));
	s->n = 0;
}

void
u64set_free(struct u64set *s)
{
	free(s->slots);
	memset(s, 0, sizeof(*s));
}

/* Double the table of 's' (or make the first), keeping what it holds. */
static void
grow(struct u64set *s)
{
	uint64_t	*old = s->slots;
	size_t		 oldcap = s->cap, i;

	s->cap = oldcap == 0 ? FIRST_CAP : 2 * oldcap;
	s->slots = xreallocarray(NULL, s->cap, sizeof(*s->slots));
	memset(s->slots, 0, s->cap * sizeof(*s->slots));
	s->n = 0;
	for (i = 0; i < oldcap; i++)
		if (old[i] != 0)
			(void)u64set_add(s, old[i]);
	free(old);
}
