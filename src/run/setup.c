/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * setup: see setup.h.  The steps in the order largedir.c takes them:
 * the command line, the target, the backend, --cold, the label, the
 * events, the work directory, what a round needs for the whole run
 * (with the memory cgroup), the largest n; then the teardown.  Each
 * check lives in the step it belongs to, so a new one goes there and
 * not into the story.
 */

#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/types.h>

#include <err.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/names.h"
#include "base/sig.h"
#include "base/timing.h"
#include "base/util.h"
#include "machine/cache.h"
#include "machine/probe.h"
#include "report/outcome.h"
#include "run/setup.h"
#include "target/target_nfs.h"
#include "target/uml.h"
#include "verbs/suite.h"

/* Inodes a run leaves to others: the round directory, the churn's... */
#define INODE_RESERVE	64

static int	not_set_up(const struct run *, struct setup_say *,
		    const char *, ...) __attribute__((format(printf, 3, 4)));
static int	check_path_fstype(struct run *, struct setup_say *);
static void	bare_budget(int, char **, struct setup_say *);
static void	no_fs_hint(const struct run *, char *, size_t);
static bool	in_memory(const char *);
static uint64_t	largest_n(struct run *, const char **, uint64_t *);

/*
 * Put the line 'fmt' says in 's', with exit status 'status' (0: a
 * warning).  Return -1, or 0 for a warning, for the step to return.
 */
int
setup_tell(struct setup_say *s, int status, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	(void)vsnprintf(s->line, sizeof(s->line), fmt, ap);
	va_end(ap);
	s->status = status;
	return status != 0 ? -1 : 0;
}

/*
 * The target cannot be set up here: its one line (LD_ERRLEN bytes at
 * most) goes to LABEL.failed in a suite (setup_failed()), and 's' says
 * it with EXIT_TARGET.  Return -1.
 */
static int
not_set_up(const struct run *r, struct setup_say *s, const char *fmt, ...)
{
	va_list	ap;
	char	line[LD_ERRLEN];

	va_start(ap, fmt);
	(void)vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	setup_failed(r, line);
	return setup_tell(s, EXIT_TARGET, "%s", line);
}

/* A run as it starts, before its options: nothing held yet. */
void
setup_init(struct run *r)
{
	r->outfd = -1;
	r->pid = getpid();
	r->t0_ns = timing_now();
	config_init(&r->cfg);
}

/*
 * Read the command line 'argc', 'argv' into r->cfg, r->conf_path and
 * r->dir, and whether it asks for --cleanup into '*cleanup':
 * config_parse_args() reads -c's file first and every value through
 * config_set(), which names the culprit when it refuses one.  Return 0,
 * CONFIG_ACT_HELP or CONFIG_ACT_VERSION for the caller to print, or -1
 * with a usage error in 's'.
 */
int
setup_args(struct run *r, int argc, char **argv, bool *cleanup,
    struct setup_say *s)
{
	struct config_args	a;
	int			rc;

	rc = config_parse_args(&r->cfg, &r->tconf, CONFIG_RUN, argc, argv,
	    &a, s->line);
	s->status = EXIT_USAGE;
	if (rc == -1 || rc == CONFIG_ACT_HELP || rc == CONFIG_ACT_VERSION)
		return rc;
	r->conf_path = a.conf;
	*cleanup = a.cleanup;
	if (a.nrest > 1)
		return setup_tell(s, EXIT_USAGE, "one directory only, got '%s' "
		    "too", a.rest[1]);
	if (a.nrest == 1 && r->conf_path != NULL && !*cleanup)
		return setup_tell(s, EXIT_USAGE, "%s names the target "
		    "already: drop '%s'", r->conf_path, a.rest[0]);
	if (a.nrest == 0 && r->conf_path == NULL && !*cleanup)
		return setup_tell(s, EXIT_USAGE, "missing the directory to "
		    "measure, or -c FILE (see largedir -h)");
	r->dir = a.nrest == 1 ? a.rest[0] : NULL;
	bare_budget(argc, argv, s);
	return 0;
}

/*
 * A budget given without a unit ("-b 30") is taken as seconds, while the
 * default is 30m: leave a warning in 's' that says so.
 */
static void
bare_budget(int argc, char **argv, struct setup_say *s)
{
	const char	*v;
	size_t		 n;
	int		 i;

	for (i = 1; i < argc; i++) {
		v = NULL;
		if ((strcmp(argv[i], "-b") == 0 ||
		    strcmp(argv[i], "--budget") == 0) && i + 1 < argc)
			v = argv[++i];
		else if (strncmp(argv[i], "--budget=", 9) == 0)
			v = argv[i] + 9;
		else if (strncmp(argv[i], "-b", 2) == 0 && argv[i][2] != '\0')
			v = argv[i] + 2;
		if (v == NULL || (n = strlen(v)) == 0 || v[n - 1] < '0' ||
		    v[n - 1] > '9')
			continue;
		(void)setup_tell(s, 0, "warning: --budget %s: a number without "
		    "a unit is taken as seconds, %s s (the default is 30m)", v,
		    v);
	}
}

/*
 * -c FILE: set up the target the file describes (or take its path), so
 * that r->dir is where the rounds go.  Says EXIT_TARGET with one line
 * when this machine cannot: no root for loop devices and mkfs, or a
 * kernel without the filesystem (or, for an NFS export, without an NFS
 * client or mount.nfs).  A signal during set-up (mkfs may take minutes)
 * says 128 + its number, with r->target_up set if the target is up to
 * be taken down again.
 */
int
setup_target(struct run *r, struct setup_say *s)
{
	const struct target_conf	*tc = &r->tconf;
	char				 errbuf[LD_ERRLEN], hint[256];
	const char			*scratch;

	scratch = r->cfg.scratch != NULL ? r->cfg.scratch : TARGET_SCRATCH;
	if (tc->kernel_uml && probe_is_uml(PROBE_CPUINFO) !=
	    (tc->path != NULL))		/* in the guest: path, see uml.c */
		return setup_tell(s, EXIT_USAGE, "%s: kernel = uml %s",
		    r->conf_path, tc->path != NULL ? "with path: the guest's "
		    "run (uml.c), not this one's" : "inside User-Mode Linux "
		    "already");
	if (tc->path != NULL || tc->url != NULL) {	/* nothing to set up */
		if (target_setup(&r->target, tc, scratch, errbuf) == -1) {
			no_fs_hint(r, hint, sizeof(hint));
			return setup_tell(s, EXIT_USAGE, "%s: %s%s",
			    r->conf_path, errbuf, hint);
		}
		r->dir = r->target.mnt;
		return tc->path != NULL ? check_path_fstype(r, s) : 0;
	}
	if (tc->kernel_uml) {
		if (uml_check(tc->uml, errbuf) == -1)
			return not_set_up(r, s, "%s: %s", r->conf_path, errbuf);
	} else if (tc->source != NULL) {	/* an NFS export to mount */
		if (target_nfs_check("", tc->fstype, errbuf) == -1)
			return not_set_up(r, s, "%s: %s", r->conf_path, errbuf);
	} else if (probe_fs_known(PROBE_FILESYSTEMS, tc->fstype) == 0)
		return not_set_up(r, s, "%s: this kernel cannot mount %s (not "
		    "in /proc/filesystems%s); to measure an existing mount, "
		    "give its directory as 'path ='", r->conf_path, tc->fstype,
		    strcmp(tc->fstype, "reiserfs") == 0 ? ": removed in Linux "
		    "6.13" : "");
	if (geteuid() != 0)
		return not_set_up(r, s, "%s: setting up %s needs root (%s); "
		    "run as root, or measure an existing directory with "
		    "'largedir DIR'", r->conf_path, tc->fstype, tc->source !=
		    NULL ||
		    strcmp(tc->fstype, "tmpfs") == 0 ? "mount" :
		    tc->device != NULL ? "mkfs, mount" :
		    "loop device, mkfs, mount");
	/* A signal stops set-up; the outputs do not exist yet. */
	if (target_setup(&r->target, tc, scratch, errbuf) == -1) {
		if (errno == EINTR && sig_count > 0)
			return setup_tell(s, 128 + sig_first, "%s: %s; nothing "
			    "measured, no outputs written", r->conf_path,
			    errbuf);
		return not_set_up(r, s, "%s: %s", r->conf_path, errbuf);
	}
	r->target_up = true;
	if (sig_count > 0)	/* the caller takes the target down */
		return setup_tell(s, 128 + sig_first, "%s: interrupted by "
		    "SIG%s while setting up the target; nothing measured, no "
		    "outputs written", r->conf_path, sigabbrev_np(sig_first));
	r->dir = r->target.mnt;
	return 0;
}

/*
 * For an existing mount of a config that is not there: when this kernel
 * has no filesystem of its fstype, say so in 'buf' ('len' bytes), and
 * name the config beside it that measures it inside User-Mode Linux
 * (NAME-uml.conf), if there is one; else "".
 */
static void
no_fs_hint(const struct run *r, char *buf, size_t len)
{
	const char	*fs = r->tconf.fstype;
	char		*uml;
	size_t		 n;

	*buf = '\0';
	if (r->tconf.path == NULL || fs == NULL ||
	    probe_fs_known(PROBE_FILESYSTEMS, fs) != 0)
		return;
	(void)snprintf(buf, len, "; this kernel has no %s (not in "
	    "/proc/filesystems)", fs);
	n = strlen(r->conf_path);
	if (n < 5 || strcmp(r->conf_path + n - 5, ".conf") != 0)
		return;
	uml = xasprintf("%.*s-uml.conf", (int)(n - 5), r->conf_path);
	if (access(uml, R_OK) == 0)
		(void)snprintf(buf + strlen(buf), len - strlen(buf), ": %s "
		    "measures it inside User-Mode Linux", uml);
	free(uml);
}

/*
 * In a suite, a target that cannot start leaves LABEL.failed in the run
 * directory with its one line 'line', for the suite's page to name it: it
 * has no outputs of its own.  Outside a suite (SUITE_COMMAND_ENV unset),
 * or without a run directory or a label yet, it does nothing.
 */
void
setup_failed(const struct run *r, const char *line)
{
	const char	*label;
	char		*path;
	FILE		*fp;

	label = r->label != NULL ? r->label : r->cfg.label != NULL ?
	    r->cfg.label : r->tconf.label != NULL ? r->tconf.label :
	    r->tconf.fstype;
	if (getenv(SUITE_COMMAND_ENV) == NULL || r->cfg.output == NULL ||
	    label == NULL || util_mkdir_p(r->cfg.output) == -1)
		return;
	path = xasprintf("%s/%s.failed", r->cfg.output, label);
	if ((fp = fopen(path, "wx")) != NULL) {
		(void)fprintf(fp, "%s\n", line);
		(void)fclose(fp);
	}
	free(path);
}

/*
 * A target with 'path =' and 'fstype =': the directory must be on a
 * filesystem of that type (any NFS for nfs and nfs4), or the results
 * would carry one name for another filesystem's numbers; a usage error
 * if not.
 */
static int
check_path_fstype(struct run *r, struct setup_say *s)
{
	const char		*want = r->tconf.fstype;
	struct probe_mount	 pm;
	bool			 same;
	int			 rc = 0;

	if (want == NULL || probe_mount(r->tconf.path, &pm) == -1)
		return 0;	/* the backend's check says what is wrong */
	same = strcmp(pm.fstype, want) == 0 || (strncmp(pm.fstype, "nfs",
	    3) == 0 && strncmp(want, "nfs", 3) == 0);
	if (!same)
		rc = setup_tell(s, EXIT_USAGE, "%s: fstype %s, but %s is on "
		    "%s: set fstype = %s, or path to a directory on %s",
		    r->conf_path, want, r->tconf.path, pm.fstype, pm.fstype,
		    want);
	probe_mount_free(&pm);
	return rc;
}

/*
 * The backend of r->dir, and whether it can do what the options ask:
 * serve several clients, take the target as given (its check op), run
 * its phases under a memory limit.  Usage errors if not.
 */
int
setup_backend(struct run *r, struct setup_say *s)
{
	char	errbuf[LD_ERRLEN];

	if ((r->ops = backend_for(r->dir)) == NULL)
		return setup_tell(s, EXIT_USAGE, "%s: no backend for this "
		    "kind of target", r->dir);
	if (r->cfg.clients > 1 && (r->ops->flags & BACKEND_FORKS) == 0)
		return setup_tell(s, EXIT_USAGE, "--clients %u: not with the "
		    "%s backend (it cannot be used by two processes)",
		    r->cfg.clients, r->ops->name);
	if (r->ops->check != NULL && r->ops->check(r->dir, errbuf) == -1)
		return setup_tell(s, EXIT_USAGE, "%s", errbuf);
	if (r->cfg.workload == CONFIG_WORKLOAD_MAILDIR &&
	    (r->ops->flags & BACKEND_MAILDIR) == 0)
		return setup_tell(s, EXIT_USAGE, "--workload maildir: not with "
		    "the %s backend (it has no Maildir operations)",
		    r->ops->name);
	if (r->cfg.memory_limit != 0 &&
	    (r->ops->flags & BACKEND_MEMLIMIT) == 0)
		return setup_tell(s, EXIT_USAGE, "--memory-limit: not with %s "
		    "(the %s backend's phases share its connection with "
		    "largedir)", r->dir, r->ops->name);
	return 0;
}

/*
 * The backend's options, from the run's settings, into 'bo' (its own in
 * the settings the config owns).
 */
void
setup_backend_opts(const struct run *r, struct backend_opts *bo)
{
	config_backend_opts(&r->cfg, r->ops, r->stamp, bo);
}

/*
 * --cold and --memory-limit: check that this run can empty the caches
 * the way asked, before anything is measured.  --memory-limit alone
 * remounts where it can and drops the caches elsewhere (r->cfg.cold):
 * without either, the dentries create left behind would be cached
 * outside the limit.
 */
int
setup_cold(struct run *r, struct setup_say *s)
{
	const char	*why, *opt;
	bool		 can, drop;

	if (r->cfg.cold == CONFIG_COLD_NONE && r->cfg.memory_limit == 0)
		return 0;
	/* Without -c, r->target is all zeros: not mounted by us. */
	can = target_can_remount(&r->target, &why);
	if (r->cfg.memory_limit != 0 && !r->cfg.cold_set)
		r->cfg.cold = can ? CONFIG_COLD_REMOUNT : CONFIG_COLD_DROP;
	if (r->cfg.cold == CONFIG_COLD_REMOUNT && !can)
		return setup_tell(s, EXIT_USAGE, "--cold=remount: %s; "
		    "--cold=drop works on any filesystem", why);
	drop = r->cfg.cold == CONFIG_COLD_DROP ||
	    r->cfg.cold == CONFIG_COLD_ALL;
	opt = r->cfg.cold == CONFIG_COLD_DROP ? "--cold=drop" :
	    r->cfg.cold == CONFIG_COLD_ALL ? "--cold=all" : "--cold=remount";
	if (drop && r->cfg.cold_set && in_memory(r->dir))
		return setup_tell(s, EXIT_USAGE, "%s: %s is in memory "
		    "(tmpfs): its files live in the caches, which a drop "
		    "cannot empty, so it would do nothing", opt, r->dir);
	if (geteuid() != 0)
		return setup_tell(s, EXIT_TARGET, "%s needs root (%s); run as "
		    "root, or without it", r->cfg.memory_limit != 0 ?
		    "--memory-limit" : opt, r->cfg.memory_limit != 0 ?
		    "a memory cgroup" : drop ? "/proc/sys/vm/drop_caches" :
		    "umount and mount");
	return 0;
}

/* Whether 'dir' is on a filesystem that lives in memory. */
static bool
in_memory(const char *dir)
{
	struct probe_mount	pm;
	bool			mem;

	if (probe_mount(dir, &pm) == -1)
		return false;
	mem = strcmp(pm.fstype, "tmpfs") == 0 || strcmp(pm.fstype, "ramfs") ==
	    0;
	probe_mount_free(&pm);
	return mem;
}

/*
 * The label: --label, else the config's, else what names the target
 * best: the filesystem type of a local directory, the backend of any
 * other target.
 */
void
setup_label(struct run *r)
{
	struct probe_mount	 pm;
	char			*p;

	memset(&pm, 0, sizeof(pm));
	if (r->cfg.label != NULL)
		r->label = xstrdup(r->cfg.label);
	else if (r->tconf.label != NULL)
		r->label = xstrdup(r->tconf.label);
	else if ((r->ops->flags & BACKEND_LOCAL) == 0)
		r->label = xstrdup(r->ops->name);
	else if (probe_mount(r->dir, &pm) == 0) {
		r->label = xstrdup(pm.fstype);
		for (p = r->label; *p != '\0'; p++)
			if (strchr("abcdefghijklmnopqrstuvwxyz"
			    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-", *p) ==
			    NULL || (p == r->label && *p == '.'))
				*p = '_';
	} else
		r->label = xstrdup("largedir");
	probe_mount_free(&pm);
}

/*
 * --events: the counters to read around every phase (PERF_DEFAULT when
 * not given), opened now so that only the events the kernel takes get
 * columns.  A usage error for a name libpfm4 does not know.
 */
int
setup_events(struct run *r, struct setup_say *s)
{
	char	errbuf[LD_ERRLEN];

	if ((r->cfg.events != NULL ? perf_init(&r->perf, r->cfg.events,
	    errbuf) : perf_init_default(&r->perf, PERF_DEFAULT, errbuf)) == -1)
		return setup_tell(s, EXIT_USAGE, "%s", errbuf);
	(void)perf_open(&r->perf);	/* only accepted events get columns */
	return 0;
}

/*
 * Open the backend, which makes the marked work directory.  If the
 * filesystem refuses, say why in one line with the status
 * outcome_of() gives: EXIT_STOPPED when it is full, read-only,
 * out of descriptors or denies access, else 1.  Nothing was measured, so
 * the run leaves no outputs (in a suite, LABEL.failed).
 */
int
setup_workdir(struct run *r, struct setup_say *s)
{
	struct backend_opts		 bo;
	struct outcome_cause		 cause;
	struct outcome			 out;
	char				 errbuf[LD_ERRLEN];

	setup_backend_opts(r, &bo);
	if (bo.per_dir != 0 && (r->ops->flags & BACKEND_TREE) == 0)
		return setup_tell(s, EXIT_USAGE, "--layout tree: the %s "
		    "backend cannot make subdirectories", r->ops->name);
	if (backend_open(&r->be, r->ops, r->dir, &bo, errbuf) == -1) {
		memset(&cause, 0, sizeof(cause));
		outcome_of(errno, &cause, &out);
		setup_failed(r, errbuf);
		return setup_tell(s, out.status, "%s", errbuf);
	}
	return 0;
}

/*
 * The memory cgroup of --memory-limit, and what a round needs for the
 * whole run: the device of the directory under test, the slab its
 * inodes go to, what the results say of the work directory and of the
 * backend.  The caller adds the round's callbacks.  EXIT_TARGET if the
 * cgroup cannot be made.
 */
int
setup_memcg(struct run *r, struct setup_say *s)
{
	struct round		*rd = &r->round;
	struct stat		 st;
	const char		*drv;
	char			 errbuf[LD_ERRLEN];

	if (r->cfg.memory_limit != 0) {
		if (memcg_create(&r->memcg, "/", r->cfg.memory_limit,
		    errbuf) == -1)
			return not_set_up(r, s, "--memory-limit: %s", errbuf);
		kv_set(&r->doc.meta, "memcg", "%s (cgroup v%d)",
		    r->memcg.dir, (int)r->memcg.version);
	}
	if (stat(r->dir, &st) == 0) {
		rd->dev_major = major(st.st_dev);
		rd->dev_minor = minor(st.st_dev);
	}
	drv = kv_get(&r->doc.meta, "driver");
	rd->inode_slab = cache_inode_slab(drv != NULL ? drv : "");
	kv_set(&r->doc.meta, "work_dir", "%s", r->be.workdir);
	if (r->be.ops->meta != NULL)
		r->be.ops->meta(&r->be, &r->doc.meta);
	rd->cfg = &r->cfg;
	rd->be = &r->be;
	rd->target = &r->target;
	rd->perf = &r->perf;
	rd->doc = &r->doc;
	return 0;
}

/*
 * The largest n of the run: --max-files, else what the names allow, and
 * no more than the work directory's filesystem has inodes for, less
 * INODE_RESERVE (the round directory, and room for others): the
 * time-boxed last round may make three times its planned n, and a run
 * should end at the filesystem's size rather than stop on ENOSPC.  The
 * inodes are counted once, at the start, into '*nfree' (UINT64_MAX where
 * they are not counted); say which limit it is in '*why', and record the
 * inodes' in the metadata.
 */
static uint64_t
largest_n(struct run *r, const char **why, uint64_t *nfree)
{
	uint64_t	max, room, per;

	if (r->cfg.max_files != 0) {
		max = r->cfg.max_files;
		*why = "--max-files";
	} else {
		max = names_capacity(r->cfg.names, r->cfg.name_len);
		*why = "the largest n the names allow";
	}
	*nfree = UINT64_MAX;
	if (r->be.workdir[0] != '/')
		return max;		/* a server's: a backend's URL */
	room = *nfree = probe_inodes_free(r->be.workdir);
	if (room == UINT64_MAX || room <= INODE_RESERVE)
		return max;
	room -= INODE_RESERVE;
	/* A tree's directories take an inode for every F files. */
	per = r->cfg.layout == CONFIG_LAYOUT_TREE ? r->cfg.files_per_dir : 0;
	if (per != 0)
		room = room / (per + 1) * per + (room % (per + 1) > 1 ?
		    room % (per + 1) - 1 : 0);
	if (room >= max)
		return max;
	*why = "the filesystem's free inodes";
	kv_set(&r->doc.meta, "n_limit", "%" PRIu64 " (the "
	    "filesystem's free inodes, less %d%s)", room, INODE_RESERVE,
	    per != 0 ? " and one for each directory" : "");
	return room;
}

/*
 * The largest n (largest_n()), and a first round that fits under it.
 * Only the free inodes can put it below --start (config_check() held
 * --start to --max-files and the names), and a first round above them
 * would stop on ENOSPC: a --start or --dirs given is a usage error,
 * before any output exists (in a suite, with LABEL.failed), and so is a
 * limit below one file for each client (or none at all, a tree's); the
 * default --start is lowered to the limit, with a warning in 's', and
 * recorded as it was used.
 */
int
setup_limit(struct run *r, struct setup_say *s)
{
	char		 start[32], room[32], inodes[32], line[512];
	char		 opt[96], kept[64];
	uint64_t	 nfree;

	r->max_n = largest_n(r, &r->max_why, &nfree);
	if (r->cfg.start <= r->max_n)
		return 0;
	util_fmt_count(start, sizeof(start), r->cfg.start);
	util_fmt_count(room, sizeof(room), r->max_n);
	util_fmt_count(inodes, sizeof(inodes), nfree);
	(void)snprintf(kept, sizeof(kept), "%d are kept back%s",
	    INODE_RESERVE, r->cfg.layout == CONFIG_LAYOUT_TREE ? ", and one "
	    "for each directory" : "");
	if (r->cfg.dirs != 0)
		(void)snprintf(opt, sizeof(opt), "--dirs %" PRIu64 " (%s "
		    "files)", r->cfg.dirs, start);
	else if (r->cfg.start_set || r->max_n == 0)
		(void)snprintf(opt, sizeof(opt), "--start %" PRIu64 "%s",
		    r->cfg.start, r->cfg.start_set ? "" : " (the default)");
	else if (r->max_n < r->cfg.clients)
		(void)snprintf(opt, sizeof(opt), "--clients %u",
		    r->cfg.clients);
	else {
		(void)setup_tell(s, 0, "warning: --start %" PRIu64 " (the "
		    "default) lowered to %" PRIu64 ": the filesystem has %s "
		    "free inodes (%s)", r->cfg.start, r->max_n, inodes, kept);
		r->cfg.start = r->max_n;
		kv_set(&r->doc.config, "start", "%" PRIu64,
		    r->cfg.start);
		return 0;
	}
	(void)snprintf(line, sizeof(line), "%s: the filesystem has %s free "
	    "inodes, room for n up to %s (%s)", opt, inodes, room, kept);
	setup_failed(r, line);
	return setup_tell(s, EXIT_USAGE, "%s", line);
}

/*
 * Take down what the run set up, on every way out: the memory cgroup,
 * the round directory under way (kept, with the work directory and its
 * marker, if it cannot be cleaned), the work directory, the target.
 * Each line to say goes to 'warn', with 'clear' set where a progress
 * line may be up; r->left says something was left for --cleanup.
 * Idempotent.
 */
void
setup_teardown(struct run *r, void (*warn)(bool, const char *))
{
	char		 errbuf[LD_ERRLEN], *line;
	uint64_t	 removed;
	bool		 keep = false;

	if (r->memcg.dir != NULL && memcg_remove(&r->memcg, errbuf) == -1)
		warn(false, errbuf);
	/* A round directory already gone is as clean as it gets. */
	if (r->round.in_round && round_clean(&r->round, &removed) == -1) {
		line = errno == EINTR ? xasprintf("cleanup of %s/%s abandoned "
		    "after a second signal; run 'largedir --cleanup %s'",
		    r->be.workdir, r->round.dname, r->dir) :
		    xasprintf("cannot clean up %s/%s: %s; run 'largedir "
		    "--cleanup %s'", r->be.workdir, r->round.dname,
		    strerror(errno), r->dir);
		warn(true, line);
		free(line);
		keep = true;	/* with its marker */
	}
	r->round.in_round = false;
	if (backend_close(&r->be, keep, errbuf) == -1) {
		r->left = true;
		/* Moved: it says where it went. */
		line = errno == EXDEV ? xstrdup(errbuf) : xasprintf("%s; run "
		    "'largedir --cleanup %s'", errbuf, r->dir);
		warn(false, line);
		free(line);
	}
	if (r->target_up) {
		r->target_up = false;
		if (target_teardown(&r->target, errbuf) == -1) {
			r->left = true;
			line = xasprintf("%s; run 'largedir --cleanup'",
			    errbuf);
			warn(false, line);
			free(line);
		}
	}
}

/*
 * --setup-only: the target is set up (or the directory checked), which is
 * all this run was to do; say so.  The caller returns, and tidy() at exit
 * takes the target down again.
 */
int
setup_only_say(const struct run *r)
{
	if (r->cfg.quiet)
		;
	else if (r->conf_path == NULL)
		printf("%s: a directory largedir can measure\n", r->dir);
	else
		printf("%s: set up%s; taken down again\n", r->conf_path,
		    r->tconf.kernel_uml ? " as far as the host goes (the "
		    "guest mounts it)" : "");
	if (fflush(stdout) == EOF)
		err(1, "stdout");
	return 0;
}
