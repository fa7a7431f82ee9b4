/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * meta: see meta.h.  The document's metadata keep the order in which
 * they are set here, and the outputs keep it (JSON keys included): a new
 * key goes where it belongs in that order, and none moves.
 */

#include <sys/stat.h>
#include <sys/types.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/sig.h"
#include "base/timing.h"
#include "base/util.h"
#include "engine/clients.h"
#include "gitid.h"	/* $(O)/gitid.h, from the Makefile */
#include "machine/probe.h"
#include "report/outcome.h"
#include "run/meta.h"
#include "verbs/suite.h"

static int	run_dir(struct run *, struct setup_say *);
static void	describe(struct run *, int, char **);
static void	columns(struct run *, struct setup_say *);
static void	copy_conf(struct run *);
static int	put_text(FILE *, const void *);

/*
 * Name the run directory, refuse to overwrite earlier results, and fill
 * the document's metadata, settings and columns ('argc' and 'argv' are
 * the command line, as recorded).  Nothing is written yet (meta_open()).
 * Return 0, maybe with a warning in 's', or -1 with a usage error.
 */
int
meta_init(struct run *r, int argc, char **argv, struct setup_say *s)
{
	if (run_dir(r, s) == -1)
		return -1;
	describe(r, argc, argv);
	columns(r, s);
	return 0;
}

/*
 * The start time, and the run directory: -o, else results/STAMP-LABEL.
 * Its files must not exist (a dangling symbolic link counts), and -o
 * names a directory, as DIR does.
 */
static int
run_dir(struct run *r, struct setup_say *s)
{
	struct timespec	 ts;
	struct stat	 sb;
	struct tm	 tm;
	char		 dstamp[32], *f;
	size_t		 i;
	int		 rc = 0;

	if (clock_gettime(CLOCK_REALTIME, &ts) == -1 ||
	    gmtime_r(&ts.tv_sec, &tm) == NULL)
		return setup_tell(s, 1, "clock_gettime: %s", strerror(errno));
	(void)strftime(r->stamp, sizeof(r->stamp), "%Y-%m-%dT%H:%M:%SZ", &tm);
	(void)strftime(dstamp, sizeof(dstamp), "%Y%m%dT%H%M%SZ", &tm);
	r->outdir = r->cfg.output != NULL ? xstrdup(r->cfg.output) :
	    xasprintf("results/%s-%s", dstamp, r->label);
	for (i = 0; rc == 0 && output_writers[i].name != NULL; i++) {
		f = xasprintf("%s/%s.%s", r->outdir, r->label,
		    output_writers[i].ext);
		if (lstat(f, &sb) == 0)
			rc = setup_tell(s, EXIT_USAGE, "%s exists: choose "
			    "another -o or --label", f);
		free(f);
	}
	if (rc == 0 && (stat(r->outdir, &sb) == 0 ? !S_ISDIR(sb.st_mode) :
	    errno == ENOTDIR))
		rc = setup_tell(s, EXIT_USAGE, "-o %s: not a directory (the "
		    "run directory, made if need be)", r->outdir);
	return rc;
}

/* The document's metadata and settings, in the order they are kept. */
static void
describe(struct run *r, int argc, char **argv)
{
	char	*cmd, line[512];
	char	*f;

	output_doc_init(&r->doc);
	r->doc.largedir = xstrdup(LD_VERSION);
	cmd = util_quote_argv(argc, argv);
	kv_set(&r->doc.meta, "version", "%s", LD_VERSION);
	kv_set(&r->doc.meta, "git", "%s", LD_GIT);
	kv_set(&r->doc.meta, "command", "%s", cmd);
	free(cmd);
	kv_set(&r->doc.meta, "label", "%s", r->label);
	kv_set(&r->doc.meta, "start_utc", "%s", r->stamp);
	kv_set(&r->doc.meta, "seed", "%" PRIu64, r->cfg.seed);
	if (r->cfg.preset != CONFIG_PRESET_CLASSIC)
		kv_set(&r->doc.meta, "preset", "%s", r->cfg.preset_note);
	if ((f = getenv(SUITE_COMMAND_ENV)) != NULL && *f != '\0')
		kv_set(&r->doc.meta, "suite_command", "%s", f);
	kv_set(&r->doc.meta, "dir", "%s", r->dir);
	if ((r->ops->flags & BACKEND_LOCAL) != 0)
		probe_target(r->dir, &r->doc.meta);
	if (r->conf_path != NULL) {
		kv_set(&r->doc.meta, "config_file", "%s",
		    r->conf_path);
		if (r->cfg.overrides != NULL)	/* --source, ... */
			kv_set(&r->doc.meta, "target_overrides", "%s",
			    r->cfg.overrides);
		target_meta(&r->target, &r->doc.meta);
	}
	probe_system(&r->doc.meta);
	record_describe(&r->doc.meta);
	config_dump(&r->cfg, &r->doc.config);
	perf_describe(&r->perf, line, sizeof(line));
	kv_set(&r->doc.meta, "events", "%s", line);
	if (*perf_unavailable(&r->perf) != '\0')
		kv_set(&r->doc.meta, "events_unavailable", "%s",
		    perf_unavailable(&r->perf));
	record_describe_cold(&r->doc.meta, r->cfg.cold);
}

/*
 * The columns: the phases', then the events', then the backend's
 * counters (its table for this target: on a kernel NFS mount, posix
 * counts what the client sent; a warning in 's' if it cannot), then, of
 * several clients, their rates.
 */
static void
columns(struct run *r, struct setup_say *s)
{
	const char	*extra[RECORD_MAX_EXTRA];
	char		 line[512];
	size_t		 i, nextra;

	r->ops = backend_refine(r->ops, r->dir, &r->doc.meta, line);
	if (*line != '\0')
		(void)setup_tell(s, 0, "warning: no RPC counts: %s", line);
	r->round.nperf = perf_nvalues(&r->perf);
	for (i = 0; i < r->round.nperf; i++)
		extra[i] = perf_value_name(&r->perf, i);
	r->round.ncounters = backend_ncounters(r->ops);
	nextra = r->round.nperf;
	for (i = 0; i < r->round.ncounters && nextra < RECORD_MAX_EXTRA; i++)
		extra[nextra++] = r->ops->counter_names[i];
	r->round.ncounters = nextra - r->round.nperf;
	for (i = 0; i < clients_ncolumns(r->cfg.clients); i++)
		extra[nextra++] = clients_column(r->cfg.clients, i);
	record_columns(&r->doc, r->cfg.phases, r->cfg.nphases, extra, nextra);
}

/*
 * Make the run directory and write the outputs a first time, once the
 * work directory and the round are set up: from here on every way out
 * leaves them, with the rounds measured and why the run ended.  Return
 * 0, or -1 with 's' (exit status 1).
 */
int
meta_open(struct run *r, struct setup_say *s)
{
	if (util_mkdir_p(r->outdir) == -1)
		return setup_tell(s, 1, "mkdir %s: %s", r->outdir,
		    strerror(errno));
	if ((r->outfd = open(r->outdir, O_RDONLY | O_DIRECTORY |
	    O_CLOEXEC)) == -1)
		return setup_tell(s, 1, "%s: %s", r->outdir, strerror(errno));
	copy_conf(r);
	return meta_flush(r, s);
}

/* What copy_conf() writes: the config's text. */
static int
put_text(FILE *fp, const void *arg)
{
	return fputs(arg, fp) == EOF ? -1 : 0;
}

/*
 * The config the run was set up from (-c FILE), as LABEL.conf beside its
 * outputs, so that the results directory says what its target was; the
 * page links it.  A config that cannot be read again is said, and the
 * run goes on.
 */
static void
copy_conf(struct run *r)
{
	char	 buf[65536], err[LD_ERRLEN], *name;
	ssize_t	 got;
	size_t	 len = 0;
	int	 fd;

	if (r->conf_path == NULL)
		return;
	if ((fd = util_open_regular(AT_FDCWD, r->conf_path, true)) == -1) {
		warn("%s", r->conf_path);
		return;
	}
	while (len + 1 < sizeof(buf) && (got = read(fd, buf + len,
	    sizeof(buf) - 1 - len)) > 0)
		len += (size_t)got;
	(void)close(fd);
	buf[len] = '\0';
	name = xasprintf("%s.conf", r->label);
	if (output_write_file(r->outfd, name, put_text, buf, NULL, err) == -1)
		warnx("%s", err);
	free(name);
}

/*
 * Rewrite all outputs, with the run's peak memory and time so far.
 * Return 0 (also before meta_open()), or -1 with 's' (exit status 1):
 * the results are gone, and the outputs then say so if they can; no
 * other rewrite is tried.
 */
int
meta_flush(struct run *r, struct setup_say *s)
{
	struct timing_usage	u;
	char			errbuf[LD_ERRLEN], line[LD_ERRLEN];

	if (r->outfd == -1)
		return 0;
	if (timing_usage(&u) == 0)
		kv_set(&r->doc.meta, "peak_rss_kib", "%" PRIu64,
		    u.maxrss_kib);
	kv_set(&r->doc.meta, "elapsed_s", "%.3f",
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
		r->outfd = -1;		/* no other try */
		return setup_tell(s, 1, "%s", errbuf);
	}
	return 0;
}

/*
 * The round stopped with a phase (r->round.stop says why): record why in
 * the document (not written yet) and return the exit status
 * (outcome_of()).
 */
int
meta_stop(struct run *r)
{
	const struct round_stop	*st = &r->round.stop;
	struct outcome_cause	 cause;
	struct outcome		 out;
	char			 count[32];

	cause.signo = sig_count > 0 ? sig_first : 0;
	cause.memory_limit = st->memory_limit;
	cause.vanished = st->vanished;
	cause.listing = st->listing;
	outcome_of(st->err, &cause, &out);
	util_fmt_count(count, sizeof(count), st->n);
	if (st->err == ENOMEM && st->memory_limit)
		kv_set(&r->doc.meta, "oom", "%s in round %u (n=%s), "
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
	return out.status;
}

/*
 * Leaving while the run is still running (through err(3)): say so in the
 * outputs, if they exist.  Return 0, or -1 with a message in 'err'
 * (LD_ERRLEN bytes).
 */
int
meta_failed(struct run *r, char *err)
{
	if (r->outfd == -1 || r->doc.status != OUTPUT_RUNNING)
		return 0;
	r->doc.status = OUTPUT_FAILED;
	if (r->doc.stop_reason == NULL)
		r->doc.stop_reason = xstrdup("largedir failed; see its error "
		    "message");
	return output_flush(r->outfd, r->label, &r->doc, r->outids, err);
}
