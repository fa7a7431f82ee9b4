/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * suite: see suite.h.  The CSV is largedir's own (out_csv.c): a header of
 * snake_case names, then numbers, CRLF line ends, no quoting needed.
 */

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suite.h"

#define LINE_MAX_LEN	65536

static size_t	split(char *, char **, size_t);

/* Split the CSV line 's' in place at commas; return the field count. */
static size_t
split(char *s, char **f, size_t max)
{
	size_t	n = 0;

	s[strcspn(s, "\r\n")] = '\0';
	while (n < max) {
		f[n++] = s;
		if ((s = strchr(s, ',')) == NULL)
			break;
		*s++ = '\0';
	}
	return n;
}

/*
 * From the largedir CSV file 'path', take the row with the largest n and
 * store its values of the 'ncols' columns 'cols' in 'out' (NAN for a
 * column it lacks or an empty field).  With no rows, every value is NAN.
 * Return the number of rows, or -1 with errno if the file cannot be read
 * or has no column "n" (EINVAL).
 */
int
suite_read_csv(const char *path, const char *const *cols, size_t ncols,
    double *out)
{
	char	*line, *f[512];
	size_t	 nf, i, j, idx[64], ni = SIZE_MAX;
	double	 best = -1, v;
	FILE	*fp;
	int	 rows = 0, saved;

	for (i = 0; i < ncols; i++)
		out[i] = NAN;
	if (ncols > 64) {
		errno = EINVAL;
		return -1;
	}
	if ((fp = fopen(path, "re")) == NULL)
		return -1;
	errno = 0;
	line = malloc(LINE_MAX_LEN);
	if (line == NULL || fgets(line, LINE_MAX_LEN, fp) == NULL)
		goto bad;
	nf = split(line, f, 512);
	for (i = 0; i < ncols; i++) {
		idx[i] = SIZE_MAX;
		for (j = 0; j < nf; j++)
			if (strcmp(f[j], cols[i]) == 0)
				idx[i] = j;
	}
	for (j = 0; j < nf; j++)
		if (strcmp(f[j], "n") == 0)
			ni = j;
	if (ni == SIZE_MAX)
		goto bad;
	while (fgets(line, LINE_MAX_LEN, fp) != NULL) {
		nf = split(line, f, 512);
		if (ni >= nf || *f[ni] == '\0')
			continue;
		rows++;
		if ((v = strtod(f[ni], NULL)) <= best)
			continue;
		best = v;
		for (i = 0; i < ncols; i++)
			out[i] = idx[i] < nf && *f[idx[i]] != '\0' ?
			    strtod(f[idx[i]], NULL) : NAN;
	}
	free(line);
	(void)fclose(fp);
	return rows;
bad:
	saved = errno != 0 ? errno : EINVAL;
	free(line);
	(void)fclose(fp);
	errno = saved;
	return -1;
}
