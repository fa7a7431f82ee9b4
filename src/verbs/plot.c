/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * plot: largedir plot RESULTS, the graphs at the end of a suite and those
 * of a comparison.  A front-end: it runs gnuplot on the scripts in plot/
 * and says what came of it.
 *
 * A results directory may be a shared scratch directory, so gnuplot
 * never reads or writes there.  largedir makes a private directory in
 * it with mkdtemp(3), copies into it the files it checked (regular files
 * only, opened so that a FIFO or a device cannot block: a file planted
 * or swapped later is never read), with every byte that is not well-
 * formed UTF-8, and every control character but tab, CR and newline,
 * replaced by U+FFFD as the JSON and the pages do it, so that an SVG is
 * always well-formed.  gnuplot runs in that directory, in a process
 * group that a signal ends with everything it started (sig_run_group()),
 * and draws into its subdirectory "g"; the graphs are moved in from
 * there with output_adopt(), which leaves alone whatever someone else
 * put under a graph's name.  The private directory is removed on every
 * path, a signal's too.
 */

#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <dirent.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/sig.h"
#include "base/util.h"
#include "record/output.h"
#include "record/results.h"
#include "report/report.h"
#include "report/kneemem.h"
#include "settings/config.h"
#include "verbs/plot.h"

#define PLOT_GRAPHS	"g"		/* where gnuplot draws, in priv */
#define PLOT_MAX_BYTES	(64LL << 20)	/* a larger file is no result */

/* A results directory being drawn. */
struct plot {
	const char	*results;	/* as given, for messages */
	int		 resfd;
	char		*priv;		/* RESULTS/.plot.XXXXXX */
	int		 pfd;		/* priv */
	char		*scripts;	/* the plot/ directory, absolute */
};

static int	plot_open(struct plot *, const char *);
static int	plot_close(struct plot *);
static int	copy_in(struct plot *, const char *);
static bool	take(struct plot *, const char *);
static void	put_clean(FILE *, const char *, size_t);
static int	run_gnuplot(struct plot *, const char *,
		    const char *const []);
static int	run_lang(struct plot *, const char *, const char *const [],
		    bool);
static int	adopt_graphs(struct plot *);
static int	plot_kneemem(struct plot *);
static void	empty_dir(int);
static char	*scripts_dir(void);

/* ===== The private directory ===== */

/*
 * Make 'p' for 'results': the scripts' directory, and the private
 * directory with its "g".  Return 0, or -1 (said).
 */
static int
plot_open(struct plot *p, const char *results)
{
	memset(p, 0, sizeof(*p));
	p->results = results;
	p->resfd = p->pfd = -1;
	if ((p->scripts = scripts_dir()) == NULL)
		return -1;
	if ((p->resfd = open(results, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) ==
	    -1) {
		warn("%s", results);
		(void)plot_close(p);
		return -1;
	}
	p->priv = xasprintf("%s/.plot.XXXXXX", results);
	if (mkdtemp(p->priv) == NULL) {
		warn("mkdir %s", p->priv);
		free(p->priv);
		p->priv = NULL;
		(void)plot_close(p);
		return -1;
	}
	if ((p->pfd = open(p->priv, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC)) == -1 || mkdirat(p->pfd, PLOT_GRAPHS, 0700) == -1) {
		warn("%s", p->priv);
		(void)plot_close(p);
		return -1;
	}
	return 0;
}

/*
 * Move the graphs in, remove the private directory and free 'p'.  Return
 * 0, or 1 if a graph could not be moved or something not removed (said).
 */
static int
plot_close(struct plot *p)
{
	int	bad = 0;

	if (p->pfd != -1) {
		bad = adopt_graphs(p);
		empty_dir(p->pfd);
		(void)close(p->pfd);
	}
	if (p->priv != NULL && rmdir(p->priv) == -1) {
		warn("rmdir %s", p->priv);
		bad = 1;
	}
	if (p->resfd != -1)
		(void)close(p->resfd);
	free(p->priv);
	free(p->scripts);
	memset(p, 0, sizeof(*p));
	p->resfd = p->pfd = -1;
	return bad;
}

/*
 * Copy RESULTS/'name' into the private directory as clean text (see the
 * top of the file), if it is a regular file of at most PLOT_MAX_BYTES.
 * Return 0, or -1 with errno (EINVAL: not a regular file; EFBIG: too
 * large).
 */
static int
copy_in(struct plot *p, const char *name)
{
	struct stat	 st;
	FILE		*in = NULL, *out = NULL;
	char		*line = NULL;
	size_t		 cap = 0;
	ssize_t		 len;
	int		 fd, ofd = -1, saved = 0;

	if ((fd = util_open_regular(p->resfd, name, true)) == -1)
		return -1;
	if (fstat(fd, &st) == -1)
		saved = errno;
	else if (st.st_size > PLOT_MAX_BYTES)
		saved = EFBIG;
	if (saved != 0) {
		(void)close(fd);
		errno = saved;
		return -1;
	}
	if ((in = fdopen(fd, "r")) == NULL) {
		saved = errno;
		(void)close(fd);
	} else if ((ofd = openat(p->pfd, name, O_WRONLY | O_CREAT | O_EXCL |
	    O_NOFOLLOW | O_CLOEXEC, 0600)) == -1 ||
	    (out = fdopen(ofd, "w")) == NULL) {
		saved = errno;
		if (ofd != -1)
			(void)close(ofd);
	}
	errno = 0;
	while (out != NULL && (len = getline(&line, &cap, in)) != -1)
		put_clean(out, line, (size_t)len);
	if (saved == 0 && ferror(in))
		saved = errno != 0 ? errno : EIO;
	if (in != NULL)
		(void)fclose(in);
	if (out != NULL && (fclose(out) == EOF) && saved == 0)
		saved = errno;
	free(line);
	if (saved != 0) {
		(void)unlinkat(p->pfd, name, 0);
		errno = saved;
		return -1;
	}
	return 0;
}

/*
 * Copy RESULTS/'name' in (copy_in()).  What is not there, or not a
 * regular file (someone else's FIFO in a scratch directory, a link to a
 * device), is passed over in silence, as the pages do; what cannot be
 * read is said.  Return whether it was copied.
 */
static bool
take(struct plot *p, const char *name)
{
	if (copy_in(p, name) == 0)
		return true;
	if (errno != ENOENT && errno != EINVAL && errno != ELOOP)
		warn("%s/%s", p->results, name);
	return false;
}

/*
 * Print the 'len' bytes of 's' to 'fp': well-formed UTF-8, tab, CR and
 * newline as they are, every other byte as U+FFFD.
 */
static void
put_clean(FILE *fp, const char *s, size_t len)
{
	const unsigned char	*u = (const unsigned char *)s;
	size_t			 i, n;

	for (i = 0; i < len; i += n) {
		if ((u[i] < 0x20 && u[i] != '\t' && u[i] != '\n' &&
		    u[i] != '\r') || u[i] == 0x7f ||
		    (n = util_utf8_len(u + i)) == 0 || i + n > len) {
			(void)fputs("\xef\xbf\xbd", fp);
			n = 1;
		} else
			(void)fwrite(u + i, 1, n, fp);
	}
}

/*
 * Move every graph gnuplot drew into the private directory's "g" into
 * RESULTS (output_adopt(): a link or a foreign file under a graph's name
 * is left alone and reported).  Return 0, or 1 if a graph could not be
 * moved.
 */
static int
adopt_graphs(struct plot *p)
{
	struct dirent	*d;
	DIR		*dp;
	char		 errbuf[LD_ERRLEN];
	int		 gfd, bad = 0;

	if ((gfd = openat(p->pfd, PLOT_GRAPHS, O_RDONLY | O_DIRECTORY |
	    O_NOFOLLOW | O_CLOEXEC)) == -1)
		return errno == ENOENT ? 0 : 1;
	if ((dp = fdopendir(gfd)) == NULL) {
		(void)close(gfd);
		return 1;
	}
	while ((d = readdir(dp)) != NULL) {
		if (strcmp(d->d_name, ".") == 0 || strcmp(d->d_name, "..") == 0)
			continue;
		if (output_adopt(gfd, d->d_name, p->resfd, errbuf) == -1) {
			warnx("%s: %s", p->results, errbuf);
			bad = 1;
		}
	}
	(void)closedir(dp);
	return bad;
}

/*
 * Remove everything in the directory 'dfd', one level of directories
 * deep: the private directory holds copies, and "g" with what gnuplot
 * left in it.
 */
static void
empty_dir(int dfd)
{
	struct dirent	*d;
	DIR		*dp;
	int		 fd, sub;

	if ((fd = dup(dfd)) == -1 || (dp = fdopendir(fd)) == NULL) {
		if (fd != -1)
			(void)close(fd);
		return;
	}
	rewinddir(dp);
	while ((d = readdir(dp)) != NULL) {
		if (strcmp(d->d_name, ".") == 0 || strcmp(d->d_name, "..") == 0)
			continue;
		if (unlinkat(dfd, d->d_name, 0) == 0 || errno != EISDIR)
			continue;
		if ((sub = openat(dfd, d->d_name, O_RDONLY | O_DIRECTORY |
		    O_NOFOLLOW | O_CLOEXEC)) != -1) {
			empty_dir(sub);
			(void)close(sub);
		}
		(void)unlinkat(dfd, d->d_name, AT_REMOVEDIR);
	}
	(void)closedir(dp);
}

/* ===== gnuplot ===== */

/*
 * Run "gnuplot -e ld_outsub='g' -c SCRIPTS/SCRIPT . ARG..." ('argv', at
 * most four, NULL-terminated) in the private directory and wait for it,
 * twice: for the English graphs, then with ld_lang='de' for the German
 * ones (NAME.de.svg and .png), as the German page shows them.  The
 * results are the copies there, "." to the script.  Return the first
 * exit status that is not 0, 127 if gnuplot cannot be run, 128 + the
 * signal if one came.
 */
static int
run_gnuplot(struct plot *p, const char *script, const char *const argv[])
{
	int	rc;

	if ((rc = run_lang(p, script, argv, false)) != 0)
		return rc;
	return run_lang(p, script, argv, true);
}

/* run_gnuplot()'s run in one language: German if 'de'. */
static int
run_lang(struct plot *p, const char *script, const char *const argv[],
    bool de)
{
	char	*path, *args[13];
	int	 ws, n = 0;

	path = xasprintf("%s/%s", p->scripts, script);
	args[n++] = (char *)"gnuplot";
	args[n++] = (char *)"-e";
	args[n++] = (char *)"ld_outsub='" PLOT_GRAPHS "'";
	if (de) {
		args[n++] = (char *)"-e";
		args[n++] = (char *)"ld_lang='de'";
	}
	args[n++] = (char *)"-c";
	args[n++] = path;
	args[n++] = (char *)".";
	for (; *argv != NULL && n < 12; argv++)
		args[n++] = (char *)*argv;
	args[n] = NULL;
	(void)fflush(stdout);
	if (sig_run_group(args, p->priv, &ws) == -1) {
		if (errno != EINTR)
			warn("gnuplot");
		ws = -1;
	}
	free(path);
	if (sig_count > 0)
		return 128 + sig_first;
	if (ws == -1)
		return 1;
	return WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
}

/*
 * largedir plot RESULTS (and the end of a suite): the comparison graphs of
 * every target in 'results' and one graph per target, drawn by the
 * gnuplot scripts in plot/ ($LARGEDIR_PLOT, else the installed copy, else
 * the source tree's next to the binary).  With 'loud', a missing gnuplot
 * is an error; a suite only mentions it.  Return the exit status (128 +
 * the signal if one ended it).
 */
int
plot_results(const char *results, bool loud)
{
	struct plot	 p;
	struct dirent	*d;
	DIR		*dp;
	char		*label, *name, **labels = NULL;
	const char	*args[2] = { NULL, NULL };
	size_t		 len, n = 0, i;
	int		 fd, rc, bad = 0;

	if (plot_open(&p, results) == -1)
		return 1;
	if ((fd = dup(p.resfd)) == -1 || (dp = fdopendir(fd)) == NULL) {
		warn("%s", results);
		if (fd != -1)
			(void)close(fd);
		(void)plot_close(&p);
		return 1;
	}
	while ((d = readdir(dp)) != NULL) {
		len = strlen(d->d_name);
		if (len <= 4 || strcmp(d->d_name + len - 4, ".out") != 0)
			continue;
		label = xasprintf("%.*s", (int)len - 4, d->d_name);
		if (!config_label_ok(label) || !take(&p, d->d_name)) {
			free(label);
			continue;
		}
		name = xasprintf("%s.summary", label);
		(void)take(&p, name);
		free(name);
		labels = xreallocarray(labels, n + 1, sizeof(*labels));
		labels[n++] = label;
	}
	(void)closedir(dp);
	if (n == 0) {
		warnx("%s: no results to plot (no LABEL.out files)", results);
		(void)plot_close(&p);
		return 1;
	}
	if ((rc = run_gnuplot(&p, "rates.gp", args)) == 127) {
		if (loud)
			warnx("gnuplot is missing: apt-get install "
			    "gnuplot-nox");
		else
			printf("no graphs: gnuplot is missing (apt-get install "
			    "gnuplot-nox)\n");
	}
	bad |= rc != 0;
	for (i = 0; i < n && rc != 127 && sig_count == 0; i++) {
		args[0] = labels[i];
		bad |= run_gnuplot(&p, "target.gp", args) != 0;
	}
	if (rc != 127 && sig_count == 0)
		bad |= plot_kneemem(&p) != 0;
	for (i = 0; i < n; i++)
		free(labels[i]);
	free(labels);
	bad |= plot_close(&p);
	if (sig_count > 0)
		return 128 + sig_first;
	if (bad) {
		if (rc != 127)
			warnx("gnuplot failed on %s", results);
		return 1;
	}
	printf("graphs: %s%s*.png (and .svg)\n", results,
	    results[strlen(results) - 1] == '/' ? "" : "/");
	return 0;
}

/*
 * The knee against memory (kneemem.h), if the results copied into 'p' are
 * a sweep: knee.dat in the private directory (label, memory in MiB, the
 * rounds around the knee, its point, the line's), then knee.gp draws
 * knee.svg and .png from it.  Return 0 (also when there is no sweep), or
 * what gnuplot returned.
 */
static int
plot_kneemem(struct plot *p)
{
	struct results	 rs;
	struct kneemem	 sw;
	const char	*args[4] = { NULL, NULL, NULL, NULL };
	char		 err[LD_ERRLEN], a[32], b[32];
	size_t		 i;
	FILE		*fp;
	int		 fd, rc = 0;

	if (results_read(&rs, p->pfd, p->priv, err) == -1)
		return 0;		/* rates.gp has said what is wrong */
	if (kneemem_find(&rs, &sw) < 2)
		goto out;
	if ((fd = openat(p->pfd, "knee.dat", O_WRONLY | O_CREAT | O_EXCL |
	    O_CLOEXEC, 0644)) == -1 || (fp = fdopen(fd, "w")) == NULL) {
		warn("%s: knee.dat", p->priv);
		if (fd != -1)
			(void)close(fd);
		rc = 1;
		goto out;
	}
	(void)fprintf(fp, "label memory_mib above knee mid line\n");
	for (i = 0; i < sw.n; i++)
		(void)fprintf(fp, "%s %.17g %.17g %.17g %.17g %.17g\n",
		    sw.p[i].label, sw.p[i].mem / 1048576, sw.p[i].above,
		    sw.p[i].knee, sw.p[i].mid, sw.fitted ? sw.a + sw.b *
		    sw.p[i].mem : NAN);
	if (fclose(fp) == EOF) {
		warn("%s: knee.dat", p->priv);
		rc = 1;
		goto out;
	}
	(void)snprintf(a, sizeof(a), "%.17g", sw.fitted ? sw.a : 0);
	(void)snprintf(b, sizeof(b), "%.17g", sw.fitted ? sw.b * 1048576 : 0);
	args[0] = sw.phase;
	args[1] = a;
	args[2] = b;
	rc = run_gnuplot(p, "knee.gp", args);
out:
	results_free(&rs);
	return rc;
}

/*
 * The gnuplot scripts, as an absolute path (gnuplot runs in the private
 * directory): $LARGEDIR_PLOT, else the installed copy, else the source
 * tree's next to the binary; NULL (said) if none is there.
 */
static char *
scripts_dir(void)
{
	const char	*env = getenv("LARGEDIR_PLOT");
	char		 self[PATH_MAX], *dir = NULL, *abs = NULL, *p;
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
	if (dir == NULL || access(dir, R_OK) == -1 ||
	    (abs = realpath(dir, NULL)) == NULL) {
		warnx("no gnuplot scripts found (set LARGEDIR_PLOT to the "
		    "plot/ directory)");
		free(dir);
		return NULL;
	}
	free(dir);
	return abs;
}

/*
 * The graphs of a comparison in 'results' (compare.gp): one per phase of
 * 'phases' (words), A labelled 'la' and B 'lb'.  A missing gnuplot is
 * said and is no error.  Return 0, 1 if gnuplot failed, or 128 + the
 * signal if one ended it.
 */
int
plot_compare(const char *results, const char *la, const char *lb,
    const char *phases)
{
	struct plot	 p;
	const char	*args[4] = { la, lb, phases, NULL };
	int		 rc, bad;

	if (plot_open(&p, results) == -1)
		return 1;
	if (!take(&p, "compare.out")) {
		warnx("%s: no compare.out to plot", results);
		(void)plot_close(&p);
		return 1;
	}
	(void)take(&p, "compare.summary");
	rc = run_gnuplot(&p, "compare.gp", args);
	if (rc == 127)
		printf("no graphs: gnuplot is missing (apt-get install "
		    "gnuplot-nox)\n");
	bad = plot_close(&p);
	if (sig_count > 0)
		return 128 + sig_first;
	if (rc != 0 && rc != 127) {
		warnx("gnuplot failed on %s", results);
		return 1;
	}
	return bad;
}

/*
 * The graphs of the comparison in 'dir' again, as compare drew them: its
 * sides' labels and its phases from compare.out.  Return as
 * plot_compare() does.
 */
static int
plot_comparison(const char *dir)
{
	struct results_target	 t;
	char			 label[2][256], arg[256], phases[256];
	char			 errbuf[LD_ERRLEN];
	size_t			 i, len;
	int			 fd, rc;

	memset(&t, 0, sizeof(t));
	if ((fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1) {
		warn("%s", dir);
		return 1;
	}
	rc = results_read_one(&t, fd, dir, "compare", errbuf);
	(void)close(fd);
	if (rc == -1) {
		warnx("%s", errbuf);
		return 1;
	}
	results_compare_side(results_meta(&t, "a"), label[0], arg,
	    sizeof(arg));
	results_compare_side(results_meta(&t, "b"), label[1], arg,
	    sizeof(arg));
	phases[0] = '\0';
	for (i = 0; i < t.ncols; i++) {
		len = strlen(t.col[i]);
		if (len > 6 && strcmp(t.col[i] + len - 6, "_per_s") == 0)
			(void)snprintf(phases + strlen(phases),
			    sizeof(phases) - strlen(phases), "%s%.*s",
			    phases[0] != '\0' ? " " : "", (int)len - 6,
			    t.col[i]);
	}
	if ((rc = plot_compare(dir, label[0], label[1], phases)) == 0)
		printf("graphs: %s/compare-PHASE.png (and .svg)\n", dir);
	results_target_free(&t);
	return rc;
}

/* largedir plot RESULTS: the verb; returns the exit status. */
int
plot_main(int argc, char **argv)
{
	const char	*dir;

	if ((dir = report_dir_verb(argc, argv, "usage: largedir plot RESULTS",
	    "Draw the graphs of the run or suite in RESULTS with gnuplot: "
	    "for\neach phase rates-PHASE.svg and .png, a curve per target; "
	    "for each target\nLABEL.svg and .png, a curve per phase.  Of a "
	    "comparison: compare-PHASE.svg\nand .png, as compare draws "
	    "them.\n")) == NULL)
		return 0;
	if (results_is_compare(dir))
		return plot_comparison(dir);
	return plot_results(dir, true);
}
