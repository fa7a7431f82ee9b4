/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * results: a results directory read back, for the page (page.c), the
 * suite's summary table and anything else that looks at finished runs.
 * It reads the LABEL.out files only, since they hold everything: the
 * "# key: value" metadata (with out_dat.c's escapes undone), the header
 * of column names, and the rows as numbers (NAN where a field is not one;
 * a row a crash cut short is skipped).  Columns are looked up by name.
 * It also knows which columns count calls of an NFSv3 procedure, for
 * the tables of calls (pagecalls.c, table.c).
 */

#include <sys/stat.h>
#include <sys/types.h>

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "backend/marker.h"
#include "backend/workdir.h"
#include "base/stats.h"
#include "base/util.h"
#include "record/results.h"

#define NEAR	1.25	/* how far a row's n may be from a wanted n */
#define RPC	"_rpc_"

static double	results_n_below(const struct results_target *, double);
static int	read_out(int, struct results_target *, const char *, char *);
static void	add_meta(struct results_target *, const char *, size_t *);
static void	add_line(struct results_target *, char *, size_t *);
static char	*unescape(const char *);
static int	cmp_target(const void *, const void *);
static bool	is_file(int, const char *);

/*
 * The procedures of NFS version 3 as RFC 1813 spells them, in the order
 * of their numbers (NULL is left out, as it does nothing to a file); then
 * the NFSv4 operations a kernel client's mountstats adds (knfs.c), with
 * OTHER for the v4 operations it sums.  v4's ACCESS, GETATTR, LOOKUP,
 * CREATE, REMOVE and READDIR share the v3 rows.
 */
static const char *const procs[RESULTS_NPROC] = {
	"GETATTR", "SETATTR", "LOOKUP", "ACCESS", "READLINK", "READ",
	"WRITE", "CREATE", "MKDIR", "SYMLINK", "MKNOD", "REMOVE", "RMDIR",
	"RENAME", "LINK", "READDIR", "READDIRPLUS", "FSSTAT", "FSINFO",
	"PATHCONF", "COMMIT",
	"OPEN", "OPEN_NOATTR", "CLOSE", "LOOKUP_ROOT", "STATFS", "SEQUENCE",
	"DELEGRETURN", "TEST_STATEID", "FREE_STATEID", "RENEW", "LAYOUTGET",
	"LAYOUTRETURN", "OTHER"
};

/* ===== Reading ===== */

/*
 * Read every LABEL.out in the directory 'dirfd' (called 'results' in
 * messages) into 'r', sorted by label.  Return 0, or -1 with errno and a
 * message in 'err' (ENOENT: "no .out files in RESULTS").  Free 'r' with
 * results_free(), also after a failure.
 */
int
results_read(struct results *r, int dirfd, const char *results, char *err)
{
	DIR		*d = NULL;
	struct dirent	*de;
	size_t		 len, cap = 0, i;
	int		 fd, saved;

	memset(r, 0, sizeof(*r));
	if ((fd = dup(dirfd)) == -1 || (d = fdopendir(fd)) == NULL) {
		saved = errno;
		if (fd != -1)
			(void)close(fd);
		goto fail;
	}
	errno = 0;
	while ((de = readdir(d)) != NULL) {
		len = strlen(de->d_name);
		/* A directory named x.out is no target. */
		if (de->d_name[0] != '.' && len > 4 &&
		    strcmp(de->d_name + len - 4, ".out") == 0 &&
		    is_file(dirfd, de->d_name)) {
			if (r->nt == cap) {
				cap = cap == 0 ? 8 : cap * 2;
				r->t = xreallocarray(r->t, cap, sizeof(*r->t));
			}
			memset(&r->t[r->nt], 0, sizeof(*r->t));
			r->t[r->nt++].label = xasprintf("%.*s",
			    (int)(len - 4), de->d_name);
		}
		errno = 0;
	}
	saved = errno;
	(void)closedir(d);
	if (saved != 0)
		goto fail;
	if (r->nt == 0) {
		(void)snprintf(err, LD_ERRLEN, "no .out files in %s", results);
		errno = ENOENT;
		return -1;
	}
	qsort(r->t, r->nt, sizeof(*r->t), cmp_target);
	for (i = 0; i < r->nt; i++)
		if (read_out(dirfd, &r->t[i], results, err) == -1)
			return -1;
	return 0;
fail:
	(void)snprintf(err, LD_ERRLEN, "read %s: %s", results,
	    strerror(saved));
	errno = saved;
	return -1;
}

/*
 * Read only RESULTS/LABEL.out ('dirfd' is RESULTS) into 't'.  Return 0,
 * or -1 with errno and a message in 'err'.  Free 't' with
 * results_target_free().
 */
int
results_read_one(struct results_target *t, int dirfd, const char *results,
    const char *label, char *err)
{
	memset(t, 0, sizeof(*t));
	t->label = xstrdup(label);
	return read_out(dirfd, t, results, err);
}

/* Free what 't' holds. */
void
results_target_free(struct results_target *t)
{
	size_t	k;

	for (k = 0; k < t->nmeta; k++) {
		free(t->meta[k].key);
		free(t->meta[k].value);
	}
	for (k = 0; k < t->ncols; k++)
		free(t->col[k]);
	free(t->meta);
	free(t->col);
	free(t->cell);
	free(t->label);
	memset(t, 0, sizeof(*t));
}

/* Free what 'r' holds. */
void
results_free(struct results *r)
{
	size_t	i;

	for (i = 0; i < r->nt; i++)
		results_target_free(&r->t[i]);
	free(r->t);
	memset(r, 0, sizeof(*r));
}

/* Whether 'name' in 'dirfd' is a regular file. */
static bool
is_file(int dirfd, const char *name)
{
	struct stat	st;

	return fstatat(dirfd, name, &st, 0) == 0 && S_ISREG(st.st_mode);
}

/*
 * Read RESULTS/LABEL.out into 't': "# key: value" lines up to the header
 * line, the header, then the rows.  Return 0, or -1 with errno and 'err'
 * set.
 */
static int
read_out(int dirfd, struct results_target *t, const char *results,
    char *err)
{
	FILE	*fp = NULL;
	char	*name, *line = NULL;
	size_t	 cap = 0, mcap = 0, rcap = 0;
	ssize_t	 len;
	int	 fd, saved;

	name = xasprintf("%s.out", t->label);
	if ((fd = util_open_regular(dirfd, name, true)) == -1 ||
	    (fp = fdopen(fd, "r")) == NULL) {
		saved = errno;
		if (fd != -1)
			(void)close(fd);
		goto fail;
	}
	errno = 0;
	while ((len = getline(&line, &cap, fp)) != -1) {
		while (len > 0 && (line[len - 1] == '\n' ||
		    line[len - 1] == '\r'))
			line[--len] = '\0';
		if (line[0] != '#')
			add_line(t, line, &rcap);
		else if (t->ncols == 0)
			add_meta(t, line, &mcap);
	}
	saved = ferror(fp) != 0 ? (errno == 0 ? EIO : errno) : 0;
	(void)fclose(fp);
	free(line);
	if (saved == 0) {
		free(name);
		return 0;
	}
fail:
	(void)snprintf(err, LD_ERRLEN, "read %s/%s: %s", results, name,
	    saved == EINVAL ? "not a regular file" : strerror(saved));
	free(name);
	errno = saved;
	return -1;
}

/* Add the metadata line "# key: value" to 't'; other comments are skipped. */
static void
add_meta(struct results_target *t, const char *line, size_t *cap)
{
	const char	*p, *colon;
	char		*key;

	p = line[1] == ' ' ? line + 2 : line + 1;
	if ((colon = strchr(p, ':')) == NULL || colon == p)
		return;
	key = xasprintf("%.*s", (int)(colon - p), p);
	if (t->nmeta == *cap) {
		*cap = *cap == 0 ? 64 : *cap * 2;
		t->meta = xreallocarray(t->meta, *cap, sizeof(*t->meta));
	}
	t->meta[t->nmeta].key = unescape(key);
	t->meta[t->nmeta++].value = unescape(colon[1] == ' ' ? colon + 2 :
	    colon + 1);
	free(key);
}

/*
 * Add 'line' to 't': the header if 't' has none yet, else a row.  Empty
 * lines and rows of the wrong width (a line a crash cut off) are
 * skipped; a field that is not a number (NaN included) becomes NAN.
 */
static void
add_line(struct results_target *t, char *line, size_t *cap)
{
	double	*row;
	char	*tok, *last, *end;
	size_t	 k = 0;

	if (t->ncols == 0) {
		for (tok = strtok_r(line, " \t", &last); tok != NULL;
		    tok = strtok_r(NULL, " \t", &last)) {
			t->col = xreallocarray(t->col, t->ncols + 1,
			    sizeof(*t->col));
			t->col[t->ncols++] = xstrdup(tok);
		}
		return;
	}
	if (t->nrows == *cap) {
		*cap = *cap == 0 ? 32 : *cap * 2;
		t->cell = xreallocarray(t->cell, *cap, t->ncols *
		    sizeof(*t->cell));
	}
	row = t->cell + t->nrows * t->ncols;
	for (tok = strtok_r(line, " \t", &last); tok != NULL;
	    tok = strtok_r(NULL, " \t", &last)) {
		if (k == t->ncols)
			return;
		row[k] = strtod(tok, &end);
		if (end == tok || *end != '\0')
			row[k] = NAN;
		k++;
	}
	if (k == t->ncols)
		t->nrows++;
}

/*
 * Return a copy of 's' with the escapes of out_dat.c (\n \r \t \\ \xNN)
 * undone; \x00 is dropped and an unknown escape is kept as it is.
 */
static char *
unescape(const char *s)
{
	char	*d, *o, hex[3];

	d = o = xmalloc(strlen(s) + 1);
	for (; *s != '\0'; s++) {
		if (*s != '\\' || s[1] == '\0') {
			*o++ = *s;
			continue;
		}
		s++;
		if (*s == 'n' || *s == 'r' || *s == 't' || *s == '\\')
			*o++ = *s == 'n' ? '\n' : *s == 'r' ? '\r' :
			    *s == 't' ? '\t' : '\\';
		else if (*s == 'x' && isxdigit((unsigned char)s[1]) &&
		    isxdigit((unsigned char)s[2])) {
			hex[0] = s[1];
			hex[1] = s[2];
			hex[2] = '\0';
			if ((*o = (char)strtoul(hex, NULL, 16)) != '\0')
				o++;
			s += 2;
		} else {
			*o++ = '\\';
			*o++ = *s;
		}
	}
	*o = '\0';
	return d;
}

/* qsort(3) order of targets: by label, bytewise. */
static int
cmp_target(const void *a, const void *b)
{
	return strcmp(((const struct results_target *)a)->label,
	    ((const struct results_target *)b)->label);
}

/* ===== Looking things up ===== */

/* The value of metadata 'key' of 't', or NULL if it is missing or empty. */
const char *
results_meta(const struct results_target *t, const char *key)
{
	size_t	i;

	for (i = 0; i < t->nmeta; i++)
		if (strcmp(t->meta[i].key, key) == 0)
			return t->meta[i].value[0] == '\0' ? NULL :
			    t->meta[i].value;
	return NULL;
}

/*
 * How target 't''s run ended, as its outputs say ("complete", "stopped",
 * ...), except that a run they still call "running" is "killed" when it
 * ran on this host and its work directory is gone or nobody holds the
 * lock on its marker any more: it was killed (kill -9) or died before it
 * could say so.  A run of another host cannot be told and stays
 * "running".  The string is static or the target's.
 */
const char *
results_status(const struct results_target *t)
{
	const char	*s, *host, *wd;
	char		 me[256];
	int		 fd, held;

	s = results_meta(t, "status");
	if (s == NULL || strcmp(s, "running") != 0)
		return s;
	host = results_meta(t, "host");
	wd = results_meta(t, "work_dir");
	if (host == NULL || wd == NULL || gethostname(me, sizeof(me)) == -1 ||
	    strcmp(host, me) != 0)
		return s;
	if ((fd = open(wd, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC)) == -1)
		return errno == ENOENT ? "killed" : s;
	held = marker_held(fd, WORKDIR_MARKER);
	(void)close(fd);
	return held == 0 || (held == -1 && errno == ENOENT) ? "killed" : s;
}

/* The index of column 'name' of 't', or -1 if there is none. */
int
results_col(const struct results_target *t, const char *name)
{
	size_t	i;

	for (i = 0; i < t->ncols; i++)
		if (strcmp(t->col[i], name) == 0)
			return (int)i;
	return -1;
}

/* The largest n of the rows of 't', or NAN if it has none. */
double
results_max_n(const struct results_target *t)
{
	return results_n_below(t, INFINITY);
}

/*
 * The round before the knee of phase 'phase' of 't' at 'knee' files:
 * what the run recorded (knee_PHASE_above), else the largest n below the
 * knee among its rows (results from before it was recorded), or NAN.
 */
double
results_knee_above(const struct results_target *t, const char *phase,
    double knee)
{
	char		 key[64];
	const char	*m;

	(void)snprintf(key, sizeof(key), "knee_%s_above", phase);
	if ((m = results_meta(t, key)) != NULL)
		return strtod(m, NULL);
	return results_n_below(t, knee);
}

/*
 * The largest n below 'limit' of the rows of 't' that are no warm-up,
 * or NAN if none: the round before a knee (knee_PHASE_above), where
 * results from before it was recorded do not say.
 */
static double
results_n_below(const struct results_target *t, double limit)
{
	double	n, best = NAN;
	size_t	r;
	int	cn, cw;

	if ((cn = results_col(t, "n")) == -1)
		return NAN;
	cw = results_col(t, "warmup");
	for (r = 0; r < t->nrows; r++) {
		n = t->cell[r * t->ncols + (size_t)cn];
		if (cw != -1 && t->cell[r * t->ncols + (size_t)cw] > 0)
			continue;
		if (isfinite(n) && n < limit && (isnan(best) || n > best))
			best = n;
	}
	return best;
}

/*
 * Files per second of 'phase' in 't' at about 'want' files, as
 * results_value_at() finds it.
 */
double
results_rate_at(const struct results_target *t, const char *phase,
    double want, double *at)
{
	char	name[32];

	(void)snprintf(name, sizeof(name), "%s_per_s", phase);
	return results_value_at(t, name, want, at);
}

/*
 * Column 'col' of 't' at about 'want' files: of the rows that have a
 * value there and are no warm-up, take those whose n is closest to
 * 'want' on a log scale, within a factor of NEAR, and return the median
 * of their values, with their n in 'at'.  NAN (both) if no row is that
 * close.
 */
double
results_value_at(const struct results_target *t, const char *col,
    double want, double *at)
{
	double	*v, n, d, best = NAN, bestd = INFINITY, rate;
	size_t	 r, k = 0;
	int	 cn, cw, cr;

	*at = NAN;
	cn = results_col(t, "n");
	cw = results_col(t, "warmup");
	if (cn == -1 || (cr = results_col(t, col)) == -1 || t->nrows == 0)
		return NAN;
	v = xreallocarray(NULL, t->nrows, sizeof(*v));
	for (r = 0; r < t->nrows; r++) {
		n = t->cell[r * t->ncols + (size_t)cn];
		rate = t->cell[r * t->ncols + (size_t)cr];
		if ((cw != -1 && t->cell[r * t->ncols + (size_t)cw] > 0.0) ||
		    !(n >= want / NEAR && n <= want * NEAR) || !isfinite(rate))
			continue;
		if ((d = fabs(log(n / want))) < bestd) {
			bestd = d;
			best = n;
			k = 0;
		}
		if (n == best)
			v[k++] = rate;
	}
	rate = stats_median(v, k);
	free(v);
	*at = best;
	return rate;
}

/* ===== Calls to an NFS server ===== */

/*
 * The name of NFS procedure 'i' (0 is GETATTR, 1 SETATTR, ... in the
 * order of their numbers in RFC 1813, NULL left out, then NFSv4's OPEN,
 * OPEN_NOATTR, CLOSE, LOOKUP_ROOT, STATFS, SEQUENCE, OTHER), upper case; NULL
 * if 'i' is RESULTS_NPROC or more.  The string is static.
 */
const char *
results_proc_name(size_t i)
{
	return i < RESULTS_NPROC ? procs[i] : NULL;
}

/*
 * Which NFS procedure the column 'col' counts the calls of in 'phase':
 * 'col' is PHASE_rpc_X with X the procedure's name in any case.  Return
 * its index for results_proc_name(), or -1 if 'col' is no such column:
 * another phase's, or PHASE_rpc_errors, _rtt_ns and _bytes_*, which count
 * something else than calls.  Files of older versions lack some
 * procedures' columns, so callers find them by name, never by position.
 */
int
results_proc(const char *phase, const char *col)
{
	size_t	len, i;

	len = strlen(phase);
	if (strncmp(col, phase, len) != 0 ||
	    strncmp(col + len, RPC, strlen(RPC)) != 0)
		return -1;
	col += len + strlen(RPC);
	for (i = 0; i < RESULTS_NPROC; i++)
		if (strcasecmp(col, procs[i]) == 0)
			return (int)i;
	return -1;
}

/*
 * Whether 'dir' holds a comparison (compare.out, a regular file: a FIFO
 * of that name in a scratch directory makes no comparison) rather than
 * runs.
 */
bool
results_is_compare(const char *dir)
{
	struct stat	 st;
	char		*f = xasprintf("%s/compare.out", dir);
	bool		 yes = stat(f, &st) == 0 && S_ISREG(st.st_mode);

	free(f);
	return yes;
}

/*
 * A side as compare records it, "LABEL (ARG)", into 'label' and 'arg'
 * ('len' bytes each); "?" for what is not there.
 */
void
results_compare_side(const char *s, char *label, char *arg, size_t len)
{
	const char	*p;
	size_t		 n;

	if (s == NULL || (p = strstr(s, " (")) == NULL ||
	    (n = strlen(p + 2)) == 0 || p[2 + n - 1] != ')') {
		(void)snprintf(label, len, "%s", s != NULL ? s : "?");
		(void)snprintf(arg, len, "?");
		return;
	}
	(void)snprintf(label, len, "%.*s", (int)(p - s), s);
	(void)snprintf(arg, len, "%.*s", (int)(n - 1), p + 2);
}

/*
 * Whether target 't' measured work that syncs (its config.fsync is not
 * none) on a filesystem whose fsync does nothing, as tmpfs and ramfs,
 * whose files live in memory: its rates say nothing of durable writes.
 */
bool
results_not_durable(const struct results_target *t)
{
	const char	*fs = results_meta(t, "fstype");
	const char	*sync = results_meta(t, "config.fsync");

	return fs != NULL && sync != NULL && strcmp(sync, "none") != 0 &&
	    (strcmp(fs, "tmpfs") == 0 || strcmp(fs, "ramfs") == 0);
}

/* Whether target 't' ran inside User-Mode Linux (kernel = uml). */
bool
results_in_uml(const struct results_target *t)
{
	const char	*k = results_meta(t, "target_kind");

	return k != NULL && strcmp(k, "uml") == 0;
}

/*
 * Whether some targets of 'rs' ran inside User-Mode Linux and some on
 * this machine's kernel: their rates do not compare.
 */
bool
results_mixed_kernels(const struct results *rs)
{
	size_t	i, numl = 0;

	for (i = 0; i < rs->nt; i++)
		numl += results_in_uml(&rs->t[i]) ? 1 : 0;
	return numl > 0 && numl < rs->nt;
}
