/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * backend: what a run needs from the place it measures, as a table of
 * operations, so that neither the phases (workload.c) nor a round
 * (round.c) names a system call.  posix.c implements it for any mounted
 * filesystem (openat/unlinkat/getdents64 relative to directory
 * descriptors); a backend that speaks a network protocol itself (NFS
 * through libnfs) implements the same table; the unit tests have an
 * in-memory one.  Every backend passes the same conformance tests
 * (tests/unit/test_backend.c).
 *
 * Backends are found by name (backend_find(), "backend = NAME" in a
 * config) or by the target a user names (backend_for(): a URL
 * "SCHEME://..." goes to the backend of that scheme, anything else is a
 * path for posix).
 *
 * A backend says what it can do in 'flags' (BACKEND_LOCAL ...), so that
 * the run's set-up asks for a capability, never for a backend by name:
 * a flag and the operation it stands for (forked, subdir, attach) are
 * there together or not at all, which test_backend.c checks.
 *
 * A backend owns its work directory: open() makes a fresh one inside
 * the target and marks it as largedir's, close() removes it, or keeps it
 * with its mark for --cleanup, and sweep() is --cleanup.  Round
 * directories are made inside it with mkdir() and used through opaque
 * handles; several may be open at once.  release() lets go of everything
 * that holds the filesystem (so it can be unmounted), reacquire() takes
 * it up again and checks that the work directory is still the one it
 * marked.  counters() gives per-operation counts (RPCs, for a network
 * backend) under the names the ops table lists, so the columns are known
 * before anything is opened.
 *
 * A backend may have options of its own (READDIR buffer sizes, calls in
 * flight): 'options' lists them in config.c's form (struct config_opt,
 * with their bounds and messages, and where each goes in a struct of the
 * backend's own, 'settings_size' bytes), and config.c takes them on the
 * command line, in config files, in -h and in the record of a run,
 * after its own.  They are parsed once, there, into that struct, which
 * the backend is opened with (backend_opts.settings).
 *
 * Names passed to create/openclose/stat/unlink are single path components
 * in the given directory.  Every operation returns 0 (or a count), or -1
 * with errno set, and prints nothing.  The operations of a phase are
 * called in its timed loop: they do exactly the work they name.
 */

#ifndef LD_BACKEND_H
#define LD_BACKEND_H

#include <sys/types.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/names.h"

#define BACKEND_MAX		8	/* backends in the registry */
#define BACKEND_MAX_COUNTERS	48	/* counters of one backend */

/* backend_ops.flags: what a backend can do. */
#define BACKEND_LOCAL	0x01	/* its targets are directories on this
				   machine's mounts: their filesystem, free
				   inodes and caches are this machine's */
#define BACKEND_FORKS	0x02	/* a child may use it beside its parent
				   (forked: --clients, --churn) */
#define BACKEND_TREE	0x04	/* subdirectories (subdir: --layout tree) */
#define BACKEND_MEMLIMIT 0x08	/* its phases may run in a memory-limited
				   child (--memory-limit) */
#define BACKEND_RANKS	0x10	/* the ranks of an MPI job share it (attach,
				   enter: --mpi) */
#define BACKEND_MAILDIR	0x20	/* a Maildir's operations (deliver, rename,
				   readfile: --workload maildir) */

enum backend_fsync {
	BACKEND_FSYNC_NONE = 0,
	BACKEND_FSYNC_FILE = 1,		/* fsync each file before close */
	BACKEND_FSYNC_DIR = 2,		/* fsync the directory after each
					   create and unlink (a mailbox's:
					   new/ after each delivery) */
	BACKEND_FSYNC_BOTH = 3
};

struct kvlist;		/* output.h: a backend's own options */

/* What a backend is opened with. */
struct backend_opts {
	uint64_t		 file_size;	/* bytes written on create */
	uint64_t		 file_size_max;	/* the largest a delivery
						   writes; 0: file_size */
	bool			 mailbox;	/* --workload maildir: --fsync
						   is the deliveries', and an
						   unlink (an expunge) syncs
						   nothing, as a server's */
	enum backend_fsync	 fsync;
	/* Recorded in the work directory's mark, for --cleanup. */
	enum names_kind		 names;		/* the names rounds hold */
	unsigned		 name_len;
	uint64_t		 seed;		/* of the names */
	uint64_t		 per_dir;	/* --layout tree: files in each
						   subdirectory; 0: flat */
	uint64_t		 churn;		/* --churn: files/s made and
						   removed beside the
						   listings; 0: none */
	const char		*started;	/* ISO 8601 */
	/*
	 * Its own options, in its struct (settings_size bytes: config.c
	 * filled it from the option table), or NULL: their defaults.
	 */
	const void		*settings;
};

/* What sweep() did with one work directory it found. */
struct backend_report {
	const char	*path;		/* the work directory */
	bool		 removed;	/* all of it is gone */
	uint64_t	 files;		/* files unlinked */
	uint64_t	 kept;		/* entries kept: not largedir's */
	const char	*why;		/* why it was skipped, or NULL */
};

struct backend;
struct backend_dir;		/* a round directory: the backend's own */
struct config;			/* config.h */
struct config_opt;

struct backend_ops {
	const char	*name;		/* "posix" */
	const char	*scheme;	/* "nfs" for nfs://..., or NULL */
	unsigned	 flags;		/* BACKEND_LOCAL ... */
	/* Per-operation counters, NULL-terminated: the column names. */
	const char *const *counter_names;
	/*
	 * The counters are the machine's (a kernel mount's), not this
	 * process's: a client forked beside largedir cannot count its own.
	 */
	bool		 shared_counters;
	/*
	 * How many of those, from the first, count calls to a server
	 * (RPCs): the round line shows their sum per file.  0: none.
	 */
	size_t		 ncalls;
	/*
	 * Its own options, name NULL ends them; NULL: none.  Each one's
	 * 'off' and 'size' place its value in a struct of 'settings_size'
	 * bytes, which backend_opts.settings points to.
	 */
	const struct config_opt	*options;
	size_t		 settings_size;
	/*
	 * Check its options (bo->settings, NULL: the defaults) against
	 * the rest of what it would be opened with (may be NULL): 0, or
	 * -1 with a one-line message naming the options in 'err'.
	 * config_check() calls it for every registered backend.
	 */
	int		(*check_settings)(const struct backend_opts *, char *);
	/*
	 * Check the form of 'target' before anything is made (may be
	 * NULL): 0, or -1 with a one-line message in 'err'.
	 */
	int		(*check)(const char *, char *);
	/*
	 * The table to use for 'target' in particular (may be NULL: this
	 * one): posix on a kernel NFS mount counts what the client sent,
	 * under names only the mount's NFS version knows.  Adds what the
	 * results should say of it to 'meta'; if it cannot count, returns
	 * this table and says why in 'err' (else 'err' is "").  Called
	 * when the columns are laid out: the table names them.
	 */
	const struct backend_ops *(*refine)(const char *,
			    struct kvlist *, char *);
	/*
	 * Make and mark a fresh work directory in 'target' and keep it
	 * open; be->workdir names it.  Errors: a one-line message in
	 * 'err' (LD_ERRLEN bytes).
	 */
	int		(*open)(struct backend *, const char *, char *);
	/* Remove the work directory, which must be empty, or keep it. */
	int		(*close)(struct backend *, bool, char *);
	/*
	 * Another rank of an MPI job (--mpi): open the work directory
	 * 'name' that rank 0 made in 'target', as it is (close() then
	 * leaves it), and (enter) a round directory 'name' in it that rank
	 * 0 made, with a handle.  NULL: the backend cannot be shared so.
	 */
	int		(*attach)(struct backend *, const char *, const char *,
			    char *);
	int		(*enter)(struct backend *, const char *,
			    struct backend_dir **);
	/*
	 * Make directory 'name' in the work directory for at most 'n'
	 * files (recorded for --cleanup first), and a handle.
	 */
	int		(*mkdir)(struct backend *, const char *, uint64_t,
			    struct backend_dir **);
	/*
	 * The tree layout: make directory 'name' inside round directory
	 * 'parent' (backend_subdir_name(); the round's record says which
	 * there may be), and a handle for it, which works with every
	 * operation below as a round directory's does.  Handles of
	 * subdirectories are dropped before their parent's, and close()
	 * does not drop them.  NULL: the backend has no trees.
	 */
	int		(*subdir)(struct backend *, struct backend_dir *,
			    const char *, struct backend_dir **);
	/*
	 * Drop a handle; with 'remove', remove the directory too (from
	 * its parent, for a subdirectory).  If the directory cannot be
	 * removed, the handle stays for another try (close() drops a
	 * round directory's in the end).
	 */
	int		(*rmdir)(struct backend *, struct backend_dir *, bool);
	int		(*create)(struct backend *, struct backend_dir *,
			    const char *);
	int		(*openclose)(struct backend *, struct backend_dir *,
			    const char *);
	int		(*stat)(struct backend *, struct backend_dir *,
			    const char *);
	int		(*unlink)(struct backend *, struct backend_dir *,
			    const char *);
	/*
	 * A Maildir delivery of 'size' bytes, as a mail server makes one:
	 * create 'name' in 'tmp' (exclusive), write the body, fsync it if
	 * opts.fsync has BACKEND_FSYNC_FILE, close it, rename it to 'name'
	 * in 'new', and then, if opts.fsync has BACKEND_FSYNC_DIR, open
	 * 'new', fsync and close it.  A failure after the create may
	 * leave the file in 'tmp' or in 'new'.  NULL: no Maildir
	 * (BACKEND_MAILDIR, as rename and readfile).
	 */
	int		(*deliver)(struct backend *, struct backend_dir *,
			    struct backend_dir *, const char *, uint64_t);
	/*
	 * Rename 'from' in 'fdir' to 'to' in 'tdir' (the same directory
	 * or another of the same round), as rename(2) and mail servers
	 * do; the names of a round are its own and never meet.
	 */
	int		(*rename)(struct backend *, struct backend_dir *,
			    const char *, struct backend_dir *, const char *);
	/* Open 'name', read all of it, close it. */
	int		(*readfile)(struct backend *, struct backend_dir *,
			    const char *);
	/* Start reading a directory from its beginning. */
	int		(*rewind)(struct backend *, struct backend_dir *);
	/*
	 * Read the next batch of entries, without "." and "..": store a
	 * pointer to an array of names, valid until the next call, and
	 * return how many there are.  '*end' says the directory is done;
	 * a batch may be empty before the end.
	 */
	ssize_t		(*readdir)(struct backend *, struct backend_dir *,
			    const char ***, bool *);
	/* Flush the filesystem holding the work directory (syncfs). */
	int		(*sync)(struct backend *);
	/* Let go of the filesystem; reacquire() checks the mark again. */
	int		(*release)(struct backend *);
	int		(*reacquire)(struct backend *, char *);
	/* Whether the work directory or directory 'dir' is gone. */
	bool		(*vanished)(struct backend *, struct backend_dir *);
	/*
	 * The totals so far of the counters 'counter_names' lists, one
	 * value each (not called when the list is empty).
	 */
	void		(*counters)(struct backend *, uint64_t *);
	/*
	 * A phase's operations begin ('begin') or have all been called
	 * (may be NULL).  A backend may then let them overlap: they return
	 * before they are done, a failure comes back from a later one, and
	 * the end waits for them all (0, or -1 with errno of the first
	 * failure).  When one fails, up to be->window of those called
	 * before may not have been done (1 for a backend whose operations
	 * never overlap).
	 */
	int		(*overlap)(struct backend *, bool);
	/* Add what the results should say of the target (may be NULL). */
	void		(*meta)(struct backend *, struct kvlist *);
	/*
	 * The last failure in the backend's own words, beyond its errno
	 * ("WRITE: NFS3ERR_NOSPC"), or NULL (the op may be NULL).
	 */
	const char	*(*detail)(struct backend *);
	/*
	 * Called in a child process that goes on using the backend beside
	 * its parent (--churn, a client of --clients): take what must not
	 * be shared, such as a connection or a directory's read position,
	 * of its own.  Return 0, or -1 with errno.  NULL: the backend
	 * cannot be used so.
	 */
	int		(*forked)(struct backend *);
	/*
	 * The counters went up by 'delta' in phase 'phase' (with --churn
	 * if 'churn'): a line naming what the phase cannot have done, when
	 * the counters are shared with others (a kernel NFS mount), or
	 * NULL.  May be NULL.
	 */
	const char	*(*busy)(struct backend *, const char *,
			    const uint64_t *, bool);
	/*
	 * --cleanup: find the marked work directories in 'target' whose
	 * run is gone, remove what they hold that largedir made, and
	 * report each.  Return how many were found, or -1 with 'err'.
	 */
	int		(*sweep)(const char *, void (*)(void *,
			    const struct backend_report *), void *, char *);
};

struct backend {
	const struct backend_ops	*ops;
	struct backend_opts		 opts;
	char				*workdir;	/* for people */
	unsigned			 window;	/* see overlap */
	void				*priv;
};

const struct backend_ops *backend_find(const char *);
const struct backend_ops *backend_for(const char *);
const struct backend_ops *backend_nth(size_t);
const struct backend_ops *backend_refine(const struct backend_ops *,
	    const char *, struct kvlist *, char *);
int	backend_register(const struct backend_ops *);
int	backend_open(struct backend *, const struct backend_ops *,
	    const char *, const struct backend_opts *, char *);
int	backend_attach(struct backend *, const struct backend_ops *,
	    const char *, const char *, const struct backend_opts *, char *);
int	backend_close(struct backend *, bool, char *);
void	backend_round_name(char *, size_t, unsigned, unsigned);
void	backend_subdir_name(char *, size_t, uint64_t);
int	backend_subdir_parse(const char *, uint64_t *);
int	backend_round_record(char *, size_t, const char *, uint64_t,
	    const struct backend_opts *);
const char	*backend_fsync_name(enum backend_fsync);
size_t	backend_ncounters(const struct backend_ops *);

extern const struct backend_ops	posix_ops;

#endif /* LD_BACKEND_H */
