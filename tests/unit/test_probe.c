/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * Unit tests for probe: probe_mountinfo() (the lookup of mountinfo.c and
 * the driver behind a mount), the cpuinfo reader and probe_fs_known()
 * run against fixtures in tests/data/ (table-driven), and
 * probe_system(), probe_target() and probe_mount() run against the real
 * machine, where only the presence of keys is checked, never their
 * values.  Parsing mountinfo and meminfo is tested in test_mountinfo.c
 * and test_sysfile.c.
 */

#include <sys/stat.h>
#include <sys/statvfs.h>

#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "machine/probe.h"
#include "record/output.h"

#ifndef TEST_DATA
#define TEST_DATA "tests/data"
#endif

static char	*write_tmp(const char *);
static void	 assert_key(const struct kvlist *, const char *);

/* Write 'text' to a new temporary file; return its name (caller frees). */
static char *
write_tmp(const char *text)
{
	char	*name;
	int	 fd;

	name = strdup("/tmp/test_probe.XXXXXX");
	assert_non_null(name);
	fd = mkstemp(name);
	assert_true(fd != -1);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	assert_int_equal(close(fd), 0);
	return name;
}

/* ===== mountinfo ===== */

/* The expected fields of a case that must fail. */
#define NO_MOUNT	NULL, NULL, NULL, NULL, NULL, NULL, NULL

static const struct mi_case {
	const char	*what;
	const char	*file;
	unsigned	 major, minor;
	const char	*target;
	int		 err;		/* 0: expect success */
	const char	*mountpoint, *root, *fstype, *source, *driver;
	const char	*mount_opts, *super_opts;
} mi_cases[] = {
	{ "root", "mountinfo-basic", 8, 2, "/home/u/x", 0,
	    "/", "/", "ext4", "/dev/sda2", "ext4",
	    "rw,relatime", "rw,errors=remount-ro" },
	{ "longest prefix wins", "mountinfo-basic", 8, 3, "/mnt/x/y/z", 0,
	    "/mnt/x", "/sub", "ext4", "/dev/sda3", "ext4",
	    "rw,relatime", "rw" },
	{ "shorter prefix", "mountinfo-basic", 8, 3, "/mnt/a", 0,
	    "/mnt", "/", "ext4", "/dev/sda3", "ext4", "rw,relatime", "rw" },
	{ "exact mount point", "mountinfo-basic", 8, 3, "/mnt/x", 0,
	    "/mnt/x", "/sub", "ext4", "/dev/sda3", "ext4",
	    "rw,relatime", "rw" },
	{ "bind mount, same dev", "mountinfo-basic", 8, 5, "/other/f", 0,
	    "/other", "/export", "ext4", "/dev/sda5", "ext4",
	    "rw,relatime", "rw" },
	{ "/srv is a prefix of /srv/f", "mountinfo-basic", 8, 5, "/srv/f", 0,
	    "/srv", "/", "ext4", "/dev/sda5", "ext4", "rw,relatime", "rw" },
	{ "/srv is no prefix of /srv2: last line", "mountinfo-basic", 8, 5,
	    "/srv2/f", 0, "/other", "/export", "ext4", "/dev/sda5", "ext4",
	    "rw,relatime", "rw" },
	{ "no target: last line", "mountinfo-basic", 8, 5, NULL, 0,
	    "/other", "/export", "ext4", "/dev/sda5", "ext4",
	    "rw,relatime", "rw" },
	{ "optional fields shared:1 master:2", "mountinfo-basic", 8, 3,
	    "/mnt/x", 0, "/mnt/x", "/sub", "ext4", "/dev/sda3", "ext4",
	    "rw,relatime", "rw" },
	{ "zero optional fields", "mountinfo-basic", 8, 4, "/mnt2/f", 0,
	    "/mnt2", "/", "xfs", "/dev/sda4", "xfs", "rw,noatime",
	    "rw,attr2,inode64,logbufs=8,logbsize=32k,noquota" },
	{ "fuse.sshfs", "mountinfo-basic", 0, 45, "/home/u/remote", 0,
	    "/home/u/remote", "/", "fuse.sshfs", "u@host:/home/u", "fuse",
	    "rw,nosuid,nodev,relatime", "rw,user_id=1000,group_id=1000" },
	{ "fuseblk", "mountinfo-basic", 8, 17, "/media/usb/a", 0,
	    "/media/usb", "/", "fuseblk", "/dev/sdb1", "fuse", NULL, NULL },
	{ "nfs4", "mountinfo-basic", 0, 50, "/net/data/run", 0,
	    "/net/data", "/", "nfs4", "fs1:/export/data", "nfs", NULL, NULL },
	{ "ext2 without the ext4 driver", "mountinfo-basic", 7, 0,
	    "/var/tmp/img/d", 0, "/var/tmp/img", "/", "ext2",
	    "/dev/no-such-loop-device", "ext2", NULL, NULL },
	{ "ext3 without the ext4 driver", "mountinfo-basic", 7, 1,
	    "/var/tmp/img3", 0, "/var/tmp/img3", "/", "ext3",
	    "no-such-source", "ext3", NULL, "rw,data=ordered" },
	{ "line after malformed ones", "mountinfo-basic", 8, 9, "/after", 0,
	    "/after", "/", "btrfs", "/dev/sda9", "btrfs", NULL, NULL },
	{ "no such device", "mountinfo-basic", 99, 99, "/", ENOENT,
	    NO_MOUNT },
	{ "missing file", "no-such-mountinfo", 8, 2, "/", ENOENT,
	    NO_MOUNT },
	{ "\\040 in mount point and source", "mountinfo-escapes", 8, 33,
	    "/media/My Disk/a b", 0, "/media/My Disk", "/", "vfat",
	    "/dev/disk/by-label/My Disk", "vfat", NULL, NULL },
};

static void
test_mountinfo_table(void **state)
{
	struct probe_mount	 m;
	const struct mi_case	*c;
	char			 path[256];
	size_t			 i;
	int			 r;

	(void)state;
	for (i = 0; i < sizeof(mi_cases) / sizeof(mi_cases[0]); i++) {
		c = &mi_cases[i];
		(void)snprintf(path, sizeof(path), "%s/%s", TEST_DATA,
		    c->file);
		errno = 0;
		r = probe_mountinfo(path, c->major, c->minor, c->target, &m);
		if (r != (c->err != 0 ? -1 : 0) ||
		    (c->err != 0 && errno != c->err))
			fail_msg("%s: returned %d, errno %d", c->what, r,
			    errno);
		if (c->err != 0) {
			assert_null(m.fstype);
			continue;
		}
		assert_int_equal(m.major, c->major);
		assert_int_equal(m.minor, c->minor);
		assert_string_equal(m.mountpoint, c->mountpoint);
		assert_string_equal(m.root, c->root);
		assert_string_equal(m.fstype, c->fstype);
		assert_string_equal(m.source, c->source);
		assert_string_equal(m.driver, c->driver);
		if (c->mount_opts != NULL)
			assert_string_equal(m.mount_opts, c->mount_opts);
		if (c->super_opts != NULL)
			assert_string_equal(m.super_opts, c->super_opts);
		probe_mount_free(&m);
		assert_null(m.mountpoint);
	}
}

/*
 * An ext2 volume that the ext4 driver serves is listed under
 * /sys/fs/ext4/<device>: use a device this machine really has there.
 */
static void
test_mountinfo_ext4_driver(void **state)
{
	struct probe_mount	 m;
	struct dirent		*de;
	DIR			*d;
	char			 line[512], *path, *dev = NULL;

	(void)state;
	if ((d = opendir("/sys/fs/ext4")) != NULL) {
		while (dev == NULL && (de = readdir(d)) != NULL)
			if (de->d_name[0] != '.' &&
			    strcmp(de->d_name, "features") != 0)
				dev = strdup(de->d_name);
		(void)closedir(d);
	}
	if (dev == NULL)
		skip();
	(void)snprintf(line, sizeof(line),
	    "38 28 7:0 / /img rw,relatime shared:9 - ext2 /dev/%s rw\n", dev);
	path = write_tmp(line);
	assert_int_equal(probe_mountinfo(path, 7, 0, "/img", &m), 0);
	assert_string_equal(m.fstype, "ext2");
	assert_string_equal(m.driver, "ext4");
	probe_mount_free(&m);
	assert_int_equal(unlink(path), 0);
	free(path);
	free(dev);
}

static void
test_mount_root(void **state)
{
	struct probe_mount	 m;

	(void)state;
	assert_int_equal(probe_mount("/", &m), 0);
	assert_string_equal(m.mountpoint, "/");
	assert_non_null(m.fstype);
	assert_true(*m.fstype != '\0');
	assert_non_null(m.driver);
	probe_mount_free(&m);

	errno = 0;
	assert_int_equal(probe_mount("/no/such/path/here", &m), -1);
	assert_int_equal(errno, ENOENT);
	assert_null(m.fstype);
}

/*
 * The free inodes: statvfs's f_favail where the filesystem counts inodes
 * (/proc reports none: no limit), UINT64_MAX where it cannot be asked.
 */
static void
test_inodes_free(void **state)
{
	struct statvfs	sv;

	(void)state;
	assert_int_equal(statvfs("/dev/shm", &sv), 0);
	if (sv.f_files > 0)
		assert_true(probe_inodes_free("/dev/shm") <=
		    (uint64_t)sv.f_files);
	assert_true(probe_inodes_free("/no/such/path/here") == UINT64_MAX);
	assert_int_equal(statvfs("/proc", &sv), 0);
	if (sv.f_files == 0)
		assert_true(probe_inodes_free("/proc") == UINT64_MAX);
}

/* ===== cpuinfo and filesystems ===== */

static void
test_cpu_model_table(void **state)
{
	static const struct {
		const char	*file;
		int		 err;
		const char	*model;
	} cases[] = {
		{ "cpuinfo-x86", 0,
		    "Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz" },
		{ "cpuinfo-arm64", 0, "ARM implementer 0x41 part 0xd0c" },
		{ "cpuinfo-rpi4", 0, "Raspberry Pi 4 Model B Rev 1.4" },
		{ "cpuinfo-riscv", 0, "sifive,u74-mc" },
		{ "meminfo", ENOENT, "" },
		{ "no-such-cpuinfo", ENOENT, "" },
	};
	char	 path[256], buf[128];
	size_t	 i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		(void)snprintf(path, sizeof(path), "%s/%s", TEST_DATA,
		    cases[i].file);
		errno = 0;
		if (cases[i].err != 0) {
			assert_int_equal(probe_cpu_model(path, buf,
			    sizeof(buf)), -1);
			assert_int_equal(errno, cases[i].err);
			continue;
		}
		assert_int_equal(probe_cpu_model(path, buf, sizeof(buf)), 0);
		assert_string_equal(buf, cases[i].model);
	}

	/* Truncated to fit, and a zero-sized buffer is refused. */
	(void)snprintf(path, sizeof(path), "%s/cpuinfo-x86", TEST_DATA);
	assert_int_equal(probe_cpu_model(path, buf, 6), 0);
	assert_string_equal(buf, "Intel");
	errno = 0;
	assert_int_equal(probe_cpu_model(path, buf, 0), -1);
	assert_int_equal(errno, EINVAL);
}

static void
test_fs_known_table(void **state)
{
	static const struct {
		const char	*file;
		const char	*fstype;
		int		 want;
		int		 err;
	} cases[] = {
		{ "filesystems", "ext4", 1, 0 },
		{ "filesystems", "ext2", 1, 0 },
		{ "filesystems", "tmpfs", 1, 0 },
		{ "filesystems", "xfs", 1, 0 },
		{ "filesystems", "fuse", 1, 0 },
		{ "filesystems", "vxfs", 1, 0 },	/* a line without tab */
		{ "filesystems", "btrfs", 0, 0 },
		{ "filesystems", "reiserfs", 0, 0 },
		{ "filesystems", "ext", 0, 0 },
		{ "filesystems", "nodev", 0, 0 },
		{ "filesystems", "", 0, 0 },
		{ "sysfile/empty", "ext4", 0, 0 },
		{ "no-such-filesystems", "ext4", -1, ENOENT },
	};
	char	 path[256];
	size_t	 i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		(void)snprintf(path, sizeof(path), "%s/%s", TEST_DATA,
		    cases[i].file);
		errno = 0;
		if (probe_fs_known(path, cases[i].fstype) != cases[i].want)
			fail_msg("%s in %s", cases[i].fstype, cases[i].file);
		if (cases[i].want == -1)
			assert_int_equal(errno, cases[i].err);
	}
	/* Every Linux kernel has proc, and none has this. */
	assert_int_equal(probe_fs_known(PROBE_FILESYSTEMS, "proc"), 1);
	assert_int_equal(probe_fs_known(PROBE_FILESYSTEMS, "no-such-fs"), 0);
}

static void
test_loadavg(void **state)
{
	double	 load1 = -1.0;

	(void)state;
	assert_int_equal(probe_loadavg(&load1), 0);
	assert_true(load1 >= 0.0);
}

/* ===== The real machine ===== */

static void
assert_key(const struct kvlist *kv, const char *key)
{
	const char	*v;

	if ((v = kv_get(kv, key)) == NULL || *v == '\0')
		fail_msg("key %s missing or empty", key);
}

static void
test_system(void **state)
{
	struct kvlist	 kv;
	const char		*v;
	size_t			 i;

	(void)state;
	memset(&kv, 0, sizeof(kv));
	probe_system(&kv);
	assert_key(&kv, "host");
	assert_key(&kv, "kernel");
	assert_key(&kv, "kernel_version");
	assert_key(&kv, "machine");
	assert_key(&kv, "cpus_online");
	assert_key(&kv, "page_size");
	assert_key(&kv, "compiler");
	/* Never an empty value, and the order starts as documented. */
	for (i = 0; i < kv.len; i++)
		assert_true(*kv.kv[i].value != '\0');
	assert_string_equal(kv.kv[0].key, "host");
	assert_string_equal(kv.kv[1].key, "kernel");
	v = kv_get(&kv, "cpus_online");
	assert_true(strtol(v, NULL, 10) > 0);
	kv_free(&kv);
}

static void
test_target(void **state)
{
	static const char	*keys[] = {
		"fstype", "driver", "source", "mountpoint", "mount_options",
		"super_options", "fs_magic", "block_size", "free_bytes",
		"total_bytes", "free_inodes", "total_inodes", "device"
	};
	struct kvlist	 kv;
	char			 dir[] = "/tmp/test_probe.XXXXXX";
	const char		*v;
	size_t			 i;

	(void)state;
	assert_non_null(mkdtemp(dir));
	memset(&kv, 0, sizeof(kv));
	probe_target(dir, &kv);
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		assert_key(&kv, keys[i]);
	v = kv_get(&kv, "fs_magic");
	assert_true(strncmp(v, "0x", 2) == 0);
	v = kv_get(&kv, "device");
	assert_non_null(strchr(v, ':'));
	/* Only where the kernel has a block queue for it. */
	if ((v = kv_get(&kv, "rotational")) != NULL)
		assert_true(strcmp(v, "0") == 0 || strcmp(v, "1") == 0);
	if ((v = kv_get(&kv, "scheduler")) != NULL)
		assert_true(*v != '\0' && strchr(v, '[') == NULL);
	kv_free(&kv);
	assert_int_equal(rmdir(dir), 0);

	/* Nothing is known about a path that does not exist. */
	probe_target("/no/such/path/here", &kv);
	assert_int_equal(kv.len, 0);
	kv_free(&kv);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mountinfo_table),
		cmocka_unit_test(test_mountinfo_ext4_driver),
		cmocka_unit_test(test_mount_root),
		cmocka_unit_test(test_inodes_free),
		cmocka_unit_test(test_cpu_model_table),
		cmocka_unit_test(test_fs_known_table),
		cmocka_unit_test(test_loadavg),
		cmocka_unit_test(test_system),
		cmocka_unit_test(test_target),
	};

	return cmocka_run_group_tests_name("probe", tests, NULL, NULL);
}
