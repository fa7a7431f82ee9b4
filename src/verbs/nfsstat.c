/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * nfsstat: largedir nfsstat [--mountstats FILE] [MOUNTPOINT...] and
 * largedir nfsstat --diff BEFORE AFTER [MOUNTPOINT...], the RPC calls of
 * the kernel's NFS mounts, from /proc/self/mountstats or saved copies of
 * it (mountstats.c parses them).  A front-end module: it prints, and
 * returns the exit status.
 *
 * For each NFS mount, in the order of the file, a header line
 *
 *	MOUNTPOINT (DEVICE, nfs vers 3, statvers 1.1)
 *
 * then a line of column names and one line per operation whose count is
 * not zero, in the kernel's order: the operation, calls, transmissions,
 * major timeouts, bytes sent and received per call, the average RTT and
 * execute time in ms, and the errors ("-" where the kernel's iostats 1.0
 * has none).  An empty line separates mounts.  With --diff the counts are
 * those between the two copies, and a mount in one copy only gets its
 * header line and what happened to it.  Of mounts stacked on one point,
 * the lower ones say "covered by a later mount" in a listing of all
 * mounts; a named mount point and --diff take the topmost.  Control
 * characters in a mount point or device are printed as \ooo, as the
 * kernel does.
 */

#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "machine/mountstats.h"
#include "report/report.h"
#include "verbs/nfsstat.h"

#define NCOLS	9	/* op, ops, trans, timeouts, 2 x bytes, 2 x ms, errors */
#define CELL	32

static const char *const col_names[NCOLS] = {
	"op", "ops", "trans", "timeouts", "sent/op", "recv/op", "avg_rtt_ms",
	"avg_exe_ms", "errors"
};

static void	usage(void);
static void	load(const char *, bool, struct mountstats *);
static char	*trim_slash(char *);
static void	put_name(const char *);
static void	put_header(const struct ms_mount *);
static void	put_ops(const struct ms_mount *);
static const struct ms_mount *
		named(const struct mountstats *, const char *, const char *);
static int	show(const char *, int, char **);
static bool	wanted(const char *, int, char **);
static const struct ms_mount *
		top_nfs(const struct mountstats *, const char *);
static int	diff(const char *, const char *, int, char **);
static void	diff_one(const char *, const char *, const struct ms_mount *,
		    const struct ms_mount *);

static void
usage(void)
{
	report_usage("usage: largedir nfsstat [--mountstats file] "
	    "[mountpoint ...] | --diff before after [mountpoint ...]");
}

/*
 * Read 'path' into 'ms' or exit: 2 with the parser's line for a malformed
 * file, or for a file the user named ('given') that cannot be read, 1 when
 * /proc/self/mountstats cannot be read.
 */
static void
load(const char *path, bool given, struct mountstats *ms)
{
	char	errbuf[LD_ERRLEN];

	if (mountstats_read(path, ms, errbuf) == 0)
		return;
	mountstats_free(ms);
	if (errno == EINVAL || given)
		report_usage("%s", errbuf);
	errx(1, "%s", errbuf);
}

/* 'mp' without trailing slashes ("/" stays), in place. */
static char *
trim_slash(char *mp)
{
	size_t	len = strlen(mp);

	while (len > 1 && mp[len - 1] == '/')
		mp[--len] = '\0';
	return mp;
}

/* Print 's' with control characters and backslashes as \ooo. */
static void
put_name(const char *s)
{
	for (; *s != '\0'; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f || *s == '\\')
			printf("\\%03o", (unsigned char)*s);
		else
			putchar(*s);
}

/* "MOUNTPOINT (DEVICE, nfs vers 3, statvers 1.1)", no newline. */
static void
put_header(const struct ms_mount *m)
{
	put_name(m->mountpoint);
	printf(" (");
	put_name(m->device);
	printf(", nfs vers %u, statvers %s)", m->vers, m->statvers);
}

/*
 * The column line and one line per operation of 'm' with a nonzero count,
 * every column as wide as its widest cell, numbers right-aligned.
 */
static void
put_ops(const struct ms_mount *m)
{
	char		(*cells)[NCOLS][CELL];
	size_t		 width[NCOLS], i, n = 0, len;
	const uint64_t	*v;
	int		 c;

	cells = xreallocarray(NULL, m->nops + 1, sizeof(*cells));
	for (c = 0; c < NCOLS; c++)
		(void)snprintf(cells[0][c], CELL, "%s", col_names[c]);
	for (i = 0; i < m->nops; i++) {
		v = m->ops[i].v;
		if (v[MS_OPS] == 0)
			continue;
		n++;
		(void)snprintf(cells[n][0], CELL, "%s", m->ops[i].name);
		for (c = 0; c < 3; c++)
			(void)snprintf(cells[n][1 + c], CELL, "%" PRIu64, v[c]);
		(void)snprintf(cells[n][4], CELL, "%" PRIu64,
		    v[MS_BYTES_SENT] / v[MS_OPS]);
		(void)snprintf(cells[n][5], CELL, "%" PRIu64,
		    v[MS_BYTES_RECV] / v[MS_OPS]);
		(void)snprintf(cells[n][6], CELL, "%.3f",
		    (double)v[MS_RTT_MS] / (double)v[MS_OPS]);
		(void)snprintf(cells[n][7], CELL, "%.3f",
		    (double)v[MS_EXECUTE_MS] / (double)v[MS_OPS]);
		if (m->nfields > MS_ERRORS)
			(void)snprintf(cells[n][8], CELL, "%" PRIu64,
			    v[MS_ERRORS]);
		else
			(void)snprintf(cells[n][8], CELL, "-");
	}
	if (n == 0) {
		printf("  no calls\n");
		free(cells);
		return;
	}
	for (c = 0; c < NCOLS; c++) {
		width[c] = 0;
		for (i = 0; i <= n; i++)
			if ((len = strlen(cells[i][c])) > width[c])
				width[c] = len;
	}
	for (i = 0; i <= n; i++) {
		printf("  %-*s", (int)width[0], cells[i][0]);
		for (c = 1; c < NCOLS; c++)
			printf("  %*s", (int)width[c], cells[i][c]);
		putchar('\n');
	}
	free(cells);
}

/*
 * The mount the user named as 'mp' in 'ms' (read from 'path'); exits 2
 * with one line if there is none or it is not NFS.  NULL is never
 * returned.
 */
static const struct ms_mount *
named(const struct mountstats *ms, const char *path, const char *mp)
{
	const struct ms_mount	*m;

	if ((m = mountstats_find(ms, mp)) == NULL)
		report_usage("%s: not a mount point in %s", mp, path);
	if (!m->nfs)
		report_usage("%s: not an NFS mount (%s) in %s", mp, m->fstype,
		    path);
	return m;
}

/* largedir nfsstat [--mountstats FILE] [MOUNTPOINT...] */
static int
show(const char *path, int argc, char **argv)
{
	struct mountstats	 ms;
	const struct ms_mount	**list;
	size_t			 i, n = 0;
	int			 k;

	load(path != NULL ? path : MOUNTSTATS_SELF, path != NULL, &ms);
	if (path == NULL)
		path = MOUNTSTATS_SELF;
	list = xreallocarray(NULL, ms.n + (size_t)argc + 1, sizeof(*list));
	for (k = 0; k < argc; k++)	/* all checked before any output */
		list[n++] = named(&ms, path, trim_slash(argv[k]));
	for (i = 0; argc == 0 && i < ms.n; i++)
		if (ms.v[i].nfs)
			list[n++] = &ms.v[i];
	if (n == 0)
		printf("no NFS mounts in %s\n", path);
	for (i = 0; i < n; i++) {
		if (i > 0)
			putchar('\n');
		put_header(list[i]);
		if (mountstats_find(&ms, list[i]->mountpoint) != list[i])
			printf(", covered by a later mount");
		putchar('\n');
		put_ops(list[i]);
	}
	free(list);
	mountstats_free(&ms);
	if (fflush(stdout) == EOF || ferror(stdout))
		err(1, "stdout");
	return 0;
}

/*
 * One mount of the difference: 'b' and 'a' (either may be NULL: a mount
 * in one copy only) from the files 'bpath' and 'apath'.  A counter that
 * went down exits 2.
 */
static void
diff_one(const char *bpath, const char *apath, const struct ms_mount *b,
    const struct ms_mount *a)
{
	struct ms_mount	d;
	char		errbuf[LD_ERRLEN];

	if (a == NULL) {
		put_header(b);
		printf(": not in %s, unmounted since\n", apath);
		return;
	}
	if (b == NULL) {
		put_header(a);
		printf(": not in %s, mounted since\n", bpath);
		return;
	}
	if (mountstats_delta(b, a, &d, errbuf) == -1)
		report_usage("%s: %s", apath, errbuf);
	put_header(&d);
	printf(", %" PRIu64 " s between the copies\n", d.age_s);
	put_ops(&d);
	mountstats_clear(&d);
}

/* Is 'mp' one of the 'argc' mount points the user named (all if none)? */
static bool
wanted(const char *mp, int argc, char **argv)
{
	int	k;

	for (k = 0; k < argc; k++)
		if (strcmp(argv[k], mp) == 0)
			return true;
	return argc == 0;
}

/* The topmost mount on 'mp' in 'ms' if it is NFS, else NULL. */
static const struct ms_mount *
top_nfs(const struct mountstats *ms, const char *mp)
{
	const struct ms_mount	*m;

	return (m = mountstats_find(ms, mp)) != NULL && m->nfs ? m : NULL;
}

/*
 * largedir nfsstat --diff BEFORE AFTER [MOUNTPOINT...]: the NFS mounts of
 * AFTER in its order (a mount point once, its topmost mount), then those
 * of BEFORE that AFTER lacks.
 */
static int
diff(const char *bpath, const char *apath, int argc, char **argv)
{
	struct mountstats	 before, after;
	const struct ms_mount	*m;
	size_t			 i, n = 0;
	int			 k;

	load(bpath, true, &before);
	load(apath, true, &after);
	for (k = 0; k < argc; k++)	/* all checked before any output */
		if (top_nfs(&before, trim_slash(argv[k])) == NULL &&
		    top_nfs(&after, argv[k]) == NULL)
			report_usage("%s: not an NFS mount in %s or %s",
			    argv[k], bpath, apath);
	for (i = 0; i < after.n; i++) {
		m = &after.v[i];
		if (top_nfs(&after, m->mountpoint) != m ||
		    !wanted(m->mountpoint, argc, argv))
			continue;
		if (n++ > 0)
			putchar('\n');
		diff_one(bpath, apath, top_nfs(&before, m->mountpoint), m);
	}
	for (i = 0; i < before.n; i++) {
		m = &before.v[i];
		if (top_nfs(&before, m->mountpoint) != m ||
		    top_nfs(&after, m->mountpoint) != NULL ||
		    !wanted(m->mountpoint, argc, argv))
			continue;
		if (n++ > 0)
			putchar('\n');
		diff_one(bpath, apath, m, NULL);
	}
	if (n == 0)
		printf("no NFS mounts in %s or %s\n", bpath, apath);
	mountstats_free(&before);
	mountstats_free(&after);
	if (fflush(stdout) == EOF || ferror(stdout))
		err(1, "stdout");
	return 0;
}

/*
 * largedir nfsstat [--mountstats FILE] [MOUNTPOINT...], or --diff BEFORE
 * AFTER [MOUNTPOINT...].  Returns 0; exits 2 on a usage error, a
 * malformed or unreadable file the user named, a mount point that is no
 * NFS mount, a counter that went down between the copies; 1 when
 * /proc/self/mountstats cannot be read.
 */
int
nfsstat_main(int argc, char **argv)
{
	static const struct option	longopts[] = {
		{ "diff", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ "mountstats", required_argument, NULL, 'm' },
		{ NULL, 0, NULL, 0 }
	};
	const char			*before = NULL, *path = NULL;
	int				 ch;

	opterr = 0;
	while ((ch = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (ch) {
		case 'd':
			before = optarg;
			break;
		case 'h':
			printf("usage: largedir nfsstat [--mountstats file] "
			    "[mountpoint ...]\n"
			    "       largedir nfsstat --diff before after "
			    "[mountpoint ...]\n\nThe calls of the kernel's "
			    "NFS mounts, from /proc/self/mountstats (or\n"
			    "--mountstats file): per mount and procedure the "
			    "operations, transmissions,\ntimeouts, bytes and "
			    "times.  --diff shows what happened between two "
			    "saved\ncopies of the file.\n");
			return fflush(stdout) == EOF ? 1 : 0;
		case 'm':
			path = optarg;
			break;
		default:
			report_usage("nfsstat: unknown option or missing "
			    "value: %s", argv[optind - 1]);
		}
	}
	argc -= optind;
	argv += optind;
	if (before != NULL) {
		if (path != NULL || argc < 1)
			usage();
		return diff(before, argv[0], argc - 1, argv + 1);
	}
	return show(path, argc, argv);
}
