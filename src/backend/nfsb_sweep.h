/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * nfsb_sweep: largedir cleanup nfs://HOST/EXPORT, the NFS backend's
 * sweep (its ops table's 'sweep').  On a connection of its own it finds
 * the work directories "largedir.XXXXXX" in the export that killed runs
 * left, reads their marker and round record as workdir.c reads a local
 * one, and removes, with REMOVE and RMDIR, the names those runs made:
 * no lock can be held over NFSv3 without NLM, so a run is gone when its
 * pid on its host is (marker_alive()).  What the runs did not make is
 * kept and counted.  The walk is sweep.c's, the directories read with
 * READDIR.
 */

#ifndef LD_NFSB_SWEEP_H
#define LD_NFSB_SWEEP_H

#include "backend/backend.h"

#define NFSB_TIMEOUT_MS	60000	/* a call's, as --nfs-timeout's default */

int	nfsb_sweep(const char *, void (*)(void *,
	    const struct backend_report *), void *, char *);

#endif /* LD_NFSB_SWEEP_H */
