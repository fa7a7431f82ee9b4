/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * mountstats: the parser of /proc/self/mountstats, the per-mount
 * statistics of the kernel's NFS client, and the difference between two
 * copies of it.
 *
 * The kernel (fs/proc_namespace.c, fs/nfs/super.c, net/sunrpc/stats.c)
 * writes one line per mount:
 *
 *	device /dev/vda1 mounted on / with fstype ext4
 *	device srv:/export mounted on /mnt with fstype nfs statvers=1.1
 *
 * and, for an NFS mount only (the one with "statvers="), a block of
 * tab-indented lines ended by an empty line: opts:, age:, caps:, sec:,
 * nfsv4: and impl_id: (v4), events: (27 counts), bytes: (8 counts),
 * "RPC iostats version: 1.1  p/v: 100003/3 (nfs)", one xprt: line per
 * connection, "per-op statistics", then one line per RPC procedure, its
 * name right-aligned in 12 columns, a colon and 8 numbers (iostats 1.0)
 * or 9 (1.1, which adds the errors).  v3 prints its 22 procedures in a
 * fixed order, v4 its own list in an order that changes between kernels:
 * operations are looked up by name.  The device and the mount point have
 * a space, tab, newline and backslash written as \040 \011 \012 \134; the
 * parsed strings have them decoded.
 *
 * Every count is cumulative since the mount and shared by every process
 * that uses it; mountstats_delta() gives what happened between two
 * copies.  Nothing here prints: errors come back as -1 with errno and a
 * line in the caller's 'err' (LD_ERRLEN), "FILE:LINE: what is wrong" for
 * a malformed file (errno EINVAL).
 */

#ifndef LD_MOUNTSTATS_H
#define LD_MOUNTSTATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define MOUNTSTATS_SELF	"/proc/self/mountstats"

/* The event counters, in the order of the kernel's nfs_iostat.h. */
enum ms_event {
	MS_INODEREVALIDATE, MS_DENTRYREVALIDATE, MS_DATAINVALIDATE,
	MS_ATTRINVALIDATE, MS_VFSOPEN, MS_VFSLOOKUP, MS_VFSACCESS,
	MS_VFSUPDATEPAGE, MS_VFSREADPAGE, MS_VFSREADPAGES, MS_VFSWRITEPAGE,
	MS_VFSWRITEPAGES, MS_VFSGETDENTS, MS_VFSSETATTR, MS_VFSFLUSH,
	MS_VFSFSYNC, MS_VFSLOCK, MS_VFSRELEASE, MS_CONGESTIONWAIT,
	MS_SETATTRTRUNC, MS_EXTENDWRITE, MS_SILLYRENAME, MS_SHORTREAD,
	MS_SHORTWRITE, MS_DELAY, MS_PNFS_READ, MS_PNFS_WRITE,
	MS_NEVENTS
};

/* The byte counters, in the kernel's order. */
enum ms_bytes {
	MS_NORMALREADBYTES, MS_NORMALWRITTENBYTES, MS_DIRECTREADBYTES,
	MS_DIRECTWRITTENBYTES, MS_SERVERREADBYTES, MS_SERVERWRITTENBYTES,
	MS_READPAGES, MS_WRITEPAGES,
	MS_NBYTES
};

/* The numbers of a per-op line, in the kernel's order. */
enum ms_field {
	MS_OPS,		/* calls completed */
	MS_TRANS,	/* transmissions: ops + retransmissions */
	MS_TIMEOUTS,	/* major timeouts */
	MS_BYTES_SENT,	/* bytes sent, RPC headers included */
	MS_BYTES_RECV,	/* bytes received, likewise */
	MS_QUEUE_MS,	/* ms waiting to be sent, summed over the calls */
	MS_RTT_MS,	/* ms from sending to the reply, summed */
	MS_EXECUTE_MS,	/* ms from start to end of the call, summed */
	MS_ERRORS,	/* calls that ended in an error (iostats 1.1) */
	MS_NFIELDS
};

/*
 * The names of the counters, lower case, for columns and messages:
 * events as the kernel's NFSIOS_ names ("vfsgetdents", which nfs-utils
 * calls vfsreaddir), bytes likewise, fields "ops" "trans" "timeouts"
 * "bytes_sent" "bytes_recv" "queue_ms" "rtt_ms" "execute_ms" "errors".
 */
extern const char *const mountstats_event_names[MS_NEVENTS];
extern const char *const mountstats_byte_names[MS_NBYTES];
extern const char *const mountstats_field_names[MS_NFIELDS];

/* One per-op line. */
struct ms_op {
	char		*name;		/* as the kernel prints it: "READDIR" */
	uint64_t	 v[MS_NFIELDS];	/* by enum ms_field; errors 0 in 1.0 */
};

/*
 * One mount.  A mount without statistics (every other filesystem) has
 * only the first four strings, 'nfs' false and nothing else set.
 */
struct ms_mount {
	char		*device;	/* "srv:/export", decoded */
	char		*mountpoint;	/* decoded */
	char		*fstype;	/* "nfs", "nfs4", "ext4" */
	char		*statvers;	/* "1.1", or NULL: no statistics */
	bool		 nfs;		/* fstype nfs or nfs4, with statistics */
	size_t		 line;		/* of its device line, for messages */
	char		*opts;		/* the opts: line: "rw,vers=3,..." */
	char		*caps;		/* caps: "caps=0x3fef,...,dtsize=..." */
	char		*xprt;		/* the first xprt: line */
	unsigned	 nxprt;		/* xprt: lines: the connections */
	uint64_t	 age_s;		/* seconds since the mount */
	uint64_t	 events[MS_NEVENTS];
	uint64_t	 bytes[MS_NBYTES];
	char		*iostats;	/* RPC iostats version: "1.1" */
	unsigned	 prog, vers;	/* p/v: 100003/3 */
	int		 nfields;	/* numbers per op line: 8 or 9 */
	struct ms_op	*ops;		/* in file order */
	size_t		 nops;
};

/* A whole file, mounts in file order (a stacked mount comes later). */
struct mountstats {
	struct ms_mount	*v;
	size_t		 n;
};

int	mountstats_read(const char *, struct mountstats *, char *);
int	mountstats_parse(FILE *, const char *, struct mountstats *, char *);
void	mountstats_free(struct mountstats *);

const struct ms_mount *
	mountstats_find(const struct mountstats *, const char *);
const struct ms_op *
	mountstats_op(const struct ms_mount *, const char *);
int	mountstats_delta(const struct ms_mount *, const struct ms_mount *,
	    struct ms_mount *, char *);
void	mountstats_clear(struct ms_mount *);

#endif /* LD_MOUNTSTATS_H */
