/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * setup: a run's set-up policy, between reading the options and the
 * first round, one step a function: the target of -c (root, User-Mode
 * Linux, an NFS client, the kernel's filesystems), the backend and what
 * it can do, --cold and --memory-limit, the label, the events, the work
 * directory, the largest n; and, at the end, the teardown of what they
 * set up.  largedir.c calls them in the order of the story; what the
 * outputs say of the run is meta.c's.
 *
 * The state of a run is one struct run, which largedir.c owns and
 * passes down by pointer.  A step never prints or exits: it returns 0,
 * or -1 with the exit status and the one line to say in a struct
 * setup_say (EXIT_USAGE: a usage error), and may leave a warning there
 * when it returns 0.  A target that cannot be set up here also leaves
 * LABEL.failed for a suite (setup_failed()) before it returns.
 */

#ifndef LD_SETUP_H
#define LD_SETUP_H

#include <sys/types.h>

#include <stdbool.h>
#include <stdint.h>

#include "backend/backend.h"
#include "engine/round.h"
#include "machine/perf.h"
#include "record/output.h"
#include "record/record.h"
#include "report/report.h"
#include "settings/config.h"
#include "target/memcg.h"
#include "target/target.h"

#define SETUP_LINE	4096	/* bytes of what a step says */

/* Everything a run holds. */
struct run {
	struct config		 cfg;
	struct timing_sched	*sched;		/* the rounds' schedule */
	const char		*conf_path;	/* -c FILE, or NULL */
	struct target_conf	 tconf;		/* what FILE says */
	struct target		 target;	/* set up from it */
	bool			 target_up;	/* needs a teardown */
	const char		*dir;		/* the directory under test */
	pid_t			 pid;		/* largedir, not a child */
	uint64_t		 t0_ns;		/* monotonic start of the run */
	char			 stamp[32];	/* UTC start, ISO 8601 */
	const struct backend_ops *ops;		/* the target's backend */
	struct backend		 be;		/* and its work directory */
	struct memcg		 memcg;		/* --memory-limit */
	struct perf		 perf;		/* --events */
	struct round		 round;		/* the round under way */
	uint64_t		 max_n;		/* the largest n */
	const char		*max_why;	/* what sets it */
	double			 round_pred_ns;	/* its predicted time */
	bool			 timebox;	/* it ends at the budget */
	struct output_doc	 doc;
	int			 outfd;		/* the run directory */
	struct output_id	 outids[OUTPUT_NWRITERS]; /* files we wrote */
	char			*outdir;
	char			*label;
	struct noise		 noise;		/* what the checks saw */
	bool			 held;		/* tidy() is registered */
	bool			 left;		/* tidy() left something */
};

/* What a step has to say: why the run cannot go on, or a warning. */
struct setup_say {
	int	status;			/* the exit status; 0: a warning */
	char	line[SETUP_LINE];	/* one line; "": nothing */
};

void	setup_init(struct run *);
int	setup_args(struct run *, int, char **, bool *, struct setup_say *);
int	setup_tell(struct setup_say *, int, const char *, ...)
	    __attribute__((format(printf, 3, 4)));
int	setup_target(struct run *, struct setup_say *);
int	setup_backend(struct run *, struct setup_say *);
void	setup_backend_opts(const struct run *, struct backend_opts *);
int	setup_cold(struct run *, struct setup_say *);
void	setup_label(struct run *);
int	setup_events(struct run *, struct setup_say *);
int	setup_workdir(struct run *, struct setup_say *);
int	setup_memcg(struct run *, struct setup_say *);
int	setup_limit(struct run *, struct setup_say *);
void	setup_failed(const struct run *, const char *);
void	setup_teardown(struct run *, void (*)(bool, const char *));
int	setup_only_say(const struct run *);

#endif /* LD_SETUP_H */
