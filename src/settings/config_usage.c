/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * config_usage: the option table as getopt_long(3) sees it
 * (config_getopt()) and as largedir -h prints it (config_usage()): the
 * letters sorted as OpenBSD sorts them, the synopsis as in the man page,
 * and one line per option.
 */

#include <ctype.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "settings/config.h"

#define USAGE_WIDTH	80	/* columns of -h's synopsis */
#define USAGE_INDENT	"                "	/* under "largedir" */

static int	by_letter(const void *, const void *);
static size_t	lettered(const struct config_opt **, bool);
static void	wrap(FILE *, char *, size_t, const char *);
static void	synopsis(FILE *);
static void	usage_line(FILE *, const struct config_opt *);

/* qsort(3): letters as OpenBSD sorts them, case apart: "bgNno". */
static int
by_letter(const void *a, const void *b)
{
	int	x = (*(const struct config_opt *const *)a)->letter;
	int	y = (*(const struct config_opt *const *)b)->letter;

	if (tolower(x) != tolower(y))
		return tolower(x) - tolower(y);
	return x - y;		/* 'N' before 'n' */
}

/*
 * Fill 'out' with the options that have a letter, sorted by it; with
 * 'synopsis', only those of -h's first line.  Return how many.  'out'
 * has room for every option.
 */
static size_t
lettered(const struct config_opt **out, bool synopsis)
{
	const struct config_opt	*o;
	size_t			 i, n = 0;

	for (i = 0; (o = config_opt_at(i)) != NULL; i++)
		if (o->letter != 0 && (!synopsis ||
		    (o->flags & CONFIG_SYNOPSIS) != 0))
			out[n++] = o;
	qsort(out, n, sizeof(*out), by_letter);
	return n;
}

/*
 * The tables getopt_long(3) needs, from the options of config_opt_at():
 * fill 'optstring' (CONFIG_NSHORT bytes) with the short options, sorted,
 * after a ':' (so a missing value is ':' and not '?'), and return the
 * long options, each with its letter as its value, or 256 + its index if
 * it has none.  The caller frees the array.
 */
struct option *
config_getopt(char *optstring)
{
	const struct config_opt	*o, **sorted;
	struct option		*lo;
	size_t			 i, n, nl, ns = 0;

	for (n = 0; config_opt_at(n) != NULL; n++)
		;
	lo = xreallocarray(NULL, n + 1, sizeof(*lo));
	for (i = 0; i < n; i++) {
		o = config_opt_at(i);
		lo[i].name = o->name;
		lo[i].has_arg = o->type != CONFIG_FLAG ? required_argument :
		    no_argument;
		lo[i].flag = NULL;
		lo[i].val = o->letter != 0 ? o->letter : 256 + (int)i;
	}
	memset(&lo[n], 0, sizeof(lo[n]));
	sorted = xreallocarray(NULL, n + 1, sizeof(*sorted));
	optstring[ns++] = ':';
	nl = lettered(sorted, false);
	for (i = 0; i < nl && ns + 3 < CONFIG_NSHORT; i++) {
		optstring[ns++] = (char)sorted[i]->letter;
		if (sorted[i]->type != CONFIG_FLAG)
			optstring[ns++] = ':';
	}
	optstring[ns] = '\0';
	free(sorted);
	return lo;
}

/*
 * Add 'item' to the synopsis line 'line' ('len' bytes), printing the
 * line to 'fp' first and starting another if it would grow too wide.
 */
static void
wrap(FILE *fp, char *line, size_t len, const char *item)
{
	size_t	n = strlen(line);

	if (n + 1 + strlen(item) > USAGE_WIDTH) {
		(void)fprintf(fp, "%s\n", line);
		(void)snprintf(line, len, "%s%s", USAGE_INDENT, item);
	} else
		(void)snprintf(line + n, len - n, " %s", item);
}

/*
 * The first line of -h, as the man page's SYNOPSIS: of the options
 * marked CONFIG_SYNOPSIS, the flags with a letter, the other options
 * with a letter, then the long ones in table order, wrapped at
 * USAGE_WIDTH columns.
 */
static void
synopsis(FILE *fp)
{
	const struct config_opt	**sorted, *o;
	char			  line[256], item[128];
	size_t			  i, n, k = 0;

	for (n = 0; config_opt_at(n) != NULL; n++)
		;
	sorted = xreallocarray(NULL, n + 1, sizeof(*sorted));
	n = lettered(sorted, true);
	for (i = 0; i < n; i++)
		if (sorted[i]->type == CONFIG_FLAG && k + 2 < sizeof(item))
			item[k++] = (char)sorted[i]->letter;
	item[k] = '\0';
	(void)snprintf(line, sizeof(line), "usage: largedir [-%s]", item);
	for (i = 0; i < n; i++) {
		if (sorted[i]->type == CONFIG_FLAG)
			continue;
		(void)snprintf(item, sizeof(item), "[-%c %s]",
		    sorted[i]->letter, sorted[i]->metavar);
		wrap(fp, line, sizeof(line), item);
	}
	for (i = 0; (o = config_opt_at(i)) != NULL; i++) {
		if (o->letter != 0 || (o->flags & CONFIG_SYNOPSIS) == 0)
			continue;
		(void)snprintf(item, sizeof(item), "[--%s%s%s]", o->name,
		    o->metavar != NULL ? " " : "",
		    o->metavar != NULL ? o->metavar : "");
		wrap(fp, line, sizeof(line), item);
	}
	wrap(fp, line, sizeof(line), "dir");
	free(sorted);
	(void)fprintf(fp, "%s\n", line);
}

/* One line of -h for 'o': its spellings, its help and its default. */
static void
usage_line(FILE *fp, const struct config_opt *o)
{
	char	left[64], right[256];

	if (o->letter != 0)
		(void)snprintf(left, sizeof(left), "-%c, --%s%s%s", o->letter,
		    o->name, o->metavar != NULL ? " " : "",
		    o->metavar != NULL ? o->metavar : "");
	else
		(void)snprintf(left, sizeof(left), "    --%s%s%s", o->name,
		    o->metavar != NULL ? " " : "",
		    o->metavar != NULL ? o->metavar : "");
	if (o->def != NULL)
		(void)snprintf(right, sizeof(right), "%s (%s)", o->help,
		    o->def);
	else
		(void)snprintf(right, sizeof(right), "%s", o->help);
	(void)fprintf(fp, "  %-35s %s\n", left, right);
}

/*
 * Print largedir -h to 'fp': the synopsis, as in the man page, and one
 * line per option of config_opts[] in its order, the target keys apart,
 * then those of each registered backend that has options.  Return 0, or
 * -1 with errno if 'fp' failed.
 */
int
config_usage(FILE *fp)
{
	const struct backend_ops	*ops;
	const struct config_opt		*o;
	size_t				 b;

	synopsis(fp);
	(void)fprintf(fp,
	    "       largedir -c file [options]\n"
	    "       largedir suite [options] [--total-budget duration] "
	    "file ...\n"
	    "       largedir compare [-n count] [-r count] [options] A B\n"
	    "       largedir plot results\n"
	    "       largedir page results\n"
	    "       largedir cleanup [--scratch dir] [dir]\n"
	    "       largedir nfsstat [--mountstats file] [mountpoint ...]\n"
	    "       largedir nfsstat --diff before after [mountpoint ...]\n"
	    "       largedir table [--format text|md] [--n n[,n...]] "
	    "[--phases phases]\n"
	    "                      results ...\n\n");
	for (o = config_opts; o->name != NULL; o++)
		if ((o->flags & CONFIG_UNLISTED) == 0 &&
		    o->act != CONFIG_ACT_TARGET)
			usage_line(fp, o);
	(void)fprintf(fp, "\ntarget keys, with -c file (over what it says):\n");
	for (o = config_opts; o->name != NULL; o++)
		if (o->act == CONFIG_ACT_TARGET)
			usage_line(fp, o);
	for (b = 0; (ops = backend_nth(b)) != NULL; b++) {
		if (ops->options == NULL || ops->options->name == NULL)
			continue;
		(void)fprintf(fp, "\noptions of the %s backend:\n", ops->name);
		for (o = ops->options; o->name != NULL; o++)
			if ((o->flags & CONFIG_UNLISTED) == 0)
				usage_line(fp, o);
	}
	return fflush(fp) == EOF || ferror(fp) ? -1 : 0;
}
