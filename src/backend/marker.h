/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * marker: the file that makes a directory recognisably largedir's.
 *
 * Work directories (workdir.c) and target run directories (target.c)
 * carry a marker: a magic first line, then "key: value" lines naming the
 * host and pid of the run that made the directory and the directory's own
 * inode number, so that a copy or a hand-made look-alike is never taken
 * for the original.  --cleanup reads markers to find what a killed run
 * left.  A run holds a lock on its marker for as long as it lives
 * (marker_lock()), and marker_held() tells whether some run still does:
 * that works across PID namespaces and whatever the binary is called.
 * marker_alive() judges by host and pid, for what cannot hold a lock
 * (memory cgroups).
 */

#ifndef LD_MARKER_H
#define LD_MARKER_H

#include <stdbool.h>
#include <stdint.h>

#define MARKER_MAX	4096		/* longest marker read */

struct marker {
	char		host[256];
	long long	pid;
	uint64_t	inode;
	char		names[64];	/* the "names:" value, or "" */
	bool		has_seed;	/* "seed:" and "file_size:" given */
	uint64_t	seed;		/* the names' seed */
	uint64_t	file_size;	/* maildir names carry it */
	uint64_t	file_size_max;	/* a range's top, or 0 */
};

char	*marker_text(int, const char *, const char *);
char	*marker_format(uint64_t, const char *, const char *);
int	 marker_parse(char *, const char *, uint64_t, struct marker *);
int	 marker_put(int, const char *, const char *);
int	 marker_read(int, const char *, const char *, struct marker *);
bool	 marker_alive(const struct marker *, const char **);
int	 marker_lock(int, const char *);
int	 marker_held(int, const char *);

#endif /* LD_MARKER_H */
