/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * target: the filesystem a run measures, set up by largedir itself and
 * torn down on every way out.
 *
 * A target comes from a config file (configs/NAME.conf, read by
 * config_load() and checked by target_conf.c).  It is one of:
 *	- an image: a sparse file largedir creates in its scratch directory,
 *	  attached to a free loop device with direct I/O (LOOP_CTL_GET_FREE,
 *	  LOOP_CONFIGURE), given a filesystem with the config's mkfs command
 *	  (fork + execvp, never a shell), and mounted on a private mount point;
 *	- a device: a block device the config names, which gets mkfs only if
 *	  it is not mounted, not held open and carries no filesystem or
 *	  partition signature (libblkid), unless the config says wipe = yes;
 *	- a path: a directory that is already mounted (NFS, vxfs, a real
 *	  disk): nothing is set up, largedir only measures there;
 *	- fstype tmpfs without mkfs: a tmpfs mounted with the config's
 *	  options.
 * Everything largedir makes for a target lives in one run directory
 * under the scratch directory (--scratch, default /var/tmp/largedir),
 * marked like a work directory (host, pid, its own inode), so that
 * target_sweep() (largedir --cleanup) can undo what a killed run left:
 * unmount its mount point, detach the loop device backed by its image,
 * delete the image, and nothing else.  The log of a failed mkfs is kept
 * there (with the marker) for a person to read; --cleanup removes it.
 *
 * target_setup() refuses an image the scratch filesystem has no room
 * for, passes a signal sig.c catches on to mkfs and stops, and reads
 * back what it mounted (target_mount_check(), target_mount.c).
 */

#ifndef LD_TARGET_H
#define LD_TARGET_H

#include <stdbool.h>
#include <stdint.h>

#include "base/kv.h"
#include "machine/mountinfo.h"
#include "target/target_conf.h"

#define TARGET_SCRATCH	"/var/tmp/largedir"
#define TARGET_PREFIX	"target."		/* run directories */
#define TARGET_MARKER	".largedir-target"
#define TARGET_MAGIC	"largedir target directory"

/* A target while it is set up. */
struct target {
	struct target_conf	 conf;
	char			*scratch;	/* scratch directory */
	char			*rundir;	/* scratch/target.XXXXXX */
	char			*image;		/* rundir/image, or NULL */
	char			*loopdev;	/* /dev/loopN, or NULL */
	char			*mnt;		/* rundir/mnt, or conf.path */
	char			*mkfs_cmd;	/* as run, for the metadata */
	bool			 mounted;
	bool			 direct_io;	/* the loop device has it */
	bool			 keep_log;	/* mkfs failed: keep mkfs.log */
	bool			 locked;	/* lockfd holds the marker */
	int			 lockfd;	/* locked while the run lives */
};

int	target_setup(struct target *, const struct target_conf *,
	    const char *, char *);
int	target_teardown(struct target *, char *);
bool	target_can_remount(const struct target *, const char **);
int	target_remount(struct target *, char *);
void	target_meta(const struct target *, struct kvlist *);
/* For target_sweep.c: the steps of a teardown. */
int	target_is_mounted(const char *);
int	target_umount(const char *, bool *);
int	target_clean_rundir(const char *, bool);

/* What target_sweep() did with one run directory. */
struct target_report {
	const char	*path;		/* the run directory */
	bool		 removed;	/* all of it is gone */
	bool		 unmounted;	/* its mount point was mounted */
	const char	*loopdev;	/* a loop device it detached, or NULL */
	const char	*why;		/* why it was kept, or NULL */
};

int	target_sweep(const char *, void (*)(void *,
	    const struct target_report *), void *, char *);

#endif /* LD_TARGET_H */
