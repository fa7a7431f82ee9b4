/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * names: the table of file names a round creates, built before any clock
 * starts so the timed loops only index it.
 *
 * Two kinds of name: fixed-width decimal ("00001234", the classic), and
 * maildir-like ("1764412345.M123456P54321Q1234.mx1.example.org,S=0:2,"),
 * since the length of a name decides how many entries fit in a directory
 * block.  Every name encodes its index, so names_lookup() can tell in
 * constant time whether a name read back from a directory is one of ours:
 * largedir never unlinks a name it did not create.  The names depend only
 * on the kind, the length, the seed and the file size, never on the clock
 * or the host, so a run can be repeated exactly.
 */

#ifndef LD_NAMES_H
#define LD_NAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum names_kind {
	NAMES_FIXED,		/* zero-padded decimal index, 'len' wide */
	NAMES_MAILDIR		/* maildir-style unique names */
};

#define NAMES_DEFAULT_LEN	8
#define NAMES_MAX_LEN		255
#define NAMES_INFO		":2,"	/* a maildir name's info, as in cur/ */
#define NAMES_CHURN_PREFIX	"churn-"	/* --churn's files (churn.c) */

struct names {
	enum names_kind	 kind;
	unsigned	 len;		/* fixed width; 0 for maildir */
	uint64_t	 n;		/* names in the table */
	size_t		 stride;	/* bytes from one name to the next */
	char		*buf;		/* n * stride bytes, NUL-terminated */
};

/* The name of file 'i' (0 <= i < n).  Inline: used in the timed loops. */
static inline const char *
names_get(const struct names *t, uint64_t i)
{
	return t->buf + i * t->stride;
}

uint64_t	names_capacity(enum names_kind, unsigned);
int		names_build(struct names *, enum names_kind, unsigned,
		    uint64_t, uint64_t, uint64_t);
int		names_build_sized(struct names *, enum names_kind, unsigned,
		    uint64_t, uint64_t, uint64_t, uint64_t);
uint64_t	names_mail_size(uint64_t, uint64_t, uint64_t, uint64_t);
void		names_free(struct names *);
bool		names_lookup(const struct names *, const char *,
		    uint64_t *);
bool		names_lookup_info(const struct names *, const char *,
		    const char *, uint64_t *);
bool		names_match(enum names_kind, unsigned, const char *);
const char	*names_kind_name(enum names_kind);
bool		 names_churn_prefix(const char *);
bool		 names_churn_match(const char *);

#endif /* LD_NAMES_H */
