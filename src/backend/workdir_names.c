/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * workdir_names: see workdir_names.h.
 *
 * A marker written since the seed was recorded names every file of the
 * round in its record exactly: the names are built again from the seed
 * (names.c) the first time one is asked about, and looked up.  An older
 * marker says only the kind and width of its names: then a name of that
 * shape is the run's.
 */

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"
#include "backend/workdir_names.h"
#include "base/names.h"
#include "base/parse.h"
#include "base/util.h"

static bool	names_ours(struct workdir_names *, const char *,
		    const char *);
static bool	names_subdir(const struct workdir_names *, const char *,
		    const char *, uint64_t *);
static bool	names_in(struct workdir_names *, const char *, uint64_t,
		    const char *);

/* Whether 'name' is "round-K-R" as backend_round_name() writes it. */
bool
workdir_names_round_dir(const char *name)
{
	const char	*p;

	if (strncmp(name, "round-", 6) != 0)
		return false;
	p = name + 6;
	if (*p < '0' || *p > '9')
		return false;
	while (*p >= '0' && *p <= '9')
		p++;
	if (*p++ != '-' || *p < '0' || *p > '9')
		return false;
	while (*p >= '0' && *p <= '9')
		p++;
	return *p == '\0';
}

/*
 * Make 'wn' say what the marker 'm' of a dead run and its round record
 * 'record' (its text, or NULL if there is none) tell of the names it
 * made, for workdir_names_whose().  Return 0, or -1 if the marker does
 * not say how its names were made (not a work directory of ours).
 */
int
workdir_names_init(struct workdir_names *wn, const struct marker *m,
    char *record)
{
	const char	*errstr = "invalid";
	char		*sp, *end;
	uint64_t	 n;

	memset(wn, 0, sizeof(*wn));
	wn->m = *m;
	if (strncmp(m->names, "maildir", 7) == 0)
		errstr = NULL;
	else if (strncmp(m->names, "fixed ", 6) == 0)
		wn->len = (unsigned)parse_num(m->names + 6, 1, NAMES_MAX_LEN,
		    &errstr);
	if (errstr != NULL)
		return -1;
	wn->kind = wn->len == 0 ? NAMES_MAILDIR : NAMES_FIXED;
	/* "round-0003-1 2250\n", or "round-0003-1 2250 tree 15\n" */
	if (record == NULL || (sp = strchr(record, ' ')) == NULL ||
	    (size_t)(sp - record) >= sizeof(wn->round))
		return 0;
	*sp++ = '\0';
	if (*sp < '0' || *sp > '9' || !workdir_names_round_dir(record))
		return 0;
	errno = 0;
	n = strtoull(sp, &end, 10);
	if (errno != 0)
		return 0;
	if (strcmp(end, " maildir\n") == 0) {
		wn->mailbox = true;
		end += 8;
	} else if (strncmp(end, " tree ", 6) == 0) {
		sp = end + 6;
		if (*sp < '1' || *sp > '9')
			return 0;
		wn->per_dir = strtoull(sp, &end, 10);
		if (errno != 0 || wn->per_dir == 0)
			return 0;
	}
	if (*end != '\n') {
		wn->per_dir = 0;
		wn->mailbox = false;
		return 0;
	}
	(void)snprintf(wn->round, sizeof(wn->round), "%s", record);
	wn->n = n;
	return 0;
}

/*
 * Whether 'name' in round directory 'round' is a subdirectory the dead
 * run made there (the tree layout): if so, store its number in '*d'.
 */
static bool
names_subdir(const struct workdir_names *wn, const char *round,
    const char *name, uint64_t *d)
{
	static const char *const mbox[] = { "tmp", "new", "cur" };

	if (strcmp(round, wn->round) != 0)
		return false;
	if (wn->mailbox) {
		for (*d = 0; *d < 3; (*d)++)
			if (strcmp(name, mbox[*d]) == 0)
				return true;
		return false;
	}
	if (wn->per_dir == 0 || backend_subdir_parse(name, d) == -1)
		return false;
	return *d <= (wn->n - (wn->n > 0)) / wn->per_dir;
}

/*
 * Whether 'name' in subdirectory 'd' of round directory 'round' is a
 * file the dead run made there: one of its names whose place in the
 * tree is 'd', or a --churn file.
 */
static bool
names_in(struct workdir_names *wn, const char *round, uint64_t d,
    const char *name)
{
	uint64_t	idx;

	if (!names_ours(wn, round, name))
		return false;
	if (names_churn_match(name) || !wn->built || wn->mailbox)
		return true;	/* an old marker: by shape; or a mailbox's */
	return names_lookup(&wn->t, name, &idx) && idx / wn->per_dir == d;
}

/*
 * Whether 'name' in round directory 'round' is one the dead run made:
 * in the round it recorded, one of its names, rebuilt from the seed (the
 * first call builds them), or a --churn file; with a marker too old to
 * say how they were made, one of their shape; else none.
 */
static bool
names_ours(struct workdir_names *wn, const char *round,
    const char *name)
{
	uint64_t	idx;

	if (!wn->m.has_seed)
		return names_match(wn->kind, wn->len, name);
	if (strcmp(round, wn->round) != 0)
		return false;
	if (names_churn_match(name))
		return true;	/* --churn's, left by a killed run */
	if (!wn->built) {
		if (names_build_sized(&wn->t, wn->kind, wn->len, wn->n,
		    wn->m.seed, wn->m.file_size, wn->m.file_size_max) == -1)
			return false;
		wn->built = true;
	}
	if (wn->mailbox)	/* in new/ or tmp/, in cur/, flagged */
		return names_lookup_info(&wn->t, name, "", &idx) ||
		    names_lookup_info(&wn->t, name, NAMES_INFO, &idx) ||
		    names_lookup_info(&wn->t, name, NAMES_INFO "S", &idx);
	return names_lookup(&wn->t, name, &idx);
}

/*
 * What 'name' in round directory 'round' of the dead run 'wn' is, in
 * the round's subdirectory 'sub' of the tree layout (WORKDIR_NO_SUB: in
 * the round directory itself): WORKDIR_SUBDIR, a subdirectory the run
 * made (its number in '*d'); WORKDIR_OURS, a file the run made there
 * (in a subdirectory: one whose place in the tree is 'sub'); else
 * WORKDIR_FOREIGN, which a sweep must keep.
 */
enum workdir_whose
workdir_names_whose(struct workdir_names *wn, const char *round,
    uint64_t sub, const char *name, uint64_t *d)
{
	if (sub == WORKDIR_NO_SUB && names_subdir(wn, round, name, d))
		return WORKDIR_SUBDIR;
	if (sub == WORKDIR_NO_SUB ? names_ours(wn, round, name) :
	    names_in(wn, round, sub, name))
		return WORKDIR_OURS;
	return WORKDIR_FOREIGN;
}

/* Free what 'wn' built. */
void
workdir_names_free(struct workdir_names *wn)
{
	if (wn->built)
		names_free(&wn->t);
	wn->built = false;
}
