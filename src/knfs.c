/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * knfs: see knfs.h.  The backend is the posix one with two fields set:
 * its counters and their names, so everything it does on a local
 * filesystem it does on the mount, and nothing else changes.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "knfs.h"
#include "mountstats.h"
#include "probe.h"
#include "util.h"

#define NS_PER_MS	1000000ULL

/* What comes after the calls of each procedure: sums over all of them. */
#define TAIL_NAMES \
	"rpc_trans", "rpc_timeouts", "rpc_bytes_out", "rpc_bytes_in", \
	"rpc_queue_ns", "rpc_rtt_ns", "rpc_exec_ns", "rpc_errors", \
	"nfs_inoderevalidate", "nfs_dentryrevalidate", "nfs_attrinvalidate", \
	"nfs_vfsopen", "nfs_vfslookup", "nfs_vfsaccess", "nfs_vfsgetdents", \
	"nfs_vfsrelease", "nfs_sillyrename", NULL
#define NTAIL	17

/* The fields summed into the tail, in its order, and the events. */
static const enum ms_field	tail_fields[] = {
	MS_TRANS, MS_TIMEOUTS, MS_BYTES_SENT, MS_BYTES_RECV, MS_QUEUE_MS,
	MS_RTT_MS, MS_EXECUTE_MS, MS_ERRORS
};
static const enum ms_event	tail_events[] = {
	MS_INODEREVALIDATE, MS_DENTRYREVALIDATE, MS_ATTRINVALIDATE,
	MS_VFSOPEN, MS_VFSLOOKUP, MS_VFSACCESS, MS_VFSGETDENTS,
	MS_VFSRELEASE, MS_SILLYRENAME
};
#define NFIELDS	(sizeof(tail_fields) / sizeof(tail_fields[0]))
#define NEVENTS	(sizeof(tail_events) / sizeof(tail_events[0]))
_Static_assert(NFIELDS + NEVENTS == NTAIL, "TAIL_NAMES");

/* NFSv3: every procedure, in the protocol's order. */
static const char *const v3_procs[] = {
	"NULL", "GETATTR", "SETATTR", "LOOKUP", "ACCESS", "READLINK", "READ",
	"WRITE", "CREATE", "MKDIR", "SYMLINK", "MKNOD", "REMOVE", "RMDIR",
	"RENAME", "LINK", "READDIR", "READDIRPLUS", "FSSTAT", "FSINFO",
	"PATHCONF", "COMMIT", NULL
};
static const char *const v3_names[] = {
	"rpc_null", "rpc_getattr", "rpc_setattr", "rpc_lookup", "rpc_access",
	"rpc_readlink", "rpc_read", "rpc_write", "rpc_create", "rpc_mkdir",
	"rpc_symlink", "rpc_mknod", "rpc_remove", "rpc_rmdir", "rpc_rename",
	"rpc_link", "rpc_readdir", "rpc_readdirplus", "rpc_fsstat",
	"rpc_fsinfo", "rpc_pathconf", "rpc_commit", TAIL_NAMES
};

/*
 * NFSv4: the operations a directory of files costs (the kernel's names),
 * then all others together; NULL there stands for "the rest".
 */
static const char *const v4_procs[] = {
	"OPEN", "OPEN_NOATTR", "CLOSE", "ACCESS", "GETATTR", "LOOKUP",
	"LOOKUP_ROOT", "SETATTR", "CREATE", "REMOVE", "RENAME", "READDIR",
	"READ", "WRITE", "COMMIT", "STATFS", "SEQUENCE", NULL
};
static const char *const v4_names[] = {
	"rpc_open", "rpc_open_noattr", "rpc_close", "rpc_access",
	"rpc_getattr", "rpc_lookup", "rpc_lookup_root", "rpc_setattr",
	"rpc_create", "rpc_remove", "rpc_rename", "rpc_readdir", "rpc_read",
	"rpc_write", "rpc_commit", "rpc_statfs", "rpc_sequence", "rpc_other",
	TAIL_NAMES
};

/* The mount of this run. */
static struct {
	unsigned		 vers;		/* 3 or 4; 0: none */
	char			*mountpoint;
	char			*file;		/* /proc/self/mountstats */
	const char *const	*procs;
	const char *const	*names;
	size_t			 nprocs;	/* with rpc_other for v4 */
	uint64_t		 last[64];	/* the last good read */
	struct backend_ops	 ops;
} K;

static void	knfs_counters(struct backend *, uint64_t *);
static const char *knfs_busy(struct backend *, const char *,
		    const uint64_t *, bool);
static size_t	count(const char *const *);

static size_t
count(const char *const *v)
{
	size_t	n = 0;

	while (v[n] != NULL)
		n++;
	return n;
}

/*
 * The backend for a directory on a filesystem of type 'fstype' mounted on
 * 'mountpoint', whose counters are in 'file' (NULL: /proc/self/
 * mountstats): the posix backend, with the mount's counters when it is
 * NFS.  If it is NFS but its counters cannot be read, return posix_ops
 * and say why in 'err' (else 'err' is "").
 */
const struct backend_ops *
knfs_ops(const char *fstype, const char *mountpoint, const char *file,
    char *err)
{
	uint64_t	v[64];

	*err = '\0';
	knfs_reset();
	if (strcmp(fstype, "nfs") == 0)
		K.vers = 3;
	else if (strcmp(fstype, "nfs4") == 0)
		K.vers = 4;
	else
		return &posix_ops;
	K.procs = K.vers == 3 ? v3_procs : v4_procs;
	K.names = K.vers == 3 ? v3_names : v4_names;
	K.nprocs = K.vers == 3 ? count(v3_procs) : count(v4_procs) + 1;
	K.mountpoint = xstrdup(mountpoint);
	K.file = xstrdup(file != NULL ? file : MOUNTSTATS_SELF);
	if (knfs_read(K.file, v, err) == -1) {
		knfs_reset();
		return &posix_ops;
	}
	memcpy(K.last, v, sizeof(K.last));
	K.ops = posix_ops;
	K.ops.counter_names = K.names;
	K.ops.ncalls = K.nprocs;
	K.ops.counters = knfs_counters;
	K.ops.shared_counters = true;
	K.ops.busy = knfs_busy;
	return &K.ops;
}

/*
 * The backend for directory 'dir' (the posix one, with the counters of
 * the kernel NFS mount it is on, if it is), and what the results should
 * say of them in 'meta'.  If it is on NFS but they cannot be read, 'err'
 * says why (else it is "").
 */
const struct backend_ops *
knfs_for_dir(const char *dir, struct output_kvlist *meta, char *err)
{
	const struct backend_ops	*ops = &posix_ops;
	struct probe_mount		 pm;

	*err = '\0';
	memset(&pm, 0, sizeof(pm));
	if (probe_mount(dir, &pm) == 0 && pm.fstype != NULL &&
	    pm.mountpoint != NULL)
		ops = knfs_ops(pm.fstype, pm.mountpoint, NULL, err);
	probe_mount_free(&pm);
	knfs_meta(meta);
	return ops;
}

/* Forget the mount (a test's next case). */
void
knfs_reset(void)
{
	free(K.mountpoint);
	free(K.file);
	memset(&K, 0, sizeof(K));
}

/* The names of the counters, or NULL without an NFS mount. */
const char *const *
knfs_names(void)
{
	return K.vers != 0 ? K.names : NULL;
}

/*
 * Read the mount's counters from 'file' into 'v', in the order of the
 * names.  Return 0, or -1 with errno and 'err'.
 */
int
knfs_read(const char *file, uint64_t *v, char *err)
{
	struct mountstats	 ms;
	const struct ms_mount	*m;
	const struct ms_op	*op;
	size_t			 i, j, k, n = 0;
	bool			 known;

	if (mountstats_read(file, &ms, err) == -1)
		return -1;
	if ((m = mountstats_find(&ms, K.mountpoint)) == NULL || !m->nfs ||
	    m->vers != K.vers) {
		(void)util_fail(err, ENOENT, "%s: no NFSv%u mount on %s", file,
		    K.vers, K.mountpoint);
		mountstats_free(&ms);
		return -1;
	}
	for (i = 0; K.procs[i] != NULL; i++)
		v[n++] = (op = mountstats_op(m, K.procs[i])) != NULL ?
		    op->v[MS_OPS] : 0;
	if (K.vers == 4) {
		/* rpc_other: the operations not named above. */
		v[n] = 0;
		for (j = 0; j < m->nops; j++) {
			for (known = false, k = 0; K.procs[k] != NULL; k++)
				known |= strcmp(m->ops[j].name,
				    K.procs[k]) == 0;
			if (!known)
				v[n] += m->ops[j].v[MS_OPS];
		}
		n++;
	}
	for (i = 0; i < NFIELDS; i++) {
		v[n] = 0;
		for (j = 0; j < m->nops; j++)
			v[n] += m->ops[j].v[tail_fields[i]];
		if (tail_fields[i] == MS_QUEUE_MS ||
		    tail_fields[i] == MS_RTT_MS ||
		    tail_fields[i] == MS_EXECUTE_MS)
			v[n] *= NS_PER_MS;
		n++;
	}
	for (i = 0; i < NEVENTS; i++)
		v[n++] = m->events[tail_events[i]];
	mountstats_free(&ms);
	return 0;
}

/*
 * The backend's counters op: the mount's counts now.  If they cannot be
 * read, the last good ones (so the phase shows none).
 */
static void
knfs_counters(struct backend *be, uint64_t *values)
{
	char	err[LD_ERRLEN];

	(void)be;
	if (knfs_read(K.file, values, err) == 0)
		memcpy(K.last, values, count(K.names) * sizeof(*values));
	else
		memcpy(values, K.last, count(K.names) * sizeof(*values));
}

/*
 * Whether the calls of phase 'phase' ('delta', one per name) hold some
 * the phase cannot have made, so the mount was busy with other work:
 * return a line that names them, or NULL.  With 'churn', another process
 * of largedir creates and removes during the listings.
 */
const char *
knfs_unexplained(const char *phase, const uint64_t *delta, bool churn)
{
	static char	 buf[256];
	static const struct {
		const char	*phase;
		const char	*procs;		/* " A B " */
	} allowed[] = {
		{ "create", " CREATE SETATTR GETATTR LOOKUP ACCESS WRITE COMMIT "
		    "OPEN OPEN_NOATTR CLOSE SEQUENCE " },
		{ "open", " LOOKUP ACCESS GETATTR OPEN OPEN_NOATTR CLOSE "
		    "SEQUENCE " },
		{ "list", " READDIR READDIRPLUS GETATTR ACCESS LOOKUP "
		    "SEQUENCE " },
		{ "liststat", " READDIR READDIRPLUS GETATTR ACCESS LOOKUP "
		    "SEQUENCE " },
		{ "delete", " REMOVE LOOKUP GETATTR ACCESS SEQUENCE " },
		{ "rmrf", " READDIR READDIRPLUS REMOVE LOOKUP GETATTR ACCESS "
		    "SEQUENCE " },
	};
	char		 word[32];
	size_t		 i, j, len = 0;
	const char	*ok = NULL;

	if (K.vers == 0)
		return NULL;
	for (i = 0; i < sizeof(allowed) / sizeof(allowed[0]); i++)
		if (strcmp(allowed[i].phase, phase) == 0)
			ok = allowed[i].procs;
	if (ok == NULL || (churn && strcmp(phase, "create") != 0 &&
	    strcmp(phase, "open") != 0 && strcmp(phase, "delete") != 0))
		return NULL;
	*buf = '\0';
	for (j = 0; j < K.nprocs; j++) {
		if (delta[j] == 0)
			continue;
		(void)snprintf(word, sizeof(word), " %s ", K.procs[j] != NULL ?
		    K.procs[j] : "OTHER");
		if (K.procs[j] != NULL && strstr(ok, word) != NULL)
			continue;
		/* NULL (a ping) and the rest are never the phase's. */
		len += (size_t)snprintf(buf + len, len < sizeof(buf) ?
		    sizeof(buf) - len : 0, "%s%s %llu", len > 0 ? ", " : "",
		    K.procs[j] != NULL ? K.procs[j] : "other",
		    (unsigned long long)delta[j]);
		if (len >= sizeof(buf))
			break;
	}
	return *buf != '\0' ? buf : NULL;
}

/* The backend's busy op: knfs_unexplained(). */
static const char *
knfs_busy(struct backend *be, const char *phase, const uint64_t *delta,
    bool churn)
{
	(void)be;
	return knfs_unexplained(phase, delta, churn);
}

/* What the results should say of the counts. */
void
knfs_meta(struct output_kvlist *kv)
{
	if (K.vers == 0)
		return;
	output_kv_set(kv, "rpc_counts", "the kernel NFSv%u client's, from "
	    "/proc/self/mountstats, for the whole mount on %s: other "
	    "processes using it count too (a warning names calls a phase "
	    "cannot have made); PHASE_rpc_PROC are the calls of each "
	    "procedure%s, the times totals in ns (the kernel counts ms)",
	    K.vers, K.mountpoint, K.vers == 4 ? " (rpc_other: all "
	    "operations not named)" : "");
}
