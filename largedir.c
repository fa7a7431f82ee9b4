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
 * This is the only file that prints diagnostics or exits.
 */

#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <dirent.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "backend.h"
#include "cache.h"
#include "config.h"
#include "memcg.h"
#include "names.h"
#include "output.h"
#include "page.h"
#include "perf.h"
#include "probe.h"
#include "stats.h"
#include "results.h"
#include "target.h"
#include "timing.h"
#include "util.h"
#include "workdir.h"
#include "workload.h"

#define EXIT_USAGE	2	/* bad option, bad directory */
#define EXIT_STOPPED	3	/* the filesystem stopped the run */
#define EXIT_TARGET	4	/* the target cannot be set up here */
#define EXIT_SUITE	5	/* a suite target did not complete */
#define SUITE_MAX	64	/* targets in one suite */

#define PROGRESS_MS	250	/* progress line refresh */
#define TIMEBOX_FACTOR	3	/* the last round may make 3x the predicted n */
#define SWING_FACTOR	2.0	/* a rate this far off both neighbours */
#define OUTLIER_Z	3.5	/* modified z-score of a noisy repetition */
#define KNEE_FRACTION	0.5	/* a knee: below half the plateau, for good */

/* Per-phase output columns: suffix and decimals (-1: integer). */
static const struct {
	const char	*suffix;
	int		 prec;
} phase_cols[] = {
	{ "ns", -1 }, { "per_s", 1 }, { "ops", -1 }, { "user_ns", -1 },
	{ "sys_ns", -1 }, { "vcsw", -1 }, { "ivcsw", -1 }, { "inblock", -1 },
	{ "oublock", -1 }, { "p50_ns", -1 }, { "p90_ns", -1 },
	{ "p99_ns", -1 }, { "p999_ns", -1 }, { "max_ns", -1 },
	/* The caches at the start of the phase, machine-wide (cache.c). */
	{ "dentries", -1 }, { "dentries_unused", -1 }, { "inodes", -1 },
	{ "dentry_objs", -1 }, { "inode_objs", -1 }, { "mem_avail_kib", -1 },
	/* The target's block device during the phase. */
	{ "sectors_read", -1 }, { "sectors_written", -1 },
	/* --cold before the phase; --memory-limit: the cgroup's peak. */
	{ "cold_ns", -1 }, { "memcg_peak_kib", -1 },
};
#define NPHASE_COLS	(sizeof(phase_cols) / sizeof(phase_cols[0]))
#define NCELLS		(NPHASE_COLS + 2 * PERF_MAX_EVENTS)	/* + events */
#define C_COLD		22	/* cold_ns in phase_cols[] */
#define C_PEAK		23	/* memcg_peak_kib */
#define C_PERF		24	/* the first event */
_Static_assert(C_PERF == NPHASE_COLS, "C_COLD, C_PEAK, C_PERF");

/* What one phase gave, measured in largedir or in a limited child. */
struct phase_out {
	int		done_ok;	/* the child got to the end */
	int		err;		/* errno if the phase failed, else 0 */
	char		what[128];	/* what it was doing then */
	uint64_t	done, foreign, deleted;
	double		rate;
	double		cells[NCELLS];
};

/* Everything a run holds, global so the atexit handler can tidy up. */
static struct {
	struct config		 cfg;
	const char		*conf_path;	/* -c FILE, or NULL */
	struct target_conf	 tconf;		/* what FILE says */
	struct target		 target;	/* set up from it */
	bool			 target_up;	/* needs a teardown */
	const char		*dir;		/* the directory under test */
	uint64_t		 t0_ns;		/* monotonic start of the run */
	char			 stamp[32];	/* UTC start, ISO 8601 */
	struct workdir		 wd;
	struct backend		 be;
	struct names		 names;
	uint32_t		*order;
	struct workload		 w;
	bool			 in_round;	/* a round directory exists */
	char			 dname[64];	/* its name */
	struct output_doc	 doc;
	int			 outfd;		/* the run directory */
	struct output_id	 outids[OUTPUT_NWRITERS]; /* files we wrote */
	char			*outdir;
	char			*label;
	size_t			 col0[PHASE_COUNT];	/* first column */
	bool			 tty;		/* progress on stderr */
	bool			 shown;		/* a progress line is up */
	bool			 warned_noise, warned_load;
	/* for the progress line */
	unsigned		 round;
	uint64_t		 n, phase_t0_ns, round_t0_ns;
	double			 round_pred_ns;
	/* where cache_read() looks: the target's device, its inode cache */
	unsigned		 dev_major, dev_minor;
	const char		*inode_slab;
	/* the last round is time-boxed (see run_rounds) */
	bool			 timebox;
	double			 create_share;	/* of the last repetition */
	/* rates of the finished rounds, for the swing check */
	double			*rates[PHASE_COUNT];
	size_t			 nrates;
	pid_t			 pid;		/* largedir, not a child */
	struct memcg		 memcg;		/* --memory-limit */
	struct phase_out	*shared;	/* a limited child's results */
	struct perf		 perf;		/* --events */
} run = { .outfd = -1 };

static volatile sig_atomic_t	poll_flag;	/* something to look at */
static volatile sig_atomic_t	signo_first;	/* first SIGINT/SIGTERM */
static volatile sig_atomic_t	nsignals;
static volatile sig_atomic_t	tick;		/* progress timer */
static volatile sig_atomic_t	child;		/* the pid of a limited phase */

static void	usage(void) __attribute__((noreturn));
static void	build_options(struct option *, char *);
static const char *option_name(int);
static void	parse_args(int, char **, bool *);
static void	suite_mode(int, char **) __attribute__((noreturn));
static const char *suite_status(int, char *, size_t);
static int	adopt_graphs(int, const char *, const char *);
static int	run_gnuplot(const char *, const char *, const char *,
		    const char *, const char *);
static int	plot_results(const char *, bool);
static void	cleanup_mode(const char *);
static void	report_sweep(void *, const struct workdir_report *);
static void	report_memcg(void *, const struct memcg_report *);
static void	check_dir(const char *);
static void	setup_target(void);
static void	report_target(void *, const struct target_report *);
static void	setup_outputs(int, char **);
static void	setup_columns(void);
static void	on_signal(int);
static void	on_alarm(int);
static void	setup_signals(void);
static void	arm_timer(void);
static void	setup_cold(void);
static void	setup_events(void);
static int	cold_step(enum phase, uint64_t, uint64_t *);
static int	measure_phase(enum phase, unsigned, unsigned, uint64_t,
		    struct phase_out *);
static int	run_limited(enum phase, unsigned, unsigned, uint64_t,
		    struct phase_out *);
static bool	on_poll(void *, enum phase, uint64_t);
static void	progress_clear(void);
static int	run_rounds(void);
static int	run_round(unsigned, uint64_t, bool);
static int	run_rep(unsigned, unsigned, uint64_t, bool, double *);
static uint64_t	timebox_deadline(uint64_t);
static double	cache_value(int64_t);
static int	stop_errno(int, const char *, uint64_t, const char *);
static void	check_load(unsigned, double);
static void	report_knees(void);
static void	sort_points(double *, double *, size_t);
static void	check_noise(unsigned, uint64_t, const double *, unsigned);
static void	print_round(unsigned, uint64_t, bool, const double *,
		    const double *, const double *, unsigned, uint64_t);
static void	flush_outputs(void);
static void	tidy(void);
static char	*quote_argv(int, char **);

int
main(int argc, char *argv[])
{
	struct backend_opts	 bo;
	struct probe_mount	 pm;
	struct stat		 st;
	char			 errbuf[LD_ERRLEN], tmp[32];
	bool			 cleanup = false;
	int			 status, e;

	(void)setlocale(LC_NUMERIC, "C");
	run.t0_ns = timing_now();
	run.pid = getpid();
	config_init(&run.cfg);
	if (argc > 1 && strcmp(argv[1], "suite") == 0)
		suite_mode(argc - 1, argv + 1);	/* does not return */
	if (argc > 1 && strcmp(argv[1], "plot") == 0) {
		if (argc != 3)
			errx(EXIT_USAGE, "usage: largedir plot RESULTS");
		check_dir(argv[2]);
		exit(plot_results(argv[2], true));
	}
	if (argc > 1 && strcmp(argv[1], "page") == 0) {
		if (argc != 3)
			errx(EXIT_USAGE, "usage: largedir page RESULTS");
		check_dir(argv[2]);
		if (page_write(argv[2], errbuf) == -1)
			errx(1, "%s", errbuf);
		printf("page: %s/index.html and index.de.html\n", argv[2]);
		if (fflush(stdout) == EOF)
			err(1, "stdout");
		exit(0);
	}
	parse_args(argc, argv, &cleanup);
	if (cleanup)
		cleanup_mode(run.dir);		/* does not return */
	if (config_check(&run.cfg, errbuf) == -1)
		errx(EXIT_USAGE, "%s", errbuf);
	if (!run.cfg.seed_set &&
	    getrandom(&run.cfg.seed, sizeof(run.cfg.seed), 0) !=
	    sizeof(run.cfg.seed))
		err(1, "getrandom");
	if (run.conf_path != NULL) {
		setup_signals();	/* mkfs may take a while */
		setup_target();
		/* The budget is for measuring: it starts after mkfs. */
		run.t0_ns = timing_now();
	}
	check_dir(run.dir);
	setup_cold();

	/*
	 * The label: --label, else the config's, else the filesystem type,
	 * which names it best.
	 */
	memset(&pm, 0, sizeof(pm));
	if (run.cfg.label != NULL)
		run.label = xstrdup(run.cfg.label);
	else if (run.tconf.label != NULL)
		run.label = xstrdup(run.tconf.label);
	else if (probe_mount(run.dir, &pm) == 0) {
		run.label = xstrdup(pm.fstype);
		for (char *p = run.label; *p != '\0'; p++)
			if (strchr("abcdefghijklmnopqrstuvwxyz"
			    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-", *p) ==
			    NULL || (p == run.label && *p == '.'))
				*p = '_';
	} else
		run.label = xstrdup("largedir");
	probe_mount_free(&pm);
	setup_events();
	setup_outputs(argc, argv);

	flush_outputs();
	setup_signals();	/* before anything exists that needs removing */
	if (workdir_create(&run.wd, run.dir, run.cfg.names, run.cfg.name_len,
	    run.stamp, errbuf) == -1) {
		/* The filesystem refused before the first round: say so. */
		e = errno;
		status = e == EACCES || e == EROFS || e == ENOSPC ||
		    e == EDQUOT || e == EPERM ? EXIT_STOPPED : 1;
		run.doc.status = status == EXIT_STOPPED ? OUTPUT_STOPPED :
		    OUTPUT_FAILED;
		run.doc.stop_reason = xstrdup(errbuf);
		run.doc.stop_errno = e;
		flush_outputs();
		errx(status, "%s", errbuf);
	}
	if (!run.target_up && atexit(tidy) != 0)	/* else done already */
		err(1, "atexit");
	if (run.cfg.memory_limit != 0) {
		if (memcg_create(&run.memcg, "/", run.cfg.memory_limit,
		    errbuf) == -1)
			errx(EXIT_TARGET, "--memory-limit: %s", errbuf);
		output_kv_set(&run.doc.meta, "memcg", "%s (cgroup v%d)",
		    run.memcg.dir, (int)run.memcg.version);
	}
	if (stat(run.dir, &st) == 0) {
		run.dev_major = major(st.st_dev);
		run.dev_minor = minor(st.st_dev);
	}
	run.inode_slab = cache_inode_slab(output_kv_get(&run.doc.meta,
	    "driver") != NULL ? output_kv_get(&run.doc.meta, "driver") : "");
	output_kv_set(&run.doc.meta, "work_dir", "%s", run.wd.path);
	bo.file_size = run.cfg.file_size;
	bo.fsync = run.cfg.fsync;
	(void)posix_open(&run.be, run.wd.fd, &bo);
	run.w.be = &run.be;
	run.w.names = &run.names;
	run.w.poll = &poll_flag;
	run.w.on_poll = on_poll;
	flush_outputs();

	if (!run.cfg.quiet) {
		const char	*fs, *drv;

		/* Say when another driver serves it (ext2 by ext4). */
		if ((fs = output_kv_get(&run.doc.meta, "fstype")) == NULL)
			fs = "?";
		drv = output_kv_get(&run.doc.meta, "driver");
		util_fmt_duration(tmp, sizeof(tmp), run.cfg.budget_ns);
		printf("largedir %s: %s%s%s%s at %s, work directory %s\n",
		    LD_VERSION, fs, drv != NULL && strcmp(drv, fs) != 0 ?
		    " (served by the " : "", drv != NULL && strcmp(drv, fs) !=
		    0 ? drv : "", drv != NULL && strcmp(drv, fs) != 0 ?
		    " driver)" : "", run.dir, run.wd.path);
		printf("seed %" PRIu64 ", budget %s (%s), growth %g, phases "
		    "%s\n", run.cfg.seed, tmp, output_kv_get(&run.doc.config,
		    "budget-policy"), run.cfg.growth,
		    output_kv_get(&run.doc.config, "phases"));
		if (run.cfg.cold != CONFIG_COLD_NONE)
			printf("cold caches: %s before each phase after "
			    "create, untimed\n", run.cfg.cold ==
			    CONFIG_COLD_DROP ? "syncfs and drop_caches" :
			    "unmount and mount");
		if (run.memcg.dir != NULL) {
			printf("memory limit: %g MiB for the phases that "
			    "read the directory, in %s\n",
			    run.cfg.memory_limit / 1048576.0, run.memcg.dir);
		}
		(void)fflush(stdout);
	}

	/* Said once the run is under way, not before an error. */
	if (*perf_unavailable(&run.perf) != '\0' && !run.cfg.quiet)
		warnx("warning: events not counted: %s",
		    perf_unavailable(&run.perf));
	status = run_rounds();

	if (run.doc.status == OUTPUT_RUNNING)
		run.doc.status = OUTPUT_COMPLETE;
	report_knees();
	flush_outputs();
	tidy();
	if (!run.cfg.quiet)
		printf("results: %s/%s.out (.csv, .json)\n", run.outdir,
		    run.label);
	if (fflush(stdout) == EOF || ferror(stdout)) {
		/* A reader that went away (largedir | head) is no error. */
		if (errno == EPIPE || signo_first == SIGPIPE)
			return status != 0 ? status : 128 + SIGPIPE;
		err(1, "stdout");
	}
	return status;
}

/* ===== Options ===== */

/*
 * -h: the synopsis (as in the man page) and one line per option, on
 * stdout.  Usage errors get one line on stderr instead (see parse_args).
 */
static void
usage(void)
{
	const struct config_opt	*o;
	char			 left[64];
	FILE			*fp = stdout;

	(void)fprintf(fp,
	    "usage: largedir [-hqV] [-b duration] [-g factor] [-l label] "
	    "[-N count]\n"
	    "                [-n count] [-o path] [-p phases] [-r count] "
	    "[-s seed]\n"
	    "                [--budget-policy predict|classic] "
	    "[--file-size size]\n"
	    "                [--fsync none|file|dir|both] "
	    "[--name-len length]\n"
	    "                [--names fixed|maildir] [--scratch dir]\n"
	    "                [--sync none|phase|round] [--warmup count] "
	    "dir\n"
	    "       largedir -c file [options]\n"
	    "       largedir suite [options] [--total-budget duration] "
	    "file ...\n"
	    "       largedir plot results\n"
	    "       largedir page results\n"
	    "       largedir --cleanup [--scratch dir] [dir]\n");
	(void)fprintf(fp, "\n");
	for (o = config_opts; o->name != NULL; o++) {
		if (o->letter != 0)
			(void)snprintf(left, sizeof(left), "-%c, --%s%s%s",
			    o->letter, o->name, o->arg != NULL ? " " : "",
			    o->arg != NULL ? o->arg : "");
		else
			(void)snprintf(left, sizeof(left), "    --%s%s%s",
			    o->name, o->arg != NULL ? " " : "",
			    o->arg != NULL ? o->arg : "");
		(void)fprintf(fp, "  %-35s %s\n", left, o->help);
	}
	(void)fprintf(fp, "  %-35s %s\n  %-35s %s\n  %-35s %s\n",
	    "    --cleanup [dir]", "remove what killed runs left behind",
	    "-h, --help", "print this help", "-V, --version",
	    "print the version");
	if (fflush(fp) == EOF)
		err(1, "stdout");
	exit(0);
}

/*
 * Fill 'longopts' (64 entries) and 'optstring' (64 bytes) for getopt_long
 * from config_opts, so getopt and config_set never differ, plus --cleanup,
 * --help, --version and, for suites, --total-budget.  An option without a
 * letter gets the value 256 + its index in config_opts.
 */
static void
build_options(struct option *longopts, char *optstring)
{
	size_t	i, nl = 0, ns = 0;

	optstring[ns++] = ':';
	for (i = 0; config_opts[i].name != NULL; i++) {
		longopts[nl].name = config_opts[i].name;
		longopts[nl].has_arg = config_opts[i].arg != NULL ?
		    required_argument : no_argument;
		longopts[nl].flag = NULL;
		longopts[nl].val = config_opts[i].letter != 0 ?
		    config_opts[i].letter : 256 + (int)i;
		nl++;
		if (config_opts[i].letter != 0) {
			optstring[ns++] = (char)config_opts[i].letter;
			if (config_opts[i].arg != NULL)
				optstring[ns++] = ':';
		}
	}
	longopts[nl++] = (struct option){ "cleanup", no_argument, NULL, 'C' };
	longopts[nl++] = (struct option){ "help", no_argument, NULL, 'h' };
	longopts[nl++] = (struct option){ "version", no_argument, NULL, 'V' };
	longopts[nl++] = (struct option){ "total-budget", required_argument,
	    NULL, 'T' };
	longopts[nl] = (struct option){ NULL, 0, NULL, 0 };
	(void)strcpy(optstring + ns, "hV");
}

/* The long name of the config option getopt returned as 'ch', or NULL. */
static const char *
option_name(int ch)
{
	size_t	i;

	for (i = 0; config_opts[i].name != NULL; i++)
		if (ch == config_opts[i].letter || ch == 256 + (int)i)
			return config_opts[i].name;
	return NULL;
}

/*
 * Read the command line into run.cfg and run.dir.  Every value goes
 * through config_set(), which names the culprit when it refuses one.
 */
static void
parse_args(int argc, char **argv, bool *cleanup)
{
	struct option	 longopts[64];
	char		 optstring[64], errbuf[LD_ERRLEN];
	const char	*name;
	int		 ch, idx;

	build_options(longopts, optstring);
	/*
	 * First pass: only -c, so that its file is read before the rest of
	 * the command line, which wins over it.
	 */
	opterr = 0;
	while ((ch = getopt_long(argc, argv, optstring, longopts, &idx)) !=
	    -1)
		if (ch == 'c')
			run.conf_path = optarg;
	if (run.conf_path != NULL && config_load(&run.cfg, &run.tconf,
	    run.conf_path, errbuf) == -1)
		errx(EXIT_USAGE, "%s", errbuf);

	optind = 0;		/* GNU getopt: start again */
	while ((ch = getopt_long(argc, argv, optstring, longopts, &idx)) !=
	    -1) {
		switch (ch) {
		case 'c':
			continue;
		case 'C':
			*cleanup = true;
			continue;
		case 'T':
			errx(EXIT_USAGE, "--total-budget goes with 'largedir "
			    "suite'");
		case 'h':
			usage();
		case 'V':
			printf("largedir %s (%s)\n", LD_VERSION, LD_GIT);
			exit(0);
		case ':':
			errx(EXIT_USAGE, "option %s needs a value",
			    argv[optind - 1]);
		case '?':
			if (optopt != 0)
				errx(EXIT_USAGE, "unknown option '-%c' (see "
				    "largedir -h)", optopt);
			errx(EXIT_USAGE, "unknown option '%s' (see largedir -h)",
			    argv[optind - 1]);
		default:
			break;
		}
		if ((name = option_name(ch)) == NULL)
			errx(EXIT_USAGE, "unknown option (see largedir -h)");
		if (config_set(&run.cfg, name, optarg, errbuf) == -1)
			errx(EXIT_USAGE, "%s", errbuf);
	}
	argc -= optind;
	argv += optind;
	if (argc > 1)
		errx(EXIT_USAGE, "one directory only, got '%s' too", argv[1]);
	if (argc == 1 && run.conf_path != NULL && !*cleanup)
		errx(EXIT_USAGE, "%s names the target already: drop '%s'",
		    run.conf_path, argv[0]);
	if (argc == 0 && run.conf_path == NULL && !*cleanup)
		errx(EXIT_USAGE, "missing the directory to measure, or -c "
		    "FILE (see largedir -h)");
	run.dir = argc == 1 ? argv[0] : NULL;
}

/* The directory under test must exist and be a directory. */
static void
check_dir(const char *dir)
{
	struct stat	st;

	if (stat(dir, &st) == -1)
		errx(EXIT_USAGE, "%s: %s", dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		errx(EXIT_USAGE, "%s: not a directory", dir);
}

/* ===== largedir --cleanup ===== */

static void
report_sweep(void *arg, const struct workdir_report *r)
{
	(void)arg;
	if (r->why != NULL)
		printf("kept %s: %s\n", r->path, r->why);
	else if (r->removed)
		printf("removed %s (%" PRIu64 " files)\n", r->path, r->files);
	else
		printf("kept %s: %" PRIu64 " files removed, %" PRIu64
		    " %s not made by largedir left in place\n", r->path,
		    r->files, r->kept, r->kept == 1 ? "entry" : "entries");
}

static void
report_memcg(void *arg, const struct memcg_report *r)
{
	(void)arg;
	if (r->why != NULL)
		printf("kept memory cgroup %s: %s\n", r->path, r->why);
	else
		printf("%s memory cgroup %s\n", r->removed ? "removed" :
		    "kept", r->path);
}

static void
report_target(void *arg, const struct target_report *r)
{
	(void)arg;
	if (r->why != NULL)
		printf("kept %s: %s\n", r->path, r->why);
	else
		printf("%s %s%s%s%s%s\n", r->removed ? "removed" : "kept",
		    r->path, r->unmounted ? " (unmounted)" : "",
		    r->loopdev != NULL ? " (detached " : "",
		    r->loopdev != NULL ? r->loopdev : "",
		    r->loopdev != NULL ? ")" : "");
}

/*
 * largedir --cleanup [dir]: what killed runs left in the scratch
 * directory (mounts, loop devices, images), and the work directories in
 * 'dir' if given.
 */
static void
cleanup_mode(const char *dir)
{
	const char	*scratch = run.cfg.scratch != NULL ? run.cfg.scratch :
			    TARGET_SCRATCH;
	char		 errbuf[LD_ERRLEN];
	int		 found;

	if ((found = target_sweep(scratch, report_target, NULL, errbuf)) ==
	    -1)
		errx(1, "%s", errbuf);
	if (found == 0 && dir == NULL)
		printf("no largedir targets in %s\n", scratch);
	/* The memory cgroups of --memory-limit runs that were killed. */
	if (geteuid() == 0 && memcg_sweep("/", report_memcg, NULL, errbuf) ==
	    -1)
		warnx("%s", errbuf);
	if (dir != NULL) {
		check_dir(dir);
		if ((found = workdir_sweep(dir, report_sweep, NULL, errbuf)) ==
		    -1)
			errx(1, "%s", errbuf);
		if (found == 0)
			printf("no largedir work directories in %s\n", dir);
	}
	if (fflush(stdout) == EOF)
		err(1, "stdout");
	exit(0);
}

/*
 * -c FILE: set up the target the file describes (or take its path), so
 * that run.dir is where the rounds go.  Exits EXIT_TARGET with one line
 * when this machine cannot: no root for loop devices and mkfs, or a
 * kernel without the filesystem.
 */
static void
setup_target(void)
{
	const struct target_conf	*tc = &run.tconf;
	char				 errbuf[LD_ERRLEN], line[256];
	const char			*scratch;
	FILE				*fp;
	bool				 known = false;

	if (tc->path != NULL) {
		run.dir = tc->path;
		return;
	}
	if ((fp = fopen("/proc/filesystems", "re")) != NULL) {
		while (!known && fgets(line, sizeof(line), fp) != NULL) {
			line[strcspn(line, "\n")] = '\0';
			known = strcmp(strrchr(line, '\t') != NULL ?
			    strrchr(line, '\t') + 1 : line, tc->fstype) == 0;
		}
		(void)fclose(fp);
		if (!known)
			errx(EXIT_TARGET, "%s: this kernel cannot mount %s "
			    "(not in /proc/filesystems%s); to measure an "
			    "existing mount, give its directory as 'path ='",
			    run.conf_path, tc->fstype, strcmp(tc->fstype,
			    "reiserfs") == 0 ? ": removed in Linux 6.13" : "");
	}
	if (geteuid() != 0)
		errx(EXIT_TARGET, "%s: setting up %s needs root (loop device, "
		    "mkfs, mount); run as root, or measure an existing "
		    "directory with 'largedir DIR'", run.conf_path, tc->fstype);
	scratch = run.cfg.scratch != NULL ? run.cfg.scratch : TARGET_SCRATCH;
	if (target_setup(&run.target, tc, scratch, errbuf) == -1)
		errx(EXIT_TARGET, "%s: %s", run.conf_path, errbuf);
	run.target_up = true;
	if (atexit(tidy) != 0)
		err(1, "atexit");
	if (nsignals > 0)
		exit(128 + signo_first);	/* tidy() tears it down */
	run.dir = run.target.mnt;
}

/*
 * --cold and --memory-limit: check that this run can empty the caches
 * the way asked, before anything is measured.  --memory-limit alone
 * remounts where it can and drops the caches elsewhere: without either,
 * the dentries create left behind would be cached outside the limit.
 */
static void
setup_cold(void)
{
	const char	*why;
	bool		 can;

	if (run.cfg.cold == CONFIG_COLD_NONE && run.cfg.memory_limit == 0)
		return;
	/* Without -c, run.target is all zeros: not mounted by us. */
	can = target_can_remount(&run.target, &why);
	if (run.cfg.memory_limit != 0 && !run.cfg.cold_set)
		run.cfg.cold = can ? CONFIG_COLD_REMOUNT : CONFIG_COLD_DROP;
	if (run.cfg.cold == CONFIG_COLD_REMOUNT && !can)
		errx(EXIT_USAGE, "--cold=remount: %s; --cold=drop works on any "
		    "filesystem", why);
	if (geteuid() != 0)
		errx(EXIT_TARGET, "%s needs root (%s); run as root, or without "
		    "it", run.cfg.memory_limit != 0 ? "--memory-limit" :
		    run.cfg.cold == CONFIG_COLD_DROP ? "--cold=drop" :
		    "--cold=remount", run.cfg.memory_limit != 0 ? "a memory "
		    "cgroup" : run.cfg.cold == CONFIG_COLD_DROP ?
		    "/proc/sys/vm/drop_caches" : "umount and mount");
}

/*
 * --events: open the counters before the columns are laid out, since
 * only the events the kernel accepts get columns.  main() says once which
 * it refused.
 */
static void
setup_events(void)
{
	char	errbuf[LD_ERRLEN];

	if (perf_init(&run.perf, run.cfg.events != NULL ? run.cfg.events :
	    PERF_DEFAULT, errbuf) == -1)
		errx(EXIT_USAGE, "%s", errbuf);
	(void)perf_open(&run.perf);
}

/* ===== largedir plot ===== */

/*
 * Run "gnuplot -e ld_outsub='SUB' -c DIR/SCRIPT ARG1 [ARG2]" and wait for
 * it.  Return its exit status, 127 if gnuplot cannot be run.
 */
static int
run_gnuplot(const char *dir, const char *sub, const char *script,
    const char *arg1, const char *arg2)
{
	char	*path, *outsub, *args[8];
	pid_t	 pid;
	int	 ws, n = 0;

	path = xasprintf("%s/%s", dir, script);
	outsub = xasprintf("ld_outsub='%s'", sub);	/* mkdtemp's letters */
	args[n++] = (char *)"gnuplot";
	args[n++] = (char *)"-e";
	args[n++] = outsub;
	args[n++] = (char *)"-c";
	args[n++] = path;
	args[n++] = (char *)arg1;
	if (arg2 != NULL)
		args[n++] = (char *)arg2;
	args[n] = NULL;
	(void)fflush(stdout);
	if ((pid = fork()) == -1)
		err(1, "fork");
	if (pid == 0) {
		(void)execvp("gnuplot", args);
		_exit(127);
	}
	while (waitpid(pid, &ws, 0) == -1)
		if (errno != EINTR)
			err(1, "waitpid");
	free(path);
	free(outsub);
	return WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
}

/*
 * Move every graph gnuplot drew into the private directory 'priv' of
 * 'results' into 'results' itself (output_adopt(): a link or a foreign
 * file under a graph's name is left alone and reported), then remove
 * 'priv'.  Return 0, or 1 if a graph could not be moved.
 */
static int
adopt_graphs(int resfd, const char *results, const char *priv)
{
	struct dirent	*d;
	DIR		*dp;
	char		 errbuf[LD_ERRLEN];
	int		 pfd, bad = 0;

	if ((pfd = openat(resfd, priv, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC)) == -1 || (dp = fdopendir(pfd)) == NULL) {
		warn("%s/%s", results, priv);
		if (pfd != -1)
			(void)close(pfd);
		return 1;
	}
	while ((d = readdir(dp)) != NULL) {
		if (strcmp(d->d_name, ".") == 0 || strcmp(d->d_name, "..") == 0)
			continue;
		if (output_adopt(pfd, d->d_name, resfd, errbuf) == -1) {
			warnx("%s: %s", results, errbuf);
			(void)unlinkat(pfd, d->d_name, 0);
			bad = 1;
		}
	}
	(void)closedir(dp);
	if (unlinkat(resfd, priv, AT_REMOVEDIR) == -1) {
		warn("rmdir %s/%s", results, priv);
		bad = 1;
	}
	return bad;
}

/*
 * largedir plot RESULTS (and the end of a suite): the comparison graphs of
 * every target in 'results' and one graph per target, drawn by the
 * gnuplot scripts in plot/ ($LARGEDIR_PLOT, else the installed copy, else
 * the source tree's next to the binary).  With 'loud', a missing gnuplot
 * is an error; a suite only mentions it.  Return the exit status.
 */
static int
plot_results(const char *results, bool loud)
{
	struct dirent	*d;
	DIR		*dp;
	const char	*env = getenv("LARGEDIR_PLOT");
	char		 self[PATH_MAX], *dir = NULL, *label, *p, *priv;
	const char	*sub;
	ssize_t		 len;
	int		 rc, resfd, bad = 0;

	if (env != NULL && *env != '\0')
		dir = xstrdup(env);
	else if (access(LD_DATADIR "/plot/rates.gp", R_OK) == 0)
		dir = xstrdup(LD_DATADIR "/plot");
	else if ((len = readlink("/proc/self/exe", self, sizeof(self) - 1)) >
	    0) {
		self[len] = '\0';
		if ((p = strrchr(self, '/')) != NULL)
			*p = '\0';
		dir = xasprintf("%s/../plot", self);
	}
	if (dir == NULL || access(dir, R_OK) == -1) {
		warnx("no gnuplot scripts found (set LARGEDIR_PLOT to the "
		    "plot/ directory)");
		free(dir);
		return 1;
	}
	/*
	 * gnuplot follows links where it writes, so it draws into a
	 * directory of our own, and the graphs are moved in from there.
	 */
	priv = xasprintf("%s/.plot.XXXXXX", results);
	if (mkdtemp(priv) == NULL)
		err(1, "mkdir %s", priv);
	sub = strrchr(priv, '/') + 1;
	if ((resfd = open(results, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1)
		err(1, "%s", results);
	if ((rc = run_gnuplot(dir, sub, "rates.gp", results, NULL)) == 127) {
		if (loud)
			warnx("gnuplot is missing: apt-get install gnuplot-nox");
		else
			printf("no graphs: gnuplot is missing (apt-get install "
			    "gnuplot-nox)\n");
		(void)adopt_graphs(resfd, results, sub);
		(void)close(resfd);
		free(priv);
		free(dir);
		return 1;
	}
	bad |= rc != 0;
	if ((dp = opendir(results)) == NULL)
		err(1, "%s", results);
	while ((d = readdir(dp)) != NULL) {
		len = (ssize_t)strlen(d->d_name);
		if (len <= 4 || strcmp(d->d_name + len - 4, ".out") != 0 ||
		    d->d_name[0] == '.')
			continue;
		label = xasprintf("%.*s", (int)len - 4, d->d_name);
		bad |= run_gnuplot(dir, sub, "target.gp", results, label) != 0;
		free(label);
	}
	(void)closedir(dp);
	bad |= adopt_graphs(resfd, results, sub);
	(void)close(resfd);
	free(priv);
	free(dir);
	if (bad)
		warnx("gnuplot failed on %s", results);
	else
		printf("graphs: %s%s*.png (and .svg)\n", results,
		    results[strlen(results) - 1] == '/' ? "" : "/");
	return bad ? 1 : 0;
}

/* ===== largedir suite ===== */

/* What the exit status 'ws' of a target's largedir says, for the table. */
static const char *
suite_status(int ws, char *buf, size_t len)
{
	if (WIFSIGNALED(ws)) {
		(void)snprintf(buf, len, "killed by SIG%s",
		    sigabbrev_np(WTERMSIG(ws)));
		return buf;
	}
	switch (WEXITSTATUS(ws)) {
	case 0:
		return "complete";
	case EXIT_STOPPED:
		return "stopped by the fs";
	case EXIT_TARGET:
		return "not set up";
	case 128 + SIGINT:
	case 128 + SIGTERM:
		return "interrupted";
	default:
		(void)snprintf(buf, len, "failed (exit %d)", WEXITSTATUS(ws));
		return buf;
	}
}

/*
 * largedir suite [options] CONFIG...: the same workload on each target in
 * turn, every one in a largedir process of its own (its own setup,
 * teardown, exit status and outputs, all in one run directory), then one
 * summary line per target.  --total-budget splits a budget evenly.  A
 * target that fails is reported and the suite goes on.  Exits 0 when every
 * target completed, EXIT_SUITE when one did not, 128 + signal when
 * interrupted (the target running then is stopped and cleaned up by its
 * own largedir, which gets the signal too).
 */
static void
suite_mode(int argc, char **argv)
{
	struct option		 longopts[64];
	struct target_conf	 tc;
	struct config		 check;
	const char		*out = NULL, *name, *labels[SUITE_MAX];
	char			 optstring[64], errbuf[LD_ERRLEN];
	char			 dstamp[32], st[32], cnt[32], rate[32];
	char			*args[256], *pass[128], *budget = NULL;
	struct results_target	 rt;
	double			 vals[PHASE_COUNT], n, at;
	uint64_t		 total_ns = 0;
	time_t			 now;
	pid_t			 pid;
	int			 ch, idx, i, j, na, np = 0, nconf, ws[SUITE_MAX];
	int			 bad = 0, outfd;

	build_options(longopts, optstring);
	opterr = 0;
	while ((ch = getopt_long(argc, argv, optstring, longopts, &idx)) !=
	    -1) {
		switch (ch) {
		case 'c':
		case 'l':
			errx(EXIT_USAGE, "suite: %s: each config names its "
			    "own target and label", argv[optind - 1]);
		case 'C':
			errx(EXIT_USAGE, "suite: --cleanup goes alone");
		case 'h':
			usage();
		case 'V':
			printf("largedir %s (%s)\n", LD_VERSION, LD_GIT);
			exit(0);
		case 'o':
			out = optarg;
			continue;
		case 'T':
			if (parse_duration(optarg, 366ULL * 86400 * NS_PER_S,
			    &total_ns, &name) == -1)
				errx(EXIT_USAGE, "--total-budget '%s': not a "
				    "duration (e.g. 30m, 2h)", optarg);
			continue;
		case ':':
			errx(EXIT_USAGE, "option %s needs a value",
			    argv[optind - 1]);
		case '?':
			errx(EXIT_USAGE, "unknown option '%s' (see largedir "
			    "-h)", argv[optind - 1]);
		default:
			break;
		}
		/* Checked here once, passed on to every target. */
		if ((name = option_name(ch)) == NULL ||
		    config_set(&run.cfg, name, optarg, errbuf) == -1)
			errx(EXIT_USAGE, "%s", name == NULL ? "unknown option" :
			    errbuf);
		if (np + 1 >= (int)(sizeof(pass) / sizeof(pass[0])))
			errx(EXIT_USAGE, "suite: too many options");
		pass[np++] = optarg != NULL ? xasprintf("--%s=%s", name,
		    optarg) : xasprintf("--%s", name);
	}
	if (config_check(&run.cfg, errbuf) == -1)
		errx(EXIT_USAGE, "%s", errbuf);
	nconf = argc - optind;
	if (nconf == 0)
		errx(EXIT_USAGE, "suite: name at least one config (see "
		    "configs/)");
	if (nconf > SUITE_MAX)
		errx(EXIT_USAGE, "suite: at most %d configs", SUITE_MAX);
	/* Every config is read before anything runs: one typo, no suite. */
	for (i = 0; i < nconf; i++) {
		config_init(&check);
		target_conf_init(&tc);
		if (config_load(&check, &tc, argv[optind + i], errbuf) == -1)
			errx(EXIT_USAGE, "%s", errbuf);
		labels[i] = xstrdup(tc.label != NULL ? tc.label :
		    tc.fstype != NULL ? tc.fstype : "largedir");
		for (j = 0; j < i; j++)
			if (strcmp(labels[i], labels[j]) == 0)
				errx(EXIT_USAGE, "suite: %s and %s have the "
				    "same label '%s'", argv[optind + j],
				    argv[optind + i], labels[i]);
		target_conf_free(&tc);
		config_free(&check);
	}
	if (out == NULL) {
		now = time(NULL);
		(void)strftime(dstamp, sizeof(dstamp), "%Y%m%dT%H%M%SZ",
		    gmtime(&now));
		out = xasprintf("results/%s-suite", dstamp);
	}
	if (total_ns != 0)
		budget = xasprintf("--budget=%" PRIu64 "ns", total_ns /
		    (uint64_t)nconf);
	setup_signals();

	for (i = 0; i < nconf; i++)
		ws[i] = -1;
	for (i = 0; i < nconf && nsignals == 0; i++) {
		printf("suite: target %d of %d: %s (%s)\n", i + 1, nconf,
		    labels[i], argv[optind + i]);
		(void)fflush(stdout);
		na = 0;
		args[na++] = (char *)"largedir";
		args[na++] = (char *)"-c";
		args[na++] = argv[optind + i];
		args[na++] = (char *)"-o";
		args[na++] = (char *)out;
		for (j = 0; j < np; j++)
			args[na++] = pass[j];
		if (budget != NULL)
			args[na++] = budget;
		args[na] = NULL;
		if ((pid = fork()) == -1)
			err(1, "fork");
		if (pid == 0) {
			(void)execv("/proc/self/exe", args);
			warn("exec /proc/self/exe");
			_exit(127);
		}
		while (waitpid(pid, &ws[i], 0) == -1)
			if (errno != EINTR)
				err(1, "waitpid");
	}

	/* The summary: the largest n each target reached, and its rates. */
	outfd = open(out, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	memset(&rt, 0, sizeof(rt));
	printf("\nsuite: results in %s\n%-20s %-18s %12s", out, "target",
	    "status", "largest n");
	for (j = 0; j < (int)run.cfg.nphases; j++)
		printf(" %10s/s", workload_phase_name(run.cfg.phases[j]));
	printf("\n");
	for (i = 0; i < nconf; i++) {
		if (ws[i] == -1) {
			printf("%-20s %-18s\n", labels[i], "not run");
			bad = 1;
			continue;
		}
		if (!WIFEXITED(ws[i]) || WEXITSTATUS(ws[i]) != 0)
			bad = 1;
		(void)strcpy(cnt, "-");
		for (j = 0; j < PHASE_COUNT; j++)
			vals[j] = NAN;
		if (outfd != -1 && results_read_one(&rt, outfd, out,
		    labels[i], errbuf) == 0) {
			n = results_max_n(&rt);
			if (isfinite(n))
				util_fmt_count(cnt, sizeof(cnt), (uint64_t)n);
			for (j = 0; j < (int)run.cfg.nphases; j++)
				vals[j] = results_rate_at(&rt,
				    workload_phase_name(run.cfg.phases[j]), n,
				    &at);
		}
		results_target_free(&rt);
		printf("%-20s %-18s %12s", labels[i], suite_status(ws[i], st,
		    sizeof(st)), cnt);
		for (j = 0; j < (int)run.cfg.nphases; j++) {
			if (isnan(vals[j]))
				(void)strcpy(rate, "-");
			else
				util_fmt_rate(rate, sizeof(rate), vals[j]);
			printf(" %12s", rate);
		}
		printf("\n");
	}
	if (outfd != -1)
		(void)close(outfd);
	/* Graphs and the page are extras: the table has said it all. */
	if (nsignals == 0) {
		(void)plot_results(out, false);
		if (page_write(out, errbuf) == -1)
			warnx("%s", errbuf);
		else
			printf("page: %s/index.html and index.de.html\n", out);
	}
	if (fflush(stdout) == EOF)
		err(1, "stdout");
	if (nsignals > 0)
		exit(128 + signo_first);
	exit(bad ? EXIT_SUITE : 0);
}

/* ===== Outputs ===== */

/*
 * Make the run directory, refuse to overwrite earlier results, and fill
 * the document's metadata, settings and columns.
 */
static void
setup_outputs(int argc, char **argv)
{
	struct timespec	 ts;
	struct tm	 tm;
	char		 dstamp[32], *cmd, line[512];
	const char	*ext;
	size_t		 i;

	if (clock_gettime(CLOCK_REALTIME, &ts) == -1 ||
	    gmtime_r(&ts.tv_sec, &tm) == NULL)
		err(1, "clock_gettime");
	(void)strftime(run.stamp, sizeof(run.stamp), "%Y-%m-%dT%H:%M:%SZ",
	    &tm);
	(void)strftime(dstamp, sizeof(dstamp), "%Y%m%dT%H%M%SZ", &tm);
	run.outdir = run.cfg.output != NULL ? xstrdup(run.cfg.output) :
	    xasprintf("results/%s-%s", dstamp, run.label);
	for (i = 0; output_writers[i].name != NULL; i++) {
		struct stat	 sb;
		char		*f;

		/* A dangling symbolic link is there too. */
		ext = output_writers[i].ext;
		f = xasprintf("%s/%s.%s", run.outdir, run.label, ext);
		if (lstat(f, &sb) == 0)
			errx(EXIT_USAGE, "%s exists: choose another -o or "
			    "--label", f);
		free(f);
	}
	if (util_mkdir_p(run.outdir) == -1)
		err(1, "mkdir %s", run.outdir);
	if ((run.outfd = open(run.outdir, O_RDONLY | O_DIRECTORY |
	    O_CLOEXEC)) == -1)
		err(1, "%s", run.outdir);

	output_doc_init(&run.doc);
	run.doc.largedir = xstrdup(LD_VERSION);
	cmd = quote_argv(argc, argv);
	output_kv_set(&run.doc.meta, "version", "%s", LD_VERSION);
	output_kv_set(&run.doc.meta, "git", "%s", LD_GIT);
	output_kv_set(&run.doc.meta, "command", "%s", cmd);
	free(cmd);
	output_kv_set(&run.doc.meta, "label", "%s", run.label);
	output_kv_set(&run.doc.meta, "start_utc", "%s", run.stamp);
	output_kv_set(&run.doc.meta, "seed", "%" PRIu64, run.cfg.seed);
	output_kv_set(&run.doc.meta, "dir", "%s", run.dir);
	probe_target(run.dir, &run.doc.meta);
	if (run.conf_path != NULL) {
		output_kv_set(&run.doc.meta, "config_file", "%s",
		    run.conf_path);
		target_meta(&run.target, &run.doc.meta);
	}
	probe_system(&run.doc.meta);
	output_kv_set(&run.doc.meta, "clock", "CLOCK_MONOTONIC");
	output_kv_set(&run.doc.meta, "rusage", "RUSAGE_SELF deltas per "
	    "phase; blocks in 512-byte units");
	output_kv_set(&run.doc.meta, "latency", "per operation, chained: "
	    "from the end of the previous operation to the end of this one");
	output_kv_set(&run.doc.meta, "caches", "PHASE_dentries, _inodes, "
	    "_dentry_objs, _inode_objs and _mem_avail_kib are machine-wide, "
	    "read at the start of the phase; _sectors_read and "
	    "_sectors_written are the target device's, during the phase");
	config_dump(&run.cfg, &run.doc.config);
	perf_describe(&run.perf, line, sizeof(line));
	output_kv_set(&run.doc.meta, "events", "%s", line);
	if (*perf_unavailable(&run.perf) != '\0')
		output_kv_set(&run.doc.meta, "events_unavailable", "%s",
		    perf_unavailable(&run.perf));
	output_kv_set(&run.doc.meta, "cold", "%s", run.cfg.cold ==
	    CONFIG_COLD_NONE ? "none: each phase sees what create left in "
	    "the caches" : run.cfg.cold == CONFIG_COLD_DROP ? "drop: syncfs "
	    "and drop_caches=2 before each phase after create; PHASE_cold_ns"
	    " is its time, outside the phase" : "remount: unmount and mount "
	    "before each phase after create; PHASE_cold_ns is its time, "
	    "outside the phase");
	setup_columns();
}

static void
setup_columns(void)
{
	struct output_table	*t = &run.doc.rows, *s = &run.doc.summary;
	char			 name[64];
	const char		*pn;
	size_t			 i, j;

	output_table_init(t);
	output_table_init(s);
	(void)output_table_col(t, "round", -1);
	(void)output_table_col(t, "rep", -1);
	(void)output_table_col(t, "warmup", -1);
	(void)output_table_col(t, "n", -1);
	(void)output_table_col(t, "round_ns", -1);
	(void)output_table_col(t, "sync_ns", -1);
	(void)output_table_col(t, "load1_start", 2);
	(void)output_table_col(t, "load1_end", 2);
	(void)output_table_col(s, "round", -1);
	(void)output_table_col(s, "n", -1);
	(void)output_table_col(s, "reps", -1);
	for (i = 0; i < run.cfg.nphases; i++) {
		pn = workload_phase_name(run.cfg.phases[i]);
		for (j = 0; j < NPHASE_COLS; j++) {
			(void)snprintf(name, sizeof(name), "%s_%s", pn,
			    phase_cols[j].suffix);
			if (j == 0)
				run.col0[run.cfg.phases[i]] = t->ncols;
			(void)output_table_col(t, name, phase_cols[j].prec);
		}
		for (j = 0; j < perf_nvalues(&run.perf); j++) {
			(void)snprintf(name, sizeof(name), "%s_%s", pn,
			    perf_value_name(&run.perf, j));
			(void)output_table_col(t, name, -1);
		}
		(void)snprintf(name, sizeof(name), "%s_per_s_median", pn);
		(void)output_table_col(s, name, 1);
		(void)snprintf(name, sizeof(name), "%s_per_s_min", pn);
		(void)output_table_col(s, name, 1);
		(void)snprintf(name, sizeof(name), "%s_per_s_max", pn);
		(void)output_table_col(s, name, 1);
	}
}

/* Rewrite all outputs; a failure here is fatal (the results are gone). */
static void
flush_outputs(void)
{
	struct timing_usage	u;
	char			errbuf[LD_ERRLEN];

	if (run.outfd == -1)
		return;
	if (timing_usage(&u) == 0)
		output_kv_set(&run.doc.meta, "peak_rss_kib", "%" PRIu64,
		    u.maxrss_kib);
	output_kv_set(&run.doc.meta, "elapsed_s", "%.3f",
	    (timing_now() - run.t0_ns) / 1e9);
	if (output_flush(run.outfd, run.label, &run.doc, run.outids,
	    errbuf) == -1) {
		run.outfd = -1;		/* no second try from tidy() */
		errx(1, "%s", errbuf);
	}
}

/* ===== Signals and progress ===== */

static void
on_signal(int sig)
{
	if (signo_first == 0)
		signo_first = sig;
	nsignals++;
	poll_flag = 1;
	if (child > 0)
		(void)kill(child, sig);	/* it stops its phase, too */
}

static void
on_alarm(int sig)
{
	(void)sig;
	tick = 1;
	poll_flag = 1;
}

static void
setup_signals(void)
{
	struct sigaction	sa;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	sa.sa_handler = on_signal;
	/*
	 * A closed pipe on stdout (largedir | head) stops the run like
	 * SIGTERM, so the work directory is still cleaned up.
	 */
	if (sigaction(SIGINT, &sa, NULL) == -1 ||
	    sigaction(SIGTERM, &sa, NULL) == -1 ||
	    sigaction(SIGPIPE, &sa, NULL) == -1)
		err(1, "sigaction");
	run.tty = !run.cfg.quiet && isatty(STDERR_FILENO);
	if (!run.tty)
		return;
	sa.sa_handler = on_alarm;
	if (sigaction(SIGALRM, &sa, NULL) == -1)
		err(1, "sigaction");
	arm_timer();
}

/* Tick every PROGRESS_MS; a forked child must arm its own timer. */
static void
arm_timer(void)
{
	struct itimerval	it;

	memset(&it, 0, sizeof(it));
	it.it_interval.tv_usec = PROGRESS_MS * 1000;
	it.it_value = it.it_interval;
	(void)setitimer(ITIMER_REAL, &it, NULL);
}

/*
 * Called by the phase loops when poll_flag is set: redraw the progress
 * line, and say whether to stop.  A signal stops a phase; during cleanup
 * (phase PHASE_COUNT) only a second signal does.
 */
static bool
on_poll(void *arg, enum phase p, uint64_t done)
{
	uint64_t	now = timing_now(), el;
	char		rate[32], elapsed[32], budget[32], eta[32], count[32];
	double		pct, left;

	(void)arg;
	poll_flag = 0;
	if (tick && run.tty && nsignals == 0) {
		tick = 0;
		el = now - run.phase_t0_ns;
		util_fmt_rate(rate, sizeof(rate), el > 0 ? done * 1e9 / el :
		    0);
		util_fmt_duration(elapsed, sizeof(elapsed), now - run.t0_ns);
		util_fmt_duration(budget, sizeof(budget), run.cfg.budget_ns);
		pct = run.n > 0 ? 100.0 * done / run.n : 0;
		left = run.round_pred_ns - (double)(now - run.round_t0_ns);
		if (run.round_pred_ns > 0 && left > 0)
			util_fmt_duration(eta, sizeof(eta), (uint64_t)left);
		else
			(void)strcpy(eta, "?");
		util_fmt_count(count, sizeof(count), run.n);
		run.shown = true;
		(void)fprintf(stderr, "\r\033[Kround %u  n=%s  %s "
		    "%3.0f%%  %s/s  %s/%s  round ETA %s", run.round, count,
		    workload_phase_name(p), pct > 100 ? 100 : pct, rate,
		    elapsed, budget, eta);
	}
	if (nsignals > 0)
		poll_flag = 1;		/* keep later loops stopping too */
	return p == PHASE_COUNT ? nsignals > 1 : nsignals > 0;
}

static void
progress_clear(void)
{
	if (run.shown)
		(void)fputs("\r\033[K", stderr);
	run.shown = false;
}

/* ===== The rounds ===== */

/*
 * Run rounds until the budget, --max-files or the filesystem says stop.
 * Return the exit status.
 */
static int
run_rounds(void)
{
	struct timing_budget	 b;
	enum timing_verdict	 v;
	uint64_t		 n = run.cfg.start, n_prev = 0, n_run, max;
	uint64_t		 t_round;
	double			 pred = 0;
	char			 d1[32], d2[32], c1[32], c2[32];
	unsigned		 k = 0, i;
	uint64_t		 capped_ns = 0;
	int			 rc;

	timing_budget_init(&b, run.cfg.budget_ns, run.cfg.policy);
	max = run.cfg.max_files != 0 ? run.cfg.max_files :
	    names_capacity(run.cfg.names, run.cfg.name_len);
	for (i = 0; i < run.cfg.warmup; i++) {
		run.round_pred_ns = timing_predict(&b, n, run.cfg.repeat);
		t_round = timing_now();
		if ((rc = run_round(++k, n, true)) != 0)
			return rc;
		timing_budget_add(&b, n, run.cfg.repeat,
		    timing_now() - t_round);
	}
	for (;;) {
		v = timing_plan(&b, timing_now() - run.t0_ns, n_prev, n,
		    run.cfg.repeat, &n_run, &pred);
		/*
		 * A time-boxed round that made every file it could before
		 * its deadline ran faster than predicted.  If what is left
		 * would run it again (so the next can grow past it), the
		 * next round is time-boxed too; a tiny round at the end
		 * would only add a stray point to the curve.
		 */
		if (v == TIMING_STOP && capped_ns > 0 && (double)timing_now() +
		    (double)capped_ns < (double)run.t0_ns + (1 - TIMING_SLACK) *
		    run.cfg.budget_ns)
			v = TIMING_STRETCH;
		if (v == TIMING_STOP) {
			util_fmt_duration(d1, sizeof(d1), (uint64_t)pred);
			util_fmt_duration(d2, sizeof(d2), run.t0_ns +
			    run.cfg.budget_ns > timing_now() ? run.t0_ns +
			    run.cfg.budget_ns - timing_now() : 0);
			util_fmt_count(c1, sizeof(c1), n);
			if (!run.cfg.quiet && run.cfg.policy ==
			    TIMING_PREDICT && pred > 0 && run.t0_ns +
			    run.cfg.budget_ns > timing_now())
				printf("budget: the next round (n=%s) would "
				    "take about %s, %s left: done\n", c1, d1,
				    d2);
			else if (!run.cfg.quiet)
				printf("budget spent: done\n");
			return 0;
		}
		/*
		 * The last round is time-boxed: on a busy machine a
		 * prediction can be off by a factor of two or more, so
		 * instead of trusting it, the round may create up to
		 * TIMEBOX_FACTOR times the predicted n, and its create phase
		 * stops in time for the whole round to end at the budget.
		 * Its n is what it made.
		 */
		run.timebox = v == TIMING_SHRINK || v == TIMING_STRETCH;
		if (run.timebox) {
			util_fmt_count(c1, sizeof(c1), n_run);
			n_run = n_run > max / TIMEBOX_FACTOR ? max :
			    TIMEBOX_FACTOR * n_run;
			util_fmt_count(c2, sizeof(c2), n_run);
			if (!run.cfg.quiet)
				printf("budget: the last round (about n=%s, "
				    "at most %s) stops creating files in time "
				    "to end at the budget\n", c1, c2);
		}
		run.round_pred_ns = pred;
		t_round = timing_now();
		if ((rc = run_round(++k, n_run, false)) != 0)
			return rc;
		t_round = timing_now() - t_round;
		capped_ns = run.timebox && run.n == n_run ? t_round : 0;
		n_run = run.n;			/* less if time-boxed */
		run.timebox = false;
		timing_budget_add(&b, n_run, run.cfg.repeat, t_round);
		n_prev = n_run;
		n = timing_next_n(n_run, run.cfg.growth, max);
		if (n == 0) {
			if (!run.cfg.quiet)
				printf("%s reached: done\n", run.cfg.max_files
				    != 0 ? "--max-files" : "the largest n "
				    "the names allow");
			return 0;
		}
	}
}

/*
 * Round 'k': 'n' files, measured --repeat times, each time in a fresh
 * directory.  Return 0 to go on, else the exit status.
 */
static int
run_round(unsigned k, uint64_t n, bool warmup)
{
	static double	 rates[PHASE_COUNT][1000];	/* per repetition */
	double		*row, med[PHASE_COUNT], lo[PHASE_COUNT],
			 hi[PHASE_COUNT], r[PHASE_COUNT];
	unsigned	 rep, reps = run.cfg.repeat;
	enum phase	 p;
	size_t		 i;
	int		 rc;

	run.round = k;
	run.n = n;
	run.round_t0_ns = timing_now();
	names_free(&run.names);
	if (names_build(&run.names, run.cfg.names, run.cfg.name_len, n,
	    run.cfg.seed, run.cfg.file_size) == -1)
		err(1, "names for n=%" PRIu64, n);
	run.order = xreallocarray(run.order, n, sizeof(*run.order));
	run.w.order = run.order;
	run.w.n = n;
	for (rep = 1; rep <= reps; rep++) {
		/* A time-boxed first repetition may have made fewer. */
		if ((rc = run_rep(k, rep, run.n, warmup, r)) != 0)
			return rc;
		for (i = 0; i < run.cfg.nphases; i++)
			rates[run.cfg.phases[i]][rep - 1] = r[run.cfg.phases[i]];
	}
	for (i = 0; i < run.cfg.nphases; i++) {
		p = run.cfg.phases[i];
		med[p] = stats_median(rates[p], reps);
		lo[p] = hi[p] = rates[p][0];
		for (rep = 1; rep < reps; rep++) {
			lo[p] = fmin(lo[p], rates[p][rep]);
			hi[p] = fmax(hi[p], rates[p][rep]);
		}
	}
	if (!warmup) {
		row = output_table_row(&run.doc.summary);
		row[0] = k;
		row[1] = (double)run.n;
		row[2] = reps;
		for (i = 0; i < run.cfg.nphases; i++) {
			p = run.cfg.phases[i];
			row[3 + 3 * i] = med[p];
			row[4 + 3 * i] = lo[p];
			row[5 + 3 * i] = hi[p];
			if (reps >= 3 && !run.warned_noise) {
				bool	flags[1000];

				if (stats_outliers(rates[p], reps, OUTLIER_Z,
				    flags) > 0) {
					run.warned_noise = true;
					progress_clear();
					warnx("warning: outliers among the %u "
					    "repetitions of round %u (%s): the "
					    "machine may be busy; rerun on a "
					    "quiet system", reps, k,
					    workload_phase_name(p));
					output_kv_set(&run.doc.meta,
					    "warning_outliers", "round %u %s",
					    k, workload_phase_name(p));
				}
			}
		}
		check_noise(k, run.n, med, reps);
	}
	flush_outputs();
	print_round(k, run.n, warmup, med, lo, hi, reps,
	    timing_now() - run.round_t0_ns);
	return 0;
}

/*
 * One repetition of round 'k': make the round directory, run every phase,
 * remove the directory, and add a row.  Store each phase's rate in
 * 'rate'.  Return 0 to go on, else the exit status.
 */
static int
run_rep(unsigned k, unsigned rep, uint64_t n, bool warmup, double *rate)
{
	static struct phase_out	 outs[PHASE_COUNT];
	struct phase_out	*o;
	double			 load0 = NAN, load1 = NAN, *row;
	uint64_t		 t0, t, sync_ns = 0, cold_ns;
	enum phase		 p;
	size_t			 i, j;
	int			 rc;

	workdir_round_name(run.dname, sizeof(run.dname), k, rep);
	if (run.be.ops->enter(&run.be, run.dname) == -1)
		return stop_errno(errno, "round", n, "creating the round "
		    "directory");
	run.in_round = true;
	run.w.created = run.w.deleted = 0;
	t0 = timing_now();
	if (run.cfg.sync == CONFIG_SYNC_ROUND) {
		if (run.be.ops->sync(&run.be) == -1)
			return stop_errno(errno, "round", n, "syncfs");
		sync_ns += timing_now() - t0;
	}
	(void)probe_loadavg(&load0);
	for (i = 0; i < run.cfg.nphases; i++) {
		p = run.cfg.phases[i];
		o = &outs[p];
		if (nsignals > 0)
			return stop_errno(EINTR, workload_phase_name(p), n,
			    "before the phase");
		cold_ns = 0;
		if (p != PHASE_CREATE && (rc = cold_step(p, n, &cold_ns)) != 0)
			return rc;
		if (run.cfg.sync == CONFIG_SYNC_PHASE) {
			t = timing_now();
			if (run.be.ops->sync(&run.be) == -1)
				return stop_errno(errno, workload_phase_name(p),
				    n, "syncfs");
			sync_ns += timing_now() - t;
		}
		/*
		 * Only the phases that read run limited: the inodes create
		 * and the deletions dirty cannot be reclaimed until they are
		 * written back, so a limit would kill them, not the caches.
		 */
		if (run.memcg.dir != NULL && (p == PHASE_OPEN ||
		    p == PHASE_LIST || p == PHASE_LISTSTAT))
			rc = run_limited(p, k, rep, n, o);
		else
			rc = measure_phase(p, k, rep, n, o);
		if (rc == -1)
			return stop_errno(o->err, workload_phase_name(p), n,
			    o->what);
		o->cells[C_COLD] = (double)cold_ns;
		if (p == PHASE_CREATE && o->done < n)
			run.n = run.w.n = n = o->done;	/* time-boxed */
		if ((p == PHASE_LIST || p == PHASE_LISTSTAT) &&
		    o->done != n) {
			progress_clear();
			warnx("warning: %s saw %" PRIu64 " entries in a "
			    "directory of %" PRIu64 " files", 
			    workload_phase_name(p), o->done, n);
		}
		if (o->foreign > 0) {
			progress_clear();
			warnx("warning: %" PRIu64 " entries in %s/%s were not "
			    "made by largedir and were left alone",
			    o->foreign, run.wd.path, run.dname);
		}
		rate[p] = o->rate;
	}
	(void)probe_loadavg(&load1);
	if (run.be.ops->leave(&run.be, true) == -1)
		return stop_errno(errno, "round", n, "removing the round "
		    "directory");
	run.in_round = false;
	row = output_table_row(&run.doc.rows);
	row[0] = k;
	row[1] = rep;
	row[2] = warmup ? 1 : 0;
	row[3] = (double)n;
	row[4] = (double)(timing_now() - t0);
	run.create_share = outs[PHASE_CREATE].cells[0] / row[4];
	row[5] = (double)sync_ns;
	row[6] = load0;
	row[7] = load1;
	for (i = 0; i < run.cfg.nphases; i++) {
		p = run.cfg.phases[i];
		for (j = 0; j < C_PERF + perf_nvalues(&run.perf); j++)
			row[run.col0[p] + j] = outs[p].cells[j];
	}
	check_load(k, load0 > load1 ? load0 : load1);
	return 0;
}

/*
 * Measure phase 'p' of repetition 'rep' of round 'k' (n files) into 'o':
 * its rate and every cell of its columns.  Return 0, or -1 with o->err
 * and o->what saying what failed.  Prints nothing and never exits, as a
 * limited child runs it too.
 */
static int
measure_phase(enum phase p, unsigned k, unsigned rep, uint64_t n,
    struct phase_out *o)
{
	static struct workload_result	 res;	/* 15 KiB of histogram */
	struct cache_state		 cs0, cs1;
	int64_t				 sr, sw;
	uint64_t			 state, peak;
	double				*c = o->cells;
	size_t				 i;

	memset(o, 0, sizeof(*o));
	for (i = 0; i < NCELLS; i++)
		c[i] = NAN;
	if (p == PHASE_OPEN) {
		/* Untimed, and after create: n is known by now. */
		state = run.cfg.seed ^ ((uint64_t)k << 32 | rep);
		workload_shuffle(run.order, n, util_splitmix64(&state));
	}
	(void)cache_read("/", run.inode_slab, run.dev_major, run.dev_minor,
	    &cs0);
	if (run.memcg.dir != NULL && getpid() != run.pid)
		(void)memcg_peak_reset(&run.memcg);
	run.phase_t0_ns = timing_now();
	run.w.deadline_ns = p == PHASE_CREATE && run.timebox && rep == 1 ?
	    timebox_deadline(run.phase_t0_ns) : 0;
	perf_start(&run.perf);
	if (workload_run(&run.w, p, &res) == -1) {
		o->err = errno;
		(void)snprintf(o->what, sizeof(o->what), "after %" PRIu64
		    " of %" PRIu64 " files", res.done, n);
		perf_stop(&run.perf, c + C_PERF);
		return -1;
	}
	perf_stop(&run.perf, c + C_PERF);
	o->done = res.done;
	o->foreign = res.foreign;
	o->deleted = run.w.deleted;
	o->rate = res.elapsed_ns > 0 ? res.done * 1e9 / res.elapsed_ns : NAN;
	c[0] = (double)res.elapsed_ns;
	c[1] = o->rate;
	c[2] = (double)res.ops;
	c[3] = (double)res.usage.user_ns;
	c[4] = (double)res.usage.sys_ns;
	c[5] = (double)res.usage.vcsw;
	c[6] = (double)res.usage.ivcsw;
	c[7] = (double)res.usage.inblock;
	c[8] = (double)res.usage.oublock;
	c[9] = (double)stats_hist_percentile(&res.hist, 50);
	c[10] = (double)stats_hist_percentile(&res.hist, 90);
	c[11] = (double)stats_hist_percentile(&res.hist, 99);
	c[12] = (double)stats_hist_percentile(&res.hist, 99.9);
	c[13] = (double)res.hist.max;
	(void)cache_read("/", run.inode_slab, run.dev_major, run.dev_minor,
	    &cs1);
	cache_diff(&cs0, &cs1, &sr, &sw);
	c[14] = cache_value(cs0.nr_dentry);
	c[15] = cache_value(cs0.nr_unused);
	c[16] = cache_value(cs0.nr_inodes);
	c[17] = cache_value(cs0.dentry_objs);
	c[18] = cache_value(cs0.inode_objs);
	c[19] = cache_value(cs0.mem_available_kib);
	c[20] = cache_value(sr);
	c[21] = cache_value(sw);
	if (run.memcg.dir != NULL && getpid() != run.pid &&
	    memcg_peak(&run.memcg, &peak) == 0)
		c[C_PEAK] = (double)(peak / 1024);
	return 0;
}

/*
 * Run phase 'p' like measure_phase(), but in a child process inside the
 * memory cgroup of --memory-limit, so the dentries and inodes it brings
 * into the caches count against the limit, and the OOM killer, if it
 * comes, takes the child and not largedir.  The child hands its results
 * back through shared memory.  An OOM kill or ENOMEM is o->err ENOMEM.
 */
static int
run_limited(enum phase p, unsigned k, unsigned rep, uint64_t n,
    struct phase_out *o)
{
	uint64_t	 oom0 = 0, oom1 = 0;
	pid_t		 pid;
	int		 ws, sig;

	if (run.shared == NULL) {
		/* Touched here, so it is charged to largedir, not the child. */
		run.shared = mmap(NULL, sizeof(*run.shared), PROT_READ |
		    PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		if (run.shared == MAP_FAILED)
			err(1, "mmap");
	}
	memset(run.shared, 0, sizeof(*run.shared));
	(void)memcg_oom_kills(&run.memcg, &oom0);
	(void)fflush(stdout);
	(void)fflush(stderr);
	if ((pid = fork()) == -1)
		err(1, "fork");
	if (pid == 0) {
		child = 0;
		/* Measuring for a largedir killed by -9 is of no use. */
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) == -1 ||
		    getppid() != run.pid)
			_exit(1);
		if (memcg_enter(&run.memcg) == -1) {
			run.shared->err = errno;
			(void)snprintf(run.shared->what,
			    sizeof(run.shared->what), "joining the memory "
			    "cgroup %s", run.memcg.dir);
			_exit(1);
		}
		if (run.tty)
			arm_timer();
		perf_reopen(&run.perf);
		(void)measure_phase(p, k, rep, n, run.shared);
		run.shared->done_ok = 1;
		_exit(0);
	}
	child = pid;
	if (nsignals > 0)
		(void)kill(pid, signo_first);	/* came before 'child' was set */
	while (waitpid(pid, &ws, 0) == -1)
		if (errno != EINTR)
			err(1, "waitpid");
	child = 0;
	*o = *run.shared;
	run.w.deleted = o->deleted > run.w.deleted ? o->deleted :
	    run.w.deleted;
	if (WIFEXITED(ws) && o->done_ok) {
		/* "after N of M files", and why it ran short. */
		if (o->err == ENOMEM && strlen(o->what) + 24 <
		    sizeof(o->what))
			(void)strcat(o->what, ", under --memory-limit");
		return o->err != 0 ? -1 : 0;
	}
	if (WIFEXITED(ws) && o->err != 0)
		return -1;
	(void)memcg_oom_kills(&run.memcg, &oom1);
	sig = WIFSIGNALED(ws) ? WTERMSIG(ws) : 0;
	o->err = sig == SIGKILL && oom1 > oom0 ? ENOMEM : nsignals > 0 ?
	    EINTR : ECHILD;
	if (o->err == ENOMEM)
		(void)snprintf(o->what, sizeof(o->what), "killed by the OOM "
		    "killer under --memory-limit");
	else
		(void)snprintf(o->what, sizeof(o->what), "the child measuring "
		    "it %s %d", sig != 0 ? "died of signal" : "exited",
		    sig != 0 ? sig : WEXITSTATUS(ws));
	return -1;
}

/*
 * --cold: before phase 'p' (after create), empty the caches the way
 * --cold says, untimed, and store how long it took in '*ns'.  Return 0,
 * or the exit status.
 */
static int
cold_step(enum phase p, uint64_t n, uint64_t *ns)
{
	char		 errbuf[LD_ERRLEN];
	uint64_t	 t0 = timing_now();

	switch (run.cfg.cold) {
	case CONFIG_COLD_NONE:
		return 0;
	case CONFIG_COLD_DROP:
		if (run.be.ops->sync(&run.be) == -1)
			return stop_errno(errno, workload_phase_name(p), n,
			    "syncfs before dropping the caches");
		/* 2: dentries and inodes, not the page cache. */
		if (util_write_file("/proc/sys/vm/drop_caches", "2\n") == -1)
			return stop_errno(errno, workload_phase_name(p), n,
			    "writing /proc/sys/vm/drop_caches");
		break;
	case CONFIG_COLD_REMOUNT:
		/* Nothing of ours may hold the filesystem open. */
		if (run.be.ops->suspend(&run.be) == -1)
			return stop_errno(errno, workload_phase_name(p), n,
			    "closing the round directory to remount");
		workdir_suspend(&run.wd);
		if (target_remount(&run.target, errbuf) == -1 ||
		    workdir_resume(&run.wd, errbuf) == -1) {
			int	e = errno;

			progress_clear();
			warnx("%s", errbuf);
			return stop_errno(e, workload_phase_name(p), n,
			    "remounting the target (--cold=remount)");
		}
		if (run.be.ops->resume(&run.be, run.wd.fd) == -1)
			return stop_errno(errno, workload_phase_name(p), n,
			    "opening the round directory after the remount");
		break;
	}
	*ns = timing_now() - t0;
	return 0;
}

/* A cache counter as a cell: NAN where it could not be read. */
static double
cache_value(int64_t v)
{
	return v < 0 ? NAN : (double)v;
}

/*
 * When the time-boxed create phase starting at 'now' must stop: when the
 * part of what is left of the budget that create took in the repetition
 * before (the rest of the round takes the remainder) is spent, divided
 * among the repetitions.
 */
static uint64_t
timebox_deadline(uint64_t now)
{
	double	end, share = run.create_share;

	end = (double)run.t0_ns + (1 - TIMING_SLACK) * run.cfg.budget_ns;
	if (!(share > 0.05 && share < 1))
		share = 0.5;
	if (end <= (double)now)
		return now;
	return now + (uint64_t)((end - (double)now) * share /
	    run.cfg.repeat);
}

/*
 * The run cannot go on: errno 'e' in phase 'phase' of the round with 'n'
 * files, doing 'what'.  Record why in the outputs, say it in one line,
 * and return the exit status: 128 + signal when interrupted,
 * EXIT_STOPPED when the filesystem refused (it is full, read-only, out of
 * inodes or quota, denies access, or the work directory vanished), 1 for
 * anything unexpected.
 */
static int
stop_errno(int e, const char *phase, uint64_t n, const char *what)
{
	struct stat	 st;
	char		 count[32], sigwhy[32];
	const char	*why = strerror(e);
	int		 status = 1;

	util_fmt_count(count, sizeof(count), n);
	run.doc.status = OUTPUT_FAILED;
	switch (e) {
	case ENOMEM:
		if (strstr(what, "--memory-limit") == NULL)
			break;
		/* A limited phase: the limit stopped the run. */
		output_kv_set(&run.doc.meta, "oom", "%s in round %u (n=%s), "
		    "%s", phase, run.round, count, what);
		why = "out of memory";
		run.doc.status = OUTPUT_STOPPED;
		status = EXIT_STOPPED;
		break;
	case EINTR:
		if (nsignals == 0)
			break;
		run.doc.status = OUTPUT_INTERRUPTED;
		(void)snprintf(sigwhy, sizeof(sigwhy), "interrupted by SIG%s",
		    sigabbrev_np(signo_first));
		why = sigwhy;
		status = 128 + signo_first;
		break;
	case ENOENT:
	case ESTALE:
	case ENOTDIR:
		if (fstat(run.wd.fd, &st) == 0 && st.st_nlink > 0 &&
		    fstatat(run.wd.fd, run.dname, &st, 0) == 0)
			break;
		why = "the work directory vanished";
		/* FALLTHROUGH */
	case ENOSPC:
	case EDQUOT:
	case EMFILE:
	case ENFILE:
	case EROFS:
	case EACCES:
	case EPERM:
		run.doc.status = OUTPUT_STOPPED;
		status = EXIT_STOPPED;
		break;
	default:
		break;
	}
	free(run.doc.stop_reason);
	run.doc.stop_reason = xasprintf("%s: %s in round %u (n=%s), %s",
	    why, phase, run.round, count, what);
	run.doc.stop_errno = e;
	run.doc.stop_n = n;
	free(run.doc.stop_phase);
	run.doc.stop_phase = xstrdup(phase);
	flush_outputs();
	progress_clear();
	warnx("%s", run.doc.stop_reason);
	return status;
}

/* Warn once when the load average says other programs compete. */
static void
check_load(unsigned k, double load)
{
	long	cpus = sysconf(_SC_NPROCESSORS_ONLN);

	if (run.warned_load || isnan(load) || cpus < 1 || load <= cpus)
		return;
	run.warned_load = true;
	progress_clear();
	warnx("warning: load average %.2f on %ld CPUs in round %u: other "
	    "programs compete with largedir, so rates may be low and noisy; "
	    "measure on an idle machine (--repeat shows the spread)", load,
	    cpus, k);
	output_kv_set(&run.doc.meta, "warning_load", "load %.2f on %ld CPUs "
	    "in round %u", load, cpus, k);
}

/*
 * Keep round 'k''s median rates 'med' and warn once when the round before
 * it swings far off both of its neighbours: noise, not a knee (a knee
 * stays down).
 */
static void
check_noise(unsigned k, uint64_t n, const double *med, unsigned reps)
{
	double		*v;
	enum phase	 p;
	size_t		 i, m;

	(void)n;
	(void)reps;
	m = run.nrates++;
	for (i = 0; i < run.cfg.nphases; i++) {
		p = run.cfg.phases[i];
		run.rates[p] = xreallocarray(run.rates[p], run.nrates,
		    sizeof(double));
		run.rates[p][m] = med[p];
		v = run.rates[p];
		if (m < 2 || run.warned_noise ||
		    !stats_swing(v[m - 2], v[m - 1], v[m], SWING_FACTOR))
			continue;
		run.warned_noise = true;
		progress_clear();
		warnx("warning: the %s rate of round %u is more than %.0fx off "
		    "both neighbouring rounds: the machine may be busy or the "
		    "filesystem working in the background; rerun, or use "
		    "--repeat 3 to see the spread", workload_phase_name(p),
		    k - 1, SWING_FACTOR);
		output_kv_set(&run.doc.meta, "warning_swing", "round %u %s",
		    k - 1, workload_phase_name(p));
	}
}

/* Sort the 'm' points ('n', 'rate') by n: an insertion sort, m is small. */
static void
sort_points(double *n, double *rate, size_t m)
{
	double	x, y;
	size_t	i, j;

	for (i = 1; i < m; i++) {
		x = n[i];
		y = rate[i];
		for (j = i; j > 0 && n[j - 1] > x; j--) {
			n[j] = n[j - 1];
			rate[j] = rate[j - 1];
		}
		n[j] = x;
		rate[j] = y;
	}
}

/*
 * After the rounds: for every phase, whether its rates have a knee (they
 * fall below KNEE_FRACTION of their plateau and stay there), decline from
 * the start, or stay flat, by stats_knee().  Said on stdout and recorded
 * in the metadata as knee_PHASE (the n of the knee, or "none", "decline",
 * "too-few-rounds") with knee_PHASE_before and _after (rates).
 */
static void
report_knees(void)
{
	struct output_table	*t = &run.doc.rows;
	struct stats_knee	 k;
	const char		*pn;
	double			*n, *rate;
	char			 key[64], c[32], r1[32], r2[32];
	size_t			 i, j, m;
	int			 col;

	n = xreallocarray(NULL, t->nrows + 1, sizeof(*n));
	rate = xreallocarray(NULL, t->nrows + 1, sizeof(*rate));
	for (i = 0; i < run.cfg.nphases; i++) {
		pn = workload_phase_name(run.cfg.phases[i]);
		col = (int)run.col0[run.cfg.phases[i]] + 1;	/* _per_s */
		for (j = m = 0; j < t->nrows; j++) {
			const double	*row = t->cells + j * t->ncols;

			if (row[2] != 0 || !isfinite(row[col]))
				continue;	/* warm-up, or no rate */
			n[m] = row[3];
			rate[m++] = row[col];
		}
		sort_points(n, rate, m);	/* a time-boxed round may be
						   smaller than the one before */
		(void)snprintf(key, sizeof(key), "knee_%s", pn);
		if (stats_knee(n, rate, m, KNEE_FRACTION, &k) == -1)
			continue;
		switch (k.shape) {
		case STATS_KNEE:
			output_kv_set(&run.doc.meta, key, "%.0f", k.n);
			(void)snprintf(key, sizeof(key), "knee_%s_before", pn);
			output_kv_set(&run.doc.meta, key, "%.1f", k.before);
			(void)snprintf(key, sizeof(key), "knee_%s_after", pn);
			output_kv_set(&run.doc.meta, key, "%.1f", k.after);
			util_fmt_count(c, sizeof(c), (uint64_t)k.n);
			util_fmt_rate(r1, sizeof(r1), k.before);
			util_fmt_rate(r2, sizeof(r2), k.after);
			if (!run.cfg.quiet)
				printf("knee: %s falls below %.0f%% of its "
				    "plateau from n=%s on (%s/s before, %s/s "
				    "after)\n", pn, 100 * KNEE_FRACTION, c, r1,
				    r2);
			break;
		case STATS_DECLINE:
			output_kv_set(&run.doc.meta, key, "decline");
			if (!run.cfg.quiet)
				printf("knee: %s declines from the start, "
				    "without a plateau\n", pn);
			break;
		case STATS_FLAT:
			output_kv_set(&run.doc.meta, key, "none");
			break;
		case STATS_TOO_FEW:
			output_kv_set(&run.doc.meta, key, "too-few-rounds");
			break;
		}
	}
	free(n);
	free(rate);
}

/* One line on stdout for a finished round. */
static void
print_round(unsigned k, uint64_t n, bool warmup, const double *med,
    const double *lo, const double *hi, unsigned reps, uint64_t ns)
{
	char		count[32], rate[32], dur[32];
	enum phase	p;
	size_t		i;

	if (run.cfg.quiet)
		return;
	progress_clear();
	util_fmt_count(count, sizeof(count), n);
	printf("%s %3u  n=%-11s", warmup ? "warmup" : "round", k, count);
	for (i = 0; i < run.cfg.nphases; i++) {
		p = run.cfg.phases[i];
		util_fmt_rate(rate, sizeof(rate), med[p]);
		printf("  %s %7s/s", workload_phase_name(p), rate);
		if (reps > 1 && med[p] > 0)
			printf(" ±%.1f%%", 50 * (hi[p] - lo[p]) / med[p]);
	}
	util_fmt_duration(dur, sizeof(dur), ns);
	printf("  %s\n", dur);
	(void)fflush(stdout);
}

/* ===== Leaving ===== */

/*
 * Remove what the run created, on every way out: the normal end, a stop,
 * and err(3) anywhere (atexit).  Never exits (exit from an atexit handler
 * is undefined).  Idempotent.
 */
static void
tidy(void)
{
	char		errbuf[LD_ERRLEN];
	uint64_t	removed;

	if (getpid() != run.pid)
		return;		/* a limited child that died through err(3) */
	if (run.memcg.dir != NULL && memcg_remove(&run.memcg, errbuf) == -1)
		warnx("%s", errbuf);
	if (run.in_round) {
		/* A round directory already gone is as clean as it gets. */
		if (workload_clean(&run.w, &removed) == -1 ||
		    (run.be.ops->leave(&run.be, true) == -1 &&
		    errno != ENOENT)) {
			progress_clear();
			if (errno == EINTR)
				warnx("cleanup of %s/%s abandoned after a "
				    "second signal; run 'largedir --cleanup %s'",
				    run.wd.path, run.dname, run.dir);
			else
				warnx("cannot clean up %s/%s: %s; run "
				    "'largedir --cleanup %s'", run.wd.path,
				    run.dname, strerror(errno), run.dir);
			workdir_keep(&run.wd);	/* with its marker */
		}
		run.in_round = false;
	}
	if (run.be.ops != NULL) {
		run.be.ops->close(&run.be);
		run.be.ops = NULL;
	}
	if (run.wd.path != NULL && workdir_remove(&run.wd, errbuf) == -1)
		warnx("%s; run 'largedir --cleanup %s'", errbuf, run.dir);
	if (run.target_up) {
		run.target_up = false;
		if (target_teardown(&run.target, errbuf) == -1)
			warnx("%s; run 'largedir --cleanup'", errbuf);
	}
	if (run.outfd != -1 && run.doc.status == OUTPUT_RUNNING) {
		/* Leaving through err(3): say so in the outputs. */
		run.doc.status = OUTPUT_FAILED;
		if (run.doc.stop_reason == NULL)
			run.doc.stop_reason = xstrdup("largedir failed; see "
			    "its error message");
		if (output_flush(run.outfd, run.label, &run.doc, run.outids,
		    errbuf) == -1)
			warnx("%s", errbuf);
	}
	(void)fflush(stdout);
}

/* The command line as a shell would need it typed: a new string. */
static char *
quote_argv(int argc, char **argv)
{
	static const char	 safe[] = "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./=:,+-@%";
	char			*s = xstrdup(""), *t;
	const char		*a;
	int			 i;

	for (i = 0; i < argc; i++) {
		a = argv[i];
		if (*a != '\0' && strspn(a, safe) == strlen(a))
			t = xasprintf("%s%s%s", s, i > 0 ? " " : "", a);
		else {
			/* 'it'\''s' */
			char	*q = xmalloc(4 * strlen(a) + 3), *o = q;

			*o++ = '\'';
			for (; *a != '\0'; a++) {
				if (*a == '\'') {
					memcpy(o, "'\\''", 4);
					o += 4;
				} else
					*o++ = *a;
			}
			*o++ = '\'';
			*o = '\0';
			t = xasprintf("%s%s%s", s, i > 0 ? " " : "", q);
			free(q);
		}
		free(s);
		s = t;
	}
	return s;
}
