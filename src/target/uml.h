/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * uml: a target with kernel = uml, measured inside a User-Mode Linux
 * guest.  target_setup() makes the run directory and, for an image, the
 * image file with its filesystem (mkfs on the file: no loop device, no
 * host mount); run/guest.c boots the guest; target_teardown() removes
 * the run directory with the files named here.  uml_check() says whether
 * the UML kernel can run, uml_kill_left() kills a guest a killed run
 * left behind.
 */

#ifndef LD_UML_H
#define LD_UML_H

#include <sys/types.h>

#define UML_DEFAULT	"/usr/bin/linux.uml"
#define UML_SLIRP	"/usr/bin/slirp-fullbolt"
/* What guest.c and the guest leave in the run directory (target.c). */
#define UML_FILES	"init", "guest", "args", "status", "stdout", \
			"stderr", "mount.err", "modprobe.err", "stop", \
			"uml/largedir/pid", "uml/largedir/mconsole"
#define UML_DIRS	"uml/largedir", "uml"

int	uml_check(const char *, char *);
int	uml_release(const char *, char *, size_t, char *);
int	uml_cpus_check(const char *, unsigned, char *);
void	uml_kill_group(pid_t);
void	uml_kill_left(const char *);

#endif /* LD_UML_H */
