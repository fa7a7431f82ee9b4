/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * nfsopt: the options of the nfs:// backend (nfsb.c): how CREATE is
 * sent, READDIR or READDIRPLUS and their sizes, calls in flight, how long
 * to wait for a reply.  Their table, nfsopt_options[], gives each one's
 * bounds and messages and its place in struct nfsopt; config.c parses
 * every value once, by the table, into the run's struct nfsopt, which
 * nb_new() reads when the backend is opened.  nfsopt_check() is what
 * must agree with the run's other settings.
 */

#ifndef LD_NFSOPT_H
#define LD_NFSOPT_H

#include <stdint.h>

#include "backend/backend.h"
#include "base/config_opt.h"

enum nfsopt_create {
	NFSOPT_EXCLUSIVE,	/* CREATE EXCLUSIVE, then SETATTR the mode */
	NFSOPT_GUARDED		/* CREATE GUARDED with the mode */
};

enum nfsopt_readdir {
	NFSOPT_PLAIN,		/* READDIR */
	NFSOPT_PLUS		/* READDIRPLUS */
};

/* The options of the nfs backend, as the table parsed them. */
struct nfsopt {
	enum nfsopt_create	 create;	/* --nfs-create */
	enum nfsopt_readdir	 readdir;	/* --nfs-readdir */
	unsigned		 dircount;	/* bytes; 0: maxcount / 8 */
	unsigned		 maxcount;	/* bytes; 0: as Linux asks */
	unsigned		 window;	/* calls in flight, 1 to 256 */
	uint64_t		 timeout_ns;	/* for a reply */
};

extern const struct config_opt	nfsopt_options[];	/* name NULL ends it */
extern const struct nfsopt	nfsopt_defaults;

const struct nfsopt	*nfsopt_of(const struct backend *);
int	nfsopt_check(const struct backend_opts *, char *);

#endif /* LD_NFSOPT_H */
