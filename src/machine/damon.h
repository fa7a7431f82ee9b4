/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * damon: whether the kernel's DAMON reclaims memory on its own while a
 * run measures.  A kdamond that is on with a scheme whose action is
 * pageout takes pages that nobody touched for a while out of the page
 * cache, so a phase that reads what an earlier phase wrote a minute ago
 * reads it from the disk: "warm" is not warm on such a machine.  Read
 * from DAMON's sysfs interface (/sys/kernel/mm/damon/admin), and said
 * in the metadata (probe_system(): damon) and on the page.
 */

#ifndef LD_DAMON_H
#define LD_DAMON_H

#include <stddef.h>

#define DAMON_ADMIN	"/sys/kernel/mm/damon/admin"

int	damon_describe(const char *, char *, size_t);

#endif /* LD_DAMON_H */
