/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * posixfs: the state of the posix backend (posix.c, posixmail.c) and the
 * calls its operations are made of: a directory handle, the path of a
 * name through its round directory, the one subdirectory that has a
 * descriptor, and a new file written and closed.
 */

#ifndef LD_POSIXFS_H
#define LD_POSIXFS_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "backend/backend.h"
#include "backend/knfs.h"
#include "backend/workdir.h"

#define DIRBUF_SIZE	32768		/* getdents64 buffer */
#define WRITE_CHUNK	(1U << 20)	/* largest single write(2) */
#define READ_CHUNK	65536		/* readfile's read(2) */

/*
 * A round directory: its descriptor (-1 while released) and name.  A
 * subdirectory of one (the tree layout) is reached by a path through its
 * parent, "d00000012/NAME", as a program working in the round directory
 * names its files; it has a descriptor of its own only while it is
 * listed or fsync'd (struct posix: 'cur'), so a tree of any size holds
 * one descriptor at most.
 */
struct backend_dir {
	int			 fd;
	char			*name;
	size_t			 namelen;
	struct backend_dir	*parent;	/* a subdirectory's, or NULL */
	struct backend_dir	*next;
};

struct posix {
	struct workdir		 wd;
	struct backend_dir	*dirs;		/* the open handles */
	char			*data;		/* what create writes */
	size_t			 datalen;
	char			*dirbuf;	/* getdents64 buffer */
	char			*rbuf;		/* readfile's, READ_CHUNK */
	const char		**names;	/* the batch readdir returns */
	struct backend_dir	*cur;		/* the subdirectory with a
						   descriptor, or NULL */
	char			 path[2 * (NAME_MAX + 1) + 1];	/* at() */
	char			 path2[2 * (NAME_MAX + 1) + 1];	/* the other
						   name of a rename */
	bool			 attached;	/* another rank's: keep it */
	struct knfs		 nfs;		/* a kernel NFS mount's
						   counters, with its tables */
};

struct posix	*posixfs_new(const struct backend *);
void		 posixfs_free(struct posix *);
struct backend_dir *
		 posixfs_dir(struct posix *, int, const char *);
int		 posixfs_at(struct posix *, struct backend_dir *, const char *,
		    const char **);
int		 posixfs_dir_fd(struct posix *, struct backend_dir *);
void		 posixfs_sub_close(struct posix *);
int		 posixfs_write(struct backend *, int, const char *, uint64_t);

#endif /* LD_POSIXFS_H */
