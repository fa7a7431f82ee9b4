/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * outcome: why a run stops, from the errno of what failed: the exit
 * status, the status the outputs record, and the reason in a few words.
 */

#ifndef LD_OUTCOME_H
#define LD_OUTCOME_H

#include <stdbool.h>

#include "record/output.h"

struct outcome {
	int			status;
	enum output_status	outcome;
	char			why[64];
};

/* What outcome_of() needs beyond the errno. */
struct outcome_cause {
	int	signo;		/* the first signal caught, or 0 */
	bool	memory_limit;	/* ENOMEM came from --memory-limit */
	bool	vanished;	/* the work directory is gone */
	bool	listing;	/* ELOOP or ENOENT: a listing went wrong */
};

void	outcome_of(int, const struct outcome_cause *, struct outcome *);

#endif /* LD_OUTCOME_H */
