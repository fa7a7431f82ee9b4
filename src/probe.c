/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * probe: describe the machine and the filesystem under test, so every
 * result carries the setup it was measured on.
 *
 * largedir.c calls probe_system() and probe_target() once per run and
 * stores the key/value pairs in the run's metadata.  The parsers of /proc
 * files (mountinfo, cpuinfo, meminfo) take the file's path as a parameter
 * so the unit tests can feed them fixtures from tests/data/.  Nothing here
 * prints or exits: a source that cannot be read is skipped, since a
 * missing clock source name must never cost a benchmark run.
 *
 * The mount that holds a path is found in /proc/self/mountinfo by device
 * number, and among the lines with that device (bind mounts) by the
 * longest mount point that is a whole-component prefix of the path.
 * Strings handed to callers are always allocated copies.
 */

#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <sys/utsname.h>

#include <ctype.h>
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

#include "output.h"
#include "probe.h"
#include "util.h"

#define SYSFS_FS	"/sys/fs"
#define SYSFS_BLOCK	"/sys/dev/block"
#define PROC_MOUNTINFO	"/proc/self/mountinfo"
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

/* The fields of one mountinfo line, pointing into the line's buffer. */
struct mi_line {
	unsigned	 major, minor;
	char		*root;
	char		*mountpoint;
	char		*mount_opts;
	char		*fstype;
	char		*source;
	char		*super_opts;
};

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

static char	*trim(char *);
static void	 unescape(char *);
static int	 parse_line(char *, struct mi_line *);
static long	 prefix_len(const char *, const char *);
static bool	 ext4_serves(const char *, const char *);
static char	*driver_of(const char *, const char *, const char *);
static void	 mount_take(struct probe_mount *, const struct mi_line *);
static int	 mountinfo_scan(const char *, unsigned, unsigned, bool,
		    const char *, struct probe_mount *);
static const char *
		 magic_name(unsigned long);
static void	 block_queue(unsigned, unsigned, struct output_kvlist *);

/* ===== Small helpers ===== */

/* Cut the blanks off both ends of 's' in place; return the new start. */
static char *
trim(char *s)
{
	size_t	 n;

	while (*s != '\0' && isspace((unsigned char)*s))
		s++;
	n = strlen(s);
	while (n > 0 && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	return s;
}

/*
 * Undo the kernel's mangling of mountinfo fields in place: it writes a
 * space, tab, newline and backslash as \040, \011, \012 and \134.  Any
 * other backslash is kept as it is.
 */
static void
unescape(char *s)
{
	char	*d = s;
	int	 c;

	while (*s != '\0') {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			c = (s[1] - '0') << 6 | (s[2] - '0') << 3 |
			    (s[3] - '0');
			if (c != 0) {
				*d++ = (char)c;
				s += 4;
				continue;
			}
		}
		*d++ = *s++;
	}
	*d = '\0';
}

/*
 * Split the mountinfo line 'line' (newline removed) into 'mi'; see
 * proc(5).  Return 0, or -1 if the line does not have that shape.
 */
static int
parse_line(char *line, struct mi_line *mi)
{
	char		*f[6], *p = line, *s, *end;
	unsigned long	 v;
	size_t		 i;

	for (i = 0; i < 6; i++)
		if ((f[i] = strsep(&p, " ")) == NULL || *f[i] == '\0')
			return -1;
	/* Optional fields ("shared:1 master:2"), ended by a lone "-". */
	do {
		if ((s = strsep(&p, " ")) == NULL)
			return -1;
	} while (strcmp(s, "-") != 0);
	if ((mi->fstype = strsep(&p, " ")) == NULL ||
	    (mi->source = strsep(&p, " ")) == NULL ||
	    (mi->super_opts = strsep(&p, " ")) == NULL ||
	    *mi->fstype == '\0')
		return -1;

	errno = 0;
	v = strtoul(f[2], &end, 10);
	if (end == f[2] || *end != ':' || errno != 0 || v > UINT_MAX)
		return -1;
	mi->major = (unsigned)v;
	s = end + 1;
	v = strtoul(s, &end, 10);
	if (end == s || *end != '\0' || errno != 0 || v > UINT_MAX)
		return -1;
	mi->minor = (unsigned)v;

	mi->root = f[3];
	mi->mountpoint = f[4];
	mi->mount_opts = f[5];
	unescape(mi->root);
	unescape(mi->mountpoint);
	unescape(mi->source);
	return 0;
}

/*
 * Return the length of 'mp' if it is a whole-component prefix of 'path'
 * ("/mnt" is one of "/mnt/x" and of "/mnt", not of "/mnt2"), else -1.
 */
static long
prefix_len(const char *mp, const char *path)
{
	size_t	 n;

	if (path == NULL)
		return -1;
	n = strlen(mp);
	if (strncmp(mp, path, n) != 0)
		return -1;
	if (path[n] == '\0' || path[n] == '/' || (n > 0 && mp[n - 1] == '/'))
		return (long)n;
	return -1;
}

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

/* Replace what 'out' holds with copies of the fields of 'mi'. */
static void
mount_take(struct probe_mount *out, const struct mi_line *mi)
{
	probe_mount_free(out);
	out->major = mi->major;
	out->minor = mi->minor;
	out->root = xstrdup(mi->root);
	out->mountpoint = xstrdup(mi->mountpoint);
	out->mount_opts = xstrdup(mi->mount_opts);
	out->fstype = xstrdup(mi->fstype);
	out->source = xstrdup(mi->source);
	out->super_opts = xstrdup(mi->super_opts);
}

/*
 * Scan the mountinfo file 'path' as probe_mountinfo() describes.  With
 * 'anydev' the device number is ignored and only lines whose mount
 * point is a prefix of 'target' count: the mount that covers 'target'.
 */
static int
mountinfo_scan(const char *path, unsigned major, unsigned minor,
    bool anydev, const char *target, struct probe_mount *out)
{
	struct mi_line	 mi;
	FILE		*fp;
	char		*line = NULL;
	size_t		 cap = 0;
	ssize_t		 n;
	long		 best = -2, len;
	int		 saved;

	memset(out, 0, sizeof(*out));
	if ((fp = fopen(path, "r")) == NULL)
		return -1;
	while ((n = getline(&line, &cap, fp)) != -1) {
		if (n > 0 && line[n - 1] == '\n')
			line[n - 1] = '\0';
		if (parse_line(line, &mi) == -1)
			continue;
		if (!anydev && (mi.major != major || mi.minor != minor))
			continue;
		len = prefix_len(mi.mountpoint, target);
		if (anydev && len < 0)
			continue;
		/* ">=": a later line on the same mount point is on top. */
		if (len >= best) {
			best = len;
			mount_take(out, &mi);
		}
	}
	saved = ferror(fp) ? errno : 0;
	free(line);
	(void)fclose(fp);
	if (saved != 0) {
		probe_mount_free(out);
		errno = saved;
		return -1;
	}
	if (out->fstype == NULL) {
		errno = ENOENT;
		return -1;
	}
	out->driver = driver_of(out->fstype, out->source, SYSFS_FS);
	return 0;
}

/*
 * Find, in the mountinfo(5)-format file 'mountinfo_path', the mount of the
 * filesystem with device number 'major':'minor' that holds 'target_path'
 * (absolute and canonical, or NULL): among the lines with that device,
 * the one whose mount point is the longest whole-component prefix of
 * 'target_path', or the last such line if none is a prefix.  Fill 'out'
 * with unescaped copies of its fields and the driver serving it.
 * Return 0, or -1 with errno ENOENT if no line has that device, or the
 * errno of fopen(3) or reading.  'out' is zeroed first and left empty
 * on error; on success the caller frees it with probe_mount_free().
 */
int
probe_mountinfo(const char *mountinfo_path, unsigned major, unsigned minor,
    const char *target_path, struct probe_mount *out)
{
	return mountinfo_scan(mountinfo_path, major, minor, false,
	    target_path, out);
}

/*
 * Describe the mount holding 'path' into 'out': resolve it with
 * realpath(3), stat(2) it and look its device up in /proc/self/mountinfo.
 * Where the device is not listed (btrfs subvolumes report their own
 * st_dev), fall back to the mount whose mount point covers the path.
 * Return 0, or -1 with the errno of realpath, stat or probe_mountinfo().
 * On success the caller frees 'out' with probe_mount_free(); on error
 * it is left zeroed.
 */
int
probe_mount(const char *path, struct probe_mount *out)
{
	struct stat	 st;
	char		*real;
	int		 r;

	memset(out, 0, sizeof(*out));
	if ((real = realpath(path, NULL)) == NULL)
		return -1;
	if (stat(real, &st) == -1) {
		free(real);
		return -1;
	}
	r = mountinfo_scan(PROC_MOUNTINFO, major(st.st_dev), minor(st.st_dev),
	    false, real, out);
	if (r == -1 && errno == ENOENT)
		r = mountinfo_scan(PROC_MOUNTINFO, 0, 0, true, real, out);
	free(real);
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

/*
 * Write the CPU's model name from the cpuinfo file 'cpuinfo_path' into
 * 'buf' of 'len' bytes, trimmed and truncated to fit: the first "model
 * name" (x86), else "Model", "Hardware", "cpu model", "uarch" or "cpu"
 * (arm, mips, riscv, powerpc), else "ARM implementer 0x41 part 0xd0c"
 * from the "CPU implementer" and "CPU part" lines.  Return 0, or -1 with
 * errno ENOENT if the file names no model, EINVAL if 'len' is 0, or the
 * errno of fopen(3).
 */
int
probe_cpu_model(const char *cpuinfo_path, char *buf, size_t len)
{
	FILE	*fp;
	char	*line = NULL, *key, *val, *colon;
	char	*best = NULL, *impl = NULL, *part = NULL;
	size_t	 cap = 0, i, rank;
	int	 r = 0;

	if (len == 0) {
		errno = EINVAL;
		return -1;
	}
	buf[0] = '\0';
	if ((fp = fopen(cpuinfo_path, "r")) == NULL)
		return -1;
	rank = sizeof(cpu_keys) / sizeof(cpu_keys[0]);
	while (rank > 0 && getline(&line, &cap, fp) != -1) {
		if ((colon = strchr(line, ':')) == NULL)
			continue;
		*colon = '\0';
		key = trim(line);
		if (*(val = trim(colon + 1)) == '\0')
			continue;
		for (i = 0; i < rank; i++)
			if (strcmp(key, cpu_keys[i]) == 0)
				break;
		if (i < rank) {
			free(best);
			best = xstrdup(val);
			rank = i;
		} else if (impl == NULL && strcmp(key, "CPU implementer") == 0)
			impl = xstrdup(val);
		else if (part == NULL && strcmp(key, "CPU part") == 0)
			part = xstrdup(val);
	}
	free(line);
	(void)fclose(fp);
	if (best != NULL)
		(void)snprintf(buf, len, "%s", best);
	else if (impl != NULL && part != NULL)
		(void)snprintf(buf, len, "ARM implementer %s part %s", impl,
		    part);
	else {
		errno = ENOENT;
		r = -1;
	}
	free(best);
	free(impl);
	free(part);
	return r;
}

/*
 * Store in '*kib' the number on the "'key': 12345 kB" line of the
 * meminfo(5)-format file 'path' (the unit is optional: HugePages_Total
 * has none).  Return 0, or -1 with errno ENOENT if there is no such
 * key, EINVAL if its value is not a number, or the errno of fopen(3).
 */
int
probe_meminfo(const char *path, const char *key, uint64_t *kib)
{
	FILE		*fp;
	char		*line = NULL, *val, *unit;
	const char	*errstr;
	size_t		 cap = 0, klen = strlen(key);
	long long	 v;
	int		 r = -1, saved = ENOENT;

	if ((fp = fopen(path, "r")) == NULL)
		return -1;
	while (getline(&line, &cap, fp) != -1) {
		if (strncmp(line, key, klen) != 0 || line[klen] != ':')
			continue;
		val = trim(line + klen + 1);
		if ((unit = strchr(val, ' ')) != NULL) {
			if (strcmp(trim(unit), "kB") != 0) {
				saved = EINVAL;
				break;
			}
			*unit = '\0';
		}
		v = parse_num(val, 0, LLONG_MAX, &errstr);
		if (errstr != NULL) {
			saved = EINVAL;
			break;
		}
		*kib = (uint64_t)v;
		r = 0;
		break;
	}
	free(line);
	(void)fclose(fp);
	if (r == -1)
		errno = saved;
	return r;
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
 * Read the first line of the file 'path' (a /proc or /sys file, say) into
 * 'buf' of 'len' bytes, trimmed.  Return 0, or -1 with errno (ENODATA if
 * it is empty).
 */
int
probe_read_line(const char *path, char *buf, size_t len)
{
	FILE	*fp;
	char	*t;
	int	 saved;

	if ((fp = fopen(path, "r")) == NULL)
		return -1;
	if (fgets(buf, len > INT_MAX ? INT_MAX : (int)len, fp) == NULL) {
		saved = ferror(fp) ? errno : ENODATA;
		(void)fclose(fp);
		errno = saved;
		return -1;
	}
	(void)fclose(fp);
	t = trim(buf);
	memmove(buf, t, strlen(t) + 1);
	if (*buf == '\0') {
		errno = ENODATA;
		return -1;
	}
	return 0;
}

/*
 * Append to 'kv' what the machine is: host, kernel, kernel_version,
 * machine, cpu_model, cpus_online, mem_total_kib, mem_available_kib,
 * page_size, clocksource, compiler and libc, in that order.  A key whose
 * source cannot be read is left out.  'kv' owns the new strings.
 */
void
probe_system(struct output_kvlist *kv)
{
	struct utsname	 uts;
	char		 buf[256], host[HOST_NAME_MAX + 1];
	uint64_t	 kib;
	long		 n;

	if (gethostname(host, sizeof(host)) == 0) {
		host[sizeof(host) - 1] = '\0';
		output_kv_set(kv, "host", "%s", host);
	}
	if (uname(&uts) == 0) {
		output_kv_set(kv, "kernel", "%s %s", uts.sysname, uts.release);
		output_kv_set(kv, "kernel_version", "%s", uts.version);
		output_kv_set(kv, "machine", "%s", uts.machine);
	}
	if (probe_cpu_model(PROC_CPUINFO, buf, sizeof(buf)) == 0)
		output_kv_set(kv, "cpu_model", "%s", buf);
	if ((n = sysconf(_SC_NPROCESSORS_ONLN)) > 0)
		output_kv_set(kv, "cpus_online", "%ld", n);
	if (probe_meminfo(PROC_MEMINFO, "MemTotal", &kib) == 0)
		output_kv_set(kv, "mem_total_kib", "%" PRIu64, kib);
	if (probe_meminfo(PROC_MEMINFO, "MemAvailable", &kib) == 0)
		output_kv_set(kv, "mem_available_kib", "%" PRIu64, kib);
	if ((n = sysconf(_SC_PAGESIZE)) > 0)
		output_kv_set(kv, "page_size", "%ld", n);
	if (probe_read_line(CLOCKSOURCE, buf, sizeof(buf)) == 0)
		output_kv_set(kv, "clocksource", "%s", buf);
#ifdef COMPILER
	output_kv_set(kv, "compiler", "%s", COMPILER);
#endif
#ifdef __GLIBC__
	output_kv_set(kv, "libc", "glibc %s", gnu_get_libc_version());
#endif
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
block_queue(unsigned major, unsigned minor, struct output_kvlist *kv)
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
			r = probe_read_line(path, buf, sizeof(buf));
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
			output_kv_set(kv, names[i], "%s", s);
	}
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
probe_target(const char *path, struct output_kvlist *kv)
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
		output_kv_set(kv, "fstype", "%s", m.fstype);
		output_kv_set(kv, "driver", "%s", m.driver);
		output_kv_set(kv, "source", "%s", m.source);
		output_kv_set(kv, "mountpoint", "%s", m.mountpoint);
		output_kv_set(kv, "mount_options", "%s", m.mount_opts);
		output_kv_set(kv, "super_options", "%s", m.super_opts);
	}
	if (statfs(path, &sfs) == 0) {
		magic = (unsigned long)sfs.f_type & 0xffffffffUL;
		if (!have_mount && (name = magic_name(magic)) != NULL)
			output_kv_set(kv, "fstype", "%s", name);
		output_kv_set(kv, "fs_magic", "0x%lx", magic);
	}
	if (statvfs(path, &svfs) == 0) {
		output_kv_set(kv, "block_size", "%lu", svfs.f_bsize);
		output_kv_set(kv, "free_bytes", "%" PRIu64,
		    (uint64_t)svfs.f_bavail * svfs.f_frsize);
		output_kv_set(kv, "total_bytes", "%" PRIu64,
		    (uint64_t)svfs.f_blocks * svfs.f_frsize);
		output_kv_set(kv, "free_inodes", "%" PRIu64,
		    (uint64_t)svfs.f_favail);
		output_kv_set(kv, "total_inodes", "%" PRIu64,
		    (uint64_t)svfs.f_files);
	}
	if (stat(path, &st) == 0) {
		qmajor = major(st.st_dev);
		qminor = minor(st.st_dev);
		output_kv_set(kv, "device", "%u:%u", qmajor, qminor);
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
