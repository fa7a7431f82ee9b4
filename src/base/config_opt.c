/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * config_opt: a value by its option's type (see config_opt.h): checked
 * and parsed, stored into and loaded from the struct that keeps it, and
 * spelled as the record of a run spells it.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/config_opt.h"
#include "base/parse.h"
#include "base/util.h"

static int	reject(const struct config_opt *, const char *, const char *,
		    char *);

/* Write "--KEY 'VALUE': WHY" into 'err'; return -1 with errno EINVAL. */
int
config_opt_bad(char *err, const char *key, const char *value, const char *why)
{
	(void)snprintf(err, LD_ERRLEN, "--%s '%s': %s", key, value, why);
	errno = EINVAL;
	return -1;
}

/*
 * Refuse 'value' for 'o' with the table's message for 'errstr' (what
 * parse_num() and friends said), or the one its type implies.
 */
static int
reject(const struct config_opt *o, const char *value, const char *errstr,
    char *err)
{
	const struct config_word	*w;
	const char			*why;
	char				 buf[LD_ERRLEN];

	why = errstr == NULL || strcmp(errstr, "invalid") == 0 ? o->bad :
	    strcmp(errstr, "too small") == 0 ? o->low : o->high;
	if (why != NULL)
		return config_opt_bad(err, o->name, value, why);
	if (o->type == CONFIG_COUNT)
		(void)snprintf(buf, sizeof(buf), "must be a whole number from "
		    "%" PRIu64 " to %" PRIu64, o->min, o->max);
	else if (o->type == CONFIG_CHOICE) {
		buf[0] = '\0';
		util_append(buf, sizeof(buf), "must be ");
		for (w = o->words; w->word != NULL; w++) {
			if (w != o->words)
				util_append(buf, sizeof(buf), w[1].word ==
				    NULL ? " or " : ", ");
			util_append(buf, sizeof(buf), w->word);
		}
	} else if (o->type == CONFIG_FLAG)
		(void)snprintf(buf, sizeof(buf), "must be yes or no");
	else
		(void)snprintf(buf, sizeof(buf), "invalid");
	return config_opt_bad(err, o->name, value, buf);
}

/*
 * Check 'value' for 'o' and parse it into '*v' ('value' NULL: a flag
 * given bare).  Return 0, or -1 with errno EINVAL and a message in 'err'.
 */
int
config_opt_parse(struct config *cfg, const struct config_opt *o,
    const char *value, union config_val *v, char *err)
{
	const struct config_word	*w;
	const char			*errstr = NULL;

	memset(v, 0, sizeof(*v));
	if (o->parse != NULL)
		return o->parse(cfg, value, v, err);
	switch (o->type) {
	case CONFIG_FLAG:
		if (value != NULL && strcmp(value, "yes") != 0 &&
		    strcmp(value, "no") != 0)
			return reject(o, value, NULL, err);
		v->b = value == NULL || strcmp(value, "yes") == 0;
		return 0;
	case CONFIG_COUNT:
		v->u = (uint64_t)parse_num(value, (long long)o->min,
		    (long long)o->max, &errstr);
		break;
	case CONFIG_SIZE:
		if (parse_size(value, o->max, &v->u, &errstr) == 0 &&
		    v->u < o->min)
			errstr = "too small";
		break;
	case CONFIG_DURATION:
		(void)parse_duration(value, o->max, &v->u, &errstr);
		break;
	case CONFIG_REAL:
		(void)parse_double(value, (double)o->min, (double)o->max,
		    &v->d, &errstr);
		break;
	case CONFIG_CHOICE:
		for (w = o->words; w->word != NULL; w++)
			if (strcmp(value, w->word) == 0) {
				v->i = w->value;
				return 0;
			}
		errstr = "invalid";
		break;
	case CONFIG_STRING:
		if (o->valid != NULL && !o->valid(value))
			errstr = "invalid";
		v->s = value;
		break;
	case CONFIG_CUSTOM:
		break;
	}
	return errstr != NULL ? reject(o, value, errstr, err) : 0;
}

/*
 * Store '*v' where 'o' keeps its value in the struct at 'base' (NULL:
 * nowhere).
 */
void
config_opt_store(const struct config_opt *o, void *base,
    const union config_val *v)
{
	char	*p = base;

	if (o->size == 0 || p == NULL)
		return;
	p += o->off;
	switch (o->type) {
	case CONFIG_FLAG:
		*(bool *)(void *)p = v->b;
		break;
	case CONFIG_COUNT:
	case CONFIG_SIZE:
	case CONFIG_DURATION:
		if (o->size == sizeof(unsigned))
			*(unsigned *)(void *)p = (unsigned)v->u;
		else
			*(uint64_t *)(void *)p = v->u;
		break;
	case CONFIG_REAL:
		*(double *)(void *)p = v->d;
		break;
	case CONFIG_CHOICE:
		*(int *)(void *)p = v->i;	/* enums are ints here */
		break;
	case CONFIG_STRING:
		free(*(char **)(void *)p);
		*(char **)(void *)p = xstrdup(v->s);
		break;
	case CONFIG_CUSTOM:
		break;
	}
}

/* What 'o' keeps in the struct at 'base' (NULL: zero), back as a value. */
void
config_opt_load(const struct config_opt *o, const void *base,
    union config_val *v)
{
	const char	*p = base;

	memset(v, 0, sizeof(*v));
	if (o->size == 0 || p == NULL)
		return;
	p += o->off;
	switch (o->type) {
	case CONFIG_FLAG:
		v->b = *(const bool *)(const void *)p;
		break;
	case CONFIG_COUNT:
	case CONFIG_SIZE:
	case CONFIG_DURATION:
		v->u = o->size == sizeof(unsigned) ?
		    *(const unsigned *)(const void *)p :
		    *(const uint64_t *)(const void *)p;
		break;
	case CONFIG_REAL:
		v->d = *(const double *)(const void *)p;
		break;
	case CONFIG_CHOICE:
		v->i = *(const int *)(const void *)p;
		break;
	case CONFIG_STRING:
		v->s = *(char *const *)(const void *)p;
		break;
	case CONFIG_CUSTOM:
		break;
	}
}

/*
 * '*v' as the record of a run spells it: in 'buf' ('len' bytes), or a
 * string of the table or of 'v'.
 */
const char *
config_opt_show(const struct config_opt *o, const union config_val *v,
    char *buf, size_t len)
{
	const struct config_word	*w;

	if (o->unset != NULL && (o->type == CONFIG_STRING ? v->s == NULL :
	    v->u == 0))
		return o->unset;
	switch (o->type) {
	case CONFIG_FLAG:
		return v->b ? "yes" : "no";
	case CONFIG_COUNT:
	case CONFIG_SIZE:
		(void)snprintf(buf, len, "%" PRIu64, v->u);
		return buf;
	case CONFIG_DURATION:
		(void)snprintf(buf, len, "%.3fs", v->u / 1e9);
		return buf;
	case CONFIG_REAL:
		(void)snprintf(buf, len, "%g", v->d);
		return buf;
	case CONFIG_CHOICE:
		for (w = o->words; w->word != NULL; w++)
			if (w->value == v->i)
				return w->word;
		return "?";
	case CONFIG_STRING:
		return v->s != NULL ? v->s : "";
	case CONFIG_CUSTOM:
		break;
	}
	return "";
}
