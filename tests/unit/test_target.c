/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * Unit tests for target.c.  The config keys and their cross-checks run
 * anywhere (mount options that would mount something else are refused),
 * and so does the read-back of a mount, on the fixture
 * tests/data/mountinfo-target; the rest needs root and /dev/loop-control
 * and is skipped without them: tmpfs, ext4, xfs and btrfs images are set
 * up and torn down leaving no mount, no loop device and nothing in the
 * scratch directory; a device with a filesystem on it is refused and
 * keeps its data; an image the scratch filesystem has no room for is
 * refused before anything is made; a failed mkfs keeps its log until
 * target_sweep(), which undoes what a crashed run left and keeps foreign
 * files.  A mount that brings something else than was asked for (libmount
 * wrapped: -Wl,--wrap=mnt_context_mount) is unmounted and refused.  Every
 * test works in its own mkdtemp(3) directory under /var/tmp, and the
 * teardown unmounts and detaches whatever a failed test left.
 */

#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <linux/loop.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <libmount.h>

#include "base/util.h"
#include "machine/mountinfo.h"
#include "target/target.h"
#include "target/target_mount.h"
#include "target/uml.h"

#ifndef TEST_DATA
#define TEST_DATA "tests/data"
#endif

struct seen {
	int	n;
	char	path[4][PATH_MAX];
	bool	removed[4];
	bool	unmounted[4];
	char	loopdev[4][64];
	char	why[4][128];
};

static char		scratch[64];	/* this test's directory */
static char		real[PATH_MAX];	/* its real path */
static struct target	cur;		/* the target a test set up */
static bool		cur_set;

/*
 * What the wrapped mnt_context_mount() mounts instead of what it was
 * asked for: mount(fake_src, target, fake_type, fake_flags), or nothing
 * at all with fake_none; the real thing while both are unset.
 */
static const char	*fake_src, *fake_type;
static unsigned long	 fake_flags;
static bool		 fake_none, faked;

int	__real_mnt_context_mount(struct libmnt_context *);
int	__wrap_mnt_context_mount(struct libmnt_context *);
int	__real_mnt_context_get_status(struct libmnt_context *);
int	__wrap_mnt_context_get_status(struct libmnt_context *);

/* ===== libmount, wrapped ===== */

int
__wrap_mnt_context_mount(struct libmnt_context *cxt)
{
	if (fake_type == NULL && fake_flags == 0 && !fake_none)
		return __real_mnt_context_mount(cxt);
	if (!fake_none && mount(fake_src, mnt_context_get_target(cxt),
	    fake_type, fake_flags, NULL) == -1)
		return -errno;
	faked = true;
	return 0;
}

/* After a faked mount, say that mount(2) succeeded, as libmount would. */
int
__wrap_mnt_context_get_status(struct libmnt_context *cxt)
{
	if (faked) {
		faked = false;
		return 1;
	}
	return __real_mnt_context_get_status(cxt);
}

/* ===== Helpers ===== */

static bool
root_ok(void)
{
	return geteuid() == 0 && access("/dev/loop-control", F_OK) == 0;
}

/* Count the mounts on 'prefix' or below it. */
static int
mounts_under(const char *prefix)
{
	FILE	*fp;
	char	 line[4096], mp[PATH_MAX];
	int	 n = 0;

	fp = fopen("/proc/self/mountinfo", "r");
	assert_non_null(fp);
	while (fgets(line, sizeof(line), fp) != NULL)
		if (sscanf(line, "%*d %*d %*s %*s %4095s", mp) == 1 &&
		    strncmp(mp, prefix, strlen(prefix)) == 0)
			n++;
	(void)fclose(fp);
	return n;
}

/* Whether 'mnt' is mounted with type 'fstype'. */
static bool
mounted_as(const char *mnt, const char *fstype)
{
	FILE	*fp;
	char	 line[4096], mp[PATH_MAX], type[64];
	bool	 found = false;

	fp = fopen("/proc/self/mountinfo", "r");
	assert_non_null(fp);
	while (fgets(line, sizeof(line), fp) != NULL)
		if (sscanf(line, "%*d %*d %*s %*s %4095s %*[^-]- %63s", mp,
		    type) == 2 && strcmp(mp, mnt) == 0 &&
		    strcmp(type, fstype) == 0)
			found = true;
	(void)fclose(fp);
	return found;
}

/*
 * Count the loop devices backed by a file under 'prefix'; with 'detach',
 * detach them too.
 */
static int
loops_under(const char *prefix, bool detach)
{
	struct dirent	*d;
	DIR		*dp;
	char		 path[512], back[PATH_MAX];
	ssize_t		 got;
	int		 fd, n = 0;

	if ((dp = opendir("/sys/block")) == NULL)
		return 0;
	while ((d = readdir(dp)) != NULL) {
		if (strncmp(d->d_name, "loop", 4) != 0)
			continue;
		(void)snprintf(path, sizeof(path),
		    "/sys/block/%s/loop/backing_file", d->d_name);
		if ((fd = open(path, O_RDONLY)) == -1)
			continue;
		got = read(fd, back, sizeof(back) - 1);
		(void)close(fd);
		if (got <= 0 || strncmp(back, prefix, strlen(prefix)) != 0)
			continue;
		n++;
		if (detach) {
			(void)snprintf(path, sizeof(path), "/dev/%s",
			    d->d_name);
			if ((fd = open(path, O_RDONLY)) != -1) {
				(void)ioctl(fd, LOOP_CLR_FD);
				(void)close(fd);
			}
		}
	}
	(void)closedir(dp);
	return n;
}

/* Count the entries of 'dir' besides . and .. */
static int
entries(const char *dir)
{
	struct dirent	*d;
	DIR		*dp;
	int		 n = 0;

	if ((dp = opendir(dir)) == NULL)
		return -1;
	while ((d = readdir(dp)) != NULL)
		if (strcmp(d->d_name, ".") != 0 && strcmp(d->d_name, "..") != 0)
			n++;
	(void)closedir(dp);
	return n;
}

static void
touch(const char *path)
{
	int	fd;

	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "x\n", 2), 2);
	assert_int_equal(close(fd), 0);
}

/* Set 'tc' from "key", "value" pairs ending in NULL. */
static void
conf(struct target_conf *tc, ...)
{
	va_list		 ap;
	const char	*k, *v;
	char		 err[LD_ERRLEN];

	target_conf_init(tc);
	va_start(ap, tc);
	while ((k = va_arg(ap, const char *)) != NULL) {
		v = va_arg(ap, const char *);
		if (target_conf_set(tc, k, v, err) == -1)
			fail_msg("%s = %s: %s", k, v, err);
	}
	va_end(ap);
}

static void
record(void *arg, const struct target_report *r)
{
	struct seen	*s = arg;

	assert_true(s->n < 4);
	(void)snprintf(s->path[s->n], PATH_MAX, "%s", r->path);
	s->removed[s->n] = r->removed;
	s->unmounted[s->n] = r->unmounted;
	(void)snprintf(s->loopdev[s->n], 64, "%s",
	    r->loopdev != NULL ? r->loopdev : "");
	(void)snprintf(s->why[s->n], 128, "%s", r->why != NULL ? r->why : "");
	s->n++;
}

static int
setup(void **state)
{
	(void)state;
	(void)strcpy(scratch, "/var/tmp/largedir-unit.XXXXXX");
	assert_non_null(mkdtemp(scratch));
	assert_non_null(realpath(scratch, real));
	memset(&cur, 0, sizeof(cur));
	cur_set = false;
	return 0;
}

/* Undo whatever a test left, even when it failed half-way. */
static int
teardown(void **state)
{
	char	err[LD_ERRLEN], cmd[PATH_MAX + 64];
	int	i;

	(void)state;
	fake_src = fake_type = NULL;	/* a failed test may leave them */
	fake_flags = 0;
	fake_none = faked = false;
	if (cur_set)
		(void)target_teardown(&cur, err);
	cur_set = false;
	for (i = 0; i < 8 && mounts_under(real) > 0; i++) {
		FILE	*fp = fopen("/proc/self/mountinfo", "r");
		char	 line[4096], mp[PATH_MAX];

		while (fp != NULL && fgets(line, sizeof(line), fp) != NULL)
			if (sscanf(line, "%*d %*d %*s %*s %4095s", mp) == 1 &&
			    strncmp(mp, real, strlen(real)) == 0)
				(void)umount2(mp, MNT_DETACH);
		if (fp != NULL)
			(void)fclose(fp);
	}
	(void)loops_under(real, true);
	(void)snprintf(cmd, sizeof(cmd), "rm -rf --one-file-system '%s'",
	    real);
	assert_int_equal(system(cmd), 0);
	return 0;
}

/* ===== Configuration ===== */

static void
test_conf_set(void **state)
{
	static const struct {
		const char	*key, *value, *msg;
	} cases[] = {
		{ "label", "ext4-big_1.0", NULL },
		{ "label", "", "label '': use 1 to 64 of A-Z a-z 0-9 . _ - "
		    "(not starting with '.')" },
		{ "label", ".hidden", "label '.hidden': use 1 to 64 of A-Z "
		    "a-z 0-9 . _ - (not starting with '.')" },
		{ "label", "a b", "label 'a b': use 1 to 64 of A-Z a-z 0-9 . "
		    "_ - (not starting with '.')" },
		{ "label", "a/b", "label 'a/b': use 1 to 64 of A-Z a-z 0-9 . "
		    "_ - (not starting with '.')" },
		{ "label", "0123456789012345678901234567890123456789"
		    "012345678901234567890123", NULL },
		{ "label", "0123456789012345678901234567890123456789"
		    "0123456789012345678901234", "label '0123456789012345"
		    "678901234567890123456789012345678901234567890123"
		    "4': use 1 to 64 of A-Z a-z 0-9 . _ - (not starting "
		    "with '.')" },
		{ "description", "Ext4, 4k blocks: the default.", NULL },
		{ "description_de", "Ext4 mit 4k-Blöcken.", NULL },
		{ "description_de", "zwei\nZeilen", "description_de: must be "
		    "one line" },
		{ "description", "two\nlines", "description: must be one "
		    "line" },
		{ "fstype", "xfs", NULL },
		{ "fstype", "jfs", NULL },
		{ "fstype", "zfs", "fstype 'zfs': unknown (ext2, ext3, ext4, "
		    "xfs, btrfs, tmpfs, reiserfs, vxfs, nfs, nfs4, f2fs, "
		    "jfs)" },
		{ "fstype", "EXT4", "fstype 'EXT4': unknown (ext2, ext3, "
		    "ext4, xfs, btrfs, tmpfs, reiserfs, vxfs, nfs, nfs4, "
		    "f2fs, jfs)" },
		{ "mkfs", "mkfs.xfs -f -q", NULL },
		{ "mkfs", "", "mkfs '': no program given" },
		{ "mkfs", " \t ", "mkfs ' \t ': no program given" },
		{ "mkfs", "mkfs.ext4 -L 'my fs'", "mkfs 'mkfs.ext4 -L 'my "
		    "fs'': no quoting (arguments are split on blanks, no "
		    "shell)" },
		{ "mount_options", "noatime,nodiratime", NULL },
		{ "mount_options", "a\nb", "mount_options: must be one line" },
		{ "image_size", "8G", NULL },
		{ "image_size", "16M", NULL },
		{ "image_size", "16T", NULL },
		{ "image_size", "8X", "image_size '8X': not a size (e.g. 8G, "
		    "512M)" },
		{ "image_size", "", "image_size '': not a size (e.g. 8G, "
		    "512M)" },
		{ "image_size", "-1G", "image_size '-1G': not a size (e.g. "
		    "8G, 512M)" },
		{ "image_size", "15M", "image_size '15M': out of range (16M "
		    "to 16T)" },
		{ "image_size", "17T", "image_size '17T': out of range (16M "
		    "to 16T)" },
		{ "image_size", "99999999999999999999", "image_size "
		    "'99999999999999999999': out of range (16M to 16T)" },
		/* Text must be UTF-8; file names may be any bytes. */
		{ "description", "caf\xe9 au lait", "description: not valid "
		    "UTF-8 (byte 4)" },
		{ "description_de", "Gr\xfc\xdf" "e", "description_de: not "
		    "valid UTF-8 (byte 3)" },
		{ "description", "ok \xc3", "description: not valid UTF-8 "
		    "(byte 4)" },
		{ "mount_options", "noatime,\xff", "mount_options: not valid "
		    "UTF-8 (byte 9)" },
		{ "mkfs", "mkfs.ext4 -L caf\xe9", "mkfs: not valid UTF-8 "
		    "(byte 17)" },
		{ "fstype", "ext4\xff", "fstype: not valid UTF-8 (byte 5)" },
		{ "url", "nfs://filer/caf\xe9", "url: not valid UTF-8 (byte "
		    "16)" },
		{ "label", "\x80", "label: not valid UTF-8 (byte 1)" },
		{ "path", "/mnt/caf\xe9", NULL },
		{ "device", "/dev/disk/by-label/caf\xe9", NULL },
		{ "uml", "/opt/caf\xe9.uml", NULL },
		{ "path", "/mnt/nfs", NULL },
		{ "path", "mnt/nfs", "path 'mnt/nfs': not an absolute path" },
		{ "path", "", "path '': not an absolute path" },
		{ "url", "nfs://filer/export", NULL },
		{ "url", "/mnt/nfs", "url '/mnt/nfs': not a URL (e.g. "
		    "nfs://server/export)" },
		{ "url", "nfs://filer/my export", "url 'nfs://filer/my "
		    "export': not a URL (e.g. nfs://server/export)" },
		{ "device", "/dev/sdb", NULL },
		{ "device", "sdb", "device 'sdb': not an absolute path" },
		{ "wipe", "yes", NULL },
		{ "wipe", "no", NULL },
		{ "wipe", "Yes", "wipe 'Yes': not yes or no" },
		{ "wipe", "1", "wipe '1': not yes or no" },
		{ "kernel", "uml", NULL },
		{ "kernel", "host", NULL },
		{ "kernel", "UML", "kernel 'UML': not host or uml" },
		{ "kernel", "", "kernel '': not host or uml" },
		{ "uml", "/opt/linux.uml", NULL },
		{ "uml", "linux.uml", "uml 'linux.uml': not an absolute path" },
		{ "uml", "/opt/my linux", "uml '/opt/my linux': no blanks in "
		    "the path" },
		{ "uml_grace", "20m", NULL },
		{ "uml_grace", "5s", NULL },
		{ "uml_grace", "500ms", "uml_grace '500ms': not a duration from "
		    "1s to 1d (e.g. 300s, 20m)" },
		{ "uml_grace", "2d", "uml_grace '2d': not a duration from 1s "
		    "to 1d (e.g. 300s, 20m)" },
		{ "uml_grace", "soon", "uml_grace 'soon': not a duration from "
		    "1s to 1d (e.g. 300s, 20m)" },
		{ "uml_mem", "2G", NULL },
		{ "uml_mem", "1G", NULL },
		{ "uml_mem", "64M", "uml_mem '64M': not a size from 128M to "
		    "64G (e.g. 512M, 2G)" },
		{ "uml_mem", "1T", "uml_mem '1T': not a size from 128M to 64G "
		    "(e.g. 512M, 2G)" },
		{ "uml_mem", "lots", "uml_mem 'lots': not a size from 128M to "
		    "64G (e.g. 512M, 2G)" },
		{ "uml_cpus", "4", NULL },
		{ "uml_cpus", "2", NULL },
		{ "uml_cpus", "0", "uml_cpus '0': not a count from 1 to 64" },
		{ "uml_cpus", "65", "uml_cpus '65': not a count from 1 to 64" },
		{ "uml_cpus", "two", "uml_cpus 'two': not a count from 1 to "
		    "64" },
		{ "colour", "red", "'colour': not a target key" },
	};
	struct target_conf	tc;
	char			err[LD_ERRLEN];
	size_t			i;
	int			rc;

	(void)state;
	target_conf_init(&tc);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		err[0] = '\0';
		errno = 0;
		rc = target_conf_set(&tc, cases[i].key, cases[i].value, err);
		if (cases[i].msg == NULL) {
			if (rc != 0)
				fail_msg("%s = %s: %s", cases[i].key,
				    cases[i].value, err);
		} else {
			assert_int_equal(rc, -1);
			assert_int_equal(errno, EINVAL);
			assert_string_equal(err, cases[i].msg);
		}
	}
	/* The last good value of each key stays. */
	assert_string_equal(tc.label, "0123456789012345678901234567890123456789"
	    "012345678901234567890123");
	assert_string_equal(tc.fstype, "jfs");
	assert_string_equal(tc.mkfs, "mkfs.xfs -f -q");
	assert_string_equal(tc.mount_options, "noatime,nodiratime");
	assert_true(tc.image_size == (uint64_t)16 << 40);
	assert_string_equal(tc.path, "/mnt/nfs");
	assert_string_equal(tc.device, "/dev/sdb");
	assert_false(tc.wipe);
	assert_false(tc.kernel_uml);
	assert_string_equal(tc.uml, "/opt/linux.uml");
	assert_true(tc.uml_grace_ns == 5 * NS_PER_S);
	assert_true(tc.uml_mem == (uint64_t)1 << 30);
	assert_int_equal(tc.uml_cpus, 2);
	target_conf_free(&tc);
	assert_null(tc.label);
	assert_null(tc.uml);
}

/*
 * Mount options that would make the mount anything but a fresh filesystem
 * of the config's type are refused, naming the option; the others pass.
 */
static void
test_conf_mount_options(void **state)
{
#define BIND	"a bind mount shows an existing directory, not a fresh " \
		    "filesystem"
#define PROP	"a propagation change is about the mount tree, not the " \
		    "filesystem under test"
#define LOOP	"libmount would set up a loop device of its own"
#define XOPT	"libmount acts on X-mount.* (subdir, idmap, mkdir, ...) " \
		    "and x-* belongs in fstab"
	static const struct {
		const char	*value, *option, *why;
	} cases[] = {
		{ "", NULL, NULL },
		{ "noatime,nodiratime", NULL, NULL },
		{ "size=64m,nr_inodes=100k,mode=0700", NULL, NULL },
		{ "defaults,rw,noexec,nosuid,nodev,relatime", NULL, NULL },
		{ "data=ordered,commit=30,user_xattr", NULL, NULL },
		{ "context=\"system_u:object_r:tmp_t:s0:c1,c2\"", NULL, NULL },
		{ "nofail,_netdev,comment=bench", NULL, NULL },
		{ "bind", "bind", BIND },
		{ "noatime,rbind", "rbind", BIND },
		{ "bind=/etc", "bind=/etc", BIND },
		{ "a=\"x,y\",bind", "bind", BIND },
		{ "move", "move", "it moves an existing mount instead of "
		    "making one" },
		{ "remount,ro", "remount", "it changes an existing mount "
		    "instead of making one" },
		{ "shared", "shared", PROP },
		{ "rprivate", "rprivate", PROP },
		{ "slave", "slave", PROP },
		{ "runbindable", "runbindable", PROP },
		{ "source=/dev/sda1", "source=/dev/sda1", "the kernel takes it "
		    "for the device to mount" },
		{ "loop", "loop", LOOP },
		{ "loop=/dev/loop7", "loop=/dev/loop7", LOOP },
		{ "offset=1048576", "offset=1048576", LOOP },
		{ "sizelimit=1M", "sizelimit=1M", LOOP },
		{ "encryption=aes", "encryption=aes", LOOP },
		{ "verity.hashdevice=/dev/sdb", "verity.hashdevice=/dev/sdb",
		    "libmount would set up a dm-verity device" },
		{ "helper=udisks2", "helper=udisks2", "it names a mount helper "
		    "to run" },
		{ "uhelper=x", "uhelper=x", "it names a mount helper to run" },
		{ "X-mount.subdir=dir", "X-mount.subdir=dir", XOPT },
		{ "X-mount.idmap=0:1000:1", "X-mount.idmap=0:1000:1", XOPT },
		{ "X-mount.mkdir", "X-mount.mkdir", XOPT },
		{ "x-systemd.automount", "x-systemd.automount", XOPT },
	};
	struct target_conf	tc;
	char			err[LD_ERRLEN], want[LD_ERRLEN];
	size_t			i;
	int			rc;

	(void)state;
	target_conf_init(&tc);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		err[0] = '\0';
		errno = 0;
		rc = target_conf_set(&tc, "mount_options", cases[i].value,
		    err);
		if (cases[i].option == NULL) {
			if (rc != 0)
				fail_msg("'%s': %s", cases[i].value, err);
			assert_string_equal(tc.mount_options, cases[i].value);
			continue;
		}
		if (rc != -1)
			fail_msg("'%s': accepted", cases[i].value);
		assert_int_equal(errno, EINVAL);
		(void)snprintf(want, sizeof(want), "mount_options: '%s' "
		    "refused: %s", cases[i].option, cases[i].why);
		assert_string_equal(err, want);
	}
	/* libmount drops what follows an open quote: so would the check. */
	assert_int_equal(target_conf_set(&tc, "mount_options",
	    "size=1m,a=\"x,bind", err), -1);
	assert_string_equal(err, "mount_options 'size=1m,a=\"x,bind': a quote "
	    "is not closed");
	/* A refused value leaves the last good one. */
	assert_string_equal(tc.mount_options, "nofail,_netdev,comment=bench");
	target_conf_free(&tc);
#undef BIND
#undef PROP
#undef LOOP
#undef XOPT
}

static void
test_conf_key(void **state)
{
	(void)state;
	assert_true(target_conf_key("label"));
	assert_true(target_conf_key("mount_options"));
	assert_true(target_conf_key("wipe"));
	assert_true(target_conf_key("kernel"));
	assert_true(target_conf_key("uml"));
	assert_false(target_conf_key("budget"));
	assert_false(target_conf_key(""));
}

static void
test_conf_check(void **state)
{
	struct target_conf	 tc;
	char			 err[LD_ERRLEN];
	const char		*key;

	(void)state;
	conf(&tc, "path", "/mnt/a", "device", "/dev/sdb", NULL);
	assert_int_equal(target_conf_check(&tc, &key, err), -1);
	assert_string_equal(err, "path and device are both set: a target is "
	    "one or the other");
	assert_string_equal(key, "device");
	target_conf_free(&tc);

	conf(&tc, "mkfs", "true", NULL);
	assert_int_equal(target_conf_check(&tc, &key, err), -1);
	assert_string_equal(err, "fstype missing (e.g. fstype = ext4)");
	assert_null(key);
	target_conf_free(&tc);

	conf(&tc, "path", "/mnt/a", NULL);
	assert_int_equal(target_conf_check(&tc, &key, err), 0);
	target_conf_free(&tc);

	conf(&tc, "url", "nfs://filer/export", NULL);
	assert_int_equal(target_conf_check(&tc, &key, err), 0);
	target_conf_free(&tc);

	conf(&tc, "url", "nfs://filer/export", "mount_options", "noatime",
	    NULL);
	assert_int_equal(target_conf_check(&tc, &key, err), -1);
	assert_string_equal(err, "url with mount_options: the server sets up "
	    "what a URL names");
	assert_string_equal(key, "url");
	target_conf_free(&tc);

	conf(&tc, "fstype", "ext4", NULL);
	assert_int_equal(target_conf_check(&tc, &key, err), -1);
	assert_string_equal(err, "mkfs missing for fstype ext4 (e.g. mkfs = "
	    "mkfs.ext4)");
	target_conf_free(&tc);

	conf(&tc, "fstype", "ext4", "mkfs", "mkfs.nonexistent -F", NULL);
	assert_int_equal(target_conf_check(&tc, &key, err), -1);
	assert_string_equal(err, "mkfs program 'mkfs.nonexistent' not found "
	    "in PATH");
	target_conf_free(&tc);

	conf(&tc, "fstype", "ext4", "mkfs", "/nonexistent/mkfs.ext4", NULL);
	assert_int_equal(target_conf_check(&tc, &key, err), -1);
	assert_string_equal(err, "mkfs program '/nonexistent/mkfs.ext4' not "
	    "found in PATH");
	target_conf_free(&tc);

	/* "true" is in every PATH, mkfs.ext4 may not be in a user's. */
	conf(&tc, "fstype", "ext4", "mkfs", "  true -F -q", "image_size",
	    "1G", NULL);
	assert_int_equal(target_conf_check(&tc, &key, err), 0);
	target_conf_free(&tc);

	/* An image needs its size said; a device has one. */
	conf(&tc, "fstype", "ext4", "mkfs", "true", NULL);
	assert_int_equal(target_conf_check(&tc, &key, err), -1);
	assert_string_equal(err, "image_size missing: how large an image to "
	    "make for ext4 (e.g. image_size = 8G), or device = a block device "
	    "to use instead");
	assert_null(key);
	target_conf_free(&tc);
	conf(&tc, "fstype", "ext4", "mkfs", "true", "device", "/dev/sdz",
	    NULL);
	assert_int_equal(target_conf_check(&tc, &key, err), 0);
	target_conf_free(&tc);

	conf(&tc, "fstype", "tmpfs", "mount_options", "size=1G", NULL);
	assert_int_equal(target_conf_check(&tc, &key, err), 0);
	target_conf_free(&tc);

	conf(&tc, "fstype", "tmpfs", "device", "/dev/sdb", NULL);
	assert_int_equal(target_conf_check(&tc, &key, err), -1);
	assert_string_equal(err, "fstype tmpfs with device /dev/sdb: tmpfs "
	    "lives in memory, not on a device");
	target_conf_free(&tc);

	conf(&tc, "fstype", "nfs", NULL);
	assert_int_equal(target_conf_check(&tc, &key, err), -1);
	assert_string_equal(err, "fstype nfs needs source (an export largedir "
	    "mounts, HOST:/PATH) or path (an existing NFS mount)");
	target_conf_free(&tc);

	/* kernel = uml: an image, tmpfs or a source; path is the guest's. */
	conf(&tc, "kernel", "uml", "fstype", "reiserfs", "mkfs", "true -f",
	    "image_size", "8G", NULL);
	assert_int_equal(target_conf_check(&tc, &key, err), 0);
	target_conf_free(&tc);

	conf(&tc, "kernel", "uml", "fstype", "nfs", "source", "h:/x",
	    "mount_options", "vers=3", "path", "/mnt", NULL);
	assert_int_equal(target_conf_check(&tc, &key, err), 0);
	target_conf_free(&tc);

	conf(&tc, "kernel", "uml", "fstype", "ext4", "mkfs", "true",
	    "device", "/dev/sdb", NULL);
	assert_int_equal(target_conf_check(&tc, &key, err), -1);
	assert_string_equal(err, "kernel = uml with device: the guest gets an "
	    "image file as its disk, not a host device");
	assert_string_equal(key, "kernel");
	target_conf_free(&tc);

	conf(&tc, "kernel", "uml", "url", "nfs://h/x", NULL);
	assert_int_equal(target_conf_check(&tc, &key, err), -1);
	assert_string_equal(err, "kernel = uml with url: a URL's backend "
	    "speaks to its server from the host");
	target_conf_free(&tc);
}

/* ===== Reading back a mount ===== */

/*
 * target_mount_check() on tests/data/mountinfo-target: what a mount brought
 * instead of the fresh filesystem asked for, each way it can differ.
 */
static void
test_check_mount(void **state)
{
#define D	"/var/tmp/largedir/target."
	static const struct {
		const char	*mnt, *fstype, *source;
		unsigned	 id;
		const char	*msg;
	} cases[] = {
		{ D "good/mnt", "ext4", "/dev/loop3", 40, NULL },
		{ D "good/mnt", "ext4", "/dev/loop3", 0, NULL },
		{ D "stack/mnt", "tmpfs", "largedir", 45, NULL },
		{ D "two words/mnt", "tmpfs", "largedir", 46, NULL },
		{ D "good/mnt", "ext4", "/dev/loop3", 48, "after mounting, "
		    D "good/mnt leads to mount 48, not to the one shown there "
		    "(40)" },
		{ D "none/mnt", "tmpfs", "largedir", 0, "after mounting, "
		    "nothing is mounted on " D "none/mnt" },
		/* fstype = tmpfs, mount_options = bind, run from $HOME/u. */
		{ D "bind/mnt", "tmpfs", "largedir", 41, "after mounting, "
		    D "bind/mnt holds ext4 from /dev/sda2, not the tmpfs "
		    "asked for" },
		{ D "bind/mnt", "ext4", "/dev/sda2", 41, "after mounting, "
		    D "bind/mnt holds /home/u/largedir of ext4 /dev/sda2, not "
		    "a fresh filesystem" },
		/* A directory of /dev/shm, bound: tmpfs, but not ours. */
		{ D "shm/mnt", "tmpfs", "largedir", 42, "after mounting, "
		    D "shm/mnt holds /largedir of tmpfs tmpfs, not a fresh "
		    "filesystem" },
		{ D "src/mnt", "tmpfs", "largedir", 43, "after mounting, "
		    D "src/mnt holds tmpfs from shm, not from largedir" },
		/* The mount on top counts, not the one below it. */
		{ D "stack/mnt", "ext4", "/dev/loop4", 45, "after mounting, "
		    D "stack/mnt holds tmpfs from largedir, not the ext4 "
		    "asked for" },
		/* mkfs made another filesystem than fstype says. */
		{ D "xfs/mnt", "ext4", "/dev/loop5", 47, "after mounting, "
		    D "xfs/mnt holds xfs from /dev/loop5, not the ext4 asked "
		    "for" },
	};
	struct mountinfo	mi;
	char			err[LD_ERRLEN];
	size_t			i;
	int			rc;

	(void)state;
	assert_int_equal(mountinfo_load(TEST_DATA "/mountinfo-target", &mi),
	    0);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		err[0] = '\0';
		errno = 0;
		rc = target_mount_check(&mi, cases[i].mnt, cases[i].fstype,
		    cases[i].source, cases[i].id, err);
		if (cases[i].msg == NULL) {
			if (rc != 0)
				fail_msg("%s: %s", cases[i].mnt, err);
			continue;
		}
		assert_int_equal(rc, -1);
		assert_int_equal(errno, EMEDIUMTYPE);
		assert_string_equal(err, cases[i].msg);
	}
	mountinfo_free(&mi);
#undef D
}

/* ===== Path targets ===== */

static void
test_path(void **state)
{
	struct kvlist	 kv;
	struct target_conf	 tc;
	const char		*why;
	char			 err[LD_ERRLEN], want[PATH_MAX + 64];
	char			 file[PATH_MAX];

	(void)state;
	conf(&tc, "path", scratch, "description", "an existing mount",
	    "description_de", "ein bestehender Mount", NULL);
	assert_int_equal(target_setup(&cur, &tc, "/nonexistent/scratch", err),
	    0);
	cur_set = true;
	assert_string_equal(cur.mnt, scratch);
	assert_null(cur.rundir);
	memset(&kv, 0, sizeof(kv));
	target_meta(&cur, &kv);
	assert_string_equal(kv_get(&kv, "target_kind"), "path");
	assert_string_equal(kv_get(&kv, "target_description"),
	    "an existing mount");
	assert_string_equal(kv_get(&kv, "target_description_de"),
	    "ein bestehender Mount");
	assert_null(kv_get(&kv, "loop_device"));
	kv_free(&kv);
	/* Not ours to unmount. */
	assert_false(target_can_remount(&cur, &why));
	assert_non_null(strstr(why, "a target largedir mounts itself"));
	assert_int_equal(target_remount(&cur, err), -1);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(target_teardown(&cur, err), 0);
	assert_int_equal(target_teardown(&cur, err), 0);
	cur_set = false;
	assert_int_equal(entries(scratch), 0);
	assert_int_equal(access("/nonexistent/scratch", F_OK), -1);
	target_conf_free(&tc);

	(void)snprintf(file, sizeof(file), "%s/file", scratch);
	touch(file);
	conf(&tc, "path", file, NULL);
	assert_int_equal(target_setup(&cur, &tc, scratch, err), -1);
	assert_int_equal(errno, ENOTDIR);
	(void)snprintf(want, sizeof(want), "path %s: not a directory", file);
	assert_string_equal(err, want);
	assert_null(cur.conf.path);
	target_conf_free(&tc);

	conf(&tc, "path", "/nonexistent/dir", NULL);
	assert_int_equal(target_setup(&cur, &tc, scratch, err), -1);
	assert_string_equal(err, "path /nonexistent/dir: No such file or "
	    "directory");
	target_conf_free(&tc);
	assert_int_equal(entries(scratch), 1);
}

/* ===== Root: tmpfs, images, devices ===== */

static void
test_not_root(void **state)
{
	struct target_conf	tc;
	char			err[LD_ERRLEN];

	(void)state;
	if (geteuid() == 0) {
		print_message("skipped: checks the refusal without root; "
		    "run as another user to see it\n");
		skip();
	}
	conf(&tc, "fstype", "tmpfs", NULL);
	assert_int_equal(target_setup(&cur, &tc, scratch, err), -1);
	assert_int_equal(errno, EPERM);
	assert_string_equal(err, "a tmpfs target needs root (loop devices, "
	    "mkfs, mount): run as root, or set path");
	assert_int_equal(entries(scratch), 0);
	target_conf_free(&tc);
}

static void
test_tmpfs(void **state)
{
	struct kvlist	 kv;
	struct target_conf	 tc;
	struct seen		 s;
	char			 err[LD_ERRLEN], sub[PATH_MAX];
	const char		*why;
	int			 n;

	(void)state;
	if (!root_ok()) {
		print_message("skipped: needs root and /dev/loop-control "
		    "(loop devices, mkfs, mount)\n");
		skip();
	}
	(void)snprintf(sub, sizeof(sub), "%s/a/b/", scratch);
	conf(&tc, "fstype", "tmpfs", "mount_options", "size=16m,mode=0700",
	    NULL);
	if (target_setup(&cur, &tc, sub, err) == -1)
		fail_msg("%s", err);
	cur_set = true;
	assert_true(cur.mounted);
	assert_null(cur.loopdev);
	assert_true(mounted_as(cur.mnt, "tmpfs"));
	n = snprintf(sub, sizeof(sub), "%s/f", cur.mnt);
	assert_true(n > 0);
	touch(sub);
	memset(&kv, 0, sizeof(kv));
	target_meta(&cur, &kv);
	assert_string_equal(kv_get(&kv, "target_kind"), "tmpfs");
	assert_string_equal(kv_get(&kv,
	    "target_mount_options_requested"), "size=16m,mode=0700");
	assert_null(kv_get(&kv, "mkfs"));
	kv_free(&kv);
	/* A remount would empty tmpfs: refused, and the file is still there. */
	assert_false(target_can_remount(&cur, &why));
	assert_non_null(strstr(why, "tmpfs keeps its files only"));
	assert_int_equal(target_remount(&cur, err), -1);
	n = snprintf(sub, sizeof(sub), "%s/f", cur.mnt);
	assert_true(n > 0);
	assert_int_equal(access(sub, F_OK), 0);

	/* A sweep leaves a live run alone. */
	memset(&s, 0, sizeof(s));
	(void)snprintf(sub, sizeof(sub), "%s/a/b", scratch);
	assert_int_equal(target_sweep(sub, record, &s, err), 1);
	assert_false(s.removed[0]);
	assert_string_equal(s.why[0], "in use by a running largedir");
	assert_true(mounted_as(cur.mnt, "tmpfs"));

	if (target_teardown(&cur, err) == -1)
		fail_msg("%s", err);
	cur_set = false;
	assert_int_equal(mounts_under(real), 0);
	assert_int_equal(entries(sub), 0);
	target_conf_free(&tc);
}

/* Set up an image of 'fstype', write into it, tear it down. */
static void
image_case(const char *fstype, const char *mkfs, const char *size)
{
	struct kvlist	 kv;
	struct target_conf	 tc;
	char			 err[LD_ERRLEN], path[PATH_MAX];
	const char		*key, *why;
	int			 fd;

	if (!root_ok()) {
		print_message("skipped: needs root and /dev/loop-control "
		    "(loop devices, mkfs, mount)\n");
		skip();
	}
	conf(&tc, "fstype", fstype, "mkfs", mkfs, "image_size", size,
	    "mount_options", "noatime", NULL);
	assert_int_equal(target_conf_check(&tc, &key, err), 0);
	if (target_setup(&cur, &tc, scratch, err) == -1)
		fail_msg("%s", err);
	cur_set = true;
	assert_true(cur.mounted);
	assert_non_null(cur.loopdev);
	assert_true(mounted_as(cur.mnt, fstype));
	assert_int_equal(loops_under(real, false), 1);
	(void)snprintf(path, sizeof(path), "%s/hello", cur.mnt);
	touch(path);
	/* A remount keeps the files and mounts the same device again. */
	assert_true(target_can_remount(&cur, &why));
	if (target_remount(&cur, err) == -1)
		fail_msg("%s", err);
	assert_true(cur.mounted);
	assert_true(mounted_as(cur.mnt, fstype));
	assert_int_equal(access(path, F_OK), 0);
	/* Busy: refused, never detached lazily, still mounted. */
	fd = open(path, O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	assert_int_equal(target_remount(&cur, err), -1);
	assert_int_equal(errno, EBUSY);
	assert_non_null(strstr(err, "remount: unmount"));
	(void)close(fd);
	assert_true(mounted_as(cur.mnt, fstype));
	(void)snprintf(path, sizeof(path), "%s %s", mkfs, cur.loopdev);
	assert_string_equal(cur.mkfs_cmd, path);
	memset(&kv, 0, sizeof(kv));
	target_meta(&cur, &kv);
	assert_string_equal(kv_get(&kv, "target_kind"), "image");
	assert_string_equal(kv_get(&kv, "mkfs"), path);
	assert_string_equal(kv_get(&kv, "image"), cur.image);
	assert_string_equal(kv_get(&kv, "loop_device"), cur.loopdev);
	assert_string_equal(kv_get(&kv, "loop_direct_io"),
	    cur.direct_io ? "yes" : "no");
	(void)snprintf(path, sizeof(path), "%" PRIu64, tc.image_size);
	assert_string_equal(kv_get(&kv, "image_size"), path);
	kv_free(&kv);

	if (target_teardown(&cur, err) == -1)
		fail_msg("%s", err);
	cur_set = false;
	assert_int_equal(mounts_under(real), 0);
	assert_int_equal(loops_under(real, false), 0);
	assert_int_equal(entries(scratch), 0);
	target_conf_free(&tc);
}

static void
test_ext4(void **state)
{
	(void)state;
	image_case("ext4", "mkfs.ext4 -q -F", "64M");
}

static void
test_xfs(void **state)
{
	(void)state;
	image_case("xfs", "mkfs.xfs -q -f", "300M");
}

static void
test_btrfs(void **state)
{
	(void)state;
	image_case("btrfs", "mkfs.btrfs -q -f", "128M");
}

/*
 * Set up 'tc' under the scratch directory in a child process, which must
 * fail, and copy its message into 'err' ('len' bytes).  What the child
 * leaves is marked by a process that is gone, as after a run.
 */
static void
setup_fails_in_child(const struct target_conf *tc, char *err, size_t len)
{
	char	e[LD_ERRLEN];
	pid_t	pid;
	ssize_t	got;
	int	p[2], status;

	assert_int_equal(pipe(p), 0);
	pid = fork();
	assert_true(pid != -1);
	if (pid == 0) {
		(void)close(p[0]);
		if (target_setup(&cur, tc, scratch, e) == 0)
			_exit(1);
		(void)!write(p[1], e, strlen(e));
		_exit(0);
	}
	(void)close(p[1]);
	got = read(p[0], err, len - 1);
	(void)close(p[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	assert_true(got > 0);
	err[got] = '\0';
}

/*
 * Check that 'err' is "PREFIX; log kept in LOG until largedir cleanup"
 * with LOG the mkfs.log of a run directory in the scratch directory that
 * holds only the marker and the log, and that the log's last line is
 * 'last'.  Return the run directory in 'rundir'.
 */
static void
kept_log(const char *err, const char *prefix, const char *last,
    char *rundir, size_t len)
{
	const char	*p, *q;
	char		 line[LD_ERRLEN], log[PATH_MAX];
	FILE		*fp;

	if (strncmp(err, prefix, strlen(prefix)) != 0)
		fail_msg("'%s' does not start with '%s'", err, prefix);
	p = strstr(err, "; log kept in ");
	assert_non_null(p);
	p += strlen("; log kept in ");
	q = strstr(p, " until largedir cleanup");
	assert_non_null(q);
	assert_string_equal(q, " until largedir cleanup");
	(void)snprintf(log, sizeof(log), "%.*s", (int)(q - p), p);
	assert_int_equal(strncmp(log, scratch, strlen(scratch)), 0);
	assert_string_equal(log + strlen(log) - 9, "/mkfs.log");
	(void)snprintf(rundir, len, "%.*s", (int)(strlen(log) - 9), log);
	assert_int_equal(entries(rundir), 2);
	fp = fopen(log, "r");
	assert_non_null(fp);
	line[0] = '\0';
	while (fgets(line, sizeof(line), fp) != NULL && strcmp(line, "\n") != 0)
		;
	(void)fclose(fp);
	line[strcspn(line, "\n")] = '\0';
	assert_string_equal(line, last);
}

/*
 * A failing mkfs: its last line and its log in the message, the log
 * kept (with the marker, nothing else) until a sweep after the run;
 * no mount, no loop device left.
 */
static void
test_mkfs_fails(void **state)
{
	struct target_conf	tc;
	struct seen		s;
	char			err[LD_ERRLEN], rundir[2][PATH_MAX];

	(void)state;
	if (!root_ok()) {
		print_message("skipped: needs root and /dev/loop-control "
		    "(loop devices, mkfs, mount)\n");
		skip();
	}
	conf(&tc, "fstype", "ext4", "mkfs", "mkfs.ext4 -q -F -b 999",
	    "image_size", "16M", NULL);
	setup_fails_in_child(&tc, err, sizeof(err));
	kept_log(err, "mkfs.ext4 failed (exit 1): mkfs.ext4: invalid block "
	    "size - 999; log kept in ", "mkfs.ext4: invalid block size - 999",
	    rundir[0], sizeof(rundir[0]));
	assert_int_equal(loops_under(real, false), 0);
	assert_int_equal(mounts_under(real), 0);
	assert_int_equal(entries(scratch), 1);
	target_conf_free(&tc);

	conf(&tc, "fstype", "ext4", "mkfs", "mkfs.nonexistent",
	    "image_size", "16M", NULL);
	setup_fails_in_child(&tc, err, sizeof(err));
	kept_log(err, "mkfs.nonexistent failed (exit 127): execvp "
	    "mkfs.nonexistent: No such file or directory; log kept in ",
	    "execvp mkfs.nonexistent: No such file or directory", rundir[1],
	    sizeof(rundir[1]));
	assert_int_equal(entries(scratch), 2);
	target_conf_free(&tc);

	/* The sweep (largedir cleanup) removes both. */
	memset(&s, 0, sizeof(s));
	assert_int_equal(target_sweep(scratch, record, &s, err), 2);
	assert_true(s.removed[0] && s.removed[1]);
	assert_false(s.unmounted[0] || s.unmounted[1]);
	assert_string_equal(s.loopdev[0], "");
	assert_int_equal(entries(scratch), 0);

	/* A bad mount option fails the mount, after mkfs: no log kept. */
	conf(&tc, "fstype", "ext4", "mkfs", "mkfs.ext4 -q -F",
	    "mount_options", "no_such_option", "image_size", "16M", NULL);
	assert_int_equal(target_setup(&cur, &tc, scratch, err), -1);
	assert_int_equal(strncmp(err, "mount ext4 /dev/loop", 20), 0);
	assert_int_equal(loops_under(real, false), 0);
	assert_int_equal(entries(scratch), 0);
	target_conf_free(&tc);
}

/*
 * An image the scratch filesystem has no room for: refused before
 * anything is made, naming the directory, the size and the room.  A
 * tmpfs target needs no room there.
 */
static void
test_space(void **state)
{
	struct target_conf	tc;
	char			err[LD_ERRLEN], want[PATH_MAX + LD_ERRLEN];
	char			tiny[PATH_MAX], sub[PATH_MAX + 32];

	(void)state;
	if (!root_ok()) {
		print_message("skipped: needs root and /dev/loop-control "
		    "(loop devices, mkfs, mount)\n");
		skip();
	}
	(void)snprintf(tiny, sizeof(tiny), "%s/tiny", scratch);
	assert_int_equal(mkdir(tiny, 0755), 0);
	assert_int_equal(mount("largedir-test", tiny, "tmpfs", 0, "size=1m"),
	    0);
	(void)snprintf(sub, sizeof(sub), "%s/a/b", tiny);
	conf(&tc, "fstype", "ext4", "mkfs", "mkfs.ext4 -q -F", "image_size",
	    "64M", NULL);
	assert_int_equal(target_setup(&cur, &tc, sub, err), -1);
	assert_int_equal(errno, ENOSPC);
	(void)snprintf(want, sizeof(want), "scratch directory %s: 1.0 MiB "
	    "free, the image needs 64.0 MiB (sparse, but mkfs and the run "
	    "fill it): use another --scratch or a smaller image_size", sub);
	assert_string_equal(err, want);
	assert_int_equal(entries(tiny), 0);
	assert_int_equal(loops_under(real, false), 0);
	target_conf_free(&tc);

	conf(&tc, "fstype", "tmpfs", "mount_options", "size=16m", NULL);
	if (target_setup(&cur, &tc, sub, err) == -1)
		fail_msg("%s", err);
	cur_set = true;
	assert_int_equal(target_teardown(&cur, err), 0);
	cur_set = false;
	target_conf_free(&tc);
	assert_int_equal(umount(tiny), 0);
}

/*
 * A mount that brings something else than was asked for (libmount is
 * wrapped to mount it instead) is unmounted and refused, and nothing is
 * left.
 */
static void
test_readback(void **state)
{
	struct target_conf	tc;
	char			err[LD_ERRLEN], elsewhere[PATH_MAX];
	char			shm[PATH_MAX], sub[PATH_MAX + 8];
	const char		*p;

	(void)state;
	if (!root_ok()) {
		print_message("skipped: needs root and /dev/loop-control "
		    "(loop devices, mkfs, mount)\n");
		skip();
	}
	/* fstype tmpfs, but a directory of the scratch filesystem, bound. */
	(void)snprintf(elsewhere, sizeof(elsewhere), "%s/elsewhere", scratch);
	assert_int_equal(mkdir(elsewhere, 0755), 0);
	conf(&tc, "fstype", "tmpfs", NULL);
	fake_src = elsewhere;
	fake_flags = MS_BIND;
	assert_int_equal(target_setup(&cur, &tc, scratch, err), -1);
	fake_src = NULL;
	fake_flags = 0;
	assert_int_equal(errno, EMEDIUMTYPE);
	assert_int_equal(strncmp(err, "after mounting, ", 16), 0);
	/* Unless the scratch filesystem is a tmpfs itself. */
	if ((p = strstr(err, ", not the tmpfs asked for")) == NULL)
		p = strstr(err, "/elsewhere of tmpfs ");
	if (p == NULL)
		fail_msg("%s", err);
	assert_int_equal(mounts_under(real), 0);
	assert_int_equal(entries(scratch), 1);

	/* fstype tmpfs, and tmpfs, but a directory of another one. */
	(void)snprintf(shm, sizeof(shm), "%s/shm", scratch);
	(void)snprintf(sub, sizeof(sub), "%s/sub", shm);
	assert_int_equal(mkdir(shm, 0755), 0);
	assert_int_equal(mount("shm", shm, "tmpfs", 0, "size=1m"), 0);
	assert_int_equal(mkdir(sub, 0755), 0);
	fake_src = sub;
	fake_flags = MS_BIND;
	assert_int_equal(target_setup(&cur, &tc, scratch, err), -1);
	fake_src = NULL;
	fake_flags = 0;
	assert_non_null(p = strstr(err, " holds /sub of tmpfs shm, not a "
	    "fresh filesystem"));
	assert_string_equal(p, " holds /sub of tmpfs shm, not a fresh "
	    "filesystem");
	assert_int_equal(umount(shm), 0);
	assert_int_equal(mounts_under(real), 0);
	assert_int_equal(entries(scratch), 2);

	/* libmount says it mounted, but nothing is there. */
	fake_none = true;
	assert_int_equal(target_setup(&cur, &tc, scratch, err), -1);
	fake_none = false;
	assert_int_equal(strncmp(err, "after mounting, nothing is mounted "
	    "on ", 36), 0);
	assert_int_equal(entries(scratch), 2);
	target_conf_free(&tc);

	/* An ext4 image, but a tmpfs on its mount point. */
	conf(&tc, "fstype", "ext4", "mkfs", "mkfs.ext4 -q -F", "image_size",
	    "16M", NULL);
	fake_src = "largedir";
	fake_type = "tmpfs";
	assert_int_equal(target_setup(&cur, &tc, scratch, err), -1);
	fake_src = fake_type = NULL;
	assert_non_null(p = strstr(err, " holds tmpfs from largedir, not the "
	    "ext4 asked for"));
	assert_string_equal(p, " holds tmpfs from largedir, not the ext4 "
	    "asked for");
	assert_int_equal(mounts_under(real), 0);
	assert_int_equal(loops_under(real, false), 0);
	assert_int_equal(entries(scratch), 2);
	target_conf_free(&tc);
}

/* Attach 'image' to a free loop device; write its name into 'dev'. */
static void
attach(const char *image, char *dev, size_t len)
{
	struct loop_config	lc;
	int			ctl, fd, ifd, n;

	ctl = open("/dev/loop-control", O_RDWR);
	assert_true(ctl >= 0);
	ifd = open(image, O_RDWR);
	assert_true(ifd >= 0);
	n = ioctl(ctl, LOOP_CTL_GET_FREE);
	assert_true(n >= 0);
	(void)snprintf(dev, len, "/dev/loop%d", n);
	fd = open(dev, O_RDWR);
	assert_true(fd >= 0);
	memset(&lc, 0, sizeof(lc));
	lc.fd = (uint32_t)ifd;
	assert_int_equal(ioctl(fd, LOOP_CONFIGURE, &lc), 0);
	(void)close(fd);
	(void)close(ifd);
	(void)close(ctl);
}

static void
test_device(void **state)
{
	struct target_conf	tc;
	char			err[LD_ERRLEN], want[PATH_MAX + LD_ERRLEN];
	char			image[PATH_MAX], m[PATH_MAX], dev[64];
	char			cmd[PATH_MAX + 64], file[PATH_MAX + 8];
	const char		*key;
	int			fd;

	(void)state;
	if (!root_ok()) {
		print_message("skipped: needs root and /dev/loop-control "
		    "(loop devices, mkfs, mount)\n");
		skip();
	}
	(void)snprintf(image, sizeof(image), "%s/disk", scratch);
	(void)snprintf(m, sizeof(m), "%s/m", scratch);
	(void)snprintf(file, sizeof(file), "%s/keep", m);
	fd = open(image, O_RDWR | O_CREAT | O_EXCL, 0600);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, 64 << 20), 0);
	assert_int_equal(close(fd), 0);
	assert_int_equal(mkdir(m, 0755), 0);
	attach(image, dev, sizeof(dev));
	(void)snprintf(cmd, sizeof(cmd), "mkfs.ext4 -q -F %s", dev);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(mount(dev, m, "ext4", 0, NULL), 0);
	touch(file);
	assert_int_equal(umount(m), 0);

	conf(&tc, "fstype", "ext4", "mkfs", "mkfs.ext4 -q -F", "device", dev,
	    NULL);
	assert_int_equal(target_conf_check(&tc, &key, err), 0);
	assert_int_equal(target_setup(&cur, &tc, scratch, err), -1);
	assert_int_equal(errno, EEXIST);
	(void)snprintf(want, sizeof(want), "device %s holds an ext4 "
	    "filesystem: refusing mkfs (set wipe = yes to allow it)", dev);
	assert_string_equal(err, want);
	assert_int_equal(entries(scratch), 2);

	/* Mounted: refused even with wipe = yes. */
	assert_int_equal(mount(dev, m, "ext4", MS_RDONLY, NULL), 0);
	assert_int_equal(target_conf_set(&tc, "wipe", "yes", err), 0);
	assert_int_equal(target_setup(&cur, &tc, scratch, err), -1);
	assert_int_equal(errno, EBUSY);
	(void)snprintf(want, sizeof(want), "device %s is mounted on %s/m: "
	    "refusing mkfs", dev, real);
	assert_string_equal(err, want);
	assert_int_equal(access(file, F_OK), 0);
	assert_int_equal(umount(m), 0);
	target_conf_free(&tc);

	/* Not a block device. */
	conf(&tc, "fstype", "ext4", "mkfs", "mkfs.ext4", "device", "/dev/null",
	    NULL);
	assert_int_equal(target_setup(&cur, &tc, scratch, err), -1);
	assert_string_equal(err, "device /dev/null: not a block device");
	assert_int_equal(entries(scratch), 2);
	target_conf_free(&tc);
	/* The teardown detaches dev: it is backed by a file in scratch. */
}

/* ===== Sweep ===== */

/*
 * Fork a child that sets up an ext4 image target under 'sub' and dies
 * without a teardown; return its run directory in 'rundir'.
 */
static void
crash(const char *sub, char *rundir, size_t len)
{
	struct target_conf	tc;
	char			err[LD_ERRLEN];
	pid_t			pid;
	ssize_t			got;
	int			p[2], status;

	assert_int_equal(pipe(p), 0);
	pid = fork();
	assert_true(pid != -1);
	if (pid == 0) {
		(void)close(p[0]);
		conf(&tc, "fstype", "ext4", "mkfs", "mkfs.ext4 -q -F",
		    "image_size", "32M", NULL);
		if (target_setup(&cur, &tc, sub, err) == -1)
			_exit(1);
		(void)!write(p[1], cur.rundir, strlen(cur.rundir));
		_exit(0);
	}
	(void)close(p[1]);
	got = read(p[0], rundir, len - 1);
	(void)close(p[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	assert_true(got > 0);
	rundir[got] = '\0';
}

static void
test_sweep_crash(void **state)
{
	struct seen	s;
	char		err[LD_ERRLEN], rundir[PATH_MAX], sub[PATH_MAX];

	(void)state;
	memset(&s, 0, sizeof(s));
	(void)snprintf(sub, sizeof(sub), "%s/none", scratch);
	assert_int_equal(target_sweep(sub, record, &s, err), 0);
	if (!root_ok()) {
		print_message("skipped: needs root and /dev/loop-control "
		    "(loop devices, mkfs, mount)\n");
		skip();
	}
	crash(scratch, rundir, sizeof(rundir));
	assert_int_equal(mounts_under(real), 1);
	assert_int_equal(loops_under(real, false), 1);

	/* A look-alike without a marker is no business of the sweep. */
	(void)snprintf(sub, sizeof(sub), "%s/target.fake", scratch);
	assert_int_equal(mkdir(sub, 0755), 0);

	assert_int_equal(target_sweep(scratch, record, &s, err), 1);
	assert_string_equal(s.path[0], rundir);
	assert_true(s.removed[0]);
	assert_true(s.unmounted[0]);
	assert_int_equal(strncmp(s.loopdev[0], "/dev/loop", 9), 0);
	assert_string_equal(s.why[0], "");
	assert_int_equal(mounts_under(real), 0);
	assert_int_equal(loops_under(real, false), 0);
	assert_int_equal(access(rundir, F_OK), -1);
	assert_int_equal(entries(scratch), 1);

	/* Nothing left: a second sweep finds nothing. */
	memset(&s, 0, sizeof(s));
	assert_int_equal(target_sweep(scratch, record, &s, err), 0);
}

static void
test_sweep_foreign(void **state)
{
	struct seen	s;
	char		err[LD_ERRLEN], rundir[PATH_MAX], path[PATH_MAX + 32];

	(void)state;
	if (!root_ok()) {
		print_message("skipped: needs root and /dev/loop-control "
		    "(loop devices, mkfs, mount)\n");
		skip();
	}
	crash(scratch, rundir, sizeof(rundir));
	(void)snprintf(path, sizeof(path), "%s/notes.txt", rundir);
	touch(path);

	memset(&s, 0, sizeof(s));
	assert_int_equal(target_sweep(scratch, record, &s, err), 1);
	assert_false(s.removed[0]);
	assert_true(s.unmounted[0]);
	assert_int_equal(strncmp(s.loopdev[0], "/dev/loop", 9), 0);
	assert_string_equal(s.why[0], "holds files largedir did not make");
	assert_int_equal(mounts_under(real), 0);
	assert_int_equal(loops_under(real, false), 0);
	assert_int_equal(access(path, F_OK), 0);
	(void)snprintf(path, sizeof(path), "%s/" TARGET_MARKER, rundir);
	assert_int_equal(access(path, F_OK), 0);
	(void)snprintf(path, sizeof(path), "%s/image", rundir);
	assert_int_equal(access(path, F_OK), -1);
	assert_int_equal(entries(rundir), 2);

	/* Still marked: a later sweep reports it again and keeps it. */
	memset(&s, 0, sizeof(s));
	assert_int_equal(target_sweep(scratch, record, &s, err), 1);
	assert_false(s.removed[0]);
	assert_false(s.unmounted[0]);
	assert_string_equal(s.loopdev[0], "");
}

/* A stand-in UML kernel at 'path' whose --version prints 'release'. */
static void
fake_kernel(const char *path, const char *release)
{
	FILE	*fp;

	assert_non_null(fp = fopen(path, "w"));
	fprintf(fp, "#!/bin/sh\n[ \"$1\" = --version ] && echo %s && exit 0\n"
	    "exit 1\n", release);
	assert_int_equal(fclose(fp), 0);
	assert_int_equal(chmod(path, 0755), 0);
}

/* uml_cpus: one CPU needs no kernel; more need Linux 6.19 or later. */
static void
test_uml_cpus(void **state)
{
	char	dir[] = "/tmp/test_target.XXXXXX", k[PATH_MAX + 8];
	char	err[LD_ERRLEN];

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(uml_cpus_check("/nonexistent", 1, err), 0);
	(void)snprintf(k, sizeof(k), "%s/k612", dir);
	fake_kernel(k, "6.12.118");
	assert_int_equal(uml_cpus_check(k, 2, err), -1);
	assert_int_equal(errno, ENOTSUP);
	assert_non_null(strstr(err, "uml_cpus 2: "));
	assert_non_null(strstr(err, "(Linux 6.12.118) runs one CPU; User-Mode "
	    "Linux runs more from Linux 6.19"));
	assert_int_equal(unlink(k), 0);
	(void)snprintf(k, sizeof(k), "%s/k619", dir);
	fake_kernel(k, "6.19.2");
	assert_int_equal(uml_cpus_check(k, 4, err), 0);
	assert_int_equal(unlink(k), 0);
	(void)snprintf(k, sizeof(k), "%s/k7", dir);
	fake_kernel(k, "7.0.1");
	assert_int_equal(uml_cpus_check(k, 4, err), 0);
	assert_int_equal(unlink(k), 0);
	assert_int_equal(rmdir(dir), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_conf_set),
		cmocka_unit_test(test_uml_cpus),
		cmocka_unit_test(test_conf_mount_options),
		cmocka_unit_test(test_conf_key),
		cmocka_unit_test(test_conf_check),
		cmocka_unit_test(test_check_mount),
		cmocka_unit_test_setup_teardown(test_path, setup, teardown),
		cmocka_unit_test_setup_teardown(test_not_root, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_tmpfs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ext4, setup, teardown),
		cmocka_unit_test_setup_teardown(test_xfs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_btrfs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mkfs_fails, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_space, setup, teardown),
		cmocka_unit_test_setup_teardown(test_readback, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_device, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sweep_crash, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_sweep_foreign, setup,
		    teardown),
	};

	return cmocka_run_group_tests_name("target", tests, NULL, NULL);
}
