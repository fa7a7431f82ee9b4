/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * posix: the backend of any mounted filesystem (its ops table, posix_ops,
 * is declared in backend.h with the registry).  Here: which of its
 * tables a mount of a given type gets, which its refine op decides from
 * the mount a target is on, for the tests to ask with a mountstats file
 * of their own.
 */

#ifndef LD_POSIX_H
#define LD_POSIX_H

#include "backend/backend.h"
#include "base/kv.h"

const struct backend_ops *posix_mount_ops(const char *, const char *,
	    const char *, struct kvlist *, char *);

#endif /* LD_POSIX_H */
