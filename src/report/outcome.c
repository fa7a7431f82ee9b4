/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * outcome: why a run cannot go on, from the errno that stopped it and
 * what was going on: the exit status, the status its outputs record and
 * the reason, in one table-like switch, so that the run, its set-up and
 * the tests agree (test_report.c checks every errno it names).  Pure: it
 * neither prints nor exits.
 */

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "base/util.h"
#include "report/outcome.h"

/*
 * The run cannot go on because of errno 'e': fill 'out' with the exit
 * status, the outcome the outputs record and the reason.
 *	- 128 + signal, interrupted: EINTR after a signal;
 *	- EXIT_STOPPED, stopped: the filesystem refused (ENOSPC, EDQUOT,
 *	  EMFILE, ENFILE, EROFS, EACCES, EPERM), the work directory
 *	  vanished (ENOENT, ESTALE or ENOTDIR with 'c'->vanished), or the
 *	  memory limit was reached (ENOMEM with 'c'->memory_limit);
 *	- EXIT_LISTING, stopped: a listing went wrong, with 'c'->listing
 *	  (ELOOP a readdir loop, ENOENT entries lost);
 *	- 1, failed: anything else, which largedir did not expect.
 */
void
outcome_of(int e, const struct outcome_cause *c, struct outcome *out)
{
	out->status = 1;
	out->outcome = OUTPUT_FAILED;
	(void)snprintf(out->why, sizeof(out->why), "%s", strerror(e));
	switch (e) {
	case ECHILD:	/* the limited child or a client: the what says */
		(void)strcpy(out->why, "a measuring process died");
		break;
	case ENOMEM:
		if (!c->memory_limit)
			break;
		(void)strcpy(out->why, "out of memory");
		out->outcome = OUTPUT_STOPPED;
		out->status = EXIT_STOPPED;
		break;
	case EINTR:
		if (c->signo == 0)
			break;
		(void)snprintf(out->why, sizeof(out->why), "interrupted by "
		    "SIG%s", sigabbrev_np(c->signo));
		out->outcome = OUTPUT_INTERRUPTED;
		out->status = 128 + c->signo;
		break;
	case ELOOP:
		if (!c->listing)
			break;
		(void)strcpy(out->why, "readdir loop");
		out->outcome = OUTPUT_STOPPED;
		out->status = EXIT_LISTING;
		break;
	case ENOENT:
		if (c->listing) {
			(void)strcpy(out->why, "entries lost in a listing");
			out->outcome = OUTPUT_STOPPED;
			out->status = EXIT_LISTING;
			break;
		}
		/* FALLTHROUGH */
	case ESTALE:
	case ENOTDIR:
		if (!c->vanished)
			break;
		(void)strcpy(out->why, "the work directory vanished");
		/* FALLTHROUGH */
	case ENOSPC:
	case EDQUOT:
	case EMFILE:
	case ENFILE:
	case EROFS:
	case EACCES:
	case EPERM:
		out->outcome = OUTPUT_STOPPED;
		out->status = EXIT_STOPPED;
		break;
	default:
		break;
	}
}
