/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * posixmail: the Maildir operations of the posix backend (backend.h:
 * deliver, rename, readfile), in the system calls a mail server makes:
 *	deliver:  openat(tmp/NAME, O_CREAT|O_EXCL|O_WRONLY) write [fsync]
 *		  close renameat(tmp/NAME, new/NAME)
 *		  [openat(new, O_DIRECTORY) fsync close]
 *	rename:   renameat
 *	readfile: openat(O_RDONLY) read ... close
 * (fsync as --fsync says: file, dir, both).
 */

#ifndef LD_POSIXMAIL_H
#define LD_POSIXMAIL_H

#include <stdint.h>

#include "backend/backend.h"

int	posix_deliver(struct backend *, struct backend_dir *,
	    struct backend_dir *, const char *, uint64_t);
int	posix_rename(struct backend *, struct backend_dir *, const char *,
	    struct backend_dir *, const char *);
int	posix_readfile(struct backend *, struct backend_dir *, const char *);

#endif /* LD_POSIXMAIL_H */
