/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/* phase: the phases of a round by name (see phase.h). */

#include <string.h>

#include "base/phase.h"

static const char *const phase_names[PHASE_COUNT] = {
	[PHASE_CREATE] = "create",
	[PHASE_OPEN] = "open",
	[PHASE_LIST] = "list",
	[PHASE_LISTSTAT] = "liststat",
	[PHASE_DELETE] = "delete",
	[PHASE_RMRF] = "rmrf",
	[PHASE_MKDIR] = "mkdir",
	[PHASE_DELIVER] = "deliver",
	[PHASE_MOVE] = "move",
	[PHASE_FLAG] = "flag",
	[PHASE_SCAN] = "scan",
	[PHASE_READ] = "read",
	[PHASE_EXPUNGE] = "expunge",
};

/* The name of phase 'p' as --phases and the output columns spell it. */
const char *
phase_name(enum phase p)
{
	return p < PHASE_COUNT ? phase_names[p] : "cleanup";
}

/* Look up the phase called 'name'.  Return 0, or -1 if there is none. */
int
phase_parse(const char *name, enum phase *p)
{
	int	i;

	for (i = 0; i < PHASE_COUNT; i++)
		if (strcmp(name, phase_names[i]) == 0) {
			*p = (enum phase)i;
			return 0;
		}
	return -1;
}

/* Whether 'p' is a phase of --workload maildir. */
bool
phase_maildir(enum phase p)
{
	return p >= PHASE_DELIVER && p < PHASE_COUNT;
}

/* Whether 'p' makes the round's files (a time box may cut it short). */
bool
phase_makes(enum phase p)
{
	return p == PHASE_CREATE || p == PHASE_DELIVER;
}

/* Whether 'p' removes them. */
bool
phase_removes(enum phase p)
{
	return p == PHASE_DELETE || p == PHASE_RMRF || p == PHASE_EXPUNGE;
}

/* Whether 'p' takes the files in the round's random order. */
bool
phase_shuffled(enum phase p)
{
	return p == PHASE_OPEN || p == PHASE_FLAG || p == PHASE_READ;
}

/*
 * Whether 'p' only reads (what --memory-limit may run in its cgroup: the
 * phases that write dirty what cannot be reclaimed until written back).
 */
bool
phase_reads(enum phase p)
{
	return p == PHASE_OPEN || p == PHASE_LIST || p == PHASE_LISTSTAT ||
	    p == PHASE_SCAN || p == PHASE_READ;
}
