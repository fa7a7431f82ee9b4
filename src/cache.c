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
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "probe.h"
#include "util.h"

#define WS		" \t\n"
#define NUMLEN		32	/* longer than any int64_t in decimal */

static int	mkpath(char *, size_t, const char *, const char *);
static const char *token(const char *, int, size_t *);
static int	field(const char *, int, int64_t *);
static int	read_fields(const char *, int, int64_t *, int, int64_t *);
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
 * Write 'root' followed by the relative path 'rel' into 'buf' of 'len'
 * bytes, with exactly one slash between them.  Return 0, or -1 with
 * errno ENAMETOOLONG.
 */
static int
mkpath(char *buf, size_t len, const char *root, const char *rel)
{
	size_t	n = strlen(root);
	int	r;

	if (n > 0 && root[n - 1] == '/')
		n--;
	r = snprintf(buf, len, "%.*s/%s", (int)n, root, rel);
	if (r < 0 || (size_t)r >= len) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return 0;
}

/*
 * Return the 'k'th (from 1) whitespace-separated token of 'line' and
 * store its length in '*n', or return NULL if there is no such token.
 */
static const char *
token(const char *line, int k, size_t *n)
{
	for (;;) {
		line += strspn(line, WS);
		*n = strcspn(line, WS);
		if (*n == 0)
			return NULL;
		if (--k == 0)
			return line;
		line += *n;
	}
}

/*
 * Store in '*v' the 'k'th (from 1) whitespace-separated field of 'line',
 * which must be a non-negative decimal number.  Return 0, or -1 with
 * errno EINVAL if there is no such field or it is not a number.
 */
static int
field(const char *line, int k, int64_t *v)
{
	char		 num[NUMLEN];
	const char	*p, *errstr;
	size_t		 n;
	long long	 x;

	if ((p = token(line, k, &n)) == NULL || n >= sizeof(num)) {
		errno = EINVAL;
		return -1;
	}
	memcpy(num, p, n);
	num[n] = '\0';
	x = parse_num(num, 0, LLONG_MAX, &errstr);
	if (errstr != NULL) {
		errno = EINVAL;
		return -1;
	}
	*v = x;
	return 0;
}


/*
 * Store fields 'k1' and, if 'v2' is not NULL, 'k2' of the first line of
 * the file 'path' in '*v1' and '*v2'.  Both are left alone unless both
 * parse.  Return 0, or -1 with errno set.
 */
static int
read_fields(const char *path, int k1, int64_t *v1, int k2, int64_t *v2)
{
	char	line[512];
	int64_t	a, b = 0;

	if (probe_read_line(path, line, sizeof(line)) == -1)
		return -1;
	if (field(line, k1, &a) == -1)
		return -1;
	if (v2 != NULL && field(line, k2, &b) == -1)
		return -1;
	*v1 = a;
	if (v2 != NULL)
		*v2 = b;
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
	FILE		*fp;
	char		*line = NULL;
	const char	*name;
	size_t		 cap = 0, n;
	int64_t		 v;
	bool		 first = true;

	if ((fp = fopen(path, "r")) == NULL)
		return;
	while (getline(&line, &cap, fp) != -1) {
		if (first) {
			first = false;
			if (strncmp(line, "slabinfo - version: 2.",
			    strlen("slabinfo - version: 2.")) != 0)
				break;
			continue;
		}
		if (line[0] == '#')
			continue;
		if ((name = token(line, 1, &n)) == NULL ||
		    field(line, 2, &v) == -1)
			continue;
		if (n == strlen("dentry") && strncmp(name, "dentry", n) == 0)
			out->dentry_objs = v;
		else if (slab != NULL && n == strlen(slab) &&
		    strncmp(name, slab, n) == 0)
			out->inode_objs = v;
	}
	free(line);
	(void)fclose(fp);
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
	char		path[PATH_MAX], rel[64];
	uint64_t	kib;

	out->nr_dentry = out->nr_unused = -1;
	out->nr_inodes = -1;
	out->dentry_objs = out->inode_objs = -1;
	out->mem_available_kib = -1;
	out->sectors_read = out->sectors_written = -1;

	if (mkpath(path, sizeof(path), root, "proc/sys/fs/dentry-state")
	    == -1)
		return -1;
	if (read_fields(path, 1, &out->nr_dentry, 2, &out->nr_unused) == -1)
		return -1;

	if (mkpath(path, sizeof(path), root, "proc/sys/fs/inode-nr") == 0)
		(void)read_fields(path, 1, &out->nr_inodes, 0, NULL);
	if (mkpath(path, sizeof(path), root, "proc/slabinfo") == 0)
		read_slabinfo(path, slab, out);
	if (mkpath(path, sizeof(path), root, "proc/meminfo") == 0 &&
	    probe_meminfo(path, "MemAvailable", &kib) == 0 &&
	    kib <= INT64_MAX)
		out->mem_available_kib = (int64_t)kib;
	if (major != 0) {
		(void)snprintf(rel, sizeof(rel), "sys/dev/block/%u:%u/stat",
		    major, minor);
		if (mkpath(path, sizeof(path), root, rel) == 0)
			(void)read_fields(path, 3, &out->sectors_read,
			    7, &out->sectors_written);
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
