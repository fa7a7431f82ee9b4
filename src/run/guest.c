/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * guest: see guest.h.  A front-end of the run (largedir.c calls
 * guest_main() after target_setup() when the target says kernel = uml):
 * it prints its one line and returns the exit status.
 *
 * The guest boots with the host's root read-only (hostfs) as its root,
 * so the largedir binary, mount, modprobe and mount.nfs are the host's.
 * Its init is the script below, written into the run directory; the
 * kernel command line carries only RUNDIR (no blanks allowed there), and
 * init reads the rest from RUNDIR/guest, one value a line (the output
 * directory, fstype, mount options, the NFS source, the modules to load,
 * networking yes or no, a disk yes or no, the largedir binary, the
 * host's name, which the guest takes so that its metadata names the
 * machine it ran on rather than "(none)"), and the
 * inner largedir's arguments from RUNDIR/args, one a line.  It mounts the
 * run directory and the output directory through hostfs at their host
 * paths (the only writable host paths; /run is a tmpfs of its own, and
 * the host's /tmp stays visible, read-only), loads the modules with
 * modprobe -d (the guest's modules are under /usr/lib/uml/modules; a
 * kernel that has them built in needs none, so a failed modprobe only
 * adds its message to a mount that fails), mounts the target on
 * /run/target and runs
 *	largedir -c CONF [the user's options] --kernel=uml --path=/run/target
 *	    -o OUT --label LABEL
 * so the inner run reads the same config (its metadata says config_file
 * and target_kind uml) and measures the mounted target.  It writes the
 * inner exit status into RUNDIR/status, or "setup: WHAT" when the guest
 * could not set up the target (exit EXIT_TARGET), or "init: WHAT" when
 * something else failed (exit 1), and halts.  The console goes to
 * OUT/LABEL.console.log.
 *
 * linux.uml runs in a session of its own, so that it and its helpers
 * (its process per guest address space, slirp) form one process group,
 * killed whole after the time limit (1.25 times the budget plus 300 s,
 * or the target key uml_grace).
 * A signal to largedir asks the guest to stop first (RUNDIR/stop, which
 * init polls and answers with SIGTERM to the inner largedir, so its
 * outputs say interrupted); a second signal, or a guest still there
 * 20 s later, gets the process group killed.
 */

#include <sys/stat.h>
#include <sys/types.h>
#include <sys/utsname.h>
#include <sys/wait.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/parse.h"
#include "base/sig.h"
#include "base/timing.h"
#include "base/util.h"
#include "record/output.h"
#include "record/results.h"
#include "run/guest.h"
#include "settings/config.h"
#include "target/target.h"
#include "target/uml.h"

#define MOUNT_POINT	"/run/target"
#define SLACK_NS	(300 * NS_PER_S)
#define POLL_NS		100000000L
#define GRACE_NS	(20 * NS_PER_S)	/* for the guest after a signal */
#define UML_MEM_DEFAULT_MIB	512ULL	/* without the key uml_mem */
#define MAX_ARGS	256
/*
 * What a UML kernel that predates hosts with a large XSAVE area (AMX)
 * says when it starts init there: Debian 12's 6.1 cannot run at all
 * (tests/uml/xstate-size.patch lets one built by make uml-kernel).
 */
#define FP_REGS_FAILED	"ptrace set fp regs failed"

static int	write_text(const char *, const char *);
static int	write_guest(const struct target *, const char *, char *);
static int	write_args(const struct target *, const char *, const char *,
		    const char *, int, char **, char *);
static pid_t	boot(const struct target *, const char *, char *);
static int	wait_guest(pid_t, const char *, uint64_t, int *);
static size_t	pass_on(const char *, FILE *);
static bool	console_says(const char *, const char *);
static int	verdict(const char *, const char *, const char *);
static void	out_dir(const struct config *, const char *, char *);
static void	prepare(const struct target *);
static void	smp_check(const struct target *, const char *);
static void	smp_said(const struct target *, const char *, const char *,
		    const char *);
static int	ended(const struct target *, const char *, const char *, int,
		    int, bool, uint64_t);

/* The guest's init (PID 1), written into the run directory. */
static const char init_text[] =
"#!/bin/sh\n"
"# largedir's init for a User-Mode Linux guest (written by src/run/guest.c).\n"
"PATH=/usr/sbin:/usr/bin:/sbin:/bin\n"
"export PATH\n"
"R=$RUNDIR\n"
"off() {\n"
"\tsync\n"
"\thalt -ff 2>/dev/null\n"
"\techo o > /proc/sysrq-trigger\n"
"\tsleep 10\n"
"}\n"
"# Say why the run stopped short (setup: the target; init: the rest).\n"
"say() {\n"
"\techo \"init: $1\"\n"
"\techo \"$1\" > \"$R/status\"\n"
"\toff\n"
"}\n"
"mount -t proc proc /proc || off\n"
"mount -t sysfs sys /sys || off\n"
"mount -t devtmpfs dev /dev 2>/dev/null\n"
"mount -t tmpfs run /run || off\n"
"mkdir -p \"$R\" && mount -t hostfs -o \"$R\" none \"$R\" || off\n"
"{ read -r OUT; read -r FSTYPE; read -r OPTS; read -r SRC; read -r MODS\n"
"  read -r NET; read -r DISK; read -r LD; read -r HOST\n"
"} < \"$R/guest\" ||\n"
"    say \"init: cannot read $R/guest\"\n"
"echo \"$HOST\" > /proc/sys/kernel/hostname\n"
"mkdir -p \"$OUT\" && mount -t hostfs -o \"$OUT\" none \"$OUT\" ||\n"
"    say \"init: cannot mount $OUT through hostfs\"\n"
"echo \"init: kernel $(uname -r), fstype $FSTYPE\"\n"
"mkdir -p /run/R/lib && ln -s /usr/lib/uml/modules /run/R/lib/modules ||\n"
"    say \"init: cannot make /run/R\"\n"
"# A module the kernel has built in needs no modprobe, which fails for\n"
"# want of its directory: the mount tells, and names what failed.\n"
"MODERR=\n"
"for m in $MODS; do\n"
"\tmodprobe -d /run/R \"$m\" 2> \"$R/modprobe.err\" ||\n"
"\t    MODERR=\"$MODERR; modprobe $m: $(head -n 1 \"$R/modprobe.err\")\"\n"
"done\n"
"if [ \"$NET\" = yes ]; then\n"
"\t{ ip link set lo up && ip addr add 10.0.2.15/24 dev eth0 &&\n"
"\t    ip link set eth0 up && ip route add default via 10.0.2.2; } ||\n"
"\t    say \"setup: cannot bring up eth0 (slirp)\"\n"
"fi\n"
"dev=largedir\n"
"if [ \"$DISK\" = yes ]; then\n"
"\tdev=/dev/ubda\n"
"\t[ -b $dev ] || say \"setup: no $dev in the guest\"\n"
"elif [ -n \"$SRC\" ]; then\n"
"\tdev=$SRC\n"
"fi\n"
"set --\n"
"[ -n \"$OPTS\" ] && set -- -o \"$OPTS\"\n"
"mkdir -p " MOUNT_POINT " || say \"init: mkdir " MOUNT_POINT "\"\n"
"if ! mount -t \"$FSTYPE\" \"$@\" \"$dev\" " MOUNT_POINT " 2> \"$R/mount.err\""
"; then\n"
"\tsay \"setup: mount -t $FSTYPE ${OPTS:+-o $OPTS }$dev " MOUNT_POINT
" failed: $(head -n 1 \"$R/mount.err\")$MODERR\"\n"
"fi\n"
"set --\n"
"while IFS= read -r a; do set -- \"$@\" \"$a\"; done < \"$R/args\"\n"
"# The host asks for a stop with RUNDIR/stop: largedir gets SIGTERM.\n"
"\"$LD\" \"$@\" > \"$R/stdout\" 2> \"$R/stderr\" &\n"
"ld=$!\n"
"( while [ ! -e \"$R/stop\" ]; do sleep 0.2; done; kill -TERM $ld ) &\n"
"w=$!\n"
"wait $ld\n"
"rc=$?\n"
"kill $w 2>/dev/null\n"
"echo \"init: largedir exit status $rc\"\n"
"umount " MOUNT_POINT " || echo \"init: umount " MOUNT_POINT " failed\"\n"
"echo \"$rc\" > \"$R/status\"\n"
"umount \"$OUT\"\n"
"off\n";

/* ===== Files for the guest ===== */

/* Write 'text' into the new file 'path'.  Return 0, or -1 with errno. */
static int
write_text(const char *path, const char *text)
{
	FILE	*fp;
	int	 saved;

	if ((fp = fopen(path, "wx")) == NULL)
		return -1;
	if (fputs(text, fp) == EOF) {
		saved = errno;
		(void)fclose(fp);
		errno = saved;
		return -1;
	}
	return fclose(fp) == EOF ? -1 : 0;
}

/*
 * RUNDIR/guest: what init reads (see the top of this file), for the
 * target 't' and the output directory 'out'.
 */
static int
write_guest(const struct target *t, const char *out, char *err)
{
	const struct target_conf	*tc = &t->conf;
	const char			*mods = "", *host;
	char				 self[PATH_MAX], *text, *path, *src;
	struct utsname			 u;
	ssize_t				 n;
	int				 rc;

	if ((n = readlink("/proc/self/exe", self, sizeof(self) - 1)) == -1)
		return util_syserr(err, "readlink /proc/self/exe");
	self[n] = '\0';
	src = xstrdup("");
	if (tc->source != NULL) {
		/* slirp: the host's loopback is 10.0.2.2 in the guest. */
		host = strncmp(tc->source, "127.0.0.1:", 10) == 0 ||
		    strncmp(tc->source, "localhost:", 10) == 0 ? "10.0.2.2" :
		    NULL;
		free(src);
		src = host == NULL ? xstrdup(tc->source) :
		    xasprintf("%s%s", host, strchr(tc->source, ':'));
		mods = strcmp(tc->fstype, "nfs4") == 0 ? "nfsv4" : "nfsv3";
	}
	if (uname(&u) == -1 || strchr(u.nodename, '\n') != NULL)
		(void)strcpy(u.nodename, "(none)");
	text = xasprintf("%s\n%s\n%s\n%s\n%s\n%s\n%s\n%s\n%s\n", out,
	    tc->fstype, tc->mount_options != NULL ? tc->mount_options : "",
	    src, mods, tc->source != NULL ? "yes" : "no", t->image != NULL ?
	    "yes" : "no", self, u.nodename);
	free(src);
	if (strchr(out, '\n') != NULL || strchr(self, '\n') != NULL) {
		free(text);
		return util_fail(err, EINVAL, "%s: a path with a newline", out);
	}
	path = xasprintf("%s/guest", t->rundir);
	rc = write_text(path, text);
	if (rc == -1)
		(void)util_syserr(err, "write %s", path);
	free(path);
	free(text);
	return rc;
}

/*
 * RUNDIR/args: the inner largedir's arguments, one a line: -c 'conf',
 * every option of 'argv' that is a setting (not -c, -o, --scratch,
 * --cleanup or a target key but the ones the file's target may take from
 * the command line), then the guest's target, -o 'out' and --label
 * 'label'.  GNU getopt has permuted 'argv' already; reading it again
 * finds the same options.
 */
static int
write_args(const struct target *t, const char *conf, const char *out,
    const char *label, int argc, char **argv, char *err)
{
	const struct config_opt	*o;
	struct option		*lo;
	char			 optstring[CONFIG_NSHORT], *text, *line, *p;
	int			 ch, idx, rc;
	size_t			 i;

	text = xasprintf("-c\n%s\n", conf);
	lo = config_getopt(optstring);
	opterr = 0;
	optind = 0;
	while ((ch = getopt_long(argc, argv, optstring, lo, &idx)) != -1) {
		o = NULL;
		for (i = 0; config_opt_at(i) != NULL; i++)
			if ((config_opt_at(i)->letter != 0 &&
			    ch == config_opt_at(i)->letter) ||
			    ch == 256 + (int)i)
				o = config_opt_at(i);
		if (o == NULL || (o->act != CONFIG_ACT_SET &&
		    o->act != CONFIG_ACT_TARGET) ||
		    strcmp(o->name, "output") == 0 ||
		    strcmp(o->name, "scratch") == 0 ||
		    strcmp(o->name, "kernel") == 0 ||
		    strcmp(o->name, "uml") == 0 ||
		    strcmp(o->name, "uml-grace") == 0 ||
		    strcmp(o->name, "uml-mem") == 0 ||
		    strcmp(o->name, "uml-cpus") == 0 ||
		    strcmp(o->name, "path") == 0)
			continue;
		if (optarg != NULL && strchr(optarg, '\n') != NULL) {
			free(text);
			free(lo);
			return util_fail(err, EINVAL, "--%s: a value with a "
			    "newline cannot reach the guest", o->name);
		}
		line = optarg != NULL ? xasprintf("--%s=%s\n", o->name,
		    optarg) : xasprintf("--%s\n", o->name);
		p = xasprintf("%s%s", text, line);
		free(text);
		free(line);
		text = p;
	}
	free(lo);
	optind = 0;
	p = xasprintf("%s--kernel=uml\n--path=" MOUNT_POINT "\n-o\n%s\n"
	    "--label\n%s\n", text, out, label);
	free(text);
	text = xasprintf("%s/args", t->rundir);
	if ((rc = write_text(text, p)) == -1)
		(void)util_syserr(err, "write %s", text);
	free(text);
	free(p);
	return rc;
}

/* ===== The guest ===== */

/*
 * Start 't''s UML kernel in a session of its own, its console into the
 * file 'log'.  Return its pid, or -1 with errno and a message in 'err'.
 */
static pid_t
boot(const struct target *t, const char *log, char *err)
{
	const char	*uml;
	char		*av[16];
	pid_t		 pid;
	int		 fd, n = 0, i;

	uml = t->conf.uml != NULL ? t->conf.uml : UML_DEFAULT;
	av[n++] = xstrdup(uml);
	av[n++] = xasprintf("mem=%lluM", (unsigned long long)(t->conf.uml_mem
	    != 0 ? t->conf.uml_mem >> 20 : UML_MEM_DEFAULT_MIB));
	if (t->conf.uml_cpus > 1)
		av[n++] = xasprintf("ncpus=%u", t->conf.uml_cpus);
	av[n++] = xstrdup("rootfstype=hostfs");
	av[n++] = xstrdup("rootflags=/");
	av[n++] = xstrdup("ro");
	av[n++] = xasprintf("init=%s/init", t->rundir);
	av[n++] = xasprintf("uml_dir=%s/uml", t->rundir);
	av[n++] = xstrdup("umid=largedir");
	av[n++] = xstrdup("con=null");
	av[n++] = xstrdup("con0=fd:0,fd:1");
	if (t->image != NULL)
		av[n++] = xasprintf("ubd0=%s", t->image);
	if (t->conf.source != NULL)
		av[n++] = xstrdup("eth0=slirp,," UML_SLIRP);
	av[n++] = xasprintf("RUNDIR=%s", t->rundir);
	av[n] = NULL;
	if ((pid = fork()) == -1) {
		(void)util_syserr(err, "fork");
	} else if (pid == 0) {
		(void)setsid();
		if ((fd = open("/dev/null", O_RDONLY)) == -1 ||
		    dup2(fd, 0) == -1)
			_exit(126);
		if ((fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644)) ==
		    -1 || dup2(fd, 1) == -1 || dup2(fd, 2) == -1)
			_exit(126);
		(void)signal(SIGINT, SIG_DFL);
		(void)signal(SIGTERM, SIG_DFL);
		(void)signal(SIGHUP, SIG_DFL);
		(void)signal(SIGPIPE, SIG_DFL);
		execv(uml, av);
		_exit(127);
	}
	for (i = 0; i < n; i++)
		free(av[i]);
	return pid;
}

/*
 * Wait for the guest 'pid' until it ends, a signal comes (sig.c) or
 * 'limit_ns' pass.  On the first signal, create the file 'stop' (the
 * guest's init passes SIGTERM on to largedir, which marks its outputs
 * interrupted and ends) and give the guest GRACE_NS more; on a second
 * signal, after that or on the time limit, kill its process group.
 * Return 0 when it ended by itself, 1 on the time limit, 2 on a signal;
 * '*wstatus' is its wait status.
 */
static int
wait_guest(pid_t pid, const char *stop, uint64_t limit_ns, int *wstatus)
{
	struct timespec	ts = { 0, POLL_NS };
	uint64_t	t0_ns = timing_now(), stop_ns = 0;
	pid_t		w;
	int		why = 0, fd;

	*wstatus = 0;
	for (;;) {
		if ((w = waitpid(pid, wstatus, WNOHANG)) == pid ||
		    (w == -1 && errno != EINTR))
			break;
		if (sig_count > 0 && stop_ns == 0) {
			why = 2;
			stop_ns = timing_now();
			if ((fd = open(stop, O_WRONLY | O_CREAT | O_CLOEXEC,
			    0644)) != -1)
				(void)close(fd);
		}
		if (sig_count > 1 || (stop_ns != 0 && timing_now() - stop_ns >
		    GRACE_NS) || (why == 0 && timing_now() - t0_ns >
		    limit_ns)) {
			why = why == 0 ? 1 : why;
			(void)kill(-pid, SIGKILL);
			while (waitpid(pid, wstatus, 0) == -1 && errno == EINTR)
				;
			break;
		}
		(void)nanosleep(&ts, NULL);
	}
	uml_kill_group(pid);	/* its helpers, if any are left */
	return why;
}

/*
 * Copy the file 'path' (the inner run's stdout or stderr) to 'fp';
 * return how many bytes.
 */
static size_t
pass_on(const char *path, FILE *fp)
{
	FILE	*in;
	char	 buf[4096];
	size_t	 n, total = 0;

	if ((in = fopen(path, "r")) == NULL)
		return 0;
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		total += fwrite(buf, 1, n, fp);
	(void)fclose(in);
	(void)fflush(fp);
	return total;
}

/*
 * Whether the console log 'log' has a line that holds 'what'.
 */
static bool
console_says(const char *log, const char *what)
{
	FILE	*fp;
	char	 line[512];
	bool	 yes = false;

	if ((fp = fopen(log, "r")) == NULL)
		return false;
	while (!yes && fgets(line, sizeof(line), fp) != NULL)
		yes = strstr(line, what) != NULL;
	(void)fclose(fp);
	return yes;
}

/*
 * The exit status the guest's RUNDIR/status 'path' gives: the inner
 * largedir's, EXIT_TARGET for "setup: ...", 1 for "init: ..." or none
 * (with one line naming the config 'conf' and the console 'log').
 */
static int
verdict(const char *path, const char *conf, const char *log)
{
	FILE		*fp;
	char		 line[LD_ERRLEN];
	const char	*errstr;
	long long	 v;

	if ((fp = fopen(path, "r")) == NULL ||
	    fgets(line, sizeof(line), fp) == NULL) {
		if (fp != NULL)
			(void)fclose(fp);
		if (console_says(log, FP_REGS_FAILED)) {
			warnx("%s: this UML kernel cannot run on this CPU: it "
			    "cannot set a process's floating-point registers "
			    "(\"%s\": the host's XSAVE area, with AMX, is "
			    "larger than it knows); build one that can with "
			    "make uml-kernel (uml = PATH); see %s", conf,
			    FP_REGS_FAILED, log);
			return EXIT_TARGET;
		}
		warnx("%s: the guest ended without running largedir (a panic "
		    "or a crash?); see %s", conf, log);
		return 1;
	}
	(void)fclose(fp);
	line[strcspn(line, "\n")] = '\0';
	v = parse_num(line, 0, 255, &errstr);
	if (errstr == NULL)
		return (int)v;
	if (strncmp(line, "setup: ", 7) == 0) {
		warnx("%s: the guest cannot set up the target: %s", conf,
		    line + 7);
		return EXIT_TARGET;
	}
	warnx("%s: the guest failed: %s; see %s", conf, line, log);
	return 1;
}

/* ===== The run ===== */

/*
 * Run the measurement of the target 't' (set up by target_setup(), with
 * kernel = uml) inside a UML guest, with the settings 'cfg' of the
 * command line 'argc', 'argv' and the config file 'conf'.  The outputs
 * are the inner run's, in cfg->output (or results/STAMP-LABEL) and under
 * the label the run would have.  Print one line when the guest does not
 * get as far as largedir's end, and return the exit status: the inner
 * largedir's; EXIT_TARGET when the guest cannot set up the target; 1
 * when it panics, dies or runs out of time; 128 + the signal number when
 * one stops it.  Leaves the teardown of 't' to the caller.
 */
int
guest_main(const struct target *t, const struct config *cfg, const char *conf,
    int argc, char **argv)
{
	const char	*label;
	char		 errbuf[LD_ERRLEN], abs_conf[PATH_MAX], out[PATH_MAX];
	char		*path, *log;
	uint64_t	 limit_ns;
	pid_t		 pid;
	int		 why, ws, rc;
	bool		 said;

	label = cfg->label != NULL ? cfg->label : t->conf.label != NULL ?
	    t->conf.label : t->conf.fstype;
	out_dir(cfg, label, out);
	if (realpath(conf, abs_conf) == NULL)
		err(1, "%s", conf);
	smp_check(t, conf);
	prepare(t);
	if (write_guest(t, out, errbuf) == -1 || write_args(t, abs_conf, out,
	    label, argc, argv, errbuf) == -1)
		errx(1, "%s", errbuf);
	log = xasprintf("%s/%s.console.log", out, label);
	if ((pid = boot(t, log, errbuf)) == -1)
		errx(1, "%s", errbuf);
	limit_ns = cfg->budget_ns + cfg->budget_ns / 4 +
	    (t->conf.uml_grace_ns != 0 ? t->conf.uml_grace_ns : SLACK_NS);
	path = xasprintf("%s/stop", t->rundir);
	why = wait_guest(pid, path, limit_ns, &ws);
	free(path);
	path = xasprintf("%s/stdout", t->rundir);
	pass_on(path, stdout);
	free(path);
	path = xasprintf("%s/stderr", t->rundir);
	said = pass_on(path, stderr) > 0;
	free(path);
	rc = ended(t, conf, log, why, ws, said, limit_ns);
	if (rc == 0)
		smp_said(t, conf, out, label);
	free(log);
	return rc;
}

/*
 * uml_cpus above 1: refuse a kernel of 't' that runs one CPU (exit
 * EXIT_TARGET, one line naming 'conf').
 */
static void
smp_check(const struct target *t, const char *conf)
{
	char	errbuf[LD_ERRLEN];

	if (uml_cpus_check(t->conf.uml != NULL ? t->conf.uml : UML_DEFAULT,
	    t->conf.uml_cpus, errbuf) == -1)
		errx(EXIT_TARGET, "%s: %s", conf, errbuf);
}

/*
 * After a run with uml_cpus above 1: warn when the guest's outputs
 * ('out'/'label'.out) say it had another number of CPUs online (a kernel
 * built without CONFIG_SMP ignores ncpus=).
 */
static void
smp_said(const struct target *t, const char *conf, const char *out,
    const char *label)
{
	struct results_target	 rt;
	char			 errbuf[LD_ERRLEN];
	const char		*got = NULL;
	int			 dfd;

	if (t->conf.uml_cpus <= 1)
		return;
	if ((dfd = open(out, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) != -1 &&
	    results_read_one(&rt, dfd, out, label, errbuf) == 0)
		got = results_meta(&rt, "cpus_online");
	if (got == NULL || strtoul(got, NULL, 10) != t->conf.uml_cpus)
		warnx("%s: uml_cpus %u, but the guest had %s CPUs online "
		    "(%s/%s.out; a kernel without CONFIG_SMP ignores ncpus=)",
		    conf, t->conf.uml_cpus, got != NULL ? got : "?", out,
		    label);
	if (dfd != -1) {
		results_target_free(&rt);
		(void)close(dfd);
	}
}

/*
 * The directory the inner run's outputs go to, made now, its real path
 * into 'out' (PATH_MAX bytes): cfg->output, or results/STAMP-'label'.
 * Exit 2 if it holds outputs of that label already, as the inner run
 * would refuse them, after the boot.
 */
static void
out_dir(const struct config *cfg, const char *label, char *out)
{
	struct timespec	 ts;
	struct stat	 sb;
	struct tm	 tm;
	char		 stamp[32], *dir, *path;
	size_t		 i;

	if (clock_gettime(CLOCK_REALTIME, &ts) == -1 ||
	    gmtime_r(&ts.tv_sec, &tm) == NULL)
		err(1, "clock_gettime");
	(void)strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
	dir = cfg->output != NULL ? xstrdup(cfg->output) :
	    xasprintf("results/%s-%s", stamp, label);
	if (util_mkdir_p(dir) == -1 || realpath(dir, out) == NULL)
		err(1, "mkdir %s", dir);
	free(dir);
	for (i = 0; output_writers[i].name != NULL; i++) {
		/* As the inner run would refuse them, after the boot. */
		path = xasprintf("%s/%s.%s", out, label, output_writers[i].ext);
		if (lstat(path, &sb) == 0)
			errx(2, "%s exists: choose another -o or --label",
			    path);
		free(path);
	}
}

/*
 * The guest's init and its uml/ directory in the run directory of 't',
 * whose name must do on the kernel command line (exit 2 if not).
 */
static void
prepare(const struct target *t)
{
	char	*path;

	if (strpbrk(t->rundir, " \t\n") != NULL)
		errx(2, "%s: a run directory with blanks cannot be named on "
		    "the guest's kernel command line: choose another "
		    "--scratch", t->rundir);
	path = xasprintf("%s/init", t->rundir);
	if (write_text(path, init_text) == -1 || chmod(path, 0755) == -1)
		err(1, "write %s", path);
	free(path);
	path = xasprintf("%s/uml", t->rundir);
	if (mkdir(path, 0700) == -1)
		err(1, "mkdir %s", path);
	free(path);
}

/*
 * The exit status of a guest that ended as wait_guest() says ('why', its
 * wait status 'ws', within 'limit_ns'), with one line when it did not
 * get as far as largedir's end ('said': the inner run wrote on its
 * stderr; 'conf' the config, 'log' the console log of 't').
 */
static int
ended(const struct target *t, const char *conf, const char *log, int why,
    int ws, bool said, uint64_t limit_ns)
{
	char	*path;
	int	 rc;

	if (why == 2) {
		/* A run the guest stopped has said so (its stderr). */
		if (!WIFEXITED(ws) || WEXITSTATUS(ws) != 0 || !said)
			warnx("%s: interrupted by SIG%s: the guest %s; see %s",
			    conf, sigabbrev_np(sig_first), WIFEXITED(ws) &&
			    WEXITSTATUS(ws) == 0 ? "stopped" : "was killed",
			    log);
		return 128 + sig_first;
	}
	if (why == 1) {
		warnx("%s: the guest ran out of time (%.0f s) and was killed; "
		    "see %s", conf, (double)limit_ns / 1e9, log);
		return 1;
	}
	if (WIFEXITED(ws) && WEXITSTATUS(ws) == 127) {
		warnx("%s: cannot run %s", conf, t->conf.uml != NULL ?
		    t->conf.uml : UML_DEFAULT);
		return EXIT_TARGET;
	}
	path = xasprintf("%s/status", t->rundir);
	rc = verdict(path, conf, log);
	free(path);
	return rc;
}
