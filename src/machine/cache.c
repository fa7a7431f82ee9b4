/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * cache: read the dentry and inode cache counters (/proc/sys/fs), the
 * slab allocator's active objects for "dentry" and the filesystem's inode
 * cache (/proc/slabinfo, readable by root only), MemAvailable and the
 * sectors read and written by the target's block device
 * (/sys/dev/block/MAJ:MIN/stat).  main reads them before and after each
 * phase; cache_diff() turns two readings into the phase's I/O.
 *
 * Only dentry-state is required.  Every other source is optional: a
 * missing, unreadable or malformed file leaves its fields at -1 and is
 * not an error, so an unprivileged run still gets what it can.
 */

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "machine/cache.h"
#include "machine/sysfile.h"

#define SLABINFO_V2	"slabinfo - version: 2."

/* What read_slabinfo() looks for, and where it puts it. */
struct slab_scan {
	const char		*slab;
	struct cache_state	*out;
	bool			 first;
};

static int	read_fields(const char *, int, int64_t *, int, int64_t *);
static int	slab_line(void *, char *);
static void	read_slabinfo(const char *, const char *,
		    struct cache_state *);

/* The inode cache slab of each filesystem type; see cache_inode_slab(). */
static const struct cache_slab {
	const char	*fstype;
	const char	*slab;
} slabs[] = {
	/* largedir's kernel serves ext2 and ext3 with the ext4 driver. */
	{ "ext2",	"ext4_inode_cache" },
	{ "ext3",	"ext4_inode_cache" },
	{ "ext4",	"ext4_inode_cache" },
	{ "xfs",	"xfs_inode" },
	{ "btrfs",	"btrfs_inode" },
	{ "tmpfs",	"shmem_inode_cache" },
	{ "nfs",	"nfs_inode_cache" },
	{ "nfs4",	"nfs_inode_cache" },
	{ "reiserfs",	"reiser_inode_cache" },
	{ "f2fs",	"f2fs_inode_cache" },
	{ "jfs",	"jfs_ip" },
};

/*
 * Store fields 'k1' and, if 'v2' is not NULL, 'k2' of the first line of
 * the file 'path' in '*v1' and '*v2'.  Both are left alone unless both
 * parse.  Return 0, or -1 with errno set.
 */
static int
read_fields(const char *path, int k1, int64_t *v1, int k2, int64_t *v2)
{
	char		line[512];
	uint64_t	a, b = 0;

	if (sysfile_line(path, line, sizeof(line)) == -1)
		return -1;
	if (sysfile_field_u64(line, k1, &a) == -1)
		return -1;
	if (v2 != NULL && sysfile_field_u64(line, k2, &b) == -1)
		return -1;
	*v1 = (int64_t)a;
	if (v2 != NULL)
		*v2 = (int64_t)b;
	return 0;
}

/* sysfile_lines() callback of read_slabinfo(): "name active_objs ...". */
static int
slab_line(void *arg, char *line)
{
	struct slab_scan	*s = arg;
	const char		*name;
	size_t			 n;
	uint64_t		 v;

	if (s->first) {
		s->first = false;
		return strncmp(line, SLABINFO_V2, strlen(SLABINFO_V2)) == 0 ?
		    0 : 1;
	}
	if (line[0] == '#')
		return 0;
	if ((name = sysfile_token(line, 1, &n)) == NULL ||
	    sysfile_field_u64(line, 2, &v) == -1)
		return 0;
	if (n == strlen("dentry") && strncmp(name, "dentry", n) == 0)
		s->out->dentry_objs = (int64_t)v;
	else if (s->slab != NULL && n == strlen(s->slab) &&
	    strncmp(name, s->slab, n) == 0)
		s->out->inode_objs = (int64_t)v;
	return 0;
}

/*
 * Fill 'out->dentry_objs' and, if 'slab' is not NULL, 'out->inode_objs'
 * from the slabinfo file 'path' (format 2.x: "name active_objs ...").
 * Fields stay -1 when the file cannot be read (EACCES without root), has
 * another format, or lacks the cache.
 */
static void
read_slabinfo(const char *path, const char *slab, struct cache_state *out)
{
	struct slab_scan	s;

	s.slab = slab;
	s.out = out;
	s.first = true;
	(void)sysfile_lines(path, slab_line, &s);
}

/*
 * Return the name of the slab cache that holds the in-memory inodes of
 * filesystem type 'fstype' (as in /proc/self/mountinfo: "ext4", "nfs4",
 * "fuse.sshfs"), or NULL if it is NULL or unknown.  The string is static.
 * ext2 and ext3 map to ext4's cache because largedir's kernel serves
 * them with the ext4 driver; any "fuse*" type maps to "fuse_inode".
 */
const char *
cache_inode_slab(const char *fstype)
{
	size_t	i;

	if (fstype == NULL)
		return NULL;
	if (strncmp(fstype, "fuse", strlen("fuse")) == 0)
		return "fuse_inode";
	for (i = 0; i < sizeof(slabs) / sizeof(slabs[0]); i++)
		if (strcmp(fstype, slabs[i].fstype) == 0)
			return slabs[i].slab;
	return NULL;
}

/*
 * Read the cache state below the filesystem root 'root' ("/" on a live
 * system) into '*out': every path is 'root' + "/proc/..." or
 * 'root' + "/sys/...".  'slab' names the inode cache to count (see
 * cache_inode_slab()) or is NULL.  'major' and 'minor' give the block
 * device whose sectors are counted; major 0 (tmpfs, nfs) means none.
 * Every field that cannot be read is -1.  Return 0 if at least
 * dentry-state was read, else -1 with errno set (ENOENT, EACCES, EINVAL
 * for a malformed file, ENAMETOOLONG).
 */
int
cache_read(const char *root, const char *slab, unsigned major,
    unsigned minor, struct cache_state *out)
{
	char		*path, rel[64];
	uint64_t	 kib;
	int		 r, saved;

	out->nr_dentry = out->nr_unused = -1;
	out->nr_inodes = -1;
	out->dentry_objs = out->inode_objs = -1;
	out->mem_available_kib = -1;
	out->sectors_read = out->sectors_written = -1;

	path = sysfile_path(root, "proc/sys/fs/dentry-state");
	r = read_fields(path, 1, &out->nr_dentry, 2, &out->nr_unused);
	saved = errno;
	free(path);
	if (r == -1) {
		errno = saved;
		return -1;
	}

	path = sysfile_path(root, "proc/sys/fs/inode-nr");
	(void)read_fields(path, 1, &out->nr_inodes, 0, NULL);
	free(path);
	path = sysfile_path(root, "proc/slabinfo");
	read_slabinfo(path, slab, out);
	free(path);
	path = sysfile_path(root, "proc/meminfo");
	if (sysfile_key_u64(path, "MemAvailable", &kib) == 0)
		out->mem_available_kib = (int64_t)kib;
	free(path);
	if (major != 0) {
		(void)snprintf(rel, sizeof(rel), "sys/dev/block/%u:%u/stat",
		    major, minor);
		path = sysfile_path(root, rel);
		(void)read_fields(path, 3, &out->sectors_read,
		    7, &out->sectors_written);
		free(path);
	}
	return 0;
}

/*
 * Store in '*sectors_read' and '*sectors_written' the sectors the block
 * device read and wrote between the readings 'before' and 'after'.
 * Each is -1 if either reading lacks it or the counter went backwards
 * (another device, or the device was re-created).
 */
void
cache_diff(const struct cache_state *before, const struct cache_state *after,
    int64_t *sectors_read, int64_t *sectors_written)
{
	*sectors_read = -1;
	*sectors_written = -1;
	if (before->sectors_read != -1 && after->sectors_read != -1 &&
	    after->sectors_read >= before->sectors_read)
		*sectors_read = after->sectors_read - before->sectors_read;
	if (before->sectors_written != -1 && after->sectors_written != -1 &&
	    after->sectors_written >= before->sectors_written)
		*sectors_written = after->sectors_written -
		    before->sectors_written;
}
