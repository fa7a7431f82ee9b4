/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * Unit tests for NFS targets that largedir mounts itself ("source =
 * HOST:/PATH"): the source key and its forms, the combinations a config
 * may not make (source with path, device, mkfs, image_size, a local
 * fstype), NFS versions that disagree with the fstype (target_conf.c);
 * what target_nfs_check() says about a machine, on directories laid out
 * like one (no NFS client and no modules, a module that can be loaded,
 * no mount.nfs); and, as root, what target_setup() does when the mount
 * goes wrong, with libmount wrapped (-Wl,--wrap=mnt_context_mount) since
 * this kernel has no NFS client: mount.nfs's complaint is quoted in the
 * one line of the error and stderr is given back, a mount of something
 * else is read back and refused, and nothing is left mounted or in the
 * scratch directory either way.
 */

#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
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
#include "record/output.h"
#include "target/target.h"
#include "target/target_nfs.h"

static char		scratch[64];	/* this test's directory */
static char		real[PATH_MAX];	/* its real path */
static struct target	cur;
static bool		cur_set;

/*
 * What the wrapped mnt_context_mount() does instead of running mount.nfs:
 * write 'fake_said' to stderr, as mount.nfs would, and fail; or mount a
 * tmpfs from 'fake_src'; the real thing while both are unset.
 */
static const char	*fake_said, *fake_src;
static bool		 faked;

int	__real_mnt_context_mount(struct libmnt_context *);
int	__wrap_mnt_context_mount(struct libmnt_context *);
int	__real_mnt_context_get_status(struct libmnt_context *);
int	__wrap_mnt_context_get_status(struct libmnt_context *);

/* ===== libmount, wrapped ===== */

int
__wrap_mnt_context_mount(struct libmnt_context *cxt)
{
	if (fake_said != NULL) {
		(void)dprintf(STDERR_FILENO, "%s\n", fake_said);
		return -EIO;
	}
	if (fake_src == NULL)
		return __real_mnt_context_mount(cxt);
	if (mount(fake_src, mnt_context_get_target(cxt), "tmpfs", 0,
	    "size=1m") == -1)
		return -errno;
	faked = true;
	return 0;
}

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

/* Write 'text' into the new file 'dir'/'name', with 'mode'. */
static void
put(const char *dir, const char *name, const char *text, mode_t mode)
{
	char	path[PATH_MAX];
	int	fd;

	(void)snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	assert_int_equal(close(fd), 0);
}

/* Make directory 'dir'/'name' and the ones above it. */
static void
mkdirs(const char *dir, const char *name)
{
	char	*path;

	path = xasprintf("%s/%s", dir, name);
	assert_int_equal(util_mkdir_p(path), 0);
	free(path);
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
	FILE	*fp;
	char	 line[4096], mp[PATH_MAX];

	(void)state;
	fake_said = fake_src = NULL;
	faked = false;
	if (cur_set)
		(void)target_teardown(&cur, err);
	cur_set = false;
	if ((fp = fopen("/proc/self/mountinfo", "r")) != NULL) {
		while (fgets(line, sizeof(line), fp) != NULL)
			if (sscanf(line, "%*d %*d %*s %*s %4095s", mp) == 1 &&
			    strncmp(mp, real, strlen(real)) == 0)
				(void)umount2(mp, MNT_DETACH);
		(void)fclose(fp);
	}
	(void)snprintf(cmd, sizeof(cmd), "rm -rf --one-file-system '%s'",
	    real);
	assert_int_equal(system(cmd), 0);
	return 0;
}

/* ===== Configuration ===== */

/* The forms of source: HOST:/PATH, IPv6 in brackets, nothing else. */
static void
test_source(void **state)
{
#define NOT	"': not HOST:/PATH (an NFS export, e.g. 127.0.0.1:/export)"
	static const struct {
		const char	*value;
		bool		 ok;
	} cases[] = {
		{ "127.0.0.1:/export", true },
		{ "filer:/", true },
		{ "filer.example.com:/vol/home/x", true },
		{ "my_filer-2:/a:b", true },
		{ "filer:/caf\xe9", true },	/* a file name: any bytes */
		{ "[::1]:/export", true },
		{ "[fe80::1%eth0]:/export", true },
		{ "x", false },
		{ "", false },
		{ "/export", false },
		{ ":/export", false },
		{ "filer:", false },
		{ "filer:export", false },
		{ "filer/x:/export", false },
		{ "::1:/export", false },
		{ "[]:/export", false },
		{ "[::1:/export", false },
		{ "[::1]/export", false },
		{ "filer:/my export", false },
		{ "filer:/a\tb", false },
		{ "filer:/a\nb", false },
		{ "nfs://filer/export", false },
	};
	struct target_conf	tc;
	char			err[LD_ERRLEN], want[LD_ERRLEN];
	size_t			i;

	(void)state;
	target_conf_init(&tc);
	assert_true(target_conf_key("source"));
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		err[0] = '\0';
		errno = 0;
		if (cases[i].ok) {
			if (target_conf_set(&tc, "source", cases[i].value,
			    err) != 0)
				fail_msg("'%s': %s", cases[i].value, err);
			assert_string_equal(tc.source, cases[i].value);
			continue;
		}
		if (target_conf_set(&tc, "source", cases[i].value, err) != -1)
			fail_msg("'%s': accepted", cases[i].value);
		assert_int_equal(errno, EINVAL);
		(void)snprintf(want, sizeof(want), "source '%s" NOT,
		    cases[i].value);
		assert_string_equal(err, want);
	}
	/* A refused value leaves the last good one. */
	assert_string_equal(tc.source, "[fe80::1%eth0]:/export");
	target_conf_free(&tc);
	assert_null(tc.source);
#undef NOT
}

/*
 * Whole configs with a source: which combinations pass, and for each that
 * does not, the message and the key whose line it is about.
 */
static void
test_check(void **state)
{
#define NFS	"fstype", "nfs", "source", "srv:/x"
#define NFS4	"fstype", "nfs4", "source", "srv:/x"
#define V3	"mount_options", "vers=3"
	static const struct {
		const char	*kv[12];
		const char	*key, *msg;
	} cases[] = {
		{ { NFS, V3 }, NULL, NULL },
		{ { NFS, "mount_options", "nfsvers=2,nordirplus" }, NULL,
		    NULL },
		{ { NFS, "mount_options", "vers=4,v3" }, NULL, NULL },
		{ { NFS, "mount_options", "proto=tcp,vers=3,nolock,port=2049,"
		    "mountport=20048,mountproto=tcp,actimeo=0" }, NULL, NULL },
		{ { NFS4 }, NULL, NULL },
		{ { NFS4, "mount_options", "vers=4.2,port=2049" }, NULL,
		    NULL },
		{ { NFS4, "mount_options", "v4.1" }, NULL, NULL },
		{ { NFS4, "mount_options", "vers=3,nfsvers=4.0" }, NULL,
		    NULL },
		{ { "path", "/mnt/nfs", "fstype", "nfs" }, NULL, NULL },
		/* server: what serves an export, wherever one does. */
		{ { NFS, V3, "server", "NFS-Ganesha 4.3, FSAL VFS on ext4" },
		    NULL, NULL },
		{ { "url", "nfs://srv/x", "server", "a filer" }, NULL, NULL },
		{ { "path", "/mnt/nfs", "server", "knfsd 6.1" }, NULL, NULL },
		{ { "fstype", "tmpfs", "server", "x" }, "server", "server with "
		    "a filesystem largedir makes: server says what serves an "
		    "export (source, url, or a path on a network mount)" },
		{ { NFS }, "mount_options", "mount_options: fstype nfs needs "
		    "vers=3 (or 2): without it mount.nfs tries NFSv4 first, "
		    "which the kernel mounts as nfs4" },
		{ { NFS, "mount_options", "noatime" }, "mount_options",
		    "mount_options: fstype nfs needs vers=3 (or 2): without "
		    "it mount.nfs tries NFSv4 first, which the kernel mounts "
		    "as nfs4" },
		{ { NFS, "mount_options", "vers=4.1" }, "mount_options",
		    "mount_options: NFS version 4.1 with fstype nfs: the "
		    "kernel mounts NFSv4 as nfs4, so say fstype = nfs4" },
		{ { NFS, "mount_options", "vers=3,v4" }, "mount_options",
		    "mount_options: NFS version 4 with fstype nfs: the kernel "
		    "mounts NFSv4 as nfs4, so say fstype = nfs4" },
		{ { NFS4, V3 }, "mount_options", "mount_options: NFS version "
		    "3 with fstype nfs4: use fstype = nfs for NFSv3" },
		{ { NFS4, "mount_options", "nfsvers=2" }, "mount_options",
		    "mount_options: NFS version 2 with fstype nfs4: use fstype "
		    "= nfs for NFSv2" },
		{ { NFS4, "mount_options", "vers=5" }, "mount_options",
		    "mount_options: NFS version '5': not 2, 3, 4 or 4.N" },
		{ { NFS, "mount_options", "vers=3.0" }, "mount_options",
		    "mount_options: NFS version '3.0': not 2, 3, 4 or 4.N" },
		{ { NFS4, "mount_options", "vers=4." }, "mount_options",
		    "mount_options: NFS version '4.': not 2, 3, 4 or 4.N" },
		{ { NFS4, "mount_options", "vers=" }, "mount_options",
		    "mount_options: NFS version '': not 2, 3, 4 or 4.N" },
		{ { NFS, V3, "path", "/mnt/nfs" }, "source", "path and source "
		    "are both set: a target is an existing mount or an export "
		    "to mount" },
		{ { NFS, V3, "device", "/dev/sdb" }, "device", "source and "
		    "device are both set: a target is one or the other" },
		{ { NFS, V3, "mkfs", "true" }, "mkfs", "source with mkfs: the "
		    "server makes the filesystem it exports" },
		{ { NFS, V3, "image_size", "1G" }, "image_size", "source with "
		    "image_size: an NFS export needs no image" },
		{ { NFS, V3, "wipe", "yes" }, "wipe", "source with wipe: an "
		    "NFS export is never formatted" },
		{ { "fstype", "ext4", "source", "srv:/x", "mkfs", "true" },
		    "source", "source with fstype ext4: only nfs and nfs4 "
		    "mount a server's export (a block device is 'device =')" },
		{ { "fstype", "tmpfs", "source", "srv:/x" }, "source",
		    "source with fstype tmpfs: only nfs and nfs4 mount a "
		    "server's export (a block device is 'device =')" },
		{ { "source", "srv:/x" }, NULL, "fstype missing (e.g. fstype "
		    "= nfs4)" },
		{ { "url", "nfs://srv/x", "source", "srv:/x" }, "url", "url "
		    "with source: the server sets up what a URL names" },
		{ { "fstype", "nfs" }, "fstype", "fstype nfs needs source (an "
		    "export largedir mounts, HOST:/PATH) or path (an existing "
		    "NFS mount)" },
		{ { "fstype", "nfs4", "mount_options", "vers=4" }, "fstype",
		    "fstype nfs4 needs source (an export largedir mounts, "
		    "HOST:/PATH) or path (an existing NFS mount)" },
	};
	struct target_conf	 tc;
	char			 err[LD_ERRLEN];
	const char		*key;
	size_t			 i, k;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		target_conf_init(&tc);
		for (k = 0; cases[i].kv[k] != NULL; k += 2)
			if (target_conf_set(&tc, cases[i].kv[k],
			    cases[i].kv[k + 1], err) == -1)
				fail_msg("case %zu: %s", i, err);
		err[0] = '\0';
		key = "unset";
		errno = 0;
		if (cases[i].msg == NULL) {
			if (target_conf_check(&tc, &key, err) != 0)
				fail_msg("case %zu: %s", i, err);
			target_conf_free(&tc);
			continue;
		}
		if (target_conf_check(&tc, &key, err) != -1)
			fail_msg("case %zu accepted", i);
		assert_int_equal(errno, EINVAL);
		assert_string_equal(err, cases[i].msg);
		if (cases[i].key == NULL)
			assert_null(key);
		else
			assert_string_equal(key, cases[i].key);
		target_conf_free(&tc);
	}
#undef NFS
#undef NFS4
#undef V3
}

/* The mount options an NFS mount must not take are refused as ever. */
static void
test_options(void **state)
{
	struct target_conf	tc;
	char			err[LD_ERRLEN];

	(void)state;
	target_conf_init(&tc);
	assert_int_equal(target_conf_set(&tc, "mount_options",
	    "vers=3,source=other:/x", err), -1);
	assert_string_equal(err, "mount_options: 'source=other:/x' refused: "
	    "the kernel takes it for the device to mount");
	assert_int_equal(target_conf_set(&tc, "mount_options",
	    "vers=3,bind", err), -1);
	assert_int_equal(target_conf_set(&tc, "mount_options",
	    "vers=3,X-mount.subdir=a", err), -1);
	assert_int_equal(target_conf_set(&tc, "mount_options",
	    "vers=3,nordirplus,actimeo=0,nolock,lookupcache=none,"
	    "rsize=1048576,sec=sys,timeo=600,retrans=2,hard", err), 0);
	target_conf_free(&tc);
}

/* ===== What the machine has ===== */

/*
 * target_nfs_check() on a directory laid out like a machine: without an
 * NFS client and without modules, with a module it can load, with the
 * client loaded or built in, without mount.nfs.
 */
static void
test_machine(void **state)
{
	struct utsname	 uts;
	char		 err[LD_ERRLEN], want[LD_ERRLEN], *mods;

	(void)state;
	assert_int_equal(uname(&uts), 0);
	mkdirs(scratch, "proc");
	mkdirs(scratch, "sbin");
	put(scratch, "proc/filesystems", "nodev\tsysfs\nnodev\ttmpfs\n\text4\n"
	    "\txfs\n", 0644);
	put(scratch, "sbin/mount.nfs", "#!/bin/sh\nexit 32\n", 0755);
	put(scratch, "sbin/mount.nfs4", "#!/bin/sh\nexit 32\n", 0755);

	/* This kernel: no client, no modules. */
	errno = 0;
	assert_int_equal(target_nfs_check(scratch, "nfs", err), -1);
	assert_int_equal(errno, ENODEV);
	assert_string_equal(err, "this kernel has no NFS client (no nfs in "
	    "/proc/filesystems, and it cannot load modules)");
	assert_int_equal(target_nfs_check(scratch, "nfs4", err), -1);
	assert_string_equal(err, "this kernel has no NFSv4 client (no nfs4 "
	    "in /proc/filesystems, and it cannot load modules)");

	/* Modules, but none for NFS. */
	put(scratch, "proc/modules", "ext4 1 0 - Live 0x0\n", 0444);
	assert_int_equal(target_nfs_check(scratch, "nfs", err), -1);
	(void)snprintf(want, sizeof(want), "this kernel has no NFS client (no "
	    "nfs in /proc/filesystems, no module fs-nfs in /lib/modules/%s)",
	    uts.release);
	assert_string_equal(err, want);
	mods = xasprintf("lib/modules/%s", uts.release);
	mkdirs(scratch, mods);
	free(mods);
	mods = xasprintf("lib/modules/%s/modules.alias", uts.release);
	put(scratch, mods, "# Aliases extracted from modules themselves.\n"
	    "alias fs-nfsd nfsd\nalias fs-nfs4x nfsv4\n", 0644);
	assert_int_equal(target_nfs_check(scratch, "nfs", err), -1);
	assert_int_equal(errno, ENODEV);

	/* A module mount(2) loads by itself. */
	put(scratch, mods, "alias fs-nfsd nfsd\nalias fs-nfs nfs\n"
	    "alias fs-nfs4 nfsv4\n", 0644);
	free(mods);
	assert_int_equal(target_nfs_check(scratch, "nfs", err), 0);
	assert_int_equal(target_nfs_check(scratch, "nfs4", err), 0);

	/* Listed, with modules gone: fine too. */
	put(scratch, "proc/filesystems", "nodev\tsysfs\nnodev\tnfs\n"
	    "nodev\tnfs4\n", 0644);
	mods = xasprintf("%s/proc/modules", scratch);
	assert_int_equal(unlink(mods), 0);
	free(mods);
	assert_int_equal(target_nfs_check(scratch, "nfs", err), 0);

	/* No mount.nfs4 (nfs-common missing, or half of it). */
	mods = xasprintf("%s/sbin/mount.nfs4", scratch);
	assert_int_equal(unlink(mods), 0);
	free(mods);
	errno = 0;
	assert_int_equal(target_nfs_check(scratch, "nfs4", err), -1);
	assert_int_equal(errno, ENOENT);
	assert_string_equal(err, "no /sbin/mount.nfs4 to mount NFS exports "
	    "with: install nfs-common (Debian, Ubuntu) or nfs-utils");
	assert_int_equal(target_nfs_check(scratch, "nfs", err), 0);
}

/* ===== Mounting (root) ===== */

/* The identity of what fd 2 is open on. */
static void
stderr_is(dev_t *dev, ino_t *ino)
{
	struct stat	st;

	assert_int_equal(fstat(STDERR_FILENO, &st), 0);
	*dev = st.st_dev;
	*ino = st.st_ino;
}

/*
 * mount.nfs fails: its last line is in the error, stderr is ours again,
 * nothing is mounted and the run directory is gone.  A kernel without a
 * client (mount.nfs: No such device) is said as such.
 */
static void
test_mount_fails(void **state)
{
	struct target_conf	 tc;
	char			 err[LD_ERRLEN];
	const char		*p;
	dev_t			 dev, dev2;
	ino_t			 ino, ino2;

	(void)state;
	if (geteuid() != 0) {
		print_message("skipped: needs root (mount)\n");
		skip();
	}
	stderr_is(&dev, &ino);
	conf(&tc, "fstype", "nfs", "source", "127.0.0.1:/export",
	    "mount_options", "vers=3,nolock", NULL);
	fake_said = "mount.nfs: trying 127.0.0.1 prog 100003 vers 3\n"
	    "mount.nfs: Connection refused";
	assert_int_equal(target_setup(&cur, &tc, scratch, err), -1);
	fake_said = NULL;
	assert_non_null(p = strstr(err, "/mnt: mount.nfs: Connection "
	    "refused"));
	assert_string_equal(p, "/mnt: mount.nfs: Connection refused");
	assert_int_equal(strncmp(err, "mount nfs 127.0.0.1:/export on ", 31),
	    0);
	stderr_is(&dev2, &ino2);
	assert_true(dev == dev2 && ino == ino2);
	assert_int_equal(mounts_under(real), 0);
	assert_int_equal(entries(scratch), 0);

	fake_said = "mount.nfs: No such device";
	assert_int_equal(target_setup(&cur, &tc, scratch, err), -1);
	fake_said = NULL;
	assert_int_equal(errno, ENODEV);
	assert_string_equal(err, "this kernel has no NFS client (the mount "
	    "failed: mount.nfs: No such device)");
	target_conf_free(&tc);
	assert_int_equal(mounts_under(real), 0);
}

/*
 * A mount that is not the export asked for (a tmpfs from the same source
 * name) is read back, refused and undone; the real libmount, on a kernel
 * without a client, fails in one line and leaves nothing either.
 */
static void
test_mount_other(void **state)
{
	struct target_conf	 tc;
	char			 err[LD_ERRLEN];

	(void)state;
	if (geteuid() != 0) {
		print_message("skipped: needs root (mount)\n");
		skip();
	}
	conf(&tc, "fstype", "nfs4", "source", "127.0.0.1:/export", NULL);
	fake_src = "127.0.0.1:/export";
	assert_int_equal(target_setup(&cur, &tc, scratch, err), -1);
	fake_src = NULL;
	assert_int_equal(errno, EMEDIUMTYPE);
	assert_non_null(strstr(err, "/mnt holds tmpfs from 127.0.0.1:/export, "
	    "not the nfs4 asked for"));
	assert_int_equal(mounts_under(real), 0);
	assert_int_equal(entries(scratch), 0);
	target_conf_free(&tc);

	/* The real libmount and mount.nfs, if this kernel has no client. */
	if (target_nfs_check("", "nfs", err) == -1 && errno == ENODEV) {
		conf(&tc, "fstype", "nfs", "source", "127.0.0.1:/export",
		    "mount_options", "vers=3,nolock,retry=0", NULL);
		assert_int_equal(target_setup(&cur, &tc, scratch, err), -1);
		assert_null(strchr(err, '\n'));
		assert_int_equal(mounts_under(real), 0);
		assert_int_equal(entries(scratch), 0);
		target_conf_free(&tc);
	}
}

/*
 * target_meta() calls an NFS target what it is, names the export and
 * what serves it.
 */
static void
test_meta(void **state)
{
	struct kvlist	 kv;
	struct target		 t;
	char			 fstype[] = "nfs", source[] = "srv:/x";
	char			 server[] = "NFS-Ganesha 4.3, FSAL VFS";

	(void)state;
	memset(&t, 0, sizeof(t));
	memset(&kv, 0, sizeof(kv));
	t.conf.fstype = fstype;
	t.conf.source = source;
	t.conf.server = server;
	target_meta(&t, &kv);
	assert_string_equal(kv_get(&kv, "target_kind"), "nfs");
	assert_string_equal(kv_get(&kv, "target_source"), "srv:/x");
	assert_string_equal(kv_get(&kv, "target_server"),
	    "NFS-Ganesha 4.3, FSAL VFS");
	assert_null(kv_get(&kv, "image"));
	kv_free(&kv);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_source),
		cmocka_unit_test(test_check),
		cmocka_unit_test(test_options),
		cmocka_unit_test_setup_teardown(test_machine, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mount_fails, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_mount_other, setup,
		    teardown),
		cmocka_unit_test(test_meta),
	};

	return cmocka_run_group_tests_name("target_nfs", tests, NULL, NULL);
}
