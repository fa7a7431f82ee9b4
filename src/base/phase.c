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
