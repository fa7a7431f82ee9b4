/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * sysfile: read the small text files of the kernel (/proc, /sys and
 * cgroup files) and take their lines apart: a whole file into a buffer
 * of a caller's size, the first line, every line in turn, the value of a
 * "key value" or "key: value" line (meminfo, memory.events, memory.stat,
 * /proc/PID/status), a file that holds one number, and the fields and
 * words of a line.
 *
 * Every path is a parameter, so tests point the readers at fixtures in
 * tests/data/.  Numbers are decimal, never negative and at most
 * INT64_MAX, so a caller may store them in an int64_t.  The writer of
 * such files is util_write_file() (async-signal-safe; nothing here is).
 */

#ifndef LD_SYSFILE_H
#define LD_SYSFILE_H

#include <sys/types.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

char	*sysfile_path(const char *, const char *);
ssize_t	 sysfile_read(const char *, char *, size_t);
int	 sysfile_line(const char *, char *, size_t);
int	 sysfile_lines(const char *, int (*)(void *, char *), void *);
int	 sysfile_key(const char *, const char *, char *, size_t);
int	 sysfile_key_u64(const char *, const char *, uint64_t *);
int	 sysfile_u64(const char *, uint64_t *);

int	 sysfile_parse_u64(const char *, uint64_t *);
int	 sysfile_field_u64(const char *, int, uint64_t *);
const char *
	 sysfile_token(const char *, int, size_t *);
bool	 sysfile_has_word(const char *, const char *, const char *);
char	*sysfile_trim(char *);

#endif /* LD_SYSFILE_H */
