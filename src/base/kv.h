/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * kv: an ordered list of key/value strings.  A run's metadata and its
 * settings are kept so from the moment they are probed or parsed until
 * a writer prints them ("# key: value"); the order is the order keys
 * were first set.
 */

#ifndef LD_KV_H
#define LD_KV_H

#include <stddef.h>

struct kv {
	char	*key;
	char	*value;
};

struct kvlist {
	struct kv	*kv;
	size_t		 len;
	size_t		 cap;
};

void	kv_set(struct kvlist *, const char *, const char *, ...)
	    __attribute__((format(printf, 3, 4)));
const char *
	kv_get(const struct kvlist *, const char *);
void	kv_free(struct kvlist *);

#endif /* LD_KV_H */
