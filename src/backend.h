/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * backend: the small table of operations a phase calls, so the phases in
 * workload.c never name a system call.  posix.c implements it with
 * openat/unlinkat/getdents64 relative to directory descriptors; an NFS
 * client backend can implement the same table without the phases
 * changing.
 *
 * A backend works inside one work directory and has at most one current
 * round directory, entered with enter() and left with leave().  Names
 * passed to create/open/stat/unlink are single path components in the
 * current round directory.  Every operation returns 0 (or a count), or
 * -1 with errno set, and prints nothing.
 */

#ifndef LD_BACKEND_H
#define LD_BACKEND_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

enum backend_fsync {
	BACKEND_FSYNC_NONE = 0,
	BACKEND_FSYNC_FILE = 1,		/* fsync each file before close */
	BACKEND_FSYNC_DIR = 2,		/* fsync the directory after each
					   create and unlink */
	BACKEND_FSYNC_BOTH = 3
};

struct backend_opts {
	uint64_t		file_size;	/* bytes written on create */
	enum backend_fsync	fsync;
};

struct backend;

struct backend_ops {
	const char	*name;
	/* Make directory 'name' in the work directory and enter it. */
	int		(*enter)(struct backend *, const char *);
	/* Leave the current round directory; remove it if asked. */
	int		(*leave)(struct backend *, bool);
	int		(*create)(struct backend *, const char *);
	int		(*open)(struct backend *, const char *);
	int		(*stat)(struct backend *, const char *);
	int		(*unlink)(struct backend *, const char *);
	/* Start reading the current directory from its beginning. */
	int		(*rewind)(struct backend *);
	/*
	 * Read the next batch of entries, without "." and "..": store a
	 * pointer to an array of names, valid until the next call, and
	 * return how many there are (0 at the end; a batch may also be
	 * empty before the end, so callers stop only when the backend
	 * says so through 'end').
	 */
	ssize_t		(*readdir)(struct backend *, const char ***, bool *);
	/* Flush the filesystem holding the work directory (syncfs). */
	int		(*sync)(struct backend *);
	/*
	 * Let go of every descriptor on the filesystem (so it can be
	 * unmounted), remembering the current round directory's name; then
	 * take it up again below the work directory, now open as the given
	 * descriptor.
	 */
	int		(*suspend)(struct backend *);
	int		(*resume)(struct backend *, int);
	void		(*close)(struct backend *);
};

struct backend {
	const struct backend_ops	*ops;
	struct backend_opts		 opts;
	void				*priv;
};

const char	*backend_fsync_name(enum backend_fsync);

int	posix_open(struct backend *, int, const struct backend_opts *);

#endif /* LD_BACKEND_H */
