/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * memcg: see memcg.h.  Where the child goes is memcg_place.c's.
 *
 * Limits: v1 memory.limit_in_bytes and memory.memsw.limit_in_bytes (the
 * kernel keeps memsw >= limit at every step; a new cgroup's memsw is
 * unlimited, so the limit is written first), and memory.oom_control 0,
 * since a child inherits a disabled OOM killer and would hang instead of
 * being killed.  v2 memory.max and memory.swap.max 0.
 *
 * Peaks: v1 resets memory.max_usage_in_bytes for everyone.  v2 (Linux
 * 6.12) resets memory.peak only for reads through the descriptor that
 * wrote the reset, so memcg_create() keeps one open in 'peak_fd'.
 */

#include <sys/stat.h>
#include <sys/types.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "backend/marker.h"
#include "backend/sweep.h"
#include "base/parse.h"
#include "base/util.h"
#include "machine/mountinfo.h"
#include "machine/sysfile.h"
#include "target/memcg.h"
#include "target/memcg_place.h"

#define PROCS		"/cgroup.procs"
#define LIMIT_MIN	4096		/* smallest limit taken, bytes */
#define RMDIR_TRIES	50		/* rmdir attempts on EBUSY ... */
#define RMDIR_WAIT_NS	20000000L	/* ... 20 ms apart: about 1 s */

/* What memcg_sweep() walks the parent cgroup with. */
struct parent_sweep {
	const char	*dir;
	struct marker	 m;		/* our host; the pid of each child */
	void		(*report)(void *, const struct memcg_report *);
	void		*arg;
};

static int	 put_in(const char *, const char *, const char *, char *);
static int	 has_tasks(const char *);
static int	 make_dir(const char *, char *);
static int	 set_limits(enum memcg_version, const char *, uint64_t,
		    char *);
static long long
		 owner(const char *);
static int64_t	 found_entry(void *, const struct sweep_entry *);

/* ===== Helpers ===== */

/*
 * Write 'value' to the file 'name' of cgroup 'dir'.  Return 0, or -1 with
 * errno and "PATH: reason" in 'err'.
 */
static int
put_in(const char *dir, const char *name, const char *value, char *err)
{
	char	*path;
	int	 saved;

	path = xasprintf("%s/%s", dir, name);
	if (util_write_file(path, value) == 0) {
		free(path);
		return 0;
	}
	saved = errno;
	(void)snprintf(err, LD_ERRLEN, "write %s to %s: %s", value, path,
	    strerror(saved));
	free(path);
	errno = saved;
	return -1;
}

/*
 * Whether cgroup 'dir' holds tasks: 1 if its cgroup.procs lists any, 0
 * if it is empty or missing, -1 with errno if it cannot be read.
 */
static int
has_tasks(const char *dir)
{
	char	*path, line[32];
	int	 r, saved;

	path = xasprintf("%s" PROCS, dir);
	if (sysfile_line(path, line, sizeof(line)) == 0)
		r = 1;
	else
		r = errno == ENODATA || errno == ENOENT ? 0 : -1;
	saved = errno;
	free(path);
	errno = saved;
	return r;
}

/*
 * Make the directory of cgroup 'dir'.  A stale one of that name (left by
 * an earlier run with our pid) is removed first if it holds no tasks.
 * Return 0, or -1 with errno and a message in 'err'.
 */
static int
make_dir(const char *dir, char *err)
{
	int	saved, r;

	if (mkdir(dir, 0755) == 0)
		return 0;
	if (errno == EEXIST) {
		if ((r = has_tasks(dir)) != 0) {
			saved = r == 1 ? EBUSY : errno;
			(void)snprintf(err, LD_ERRLEN, "%s already exists and "
			    "%s", dir, r == 1 ? "holds tasks" :
			    strerror(saved));
			errno = saved;
			return -1;
		}
		if (rmdir(dir) == 0 && mkdir(dir, 0755) == 0)
			return 0;
		saved = errno;
		(void)snprintf(err, LD_ERRLEN, "replace stale cgroup %s: %s",
		    dir, strerror(saved));
		errno = saved;
		return -1;
	}
	saved = errno;
	(void)snprintf(err, LD_ERRLEN, "create cgroup %s: %s%s", dir,
	    strerror(saved), saved == EACCES || saved == EPERM ||
	    saved == EROFS ? ": run largedir as root" : "");
	errno = saved;
	return -1;
}

/*
 * Give cgroup 'dir' of version 'v' the limit 'limit' (bytes), with no
 * swap beyond it.  Return 0, or -1 with errno and a message in 'err'.
 */
static int
set_limits(enum memcg_version v, const char *dir, uint64_t limit, char *err)
{
	char	 num[32], *path;
	bool	 swap;

	(void)snprintf(num, sizeof(num), "%" PRIu64, limit);
	path = xasprintf("%s/%s", dir, v == MEMCG_V1 ?
	    "memory.memsw.limit_in_bytes" : "memory.swap.max");
	swap = access(path, F_OK) == 0;
	free(path);
	if (v == MEMCG_V1) {
		if (put_in(dir, "memory.limit_in_bytes", num, err) == -1 ||
		    (swap && put_in(dir, "memory.memsw.limit_in_bytes", num,
		    err) == -1) ||
		    put_in(dir, "memory.oom_control", "0", err) == -1)
			return -1;
		return 0;
	}
	if (put_in(dir, "memory.max", num, err) == -1 ||
	    (swap && put_in(dir, "memory.swap.max", "0", err) == -1))
		return -1;
	return 0;
}

/*
 * The pid in the name of cgroup 'dir' (".../largedir.PID"), or -1 if the
 * name has another form.
 */
static long long
owner(const char *dir)
{
	const char	*name, *errstr;
	long long	 pid;

	name = strrchr(dir, '/');
	name = name != NULL ? name + 1 : dir;
	if (strncmp(name, MEMCG_PREFIX, sizeof(MEMCG_PREFIX) - 1) != 0)
		return -1;
	pid = parse_num(name + sizeof(MEMCG_PREFIX) - 1, 1, INT_MAX, &errstr);
	return errstr == NULL ? pid : -1;
}

/* ===== Public functions ===== */

/*
 * Find our own memory cgroup below the filesystem root 'root' ("/" on a
 * live system): read 'root'/proc/self/cgroup and 'root'/proc/self/
 * mountinfo, and take the mount points below 'root'.  Store the version
 * in '*version' and the cgroup's directory in 'dir' of 'len' bytes (on
 * v2 this is our own cgroup, which memcg_create() may not put its child
 * below).  Return 0, or -1 with errno and a one-line message in 'err':
 * ENOTSUP if there is no usable memory controller, ENAMETOOLONG, or the
 * errno of reading the /proc files.
 */
int
memcg_find(const char *root, enum memcg_version *version, char *dir,
    size_t len, char *err)
{
	char	*found, *top;

	if (memcg_place_locate(root, version, &found, &top, err) == -1)
		return -1;
	free(top);
	if (strlen(found) >= len) {
		(void)snprintf(err, LD_ERRLEN, "%s: %s", found,
		    strerror(ENAMETOOLONG));
		free(found);
		*version = MEMCG_NONE;
		errno = ENAMETOOLONG;
		return -1;
	}
	(void)memcpy(dir, found, strlen(found) + 1);
	free(found);
	return 0;
}

/*
 * Make the child cgroup largedir.<pid> below 'root' (see memcg_find())
 * with the limit 'limit' (bytes, at least 4096) on memory and on memory
 * plus swap, and fill 'mc'.  It goes below our own memory cgroup on v1,
 * and on v2 below the nearest of our cgroup and its ancestors whose
 * cgroup.subtree_control lists memory (see memcg.h); nothing is written
 * to any cgroup.subtree_control.  A stale cgroup of that name is
 * replaced if it holds no tasks.  Return 0, or -1 with errno and a
 * one-line message in 'err' (EINVAL: the limit is too small; ENOTSUP: no
 * memory controller, or on v2 no cgroup that hands it to its children;
 * EBUSY: the stale cgroup holds tasks; EACCES: not root); 'mc' is then
 * empty.  The caller frees 'mc' with memcg_remove().
 */
int
memcg_create(struct memcg *mc, const char *root, uint64_t limit, char *err)
{
	enum memcg_version	 v;
	char			*parent, *dir, *path;
	int			 saved;

	mc->version = MEMCG_NONE;
	mc->dir = NULL;
	mc->limit = limit;
	mc->peak_fd = -1;
	if (limit < LIMIT_MIN) {
		(void)snprintf(err, LD_ERRLEN, "memory limit %" PRIu64
		    " bytes: less than %d", limit, LIMIT_MIN);
		errno = EINVAL;
		return -1;
	}
	if (memcg_place_parent(root, &v, &parent, err) == -1)
		return -1;
	dir = xasprintf("%s/" MEMCG_PREFIX "%ld", parent, (long)getpid());
	free(parent);
	if (make_dir(dir, err) == -1) {
		free(dir);
		return -1;
	}
	if (set_limits(v, dir, limit, err) == -1) {
		saved = errno;
		(void)rmdir(dir);
		free(dir);
		errno = saved;
		return -1;
	}
	if (v == MEMCG_V2) {
		/* Writable since Linux 6.12; older ones are read by path. */
		path = xasprintf("%s/memory.peak", dir);
		mc->peak_fd = open(path, O_RDWR | O_CLOEXEC);
		free(path);
	}
	mc->version = v;
	mc->dir = dir;
	return 0;
}

/*
 * Move the calling process into cgroup 'mc' by writing its pid to the
 * cgroup's cgroup.procs.  For the child between fork(2) and the phase:
 * it calls only async-signal-safe functions and allocates nothing.
 * Return 0, or -1 with errno (EINVAL if 'mc' has no cgroup,
 * ENAMETOOLONG, or that of open(2) or write(2)).
 */
int
memcg_enter(const struct memcg *mc)
{
	char	path[PATH_MAX], num[24];
	size_t	n, k = sizeof(num);
	long	pid;

	if (mc->dir == NULL) {
		errno = EINVAL;
		return -1;
	}
	if ((n = strlen(mc->dir)) + sizeof(PROCS) > sizeof(path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	(void)memcpy(path, mc->dir, n);
	(void)memcpy(path + n, PROCS, sizeof(PROCS));
	/* The pid in decimal, written from the end of 'num'. */
	pid = (long)getpid();
	num[--k] = '\0';
	num[--k] = '\n';
	do {
		num[--k] = (char)('0' + pid % 10);
		pid /= 10;
	} while (pid > 0);
	return util_write_file(path, num + k);
}

/*
 * Store in '*kills' how many processes the OOM killer has killed in
 * cgroup 'mc': the "oom_kill N" line of memory.oom_control (v1) or
 * memory.events (v2).  Return 0, or -1 with errno (ENODATA if the file
 * has no such line, EINVAL if 'mc' has no cgroup).
 */
int
memcg_oom_kills(const struct memcg *mc, uint64_t *kills)
{
	char	*path;
	int	 r, saved;

	if (mc->dir == NULL) {
		errno = EINVAL;
		return -1;
	}
	path = xasprintf("%s/%s", mc->dir, mc->version == MEMCG_V1 ?
	    "memory.oom_control" : "memory.events");
	r = sysfile_key_u64(path, "oom_kill", kills);
	saved = errno;
	free(path);
	errno = saved;
	return r;
}

/*
 * Store in '*bytes' the peak memory use of cgroup 'mc' since it was made
 * or since memcg_peak_reset(): v1 memory.max_usage_in_bytes, v2
 * memory.peak.  Return 0, or -1 with errno (EINVAL if 'mc' has no
 * cgroup or the file holds no number).
 */
int
memcg_peak(const struct memcg *mc, uint64_t *bytes)
{
	char	*path, buf[64];
	ssize_t	 n;
	int	 r, saved;

	if (mc->dir == NULL) {
		errno = EINVAL;
		return -1;
	}
	if (mc->version == MEMCG_V2 && mc->peak_fd != -1) {
		if ((n = pread(mc->peak_fd, buf, sizeof(buf) - 1, 0)) == -1)
			return -1;
		buf[n] = '\0';
		return sysfile_parse_u64(buf, bytes);
	}
	path = xasprintf("%s/%s", mc->dir, mc->version == MEMCG_V1 ?
	    "memory.max_usage_in_bytes" : "memory.peak");
	r = sysfile_u64(path, bytes);
	saved = errno;
	free(path);
	errno = saved;
	return r;
}

/*
 * Start the peak of cgroup 'mc' again from its present use.  Return 0,
 * or -1 with errno: ENOTSUP on v2 before Linux 6.12 (memory.peak cannot
 * be reset there), EINVAL if 'mc' has no cgroup, or that of writing.
 */
int
memcg_peak_reset(const struct memcg *mc)
{
	char	*path;
	int	 r;

	if (mc->dir == NULL) {
		errno = EINVAL;
		return -1;
	}
	if (mc->version == MEMCG_V2) {
		if (mc->peak_fd == -1) {
			errno = ENOTSUP;
			return -1;
		}
		if (write(mc->peak_fd, "reset\n", 6) != 6) {
			if (errno == EINVAL)
				errno = ENOTSUP;
			return -1;
		}
		return 0;
	}
	path = xasprintf("%s/memory.max_usage_in_bytes", mc->dir);
	r = util_write_file(path, "0");
	free(path);
	return r;
}

/*
 * Remove cgroup 'mc': rmdir(2) it, retrying for about a second while it
 * is busy (a child that was killed may take a moment to leave), and
 * free 'mc->dir'.  A cgroup that is already gone, or 'mc->dir' NULL, is
 * fine.  In a forked child (whose pid is not the one in the cgroup's
 * name) nothing is removed: the cgroup is the parent's.  Return 0, or -1
 * with errno and a one-line message in 'err'; 'mc' then keeps the
 * cgroup so a later call can try again.
 */
int
memcg_remove(struct memcg *mc, char *err)
{
	struct timespec	ts = { 0, RMDIR_WAIT_NS };
	long long	pid;
	int		i, saved;

	if (mc->dir == NULL)
		return 0;
	pid = owner(mc->dir);
	for (i = 0; pid == -1 || pid == (long long)getpid(); i++) {
		if (rmdir(mc->dir) == 0 || errno == ENOENT)
			break;
		if (errno != EBUSY || i + 1 == RMDIR_TRIES) {
			saved = errno;
			(void)snprintf(err, LD_ERRLEN, "remove cgroup %s: %s%s",
			    mc->dir, strerror(saved), saved == EBUSY ?
			    " (tasks are still in it)" : "");
			errno = saved;
			return -1;
		}
		(void)nanosleep(&ts, NULL);
	}
	if (mc->peak_fd != -1)
		(void)close(mc->peak_fd);
	free(mc->dir);
	mc->dir = NULL;
	mc->peak_fd = -1;
	mc->version = MEMCG_NONE;
	return 0;
}

/*
 * largedir --cleanup: remove the children "largedir.<pid>" of the cgroup
 * below 'root' that memcg_create() makes its child below (v1: our memory
 * cgroup, v2: the nearest one that hands memory to its children; see
 * memcg.h) whose run is gone (as
 * marker_alive() tells: no such process, a zombie, or a process that is
 * not largedir) and that hold no tasks.  Call 'report'(arg, ...) once for
 * each such child found; its strings live until 'report' returns.
 * Return the number found (0 without a memory controller, or on v2
 * without a cgroup that hands it to its children), or -1 with errno and
 * a message in 'err'.
 */
int
memcg_sweep(const char *root, void (*report)(void *,
    const struct memcg_report *), void *arg, char *err)
{
	enum memcg_version	 v;
	struct parent_sweep	 ps;
	struct sweep_dir	 sd;
	struct sweep_count	 n;
	DIR			*dp;
	char			*dir;
	int			 rc;

	if (memcg_place_parent(root, &v, &dir, err) == -1)
		return errno == ENOTSUP ? 0 : -1;
	if ((dp = opendir(dir)) == NULL) {
		rc = util_syserr(err, "%s", dir);
		free(dir);
		return rc;
	}
	memset(&ps, 0, sizeof(ps));
	ps.dir = dir;
	ps.report = report;
	ps.arg = arg;
	if (gethostname(ps.m.host, sizeof(ps.m.host)) == -1)
		ps.m.host[0] = '\0';	/* marker_alive() then keeps all */
	ps.m.host[sizeof(ps.m.host) - 1] = '\0';
	sweep_dir_posix(&sd, dp);
	rc = sweep_walk(&sd, MEMCG_PREFIX, SWEEP_ONCE, found_entry, &ps, &n);
	if (rc == -1)
		rc = util_syserr(err, "%s", dir);
	else
		rc = (int)(n.kept + n.gone);
	(void)closedir(dp);
	free(dir);
	return rc;
}

/*
 * A name "largedir.*" in the parent cgroup (a sweep callback; 'arg' is
 * a struct parent_sweep): a child cgroup "largedir.<pid>" whose run is
 * gone and which holds no tasks is removed, and reported either way.
 */
static int64_t
found_entry(void *arg, const struct sweep_entry *e)
{
	struct parent_sweep	*ps = arg;
	struct memcg_report	 r;
	const char		*errstr;
	char			 why[128], *path;
	long long		 pid;
	int			 t;

	if (e->type != DT_DIR && e->type != DT_UNKNOWN)
		return 0;
	pid = parse_num(e->name + sizeof(MEMCG_PREFIX) - 1, 1, INT_MAX,
	    &errstr);
	if (errstr != NULL)
		return 0;
	memset(&r, 0, sizeof(r));
	r.path = path = xasprintf("%s/%s", ps->dir, e->name);
	ps->m.pid = pid;
	if (!marker_alive(&ps->m, &r.why)) {
		if ((t = has_tasks(path)) != 0)
			r.why = t == 1 ? "holds tasks" :
			    "cannot read its cgroup.procs";
		else if (rmdir(path) == 0 || errno == ENOENT)
			r.removed = true;
		else {
			(void)snprintf(why, sizeof(why), "cannot be "
			    "removed: %s", strerror(errno));
			r.why = why;
		}
	}
	ps->report(ps->arg, &r);
	free(path);
	return r.removed ? SWEEP_GONE : 1;
}
