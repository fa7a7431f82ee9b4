/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * probe: describe the machine and the filesystem under test, so every
 * result carries the setup it was measured on.
 *
 * largedir.c calls probe_system() and probe_target() once per run and
 * stores the key/value pairs in the run's metadata.  Files are read with
 * sysfile.c and mountinfo.c; what is read from cpuinfo, mountinfo and
 * filesystems(5) is interpreted here, and those functions take the
 * file's path as a parameter so the unit tests can feed them fixtures
 * from tests/data/.  Nothing here prints or exits: a source that cannot
 * be read is skipped, since a missing clock source name must never cost
 * a benchmark run.
 *
 * The mount that holds a path is found in /proc/self/mountinfo by device
 * number, and among the lines with that device (bind mounts) by the
 * longest mount point that is a whole-component prefix of the path
 * (mountinfo_holding()).  Strings handed to callers are always
 * allocated copies.
 */

#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <sys/utsname.h>

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <gnu/libc-version.h>
#endif

#include "base/kv.h"
#include "base/util.h"
#include "machine/damon.h"
#include "machine/mountinfo.h"
#include "machine/probe.h"
#include "machine/sysfile.h"

#define SYSFS_FS	"/sys/fs"
#define SYSFS_BLOCK	"/sys/dev/block"
#define PROC_CPUINFO	"/proc/cpuinfo"
#define PROC_MEMINFO	"/proc/meminfo"
#define CLOCKSOURCE	\
	"/sys/devices/system/clocksource/clocksource0/current_clocksource"

#if defined(__clang__)
#define COMPILER	"clang " __VERSION__
#elif defined(__GNUC__)
#define COMPILER	"gcc " __VERSION__
#elif defined(__VERSION__)
#define COMPILER	__VERSION__
#endif

/* statfs(2) f_type values of filesystems a benchmark may meet. */
static const struct {
	unsigned long	 magic;
	const char	*name;
} fs_magics[] = {
	{ 0xEF53,	"ext2/ext3/ext4" },
	{ 0x58465342,	"xfs" },
	{ 0x9123683E,	"btrfs" },
	{ 0xF2F52010,	"f2fs" },
	{ 0xCA451A4E,	"bcachefs" },
	{ 0x2FC12FC1,	"zfs" },
	{ 0x52654973,	"reiserfs" },
	{ 0x3153464A,	"jfs" },
	{ 0xA501FCF5,	"vxfs" },
	{ 0x01021994,	"tmpfs" },
	{ 0x6969,	"nfs" },
	{ 0xFF534D42,	"cifs" },
	{ 0x00C36400,	"ceph" },
	{ 0x65735546,	"fuse" },
	{ 0x794C7630,	"overlay" },
	{ 0x2011BAB0,	"exfat" },
};

/* cpuinfo keys naming the CPU, best first (x86, arm, arm, mips, riscv). */
static const char *cpu_keys[] = {
	"model name", "Model", "Hardware", "cpu model", "uarch", "cpu"
};

static bool	 ext4_serves(const char *, const char *);
static char	*driver_of(const char *, const char *, const char *);
static int	 mount_take(struct probe_mount *,
		    const struct mountinfo_entry *);
static int	 cpu_line(void *, char *);
static int	 fs_line(void *, char *);
static const char *
		 magic_name(unsigned long);
static void	 block_queue(unsigned, unsigned, struct kvlist *);
static int	 block_line(unsigned, unsigned, const char *, char *, size_t);
static void	 block_disk(unsigned, unsigned, const char *, struct kvlist *);

/* ===== Mounts ===== */

/*
 * Is the ext2/ext3 volume 'source' served by the ext4 driver?  That
 * driver lists each volume it mounts under 'sysfs_fs'/ext4/<device>.
 */
static bool
ext4_serves(const char *source, const char *sysfs_fs)
{
	struct stat	 st;
	char		*real = NULL, *path;
	const char	*name;
	bool		 yes;

	/* /dev/mapper/vg-lv and /dev/disk/by-* links name a dm-N or sdXN. */
	if (source[0] == '/')
		real = realpath(source, NULL);
	name = strrchr(real != NULL ? real : source, '/');
	name = name != NULL ? name + 1 : (real != NULL ? real : source);
	if (*name == '\0' || strcmp(name, ".") == 0 ||
	    strcmp(name, "..") == 0) {
		free(real);
		return false;
	}
	path = xasprintf("%s/ext4/%s", sysfs_fs, name);
	yes = stat(path, &st) == 0 && S_ISDIR(st.st_mode);
	free(path);
	free(real);
	return yes;
}

/* The kernel driver behind 'fstype' on 'source', as a new string. */
static char *
driver_of(const char *fstype, const char *source, const char *sysfs_fs)
{
	if ((strcmp(fstype, "ext2") == 0 || strcmp(fstype, "ext3") == 0) &&
	    ext4_serves(source, sysfs_fs))
		return xstrdup("ext4");
	if (strcmp(fstype, "fuse") == 0 || strcmp(fstype, "fuseblk") == 0 ||
	    strncmp(fstype, "fuse.", 5) == 0)
		return xstrdup("fuse");
	if (strcmp(fstype, "nfs4") == 0)
		return xstrdup("nfs");
	return xstrdup(fstype);
}

/*
 * Fill 'out' with copies of the fields of 'e' and the driver serving
 * it.  Return 0, or -1 with errno ENOENT if 'e' is NULL.
 */
static int
mount_take(struct probe_mount *out, const struct mountinfo_entry *e)
{
	if (e == NULL) {
		errno = ENOENT;
		return -1;
	}
	out->major = e->major;
	out->minor = e->minor;
	out->root = xstrdup(e->root);
	out->mountpoint = xstrdup(e->mountpoint);
	out->mount_opts = xstrdup(e->mount_opts);
	out->fstype = xstrdup(e->fstype);
	out->source = xstrdup(e->source);
	out->super_opts = xstrdup(e->super_opts);
	out->driver = driver_of(e->fstype, e->source, SYSFS_FS);
	return 0;
}

/*
 * Find, in the mountinfo(5)-format file 'mountinfo_path', the mount of the
 * filesystem with device number 'major':'minor' that holds 'target_path'
 * (absolute and canonical, or NULL): among the lines with that device,
 * the one whose mount point is the longest whole-component prefix of
 * 'target_path', or the last such line if none is a prefix (see
 * mountinfo_holding()).  Fill 'out' with unescaped copies of its fields
 * and the driver serving it.  Return 0, or -1 with errno ENOENT if no
 * line has that device, or the errno of reading.  'out' is zeroed first
 * and left empty on error; on success the caller frees it with
 * probe_mount_free().
 */
int
probe_mountinfo(const char *mountinfo_path, unsigned major, unsigned minor,
    const char *target_path, struct probe_mount *out)
{
	struct mountinfo	 mi;
	int			 r, saved;

	memset(out, 0, sizeof(*out));
	if (mountinfo_load(mountinfo_path, &mi) == -1)
		return -1;
	r = mount_take(out, mountinfo_holding(&mi, major, minor,
	    target_path));
	saved = errno;
	mountinfo_free(&mi);
	errno = saved;
	return r;
}

/*
 * Describe the mount holding 'path' into 'out': resolve it with
 * realpath(3), stat(2) it and look its device up in /proc/self/mountinfo.
 * Where the device is not listed (btrfs subvolumes report their own
 * st_dev), fall back to the mount whose mount point covers the path.
 * Return 0, or -1 with the errno of realpath, stat or reading mountinfo,
 * or ENOENT.  On success the caller frees 'out' with probe_mount_free();
 * on error it is left zeroed.
 */
int
probe_mount(const char *path, struct probe_mount *out)
{
	const struct mountinfo_entry	*e;
	struct mountinfo		 mi;
	struct stat			 st;
	char				*real;
	int				 r, saved;

	memset(out, 0, sizeof(*out));
	if ((real = realpath(path, NULL)) == NULL)
		return -1;
	if (stat(real, &st) == -1 || mountinfo_load(MOUNTINFO_SELF,
	    &mi) == -1) {
		saved = errno;
		free(real);
		errno = saved;
		return -1;
	}
	e = mountinfo_holding(&mi, major(st.st_dev), minor(st.st_dev), real);
	if (e == NULL)
		e = mountinfo_covering(&mi, real);
	r = mount_take(out, e);
	saved = errno;
	mountinfo_free(&mi);
	free(real);
	errno = saved;
	return r;
}

/* Free the strings of 'm' and zero it; safe on a zeroed struct. */
void
probe_mount_free(struct probe_mount *m)
{
	free(m->root);
	free(m->mountpoint);
	free(m->mount_opts);
	free(m->fstype);
	free(m->source);
	free(m->super_opts);
	free(m->driver);
	memset(m, 0, sizeof(*m));
}

/* ===== /proc readers ===== */

/* What probe_cpu_model() has found so far. */
struct cpu_scan {
	char	*best, *impl, *part;
	size_t	 rank;		/* of 'best' in cpu_keys; all: none yet */
};

/* sysfile_lines() callback of probe_cpu_model(); stops at the best key. */
static int
cpu_line(void *arg, char *line)
{
	struct cpu_scan	*c = arg;
	char		*key, *val, *colon;
	size_t		 i;

	if ((colon = strchr(line, ':')) == NULL)
		return 0;
	*colon = '\0';
	key = sysfile_trim(line);
	if (*(val = sysfile_trim(colon + 1)) == '\0')
		return 0;
	for (i = 0; i < c->rank; i++)
		if (strcmp(key, cpu_keys[i]) == 0)
			break;
	if (i < c->rank) {
		free(c->best);
		c->best = xstrdup(val);
		c->rank = i;
	} else if (c->impl == NULL && strcmp(key, "CPU implementer") == 0)
		c->impl = xstrdup(val);
	else if (c->part == NULL && strcmp(key, "CPU part") == 0)
		c->part = xstrdup(val);
	return c->rank == 0 ? 1 : 0;
}

/*
 * Write the CPU's model name from the cpuinfo file 'cpuinfo_path' into
 * 'buf' of 'len' bytes, trimmed and truncated to fit: the first "model
 * name" (x86), else "Model", "Hardware", "cpu model", "uarch" or "cpu"
 * (arm, mips, riscv, powerpc), else "ARM implementer 0x41 part 0xd0c"
 * from the "CPU implementer" and "CPU part" lines.  Return 0, or -1 with
 * errno ENOENT if the file names no model, EINVAL if 'len' is 0, or the
 * errno of reading.
 */
int
probe_cpu_model(const char *cpuinfo_path, char *buf, size_t len)
{
	struct cpu_scan	 c;
	int		 r = 0, saved = 0;

	if (len == 0) {
		errno = EINVAL;
		return -1;
	}
	buf[0] = '\0';
	memset(&c, 0, sizeof(c));
	c.rank = sizeof(cpu_keys) / sizeof(cpu_keys[0]);
	if (sysfile_lines(cpuinfo_path, cpu_line, &c) == -1) {
		saved = errno;
		r = -1;
	} else if (c.best != NULL)
		(void)snprintf(buf, len, "%s", c.best);
	else if (c.impl != NULL && c.part != NULL)
		(void)snprintf(buf, len, "ARM implementer %s part %s", c.impl,
		    c.part);
	else {
		saved = ENOENT;
		r = -1;
	}
	free(c.best);
	free(c.impl);
	free(c.part);
	if (r == -1)
		errno = saved;
	return r;
}

/* What probe_fs_known() looks for. */
struct fs_scan {
	const char	*fstype;
	bool		 known;
};

/* sysfile_lines() callback of probe_fs_known(): "nodev\tsysfs". */
static int
fs_line(void *arg, char *line)
{
	struct fs_scan	*f = arg;
	const char	*name;

	name = strrchr(line, '\t') != NULL ? strrchr(line, '\t') + 1 : line;
	f->known = strcmp(name, f->fstype) == 0;
	return f->known ? 1 : 0;
}

/*
 * Whether the kernel can mount filesystems of type 'fstype' ("ext4"), as
 * the filesystems(5) list 'path' (PROBE_FILESYSTEMS on a live system)
 * tells: a line that is the name, or ends in a tab and the name
 * ("nodev\ttmpfs").  Return 1 if it is listed, 0 if not, or -1 with the
 * errno of reading (a caller that cannot tell may go on and let mount(2)
 * decide).
 */
int
probe_fs_known(const char *path, const char *fstype)
{
	struct fs_scan	f;

	f.fstype = fstype;
	f.known = false;
	if (sysfile_lines(path, fs_line, &f) == -1)
		return -1;
	return f.known ? 1 : 0;
}

/*
 * Store the 1-minute load average in '*load1'.  Return 0, or -1 with
 * errno set (EIO if getloadavg(3) gave no reason).
 */
int
probe_loadavg(double *load1)
{
	double	 l[1];

	errno = 0;
	if (getloadavg(l, 1) != 1) {
		if (errno == 0)
			errno = EIO;
		return -1;
	}
	*load1 = l[0];
	return 0;
}

/* ===== Metadata ===== */

/*
 * Append to 'kv' what the machine is: host, kernel, kernel_version,
 * machine, cpu_model, cpus_online, mem_total_kib, mem_available_kib,
 * page_size, clocksource, damon (only where DAMON pages memory out on
 * its own), compiler and libc, in that order.  A key whose
 * source cannot be read is left out.  'kv' owns the new strings.
 */
void
probe_system(struct kvlist *kv)
{
	struct utsname	 uts;
	char		 buf[256], host[HOST_NAME_MAX + 1];
	uint64_t	 kib;
	long		 n;

	if (gethostname(host, sizeof(host)) == 0) {
		host[sizeof(host) - 1] = '\0';
		kv_set(kv, "host", "%s", host);
	}
	if (uname(&uts) == 0) {
		kv_set(kv, "kernel", "%s %s%s", uts.sysname, uts.release,
		    probe_is_uml(PROC_CPUINFO) ? " (User-Mode Linux)" : "");
		kv_set(kv, "kernel_version", "%s", uts.version);
		kv_set(kv, "machine", "%s", uts.machine);
	}
	if (probe_cpu_model(PROC_CPUINFO, buf, sizeof(buf)) == 0)
		kv_set(kv, "cpu_model", "%s", buf);
	if ((n = sysconf(_SC_NPROCESSORS_ONLN)) > 0)
		kv_set(kv, "cpus_online", "%ld", n);
	if (sysfile_key_u64(PROC_MEMINFO, "MemTotal", &kib) == 0)
		kv_set(kv, "mem_total_kib", "%" PRIu64, kib);
	if (sysfile_key_u64(PROC_MEMINFO, "MemAvailable",
	    &kib) == 0)
		kv_set(kv, "mem_available_kib", "%" PRIu64, kib);
	if ((n = sysconf(_SC_PAGESIZE)) > 0)
		kv_set(kv, "page_size", "%ld", n);
	if (sysfile_line(CLOCKSOURCE, buf, sizeof(buf)) == 0)
		kv_set(kv, "clocksource", "%s", buf);
	if (damon_describe(DAMON_ADMIN, buf, sizeof(buf)) == 0)
		kv_set(kv, "damon", "%s", buf);
#ifdef COMPILER
	kv_set(kv, "compiler", "%s", COMPILER);
#endif
#ifdef __GLIBC__
	kv_set(kv, "libc", "glibc %s", gnu_get_libc_version());
#endif
}

/*
 * Whether the kernel is User-Mode Linux: its cpuinfo file 'cpuinfo_path'
 * says model name "UML" (and vendor_id "User Mode Linux").
 */
bool
probe_is_uml(const char *cpuinfo_path)
{
	char	buf[64];

	return probe_cpu_model(cpuinfo_path, buf, sizeof(buf)) == 0 &&
	    strcmp(buf, "UML") == 0;
}

/* The name of the filesystem with statfs(2) magic 'magic', or NULL. */
static const char *
magic_name(unsigned long magic)
{
	size_t	 i;

	for (i = 0; i < sizeof(fs_magics) / sizeof(fs_magics[0]); i++)
		if (fs_magics[i].magic == magic)
			return fs_magics[i].name;
	return NULL;
}

/*
 * Add the "rotational" and "scheduler" keys of the block device
 * 'major':'minor' to 'kv'.  A partition has no queue of its own: it
 * uses its disk's, one directory up from the partition's sysfs entry.
 */
static void
block_queue(unsigned major, unsigned minor, struct kvlist *kv)
{
	static const char	*names[] = { "rotational", "scheduler" };
	static const char	*dirs[] = { "queue", "../queue" };
	char			 buf[256], *path, *s, *e;
	size_t			 i, j;
	int			 r;

	for (i = 0; i < 2; i++) {
		for (j = 0, r = -1; j < 2 && r == -1; j++) {
			path = xasprintf(SYSFS_BLOCK "/%u:%u/%s/%s", major,
			    minor, dirs[j], names[i]);
			r = sysfile_line(path, buf, sizeof(buf));
			free(path);
		}
		if (r == -1)
			continue;
		s = buf;
		if (i == 1) {
			/* "none [mq-deadline] kyber bfq": the active one. */
			if ((s = strchr(buf, '[')) != NULL &&
			    (e = strchr(s, ']')) != NULL) {
				*e = '\0';
				s++;
			} else if (strchr(buf, ' ') == NULL)
				s = buf;
			else
				continue;
		}
		if (*s != '\0')
			kv_set(kv, names[i], "%s", s);
	}
}

/*
 * The line 'file' of the sysfs directory of block device
 * 'major':'minor', or of its disk when it is a partition, into 'buf'
 * ('len' bytes).  Return 0, or -1 if neither has it.
 */
static int
block_line(unsigned major, unsigned minor, const char *file, char *buf,
    size_t len)
{
	char	*path;
	int	 r;

	path = xasprintf(SYSFS_BLOCK "/%u:%u/%s", major, minor, file);
	r = sysfile_line(path, buf, len);
	free(path);
	if (r == -1) {
		path = xasprintf(SYSFS_BLOCK "/%u:%u/../%s", major, minor,
		    file);
		r = sysfile_line(path, buf, len);
		free(path);
	}
	return r;
}

/*
 * Record under 'key' of 'kv' the disk of block device 'major':'minor' as
 * the kernel names it: its model, or its kind where it has none (a
 * virtio disk: vendor 0x1af4, a virtual machine's), and the mode of its
 * write cache ("write back": an fsync returns once the disk says the
 * data is safe, which a disk without power-loss protection says from
 * its cache).  Nothing if the kernel says neither.
 */
static void
block_disk(unsigned major, unsigned minor, const char *key,
    struct kvlist *kv)
{
	char	model[128] = "", cache[64] = "", vendor[32];

	if (block_line(major, minor, "device/model", model,
	    sizeof(model)) == -1 && block_line(major, minor,
	    "device/vendor", vendor, sizeof(vendor)) == 0)
		(void)snprintf(model, sizeof(model), "%s",
		    strcmp(vendor, "0x1af4") == 0 ? "virtio (a virtual "
		    "machine's disk)" : vendor);
	(void)block_line(major, minor, "queue/write_cache", cache,
	    sizeof(cache));
	if (*model == '\0' && *cache == '\0')
		return;
	kv_set(kv, key, "%s%s%s", *model != '\0' ? model : "a disk",
	    *cache != '\0' ? ", write cache: " : "", cache);
}

/*
 * Record under 'key' of 'kv' what the file 'path' (an image) lies on:
 * "ext4 on /dev/vda (rotational: 1)", the filesystem, its source and the
 * rotational flag of that device's queue, which a loop device does not
 * pass on (it says 1 whatever lies below); and under KEY_disk its disk
 * (block_disk()).  Nothing if it cannot be told.
 */
void
probe_storage(const char *path, const char *key, struct kvlist *kv)
{
	struct kvlist	 q = { 0 };
	struct probe_mount	 m;
	const char		*rot;
	char			*disk;

	if (probe_mount(path, &m) == -1)
		return;
	block_queue(m.major, m.minor, &q);
	rot = kv_get(&q, "rotational");
	kv_set(kv, key, "%s on %s%s%s%s", m.fstype, m.source,
	    rot != NULL ? " (rotational: " : "", rot != NULL ? rot : "",
	    rot != NULL ? ")" : "");
	kv_free(&q);
	disk = xasprintf("%s_disk", key);
	block_disk(m.major, m.minor, disk, kv);
	free(disk);
	probe_mount_free(&m);
}

/*
 * How many more files the filesystem holding 'path' has inodes for:
 * what statvfs(2) says an unprivileged process may use, where the
 * filesystem has a fixed number of inodes (ext2/3/4, tmpfs with
 * nr_inodes, xfs up to its imaxpct); UINT64_MAX where it reports none
 * (btrfs) or statvfs fails.
 */
uint64_t
probe_inodes_free(const char *path)
{
	struct statvfs	svfs;

	if (statvfs(path, &svfs) == -1 || svfs.f_files == 0)
		return UINT64_MAX;
	return (uint64_t)svfs.f_favail;
}

/*
 * Append to 'kv' what the filesystem holding 'path' is: fstype, driver,
 * source, mountpoint, mount_options and super_options from mountinfo
 * (only fstype, from the statfs magic, if that fails), fs_magic,
 * block_size, free_bytes, total_bytes, free_inodes, total_inodes,
 * device ("major:minor"), and for a block device its queue's rotational
 * flag and active I/O scheduler.  Keys that cannot be found are left
 * out.  'kv' owns the new strings.
 */
void
probe_target(const char *path, struct kvlist *kv)
{
	struct probe_mount	 m;
	struct statfs		 sfs;
	struct statvfs		 svfs;
	struct stat		 st, bst;
	char			*dir;
	const char		*name;
	unsigned long		 magic;
	unsigned		 qmajor, qminor;
	bool			 have_mount;

	have_mount = probe_mount(path, &m) == 0;
	if (have_mount) {
		kv_set(kv, "fstype", "%s", m.fstype);
		kv_set(kv, "driver", "%s", m.driver);
		kv_set(kv, "source", "%s", m.source);
		kv_set(kv, "mountpoint", "%s", m.mountpoint);
		kv_set(kv, "mount_options", "%s", m.mount_opts);
		kv_set(kv, "super_options", "%s", m.super_opts);
	}
	if (statfs(path, &sfs) == 0) {
		magic = (unsigned long)sfs.f_type & 0xffffffffUL;
		if (!have_mount && (name = magic_name(magic)) != NULL)
			kv_set(kv, "fstype", "%s", name);
		kv_set(kv, "fs_magic", "0x%lx", magic);
	}
	if (statvfs(path, &svfs) == 0) {
		kv_set(kv, "block_size", "%lu", svfs.f_bsize);
		kv_set(kv, "free_bytes", "%" PRIu64,
		    (uint64_t)svfs.f_bavail * svfs.f_frsize);
		kv_set(kv, "total_bytes", "%" PRIu64,
		    (uint64_t)svfs.f_blocks * svfs.f_frsize);
		kv_set(kv, "free_inodes", "%" PRIu64,
		    (uint64_t)svfs.f_favail);
		kv_set(kv, "total_inodes", "%" PRIu64,
		    (uint64_t)svfs.f_files);
	}
	if (stat(path, &st) == 0) {
		qmajor = major(st.st_dev);
		qminor = minor(st.st_dev);
		kv_set(kv, "device", "%u:%u", qmajor, qminor);
		/* btrfs reports an anonymous st_dev; ask the source. */
		dir = xasprintf(SYSFS_BLOCK "/%u:%u", qmajor, qminor);
		if (access(dir, F_OK) == -1 && have_mount &&
		    m.source[0] == '/' && stat(m.source, &bst) == 0 &&
		    S_ISBLK(bst.st_mode)) {
			qmajor = major(bst.st_rdev);
			qminor = minor(bst.st_rdev);
		}
		free(dir);
		block_queue(qmajor, qminor, kv);
	}
	probe_mount_free(&m);
}
