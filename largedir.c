/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * largedir: how does a filesystem cope when one directory grows very
 * large?
 *
 * The story of a run: read the options; make a marked work directory
 * inside the directory under test; then, round after round, create n
 * empty files in a fresh subdirectory, open and close them in random
 * order, delete them in creation order (and whatever other phases were
 * asked for), timing every phase; raise n by the growth factor and go
 * again until the time budget is spent.  After every round the results
 * are written out whole, so whatever stops the run, the rounds already
 * measured survive.  Whatever stops it, largedir removes what it created
 * and nothing else.
 *
 * This file holds the verbs and the run from its set-up to its teardown;
 * the loop over rounds is round_loop() in src/round.c, as the schedule
 * of src/timing.c plans it; how a phase runs is in src/runner.c, what a
 * person reads in src/report.c, and each other verb in a module of its
 * own (see ARCHITECTURE.md).  The state of a run is one struct run,
 * passed by pointer; tidy(), run at exit, finds it through 'tidy_run'.
 */

#include <sys/random.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/types.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "backend.h"
#include "cache.h"
#include "clients.h"
#include "cleanup.h"
#include "compare.h"
#include "config.h"
#include "gitid.h"	/* $(O)/gitid.h, from the Makefile */
#include "knfs.h"
#include "measure.h"
#include "memcg.h"
#include "nfsstat.h"
#include "output.h"
#include "page.h"
#include "perf.h"
#include "plot.h"
#include "probe.h"
#include "rankrun.h"
#include "ranks.h"
#include "record.h"
#include "report.h"
#include "round.h"
#include "sig.h"
#include "stats.h"
#include "suite.h"
#include "table.h"
#include "target.h"
#include "target_nfs.h"
#include "timing.h"
#include "uml.h"
#include "util.h"

/* Inodes a run leaves to others: the round directory, the churn's... */
#define INODE_RESERVE	64

/* Everything a run holds. */
struct run {
	struct config		 cfg;
	const char		*conf_path;	/* -c FILE, or NULL */
	struct target_conf	 tconf;		/* what FILE says */
	struct target		 target;	/* set up from it */
	bool			 target_up;	/* needs a teardown */
	const char		*dir;		/* the directory under test */
	pid_t			 pid;		/* largedir, not a child */
	uint64_t		 t0_ns;		/* monotonic start of the run */
	char			 stamp[32];	/* UTC start, ISO 8601 */
	const struct backend_ops *ops;		/* the target's backend */
	struct backend		 be;		/* and its work directory */
	struct memcg		 memcg;		/* --memory-limit */
	struct perf		 perf;		/* --events */
	struct round		 round;		/* the round under way */
	uint64_t		 max_n;		/* the largest n */
	const char		*max_why;	/* what sets it */
	double			 round_pred_ns;	/* its predicted time */
	bool			 timebox;	/* it ends at the budget */
	struct output_doc	 doc;
	int			 outfd;		/* the run directory */
	struct output_id	 outids[OUTPUT_NWRITERS]; /* files we wrote */
	char			*outdir;
	char			*label;
	struct noise		 noise;		/* what the checks saw */
	bool			 left;		/* tidy() left something */
};

/* What a verb other than the run itself does. */
struct verb {
	const char	*name;
	int		(*main)(int, char **);
};

static struct run	*tidy_run;	/* for tidy(), at exit */

static int	verb_cleanup(int, char **);
static int	run_main(int, char **);
static void	parse_args(struct run *, int, char **, bool *);
static void	check_dir(const char *);
static void	setup_target(struct run *);
static int	setup_only(struct run *);
static void	check_path_fstype(struct run *);
static void	not_set_up(struct run *, const char *, ...)
		    __attribute__((noreturn, format(printf, 2, 3)));
static bool	in_memory(const char *);
static void	setup_cold(struct run *);
static void	setup_label(struct run *);
static void	setup_outputs(struct run *, int, char **);
static void	backend_opts_of(const struct run *, struct backend_opts *);
static void	open_outputs(struct run *);
static void	suite_failed(struct run *, const char *);
static void	setup_workdir(struct run *);
static uint64_t	largest_n(struct run *, const char **, uint64_t *);
static void	setup_limit(struct run *);
static void	setup_round(struct run *);
static void	child_init(void *);
static void	setup_signals(void);
static int	run_rounds(struct run *);
static void	on_planned(void *, const struct timing_round *);
static void	on_done(void *, const struct timing_round *,
		    const struct round_result *);
static int	stop_run(struct run *);
static bool	on_poll(void *, enum phase, uint64_t);
static void	on_note(void *, const struct round_note *);
static void	flush_outputs(struct run *);
static void	tidy(void);

static const struct verb verbs[] = {
	{ "suite", suite_main },
	{ "compare", compare_main },
	{ "plot", plot_main },
	{ "page", page_main },
	{ "cleanup", verb_cleanup },
	{ "nfsstat", nfsstat_main },
	{ "table", table_main },
	{ NULL, NULL }
};

int
main(int argc, char *argv[])
{
	const struct verb	*v;

	(void)setlocale(LC_NUMERIC, "C");
	for (v = verbs; argc > 1 && v->name != NULL; v++)
		if (strcmp(argv[1], v->name) == 0)
			return v->main(argc - 1, argv + 1);
	return run_main(argc, argv);
}

/* ===== The verbs ===== */

/* largedir cleanup [--scratch DIR] [DIR]: largedir --cleanup, spelt out. */
static int
verb_cleanup(int argc, char **argv)
{
	char	**args;
	int	  i, rc;

	args = xreallocarray(NULL, (size_t)argc + 2, sizeof(*args));
	args[0] = (char *)"largedir";
	args[1] = (char *)"--cleanup";
	for (i = 1; i < argc; i++)
		args[i + 1] = argv[i];
	args[argc + 1] = NULL;
	rc = run_main(argc + 1, args);
	free(args);
	return rc;
}

/*
 * largedir [options] DIR, or -c FILE: the run.  Returns its exit status;
 * errors on the way exit through err(3), and tidy() removes what was
 * made so far.
 */
static int
run_main(int argc, char **argv)
{
	static struct run	 run;	/* static: tidy() runs after main */
	struct run		*r = &run;
	struct report_start	 start;
	struct backend_opts	 bo;
	bool			 cleanup = false;
	char			 errbuf[LD_ERRLEN];
	int			 status;

	r->outfd = -1;
	r->pid = getpid();
	r->t0_ns = timing_now();
	config_init(&r->cfg);
	parse_args(r, argc, argv, &cleanup);
	if (cleanup)
		return cleanup_main(r->dir, r->cfg.scratch);
	if (config_check(&r->cfg, errbuf) == -1)
		report_usage("%s", errbuf);
	if (!r->cfg.seed_set && getrandom(&r->cfg.seed, sizeof(r->cfg.seed),
	    0) != sizeof(r->cfg.seed))
		err(1, "getrandom");
	report_init(r->cfg.quiet, true);
	tidy_run = r;
	if (r->conf_path != NULL) {
		setup_signals();	/* mkfs may take a while */
		setup_target(r);
		if (r->cfg.setup_only)
			return setup_only(r);	/* tidy() tears it down */
		if (r->tconf.kernel_uml && r->tconf.path == NULL)
			return uml_main(&r->target, &r->cfg, r->conf_path,
			    argc, argv);	/* tidy() tears it down */
		/* The budget is for measuring: it starts after mkfs. */
		r->t0_ns = timing_now();
	}
	if ((r->ops = backend_for(r->dir)) == NULL)
		report_usage("%s: no backend for this kind of target", r->dir);
	if (r->cfg.clients > 1 && r->ops->forked == NULL)
		report_usage("--clients %u: not with the %s backend (it cannot "
		    "be used by two processes)", r->cfg.clients, r->ops->name);
	if (r->ops == &posix_ops)
		check_dir(r->dir);
	else if (r->ops->check != NULL && r->ops->check(r->dir, errbuf) == -1)
		report_usage("%s", errbuf);
	else if (r->cfg.memory_limit != 0)
		report_usage("--memory-limit: not with %s (the %s backend's "
		    "phases share its connection with largedir)", r->dir,
		    r->ops->name);
	if (r->cfg.setup_only)
		return setup_only(r);
	if (r->cfg.mpi) {
		backend_opts_of(r, &bo);
		if ((status = rankrun_start(&r->cfg, r->ops, r->dir,
		    r->conf_path != NULL, &bo, &argc, &argv)) != -1)
			return status;	/* a rank but 0: its part is done */
	}
	setup_cold(r);
	setup_label(r);
	if ((r->cfg.events != NULL ? perf_init(&r->perf, r->cfg.events,
	    errbuf) : perf_init_default(&r->perf, PERF_DEFAULT, errbuf)) == -1)
		report_usage("%s", errbuf);
	(void)perf_open(&r->perf);	/* only accepted events get columns */
	setup_outputs(r, argc, argv);
	setup_signals();	/* before anything exists that needs removing */
	setup_workdir(r);
	setup_round(r);
	setup_limit(r);
	if (r->cfg.mpi && rankrun_hello(&r->cfg.seed, r->be.workdir, 0,
	    &r->doc.meta) == -1)
		errx(1, "--mpi: the other ranks cannot hear rank 0");
	open_outputs(r);	/* only now: a run that cannot start leaves none */
	start.cfg = &r->cfg;
	start.doc = &r->doc;
	start.dir = r->dir;
	start.workdir = r->be.workdir;
	start.memcg = r->memcg.dir;
	start.unavailable = perf_unavailable(&r->perf);
	report_start(&start);

	status = run_rounds(r);
	if (r->cfg.mpi)
		measure_ranks_end();	/* the other ranks are done */

	if (r->doc.status == OUTPUT_RUNNING)
		r->doc.status = OUTPUT_COMPLETE;
	report_knees(&r->doc, r->cfg.phases, r->cfg.nphases);
	flush_outputs(r);
	tidy();
	if (status == 0 && r->left)
		status = 1;		/* it said what it left, and where */
	ranks_end();
	if (!r->cfg.quiet)
		printf("results: %s/%s.out (.csv, .json)\n", r->outdir,
		    r->label);
	if (fflush(stdout) == EOF || ferror(stdout)) {
		/* A reader that went away (largedir | head) is no error. */
		if (errno == EPIPE || sig_first == SIGPIPE)
			return status != 0 ? status : 128 + SIGPIPE;
		err(1, "stdout");
	}
	return status;
}

/* ===== Set-up ===== */

/*
 * Read the command line into r->cfg and r->dir: config_parse_args() reads
 * -c's file first and every value through config_set(), which names the
 * culprit when it refuses one; -h and -V end here.
 */
static void
parse_args(struct run *r, int argc, char **argv, bool *cleanup)
{
	struct config_args	 a;
	char			 errbuf[LD_ERRLEN];

	switch (config_parse_args(&r->cfg, &r->tconf, CONFIG_RUN, argc, argv,
	    &a, errbuf)) {
	case -1:
		report_usage("%s", errbuf);
	case CONFIG_ACT_HELP:
		if (config_usage(stdout) == -1)
			err(1, "stdout");
		exit(0);
	case CONFIG_ACT_VERSION:
		printf("largedir %s (%s)\n", LD_VERSION, LD_GIT);
		exit(0);
	default:
		break;
	}
	r->conf_path = a.conf;
	*cleanup = a.cleanup;
	if (a.nrest > 1)
		report_usage("one directory only, got '%s' too", a.rest[1]);
	if (a.nrest == 1 && r->conf_path != NULL && !*cleanup)
		report_usage("%s names the target already: drop '%s'",
		    r->conf_path, a.rest[0]);
	if (a.nrest == 0 && r->conf_path == NULL && !*cleanup)
		report_usage("missing the directory to measure, or -c "
		    "FILE (see largedir -h)");
	r->dir = a.nrest == 1 ? a.rest[0] : NULL;
}

/* The directory under test must exist and be a directory. */
static void
check_dir(const char *dir)
{
	char	errbuf[LD_ERRLEN];

	if (util_check_dir(dir, errbuf) == -1)
		report_usage("%s", errbuf);
}

/*
 * -c FILE: set up the target the file describes (or take its path), so
 * that r->dir is where the rounds go.  Exits EXIT_TARGET with one line
 * when this machine cannot: no root for loop devices and mkfs, or a
 * kernel without the filesystem (or, for an NFS export, without an NFS
 * client or mount.nfs).  A signal during set-up (mkfs may take
 * minutes) exits 128 + its number with one line, after undoing it.
 */
static void
setup_target(struct run *r)
{
	const struct target_conf	*tc = &r->tconf;
	char				 errbuf[LD_ERRLEN];
	const char			*scratch;

	scratch = r->cfg.scratch != NULL ? r->cfg.scratch : TARGET_SCRATCH;
	if (tc->kernel_uml && probe_is_uml(PROBE_CPUINFO) !=
	    (tc->path != NULL))		/* in the guest: path, see uml.c */
		report_usage("%s: kernel = uml %s", r->conf_path, tc->path !=
		    NULL ? "with path: the guest's run (uml.c), not this one's"
		    : "inside User-Mode Linux already");
	if (tc->path != NULL || tc->url != NULL) {	/* nothing to set up */
		if (target_setup(&r->target, tc, scratch, errbuf) == -1)
			report_usage("%s: %s", r->conf_path, errbuf);
		r->dir = r->target.mnt;
		if (tc->path != NULL)
			check_path_fstype(r);
		return;
	}
	if (tc->kernel_uml && tc->path == NULL) {
		if (uml_check(tc->uml, errbuf) == -1)
			not_set_up(r, "%s: %s", r->conf_path, errbuf);
	} else if (tc->source != NULL) {	/* an NFS export to mount */
		if (target_nfs_check("", tc->fstype, errbuf) == -1)
			not_set_up(r, "%s: %s", r->conf_path, errbuf);
	} else if (probe_fs_known(PROBE_FILESYSTEMS, tc->fstype) == 0)
		not_set_up(r, "%s: this kernel cannot mount %s (not in "
		    "/proc/filesystems%s); to measure an existing mount, give "
		    "its directory as 'path ='", r->conf_path, tc->fstype,
		    strcmp(tc->fstype, "reiserfs") == 0 ? ": removed in Linux "
		    "6.13" : "");
	if (geteuid() != 0)
		not_set_up(r, "%s: setting up %s needs root (%s); run as "
		    "root, or measure an existing directory with 'largedir "
		    "DIR'", r->conf_path, tc->fstype, tc->source != NULL ||
		    strcmp(tc->fstype, "tmpfs") == 0 ? "mount" :
		    tc->device != NULL ? "mkfs, mount" :
		    "loop device, mkfs, mount");
	/* A signal stops set-up; the outputs do not exist yet. */
	if (target_setup(&r->target, tc, scratch, errbuf) == -1) {
		if (errno == EINTR && sig_count > 0)
			errx(128 + sig_first, "%s: %s; nothing measured, no "
			    "outputs written", r->conf_path, errbuf);
		not_set_up(r, "%s: %s", r->conf_path, errbuf);
	}
	r->target_up = true;
	if (atexit(tidy) != 0)
		err(1, "atexit");
	if (sig_count > 0)	/* tidy() tears the target down */
		errx(128 + sig_first, "%s: interrupted by SIG%s while setting "
		    "up the target; nothing measured, no outputs written",
		    r->conf_path, sigabbrev_np(sig_first));
	r->dir = r->target.mnt;
}

/*
 * The target cannot be set up here: say why in one line and exit
 * EXIT_TARGET, as errx(3) would.  In a suite (SUITE_COMMAND_ENV set) the
 * line goes to LABEL.failed in the run directory first, so that the
 * suite's page can list the target with its reason: no other output
 * exists then.
 */
static void
not_set_up(struct run *r, const char *fmt, ...)
{
	va_list		 ap;
	char		 line[LD_ERRLEN];

	va_start(ap, fmt);
	(void)vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	suite_failed(r, line);
	errx(EXIT_TARGET, "%s", line);
}

/*
 * In a suite, a target that cannot start leaves LABEL.failed in the run
 * directory with its one line, for the suite's page to name it: it has no
 * outputs of its own.
 */
static void
suite_failed(struct run *r, const char *line)
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
 * would carry one name for another filesystem's numbers; exit 2 if not.
 */
static void
check_path_fstype(struct run *r)
{
	const char		*want = r->tconf.fstype;
	struct probe_mount	 pm;
	bool			 same;

	if (want == NULL || probe_mount(r->tconf.path, &pm) == -1)
		return;		/* check_dir() says what is wrong */
	same = strcmp(pm.fstype, want) == 0 || (strncmp(pm.fstype, "nfs",
	    3) == 0 && strncmp(want, "nfs", 3) == 0);
	if (!same)
		report_usage("%s: fstype %s, but %s is on %s: set fstype = "
		    "%s, or path to a directory on %s", r->conf_path, want,
		    r->tconf.path, pm.fstype, pm.fstype, want);
	probe_mount_free(&pm);
}

/*
 * --setup-only: the target is set up (or the directory checked), which is
 * all this run was to do; say so.  The caller returns, and tidy() at exit
 * takes the target down again.
 */
static int
setup_only(struct run *r)
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

/*
 * --cold and --memory-limit: check that this run can empty the caches
 * the way asked, before anything is measured.  --memory-limit alone
 * remounts where it can and drops the caches elsewhere: without either,
 * the dentries create left behind would be cached outside the limit.
 */
static void
setup_cold(struct run *r)
{
	const char	*why;
	bool		 can;

	if (r->cfg.cold == CONFIG_COLD_NONE && r->cfg.memory_limit == 0)
		return;
	/* Without -c, r->target is all zeros: not mounted by us. */
	can = target_can_remount(&r->target, &why);
	if (r->cfg.memory_limit != 0 && !r->cfg.cold_set)
		r->cfg.cold = can ? CONFIG_COLD_REMOUNT : CONFIG_COLD_DROP;
	if (r->cfg.cold == CONFIG_COLD_REMOUNT && !can)
		report_usage("--cold=remount: %s; --cold=drop works on any "
		    "filesystem", why);
	if (r->cfg.cold == CONFIG_COLD_DROP && r->cfg.cold_set &&
	    in_memory(r->dir))
		report_usage("--cold=drop: %s is in memory (tmpfs): its files "
		    "live in the caches, which a drop cannot empty, so it "
		    "would do nothing", r->dir);
	if (geteuid() != 0)
		errx(EXIT_TARGET, "%s needs root (%s); run as root, or without "
		    "it", r->cfg.memory_limit != 0 ? "--memory-limit" :
		    r->cfg.cold == CONFIG_COLD_DROP ? "--cold=drop" :
		    "--cold=remount", r->cfg.memory_limit != 0 ? "a memory "
		    "cgroup" : r->cfg.cold == CONFIG_COLD_DROP ?
		    "/proc/sys/vm/drop_caches" : "umount and mount");
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
 * The label: --label, else the config's, else the filesystem type, which
 * names it best.
 */
static void
setup_label(struct run *r)
{
	struct probe_mount	 pm;
	char			*p;

	memset(&pm, 0, sizeof(pm));
	if (r->cfg.label != NULL)
		r->label = xstrdup(r->cfg.label);
	else if (r->tconf.label != NULL)
		r->label = xstrdup(r->tconf.label);
	else if (r->ops != &posix_ops)
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
 * Make the run directory, refuse to overwrite earlier results, and fill
 * the document's metadata, settings and columns.
 */
static void
setup_outputs(struct run *r, int argc, char **argv)
{
	const char			*extra[RECORD_MAX_EXTRA];
	struct timespec			 ts;
	struct stat			 sb;
	struct tm			 tm;
	char				 dstamp[32], *cmd, *f, line[512];
	size_t				 i, nextra;

	if (clock_gettime(CLOCK_REALTIME, &ts) == -1 ||
	    gmtime_r(&ts.tv_sec, &tm) == NULL)
		err(1, "clock_gettime");
	(void)strftime(r->stamp, sizeof(r->stamp), "%Y-%m-%dT%H:%M:%SZ", &tm);
	(void)strftime(dstamp, sizeof(dstamp), "%Y%m%dT%H%M%SZ", &tm);
	r->outdir = r->cfg.output != NULL ? xstrdup(r->cfg.output) :
	    xasprintf("results/%s-%s", dstamp, r->label);
	for (i = 0; output_writers[i].name != NULL; i++) {
		/* A dangling symbolic link is there too. */
		f = xasprintf("%s/%s.%s", r->outdir, r->label,
		    output_writers[i].ext);
		if (lstat(f, &sb) == 0)
			report_usage("%s exists: choose another -o or "
			    "--label", f);
		free(f);
	}
	/* -o names a directory, as DIR does: a file there is a usage error. */
	if (stat(r->outdir, &sb) == 0 ? !S_ISDIR(sb.st_mode) : errno == ENOTDIR)
		report_usage("-o %s: not a directory (the run directory, made "
		    "if need be)", r->outdir);

	output_doc_init(&r->doc);
	r->doc.largedir = xstrdup(LD_VERSION);
	cmd = util_quote_argv(argc, argv);
	output_kv_set(&r->doc.meta, "version", "%s", LD_VERSION);
	output_kv_set(&r->doc.meta, "git", "%s", LD_GIT);
	output_kv_set(&r->doc.meta, "command", "%s", cmd);
	free(cmd);
	output_kv_set(&r->doc.meta, "label", "%s", r->label);
	output_kv_set(&r->doc.meta, "start_utc", "%s", r->stamp);
	output_kv_set(&r->doc.meta, "seed", "%" PRIu64, r->cfg.seed);
	if (r->cfg.preset != CONFIG_PRESET_CLASSIC)
		output_kv_set(&r->doc.meta, "preset", "%s", r->cfg.preset_note);
	if ((f = getenv(SUITE_COMMAND_ENV)) != NULL && *f != '\0')
		output_kv_set(&r->doc.meta, "suite_command", "%s", f);
	output_kv_set(&r->doc.meta, "dir", "%s", r->dir);
	if (r->ops == &posix_ops)
		probe_target(r->dir, &r->doc.meta);
	if (r->conf_path != NULL) {
		output_kv_set(&r->doc.meta, "config_file", "%s",
		    r->conf_path);
		if (r->cfg.overrides != NULL)	/* --source, ... */
			output_kv_set(&r->doc.meta, "target_overrides", "%s",
			    r->cfg.overrides);
		target_meta(&r->target, &r->doc.meta);
	}
	probe_system(&r->doc.meta);
	record_describe(&r->doc.meta);
	config_dump(&r->cfg, &r->doc.config);
	perf_describe(&r->perf, line, sizeof(line));
	output_kv_set(&r->doc.meta, "events", "%s", line);
	if (*perf_unavailable(&r->perf) != '\0')
		output_kv_set(&r->doc.meta, "events_unavailable", "%s",
		    perf_unavailable(&r->perf));
	record_describe_cold(&r->doc.meta, r->cfg.cold);
	/* On a kernel NFS mount, posix counts what the client sent. */
	if (r->ops == &posix_ops &&
	    (r->ops = knfs_for_dir(r->dir, &r->doc.meta, line)) != NULL &&
	    *line != '\0')
		report_warn("warning: no RPC counts: %s", line);
	/* Then the backend's counters (none for posix elsewhere). */
	r->round.nperf = perf_nvalues(&r->perf);
	for (i = 0; i < r->round.nperf; i++)
		extra[i] = perf_value_name(&r->perf, i);
	r->round.ncounters = backend_ncounters(r->ops);
	nextra = r->round.nperf;
	for (i = 0; i < r->round.ncounters && nextra < RECORD_MAX_EXTRA; i++)
		extra[nextra++] = r->ops->counter_names[i];
	r->round.ncounters = nextra - r->round.nperf;
	/* Then, of several clients, their rates. */
	for (i = 0; i < clients_ncolumns(r->cfg.clients); i++)
		extra[nextra++] = clients_column(r->cfg.clients, i);
	record_columns(&r->doc, r->cfg.phases, r->cfg.nphases, extra, nextra);
}

/* The backend's options, from the run's settings. */
static void
backend_opts_of(const struct run *r, struct backend_opts *bo)
{
	memset(bo, 0, sizeof(*bo));
	bo->file_size = r->cfg.file_size;
	bo->fsync = r->cfg.fsync;
	bo->names = r->cfg.names;
	bo->name_len = r->cfg.name_len;
	bo->seed = r->cfg.seed;
	bo->per_dir = r->cfg.layout == CONFIG_LAYOUT_TREE ?
	    r->cfg.files_per_dir : 0;
	bo->started = r->stamp;
	bo->settings = &r->cfg.bset;
}

/*
 * Make the run directory and write the outputs a first time, once the
 * work directory and the round are set up: from here on every way out
 * leaves them, with the rounds measured and why the run ended.
 */
static void
open_outputs(struct run *r)
{
	if (util_mkdir_p(r->outdir) == -1)
		err(1, "mkdir %s", r->outdir);
	if ((r->outfd = open(r->outdir, O_RDONLY | O_DIRECTORY |
	    O_CLOEXEC)) == -1)
		err(1, "%s", r->outdir);
	flush_outputs(r);
}

/*
 * Open the backend, which makes the marked work directory.  If the
 * filesystem refuses, largedir says why in one line and exits as
 * report_stop_status() says: EXIT_STOPPED when it is full, read-only, out
 * of descriptors or denies access, else 1.  Nothing was measured, so it
 * leaves no outputs (in a suite, LABEL.failed).
 */
static void
setup_workdir(struct run *r)
{
	struct backend_opts		 bo;
	struct report_cause		 cause;
	struct report_stop		 out;
	char				 errbuf[LD_ERRLEN];

	backend_opts_of(r, &bo);
	if (bo.per_dir != 0 && r->ops->subdir == NULL)
		errx(2, "--layout tree: the %s backend cannot make "
		    "subdirectories", r->ops->name);
	if (backend_open(&r->be, r->ops, r->dir, &bo, errbuf) == -1) {
		memset(&cause, 0, sizeof(cause));
		report_stop_status(errno, &cause, &out);
		suite_failed(r, errbuf);
		errx(out.status, "%s", errbuf);
	}
	if (!r->target_up && atexit(tidy) != 0)	/* else done already */
		err(1, "atexit");
}

/*
 * The backend, the memory cgroup of --memory-limit and everything a
 * round needs for the whole run.
 */
static void
setup_round(struct run *r)
{
	struct round		*rd = &r->round;
	struct stat		 st;
	const char		*drv;
	char			 errbuf[LD_ERRLEN];

	if (r->cfg.memory_limit != 0) {
		if (memcg_create(&r->memcg, "/", r->cfg.memory_limit,
		    errbuf) == -1)
			not_set_up(r, "--memory-limit: %s", errbuf);
		output_kv_set(&r->doc.meta, "memcg", "%s (cgroup v%d)",
		    r->memcg.dir, (int)r->memcg.version);
	}
	if (stat(r->dir, &st) == 0) {
		rd->dev_major = major(st.st_dev);
		rd->dev_minor = minor(st.st_dev);
	}
	drv = output_kv_get(&r->doc.meta, "driver");
	rd->inode_slab = cache_inode_slab(drv != NULL ? drv : "");
	output_kv_set(&r->doc.meta, "work_dir", "%s", r->be.workdir);
	if (r->be.ops->meta != NULL)
		r->be.ops->meta(&r->be, &r->doc.meta);
	rd->cfg = &r->cfg;
	rd->be = &r->be;
	rd->target = &r->target;
	rd->perf = &r->perf;
	rd->doc = &r->doc;
	rd->run_t0_ns = r->t0_ns;
	rd->on_poll = on_poll;
	rd->note = on_note;
	rd->planned = on_planned;
	rd->done = on_done;
	rd->arg = r;
	runner_init(&rd->runner, r->memcg.dir != NULL ? &r->memcg : NULL,
	    child_init, r);
}

/* In a limited child: its own progress timer and event counters. */
static void
child_init(void *arg)
{
	struct run	*r = arg;

	if (report_tty())
		sig_arm_timer();
	perf_reopen(&r->perf);
}

static void
setup_signals(void)
{
	if (sig_setup(report_tty()) == -1)
		err(1, "sigaction");
}

/* ===== The rounds ===== */

/*
 * Run rounds until the budget, --max-files or the filesystem says stop
 * (timing.c plans them, round.c runs them).  Return the exit status.
 */
static int
run_rounds(struct run *r)
{
	struct timing_sched	s;
	struct timing_round	last;

	timing_sched_init(&s, &timing_monotonic, r->t0_ns, r->cfg.budget_ns,
	    r->cfg.policy, r->cfg.start, r->max_n, r->cfg.growth,
	    r->cfg.repeat, r->cfg.warmup);
	/* Blocked clients' shares cannot end at a deadline together. */
	s.nobox = r->cfg.mpi || (r->cfg.clients > 1 &&
	    r->cfg.split == CONFIG_SPLIT_BLOCKED);
	if (round_loop(&r->round, &s, &last) == -1)
		return stop_run(r);
	report_end(&r->cfg, &last, r->max_why);
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
	output_kv_set(&r->doc.meta, "n_limit", "%" PRIu64 " (the "
	    "filesystem's free inodes, less %d%s)", room, INODE_RESERVE,
	    per != 0 ? " and one for each directory" : "");
	return room;
}

/*
 * The largest n (largest_n()), and a first round that fits under it.
 * Only the free inodes can put it below --start (config_check() held
 * --start to --max-files and the names), and a first round above them
 * would stop on ENOSPC: a --start or --dirs given is refused, exit 2,
 * before any output exists (in a suite, with LABEL.failed), and so is a
 * limit below one file for each client (or none at all, a tree's); the
 * default --start is lowered to the limit, with a warning, and recorded
 * as it was used.
 */
static void
setup_limit(struct run *r)
{
	char		 start[32], room[32], inodes[32], line[512];
	char		 opt[96], kept[64];
	uint64_t	 nfree;

	r->max_n = largest_n(r, &r->max_why, &nfree);
	if (r->cfg.start <= r->max_n)
		return;
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
		report_warn("warning: --start %" PRIu64 " (the default) "
		    "lowered to %" PRIu64 ": the filesystem has %s free inodes "
		    "(%s)", r->cfg.start, r->max_n, inodes, kept);
		r->cfg.start = r->max_n;
		output_kv_set(&r->doc.config, "start", "%" PRIu64,
		    r->cfg.start);
		return;
	}
	(void)snprintf(line, sizeof(line), "%s: the filesystem has %s free "
	    "inodes, room for n up to %s (%s)", opt, inodes, room, kept);
	suite_failed(r, line);
	report_usage("%s", line);
}

/*
 * Before a round: say and record the plan of the last rounds when one
 * was made, and say when this is the time-boxed last one.
 */
static void
on_planned(void *arg, const struct timing_round *plan)
{
	struct run	*r = arg;
	char		 line[256], key[32];

	r->round_pred_ns = plan->pred_ns;
	r->timebox = plan->timebox;
	if (plan->plan_event != TIMING_PLAN_NONE) {
		report_plan(plan, line, sizeof(line));
		(void)snprintf(key, sizeof(key), "plan_round_%u", plan->k);
		output_kv_set(&r->doc.meta, key, "%s", line);
	}
	if (plan->timebox)
		report_timebox(plan->n_about, plan->n);
}

/*
 * After a round: check it for noise, write the outputs, and print its
 * line.
 */
static void
on_done(void *arg, const struct timing_round *plan,
    const struct round_result *res)
{
	struct run	*r = arg;

	if (!plan->warmup) {
		report_outliers(&r->noise, &r->doc, plan->k, r->cfg.phases,
		    r->cfg.nphases, res);
		report_swing(&r->noise, &r->doc, plan->k, r->cfg.phases,
		    r->cfg.nphases, res->median);
	}
	flush_outputs(r);
	report_round(plan->k, plan->warmup, r->cfg.phases, r->cfg.nphases,
	    res, timing_now() - r->round.t0_ns);
}

/*
 * The round stopped (r->round.stop says why): record why in the outputs,
 * say it in one line, and return the exit status (report_stop_status()).
 */
static int
stop_run(struct run *r)
{
	const struct round_stop	*st = &r->round.stop;
	struct report_cause	 cause;
	struct report_stop	 out;
	char			 count[32];

	if (st->phase == NULL)
		errx(1, "%s: %s", st->what, strerror(st->err));
	cause.signo = sig_count > 0 ? sig_first : 0;
	cause.memory_limit = st->memory_limit;
	cause.vanished = st->vanished;
	cause.listing = st->listing;
	report_stop_status(st->err, &cause, &out);
	util_fmt_count(count, sizeof(count), st->n);
	if (st->err == ENOMEM && st->memory_limit)
		output_kv_set(&r->doc.meta, "oom", "%s in round %u (n=%s), "
		    "%s", st->phase, r->round.k, count, st->what);
	r->doc.status = out.outcome;
	free(r->doc.stop_reason);
	r->doc.stop_reason = xasprintf("%s%s%s%s: %s in round %u (n=%s), %s",
	    out.why, *st->detail != '\0' ? " (" : "", st->detail,
	    *st->detail != '\0' ? ")" : "", st->phase, r->round.k, count,
	    st->what);
	r->doc.stop_errno = st->err;
	r->doc.stop_n = st->n;
	free(r->doc.stop_phase);
	r->doc.stop_phase = xstrdup(st->phase);
	flush_outputs(r);
	report_warn("%s", r->doc.stop_reason);
	return out.status;
}

/*
 * Called by the phase loops when sig_poll is up: redraw the progress
 * line, and say whether to stop.  A signal stops a phase; during cleanup
 * (phase PHASE_COUNT) only a second signal does.
 */
static bool
on_poll(void *arg, enum phase p, uint64_t done)
{
	struct run		*r = arg;
	struct report_progress	 pr;
	uint64_t		 now = timing_now();

	sig_poll = 0;
	if (sig_tick && sig_count == 0) {
		sig_tick = 0;
		pr.round = r->round.k;
		pr.n = r->round.n;
		pr.total = p == PHASE_MKDIR ? r->round.w.ndirs :
		    p == PHASE_DELETE ? pr.n + r->round.w.ndirs : pr.n;
		pr.boxed = p == PHASE_CREATE && r->timebox &&
		    r->round.rep == 1;
		pr.run_t0_ns = r->t0_ns;
		pr.budget_ns = r->cfg.budget_ns;
		pr.round_t0_ns = r->round.t0_ns;
		pr.round_pred_ns = r->round_pred_ns;
		pr.phase_t0_ns = r->round.phase_t0_ns;
		report_progress(&pr, p, done, now);
	}
	if (sig_count > 0)
		sig_poll = 1;		/* keep later loops stopping too */
	return p == PHASE_COUNT ? sig_count > 1 : sig_count > 0;
}

/* What a round tells on its way (struct round_note). */
static void
on_note(void *arg, const struct round_note *rn)
{
	struct run	*r = arg;

	report_note(&r->noise, &r->doc, r->be.workdir, rn);
}

/* ===== Leaving ===== */

/* Rewrite all outputs; a failure here is fatal (the results are gone). */
static void
flush_outputs(struct run *r)
{
	struct timing_usage	u;
	char			errbuf[LD_ERRLEN], line[LD_ERRLEN];

	if (r->outfd == -1)
		return;
	if (timing_usage(&u) == 0)
		output_kv_set(&r->doc.meta, "peak_rss_kib", "%" PRIu64,
		    u.maxrss_kib);
	output_kv_set(&r->doc.meta, "elapsed_s", "%.3f",
	    (timing_now() - r->t0_ns) / 1e9);
	if (output_flush(r->outfd, r->label, &r->doc, r->outids,
	    errbuf) == -1) {
		/* The files agree still; try once to say why in all. */
		if (r->doc.status == OUTPUT_RUNNING) {
			r->doc.status = OUTPUT_FAILED;
			free(r->doc.stop_reason);
			r->doc.stop_reason = xasprintf("writing the outputs: "
			    "%s", errbuf);
			(void)output_flush(r->outfd, r->label, &r->doc,
			    r->outids, line);
		}
		r->outfd = -1;		/* no other try from tidy() */
		errx(1, "%s", errbuf);
	}
}

/*
 * Remove what the run created, on every way out: the normal end, a stop,
 * and err(3) anywhere (atexit).  Never exits (exit from an atexit handler
 * is undefined).  Idempotent.
 */
static void
tidy(void)
{
	struct run	*r = tidy_run;
	char		 errbuf[LD_ERRLEN];
	uint64_t	 removed;
	bool		 keep;

	if (r == NULL || getpid() != r->pid)
		return;		/* a limited child that died through err(3) */
	if (r->memcg.dir != NULL && memcg_remove(&r->memcg, errbuf) == -1)
		warnx("%s", errbuf);
	keep = false;
	if (r->round.in_round) {
		/* A round directory already gone is as clean as it gets. */
		if (round_clean(&r->round, &removed) == -1) {
			report_clear();
			if (errno == EINTR)
				warnx("cleanup of %s/%s abandoned after a "
				    "second signal; run 'largedir --cleanup "
				    "%s'", r->be.workdir, r->round.dname,
				    r->dir);
			else
				warnx("cannot clean up %s/%s: %s; run "
				    "'largedir --cleanup %s'", r->be.workdir,
				    r->round.dname, strerror(errno), r->dir);
			keep = true;	/* with its marker */
		}
		r->round.in_round = false;
	}
	if (backend_close(&r->be, keep, errbuf) == -1) {
		r->left = true;
		if (errno == EXDEV)	/* moved: it says where it went */
			warnx("%s", errbuf);
		else
			warnx("%s; run 'largedir --cleanup %s'", errbuf,
			    r->dir);
	}
	if (r->target_up) {
		r->target_up = false;
		if (target_teardown(&r->target, errbuf) == -1) {
			r->left = true;
			warnx("%s; run 'largedir --cleanup'", errbuf);
		}
	}
	if (r->outfd != -1 && r->doc.status == OUTPUT_RUNNING) {
		/* Leaving through err(3): say so in the outputs. */
		r->doc.status = OUTPUT_FAILED;
		if (r->doc.stop_reason == NULL)
			r->doc.stop_reason = xstrdup("largedir failed; see "
			    "its error message");
		if (output_flush(r->outfd, r->label, &r->doc, r->outids,
		    errbuf) == -1)
			warnx("%s", errbuf);
	}
	(void)fflush(stdout);
}
