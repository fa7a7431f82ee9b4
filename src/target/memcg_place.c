/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * memcg_place: see memcg_place.h.
 *
 * Finding our memory cgroup: /proc/self/cgroup names it relative to the
 * root of our cgroup namespace, on a v1 line whose controller list holds
 * "memory" ("4:memory:/a/b") or on the v2 line ("0::/a/b").  mountinfo
 * shows where the hierarchy is mounted and, in its root field, which of
 * its cgroups the mount shows at its mount point (relative to the same
 * namespace root): a mount of root "/a" shows /a/b at MOUNTPOINT/b.  A
 * mount whose root is not a prefix of our cgroup cannot reach it and is
 * passed over.  v1 comes first: while the memory controller is bound to
 * a v1 hierarchy, v2 cannot have it.  v2 has it if the cgroup at the top
 * of the mount lists it in cgroup.controllers: no cgroup below can have
 * a controller its parent lacks.
 *
 * mountinfo.c parses mountinfo and unescapes its fields.  A mount is
 * looked up by its device with mountinfo_holding(): of several mounts of
 * one hierarchy (one device) it sees only the last, which is enough for
 * the mounts cgroups get.  The /proc and cgroup files are read with
 * sysfile.c.
 *
 * The parent of the child (memcg_place_parent()): on v1 our own memory
 * cgroup.  On v2 a cgroup's children get memory only if its
 * cgroup.subtree_control lists it, and the kernel refuses to add it
 * (EBUSY) while the cgroup holds processes, the root cgroup excepted;
 * ours always holds largedir.  So the walk goes from our cgroup up to
 * the top of the mount and takes the first that lists memory already,
 * and writes nothing there.  Such a cgroup holds no processes of its own
 * (or is the root), so the child may go below it.  The walk stops at the
 * mount: what lies above it is not ours to see (a container, a cgroup
 * namespace).
 */

#include <sys/stat.h>
#include <sys/types.h>

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "machine/mountinfo.h"
#include "machine/sysfile.h"
#include "target/memcg.h"
#include "target/memcg_place.h"

#define PROC_CGROUP	"/proc/self/cgroup"
#define NO_MEMCG	"no memory cgroup controller (neither cgroup v1 " \
			"memory nor cgroup v2 with memory in " \
			"cgroup.controllers"

/* Our cgroups as /proc/self/cgroup names them; see read_cgroup(). */
struct cgroup_scan {
	char	*v1, *v2;
};

static char	*join(const char *, const char *, const char *);
static int	 cgroup_line(void *, char *);
static int	 read_cgroup(const char *, char **, char **);
static const char *
		 below(const char *, const char *);
static int	 scan_mounts(const char *, const char *, enum memcg_version,
		    const char *, char **, char **);

/*
 * Return the new string 'root' + 'mnt' + 'rel', where 'mnt' is an
 * absolute path and 'rel' is "" or starts with '/', with no doubled or
 * trailing slashes: ("/", "/sys/fs/cgroup", "/a") is "/sys/fs/cgroup/a".
 */
static char *
join(const char *root, const char *mnt, const char *rel)
{
	size_t	 nr, nm, nl;
	char	*s;

	nr = strlen(root);
	nm = strlen(mnt);
	nl = strlen(rel);
	while (nr > 0 && root[nr - 1] == '/')
		nr--;
	while (nm > 0 && mnt[nm - 1] == '/')
		nm--;
	while (nl > 0 && rel[nl - 1] == '/')
		nl--;
	s = xasprintf("%.*s%.*s%.*s", (int)nr, root, (int)nm, mnt, (int)nl,
	    rel);
	if (*s == '\0') {
		free(s);
		s = xstrdup("/");
	}
	return s;
}

/* sysfile_lines() callback of read_cgroup(): "4:memory:/a", "0::/a". */
static int
cgroup_line(void *arg, char *line)
{
	struct cgroup_scan	*c = arg;
	char			*ctl, *cg;

	if ((ctl = strchr(line, ':')) == NULL)
		return 0;
	*ctl++ = '\0';
	if ((cg = strchr(ctl, ':')) == NULL)
		return 0;
	*cg++ = '\0';
	if (*cg != '/')
		return 0;
	if (c->v1 == NULL && sysfile_has_word(ctl, "memory", ","))
		c->v1 = xstrdup(cg);
	else if (c->v2 == NULL && strcmp(line, "0") == 0 && *ctl == '\0')
		c->v2 = xstrdup(cg);
	return 0;
}

/*
 * Read the cgroup(7) membership file 'path': store in '*v1' the path of
 * our cgroup in the v1 hierarchy that has the memory controller and in
 * '*v2' that of the v2 line "0::PATH", as new strings, or NULL where
 * there is no such line.  Return 0, or -1 with errno.
 */
static int
read_cgroup(const char *path, char **v1, char **v2)
{
	struct cgroup_scan	c = { NULL, NULL };
	int			saved;

	*v1 = *v2 = NULL;
	if (sysfile_lines(path, cgroup_line, &c) == -1) {
		saved = errno;
		free(c.v1);
		free(c.v2);
		errno = saved;
		return -1;
	}
	*v1 = c.v1;
	*v2 = c.v2;
	return 0;
}

/*
 * Where cgroup 'cg' lies below a mount of root 'mroot': the rest of 'cg'
 * ("" or "/..."), or NULL if 'mroot' is not a whole-component prefix.
 */
static const char *
below(const char *mroot, const char *cg)
{
	size_t	n;

	n = strlen(mroot);
	while (n > 0 && mroot[n - 1] == '/')
		n--;
	if (strncmp(mroot, cg, n) != 0 || (cg[n] != '\0' && cg[n] != '/'))
		return NULL;
	return cg + n;
}

/*
 * Look in the mountinfo file 'mi' for a mount of the cgroup hierarchy
 * of version 'v' (v1: the one with the memory controller) that shows
 * our cgroup 'cg', and store its directory (below 'root') in '*dir' and
 * the mount point (below 'root') in '*top' as new strings, or both NULL
 * if there is none that exists.  Return 0, or -1 with errno if 'mi'
 * cannot be read.
 */
static int
scan_mounts(const char *mi, const char *root, enum memcg_version v,
    const char *cg, char **dir, char **top)
{
	const struct mountinfo_entry	*e, *m;
	struct mountinfo		 mt;
	struct stat			 st;
	char				*d;
	const char			*rel;
	size_t				 i;

	*dir = *top = NULL;
	if (mountinfo_load(mi, &mt) == -1)
		return -1;
	for (i = 0; i < mt.n && *dir == NULL; i++) {
		e = &mt.v[i];
		if (!mountinfo_is_cgroup(e, v == MEMCG_V1 ? "memory" : NULL))
			continue;
		/* Of several mounts of the hierarchy, the last one. */
		m = mountinfo_holding(&mt, e->major, e->minor, NULL);
		if ((rel = below(m->root, cg)) == NULL)
			continue;
		d = join(root, m->mountpoint, rel);
		if (stat(d, &st) == 0 && S_ISDIR(st.st_mode)) {
			*dir = d;
			*top = join(root, m->mountpoint, "");
		} else
			free(d);
	}
	mountinfo_free(&mt);
	return 0;
}

/*
 * Find our own memory cgroup below 'root' (see memcg_find()): store its
 * version in '*version', its directory in '*dir' and the directory of
 * the top of its mount in '*top', as new strings.  Return 0, or -1 with
 * errno and a one-line message in 'err' (ENOTSUP if there is no usable
 * memory controller, or the errno of reading the /proc files); then
 * '*dir' and '*top' are NULL.
 */
int
memcg_place_locate(const char *root, enum memcg_version *version, char **dir,
    char **top, char *err)
{
	char	*path, *cg1 = NULL, *cg2 = NULL, *ctl;
	char	 line[512];
	int	 saved;
	bool	 nomem = false;

	*version = MEMCG_NONE;
	*dir = *top = NULL;
	path = join(root, PROC_CGROUP, "");
	if (read_cgroup(path, &cg1, &cg2) == -1)
		goto fail;
	free(path);
	path = join(root, MOUNTINFO_SELF, "");
	if (cg1 != NULL) {
		if (scan_mounts(path, root, MEMCG_V1, cg1, dir, top) == -1)
			goto fail;
		if (*dir != NULL)
			*version = MEMCG_V1;
	}
	if (*dir == NULL && cg2 != NULL) {
		if (scan_mounts(path, root, MEMCG_V2, cg2, dir, top) == -1)
			goto fail;
		if (*dir != NULL) {
			ctl = xasprintf("%s/cgroup.controllers", *top);
			if (sysfile_line(ctl, line, sizeof(line)) == 0 &&
			    sysfile_has_word(line, "memory", " "))
				*version = MEMCG_V2;
			else
				nomem = true;
			free(ctl);
		}
	}
	free(path);
	free(cg1);
	free(cg2);
	if (*version != MEMCG_NONE)
		return 0;
	if (nomem)
		(void)snprintf(err, LD_ERRLEN, NO_MEMCG " of %s)", *top);
	else
		(void)snprintf(err, LD_ERRLEN, NO_MEMCG ")");
	free(*dir);
	free(*top);
	*dir = *top = NULL;
	errno = ENOTSUP;
	return -1;
fail:
	saved = errno;
	(void)snprintf(err, LD_ERRLEN, "%s: %s", path, strerror(saved));
	free(path);
	free(cg1);
	free(cg2);
	errno = saved;
	return -1;
}

/*
 * Find the cgroup below 'root' that memcg_create() puts its child below
 * (see the top of this file): on v1 our memory cgroup, on v2 the nearest
 * of our cgroup and its ancestors up to the top of the mount whose
 * cgroup.subtree_control lists memory.  Store its version in '*version'
 * and its directory in '*parent' as a new string.  Return 0, or -1 with
 * errno and a one-line message in 'err': ENOTSUP if there is no memory
 * controller or on v2 no such cgroup, or the errno of reading.
 */
int
memcg_place_parent(const char *root, enum memcg_version *version, char **parent,
    char *err)
{
	char	*ours, *top, *cur, *path, *slash, line[512];
	int	 saved = 0;
	bool	 found;

	*parent = NULL;
	if (memcg_place_locate(root, version, &ours, &top, err) == -1)
		return -1;
	cur = xstrdup(ours);
	found = *version == MEMCG_V1;
	while (!found) {
		path = xasprintf("%s/cgroup.subtree_control", cur);
		if (sysfile_line(path, line, sizeof(line)) == 0)
			found = sysfile_has_word(line, "memory", " ");
		else if (errno != ENODATA && errno != ENOENT) {
			saved = errno;
			(void)snprintf(err, LD_ERRLEN, "%s: %s", path,
			    strerror(saved));
		}
		free(path);
		/* 'ours' is 'top' and then the rest of our cgroup's path. */
		if (found || saved != 0 || strlen(cur) <= strlen(top) ||
		    (slash = strrchr(cur, '/')) == NULL)
			break;
		*slash = '\0';
	}
	if (!found && saved == 0) {
		(void)snprintf(err, LD_ERRLEN, "cgroup v2: no cgroup from %s "
		    "up to %s enables memory for its children; e.g. echo "
		    "+memory > %s/cgroup.subtree_control", ours, top, top);
		saved = ENOTSUP;
	}
	free(ours);
	free(top);
	if (!found) {
		free(cur);
		*version = MEMCG_NONE;
		errno = saved;
		return -1;
	}
	*parent = cur;
	return 0;
}
