/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/* pagerepro: see pagerepro.h. */

#include <sys/stat.h>

#include <dirent.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "page/pagerepro.h"

#define NAMES_MAX	64	/* files linked, at most */

static const char	*command(const struct results_target *);
static bool	seen_before(const struct results *, size_t);
static bool	worth_linking(const char *);
static int	by_name(const void *, const void *);

/*
 * Print the section for the targets 'rs' of the results directory open
 * as 'dirfd', in 'lang'.
 */
void
pagerepro_put(FILE *fp, int dirfd, const struct results *rs,
    enum html_lang lang)
{
	const char	*cmd;
	char		*names[NAMES_MAX];
	struct dirent	*d;
	struct stat	 st;
	DIR		*dp;
	size_t		 i, n = 0;
	int		 fd;

	html_put(fp, "<h2>%s</h2>\n<p>%s</p>\n", html_tr(lang, "Reproduce",
	    "Nachvollziehen"), html_tr(lang, "The commands, as they were "
	    "typed:", "Die Aufrufe, so wie sie eingegeben wurden:"));
	/* Each target's suite's, else its own; each once. */
	for (i = 0; i < rs->nt; i++) {
		if ((cmd = command(&rs->t[i])) == NULL || seen_before(rs, i))
			continue;
		html_esc(fp, "<pre><code>", cmd, "</code></pre>\n");
	}
	if ((fd = dup(dirfd)) == -1 || (dp = fdopendir(fd)) == NULL) {
		if (fd != -1)
			(void)close(fd);
		return;
	}
	rewinddir(dp);		/* the descriptor's offset is shared */
	while ((d = readdir(dp)) != NULL && n < NAMES_MAX)
		if (worth_linking(d->d_name) && fstatat(dirfd, d->d_name, &st,
		    AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode))
			names[n++] = xstrdup(d->d_name);
	(void)closedir(dp);
	if (n == 0)
		return;
	qsort(names, n, sizeof(names[0]), by_name);
	html_put(fp, "<p>%s ", html_tr(lang, "How it was run, and what it "
	    "printed:", "Wie es lief und was es ausgab:"));
	for (i = 0; i < n; i++) {
		html_put(fp, "%s<a href=\"", i > 0 ? ", " : "");
		html_url(fp, names[i], "");
		html_esc(fp, "\">", names[i], "</a>");
		free(names[i]);
	}
	html_put(fp, ".</p>\n");
}

/* The command that made target 't': its suite's, else its own. */
static const char *
command(const struct results_target *t)
{
	const char	*cmd = results_meta(t, "suite_command");

	return cmd != NULL ? cmd : results_meta(t, "command");
}

/* Whether target i's command is one an earlier target of 'rs' has too. */
static bool
seen_before(const struct results *rs, size_t i)
{
	const char	*v = command(&rs->t[i]), *w;
	size_t		 j;

	for (j = 0; j < i; j++)
		if ((w = command(&rs->t[j])) != NULL && strcmp(v, w) == 0)
			return true;
	return false;
}

/* The notes, logs and configs of a results directory. */
static bool
worth_linking(const char *name)
{
	size_t	len = strlen(name);

	if (name[0] == '.')
		return false;
	return strcmp(name, "NOTES") == 0 || strcmp(name, "NOTES.md") == 0 ||
	    (len > 4 && strcmp(name + len - 4, ".log") == 0) ||
	    (len > 5 && strcmp(name + len - 5, ".conf") == 0);
}

/* qsort(3): by name. */
static int
by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}
