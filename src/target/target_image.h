/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * target_image: the image of an image target, a sparse file in the run
 * directory attached to a free loop device (loop.c): refused before
 * anything is made unless the scratch filesystem has room for all of it
 * (it is sparse, but mkfs and the run fill it, and a filesystem that
 * runs out under a loop device fails in ways that name neither).  Under
 * kernel = uml the image is not attached: the guest mounts the file.
 * target.c calls it while setting up; the teardown detaches and removes.
 */

#ifndef LD_TARGET_IMAGE_H
#define LD_TARGET_IMAGE_H

#include <stdint.h>

#include "target/target.h"

int	target_image_room(const char *, uint64_t, char *);
int	target_image_make(struct target *, char *);
int	target_image_attach(struct target *, char *);

#endif /* LD_TARGET_IMAGE_H */
