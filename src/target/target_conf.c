/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * target_conf: see target_conf.h.  Nothing here touches the system but
 * the search of PATH for the mkfs program (in_path(), as execvp(3) will
 * search it): a config is checked whole before target_setup() makes
 * anything.
 *
 * Mount options are split with libmount's own parser, the one that will
 * read them at mount time, so that an option cannot hide from the check
 * behind quoting.  Refused are the options that make the mount something
 * other than a fresh filesystem of the config's fstype at its own mount
 * point (refused(), which says why): what libmount turns into MS_BIND,
 * MS_MOVE, MS_REMOUNT or a propagation change (whatever it calls them:
 * its table of Linux flags is asked, so rbind and rprivate are caught
 * too), the userspace options with which libmount sets up a device of
 * its own (loop, offset, sizelimit, encryption, verity.*) or runs a
 * helper (helper, uhelper), every X-* and x-* option (X-mount.subdir
 * mounts a subdirectory, X-mount.idmap an idmapped view), and "source",
 * which the kernel reads as the device to mount.  target_setup() still
 * reads back what was mounted.
 *
 * An NFS target names its export with "source = HOST:/PATH" (nfs_source()
 * checks the form, not the host).  Its mount options must say the same
 * NFS version as its fstype (check_nfs_version()): the kernel shows an
 * NFSv4 mount as nfs4 whatever type mount.nfs was given, and mount.nfs
 * tries NFSv4 first when no version is given, so "fstype = nfs" needs
 * vers=3 (or 2) and "fstype = nfs4" takes only 4 and 4.x; otherwise the
 * read-back after the mount would refuse what the kernel made, later and
 * less clearly.
 */

#include <sys/mount.h>
#include <sys/stat.h>

#include <errno.h>
#include <libmount.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "base/parse.h"
#include "base/util.h"
#include "target/target_conf.h"

#define IMAGE_MIN	((uint64_t)16 << 20)
#define IMAGE_MAX	((uint64_t)16 << 40)
#define UML_GRACE_MAX	(86400 * NS_PER_S)
#define UML_MEM_MIN	((uint64_t)128 << 20)
#define UML_MEM_MAX	((uint64_t)64 << 30)
#define UML_CPUS_MAX	64
#define LABEL_MAX	64
#define DEFAULT_PATH	"/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:" \
			    "/sbin:/bin"

static bool	in_path(const char *);
static bool	is_file_key(const char *);
static int	set_value(struct target_conf *, const char *, const char *,
		    char *);
static int	text_slot(struct target_conf *, const char *, const char *,
		    char ***, char *);
static const char *refused(const char *, size_t);
static int	check_mount_options(const char *, char *);
static bool	nfs_source(const char *);
static int	check_nfs_version(const char *, const char *, char *);
static int	check_nfs(const struct target_conf *, const char **, char *);
static bool	served(const struct target_conf *);

static const char *const fstypes[] = {
	"ext2", "ext3", "ext4", "xfs", "btrfs", "tmpfs", "reiserfs", "vxfs",
	"nfs", "nfs4", "f2fs", "jfs", NULL
};

static const char *const keys[] = {
	"label", "description", "description_de", "fstype", "mkfs",
	"mount_options",
	"image_size", "path", "source", "url", "server", "device", "wipe",
	"kernel", "uml", "uml_grace", "uml_mem", "uml_cpus", NULL
};

/* The keys that name files, here or on an NFS server: any bytes. */
static const char *const file_keys[] = {
	"path", "device", "uml", "source", NULL
};

/* ===== Helpers ===== */

/* Whether 'tc' may say what serves it: something else serves it. */
static bool
served(const struct target_conf *tc)
{
	return tc->server == NULL || tc->url != NULL || tc->source != NULL ||
	    tc->path != NULL;
}

/* Whether 'prog' is an executable file, found in PATH as execvp would. */
static bool
in_path(const char *prog)
{
	struct stat	 st;
	const char	*path, *p, *end;
	char		 buf[PATH_MAX];

	if (strchr(prog, '/') != NULL)
		return access(prog, X_OK) == 0 && stat(prog, &st) == 0 &&
		    S_ISREG(st.st_mode);
	if ((path = getenv("PATH")) == NULL)
		path = DEFAULT_PATH;
	for (p = path; ; p = end + 1) {
		end = strchrnul(p, ':');
		(void)snprintf(buf, sizeof(buf), "%.*s%s%s", (int)(end - p), p,
		    end == p ? "" : "/", prog);
		if (access(buf, X_OK) == 0 && stat(buf, &st) == 0 &&
		    S_ISREG(st.st_mode))
			return true;
		if (*end == '\0')
			return false;
	}
}

/* Whether 'key' names a file (file_keys[]). */
static bool
is_file_key(const char *key)
{
	size_t	i;

	for (i = 0; file_keys[i] != NULL; i++)
		if (strcmp(file_keys[i], key) == 0)
			return true;
	return false;
}

/*
 * Why mount option 'name' ('len' bytes, its value left out) is refused,
 * or NULL if it may be used.
 */
static const char *
refused(const char *name, size_t len)
{
	static const char *const loopish[] = {
		"loop", "offset", "sizelimit", "encryption", NULL
	};
	unsigned long	 flags = 0;
	char		 buf[64];
	size_t		 i;

/* Whether the option is the string literal 's'. */
#define IS(s)	(len == sizeof(s) - 1 && strncmp(name, (s), len) == 0)
	if (len >= 2 && strncasecmp(name, "x-", 2) == 0)
		return "libmount acts on X-mount.* (subdir, idmap, mkdir, "
		    "...) and x-* belongs in fstab";
	if (IS("source"))
		return "the kernel takes it for the device to mount";
	for (i = 0; loopish[i] != NULL; i++)
		if (len == strlen(loopish[i]) &&
		    strncmp(name, loopish[i], len) == 0)
			return "libmount would set up a loop device of its own";
	if (len >= 7 && strncmp(name, "verity.", 7) == 0)
		return "libmount would set up a dm-verity device";
	if (IS("helper") || IS("uhelper"))
		return "it names a mount helper to run";
	/* Names first: libmount's table may lack them (move, in 2.38). */
	if (IS("bind") || IS("rbind"))
		flags = MS_BIND;
	else if (IS("move") || IS("rmove"))
		flags = MS_MOVE;
	else if (IS("remount"))
		flags = MS_REMOUNT;
	else if (len < sizeof(buf)) {
		(void)memcpy(buf, name, len);
		buf[len] = '\0';
		if (mnt_optstr_get_flags(buf, &flags,
		    mnt_get_builtin_optmap(MNT_LINUX_MAP)) != 0)
			flags = 0;
	}
#undef IS
	if (flags & MS_BIND)
		return "a bind mount shows an existing directory, not a fresh "
		    "filesystem";
	if (flags & MS_MOVE)
		return "it moves an existing mount instead of making one";
	if (flags & MS_REMOUNT)
		return "it changes an existing mount instead of making one";
	if (flags & (MS_SHARED | MS_SLAVE | MS_PRIVATE | MS_UNBINDABLE |
	    MS_REC))
		return "a propagation change is about the mount tree, not the "
		    "filesystem under test";
	return NULL;
}

/*
 * Check the mount option string 'opts' option by option (see the top of
 * this file).  Return 0, or -1 with errno EINVAL and a message naming the
 * first refused option in 'err'.
 */
static int
check_mount_options(const char *opts, char *err)
{
	const char	*why;
	char		*copy, *p, *name, *value;
	size_t		 namesz, valuesz, quotes = 0;
	int		 rc;

	/* libmount drops what follows an open quote, and so would we. */
	for (p = strchr(opts, '"'); p != NULL; p = strchr(p + 1, '"'))
		quotes++;
	if (quotes % 2 != 0)
		return util_fail(err, EINVAL, "mount_options '%s': a quote is "
		    "not closed", opts);
	copy = xstrdup(opts);
	p = copy;
	while ((rc = mnt_optstr_next_option(&p, &name, &namesz, &value,
	    &valuesz)) == 0) {
		if ((why = refused(name, namesz)) == NULL)
			continue;
		(void)util_fail(err, EINVAL, "mount_options: '%.*s' refused: "
		    "%s", (int)(value != NULL ? (size_t)(value + valuesz -
		    name) : namesz), name, why);
		free(copy);
		return -1;
	}
	free(copy);
	if (rc < 0)
		return util_fail(err, EINVAL, "mount_options '%s': cannot be "
		    "parsed", opts);
	return 0;
}

/*
 * Whether 'value' has the form of an NFS export, HOST:/PATH: HOST a name
 * or an IPv4 address, or an IPv6 address in brackets ("[::1]:/export"),
 * PATH absolute, and no blank or control character anywhere.
 */
static bool
nfs_source(const char *value)
{
	const char	*p;
	size_t		 n;

	if (*value == '[') {
		n = strspn(value + 1, "0123456789abcdefABCDEF:.%"
		    "ghijklmnopqrstuvwxyzGHIJKLMNOPQRSTUVWXYZ_-");
		if (n == 0 || value[n + 1] != ']')
			return false;
		p = value + n + 2;
	} else {
		n = strspn(value, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnop"
		    "qrstuvwxyz0123456789.-_");
		if (n == 0)
			return false;
		p = value + n;
	}
	if (p[0] != ':' || p[1] != '/' || strstr(value, "://") != NULL)
		return false;
	for (; *p != '\0'; p++)
		if ((unsigned char)*p <= ' ' || *p == 0x7f)
			return false;
	return true;
}

/*
 * Check that the NFS version the mount options 'opts' (or NULL) ask for
 * agrees with 'fstype' (nfs or nfs4); see the top of this file.  The
 * version is the value of the last vers= or nfsvers=, or the last of the
 * flags v2, v3, v4, v4.N, as the kernel reads them.  Return 0, or -1 with
 * errno EINVAL and a message in 'err'.
 */
static int
check_nfs_version(const char *fstype, const char *opts, char *err)
{
	char		*copy, *p, *name, *value, vers[16] = "";
	size_t		 namesz, valuesz, n;
	bool		 four, given = false;

	copy = xstrdup(opts != NULL ? opts : "");
	p = copy;
	while (mnt_optstr_next_option(&p, &name, &namesz, &value,
	    &valuesz) == 0) {
		if ((namesz == 4 && strncmp(name, "vers", 4) == 0) ||
		    (namesz == 7 && strncmp(name, "nfsvers", 7) == 0)) {
			(void)snprintf(vers, sizeof(vers), "%.*s", value !=
			    NULL ? (int)valuesz : 0, value != NULL ? value :
			    "");
			given = true;
		} else if (value == NULL && namesz >= 2 && namesz < 8 &&
		    name[0] == 'v' && name[1] >= '0' && name[1] <= '9') {
			(void)snprintf(vers, sizeof(vers), "%.*s",
			    (int)namesz - 1, name + 1);
			given = true;
		}
	}
	free(copy);
	four = strcmp(fstype, "nfs4") == 0;
	if (!given) {
		if (four)
			return 0;
		return util_fail(err, EINVAL, "mount_options: fstype nfs "
		    "needs vers=3 (or 2): without it mount.nfs tries NFSv4 "
		    "first, which the kernel mounts as nfs4");
	}
	n = vers[0] == '4' && vers[1] == '.' ? 2 + strspn(vers + 2,
	    "0123456789") : 1;
	if (vers[0] == '\0' || strchr("234", vers[0]) == NULL ||
	    vers[n] != '\0' || n == 2)
		return util_fail(err, EINVAL, "mount_options: NFS version "
		    "'%s': not 2, 3, 4 or 4.N", vers);
	if (four && vers[0] != '4')
		return util_fail(err, EINVAL, "mount_options: NFS version %s "
		    "with fstype nfs4: use fstype = nfs for NFSv%s", vers,
		    vers);
	if (!four && vers[0] == '4')
		return util_fail(err, EINVAL, "mount_options: NFS version %s "
		    "with fstype nfs: the kernel mounts NFSv4 as nfs4, so say "
		    "fstype = nfs4", vers);
	return 0;
}

/*
 * target_conf_check() for a config with a source: an NFS export, mounted
 * by largedir, so an NFS fstype, no device, mkfs or image, and mount
 * options that agree with the fstype.
 */
static int
check_nfs(const struct target_conf *tc, const char **key, char *err)
{
	*key = "source";
	if (strcmp(tc->fstype, "nfs") != 0 && strcmp(tc->fstype, "nfs4") != 0)
		return util_fail(err, EINVAL, "source with fstype %s: only nfs "
		    "and nfs4 mount a server's export (a block device is "
		    "'device =')", tc->fstype);
	*key = "device";
	if (tc->device != NULL)
		return util_fail(err, EINVAL, "source and device are both set: "
		    "a target is one or the other");
	*key = "mkfs";
	if (tc->mkfs != NULL)
		return util_fail(err, EINVAL, "source with mkfs: the server "
		    "makes the filesystem it exports");
	*key = "image_size";
	if (tc->image_size != 0)
		return util_fail(err, EINVAL, "source with image_size: an NFS "
		    "export needs no image");
	*key = "wipe";
	if (tc->wipe)
		return util_fail(err, EINVAL, "source with wipe: an NFS export "
		    "is never formatted");
	*key = "mount_options";
	if (check_nfs_version(tc->fstype, tc->mount_options, err) == -1)
		return -1;
	*key = NULL;
	return 0;
}

/* ===== Configuration ===== */

/* Set 'tc' to all zero: no strings, no image size, no wipe. */
void
target_conf_init(struct target_conf *tc)
{
	memset(tc, 0, sizeof(*tc));
}

/* Free the strings 'tc' owns and set it to all zero again. */
void
target_conf_free(struct target_conf *tc)
{
	free(tc->label);
	free(tc->description);
	free(tc->description_de);
	free(tc->fstype);
	free(tc->mkfs);
	free(tc->mount_options);
	free(tc->path);
	free(tc->source);
	free(tc->url);
	free(tc->server);
	free(tc->device);
	free(tc->uml);
	memset(tc, 0, sizeof(*tc));
}

/*
 * Whether 'key' is a target key (label, description, fstype, mkfs,
 * mount_options, image_size, path, source, url, device, wipe, kernel,
 * uml, uml_grace): the config loader sends those here and the others to the
 * workload.
 */
bool
target_conf_key(const char *key)
{
	size_t	i;

	for (i = 0; keys[i] != NULL; i++)
		if (strcmp(keys[i], key) == 0)
			return true;
	return false;
}

/*
 * Check 'value' for target key 'key' and store a copy of it in 'tc',
 * replacing an earlier one.  A value must be UTF-8, unless the key names
 * a file (file_keys[]), whose name may be any bytes: "KEY: not valid
 * UTF-8 (byte N)" names the first bad byte, counted from 1, and quotes
 * nothing.  Return 0, or -1 with errno EINVAL and a message naming the
 * key and the value in 'err' (LD_ERRLEN bytes).
 */
int
target_conf_set(struct target_conf *tc, const char *key, const char *value,
    char *err)
{
	char	**dst = NULL;
	size_t	  n;
	int	  rc;

	if (target_conf_key(key) && !is_file_key(key) &&
	    !util_utf8_valid(value, &n))
		return util_fail(err, EINVAL, "%s: not valid UTF-8 (byte %zu)",
		    key, n + 1);
	if ((rc = set_value(tc, key, value, err)) != 1)
		return rc;
	if (text_slot(tc, key, value, &dst, err) == -1)
		return -1;
	free(*dst);
	*dst = xstrdup(value);
	return 0;
}

/*
 * The keys whose value is a number or a word: image_size, uml_grace,
 * uml_mem, uml_cpus, kernel and wipe.  Check 'value' for 'key' and set
 * it in 'tc'.  Return 0, -1 with errno EINVAL and 'err' set, or 1 if
 * 'key' is none of them.
 */
static int
set_value(struct target_conf *tc, const char *key, const char *value,
    char *err)
{
	const char	*errstr;
	uint64_t	 size;

	if (strcmp(key, "image_size") == 0) {
		if (parse_size(value, UINT64_MAX, &size, &errstr) == -1 &&
		    errno != ERANGE)
			return util_fail(err, EINVAL, "image_size '%s': not a "
			    "size (e.g. 8G, 512M)", value);
		if (errstr != NULL || size < IMAGE_MIN || size > IMAGE_MAX)
			return util_fail(err, EINVAL, "image_size '%s': out of "
			    "range (16M to 16T)", value);
		tc->image_size = size;
	} else if (strcmp(key, "uml_grace") == 0) {
		if (parse_duration(value, UML_GRACE_MAX, &size, &errstr) ==
		    -1 || size < NS_PER_S)
			return util_fail(err, EINVAL, "uml_grace '%s': not a "
			    "duration from 1s to 1d (e.g. 300s, 20m)", value);
		tc->uml_grace_ns = size;
	} else if (strcmp(key, "uml_mem") == 0) {
		/* The guest runs its init, largedir and a mount in it. */
		if (parse_size(value, UINT64_MAX, &size, &errstr) == -1 ||
		    errstr != NULL || size < UML_MEM_MIN || size > UML_MEM_MAX)
			return util_fail(err, EINVAL, "uml_mem '%s': not a "
			    "size from 128M to 64G (e.g. 512M, 2G)", value);
		tc->uml_mem = size;
	} else if (strcmp(key, "uml_cpus") == 0) {
		size = (uint64_t)parse_num(value, 1, UML_CPUS_MAX, &errstr);
		if (errstr != NULL)
			return util_fail(err, EINVAL, "uml_cpus '%s': not a "
			    "count from 1 to %d", value, UML_CPUS_MAX);
		tc->uml_cpus = (unsigned)size;
	} else if (strcmp(key, "kernel") == 0) {
		if (strcmp(value, "host") != 0 && strcmp(value, "uml") != 0)
			return util_fail(err, EINVAL, "kernel '%s': not host "
			    "or uml", value);
		tc->kernel_uml = strcmp(value, "uml") == 0;
	} else if (strcmp(key, "wipe") == 0) {
		if (strcmp(value, "yes") != 0 && strcmp(value, "no") != 0)
			return util_fail(err, EINVAL, "wipe '%s': not yes or no"
			    , value);
		tc->wipe = strcmp(value, "yes") == 0;
	} else
		return 1;
	return 0;
}

/*
 * The keys whose value is kept as text: check 'value' for 'key' and
 * store where in 'tc' it goes in '*dst'.  Return 0, or -1 with errno
 * EINVAL and 'err' set, also when 'key' is not a target key.
 */
static int
text_slot(struct target_conf *tc, const char *key, const char *value,
    char ***dst, char *err)
{
	size_t	i, n;

	if (strcmp(key, "label") == 0) {
		n = strspn(value, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnop"
		    "qrstuvwxyz0123456789._-");
		if (n == 0 || n > LABEL_MAX || value[n] != '\0' ||
		    *value == '.')
			return util_fail(err, EINVAL, "label '%s': use 1 to 64 "
			    "of A-Z a-z 0-9 . _ - (not starting with '.')",
			    value);
		*dst = &tc->label;
	} else if (strcmp(key, "description") == 0 ||
	    strcmp(key, "description_de") == 0 ||
	    strcmp(key, "mount_options") == 0 ||
	    strcmp(key, "server") == 0) {
		if (strpbrk(value, "\r\n") != NULL)
			return util_fail(err, EINVAL, "%s: must be one line",
			    key);
		if (*key == 'm' && check_mount_options(value, err) == -1)
			return -1;
		*dst = *key == 'm' ? &tc->mount_options : *key == 's' ?
		    &tc->server : key[11] == '_' ? &tc->description_de :
		    &tc->description;
	} else if (strcmp(key, "fstype") == 0) {
		for (i = 0; fstypes[i] != NULL; i++)
			if (strcmp(fstypes[i], value) == 0)
				break;
		if (fstypes[i] == NULL)
			return util_fail(err, EINVAL, "fstype '%s': unknown "
			    "(ext2, ext3, ext4, xfs, btrfs, tmpfs, reiserfs, "
			    "vxfs, nfs, nfs4, f2fs, jfs)", value);
		*dst = &tc->fstype;
	} else if (strcmp(key, "mkfs") == 0) {
		if (value[strspn(value, " \t")] == '\0')
			return util_fail(err, EINVAL, "mkfs '%s': no program "
			    "given", value);
		if (strpbrk(value, "'\"\\\n\r") != NULL)
			return util_fail(err, EINVAL, "mkfs '%s': no quoting "
			    "(arguments are split on blanks, no shell)", value);
		*dst = &tc->mkfs;
	} else if (strcmp(key, "path") == 0 || strcmp(key, "device") == 0 ||
	    strcmp(key, "uml") == 0) {
		if (*value != '/' || strpbrk(value, "\r\n") != NULL)
			return util_fail(err, EINVAL, "%s '%s': not an "
			    "absolute path", key, value);
		/* The guest's kernel command line splits on blanks. */
		if (*key == 'u' && strpbrk(value, " \t") != NULL)
			return util_fail(err, EINVAL, "uml '%s': no blanks in "
			    "the path", value);
		*dst = *key == 'p' ? &tc->path : *key == 'd' ? &tc->device :
		    &tc->uml;
	} else if (strcmp(key, "source") == 0) {
		if (!nfs_source(value))
			return util_fail(err, EINVAL, "source '%s': not "
			    "HOST:/PATH (an NFS export, e.g. "
			    "127.0.0.1:/export)", value);
		*dst = &tc->source;
	} else if (strcmp(key, "url") == 0) {
		if (strstr(value, "://") == NULL ||
		    strpbrk(value, " \t\r\n") != NULL)
			return util_fail(err, EINVAL, "url '%s': not a URL "
			    "(e.g. nfs://server/export)", value);
		*dst = &tc->url;
	} else
		return util_fail(err, EINVAL, "'%s': not a target key", key);
	return 0;
}

/*
 * Check that the keys of 'tc' fit together: a path, a device or an NFS
 * source, an fstype, a mkfs command whose program is in PATH for targets
 * largedir formats, an NFS version that agrees with an NFS fstype, a
 * server only where something else serves the target;
 * kernel = uml with an image, tmpfs or a source (with a path it is the
 * run inside the guest, which uml.c starts: nothing else is checked).
 * Return 0, or -1 with errno EINVAL and a message in 'err', and point
 * '*key' at the key whose line the message is about (NULL if none is).
 */
int
target_conf_check(const struct target_conf *tc, const char **key,
    char *err)
{
	char	prog[NAME_MAX + 1];
	size_t	skip, len;
	bool	tmpfs;

	*key = "kernel";
	if (tc->kernel_uml && tc->url != NULL)
		return util_fail(err, EINVAL, "kernel = uml with url: a URL's "
		    "backend speaks to its server from the host");
	if (tc->kernel_uml && tc->path == NULL && tc->device != NULL)
		return util_fail(err, EINVAL, "kernel = uml with device: the "
		    "guest gets an image file as its disk, not a host device");
	/* Inside the guest (uml.c): the target is mounted already. */
	if (tc->kernel_uml && tc->path != NULL)
		return 0;
	*key = "server";
	if (!served(tc))
		return util_fail(err, EINVAL, "server with a filesystem "
		    "largedir makes: server says what serves an export "
		    "(source, url, or a path on a network mount)");
	*key = "url";
	if (tc->url != NULL && (tc->path != NULL || tc->device != NULL ||
	    tc->source != NULL || tc->fstype != NULL || tc->mkfs != NULL ||
	    tc->mount_options != NULL || tc->image_size != 0))
		return util_fail(err, EINVAL, "url with %s: the server sets up "
		    "what a URL names", tc->path != NULL ? "path" :
		    tc->device != NULL ? "device" : tc->source != NULL ?
		    "source" : tc->fstype != NULL ? "fstype" : tc->mkfs !=
		    NULL ? "mkfs" : tc->mount_options != NULL ?
		    "mount_options" : "image_size");
	if (tc->url != NULL)
		return 0;
	*key = "source";
	if (tc->path != NULL && tc->source != NULL)
		return util_fail(err, EINVAL, "path and source are both set: a "
		    "target is an existing mount or an export to mount");
	*key = "device";
	if (tc->path != NULL && tc->device != NULL)
		return util_fail(err, EINVAL, "path and device are both set: a "
		    "target is one or the other");
	if (tc->path != NULL)
		return 0;
	*key = NULL;
	if (tc->fstype == NULL)
		return util_fail(err, EINVAL, "fstype missing (e.g. fstype = "
		    "%s)", tc->source != NULL ? "nfs4" : "ext4");
	if (tc->source != NULL)
		return check_nfs(tc, key, err);
	*key = "fstype";
	if (strncmp(tc->fstype, "nfs", 3) == 0)
		return util_fail(err, EINVAL, "fstype %s needs source (an "
		    "export largedir mounts, HOST:/PATH) or path (an existing "
		    "NFS mount)", tc->fstype);
	tmpfs = strcmp(tc->fstype, "tmpfs") == 0;
	*key = "device";
	if (tmpfs && tc->device != NULL)
		return util_fail(err, EINVAL, "fstype tmpfs with device %s: "
		    "tmpfs lives in memory, not on a device", tc->device);
	*key = "mkfs";
	if (tmpfs && tc->mkfs != NULL)
		return util_fail(err, EINVAL, "fstype tmpfs takes no mkfs");
	if (tmpfs)
		return 0;
	*key = "fstype";
	if (tc->mkfs == NULL)
		return util_fail(err, EINVAL, "mkfs missing for fstype %s "
		    "(e.g. mkfs = mkfs.%s)", tc->fstype, tc->fstype);
	skip = strspn(tc->mkfs, " \t");
	len = strcspn(tc->mkfs + skip, " \t");
	(void)snprintf(prog, sizeof(prog), "%.*s", (int)len, tc->mkfs + skip);
	*key = "mkfs";
	if (!in_path(prog))
		return util_fail(err, EINVAL, "mkfs program '%s' not found in "
		    "PATH", prog);
	*key = NULL;
	if (tc->device == NULL && tc->image_size == 0)
		return util_fail(err, EINVAL, "image_size missing: how large "
		    "an image to make for %s (e.g. image_size = 8G), or device "
		    "= a block device to use instead", tc->fstype);
	return 0;
}
