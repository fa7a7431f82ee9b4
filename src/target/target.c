/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * target: see target.h.
 *
 * A run directory holds what largedir made for one target and nothing
 * else:
 *
 *	scratch/target.XXXXXX/
 *		.largedir-target	the marker, written first, removed last
 *		mnt/			the mount point
 *		image			the sparse image (image targets)
 *		mkfs.log		what mkfs printed
 *		mount.log		what mount.nfs prints (while it runs)
 *
 * The marker is a few "key: value" lines, as a work directory's:
 *
 *	largedir target directory
 *	host: vm
 *	pid: 4242
 *	inode: 1234567
 *
 * where inode is the run directory's own, so a copy is never taken for
 * ours.  Teardown and sweep undo in one order: unmount, detach the loop
 * device, unlink the files, and the marker last, so a teardown that stops
 * half-way leaves a directory that --cleanup still recognises.  Loop
 * devices are attached without LO_FLAGS_AUTOCLEAR: after a crash the
 * device stays bound to rundir/image, and that is how the sweep finds it.
 * A run directory whose mkfs failed keeps its marker and mkfs.log after
 * the teardown, for a person to read; the marker's process is gone then,
 * so --cleanup removes both.
 *
 * Set-up is checked at both ends.  Before anything is made, the scratch
 * filesystem must have room for the whole image (target_image_room()):
 * it is created sparse, but mkfs and the run fill it, and a filesystem
 * that runs out under a loop device fails in ways that name neither.
 * The steps in between are target_setup()'s helpers, in order: the run
 * directory, the image and its loop device (target_image.c) or the
 * device, mkfs (mkfs.c), the mount (target_mount.c).  After the mount,
 * what /proc/self/mountinfo shows on the mount point must be what was
 * asked for (target_mount_check()): target_conf.c refuses the options
 * that would mount something else, and the read-back catches whatever
 * gets past it.
 *
 * Signals are caught by sig.c (largedir.c installs the handlers before
 * set-up).  mkfs gets the signal passed on (sig_forward()), and set-up
 * stops at the next step, undoes what it made and fails with EINTR.
 *
 * An NFS export ("source = HOST:/PATH") is mounted like a filesystem:
 * a run directory, its mnt/, libmount (which runs mount.nfs), the
 * read-back (target_mount.c), and the same teardown; there is nothing
 * to make before and nothing to detach after.  mount.nfs writes its
 * complaints to stderr: they go to mount.log while it runs
 * (target_nfs.c), and the last line is quoted in the one line of the
 * error.  A signal that comes while mount.nfs runs takes effect when it
 * returns (from a terminal, ^C ends it too).
 */

#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/types.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "backend/marker.h"
#include "base/sig.h"
#include "base/util.h"
#include "machine/mountinfo.h"
#include "machine/probe.h"
#include "target/loop.h"
#include "target/mkfs.h"
#include "target/target.h"
#include "target/target_image.h"
#include "target/target_mount.h"
#include "target/target_nfs.h"
#include "target/uml.h"

#define RETRIES		10		/* for EBUSY, 100 ms apart */
#define RETRY_NS	100000000L

static void	nap(void);
static char	*dup_or_null(const char *);
static int	make_rundir(struct target *, char *);
static void	own(struct target *, const struct target_conf *,
		    const char *);
static int	use_path(struct target *, const struct target_conf *,
		    char *);
static int	build(struct target *, const struct target_conf *, char *,
		    char *);
static int	make_device(struct target *, const struct target_conf *,
		    char *, const char **, char *);
static int	make_fs(struct target *, const struct target_conf *,
		    const char *, char *, char *);
static int	failed(struct target *, const char *, char *);
static int	undo(struct target *, char *);

/*
 * The files a run directory may hold besides its marker and mnt/, and
 * the directories, emptied by then (uml.c's files, and UML's own in its
 * uml_dir, which a killed guest leaves).
 */
static const char *const ours[] = { "image", "mkfs.log", TARGET_NFS_LOG,
	UML_FILES, NULL };
static const char *const our_dirs[] = { UML_DIRS, NULL };

/* ===== Helpers ===== */

static void
nap(void)
{
	struct timespec	ts = { 0, RETRY_NS };

	(void)nanosleep(&ts, NULL);
}

static char *
dup_or_null(const char *s)
{
	return s == NULL ? NULL : xstrdup(s);
}

/* Whether something is mounted on 'mnt': 1 or 0, or -1 with errno. */
int
target_is_mounted(const char *mnt)
{
	struct mountinfo	mi;
	int			r;

	if (mountinfo_load(MOUNTINFO_SELF, &mi) == -1)
		return -1;
	r = mountinfo_at(&mi, mnt) != NULL;
	mountinfo_free(&mi);
	return r;
}

/* ===== Setup ===== */

/* Make the scratch and run directories, the marker and rundir/mnt. */
static int
make_rundir(struct target *t, char *err)
{
	char	*p, *text = NULL;
	int	 fd, saved;

	if (util_mkdir_p(t->scratch) == -1)
		return util_syserr(err, "create scratch directory %s",
		    t->scratch);
	p = xasprintf("%s/" TARGET_PREFIX "XXXXXX", t->scratch);
	if (mkdtemp(p) == NULL) {
		(void)util_syserr(err, "create run directory in %s",
		    t->scratch);
		free(p);
		return -1;
	}
	t->rundir = p;
	if ((fd = open(p, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1 ||
	    (text = marker_text(fd, TARGET_MAGIC, NULL)) == NULL ||
	    marker_put(fd, TARGET_MARKER, text) == -1 ||
	    (t->lockfd = marker_lock(fd, TARGET_MARKER)) == -1) {
		saved = errno;
		free(text);
		if (fd != -1)
			(void)close(fd);
		errno = saved;
		return util_syserr(err, "write %s/" TARGET_MARKER, p);
	}
	t->locked = true;
	free(text);
	(void)close(fd);
	t->mnt = xasprintf("%s/mnt", p);
	if (mkdir(t->mnt, 0755) == -1)
		return util_syserr(err, "create %s", t->mnt);
	return 0;
}

/*
 * Make 't' the target 'conf' describes, in a fresh run directory under
 * 'scratch' (path and url targets need none, nor root).  't' gets deep
 * copies of 'conf' and owns everything it points to until
 * target_teardown().  Image, device, tmpfs and NFS source targets need
 * root; an image needs room for all of it in
 * 'scratch' (ENOSPC, before anything is made).  A signal caught by sig.c
 * stops set-up at the next step (mkfs gets it passed on): errno is EINTR
 * then and 'err' says what was under way.  Return 0, or -1 with errno and
 * a message in 'err'; everything already done is undone then, but for
 * the log of a failed mkfs, which the message names.
 */
int
target_setup(struct target *t, const struct target_conf *conf,
    const char *scratch, char *err)
{
	char	doing[LD_ERRLEN];

	memset(t, 0, sizeof(*t));
	doing[0] = '\0';		/* nothing to interrupt yet */
	own(t, conf, scratch);
	if (conf->path != NULL || conf->url != NULL) {
		if (use_path(t, conf, err) == 0)
			return 0;
	} else if (build(t, conf, doing, err) == 0 && sig_count == 0)
		return 0;
	return failed(t, doing, err);
}

/* Make 't' own deep copies of 'conf' and 'scratch' (with no '/' last). */
static void
own(struct target *t, const struct target_conf *conf, const char *scratch)
{
	size_t	len;

	t->conf = *conf;
	t->conf.label = dup_or_null(conf->label);
	t->conf.description = dup_or_null(conf->description);
	t->conf.description_de = dup_or_null(conf->description_de);
	t->conf.fstype = dup_or_null(conf->fstype);
	t->conf.mkfs = dup_or_null(conf->mkfs);
	t->conf.mount_options = dup_or_null(conf->mount_options);
	t->conf.path = dup_or_null(conf->path);
	t->conf.source = dup_or_null(conf->source);
	t->conf.server = dup_or_null(conf->server);
	t->conf.url = dup_or_null(conf->url);
	t->conf.device = dup_or_null(conf->device);
	t->conf.uml = dup_or_null(conf->uml);
	t->conf.uml_grace_ns = conf->uml_grace_ns;
	t->scratch = xstrdup(scratch);
	len = strlen(t->scratch);
	while (len > 1 && t->scratch[len - 1] == '/')
		t->scratch[--len] = '\0';
}

/*
 * A path target is a directory that exists; a url target's URL is the
 * backend's to check.  Nothing is made for either.
 */
static int
use_path(struct target *t, const struct target_conf *conf, char *err)
{
	struct stat	st;

	if (conf->path == NULL) {	/* a url */
		t->mnt = xstrdup(conf->url);
		return 0;
	}
	if (stat(conf->path, &st) == -1)
		return util_syserr(err, "path %s", conf->path);
	if (!S_ISDIR(st.st_mode))
		return util_fail(err, ENOTDIR, "path %s: not a directory",
		    conf->path);
	t->mnt = xstrdup(conf->path);
	return 0;
}

/*
 * Set up the target 'conf' describes, but a path or url one, saying in
 * 'doing' (LD_ERRLEN bytes) what is under way: check it can be made
 * here, make the run directory, then mount an NFS export or a tmpfs, or
 * give an image, a loop device or a device its filesystem
 * (make_device(), make_fs()).  Under kernel = uml only the image is made
 * and given its filesystem: the guest mounts.  Return 0, or -1 with
 * errno and 'err' set; the caller undoes what was made.
 */
static int
build(struct target *t, const struct target_conf *conf, char *doing,
    char *err)
{
	const char	*dev;
	bool		 tmpfs;

	if (conf->fstype == NULL)
		return util_fail(err, EINVAL, "fstype missing");
	if (geteuid() != 0)
		return util_fail(err, EPERM, "a %s target needs root (loop "
		    "devices, mkfs, mount): run as root, or set path",
		    conf->fstype);
	(void)snprintf(doing, LD_ERRLEN, "setting up the %s target",
	    conf->fstype);
	if (sig_count > 0)
		return -1;
	tmpfs = strcmp(conf->fstype, "tmpfs") == 0;
	if (conf->device == NULL && conf->source == NULL && !tmpfs &&
	    target_image_room(t->scratch, conf->image_size, err) == -1)
		return -1;
	if (make_rundir(t, err) == -1)
		return -1;
	/* kernel = uml: the guest mounts (uml.c); an image file for it. */
	if (conf->kernel_uml && (conf->source != NULL || tmpfs))
		return 0;
	if (!conf->kernel_uml && conf->source != NULL) {
		(void)snprintf(doing, LD_ERRLEN, "mounting %s on %s",
		    conf->source, t->mnt);
		return sig_count > 0 ? -1 : target_mount(t, conf->source, err);
	}
	if (!conf->kernel_uml && tmpfs && conf->device == NULL) {
		(void)snprintf(doing, LD_ERRLEN, "mounting tmpfs on %s",
		    t->mnt);
		return sig_count > 0 ? -1 : target_mount(t, "largedir", err);
	}
	if (make_device(t, conf, doing, &dev, err) == -1)
		return -1;
	return make_fs(t, conf, dev, doing, err);
}

/*
 * What the filesystem of 'conf' goes on, into '*dev': under kernel = uml
 * the image itself, else the image attached to a loop device, or the
 * config's device, if mkfs may have it (mkfs_check_device()).  Return 0,
 * or -1 with errno and 'err' set.
 */
static int
make_device(struct target *t, const struct target_conf *conf, char *doing,
    const char **dev, char *err)
{
	int	fd;

	if (conf->kernel_uml) {
		(void)snprintf(doing, LD_ERRLEN, "making %s/image", t->rundir);
		if (sig_count > 0 || (fd = target_image_make(t, err)) == -1)
			return -1;
		(void)close(fd);
		*dev = t->image;
		return 0;
	}
	if (conf->device == NULL) {
		(void)snprintf(doing, LD_ERRLEN, "attaching %s/image to a loop "
		    "device", t->rundir);
		if (sig_count > 0 || target_image_attach(t, err) == -1)
			return -1;
		*dev = t->loopdev;
		return 0;
	}
	if (mkfs_check_device(conf->device, conf->wipe, err) == -1)
		return -1;
	*dev = conf->device;
	return 0;
}

/*
 * Run the config's mkfs on 'dev' (its output in the run directory's
 * mkfs.log, kept if it fails) and mount it, but under kernel = uml,
 * where the guest mounts.  Return 0, or -1 with errno and 'err' set.
 */
static int
make_fs(struct target *t, const struct target_conf *conf, const char *dev,
    char *doing, char *err)
{
	char	*log;
	size_t	 len;
	int	 rc;

	if (conf->mkfs == NULL)
		return util_fail(err, EINVAL, "mkfs missing for fstype %s",
		    conf->fstype);
	len = strspn(conf->mkfs, " \t");
	(void)snprintf(doing, LD_ERRLEN, "running %.*s on %s",
	    (int)strcspn(conf->mkfs + len, " \t"), conf->mkfs + len, dev);
	if (sig_count > 0)
		return -1;
	log = xasprintf("%s/mkfs.log", t->rundir);
	rc = mkfs_run(conf->mkfs, dev, log, &t->mkfs_cmd, &t->keep_log, err);
	free(log);
	if (rc == -1)
		return -1;
	if (conf->kernel_uml)		/* the guest mounts the image */
		return 0;
	(void)snprintf(doing, LD_ERRLEN, "mounting %s on %s", dev, t->mnt);
	if (sig_count > 0)
		return -1;
	return target_mount(t, dev, err);
}

/*
 * Set-up failed, with errno and 'err' saying why, while 'doing' (or ""
 * before anything could be interrupted): a signal that came is the news
 * then.  Undo what was made (target_teardown()) and add to 'err' what
 * that could not undo.  Return -1 with errno set.
 */
static int
failed(struct target *t, const char *doing, char *err)
{
	char	uerr[LD_ERRLEN];
	size_t	len;
	int	saved;

	saved = errno;
	if (sig_count > 0 && doing[0] != '\0') {
		/* Whatever else went wrong, the signal is the news. */
		t->keep_log = false;
		(void)util_fail(err, EINTR, "interrupted by SIG%s while %s",
		    sigabbrev_np(sig_first), doing);
		saved = EINTR;
	}
	if (target_teardown(t, uerr) == -1) {
		len = strlen(err);
		(void)snprintf(err + len, LD_ERRLEN - len, " (and %s)", uerr);
	} else if (saved == EINTR) {
		len = strlen(err);
		(void)snprintf(err + len, LD_ERRLEN - len, ": set-up undone");
	}
	errno = saved;
	return -1;
}

/*
 * Whether target_remount() can empty the caches of 't': only a filesystem
 * largedir mounted itself, and not tmpfs, which keeps its files only in
 * those caches (an NFS export can: the client's caches go, the server's
 * stay).  If not, store why in '*why'.
 */
bool
target_can_remount(const struct target *t, const char **why)
{
	if (!t->mounted) {
		*why = "it needs a target largedir mounts itself (-c with an "
		    "image or a device)";
		return false;
	}
	if (t->conf.device == NULL && t->loopdev == NULL &&
	    t->conf.source == NULL) {
		*why = "tmpfs keeps its files only in the caches a remount "
		    "would empty";
		return false;
	}
	return true;
}

/*
 * Unmount the target and mount it again, so that none of its dentries,
 * inodes and pages stay cached (--cold=remount).  Nothing may hold the
 * filesystem open: a busy one is an error, never a lazy unmount.  Return
 * 0, or -1 with errno and a message in 'err'; if the mount fails, the
 * target is left unmounted and target_teardown() still works.
 */
int
target_remount(struct target *t, char *err)
{
	const char	*why;

	if (!target_can_remount(t, &why))
		return util_fail(err, EINVAL, "remount %s: %s", t->mnt, why);
	if (umount2(t->mnt, 0) == -1)
		return util_syserr(err, "remount: unmount %s", t->mnt);
	t->mounted = false;
	return target_mount(t, t->conf.source != NULL ? t->conf.source :
	    t->conf.device != NULL ? t->conf.device : t->loopdev, err);
}

/* ===== Teardown ===== */

/*
 * Unmount 'mnt', waiting a little for a busy one; detach it lazily as the
 * last resort and say so in '*lazy'.  Not mounted is fine.
 */
int
target_umount(const char *mnt, bool *lazy)
{
	int	i;

	*lazy = false;
	for (i = 0; i < RETRIES; i++) {
		if (umount2(mnt, 0) == 0 || errno == EINVAL || errno == ENOENT)
			return 0;
		if (errno != EBUSY)
			return -1;
		nap();
	}
	if (umount2(mnt, MNT_DETACH) == -1)
		return -1;
	*lazy = true;
	return 0;
}

/*
 * Remove what largedir makes in 'rundir': image, mkfs.log (unless
 * 'keep_log'), mnt, then the marker and the directory, unless foreign
 * entries are left.  Return 0 when it is gone, 1 when foreign entries
 * keep it (with its marker), 2 when only the log kept it (with its
 * marker, for --cleanup), -1 with errno.
 */
int
target_clean_rundir(const char *rundir, bool keep_log)
{
	struct dirent	*d;
	DIR		*dp;
	size_t		 i;
	int		 dfd, saved;
	bool		 foreign = false, kept = false;

	if ((dfd = open(rundir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC)) == -1)
		return errno == ENOENT ? 0 : -1;
	for (i = 0; ours[i] != NULL; i++)
		if ((!keep_log || strcmp(ours[i], "mkfs.log") != 0) &&
		    unlinkat(dfd, ours[i], 0) == -1 && errno != ENOENT)
			goto fail;
	for (i = 0; our_dirs[i] != NULL; i++)
		if (unlinkat(dfd, our_dirs[i], AT_REMOVEDIR) == -1 &&
		    errno != ENOENT)
			goto fail;
	if (unlinkat(dfd, "mnt", AT_REMOVEDIR) == -1 && errno != ENOENT &&
	    errno != ENOTEMPTY && errno != EEXIST)
		goto fail;
	if ((dp = fdopendir(dfd)) == NULL)
		goto fail;
	while ((d = readdir(dp)) != NULL)
		if (keep_log && strcmp(d->d_name, "mkfs.log") == 0)
			kept = true;
		else if (strcmp(d->d_name, ".") != 0 &&
		    strcmp(d->d_name, "..") != 0 &&
		    strcmp(d->d_name, TARGET_MARKER) != 0)
			foreign = true;
	if (!foreign && !kept && ((unlinkat(dirfd(dp), TARGET_MARKER,
	    0) == -1 && errno != ENOENT) || rmdir(rundir) == -1)) {
		saved = errno;
		(void)closedir(dp);
		errno = saved;
		return -1;
	}
	(void)closedir(dp);
	return foreign ? 1 : kept ? 2 : 0;
fail:
	saved = errno;
	(void)close(dfd);
	errno = saved;
	return -1;
}

/*
 * Undo what 't' holds, in order: mount, loop device, run directory.  A
 * step that fails stops the steps that depend on it, so the marker stays
 * for --cleanup.  Collect what went wrong in 'err'.
 */
static int
undo(struct target *t, char *err)
{
	int	rc, saved = 0;
	bool	lazy;

	err[0] = '\0';
	if (t->mounted) {
		if (target_umount(t->mnt, &lazy) == -1)
			return util_syserr(err, "umount %s", t->mnt);
		t->mounted = false;
		if (lazy) {
			(void)util_fail(err, EBUSY, "%s was busy: detached "
			    "lazily", t->mnt);
			saved = EBUSY;
		}
	}
	if (t->loopdev != NULL) {
		if (loop_detach(t->loopdev) == -1)
			return util_syserr(err, "detach %s", t->loopdev);
		free(t->loopdev);
		t->loopdev = NULL;
	}
	if (t->rundir != NULL) {
		if ((rc = target_clean_rundir(t->rundir, t->keep_log)) == -1)
			return util_syserr(err, "remove %s", t->rundir);
		if (rc == 1)
			return util_fail(err, ENOTEMPTY, "%s holds files "
			    "largedir did not make: kept", t->rundir);
	}
	errno = saved;
	return saved == 0 ? 0 : -1;
}

/*
 * Undo the target 't': unmount, detach the loop device, remove the image,
 * the log and the run directory (the log of a failed mkfs stays, with
 * the marker, until --cleanup), then free everything 't' owns (a path
 * target has only memory to free).  Calling it again does nothing.
 * Return 0, or -1 with errno and a message in 'err' saying what was left
 * (its run directory keeps its marker for --cleanup), also when the mount
 * was busy and had to be detached lazily.
 */
int
target_teardown(struct target *t, char *err)
{
	int	rc = 0, saved = 0;

	if (t->conf.path == NULL && t->conf.url == NULL) {
		rc = undo(t, err);
		saved = errno;
	}
	if (t->locked)
		(void)close(t->lockfd);	/* the run is over */
	target_conf_free(&t->conf);
	free(t->scratch);
	free(t->rundir);
	free(t->image);
	free(t->loopdev);
	free(t->mnt);
	free(t->mkfs_cmd);
	memset(t, 0, sizeof(*t));
	errno = saved;
	return rc;
}

/*
 * Add what 't' is to metadata 'kv': target_kind (image, device, path,
 * url, nfs or tmpfs), the NFS export (target_source), the mkfs command
 * as run, the image and its size, the loop device and whether it does
 * direct I/O, the description and the mount options asked for.  Keys
 * that do not apply are left out.
 */
void
target_meta(const struct target *t, struct kvlist *kv)
{
	const char	*kind;

	if (t->conf.path != NULL && !t->conf.kernel_uml)
		kind = "path";
	else if (t->conf.url != NULL)
		kind = "url";
	else if (t->conf.kernel_uml)	/* and path: the guest's run */
		kind = "uml";
	else if (t->conf.device != NULL)
		kind = "device";
	else if (t->conf.source != NULL)
		kind = "nfs";
	else if (t->conf.fstype != NULL && strcmp(t->conf.fstype, "tmpfs") ==
	    0)
		kind = "tmpfs";
	else
		kind = "image";
	kv_set(kv, "target_kind", "%s", kind);
	if (t->conf.source != NULL)
		kv_set(kv, "target_source", "%s", t->conf.source);
	if (t->mkfs_cmd != NULL)
		kv_set(kv, "mkfs", "%s", t->mkfs_cmd);
	if (t->image != NULL) {
		kv_set(kv, "image_size", "%" PRIu64,
		    t->conf.image_size);
		kv_set(kv, "image", "%s", t->image);
		probe_storage(t->image, "image_on", kv);
	}
	if (t->loopdev != NULL) {
		kv_set(kv, "loop_device", "%s", t->loopdev);
		kv_set(kv, "loop_direct_io", "%s", t->direct_io ?
		    "yes" : "no");
	}
	if (t->conf.description != NULL)
		kv_set(kv, "target_description", "%s",
		    t->conf.description);
	if (t->conf.description_de != NULL)
		kv_set(kv, "target_description_de", "%s",
		    t->conf.description_de);
	if (t->conf.mount_options != NULL)
		kv_set(kv, "target_mount_options_requested", "%s",
		    t->conf.mount_options);
	if (t->conf.server != NULL)
		kv_set(kv, "target_server", "%s", t->conf.server);
}

/* ===== Sweep ===== */
