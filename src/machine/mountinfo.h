/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * mountinfo: the one parser of /proc/self/mountinfo (proc(5)), and the
 * lookups probe, target and memcg make in it: the mounts of a device,
 * the mount that holds a path, what is mounted on a directory, and the
 * cgroup hierarchies.
 *
 * A line reads
 *
 *	36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw
 *	(1)(2)(3)   (4)   (5)      (6)      (7)   (8) (9)    (10)    (11)
 *
 * mountinfo_load() reads a whole file (any path, so tests can use
 * fixtures) into a table, one entry per well-formed line in file order;
 * lines of another shape are counted and skipped.  The kernel writes a
 * space, tab, newline and backslash in the root, the mount point and the
 * source as \040, \011, \012 and \134; the entries have them decoded.
 */

#ifndef LD_MOUNTINFO_H
#define LD_MOUNTINFO_H

#include <stdbool.h>
#include <stddef.h>

#define MOUNTINFO_SELF	"/proc/self/mountinfo"

/* One line; the strings point into 'line'. */
struct mountinfo_entry {
	unsigned	 id;		/* (1) mount ID */
	unsigned	 parent;	/* (2) ID of the parent mount */
	unsigned	 major, minor;	/* (3) st_dev of the filesystem */
	char		*root;		/* (4) the mount's root in the fs */
	char		*mountpoint;	/* (5) */
	char		*mount_opts;	/* (6) per-mount options: rw,noatime */
	char		*optional;	/* (7) "shared:1 master:2", or "" */
	char		*fstype;	/* (9) ext4, nfs4, fuse.sshfs */
	char		*source;	/* (10) /dev/loop0, srv:/export */
	char		*super_opts;	/* (11) superblock options */
	char		*line;		/* the buffer the strings are in */
};

/* A whole file; filled by mountinfo_load(), freed by mountinfo_free(). */
struct mountinfo {
	struct mountinfo_entry	*v;	/* the well-formed lines, in order */
	size_t			 n;
	size_t			 cap;
	size_t			 bad;	/* lines of another shape, skipped */
};

int	mountinfo_parse(char *, struct mountinfo_entry *);
int	mountinfo_load(const char *, struct mountinfo *);
void	mountinfo_free(struct mountinfo *);
void	mountinfo_unescape(char *);

const struct mountinfo_entry *
	mountinfo_by_dev(const struct mountinfo *, unsigned, unsigned);
const struct mountinfo_entry *
	mountinfo_holding(const struct mountinfo *, unsigned, unsigned,
	    const char *);
const struct mountinfo_entry *
	mountinfo_covering(const struct mountinfo *, const char *);
const struct mountinfo_entry *
	mountinfo_at(const struct mountinfo *, const char *);
bool	mountinfo_is_cgroup(const struct mountinfo_entry *, const char *);

#endif /* LD_MOUNTINFO_H */
