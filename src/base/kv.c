/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * kv: an ordered list of key/value strings, the form of a run's metadata
 * and settings in memory (see kv.h).
 */

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/kv.h"
#include "base/util.h"

/*
 * Set 'key' in 'list' to the printf-style 'fmt' and its arguments.  An
 * existing key keeps its place and gets the new value; a new key is
 * appended, so the list stays in the order keys were first set.  The list
 * owns copies of both strings.  A value vasprintf(3) cannot format (out
 * of memory, a bad wide character) is stored empty; xstrdup() dies if
 * memory is out.
 */
void
kv_set(struct kvlist *list, const char *key, const char *fmt,
    ...)
{
	va_list	 ap;
	char	*value;
	size_t	 i;
	int	 n;

	va_start(ap, fmt);
	n = vasprintf(&value, fmt, ap);
	va_end(ap);
	if (n == -1)
		value = xstrdup("");

	for (i = 0; i < list->len; i++) {
		if (strcmp(list->kv[i].key, key) == 0) {
			free(list->kv[i].value);
			list->kv[i].value = value;
			return;
		}
	}
	if (list->len == list->cap) {
		list->cap = list->cap == 0 ? 16 : list->cap * 2;
		list->kv = xreallocarray(list->kv, list->cap,
		    sizeof(list->kv[0]));
	}
	list->kv[list->len].key = xstrdup(key);
	list->kv[list->len].value = value;
	list->len++;
}

/*
 * Return the value of 'key' in 'list', or NULL if it is not set.  The
 * string belongs to the list and lives until the key is set again or the
 * list is freed.
 */
const char *
kv_get(const struct kvlist *list, const char *key)
{
	size_t	i;

	for (i = 0; i < list->len; i++)
		if (strcmp(list->kv[i].key, key) == 0)
			return list->kv[i].value;
	return NULL;
}

/* Free every key and value of 'list' and leave it empty and reusable. */
void
kv_free(struct kvlist *list)
{
	size_t	i;

	for (i = 0; i < list->len; i++) {
		free(list->kv[i].key);
		free(list->kv[i].value);
	}
	free(list->kv);
	memset(list, 0, sizeof(*list));
}
