/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * uml: a target with kernel = uml, measured inside a User-Mode Linux
 * guest.  target_setup() makes the run directory and, for an image, the
 * image file with its filesystem (mkfs on the file: no loop device, no
 * host mount); uml_main() writes the guest's init script and settings
 * into the run directory, boots the UML kernel with the host's root
 * read-only, the image as its disk (ubd0) and the run and output
 * directories as its only writable host paths, waits for it, and returns
 * the exit status of the largedir that ran inside.  target_teardown()
 * removes the run directory with the files named here.
 */

#ifndef LD_UML_H
#define LD_UML_H

#include <stdbool.h>

#include "config.h"
#include "target.h"

#define UML_DEFAULT	"/usr/bin/linux.uml"
#define UML_SLIRP	"/usr/bin/slirp-fullbolt"
/* What uml.c and the guest leave in the run directory (target.c). */
#define UML_FILES	"init", "guest", "args", "status", "stdout", \
			"stderr", "mount.err", "stop", "uml/largedir/pid", \
			"uml/largedir/mconsole"
#define UML_DIRS	"uml/largedir", "uml"

int	uml_check(const char *, char *);
int	uml_main(const struct target *, const struct config *, const char *,
	    int, char **);
void	uml_kill_left(const char *);

#endif /* LD_UML_H */
