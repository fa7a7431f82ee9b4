/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * target_mount: see target_mount.h.
 *
 * The read-back finds the mount a lookup of the mount point reaches by
 * its ID, which the kernel tells for an open file in /proc/self/fdinfo,
 * and compares the last mount on the mount point in mountinfo with it:
 * a mount under another one, or a bind mount (whose root is not "/"),
 * is not what was asked for.
 */

#include <errno.h>
#include <fcntl.h>
#include <libmount.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "machine/kmsg.h"
#include "machine/sysfile.h"
#include "target/target_mount.h"
#include "target/target_nfs.h"

static struct libmnt_context
		*new_context(const struct target *, const char *, char *);
static int	run_mount(struct target *, struct libmnt_context *,
		    const char *, char *, size_t, char *, size_t, int *,
		    char *);
static int	refused(const struct target *, struct libmnt_context *, int,
		    const char *, const char *, const char *, char *);
static int	check_mounted(struct target *, const char *, char *);

/*
 * Mount 'src' on t->mnt with the config's fstype and options, and check
 * that the mount is what was asked for (check_mounted()); a device by
 * its real name, as mount(8) canonicalizes it: the kernel shows what it
 * was given, and the read-back compares.  Whatever got mounted,
 * t->mounted says so, for the teardown.  Return 0, or -1 with errno and
 * one line in 'err' (see target_mount.h).
 */
int
target_mount(struct target *t, const char *src, char *err)
{
	struct libmnt_context	*cxt;
	char			 said[LD_ERRLEN / 2], kernel[96];
	char			*real = NULL;
	int			 rc, saved;

	if (*src == '/' && (real = realpath(src, NULL)) != NULL)
		src = real;
	if ((cxt = new_context(t, src, err)) == NULL)
		rc = -1;
	else if (run_mount(t, cxt, src, said, sizeof(said), kernel,
	    sizeof(kernel), &rc, err) == -1) {
		saved = errno;
		mnt_free_context(cxt);
		errno = saved;
		rc = -1;
	} else if (rc == 0 && mnt_context_get_status(cxt) == 1) {
		mnt_free_context(cxt);
		t->mounted = true;	/* whatever it is: teardown unmounts */
		rc = check_mounted(t, src, err);
	} else
		rc = refused(t, cxt, rc, src, said, kernel, err);
	saved = errno;
	free(real);
	errno = saved;
	return rc;
}

/*
 * A libmount context that mounts 'src' on t->mnt with the config's
 * fstype and options, as given (no canonicalizing).  Return it, or NULL
 * with errno and 'err' set.
 */
static struct libmnt_context *
new_context(const struct target *t, const char *src, char *err)
{
	struct libmnt_context	*cxt;

	if ((cxt = mnt_new_context()) == NULL) {
		(void)util_fail(err, ENOMEM, "mount %s: out of memory", t->mnt);
		return NULL;
	}
	(void)mnt_context_disable_canonicalize(cxt, 1);
	if (mnt_context_set_fstype(cxt, t->conf.fstype) != 0 ||
	    mnt_context_set_source(cxt, src) != 0 ||
	    mnt_context_set_target(cxt, t->mnt) != 0 ||
	    (t->conf.mount_options != NULL && mnt_context_set_options(cxt,
	    t->conf.mount_options) != 0)) {
		mnt_free_context(cxt);
		(void)util_fail(err, EINVAL, "mount %s: cannot set up libmount",
		    t->mnt);
		return NULL;
	}
	return cxt;
}

/*
 * Mount through 'cxt', its result into '*rc' (mnt_context_mount()), and
 * keep what was said about it: the last line mount.nfs wrote into
 * 'said' ('slen' bytes; "" but for an NFS export), the kernel's line on
 * the filesystem or device 'src' into 'kernel' ('klen' bytes; "" if
 * none).  Return 0, or -1 with errno and 'err' set if mount.nfs's log
 * cannot be made (nothing is mounted then).
 */
static int
run_mount(struct target *t, struct libmnt_context *cxt, const char *src,
    char *said, size_t slen, char *kernel, size_t klen, int *rc, char *err)
{
	char		*log = NULL;
	const char	*dev;
	int		 fd2 = -1, kfd;

	said[0] = '\0';
	if (t->conf.source != NULL) {
		log = xasprintf("%s/" TARGET_NFS_LOG, t->rundir);
		if (target_nfs_log_start(log, &fd2, err) == -1) {
			free(log);
			return -1;
		}
	}
	kfd = log == NULL ? kmsg_start() : -1;
	*rc = mnt_context_mount(cxt);
	/* The filesystem says which option it refused, in the log only. */
	dev = strrchr(src, '/') != NULL ? strrchr(src, '/') + 1 : src;
	kmsg_said(kfd, t->conf.fstype, dev, kernel, klen);
	if (log != NULL) {
		target_nfs_log_end(fd2, log, said, slen);
		free(log);
	}
	return 0;
}

/*
 * The mount of 'src' through 'cxt' failed with 'rc': free 'cxt' and say
 * why in 'err', in the best words there are: mount.nfs's ('said'), else
 * the kernel's ('kernel'), else libmount's, else the errno's.  Return
 * -1 with errno set.
 */
static int
refused(const struct target *t, struct libmnt_context *cxt, int rc,
    const char *src, const char *said, const char *kernel, char *err)
{
	char	buf[LD_ERRLEN / 2];
	size_t	len;
	int	saved = 0;

	if (mnt_context_syscall_called(cxt))
		saved = mnt_context_get_syscall_errno(cxt);
	buf[0] = '\0';
	(void)mnt_context_get_excode(cxt, rc, buf, sizeof(buf));
	if (buf[0] == '\0' && mnt_context_helper_executed(cxt))
		(void)snprintf(buf, sizeof(buf), "mount.%s exited with %d",
		    t->conf.fstype, mnt_context_get_helper_status(cxt));
	mnt_free_context(cxt);
	if ((len = strlen(buf)) > 0 && buf[len - 1] == '.')
		buf[len - 1] = '\0';
	if (saved == 0)
		saved = rc < 0 && rc > -4096 ? -rc : EIO;
	if (t->conf.source != NULL && target_nfs_failed(t->conf.fstype, said,
	    saved, err))
		return -1;
	if (said[0] != '\0')	/* mount.nfs knows best what went wrong */
		(void)snprintf(buf, sizeof(buf), "%s", said);
	else if (kernel[0] != '\0')
		(void)snprintf(buf, sizeof(buf), "the kernel says: %s",
		    kernel);
	if (buf[0] == '\0')
		(void)snprintf(buf, sizeof(buf), "%s", strerror(saved));
	(void)util_fail(err, saved, "mount %s %s on %s: %s", t->conf.fstype,
	    src, t->mnt, buf);
	errno = saved;
	return -1;
}

/*
 * Read back what is mounted on t->mnt now that libmount says it mounted
 * 'src' there: target_mount_check() on /proc/self/mountinfo, with the ID
 * of the mount a lookup of the mount point reaches (the kernel tells it
 * for an open file in /proc/self/fdinfo).
 */
static int
check_mounted(struct target *t, const char *src, char *err)
{
	struct mountinfo	 mi;
	uint64_t		 id;
	char			*real, fdinfo[64];
	int			 fd, rc, saved;

	if ((real = realpath(t->mnt, NULL)) == NULL)
		return util_syserr(err, "after mounting, resolve %s", t->mnt);
	if ((fd = open(real, O_PATH | O_DIRECTORY | O_CLOEXEC)) == -1) {
		(void)util_syserr(err, "after mounting, open %s", real);
		free(real);
		return -1;
	}
	(void)snprintf(fdinfo, sizeof(fdinfo), "/proc/self/fdinfo/%d", fd);
	rc = sysfile_key_u64(fdinfo, "mnt_id", &id);
	saved = rc == -1 ? errno : EINVAL;
	(void)close(fd);
	if (rc == -1 || id == 0 || id > UINT_MAX) {
		(void)util_fail(err, saved, "after mounting, no mount ID for "
		    "%s in %s", real, fdinfo);
		free(real);
		return -1;
	}
	if (mountinfo_load(MOUNTINFO_SELF, &mi) == -1) {
		(void)util_syserr(err, "after mounting, read " MOUNTINFO_SELF);
		free(real);
		return -1;
	}
	rc = target_mount_check(&mi, real, t->conf.fstype, src, (unsigned)id,
	    err);
	mountinfo_free(&mi);
	free(real);
	return rc;
}

/*
 * Check that mountinfo 'mi' shows on mount point 'mnt' (a real path, as
 * the kernel writes it) a fresh filesystem of type 'fstype' mounted from
 * 'source': the mount on top there (the last one in 'mi') has that type
 * and source, its root is "/" (a bind mount shows the directory it took)
 * and, unless 'id' is 0, the mount ID 'id' (that of the mount a lookup
 * of 'mnt' reaches).  Return 0, or -1 with errno EMEDIUMTYPE and a
 * message in 'err' saying what is there instead.
 */
int
target_mount_check(const struct mountinfo *mi, const char *mnt,
    const char *fstype, const char *source, unsigned id, char *err)
{
	const struct mountinfo_entry	*e = NULL;
	size_t				 i;

	for (i = 0; i < mi->n; i++)
		if (strcmp(mi->v[i].mountpoint, mnt) == 0)
			e = &mi->v[i];
	if (e == NULL)
		return util_fail(err, EMEDIUMTYPE, "after mounting, nothing is "
		    "mounted on %s", mnt);
	if (strcmp(e->fstype, fstype) != 0)
		return util_fail(err, EMEDIUMTYPE, "after mounting, %s holds "
		    "%s from %s, not the %s asked for", mnt, e->fstype,
		    e->source, fstype);
	if (strcmp(e->root, "/") != 0)
		return util_fail(err, EMEDIUMTYPE, "after mounting, %s holds "
		    "%s of %s %s, not a fresh filesystem", mnt, e->root,
		    e->fstype, e->source);
	if (strcmp(e->source, source) != 0)
		return util_fail(err, EMEDIUMTYPE, "after mounting, %s holds "
		    "%s from %s, not from %s", mnt, e->fstype, e->source,
		    source);
	if (id != 0 && id != e->id)
		return util_fail(err, EMEDIUMTYPE, "after mounting, %s leads "
		    "to mount %u, not to the one shown there (%u)", mnt, id,
		    e->id);
	return 0;
}
