/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * config_read: the half of config (see config.h) that reads settings in:
 * target config files (config_load()) and the command line of the run
 * and of the suite (config_parse_args()), both through config_set(), all
 * from the option table; getopt's tables and -h are config_usage.c's.
 *
 * config_load() reads a target file (configs/NAME.conf): "key = value"
 * lines whose keys are the target's (target_conf_key()) or the long
 * names of the options, so a file and the command line share every
 * check.  Its messages carry the file and line:
 *
 *	configs/ext4.conf:12: --growth '1': must be greater than 1
 *
 * A run's command line may also give the target keys, spelt as options
 * (--mount-options for mount_options), over what its -c file says: they
 * are checked by target_conf_set() as a line is, and the target is
 * checked whole once both are read (config_parse_args()).
 *
 * config_parse_args() prints nothing: it returns what the command line
 * asks for, or a message for the front-end to print before it exits 2.
 */

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "settings/config.h"

#define MAX_LINE	4096	/* bytes in a config file line, without '\n' */

/* The keys a config file set, and the line of each. */
struct keylines {
	char		**keys;
	size_t		 *lines;
	size_t		  n;
};

static int	split(char *, char **, char **);
static bool	known(const char *, char *);
static void	prefix(char *, const char *, size_t, const char *);
static const char *shipped(const char *);
static int	read_line(FILE *, char *, char *);
static int	load_line(struct config *, struct target_conf *, char *,
		    char ***, size_t *, char *);
static int	load_file(struct config *, struct target_conf *, const char *,
		    struct keylines *, char *);
static bool	overridden(const char *, const char *);
static int	check_target(const struct target_conf *, const char *,
		    const struct keylines *, const char *, char *);
static void	keylines_free(struct keylines *);
static void	respell(char *, size_t, const char *, char, char);
static int	target_arg(struct config *, struct target_conf *,
		    const struct config_opt *, const char *, const char *,
		    char *);
static const struct config_opt *by_val(int);
static void	refuse(const struct config_opt *, enum config_verb,
		    const char *, char *);
static int	pass_on(struct config_args *, enum config_verb,
		    const struct config_opt *, const char *, char *);

/*
 * Split the config file line 'line' in place into 'key' and 'value',
 * trimming blanks around both.  The first '=' ends the key, so the value
 * may hold '=' and '#'.  Return -1 if there is no '=' or no key.
 */
static int
split(char *line, char **key, char **value)
{
	char	*eq, *end;

	if ((eq = strchr(line, '=')) == NULL)
		return -1;
	*eq = '\0';
	*key = line;
	*value = eq + 1;
	while (isspace((unsigned char)**key))
		(*key)++;
	for (end = eq; end > *key && isspace((unsigned char)end[-1]); end--)
		;
	*end = '\0';
	while (isspace((unsigned char)**value))
		(*value)++;
	for (end = *value + strlen(*value); end > *value &&
	    isspace((unsigned char)end[-1]); end--)
		;
	*end = '\0';
	return **key == '\0' ? -1 : 0;
}

/*
 * Whether 'key' is an option a config file may set: one whose verbs say
 * CONFIG_FILE (not -c, as a file cannot name another, nor what only the
 * command line does).  If not, say so in 'msg' (LD_ERRLEN bytes), with
 * the spelling a file uses for a target key spelt as its option.
 */
static bool
known(const char *key, char *msg)
{
	const struct config_opt	*o;
	char			 name[32];

	if ((o = config_opt_find(key)) != NULL &&
	    (o->verbs & CONFIG_FILE) != 0)
		return true;
	/* No key is longer than 64 bytes: quoting more helps no one. */
	(void)snprintf(msg, LD_ERRLEN, "unknown key '%.64s'", key);
	if (o == NULL || o->act != CONFIG_ACT_TARGET)
		return false;
	respell(name, sizeof(name), o->name, '-', '_');
	(void)snprintf(msg, LD_ERRLEN, "unknown key '%.64s' (the target key "
	    "is '%s')", key, name);
	return false;
}

/*
 * Write "PATH:LINE: MSG" (or "PATH: MSG" when 'lineno' is 0) into 'err'
 * (LD_ERRLEN bytes), cut to fit.
 */
static void
prefix(char *err, const char *path, size_t lineno, const char *msg)
{
	int	n;

	if (lineno != 0)
		n = snprintf(err, LD_ERRLEN, "%s:%zu: ", path, lineno);
	else
		n = snprintf(err, LD_ERRLEN, "%s: ", path);
	if (n >= 0 && n < LD_ERRLEN)
		(void)snprintf(err + n, LD_ERRLEN - (size_t)n, "%s", msg);
}

/*
 * Apply one line of a config file (newline removed) to 'cfg' or 'tc'.
 * The keys set so far are in 'seen' ('nseen' of them, owned by the
 * caller), and this line's key is added.  Return 0, or -1 with the
 * message, without file and line, in 'msg' (LD_ERRLEN bytes).
 */
static int
load_line(struct config *cfg, struct target_conf *tc, char *line,
    char ***seen, size_t *nseen, char *msg)
{
	char	*key, *value;
	size_t	 i;

	while (isspace((unsigned char)*line))
		line++;
	if (*line == '\0' || *line == '#')
		return 0;
	if (split(line, &key, &value) == -1) {
		(void)snprintf(msg, LD_ERRLEN, "expected 'key = value'");
		return -1;
	}
	for (i = 0; i < *nseen; i++)
		if (strcmp((*seen)[i], key) == 0) {
			(void)snprintf(msg, LD_ERRLEN, "key '%.64s' given "
			    "twice", key);
			return -1;
		}
	*seen = xreallocarray(*seen, *nseen + 1, sizeof(**seen));
	(*seen)[(*nseen)++] = xstrdup(key);
	if (target_conf_key(key))
		return target_conf_set(tc, key, value, msg);
	if (!known(key, msg))
		return -1;
	return config_set(cfg, key, value, msg);
}

/*
 * Read the next line of 'fp' into 'buf' (MAX_LINE + 1 bytes), without
 * its newline; the last line may lack one.  Return 1 for a line, 0 at
 * the end, -2 on a read error (ferror(3)), or -1 with a message in 'msg'
 * (LD_ERRLEN bytes) for a line longer than MAX_LINE bytes or one with a
 * NUL byte in it, which C strings would silently cut there.  It reads no
 * further than MAX_LINE + 1 bytes of a line, so a file without newlines
 * (/dev/zero) ends it too.
 */
static int
read_line(FILE *fp, char *buf, char *msg)
{
	size_t	len = 0;
	int	c;

	while ((c = getc(fp)) != EOF && c != '\n') {
		if (c == '\0') {
			(void)snprintf(msg, LD_ERRLEN, "a NUL byte in the "
			    "line");
			return -1;
		}
		if (len == MAX_LINE) {
			(void)snprintf(msg, LD_ERRLEN, "line longer than %d "
			    "bytes", MAX_LINE);
			return -1;
		}
		buf[len++] = (char)c;
	}
	if (c == EOF && ferror(fp))
		return -2;
	if (c == EOF && len == 0)
		return 0;
	buf[len] = '\0';
	return 1;
}

/*
 * What to add to "NAME: No such file or directory" for a bare config
 * name 'path': where the configs largedir ships are; "" for a path.
 */
static const char *
shipped(const char *path)
{
	if (strchr(path, '/') != NULL)
		return "";
	return " (the configs largedir ships are in configs/ of its source "
	    "and in " LD_DATADIR "/configs)";
}

/*
 * Read the config file 'path' into 'cfg' and 'tc' as config_load() does,
 * but without target_conf_check(), and keep the key of each line in
 * 'kl', which the caller frees with keylines_free() whatever happens.
 * Return 0, or -1 with errno and a message in 'err' as config_load().
 */
static int
load_file(struct config *cfg, struct target_conf *tc, const char *path,
    struct keylines *kl, char *err)
{
	FILE	*fp;
	char	 line[MAX_LINE + 1], msg[LD_ERRLEN];
	size_t	 lineno = 0, i;
	int	 rc = -1, saved, got;

	memset(kl, 0, sizeof(*kl));
	if ((fp = fopen(path, "r")) == NULL) {
		saved = errno;
		(void)snprintf(err, LD_ERRLEN, "%s: %s%s", path,
		    strerror(saved), saved == ENOENT ? shipped(path) : "");
		errno = saved;
		return -1;
	}
	while ((got = read_line(fp, line, msg)) != 0) {
		lineno++;
		if (got == -1)
			goto bad_line;
		if (got == -2)
			break;		/* ferror() says why below */
		i = kl->n;
		if (load_line(cfg, tc, line, &kl->keys, &kl->n, msg) == -1)
			goto bad_line;
		if (kl->n > i) {
			kl->lines = xreallocarray(kl->lines, kl->n,
			    sizeof(*kl->lines));
			kl->lines[kl->n - 1] = lineno;
		}
	}
	if (ferror(fp)) {
		saved = errno;
		(void)snprintf(err, LD_ERRLEN, "%s: %s", path,
		    strerror(saved));
		errno = saved;
		goto out;
	}
	rc = 0;
	goto out;
bad_line:
	prefix(err, path, lineno, msg);
	errno = EINVAL;
out:
	saved = errno;
	(void)fclose(fp);
	errno = saved;
	return rc;
}

/* Whether the list 'over' ("--a --b", or NULL) holds option 'name'. */
static bool
overridden(const char *over, const char *name)
{
	const char	*p;
	size_t		 len = strlen(name);

	for (p = over; p != NULL && (p = strstr(p, name)) != NULL; p += len)
		if (p >= over + 2 && p[-1] == '-' && p[-2] == '-' &&
		    (p == over + 2 || p[-3] == ' ') &&
		    (p[len] == '\0' || p[len] == ' '))
			return true;
	return false;
}

/*
 * target_conf_check() on 'tc', read from the file 'path' (its keys and
 * lines in 'kl') and changed by the options of 'over' (NULL: none; see
 * config.overrides).  Return 0, or -1 with errno EINVAL and a message in
 * 'err' (LD_ERRLEN bytes): "PATH:LINE: why", the line of the key at
 * fault if the file set it and no option did, or "PATH: why", and with
 * options "PATH[:LINE] with --KEY ...: why".
 */
static int
check_target(const struct target_conf *tc, const char *path,
    const struct keylines *kl, const char *over, char *err)
{
	const char	*key;
	char		 msg[LD_ERRLEN], name[32], *where;
	size_t		 i, keyline = 0;

	if (target_conf_check(tc, &key, msg) == 0)
		return 0;
	if (key != NULL)
		respell(name, sizeof(name), key, '_', '-');
	/* Name the line of the key at fault, if the file gave it. */
	for (i = 0; key != NULL && !overridden(over, name) && i < kl->n; i++)
		if (strcmp(kl->keys[i], key) == 0)
			keyline = kl->lines[i];
	if (keyline != 0)
		where = xasprintf("%s:%zu%s%s", path, keyline, over != NULL ?
		    " with " : "", over != NULL ? over : "");
	else
		where = xasprintf("%s%s%s", path, over != NULL ? " with " : "",
		    over != NULL ? over : "");
	prefix(err, where, 0, msg);
	free(where);
	errno = EINVAL;
	return -1;
}

/* Free what 'kl' holds and empty it. */
static void
keylines_free(struct keylines *kl)
{
	size_t	i;

	for (i = 0; i < kl->n; i++)
		free(kl->keys[i]);
	free(kl->keys);
	free(kl->lines);
	memset(kl, 0, sizeof(*kl));
}

/*
 * Read the target config file 'path' into 'cfg' and 'tc', which the
 * caller has initialised (config_init(), target_conf_init()); what the
 * file sets replaces what they hold.  A line is "key = value" (blanks
 * around '=' and at both ends are trimmed; the value may hold '=' and
 * '#'), empty, or a comment starting with '#'.  Target keys go to
 * target_conf_set(), the long names of options to config_set() (a flag
 * such as quiet takes yes or no); no key may come twice.  The result is
 * checked with target_conf_check().
 *
 * Return 0, or -1 with a one-line message in 'err' (LD_ERRLEN bytes):
 * "PATH:LINE: why" and errno EINVAL for a bad line, "PATH: why" (or
 * "PATH:LINE: why", the line of the key at fault) and errno EINVAL when
 * target_conf_check() refuses the whole, and "PATH: strerror" with that
 * errno when the file cannot be read.  After an error 'cfg' and 'tc' may
 * hold part of the file; the caller still frees them.
 */
int
config_load(struct config *cfg, struct target_conf *tc, const char *path,
    char *err)
{
	struct keylines	kl;
	int		rc, saved;

	rc = load_file(cfg, tc, path, &kl, err);
	if (rc == 0)
		rc = check_target(tc, path, &kl, NULL, err);
	saved = errno;
	keylines_free(&kl);
	errno = saved;
	return rc;
}

/* ===== The command line ===== */

/*
 * Copy 'name' into 'buf' ('len' bytes) with every 'from' turned into
 * 'to': the option --mount-options is the key mount_options.
 */
static void
respell(char *buf, size_t len, const char *name, char from, char to)
{
	char	*p;

	(void)snprintf(buf, len, "%s", name);
	for (p = buf; *p != '\0'; p++)
		if (*p == from)
			*p = to;
}

/*
 * The target key option 'o' with 'value' (NULL: a flag, "yes") on the
 * command line of a run whose -c FILE is 'conf' (NULL: none): checked by
 * target_conf_set() as a line of FILE is, stored in 'tc' over FILE's
 * value, and its name added to cfg->overrides (once).  Without -c it is
 * refused: it changes a target a file describes, and the operand is the
 * directory to measure.  Return 0, or -1 with errno EINVAL and a message
 * naming the option in 'err' (LD_ERRLEN bytes).
 */
static int
target_arg(struct config *cfg, struct target_conf *tc,
    const struct config_opt *o, const char *value, const char *conf,
    char *err)
{
	char	key[32], msg[LD_ERRLEN], *list;
	size_t	len;
	int	n;

	if (conf == NULL || tc == NULL) {
		(void)snprintf(err, LD_ERRLEN, "--%s needs -c FILE: it changes "
		    "the target a config file describes (a directory to "
		    "measure is the operand)", o->name);
		errno = EINVAL;
		return -1;
	}
	respell(key, sizeof(key), o->name, '-', '_');
	if (target_conf_set(tc, key, value != NULL ? value : "yes", msg) ==
	    -1) {
		/* "mount_options: ..." becomes "--mount-options: ...". */
		len = strlen(key);
		n = snprintf(err, LD_ERRLEN, "--%s%s", o->name,
		    strncmp(msg, key, len) == 0 ? "" : ": ");
		if (n >= 0 && n < LD_ERRLEN)
			(void)snprintf(err + n, LD_ERRLEN - (size_t)n, "%s",
			    strncmp(msg, key, len) == 0 ? msg + len : msg);
		errno = EINVAL;
		return -1;
	}
	if (overridden(cfg->overrides, o->name))
		return 0;
	list = cfg->overrides == NULL ? xasprintf("--%s", o->name) :
	    xasprintf("%s --%s", cfg->overrides, o->name);
	free(cfg->overrides);
	cfg->overrides = list;
	return 0;
}

/*
 * The option getopt_long() returned as 'ch' with the tables of
 * config_getopt(): by its letter, or 256 + its index, or NULL.
 */
static const struct config_opt *
by_val(int ch)
{
	const struct config_opt	*o;
	size_t			 i;

	for (i = 0; (o = config_opt_at(i)) != NULL; i++)
		if ((o->letter != 0 && ch == o->letter) || ch == 256 + (int)i)
			return o;
	return NULL;
}

/*
 * The option 'o' (NULL: none), given as 'arg', is not one the command
 * line of 'verb' takes: say so in 'err'.
 */
static void
refuse(const struct config_opt *o, enum config_verb verb, const char *arg,
    char *err)
{
	if (o == NULL) {
		/* optopt: a letter, or 256 + i for a long option given a
		   value it does not take. */
		if (verb == CONFIG_RUN && optopt != 0 && optopt < 256)
			(void)snprintf(err, LD_ERRLEN, "unknown option '-%c' "
			    "(see largedir -h)", optopt);
		else
			(void)snprintf(err, LD_ERRLEN, "unknown option '%s' "
			    "(see largedir -h)", arg);
	} else if (verb == CONFIG_COMPARE)
		(void)snprintf(err, LD_ERRLEN, "compare: --%s does not go "
		    "with a comparison, which runs one n (-n) on A and on B "
		    "as their configs say (see largedir compare -h)",
		    o->name);
	else if (o->refuse != NULL)
		/* A target key's message names it, not its value. */
		(void)snprintf(err, LD_ERRLEN, o->refuse,
		    o->act == CONFIG_ACT_TARGET ? o->name : arg);
	else
		(void)snprintf(err, LD_ERRLEN, "unknown option '%s' (see "
		    "largedir -h)", arg);
}

/*
 * A suite or a comparison keeps the option 'o' with 'value' in
 * 'args->given', to pass on to its runs (unless it is CONFIG_LOCAL).
 * Return 0, or -1 with a message in 'err' when there are too many.
 */
static int
pass_on(struct config_args *args, enum config_verb verb,
    const struct config_opt *o, const char *value, char *err)
{
	if (verb == CONFIG_RUN || (o->flags & CONFIG_LOCAL) != 0)
		return 0;
	if (args->ngiven == CONFIG_MAX_PASS) {
		(void)snprintf(err, LD_ERRLEN, "%s: too many options",
		    verb == CONFIG_SUITE ? "suite" : "compare");
		return -1;
	}
	args->given[args->ngiven].opt = o;
	args->given[args->ngiven++].value = value;
	return 0;
}

/*
 * Read the command line 'argc', 'argv' (argv[0] the program or the verb)
 * of 'verb', CONFIG_RUN, CONFIG_SUITE or CONFIG_COMPARE, into 'cfg' and
 * 'args'.  For a
 * run, -c FILE is read first (into 'cfg' and 'tc', as config_load()
 * reads it), so that the rest of the command line wins over it: the
 * target keys given as options (--source, --mount-options, ...; a run
 * with -c only) go into 'tc' through target_conf_set() and are listed
 * in cfg->overrides, every other value goes through config_set(), and
 * target_conf_check() sees the target as FILE and the options make it.
 * A suite or a comparison also keeps in 'args->given' the options to
 * pass on to its runs.  The operands are left in 'args->rest'.  Prints
 * nothing, and stops at -h or -V (after a bad line of FILE, before the
 * check).
 *
 * Return 0, CONFIG_ACT_HELP or CONFIG_ACT_VERSION (the caller prints
 * config_usage() or the version), or -1 with errno and a one-line
 * message in 'err' (LD_ERRLEN bytes) for a usage error: an unknown
 * option, one the verb does not take, a missing or refused value, a bad
 * config file or target.
 */
int
config_parse_args(struct config *cfg, struct target_conf *tc,
    enum config_verb verb, int argc, char **argv, struct config_args *args,
    char *err)
{
	const struct config_opt	*o;
	struct option		*longopts;
	struct keylines		 kl;
	char			 optstring[CONFIG_NSHORT];
	int			 ch, idx, rc = -1, saved;

	memset(args, 0, sizeof(*args));
	memset(&kl, 0, sizeof(kl));
	longopts = config_getopt(optstring);
	opterr = 0;
	optind = 0;		/* GNU getopt: start afresh */
	if (verb == CONFIG_RUN) {
		/* First pass: only -c, whose file the rest overrides. */
		while ((ch = getopt_long(argc, argv, optstring, longopts,
		    &idx)) != -1)
			if ((o = by_val(ch)) != NULL &&
			    o->act == CONFIG_ACT_READ)
				args->conf = optarg;
		if (args->conf != NULL && load_file(cfg, tc, args->conf, &kl,
		    err) == -1)
			goto out;
		optind = 0;
	}
	errno = EINVAL;
	while ((ch = getopt_long(argc, argv, optstring, longopts, &idx)) !=
	    -1) {
		if (ch == ':') {
			(void)snprintf(err, LD_ERRLEN, "option %s needs a "
			    "value", argv[optind - 1]);
			goto out;
		}
		o = ch == '?' ? NULL : by_val(ch);
		if (o == NULL || (o->verbs & verb) == 0) {
			refuse(o, verb, argv[optind - 1], err);
			goto out;
		}
		switch (o->act) {
		case CONFIG_ACT_READ:
			continue;
		case CONFIG_ACT_CLEANUP:
			args->cleanup = true;
			continue;
		case CONFIG_ACT_HELP:
		case CONFIG_ACT_VERSION:
			rc = (int)o->act;
			goto out;
		case CONFIG_ACT_TARGET:
			if (target_arg(cfg, tc, o, optarg, args->conf, err) ==
			    -1)
				goto out;
			continue;
		case CONFIG_ACT_SET:
			break;
		}
		if (config_set(cfg, o->name, optarg, err) == -1 ||
		    pass_on(args, verb, o, optarg, err) == -1)
			goto out;
	}
	args->rest = argv + optind;
	args->nrest = argc - optind;
	if (cfg->nmemory_limits > 1 && verb != CONFIG_SUITE) {
		(void)snprintf(err, LD_ERRLEN, "--memory-limit: %u limits are "
		    "a sweep, one run for each: largedir suite "
		    "--memory-limit A,B,... CONFIG", cfg->nmemory_limits);
		goto out;
	}
	if (args->conf != NULL && check_target(tc, args->conf, &kl,
	    cfg->overrides, err) == -1)
		goto out;
	rc = 0;
out:
	saved = errno;
	keylines_free(&kl);
	free(longopts);
	errno = saved;
	return rc;
}

