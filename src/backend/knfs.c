/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * knfs: see knfs.h.  The backend is the posix one with its counters and
 * their names (posix.c's tables for NFS mounts), so everything it does
 * on a local filesystem it does on the mount, and nothing else changes.
 * This module reads the counters; the state of one mount is a struct
 * knfs its caller keeps.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/knfs.h"
#include "base/util.h"
#include "machine/mountstats.h"
#include "machine/probe.h"

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
const char *const knfs_v3_names[] = {
	"rpc_null", "rpc_getattr", "rpc_setattr", "rpc_lookup", "rpc_access",
	"rpc_readlink", "rpc_read", "rpc_write", "rpc_create", "rpc_mkdir",
	"rpc_symlink", "rpc_mknod", "rpc_remove", "rpc_rmdir", "rpc_rename",
	"rpc_link", "rpc_readdir", "rpc_readdirplus", "rpc_fsstat",
	"rpc_fsinfo", "rpc_pathconf", "rpc_commit", TAIL_NAMES
};

/*
 * NFSv4: the operations a directory of files costs, then those that keep
 * the client's state and may come during any phase, then all others
 * together; NULL there stands for "the rest".  The names are the Linux
 * client's (fs/nfs/nfs4xdr.c, nfs4_procedures), which are its compounds,
 * not NFSv4 operations: OPEN_NOATTR is an OPEN that returns no
 * attributes, LOOKUP_ROOT the lookup of the export's root, STATFS a
 * GETATTR of the space attributes; SEQUENCE is a compound that holds a
 * v4.1 session alive and nothing else (every v4.1 compound starts with a
 * SEQUENCE operation, which is not counted here).  DELEGRETURN gives a
 * delegation back; TEST_STATEID and FREE_STATEID (v4.1) check and free
 * state the server revoked; RENEW (v4.0) renews the lease; LAYOUTGET and
 * LAYOUTRETURN are pNFS.
 */
static const char *const v4_procs[] = {
	"OPEN", "OPEN_NOATTR", "CLOSE", "ACCESS", "GETATTR", "LOOKUP",
	"LOOKUP_ROOT", "SETATTR", "CREATE", "REMOVE", "RENAME", "READDIR",
	"READ", "WRITE", "COMMIT", "STATFS", "SEQUENCE", "DELEGRETURN",
	"TEST_STATEID", "FREE_STATEID", "RENEW", "LAYOUTGET", "LAYOUTRETURN",
	NULL
};
const char *const knfs_v4_names[] = {
	"rpc_open", "rpc_open_noattr", "rpc_close", "rpc_access",
	"rpc_getattr", "rpc_lookup", "rpc_lookup_root", "rpc_setattr",
	"rpc_create", "rpc_remove", "rpc_rename", "rpc_readdir", "rpc_read",
	"rpc_write", "rpc_commit", "rpc_statfs", "rpc_sequence",
	"rpc_delegreturn", "rpc_test_stateid", "rpc_free_stateid",
	"rpc_renew", "rpc_layoutget", "rpc_layoutreturn", "rpc_other",
	TAIL_NAMES
};

static size_t	count(const char *const *);
static const char *const *procs_of(unsigned);

_Static_assert(sizeof(v3_procs) / sizeof(v3_procs[0]) - 1 == KNFS_V3_NCALLS,
    "KNFS_V3_NCALLS");
_Static_assert(sizeof(v4_procs) / sizeof(v4_procs[0]) == KNFS_V4_NCALLS,
    "KNFS_V4_NCALLS: the procedures and rpc_other");
_Static_assert(sizeof(knfs_v3_names) / sizeof(knfs_v3_names[0]) - 1 <=
    KNFS_MAX && sizeof(knfs_v4_names) / sizeof(knfs_v4_names[0]) - 1 <=
    KNFS_MAX, "KNFS_MAX");

static size_t
count(const char *const *v)
{
	size_t	n = 0;

	while (v[n] != NULL)
		n++;
	return n;
}

/* The procedures of NFS version 'vers', NULL-terminated. */
static const char *const *
procs_of(unsigned vers)
{
	return vers == 3 ? v3_procs : v4_procs;
}

/*
 * Start counting the calls of the mount of type 'fstype' on
 * 'mountpoint', whose counters are in 'file' (NULL: /proc/self/
 * mountstats), into 'k'.  Return 0: k->vers is 3 or 4, or 0 when it is
 * not NFS (nothing to count, and nothing to close); or -1 with errno and
 * 'err' when it is NFS but its counters cannot be read.
 */
int
knfs_open(struct knfs *k, const char *fstype, const char *mountpoint,
    const char *file, char *err)
{
	memset(k, 0, sizeof(*k));
	*err = '\0';
	if (strcmp(fstype, "nfs") == 0)
		k->vers = 3;
	else if (strcmp(fstype, "nfs4") == 0)
		k->vers = 4;
	else
		return 0;
	k->mountpoint = xstrdup(mountpoint);
	k->file = xstrdup(file != NULL ? file : MOUNTSTATS_SELF);
	if (knfs_read(k, k->last, err) == -1) {
		knfs_close(k);
		return -1;
	}
	return 0;
}

/*
 * knfs_open() for the mount the directory 'target' is on, as the kernel
 * sees it (its counters in /proc/self/mountstats).  Return what
 * knfs_open() does; k->vers is 0 too when the mount cannot be probed.
 */
int
knfs_open_dir(struct knfs *k, const char *target, char *err)
{
	struct probe_mount	pm;
	int			rc = 0;

	memset(k, 0, sizeof(*k));
	*err = '\0';
	memset(&pm, 0, sizeof(pm));
	if (probe_mount(target, &pm) == 0 && pm.fstype != NULL &&
	    pm.mountpoint != NULL)
		rc = knfs_open(k, pm.fstype, pm.mountpoint, NULL, err);
	probe_mount_free(&pm);
	return rc;
}

/* Forget the mount: 'k' counts nothing any more. */
void
knfs_close(struct knfs *k)
{
	free(k->mountpoint);
	free(k->file);
	memset(k, 0, sizeof(*k));
}

/* The names of the counters of 'k', or NULL without an NFS mount. */
const char *const *
knfs_names(const struct knfs *k)
{
	return k->vers == 3 ? knfs_v3_names : k->vers == 4 ? knfs_v4_names :
	    NULL;
}

/*
 * Read the counters of the mount 'k' counts into 'v' (KNFS_MAX values at
 * most), in the order of its names.  Return 0, or -1 with errno and 'err'.
 */
int
knfs_read(const struct knfs *k, uint64_t *v, char *err)
{
	struct mountstats	 ms;
	const struct ms_mount	*m;
	const struct ms_op	*op;
	const char *const	*procs = procs_of(k->vers);
	size_t			 i, j, l, n = 0;
	bool			 known;

	if (mountstats_read(k->file, &ms, err) == -1)
		return -1;
	if ((m = mountstats_find(&ms, k->mountpoint)) == NULL || !m->nfs ||
	    m->vers != k->vers) {
		(void)util_fail(err, ENOENT, "%s: no NFSv%u mount on %s",
		    k->file, k->vers, k->mountpoint);
		mountstats_free(&ms);
		return -1;
	}
	for (i = 0; procs[i] != NULL; i++)
		v[n++] = (op = mountstats_op(m, procs[i])) != NULL ?
		    op->v[MS_OPS] : 0;
	if (k->vers == 4) {
		/* rpc_other: the operations not named above. */
		v[n] = 0;
		for (j = 0; j < m->nops; j++) {
			for (known = false, l = 0; procs[l] != NULL; l++)
				known |= strcmp(m->ops[j].name,
				    procs[l]) == 0;
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
 * The mount's counts now, into 'values' (one for each name).  If they
 * cannot be read, the last good ones (so the phase shows none).  Without
 * an NFS mount, nothing is written.
 */
void
knfs_counters(struct knfs *k, uint64_t *values)
{
	char	err[LD_ERRLEN];
	size_t	n;

	if (k->vers == 0)
		return;
	n = count(knfs_names(k));
	if (knfs_read(k, values, err) == 0)
		memcpy(k->last, values, n * sizeof(*values));
	else
		memcpy(values, k->last, n * sizeof(*values));
}

/*
 * Whether the calls of phase 'phase' ('delta', one per name) hold some
 * the phase cannot have made, so the mount was busy with other work:
 * return a line that names them, or NULL.  With 'churn', another process
 * of largedir creates and removes during the listings.
 */
const char *
knfs_unexplained(struct knfs *k, const char *phase, const uint64_t *delta,
    bool churn)
{
	/* A v4 client's upkeep of its state may come during any phase. */
#define UPKEEP	"SEQUENCE RENEW TEST_STATEID FREE_STATEID DELEGRETURN "
	static const struct {
		const char	*phase;
		const char	*procs;		/* " A B " */
	} allowed[] = {
		{ "create", " CREATE SETATTR GETATTR LOOKUP ACCESS WRITE "
		    "COMMIT OPEN OPEN_NOATTR CLOSE LAYOUTGET LAYOUTRETURN "
		    UPKEEP },
		{ "open", " LOOKUP ACCESS GETATTR OPEN OPEN_NOATTR CLOSE "
		    "LAYOUTGET LAYOUTRETURN " UPKEEP },
		{ "list", " READDIR READDIRPLUS GETATTR ACCESS LOOKUP "
		    UPKEEP },
		{ "liststat", " READDIR READDIRPLUS GETATTR ACCESS LOOKUP "
		    UPKEEP },
		{ "delete", " REMOVE LOOKUP GETATTR ACCESS " UPKEEP },
		{ "rmrf", " READDIR READDIRPLUS REMOVE LOOKUP GETATTR ACCESS "
		    UPKEEP },
	};
#undef UPKEEP
	const char *const	*procs = procs_of(k->vers);
	char			*buf = k->busy, word[32];
	size_t			 i, j, nprocs, len = 0;
	const char		*ok = NULL;

	if (k->vers == 0)
		return NULL;
	nprocs = k->vers == 3 ? KNFS_V3_NCALLS : KNFS_V4_NCALLS;
	for (i = 0; i < sizeof(allowed) / sizeof(allowed[0]); i++)
		if (strcmp(allowed[i].phase, phase) == 0)
			ok = allowed[i].procs;
	if (ok == NULL || (churn && strcmp(phase, "create") != 0 &&
	    strcmp(phase, "open") != 0 && strcmp(phase, "delete") != 0))
		return NULL;
	*buf = '\0';
	for (j = 0; j < nprocs; j++) {
		if (delta[j] == 0)
			continue;
		(void)snprintf(word, sizeof(word), " %s ", procs[j] != NULL ?
		    procs[j] : "OTHER");
		if (procs[j] != NULL && strstr(ok, word) != NULL)
			continue;
		/* NULL (a ping) and the rest are never the phase's. */
		len += (size_t)snprintf(buf + len, len < sizeof(k->busy) ?
		    sizeof(k->busy) - len : 0, "%s%s %llu", len > 0 ? ", " :
		    "", procs[j] != NULL ? procs[j] : "other",
		    (unsigned long long)delta[j]);
		if (len >= sizeof(k->busy))
			break;
	}
	return *buf != '\0' ? buf : NULL;
}

/*
 * What the results should say of the counts of 'k', into 'kv': how they
 * are counted, and what decides them, as the kernel reports the mount
 * (the options in effect, its capabilities with dtsize, the READDIR
 * size, and its connections), when it can be read.
 */
void
knfs_meta(const struct knfs *k, struct kvlist *kv)
{
	struct mountstats	 ms;
	const struct ms_mount	*m;
	char			 err[LD_ERRLEN];

	if (k->vers == 0)
		return;
	if (mountstats_read(k->file, &ms, err) == 0) {
		if ((m = mountstats_find(&ms, k->mountpoint)) != NULL &&
		    m->nfs) {
			if (m->opts != NULL)
				kv_set(kv, "nfs_opts", "%s", m->opts);
			if (m->caps != NULL)
				kv_set(kv, "nfs_caps", "%s", m->caps);
			if (m->xprt != NULL)
				kv_set(kv, "nfs_xprt", "%s", m->xprt);
			kv_set(kv, "nfs_connections", "%u", m->nxprt);
		}
		mountstats_free(&ms);
	}
	kv_set(kv, "rpc_counts", "the kernel NFSv%u client's, from "
	    "/proc/self/mountstats, for the whole mount on %s: other "
	    "processes using it count too (a warning names calls a phase "
	    "cannot have made); PHASE_rpc_PROC are the calls of each "
	    "procedure%s, the times totals in ns (the kernel counts ms)",
	    k->vers, k->mountpoint, k->vers == 4 ? " (rpc_other: all "
	    "operations not named)" : "");
}
