/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * guest: a run whose target says kernel = uml, measured inside a
 * User-Mode Linux guest.  guest_main() writes the guest's init script and
 * settings into the run directory target_setup() made, boots the UML
 * kernel with the host's root read-only, the image as its disk (ubd0)
 * and the run and output directories as its only writable host paths,
 * waits for it, and returns the exit status of the largedir that ran
 * inside.
 */

#ifndef LD_GUEST_H
#define LD_GUEST_H

#include "settings/config.h"
#include "target/target.h"

int	guest_main(const struct target *, const struct config *, const char *,
	    int, char **);

#endif /* LD_GUEST_H */
