/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * plot: largedir plot RESULTS, and the graphs at the end of a suite.  A
 * front-end: it runs gnuplot on the scripts in plot/ and says what came
 * of it.
 *
 * gnuplot follows symbolic links where it writes, so it never writes
 * into the results directory itself: it draws into a private directory
 * made there with mkdtemp(3), and the graphs are moved in with
 * output_adopt(), which leaves alone whatever someone else put under a
 * graph's name.
 */

#include <sys/types.h>
#include <sys/wait.h>

#include <dirent.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "output.h"
#include "plot.h"
#include "report.h"
#include "util.h"

static int	adopt_graphs(int, const char *, const char *);
static int	count_outs(const char *);
static int	run_gnuplot(const char *, const char *, const char *,
		    const char *const []);
static char	*scripts_dir(void);
static int	open_priv(const char *, char **, int *);

/*
 * Run "gnuplot -e ld_outsub='SUB' -c DIR/SCRIPT ARG..." ('argv', at most
 * four, NULL-terminated) and wait for it.  Return its exit status, 127 if
 * gnuplot cannot be run.
 */
static int
run_gnuplot(const char *dir, const char *sub, const char *script,
    const char *const argv[])
{
	char	*path, *outsub, *args[10];
	pid_t	 pid;
	int	 ws, n = 0;

	path = xasprintf("%s/%s", dir, script);
	outsub = xasprintf("ld_outsub='%s'", sub);	/* mkdtemp's letters */
	args[n++] = (char *)"gnuplot";
	args[n++] = (char *)"-e";
	args[n++] = outsub;
	args[n++] = (char *)"-c";
	args[n++] = path;
	for (; *argv != NULL && n < 9; argv++)
		args[n++] = (char *)*argv;
	args[n] = NULL;
	(void)fflush(stdout);
	ws = -1;
	if ((pid = fork()) == -1)
		warn("fork");
	else if (pid == 0) {
		(void)execvp("gnuplot", args);
		_exit(127);
	}
	while (pid > 0 && waitpid(pid, &ws, 0) == -1) {
		if (errno != EINTR) {
			warn("waitpid");
			break;
		}
	}
	free(path);
	free(outsub);
	if (ws == -1)
		return 1;
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

/* How many LABEL.out files 'results' holds (0 also if it cannot be read). */
static int
count_outs(const char *results)
{
	struct dirent	*d;
	DIR		*dp;
	size_t		 len;
	int		 n = 0;

	if ((dp = opendir(results)) == NULL)
		return 0;
	while ((d = readdir(dp)) != NULL) {
		len = strlen(d->d_name);
		if (len > 4 && d->d_name[0] != '.' &&
		    strcmp(d->d_name + len - 4, ".out") == 0)
			n++;
	}
	(void)closedir(dp);
	return n;
}

/*
 * largedir plot RESULTS (and the end of a suite): the comparison graphs of
 * every target in 'results' and one graph per target, drawn by the
 * gnuplot scripts in plot/ ($LARGEDIR_PLOT, else the installed copy, else
 * the source tree's next to the binary).  With 'loud', a missing gnuplot
 * is an error; a suite only mentions it.  Return the exit status.
 */
int
plot_results(const char *results, bool loud)
{
	struct dirent	*d;
	DIR		*dp;
	char		*dir, *label, *priv;
	const char	*sub, *args[3];
	ssize_t		 len;
	int		 rc, resfd, bad = 0;

	if (count_outs(results) == 0) {
		warnx("%s: no results to plot (no LABEL.out files)", results);
		return 1;
	}
	if ((dir = scripts_dir()) == NULL)
		return 1;
	if (open_priv(results, &priv, &resfd) == -1) {
		free(dir);
		return 1;
	}
	sub = strrchr(priv, '/') + 1;
	args[0] = results;
	args[1] = args[2] = NULL;
	if ((rc = run_gnuplot(dir, sub, "rates.gp", args)) == 127) {
		if (loud)
			warnx("gnuplot is missing: apt-get install "
			    "gnuplot-nox");
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
	if ((dp = opendir(results)) == NULL) {
		warn("%s", results);
		bad = 1;
	}
	while (dp != NULL && (d = readdir(dp)) != NULL) {
		len = (ssize_t)strlen(d->d_name);
		if (len <= 4 || strcmp(d->d_name + len - 4, ".out") != 0 ||
		    d->d_name[0] == '.')
			continue;
		label = xasprintf("%.*s", (int)len - 4, d->d_name);
		args[1] = label;
		bad |= run_gnuplot(dir, sub, "target.gp", args) != 0;
		free(label);
	}
	if (dp != NULL)
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

/*
 * The gnuplot scripts: $LARGEDIR_PLOT, else the installed copy, else the
 * source tree's next to the binary; NULL (said) if none is there.
 */
static char *
scripts_dir(void)
{
	const char	*env = getenv("LARGEDIR_PLOT");
	char		 self[PATH_MAX], *dir = NULL, *p;
	ssize_t		 len;

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
		return NULL;
	}
	return dir;
}

/*
 * gnuplot follows links where it writes, so it draws into a directory of
 * our own in 'results', '*priv' (allocated), and the graphs are moved in
 * from there; '*resfd' is 'results'.  Return 0, or -1 (said).
 */
static int
open_priv(const char *results, char **priv, int *resfd)
{
	*priv = xasprintf("%s/.plot.XXXXXX", results);
	if (mkdtemp(*priv) == NULL) {
		warn("mkdir %s", *priv);
		free(*priv);
		return -1;
	}
	if ((*resfd = open(results, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) ==
	    -1) {
		warn("%s", results);
		(void)rmdir(*priv);
		free(*priv);
		return -1;
	}
	return 0;
}

/*
 * The graphs of a comparison in 'results' (compare.gp): one per phase of
 * 'phases' (words), A labelled 'la' and B 'lb'.  A missing gnuplot is
 * said and is no error.  Return 0, or 1 if gnuplot failed.
 */
int
plot_compare(const char *results, const char *la, const char *lb,
    const char *phases)
{
	char		*dir, *priv;
	const char	*args[5] = { results, la, lb, phases, NULL };
	int		 rc, resfd, bad;

	if ((dir = scripts_dir()) == NULL)
		return 1;
	if (open_priv(results, &priv, &resfd) == -1) {
		free(dir);
		return 1;
	}
	rc = run_gnuplot(dir, strrchr(priv, '/') + 1, "compare.gp", args);
	if (rc == 127)
		printf("no graphs: gnuplot is missing (apt-get install "
		    "gnuplot-nox)\n");
	bad = adopt_graphs(resfd, results, strrchr(priv, '/') + 1);
	(void)close(resfd);
	free(priv);
	free(dir);
	if (rc != 0 && rc != 127) {
		warnx("gnuplot failed on %s", results);
		return 1;
	}
	return bad;
}

/* largedir plot RESULTS: the verb; returns the exit status. */
int
plot_main(int argc, char **argv)
{
	char	errbuf[LD_ERRLEN];

	if (report_help(argc, argv, "usage: largedir plot RESULTS\n\n"
	    "Draw the graphs of the run or suite in RESULTS with gnuplot: "
	    "for\neach phase rates-PHASE.svg and .png, a curve per target; "
	    "for each target\nLABEL.svg and .png, a curve per phase.\n"))
		return 0;
	if (argc != 2)
		report_usage("usage: largedir plot RESULTS");
	if (util_check_dir(argv[1], errbuf) == -1)
		report_usage("%s", errbuf);
	return plot_results(argv[1], true);
}
