/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * mountinfo: see mountinfo.h.
 *
 * probe.c describes the mount that holds the directory under test
 * (mountinfo_holding(), then mountinfo_covering() for btrfs subvolumes,
 * whose st_dev is listed nowhere), target.c refuses a device that is
 * mounted (mountinfo_by_dev()) and unmounts what a crashed run left
 * (mountinfo_at()), memcg.c finds the cgroup hierarchies
 * (mountinfo_is_cgroup()).  The file is read through sysfile_lines(), so
 * neither the number of mounts nor the length of a line has a limit.
 *
 * Path prefixes are whole components: "/mnt" is a prefix of "/mnt/x"
 * and of "/mnt", never of "/mnt2".  Where two lines qualify equally the
 * later one wins, because a later mount on the same point is on top.
 */

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/parse.h"
#include "base/util.h"
#include "machine/mountinfo.h"
#include "machine/sysfile.h"

static int	number(const char *, unsigned *);
static long	prefix_len(const char *, const char *);
static int	add_line(void *, char *);

/* ===== Parsing ===== */

/*
 * Undo the kernel's mangling of a mountinfo (or mountstats) field in
 * place: it writes a space, tab, newline and backslash as \040, \011,
 * \012 and \134.  Any other backslash (and \000, which would end the
 * string) is kept as it is.
 */
void
mountinfo_unescape(char *s)
{
	char	*d = s;
	int	 c;

	while (*s != '\0') {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			c = (s[1] - '0') << 6 | (s[2] - '0') << 3 |
			    (s[3] - '0');
			if (c != 0) {
				*d++ = (char)c;
				s += 4;
				continue;
			}
		}
		*d++ = *s++;
	}
	*d = '\0';
}

/* Store the decimal 's' in '*v'; return 0, or -1 if it is none. */
static int
number(const char *s, unsigned *v)
{
	const char	*errstr;
	long long	 x;

	x = parse_num(s, 0, UINT_MAX, &errstr);
	if (errstr != NULL)
		return -1;
	*v = (unsigned)x;
	return 0;
}

/*
 * Split the mountinfo line 'line' (without its newline) into 'e' in
 * place: the strings of 'e' point into 'line', and 'e->line' is 'line'.
 * Fields (1) to (6) must be there and not empty, (1) to (3) numbers,
 * then come any number of optional fields and a lone "-", and fstype
 * (not empty), source and super options.  Return 0, or -1 with errno
 * EINVAL if the line has another shape; 'e' is then zeroed.
 */
int
mountinfo_parse(char *line, struct mountinfo_entry *e)
{
	char	*f[6], *p = line, *opt, *colon;
	size_t	 i, n;

	memset(e, 0, sizeof(*e));
	for (i = 0; i < 6; i++)
		if ((f[i] = strsep(&p, " ")) == NULL || *f[i] == '\0')
			goto bad;
	/* Optional fields ("shared:1 master:2"), ended by a lone "-". */
	for (opt = p; ; p += n + 1) {
		if (p == NULL)
			goto bad;
		n = strcspn(p, " ");
		if (n == 1 && *p == '-')
			break;
		if (p[n] == '\0')
			goto bad;
	}
	if (p[1] == '\0')
		goto bad;		/* nothing after the "-" */
	*p = '\0';
	if (p > opt) {
		p[-1] = '\0';
		e->optional = opt;
	} else
		e->optional = p;	/* "" */
	p += 2;
	if ((e->fstype = strsep(&p, " ")) == NULL ||
	    (e->source = strsep(&p, " ")) == NULL ||
	    (e->super_opts = strsep(&p, " ")) == NULL ||
	    *e->fstype == '\0')
		goto bad;

	if ((colon = strchr(f[2], ':')) == NULL)
		goto bad;
	*colon = '\0';
	if (number(f[0], &e->id) == -1 || number(f[1], &e->parent) == -1 ||
	    number(f[2], &e->major) == -1 || number(colon + 1, &e->minor) ==
	    -1)
		goto bad;
	e->root = f[3];
	e->mountpoint = f[4];
	e->mount_opts = f[5];
	e->line = line;
	mountinfo_unescape(e->root);
	mountinfo_unescape(e->mountpoint);
	mountinfo_unescape(e->source);
	return 0;
bad:
	memset(e, 0, sizeof(*e));
	errno = EINVAL;
	return -1;
}

/* sysfile_lines() callback of mountinfo_load(): add one line. */
static int
add_line(void *arg, char *line)
{
	struct mountinfo	*mi = arg;
	struct mountinfo_entry	 e;
	char			*copy;

	copy = xstrdup(line);
	if (mountinfo_parse(copy, &e) == -1) {
		free(copy);
		mi->bad++;
		return 0;
	}
	if (mi->n == mi->cap) {
		mi->cap = mi->cap == 0 ? 64 : mi->cap * 2;
		mi->v = xreallocarray(mi->v, mi->cap, sizeof(*mi->v));
	}
	mi->v[mi->n++] = e;
	return 0;
}

/*
 * Read the mountinfo(5)-format file 'path' (MOUNTINFO_SELF on a live
 * system) into 'mi': an entry for each well-formed line, in file order,
 * and in 'mi->bad' the number of lines skipped for their shape.  Return
 * 0, or -1 with the errno of reading; 'mi' is then empty.  Either way
 * the caller frees 'mi' with mountinfo_free().
 */
int
mountinfo_load(const char *path, struct mountinfo *mi)
{
	int	saved;

	memset(mi, 0, sizeof(*mi));
	if (sysfile_lines(path, add_line, mi) == -1) {
		saved = errno;
		mountinfo_free(mi);
		errno = saved;
		return -1;
	}
	return 0;
}

/* Free what 'mi' holds and zero it; safe on a zeroed struct. */
void
mountinfo_free(struct mountinfo *mi)
{
	size_t	i;

	for (i = 0; i < mi->n; i++)
		free(mi->v[i].line);
	free(mi->v);
	memset(mi, 0, sizeof(*mi));
}

/* ===== Lookups ===== */

/*
 * Return the length of 'mp' if it is a whole-component prefix of 'path'
 * ("/mnt" is one of "/mnt/x" and of "/mnt", not of "/mnt2"), else -1.
 */
static long
prefix_len(const char *mp, const char *path)
{
	size_t	 n;

	if (path == NULL)
		return -1;
	n = strlen(mp);
	if (strncmp(mp, path, n) != 0)
		return -1;
	if (path[n] == '\0' || path[n] == '/' || (n > 0 && mp[n - 1] == '/'))
		return (long)n;
	return -1;
}

/*
 * Return the first entry of 'mi' with device number 'major':'minor' (is
 * the device mounted, and where), or NULL if there is none.
 */
const struct mountinfo_entry *
mountinfo_by_dev(const struct mountinfo *mi, unsigned major, unsigned minor)
{
	size_t	i;

	for (i = 0; i < mi->n; i++)
		if (mi->v[i].major == major && mi->v[i].minor == minor)
			return &mi->v[i];
	return NULL;
}

/*
 * Return the mount of the filesystem with device number 'major':'minor'
 * that holds 'path' (absolute and canonical, or NULL): among the entries
 * of 'mi' with that device (bind mounts), the one whose mount point is
 * the longest prefix of 'path', or the last one if none is a prefix.
 * Return NULL if no entry has that device.
 */
const struct mountinfo_entry *
mountinfo_holding(const struct mountinfo *mi, unsigned major, unsigned minor,
    const char *path)
{
	const struct mountinfo_entry	*best = NULL;
	long				 best_len = -2, len;
	size_t				 i;

	for (i = 0; i < mi->n; i++) {
		if (mi->v[i].major != major || mi->v[i].minor != minor)
			continue;
		len = prefix_len(mi->v[i].mountpoint, path);
		if (len >= best_len) {
			best_len = len;
			best = &mi->v[i];
		}
	}
	return best;
}

/*
 * Return the entry of 'mi' whose mount point is the longest prefix of
 * 'path' (absolute and canonical), whatever its device: the mount that
 * covers 'path'.  Return NULL if there is none.
 */
const struct mountinfo_entry *
mountinfo_covering(const struct mountinfo *mi, const char *path)
{
	const struct mountinfo_entry	*best = NULL;
	long				 best_len = -1, len;
	size_t				 i;

	for (i = 0; i < mi->n; i++) {
		len = prefix_len(mi->v[i].mountpoint, path);
		if (len >= 0 && len >= best_len) {
			best_len = len;
			best = &mi->v[i];
		}
	}
	return best;
}

/*
 * Return the first entry of 'mi' mounted on exactly 'mountpoint', or
 * NULL if nothing is mounted there.
 */
const struct mountinfo_entry *
mountinfo_at(const struct mountinfo *mi, const char *mountpoint)
{
	size_t	i;

	for (i = 0; i < mi->n; i++)
		if (strcmp(mi->v[i].mountpoint, mountpoint) == 0)
			return &mi->v[i];
	return NULL;
}

/*
 * Whether 'e' is a cgroup hierarchy: with 'controller' NULL the cgroup v2
 * one (fstype cgroup2), else a cgroup v1 one (fstype cgroup) whose
 * superblock options name 'controller' ("rw,cpuacct,memory" has
 * "memory"; "name=memory" does not).
 */
bool
mountinfo_is_cgroup(const struct mountinfo_entry *e, const char *controller)
{
	if (controller == NULL)
		return strcmp(e->fstype, "cgroup2") == 0;
	return strcmp(e->fstype, "cgroup") == 0 &&
	    sysfile_has_word(e->super_opts, controller, ",");
}
