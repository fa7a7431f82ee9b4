/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * target_conf: what a config file says about its target (configs/NAME.conf,
 * read by config_load()): the target keys one by one (target_conf_set(),
 * the same checks whether a key comes from a file or the command line;
 * mount options that would mount anything but a fresh filesystem, such as
 * bind, are refused), then the whole (target_conf_check(): a path, a
 * device or an NFS source, an fstype, a mkfs program that exists, NFS
 * versions that agree with the fstype).  target.c sets up what a checked
 * config describes.
 */

#ifndef LD_TARGET_CONF_H
#define LD_TARGET_CONF_H

#include <stdbool.h>
#include <stdint.h>

/* What a config says about its target (all strings owned, or NULL). */
struct target_conf {
	char		*label;		/* name of the outputs */
	char		*description;	/* a sentence for the page */
	char		*description_de;	/* and in German */
	char		*fstype;	/* ext4, xfs, btrfs, tmpfs, ... */
	char		*mkfs;		/* "mkfs.ext4 -F -N 20000000 ..." */
	char		*mount_options;	/* "noatime,..." (libmount syntax) */
	uint64_t	 image_size;	/* bytes; 0: default */
	char		*path;		/* an existing mount: measure there */
	char		*source;	/* or an NFS export to mount: srv:/x */
	char		*url;		/* or a server a backend speaks to */
	char		*server;	/* what serves source or url: text */
	char		*device;	/* a block device instead of an image */
	bool		 wipe;		/* mkfs on a device with a signature */
	bool		 kernel_uml;	/* kernel = uml: measure in a guest */
	char		*uml;		/* the UML kernel, or NULL: default */
	uint64_t	 uml_grace_ns;	/* past 1.25 x budget; 0: default */
	uint64_t	 uml_mem;	/* the guest's memory; 0: 512 MiB */
	unsigned	 uml_cpus;	/* the guest's CPUs; 0: one */
};

void	target_conf_init(struct target_conf *);
void	target_conf_free(struct target_conf *);
int	target_conf_set(struct target_conf *, const char *, const char *,
	    char *);
int	target_conf_check(const struct target_conf *, const char **,
	    char *);
bool	target_conf_key(const char *);

#endif /* LD_TARGET_CONF_H */
