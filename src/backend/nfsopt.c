/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * nfsopt: see nfsopt.h.  The defaults are in the table ('init', what
 * config_init() stores) and in nfsopt_defaults, for a backend opened
 * without settings (the unit tests); test_nfsopt checks that they agree.
 */

#include <errno.h>
#include <stddef.h>
#include <stdio.h>

#include "backend/nfsopt.h"
#include "base/util.h"

/* Where an option's value goes in struct nfsopt. */
#define FIELD(m)	.off = offsetof(struct nfsopt, m), \
			.size = sizeof(((struct nfsopt *)NULL)->m)
/* Where they are taken: as the options of the work. */
#define VERBS		(CONFIG_RUN | CONFIG_SUITE | CONFIG_FILE | \
			    CONFIG_COMPARE)

static const struct config_word	creates[] = {
	{ "exclusive", NFSOPT_EXCLUSIVE }, { "guarded", NFSOPT_GUARDED },
	{ NULL, 0 }
};
static const struct config_word	readdirs[] = {
	{ "plain", NFSOPT_PLAIN }, { "plus", NFSOPT_PLUS }, { NULL, 0 }
};

/* How to create, how to list, and how much at a time. */
const struct config_opt nfsopt_options[] = {
	{ .name = "nfs-create", .type = CONFIG_CHOICE, .verbs = VERBS,
	  .metavar = "exclusive|guarded", .help = "nfs://: how CREATE is sent",
	  .def = "exclusive", .init = "exclusive", .words = creates,
	  FIELD(create) },
	{ .name = "nfs-readdir", .type = CONFIG_CHOICE, .verbs = VERBS,
	  .metavar = "plain|plus", .help = "nfs://: READDIR or READDIRPLUS",
	  .def = "plain", .init = "plain", .words = readdirs,
	  FIELD(readdir) },
	{ .name = "nfs-dircount", .type = CONFIG_SIZE, .verbs = VERBS,
	  .metavar = "size", .help = "nfs://: READDIRPLUS dircount",
	  .def = "maxcount/8", .min = 512, .max = 1U << 20,
	  .bad = "not a size (e.g. 8k, 32k)",
	  .low = "at least 512", .high = "at most 1M", FIELD(dircount) },
	{ .name = "nfs-maxcount", .type = CONFIG_SIZE, .verbs = VERBS,
	  .metavar = "size", .help = "nfs://: READDIR(PLUS) reply size",
	  .def = "dtpref", .min = 512, .max = 1U << 20,
	  .bad = "not a size (e.g. 8k, 32k)",
	  .low = "at least 512", .high = "at most 1M", FIELD(maxcount) },
	{ .name = "nfs-window", .type = CONFIG_COUNT, .verbs = VERBS,
	  .metavar = "count", .help = "nfs://: calls in flight in a phase",
	  .def = "1", .init = "1", .min = 1, .max = 256,
	  .bad = "not a number (e.g. 1, 16)", .low = "at least 1",
	  .high = "at most 256", FIELD(window) },
	{ .name = "nfs-timeout", .type = CONFIG_DURATION, .verbs = VERBS,
	  .metavar = "duration", .help = "nfs://: how long to wait for a reply",
	  .def = "60s", .init = "60s", .min = 1, .max = 3600ULL * NS_PER_S,
	  .bad = "not a duration (e.g. 10s, 1m)", .high = "at most 1h",
	  FIELD(timeout_ns) },
	{ .name = NULL }
};

/* What the table's defaults come to. */
const struct nfsopt nfsopt_defaults = {
	.create = NFSOPT_EXCLUSIVE,
	.readdir = NFSOPT_PLAIN,
	.dircount = 0,
	.maxcount = 0,
	.window = 1,
	.timeout_ns = 60 * NS_PER_S,
};

/*
 * The options backend 'be' was opened with (backend_opts.settings), or
 * the defaults if it was opened without.
 */
const struct nfsopt *
nfsopt_of(const struct backend *be)
{
	return be->opts.settings != NULL ? be->opts.settings :
	    &nfsopt_defaults;
}

/*
 * The backend's check_settings op: its options (a struct nfsopt in
 * bo->settings) against the rest of 'bo'.  A stat of a name the churn
 * removed meanwhile is skipped; with calls in flight, its failure would
 * come back for another name, so --churn needs one call in flight.
 * Return 0, or -1 with errno EINVAL and a message in 'err'.
 */
int
nfsopt_check(const struct backend_opts *bo, char *err)
{
	const struct nfsopt	*o = bo->settings;

	if (o == NULL || bo->churn == 0 || o->window == 1)
		return 0;
	(void)snprintf(err, LD_ERRLEN, "--churn needs --nfs-window 1 (not %u): "
	    "a name the churn removed is skipped only with one call in flight",
	    o->window);
	errno = EINVAL;
	return -1;
}
