/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * compare: largedir compare [options] A B, the same work on two set-ups.
 * A front-end module, the verb: it reads the options and the two
 * set-ups, checks that both can be set up, runs the pairs
 * (comparerun.c: every repetition is a largedir run of its own, one
 * round of n files with its own set-up and teardown, so a config with
 * mkfs gets a new filesystem each time, in the order A B, B A, ...),
 * prints the table (the arithmetic is pairs.c's), and writes the
 * outputs (compareout.c), the graphs and the page (comparepage.c).
 */

#include <sys/random.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <err.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/sig.h"
#include "base/util.h"
#include "engine/workload.h"
#include "gitid.h"	/* $(O)/gitid.h, from the Makefile */
#include "page/comparepage.h"
#include "report/pairs.h"
#include "report/report.h"
#include "settings/config.h"
#include "target/target_conf.h"
#include "verbs/compare.h"
#include "verbs/compareout.h"
#include "verbs/comparerun.h"
#include "verbs/plot.h"

#define COMPARE_N	100000	/* files of each run, unless -n */
#define COMPARE_PAIRS	3	/* unless --repeat */

static bool	options(struct compare_run *, int, char **,
		    struct config_args *);
static void	pass_on(struct compare_run *, const struct config_args *);
static void	side_init(struct compare_run_side *, const char *,
		    const char *);
static void	name_sides(struct compare_run *, const struct config_args *);
static int	check_setups(struct compare_run *);
static int	run_pairs(struct compare_run *);
static int	finish(struct compare_run *, const char *, int);
static int	usage(FILE *);
static char	*command_line(int, char **);
static void	write_page(const struct compare_run *, const char *);
static void	print_table(const struct compare_run *);

/*
 * Read the options of largedir compare ('argc' words of 'argv') into
 * cm->cfg and 'a': exit 2 with one line on a usage error.  Return false
 * when they asked only for -h or -V, which is answered then.
 */
static bool
options(struct compare_run *cm, int argc, char **argv, struct config_args *a)
{
	char	errbuf[LD_ERRLEN];

	if (!report_parsed(config_parse_args(&cm->cfg, NULL, CONFIG_COMPARE,
	    argc, argv, a, errbuf), errbuf, usage))
		return false;
	if (config_check(&cm->cfg, errbuf) == -1)
		report_usage("%s", errbuf);
	if (a->nrest != 2)
		report_usage("compare: name two configs or directories, A and "
		    "B (got %d)", a->nrest);
	return true;
}

/*
 * What every run gets of the options 'a' gave (compare sets n, the
 * repeat and the seed), and the comparison's n, directories, pairs and
 * seed.
 */
static void
pass_on(struct compare_run *cm, const struct config_args *a)
{
	uint64_t	seed;
	size_t		k;
	bool		given_n = false, given_r = false;

	for (k = 0; k < a->ngiven; k++) {
		const char	*name = a->given[k].opt->name;

		if (strcmp(name, "start") == 0 || strcmp(name, "dirs") == 0)
			given_n = true;
		else if (strcmp(name, "repeat") == 0)
			given_r = true;
		if (strcmp(name, "start") == 0 || strcmp(name, "dirs") == 0 ||
		    strcmp(name, "repeat") == 0 || strcmp(name, "seed") == 0 ||
		    strcmp(name, "quiet") == 0)
			continue;
		cm->pass[cm->npass++] = a->given[k].value != NULL ?
		    xasprintf("--%s=%s", name, a->given[k].value) :
		    xasprintf("--%s", name);
	}
	cm->n = given_n ? cm->cfg.start : COMPARE_N;
	if (cm->cfg.layout == CONFIG_LAYOUT_TREE)
		cm->dirs = (cm->n + cm->cfg.files_per_dir - 1) /
		    cm->cfg.files_per_dir;
	cm->pairs = given_r ? cm->cfg.repeat : COMPARE_PAIRS;
	if (cm->pairs > PAIRS_MAX)
		report_usage("compare: --repeat: at most %d pairs", PAIRS_MAX);
	seed = cm->cfg.seed;
	if (!cm->cfg.seed_set && getrandom(&seed, sizeof(seed), 0) !=
	    sizeof(seed))
		err(1, "getrandom");
	(void)snprintf(cm->seed, sizeof(cm->seed), "%" PRIu64, seed);
	(void)snprintf(cm->nbuf, sizeof(cm->nbuf), "%" PRIu64, cm->n);
}

/*
 * The two sides the options 'a' name, labelled apart, and the
 * comparison's directory (results/STAMP-compare unless -o) with its
 * runs/.
 */
static void
name_sides(struct compare_run *cm, const struct config_args *a)
{
	char		label[80], stamp[32];
	unsigned	i;
	time_t		now;

	side_init(&cm->side[0], a->rest[0], "A");
	side_init(&cm->side[1], a->rest[1], "B");
	if (strcmp(cm->side[0].label, cm->side[1].label) == 0)
		for (i = 0; i < 2; i++) {
			(void)snprintf(label, sizeof(label), "%c-%s", "AB"[i],
			    cm->side[i].label);
			(void)snprintf(cm->side[i].label,
			    sizeof(cm->side[i].label), "%.56s", label);
		}
	cm->out = cm->cfg.output;
	if (cm->out == NULL) {
		now = time(NULL);
		(void)strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ",
		    gmtime(&now));
		cm->out = xasprintf("results/%s-compare", stamp);
	}
	cm->runs = xasprintf("%s/runs", cm->out);
}

/*
 * Both set-ups first: one that cannot be made, no measurement.  Return
 * 0 when both can be set up; else the exit status of the comparison (that
 * of the set-up that failed, or 128 + the signal that came).
 */
static int
check_setups(struct compare_run *cm)
{
	const struct compare_run_side	*sd;
	unsigned			 i;
	int				 status = 0;

	for (i = 0; i < 2 && sig_count == 0; i++) {
		sd = &cm->side[i];
		(void)fflush(stdout);
		if (compare_run_setup(cm, sd, &status) == -1)
			err(1, "running largedir");
		if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
			printf("compare: %c is %s (%s): it can be set up\n",
			    "AB"[i], sd->label, sd->arg);
			continue;
		}
		if (sig_count > 0)
			break;
		warnx("compare: %c (%s) cannot be set up, as said above: "
		    "nothing measured", "AB"[i], sd->arg);
		return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
	}
	if (sig_count > 0)
		return 128 + sig_first;
	return 0;
}

/*
 * Run the pairs, until a signal comes or a target cannot be set up.
 * Return 0 when every run completed, else the status of the last that
 * did not (EXIT_TARGET, EXIT_SUITE).
 */
static int
run_pairs(struct compare_run *cm)
{
	unsigned	i;
	int		rc, status = 0;

	if (util_mkdir_p(cm->runs) == -1)
		err(1, "mkdir %s", cm->runs);
	cm->ns = xreallocarray(NULL, 2 * (size_t)cm->pairs * PHASE_COUNT,
	    sizeof(*cm->ns));
	cm->ws = xreallocarray(NULL, 2 * (size_t)cm->pairs, sizeof(*cm->ws));
	cm->why = xreallocarray(NULL, 2 * (size_t)cm->pairs,
	    sizeof(*cm->why));
	memset(cm->why, 0, 2 * (size_t)cm->pairs * sizeof(*cm->why));
	for (i = 0; i < 2 * cm->pairs && sig_count == 0; i++)
		if ((rc = compare_run_one(cm, i)) != 0) {
			status = rc;
			if (rc == EXIT_TARGET)
				break;
		}
	return status;
}

/*
 * After the runs: the table, the outputs, the graphs and the page, for
 * the command line 'cmd'.  Return 'status', or 1 if it was 0 and the
 * outputs could not be written.
 */
static int
finish(struct compare_run *cm, const char *cmd, int status)
{
	char	errbuf[LD_ERRLEN], line[160];
	size_t	k;

	print_table(cm);
	if (compare_out_write(cm, cmd, errbuf) == -1) {
		warnx("compare: %s", errbuf);
		if (status == 0)
			status = 1;
	} else
		printf("results: %s/compare.out (.csv, .json)\n", cm->out);
	/* The graphs are extras: the table has said it all. */
	if (sig_count == 0 && cm->nrun > 0) {
		line[0] = '\0';
		for (k = 0; k < cm->cfg.nphases; k++)
			(void)snprintf(line + strlen(line), sizeof(line) -
			    strlen(line), "%s%s", k > 0 ? " " : "",
			    phase_name(cm->cfg.phases[k]));
		if (plot_compare(cm->out, cm->side[0].label, cm->side[1].label,
		    line) == 0)
			printf("graphs: %s/compare-PHASE.png (and .svg)\n",
			    cm->out);
	}
	if (cm->nrun > 0)
		write_page(cm, cmd);
	if (fflush(stdout) == EOF)
		err(1, "stdout");
	return status;
}

/*
 * largedir compare [options] A B: check that both set-ups can be made,
 * then run the pairs, print the table and write the outputs.  Exits 0
 * when every run completed, EXIT_TARGET when a set-up failed (before
 * anything was measured, or in the middle: the runs so far are kept),
 * EXIT_SUITE when a run did not complete, 128 + signal when interrupted
 * (the signal is passed on to the run under way, which cleans up).
 */
int
compare_main(int argc, char **argv)
{
	struct compare_run	 cm;
	struct config_args	 a;
	char			*cmd;
	int			 status;

	memset(&cm, 0, sizeof(cm));
	config_init(&cm.cfg);
	if (!options(&cm, argc, argv, &a)) {
		config_free(&cm.cfg);
		return 0;
	}
	pass_on(&cm, &a);
	name_sides(&cm, &a);
	if (sig_setup(false) == -1)
		err(1, "sigaction");
	if ((status = check_setups(&cm)) != 0) {
		compare_run_free(&cm);
		return status;
	}
	status = run_pairs(&cm);
	cmd = command_line(argc, argv);
	status = finish(&cm, cmd, status);
	free(cmd);
	compare_run_free(&cm);
	if (sig_count > 0)
		return 128 + sig_first;
	return status;
}

/* largedir compare -h; returns 0, or -1 if it could not be printed. */
static int
usage(FILE *fp)
{
	return fprintf(fp, "usage: largedir compare [options] A B\n\n"
	    "A and B are two target configs (configs/NAME.conf) or two "
	    "directories.\nEach repetition is one run of n files on a "
	    "target set up afresh, in the\norder A B, B A, A B, ...; the "
	    "table says per phase how B fares against A.\n\n"
	    "  -n, --start count   files of each run (%d)\n"
	    "      --dirs count    with --layout tree: directories of each "
	    "run\n"
	    "  -r, --repeat count  pairs of runs (%d)\n"
	    "  -o, --output path   the comparison's directory "
	    "(results/STAMP-compare)\n"
	    "  -s, --seed seed     seed of every run (random)\n\n"
	    "The options that describe the work (--phases, --layout, "
	    "--file-size, --fsync,\n--names, --cold, --sync, ...; see "
	    "largedir -h) are "
	    "passed on to every run.\nNot taken: what sets rounds or budgets "
	    "(-b, -g, -N, --warmup) and target\nkeys (put them in the "
	    "configs).\n", COMPARE_N, COMPARE_PAIRS) < 0 ? -1 : 0;
}

/*
 * Side 's' is 'arg': a directory, labelled by its last component, or a
 * config file, read now (exit 2 with one line if it is neither), labelled
 * by its label or fstype; 'fallback' where that gives nothing.
 */
static void
side_init(struct compare_run_side *s, const char *arg, const char *fallback)
{
	struct config		 c;
	struct target_conf	 tc;
	struct stat		 st;
	const char		*base, *l;
	char			 errbuf[LD_ERRLEN];
	size_t			 i, k = 0;

	memset(s, 0, sizeof(*s));
	s->arg = arg;
	if (stat(arg, &st) == 0 && S_ISDIR(st.st_mode)) {
		s->dir = true;
		base = strrchr(arg, '/') != NULL && strrchr(arg, '/')[1] !=
		    '\0' ? strrchr(arg, '/') + 1 : arg;
		for (i = 0; base[i] != '\0' && k + 1 < sizeof(s->label);
		    i++)
			if ((base[i] >= 'a' && base[i] <= 'z') || (base[i] >=
			    'A' && base[i] <= 'Z') || (base[i] >= '0' &&
			    base[i] <= '9') || base[i] == '_' || base[i] ==
			    '-' || (base[i] == '.' && k > 0))
				s->label[k++] = base[i];
		s->label[k] = '\0';
		if (k == 0)
			(void)snprintf(s->label, sizeof(s->label), "%s",
			    fallback);
		return;
	}
	config_init(&c);
	target_conf_init(&tc);
	if (config_load(&c, &tc, arg, errbuf) == -1)
		report_usage("compare: %s", errbuf);
	l = tc.label != NULL ? tc.label : tc.fstype != NULL ? tc.fstype :
	    fallback;
	(void)snprintf(s->label, sizeof(s->label), "%s", l);
	target_conf_free(&tc);
	config_free(&c);
}

/* "largedir compare ARG...", as a shell would need it typed (allocated). */
static char *
command_line(int argc, char **argv)
{
	char	*q = util_quote_argv(argc, argv), *cmd;

	cmd = xasprintf("largedir %s", q);	/* argv[0] is "compare" */
	free(q);
	return cmd;
}

/*
 * The comparison's page (comparepage.c) from the repetitions that ran,
 * with the command line 'cmd'; a failure to write it is said and is no
 * error.
 */
static void
write_page(const struct compare_run *cm, const char *cmd)
{
	struct compare_page	 cp;
	struct compare_failure	*fail;
	char			 errbuf[LD_ERRLEN];
	size_t			 i;
	unsigned		 r;

	memset(&cp, 0, sizeof(cp));
	fail = xreallocarray(NULL, cm->nrun, sizeof(*fail));
	for (r = 0; r < cm->nrun; r++)
		if (!compare_run_completed(cm, r)) {
			fail[cp.nfailed].pair = r / 2 + 1;
			fail[cp.nfailed].side = pairs_side(r) == PAIRS_A ?
			    0 : 1;
			fail[cp.nfailed].exit = compare_run_exit(cm->ws[r]);
			fail[cp.nfailed++].why = cm->why[r];
		}
	cp.failed = fail;
	cp.dir = cm->out;
	for (i = 0; i < 2; i++) {
		cp.label[i] = cm->side[i].label;
		cp.arg[i] = cm->side[i].arg;
	}
	cp.command = cmd;
	cp.seed = cm->seed;
	cp.version = LD_VERSION;
	cp.git = LD_GIT;
	cp.status = output_status_name(compare_run_outcome(cm));
	cp.n = cm->n;
	cp.dirs = cm->dirs;
	cp.pairs = cm->pairs;
	cp.complete = compare_run_complete(cm);
	cp.nphases = cm->cfg.nphases;
	for (i = 0; i < cm->cfg.nphases; i++) {
		cp.phase[i] = phase_name(cm->cfg.phases[i]);
		cp.has[i] = compare_run_row(cm, cm->cfg.phases[i],
		    &cp.row[i]) == 0;
	}
	if (compare_page_write(&cp, errbuf) == -1)
		warnx("compare: %s", errbuf);
	else
		printf("page: %s/index.html and index.de.html\n", cm->out);
	free(fail);
}

/*
 * The table on stdout: a line saying what was compared and how many
 * pairs of runs completed, then a line per phase.
 */
static void
print_table(const struct compare_run *cm)
{
	struct pairs_row	row;
	char			count[32], dirs[32], pairs[32], line[160];
	unsigned		done = compare_run_complete(cm);
	size_t			k, p;

	util_fmt_count(count, sizeof(count), cm->n);
	util_fmt_count(dirs, sizeof(dirs), cm->dirs);
	if (done == cm->pairs)
		(void)snprintf(pairs, sizeof(pairs), "%u pair%s", cm->pairs,
		    cm->pairs == 1 ? "" : "s");
	else
		(void)snprintf(pairs, sizeof(pairs), "%u of %u pairs complete",
		    done, cm->pairs);
	printf("\ncompare: B against A, %s files%s%s%s, %s (in %s)\n"
	    "%-8s %20.20s %20.20s  %s\n", count, cm->dirs != 0 ? " in " : "",
	    cm->dirs != 0 ? dirs : "", cm->dirs != 0 ? " directories" : "",
	    pairs, cm->out, "phase", cm->side[0].label, cm->side[1].label,
	    "B against A");
	for (k = 0; k < cm->cfg.nphases; k++) {
		p = cm->cfg.phases[k];
		if (compare_run_row(cm, p, &row) == -1) {
			printf("%-8s no pair ran it to the end\n",
			    phase_name(p));
			continue;
		}
		pairs_format(line, sizeof(line), phase_name(p),
		    &row);
		printf("%s\n", line);
	}
}
