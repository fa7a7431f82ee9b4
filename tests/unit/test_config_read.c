/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * Unit tests for config_read.c: config_load() on the fixture files in
 * tests/data/conf/, on files written into a mkdtemp(3) directory, and on
 * every config shipped in configs/; config_parse_args() on command lines
 * of the run and of the suite, each with the outcome or the exact
 * message its front-end prints; -c's file read before the rest of the
 * command line, and its target keys given as options over it; and -h,
 * byte for byte (tests/data/golden/help.txt).
 */

#include <errno.h>
#include <glob.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/util.h"
#include "settings/config.h"

#define NELEM(a)	(sizeof(a) / sizeof((a)[0]))
#define MAXARGS		160

#ifndef TEST_DATA
#define TEST_DATA	"tests/data"
#endif
#define CONF		TEST_DATA "/conf/"
#define CONFIGS		TEST_DATA "/../../configs"	/* the shipped ones */

/* ===== config_load() ===== */

/* Load 'path' into fresh structures; return what config_load() did. */
static int
load(const char *path, struct config *c, struct target_conf *tc, char *err)
{
	config_init(c);
	target_conf_init(tc);
	err[0] = '\0';
	errno = 0;
	return config_load(c, tc, path, err);
}

/* good.conf: every kind of line, target keys and workload options. */
static void
test_load_good(void **state)
{
	struct config		c;
	struct target_conf	tc;
	char			err[LD_ERRLEN];

	(void)state;
	if (load(CONF "good.conf", &c, &tc, err) == -1)
		fail_msg("%s", err);
	assert_string_equal(tc.label, "good");
	assert_string_equal(tc.description, "a value with = and # inside");
	assert_string_equal(tc.fstype, "ext4");
	assert_string_equal(tc.mkfs, "mkfs.ext4 -q -F -N 1000 -E "
	    "lazy_itable_init=0");
	assert_string_equal(tc.mount_options, "noatime,commit=30");
	assert_int_equal(tc.image_size, 1ULL << 30);
	assert_null(tc.path);
	assert_int_equal(c.budget_ns, 5 * 60 * NS_PER_S);
	assert_int_equal(c.nphases, 4);
	assert_int_equal(c.phases[0], PHASE_CREATE);
	assert_int_equal(c.phases[1], PHASE_OPEN);
	assert_int_equal(c.phases[2], PHASE_LIST);
	assert_int_equal(c.phases[3], PHASE_DELETE);
	assert_true(c.quiet);
	assert_null(c.label);		/* label is the target's key */
	assert_true(c.growth == 1.5);	/* not in the file: the default */
	target_conf_free(&tc);
	config_free(&c);
}

/* Each bad fixture, refused with one line naming the file and line. */
static void
test_load_bad(void **state)
{
	static const struct {
		const char	*path, *want;
		int		 eno;
	} tab[] = {
		{ CONF "unknown-key.conf", CONF "unknown-key.conf:3: unknown "
		    "key 'colour'", EINVAL },
		{ CONF "missing-eq.conf", CONF "missing-eq.conf:4: expected "
		    "'key = value'", EINVAL },
		{ CONF "bad-size.conf", CONF "bad-size.conf:4: image_size "
		    "'8X': not a size (e.g. 8G, 512M)", EINVAL },
		{ CONF "bad-growth.conf", CONF "bad-growth.conf:4: --growth "
		    "'1': must be greater than 1", EINVAL },
		{ CONF "twice.conf", CONF "twice.conf:5: key 'label' given "
		    "twice", EINVAL },
		{ CONF "both-path-device.conf", CONF "both-path-device.conf:4: "
		    "path and device are both set: a target is one or the "
		    "other", EINVAL },
		{ CONF "no-mkfs.conf", CONF "no-mkfs.conf:3: mkfs missing for "
		    "fstype ext4 (e.g. mkfs = mkfs.ext4)", EINVAL },
		{ CONF "no-size.conf", CONF "no-size.conf: image_size missing: "
		    "how large an image to make for ext4 (e.g. image_size = "
		    "8G), or device = a block device to use instead", EINVAL },
		{ CONF "mkfs-missing.conf", CONF "mkfs-missing.conf:3: mkfs "
		    "program 'mkfs.nonexistent' not found in PATH", EINVAL },
		{ CONF "unknown-fstype.conf", CONF "unknown-fstype.conf:3: "
		    "fstype 'foofs': unknown (ext2, ext3, ext4, xfs, btrfs, "
		    "tmpfs, reiserfs, vxfs, nfs, nfs4, f2fs, jfs)", EINVAL },
		{ CONF "missing.conf", CONF "missing.conf: No such file or "
		    "directory", ENOENT },
		{ CONF, CONF ": Is a directory", EISDIR },
	};
	struct config		c;
	struct target_conf	tc;
	char			err[LD_ERRLEN];
	size_t			i;

	(void)state;
	for (i = 0; i < NELEM(tab); i++) {
		if (load(tab[i].path, &c, &tc, err) != -1)
			fail_msg("%s accepted", tab[i].path);
		assert_int_equal(errno, tab[i].eno);
		assert_string_equal(err, tab[i].want);
		assert_null(strchr(err, '\n'));
		target_conf_free(&tc);
		config_free(&c);
	}
}

/*
 * A NUL byte would cut a line short without a word (path = /tmp/d\0junk
 * is /tmp/d): it is refused, also where no newline ever comes.
 */
static void
test_load_nul(void **state)
{
	static const char	body[] = "fstype = tmpfs\nlabel = ok\0!!!\n";
	struct config		c;
	struct target_conf	tc;
	char			dir[] = "/tmp/test_config.XXXXXX", path[64];
	char			err[LD_ERRLEN], want[LD_ERRLEN];
	FILE			*fp;

	(void)state;
	assert_non_null(mkdtemp(dir));
	(void)snprintf(path, sizeof(path), "%s/t.conf", dir);
	assert_non_null(fp = fopen(path, "w"));
	assert_int_equal(fwrite(body, 1, sizeof(body) - 1, fp),
	    sizeof(body) - 1);
	assert_int_equal(fclose(fp), 0);
	assert_int_equal(load(path, &c, &tc, err), -1);
	(void)snprintf(want, sizeof(want), "%s:2: a NUL byte in the line",
	    path);
	assert_string_equal(err, want);
	target_conf_free(&tc);
	config_free(&c);
	assert_int_equal(load("/dev/zero", &c, &tc, err), -1);
	assert_string_equal(err, "/dev/zero:1: a NUL byte in the line");
	target_conf_free(&tc);
	config_free(&c);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(rmdir(dir), 0);
}

/*
 * Files written on the spot: the line length limit at its edge (comments
 * count too), keys a file may not set, an empty key, a flag option, CRLF
 * line ends, a last line without a newline.  Each has a target that
 * target_conf_check() accepts (tmpfs).
 */
static void
test_load_lines(void **state)
{
	static const struct {
		const char	*body;
		size_t		 fill;	/* a comment line this long */
		const char	*want;	/* after "PATH", or NULL: accepted */
	} tab[] = {
		{ "fstype = tmpfs\n", 4096, NULL },
		{ "fstype = tmpfs\n", 4097, ":2: line longer than 4096 bytes" },
		{ "fstype = tmpfs\n", 10000, ":2: line longer than 4096 "
		    "bytes" },
		{ "fstype = tmpfs\nconfig = other.conf\n", 0,
		    ":2: unknown key 'config'" },
		{ "fstype = tmpfs\n = value\n", 0,
		    ":2: expected 'key = value'" },
		{ "fstype = tmpfs\n=\n", 0, ":2: expected 'key = value'" },
		{ "fstype = tmpfs\nquiet = maybe\n", 0,
		    ":2: --quiet 'maybe': must be yes or no" },
		{ "fstype = tmpfs\nquiet = no\n", 0, NULL },
		{ "fstype = tmpfs\nscratch = tmp\n", 0,
		    ":2: --scratch 'tmp': must be an absolute path" },
		{ "fstype = tmpfs\r\nbudget = 90s\r\n", 0, NULL },
		{ "\n\n#\nfstype = tmpfs", 0, NULL },
		{ "fstype = tmpfs\nbudget = 5m\nbudget = 5m\n", 0,
		    ":3: key 'budget' given twice" },
		/* Text is UTF-8, and a file's bytes are not converted. */
		{ "fstype = tmpfs\ndescription = caf\xe9 au lait\n", 0,
		    ":2: description: not valid UTF-8 (byte 4)" },
		{ "fstype = tmpfs\ndescription_de = Gr\xc3\xbc\xc3\x9f\xe9\n",
		    0, ":2: description_de: not valid UTF-8 (byte 7)" },
		{ "fstype = tmpfs\nevents = cycles\xff\n", 0,
		    ":2: --events: not valid UTF-8 (byte 7)" },
		{ "fstype = tmpfs\ndescription_de = Gr\xc3\xbc\xc3\x9f" "e\n",
		    0, NULL },
		{ "fstype = tmpfs\nscratch = /var/tmp/caf\xe9\n", 0, NULL },
	};
	struct config		c;
	struct target_conf	tc;
	char			dir[] = "/tmp/test_config.XXXXXX", path[64];
	char			err[LD_ERRLEN], want[LD_ERRLEN];
	size_t			i, k;
	FILE			*fp;

	(void)state;
	assert_non_null(mkdtemp(dir));
	(void)snprintf(path, sizeof(path), "%s/t.conf", dir);
	for (i = 0; i < NELEM(tab); i++) {
		assert_non_null(fp = fopen(path, "w"));
		assert_true(fputs(tab[i].body, fp) >= 0);
		if (tab[i].fill > 0) {
			assert_int_equal(fputc('#', fp), '#');
			for (k = 1; k < tab[i].fill; k++)
				assert_int_equal(fputc('x', fp), 'x');
			assert_int_equal(fputc('\n', fp), '\n');
		}
		assert_int_equal(fclose(fp), 0);
		if (tab[i].want == NULL) {
			if (load(path, &c, &tc, err) == -1)
				fail_msg("case %zu: %s", i, err);
		} else {
			if (load(path, &c, &tc, err) != -1)
				fail_msg("case %zu accepted", i);
			assert_int_equal(errno, EINVAL);
			(void)snprintf(want, sizeof(want), "%s%s", path,
			    tab[i].want);
			assert_string_equal(err, want);
		}
		target_conf_free(&tc);
		config_free(&c);
	}
	assert_int_equal(unlink(path), 0);
	assert_int_equal(rmdir(dir), 0);
}

/*
 * Every config shipped in configs/ loads and passes target_conf_check()
 * (mkfs.ext4, mkfs.xfs and mkfs.btrfs must be installed; the reiserfs,
 * vxfs and nfs configs name a path, nfs3, nfs3-nordirplus, nfs3-actimeo0
 * and nfs4 an export to mount, and need no mkfs).  Each has a label
 * that is its file name, a description and an fstype, and a config that
 * makes an image says how large.
 */
static void
test_load_shipped(void **state)
{
	struct config		 c;
	struct target_conf	 tc;
	char			 err[LD_ERRLEN];
	const char		*base;
	glob_t			 g;
	size_t			 i;

	(void)state;
	assert_int_equal(glob(CONFIGS "/*.conf", 0, NULL, &g), 0);
	assert_true(g.gl_pathc >= 14);
	for (i = 0; i < g.gl_pathc; i++) {
		if (load(g.gl_pathv[i], &c, &tc, err) == -1)
			fail_msg("%s", err);
		base = strrchr(g.gl_pathv[i], '/') + 1;
		assert_non_null(tc.label);
		assert_int_equal(strlen(tc.label) + strlen(".conf"),
		    strlen(base));
		assert_memory_equal(tc.label, base, strlen(tc.label));
		assert_non_null(tc.description);
		assert_non_null(tc.fstype);
		if (tc.mkfs != NULL)
			assert_true(tc.image_size > 0);
		else
			assert_true(tc.path != NULL || tc.source != NULL ||
			    strcmp(tc.fstype, "tmpfs") == 0);
		target_conf_free(&tc);
		config_free(&c);
	}
	globfree(&g);
}

/* ===== config_parse_args() ===== */

/*
 * Split 'line' at blanks into 'argv' (MAXARGS entries, each a copy,
 * NULL after the last) after 'argv0'; return how many there are.
 */
static int
args(const char *argv0, const char *line, char **argv)
{
	char	*copy, *tok, *save;
	int	 n = 0;

	argv[n++] = xstrdup(argv0);
	copy = xstrdup(line);
	for (tok = strtok_r(copy, " ", &save); tok != NULL && n < MAXARGS - 1;
	    tok = strtok_r(NULL, " ", &save))
		argv[n++] = xstrdup(tok);
	argv[n] = NULL;
	free(copy);
	return n;
}

static void
free_args(char **argv, int argc)
{
	int	i;

	for (i = 0; i < argc; i++)
		free(argv[i]);
}

/*
 * Command lines of both verbs: what config_parse_args() returns, the
 * message of an error word for word (the front-ends print it after
 * "largedir: "), and how many operands are left.
 */
static void
test_args(void **state)
{
	static const struct {
		enum config_verb	 verb;
		const char		*line;
		int			 rc;
		const char		*want;	/* the message, rc -1 */
		int			 nrest;
	} tab[] = {
		{ CONFIG_RUN, "dir", 0, NULL, 1 },
		{ CONFIG_RUN, "-q -g 2 dir other", 0, NULL, 2 },
		{ CONFIG_RUN, "dir -q", 0, NULL, 1 },
		{ CONFIG_RUN, "--cleanup", 0, NULL, 0 },
		{ CONFIG_RUN, "-Z dir", -1, "unknown option '-Z' (see "
		    "largedir -h)", 0 },
		{ CONFIG_RUN, "-qZ dir", -1, "unknown option '-Z' (see "
		    "largedir -h)", 0 },
		{ CONFIG_RUN, "--frob dir", -1, "unknown option '--frob' (see "
		    "largedir -h)", 0 },
		{ CONFIG_RUN, "--bud 5m dir", -1, "unknown option '--bud' (see "
		    "largedir -h)", 0 },
		{ CONFIG_RUN, "--quiet=yes dir", -1, "unknown option '-q' (see "
		    "largedir -h)", 0 },
		{ CONFIG_RUN, "--cleanup=x", -1, "unknown option '--cleanup=x' "
		    "(see largedir -h)", 0 },
		{ CONFIG_RUN, "--growth", -1, "option --growth needs a value",
		    0 },
		{ CONFIG_RUN, "-q -b", -1, "option -b needs a value", 0 },
		/* The first pass moved "dir" after "--growth", as ever. */
		{ CONFIG_RUN, "dir --growth", -1, "--growth 'dir': not a "
		    "number", 0 },
		{ CONFIG_SUITE, "a.conf --growth", -1, "option --growth needs "
		    "a value", 0 },
		{ CONFIG_RUN, "--growth 1 dir", -1, "--growth '1': must be "
		    "greater than 1", 0 },
		{ CONFIG_RUN, "--total-budget 5m dir", -1, "--total-budget "
		    "goes with 'largedir suite'", 0 },
		{ CONFIG_RUN, "--growth 1 -h", -1, "--growth '1': must be "
		    "greater than 1", 0 },
		{ CONFIG_RUN, "-h --growth 1", CONFIG_ACT_HELP, NULL, 0 },
		{ CONFIG_RUN, "--help", CONFIG_ACT_HELP, NULL, 0 },
		{ CONFIG_RUN, "-q -V dir", CONFIG_ACT_VERSION, NULL, 0 },
		{ CONFIG_SUITE, "a.conf b.conf", 0, NULL, 2 },
		{ CONFIG_SUITE, "-l x a.conf", -1, "suite: x: each config "
		    "names its own target and label", 0 },
		{ CONFIG_SUITE, "--label=x a.conf", -1, "suite: --label=x: "
		    "each config names its own target and label", 0 },
		{ CONFIG_SUITE, "-c x a.conf", -1, "suite: x: each config "
		    "names its own target and label", 0 },
		{ CONFIG_SUITE, "--cleanup a.conf", -1, "suite: --cleanup goes "
		    "alone", 0 },
		{ CONFIG_SUITE, "-qZ a.conf", -1, "unknown option '-qZ' (see "
		    "largedir -h)", 0 },
		{ CONFIG_SUITE, "--frob a.conf", -1, "unknown option '--frob' "
		    "(see largedir -h)", 0 },
		{ CONFIG_SUITE, "--total-budget 400d a.conf", -1,
		    "--total-budget '400d': not a duration (e.g. 30m, 2h)", 0 },
		{ CONFIG_SUITE, "--total-budget", -1, "option --total-budget "
		    "needs a value", 0 },
		{ CONFIG_SUITE, "--start 0 a.conf", -1, "--start '0': must be "
		    "a whole number from 1 to 4294967295", 0 },
		{ CONFIG_SUITE, "-h -Z", CONFIG_ACT_HELP, NULL, 0 },
		{ CONFIG_SUITE, "-V", CONFIG_ACT_VERSION, NULL, 0 },
	};
	struct config		 c;
	struct config_args	 a;
	char			*argv[MAXARGS], err[LD_ERRLEN];
	size_t			 i;
	int			 argc, rc;

	(void)state;
	for (i = 0; i < NELEM(tab); i++) {
		config_init(&c);
		argc = args(tab[i].verb == CONFIG_RUN ? "largedir" : "suite",
		    tab[i].line, argv);
		err[0] = '\0';
		rc = config_parse_args(&c, NULL, tab[i].verb, argc, argv, &a,
		    err);
		if (rc != tab[i].rc)
			fail_msg("'%s': returned %d, not %d (%s)", tab[i].line,
			    rc, tab[i].rc, err);
		if (tab[i].want != NULL)
			assert_string_equal(err, tab[i].want);
		if (rc == 0)
			assert_int_equal(a.nrest, tab[i].nrest);
		free_args(argv, argc);
		config_free(&c);
	}
}

/*
 * What a suite passes on to its targets: every option given, in order,
 * but -o and --total-budget, which it uses itself; at most
 * CONFIG_MAX_PASS of them.  A run has --cleanup and its operands.
 */
static void
test_args_suite(void **state)
{
	struct config		 c;
	struct config_args	 a;
	char			*argv[MAXARGS], err[LD_ERRLEN], line[512];
	int			 argc, i;

	(void)state;
	config_init(&c);
	argc = args("suite", "-q --growth=2 -o out --total-budget 1h -s 5 "
	    "a.conf b.conf", argv);
	assert_int_equal(config_parse_args(&c, NULL, CONFIG_SUITE, argc, argv,
	    &a, err), 0);
	assert_int_equal(a.ngiven, 3);
	assert_string_equal(a.given[0].opt->name, "quiet");
	assert_null(a.given[0].value);
	assert_string_equal(a.given[1].opt->name, "growth");
	assert_string_equal(a.given[1].value, "2");
	assert_string_equal(a.given[2].opt->name, "seed");
	assert_string_equal(a.given[2].value, "5");
	assert_int_equal(a.nrest, 2);
	assert_string_equal(a.rest[0], "a.conf");
	assert_string_equal(c.output, "out");
	assert_int_equal(c.total_budget_ns, 3600 * NS_PER_S);
	assert_true(c.growth == 2);
	free_args(argv, argc);
	config_free(&c);

	for (i = CONFIG_MAX_PASS; i <= CONFIG_MAX_PASS + 1; i++) {
		line[0] = '\0';
		while ((int)strlen(line) < 3 * i)
			(void)snprintf(line + strlen(line), sizeof(line) -
			    strlen(line), "-q ");
		(void)snprintf(line + strlen(line), sizeof(line) -
		    strlen(line), "a.conf");
		config_init(&c);
		argc = args("suite", line, argv);
		err[0] = '\0';
		if (i == CONFIG_MAX_PASS)
			assert_int_equal(config_parse_args(&c, NULL,
			    CONFIG_SUITE, argc, argv, &a, err), 0);
		else {
			assert_int_equal(config_parse_args(&c, NULL,
			    CONFIG_SUITE, argc, argv, &a, err), -1);
			assert_string_equal(err, "suite: too many options");
		}
		free_args(argv, argc);
		config_free(&c);
	}

	config_init(&c);
	argc = args("largedir", "--cleanup --scratch /x dir", argv);
	assert_int_equal(config_parse_args(&c, NULL, CONFIG_RUN, argc, argv,
	    &a, err), 0);
	assert_true(a.cleanup);
	assert_null(a.conf);
	assert_string_equal(c.scratch, "/x");
	assert_int_equal(a.nrest, 1);
	free_args(argv, argc);
	config_free(&c);
}

/*
 * -c: its file is read before the rest of the command line, wherever -c
 * stands, so the command line wins; a bad file is refused before a bad
 * option, and before -h.
 */
static void
test_args_config(void **state)
{
	static const struct {
		const char	*line;	/* FILE: the config written */
		int		 rc;
		double		 growth;
		const char	*want;
	} tab[] = {
		{ "-c FILE", 0, 2, NULL },
		{ "-g 3 -c FILE", 0, 3, NULL },
		{ "-c FILE -g 3", 0, 3, NULL },
		{ "--config=FILE --growth=1.25", 0, 1.25, NULL },
		{ "-c FILE --growth 1", -1, 0, "--growth '1': must be greater "
		    "than 1" },
		{ "--growth 1 -c BAD", -1, 0, "BAD:2: --growth '0.5': must be "
		    "greater than 1" },
		{ "-c BAD -h", -1, 0, "BAD:2: --growth '0.5': must be greater "
		    "than 1" },
	};
	struct config		 c;
	struct target_conf	 tc;
	struct config_args	 a;
	char			 dir[] = "/tmp/test_config_read.XXXXXX";
	char			 good[64], badf[64], line[256], want[LD_ERRLEN];
	char			*argv[MAXARGS], err[LD_ERRLEN], *p;
	size_t			 i;
	int			 argc;
	FILE			*fp;

	(void)state;
	assert_non_null(mkdtemp(dir));
	(void)snprintf(good, sizeof(good), "%s/good.conf", dir);
	(void)snprintf(badf, sizeof(badf), "%s/bad.conf", dir);
	assert_non_null(fp = fopen(good, "w"));
	assert_true(fputs("fstype = tmpfs\ngrowth = 2\nstart = 50\n", fp) >= 0);
	assert_int_equal(fclose(fp), 0);
	assert_non_null(fp = fopen(badf, "w"));
	assert_true(fputs("fstype = tmpfs\ngrowth = 0.5\n", fp) >= 0);
	assert_int_equal(fclose(fp), 0);
	for (i = 0; i < NELEM(tab); i++) {
		(void)snprintf(line, sizeof(line), "%s", tab[i].line);
		if ((p = strstr(line, "FILE")) != NULL) {
			(void)snprintf(want, sizeof(want), "%.*s%s%s",
			    (int)(p - line), line, good, p + 4);
			(void)snprintf(line, sizeof(line), "%s", want);
		}
		if ((p = strstr(line, "BAD")) != NULL) {
			(void)snprintf(want, sizeof(want), "%.*s%s%s",
			    (int)(p - line), line, badf, p + 3);
			(void)snprintf(line, sizeof(line), "%s", want);
		}
		config_init(&c);
		target_conf_init(&tc);
		argc = args("largedir", line, argv);
		err[0] = '\0';
		if (config_parse_args(&c, &tc, CONFIG_RUN, argc, argv, &a,
		    err) != tab[i].rc)
			fail_msg("'%s': %s", line, err);
		if (tab[i].rc == 0) {
			assert_true(c.growth == tab[i].growth);
			assert_int_equal(c.start, 50);
			assert_string_equal(a.conf, good);
			assert_string_equal(tc.fstype, "tmpfs");
		} else {
			(void)snprintf(want, sizeof(want), "%s",
			    tab[i].want);
			if (strncmp(want, "BAD", 3) == 0)
				(void)snprintf(want, sizeof(want), "%s%s",
				    badf, tab[i].want + 3);
			assert_string_equal(err, want);
		}
		free_args(argv, argc);
		target_conf_free(&tc);
		config_free(&c);
	}
	assert_int_equal(unlink(good), 0);
	assert_int_equal(unlink(badf), 0);
	assert_int_equal(rmdir(dir), 0);
}

/* Copy 'in' into 'out' ('len' bytes) with every "F" + 'tag' made 'path'. */
static void
subst(char *out, size_t len, const char *in, const char *tag,
    const char *path)
{
	const char	*p;
	size_t		 n = 0, tl = strlen(tag);

	for (p = in; *p != '\0' && n + 1 < len; ) {
		if (strncmp(p, tag, tl) == 0) {
			n += (size_t)snprintf(out + n, len - n, "%s", path);
			p += tl;
		} else
			out[n++] = *p++;
	}
	out[n < len ? n : len - 1] = '\0';
}

/*
 * The target keys as options (--source, --mount-options, ...): with -c,
 * over the file's values, checked as a line of the file is but named as
 * the option, then the target as file and options make it checked
 * whole; the options given are listed once in config.overrides.
 * Without -c and in a suite they are refused; a file that spells one as
 * its option is told the key.
 */
static void
test_args_target(void **state)
{
	static const struct {
		const char	*line;	/* FNFS, FTMP: the configs written */
		int		 rc;
		const char	*want;	/* the message, or the overrides */
	} tab[] = {
		{ "-c FNFS", 0, NULL },
		{ "-c FNFS --source 127.0.0.1:/x --mount-options "
		    "vers=3,nordirplus", 0, "--source --mount-options" },
		{ "--source=127.0.0.1:/y -c FNFS --source 127.0.0.1:/x", 0,
		    "--source" },
		{ "-c FTMP --fstype tmpfs --image-size 64M --wipe "
		    "--description d", 0, "--fstype --image-size --wipe "
		    "--description" },
		{ "-c FNFS --source x", -1, "--source 'x': not HOST:/PATH (an "
		    "NFS export, e.g. 127.0.0.1:/export)" },
		{ "-c FNFS --mount-options bind", -1, "--mount-options: 'bind' "
		    "refused: a bind mount shows an existing directory, not a "
		    "fresh filesystem" },
		{ "-c FNFS --image-size 1k", -1, "--image-size '1k': out of "
		    "range (16M to 16T)" },
		{ "-c FNFS --fstype ext9", -1, "--fstype 'ext9': unknown "
		    "(ext2, ext3, ext4, xfs, btrfs, tmpfs, reiserfs, vxfs, "
		    "nfs, nfs4, f2fs, jfs)" },
		{ "-c FNFS --path rel", -1, "--path 'rel': not an absolute "
		    "path" },
		{ "-c FNFS --url x", -1, "--url 'x': not a URL (e.g. "
		    "nfs://server/export)" },
		{ "-c FNFS --description caf\xe9", -1, "--description: not "
		    "valid UTF-8 (byte 4)" },
		{ "-c FNFS --description-de Gr\xc3\xbc\xc3", -1,
		    "--description-de: not valid UTF-8 (byte 5)" },
		{ "-c FNFS --mkfs", -1, "option --mkfs needs a value" },
		{ "-c FNFS --wipe=yes", -1, "unknown option '--wipe=yes' (see "
		    "largedir -h)" },
		/* The whole, after the options. */
		{ "-c FNFS --mount-options vers=4", -1, "FNFS with "
		    "--mount-options: mount_options: NFS version 4 with "
		    "fstype nfs: the kernel mounts NFSv4 as nfs4, so say "
		    "fstype = nfs4" },
		{ "-c FNFS --fstype nfs4 --mount-options vers=4.1", 0,
		    "--fstype --mount-options" },
		{ "-c FNFS --image-size 1G", -1, "FNFS with --image-size: "
		    "source with image_size: an NFS export needs no image" },
		{ "-c FNFS --path /x", -1, "FNFS:3 with --path: path and "
		    "source are both set: a target is an existing mount or an "
		    "export to mount" },
		{ "-c FTMP", -1, "FTMP:1: mkfs missing for fstype ext4 (e.g. "
		    "mkfs = mkfs.ext4)" },
		{ "-c FTMP --mkfs no-such-mkfs", -1, "FTMP with --mkfs: mkfs "
		    "program 'no-such-mkfs' not found in PATH" },
		/* A bad line of the file comes first; -h skips the check. */
		{ "-c FTMP --fstype tmpfs -h", CONFIG_ACT_HELP, NULL },
		{ "-c FTMP -h", CONFIG_ACT_HELP, NULL },
		/* Without -c: the operand is the directory. */
		{ "--source 127.0.0.1:/x dir", -1, "--source needs -c FILE: it "
		    "changes the target a config file describes (a directory "
		    "to measure is the operand)" },
		{ "--path /tmp", -1, "--path needs -c FILE: it changes the "
		    "target a config file describes (a directory to measure "
		    "is the operand)" },
		{ "--wipe dir", -1, "--wipe needs -c FILE: it changes the "
		    "target a config file describes (a directory to measure "
		    "is the operand)" },
	};
	struct config		 c;
	struct target_conf	 tc;
	struct config_args	 a;
	char			 dir[] = "/tmp/test_config_read.XXXXXX";
	char			 nfs[64], tmp[64], dash[64], line[256], t[256];
	char			*argv[MAXARGS], err[LD_ERRLEN], want[LD_ERRLEN];
	size_t			 i;
	int			 argc, rc;
	FILE			*fp;

	(void)state;
	assert_non_null(mkdtemp(dir));
	(void)snprintf(nfs, sizeof(nfs), "%s/nfs.conf", dir);
	(void)snprintf(tmp, sizeof(tmp), "%s/tmp.conf", dir);
	(void)snprintf(dash, sizeof(dash), "%s/dash.conf", dir);
	assert_non_null(fp = fopen(nfs, "w"));
	assert_true(fputs("label = n\nfstype = nfs\nsource = 10.0.0.1:/e\n"
	    "mount_options = vers=3\n", fp) >= 0);
	assert_int_equal(fclose(fp), 0);
	assert_non_null(fp = fopen(tmp, "w"));
	assert_true(fputs("fstype = ext4\n", fp) >= 0);
	assert_int_equal(fclose(fp), 0);
	assert_non_null(fp = fopen(dash, "w"));
	assert_true(fputs("fstype = tmpfs\nmount-options = noatime\n", fp) >=
	    0);
	assert_int_equal(fclose(fp), 0);
	for (i = 0; i < NELEM(tab); i++) {
		subst(t, sizeof(t), tab[i].line, "FNFS", nfs);
		subst(line, sizeof(line), t, "FTMP", tmp);
		config_init(&c);
		target_conf_init(&tc);
		argc = args("largedir", line, argv);
		err[0] = '\0';
		rc = config_parse_args(&c, &tc, CONFIG_RUN, argc, argv, &a,
		    err);
		if (rc != tab[i].rc)
			fail_msg("'%s': returned %d, not %d (%s)", line, rc,
			    tab[i].rc, err);
		if (rc == -1) {
			assert_int_equal(errno, EINVAL);
			subst(t, sizeof(t), tab[i].want, "FNFS", nfs);
			subst(want, sizeof(want), t, "FTMP", tmp);
			assert_string_equal(err, want);
		} else if (rc == 0 && tab[i].want != NULL)
			assert_string_equal(c.overrides, tab[i].want);
		else if (rc == 0)
			assert_null(c.overrides);
		free_args(argv, argc);
		target_conf_free(&tc);
		config_free(&c);
	}

	/* What the options set, over the file. */
	config_init(&c);
	target_conf_init(&tc);
	(void)snprintf(line, sizeof(line), "-c %s --source 127.0.0.1:/x "
	    "--mount-options vers=3,nordirplus --description two_words", nfs);
	argc = args("largedir", line, argv);
	assert_int_equal(config_parse_args(&c, &tc, CONFIG_RUN, argc, argv,
	    &a, err), 0);
	assert_string_equal(tc.source, "127.0.0.1:/x");
	assert_string_equal(tc.mount_options, "vers=3,nordirplus");
	assert_string_equal(tc.description, "two_words");
	assert_string_equal(tc.fstype, "nfs");		/* the file's */
	assert_string_equal(tc.label, "n");
	assert_false(tc.wipe);
	free_args(argv, argc);
	target_conf_free(&tc);
	config_free(&c);

	/* A suite refuses them, naming the option. */
	config_init(&c);
	argc = args("suite", "--mount-options=vers=3 a.conf", argv);
	assert_int_equal(config_parse_args(&c, NULL, CONFIG_SUITE, argc, argv,
	    &a, err), -1);
	assert_string_equal(err, "suite: --mount-options: target keys are per "
	    "target: set them in each config file");
	free_args(argv, argc);
	config_free(&c);

	/* A file spells the key, not the option. */
	config_init(&c);
	target_conf_init(&tc);
	assert_int_equal(config_load(&c, &tc, dash, err), -1);
	(void)snprintf(want, sizeof(want), "%s:2: unknown key 'mount-options' "
	    "(the target key is 'mount_options')", dash);
	assert_string_equal(err, want);
	target_conf_free(&tc);
	config_free(&c);

	assert_int_equal(unlink(nfs), 0);
	assert_int_equal(unlink(tmp), 0);
	assert_int_equal(unlink(dash), 0);
	assert_int_equal(rmdir(dir), 0);
}

/* ===== -h ===== */

/* config_usage() prints what largedir -h always printed, to the byte. */
static void
test_usage(void **state)
{
	char	*buf = NULL, want[8192];
	size_t	 len = 0, n;
	FILE	*fp;

	(void)state;
	assert_non_null(fp = fopen(TEST_DATA "/golden/help.txt", "r"));
	n = fread(want, 1, sizeof(want) - 1, fp);
	assert_int_equal(fclose(fp), 0);
	want[n] = '\0';
	assert_non_null(fp = open_memstream(&buf, &len));
	assert_int_equal(config_usage(fp), 0);
	assert_int_equal(fclose(fp), 0);
	assert_string_equal(buf, want);
	free(buf);
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test(test_load_good),
		cmocka_unit_test(test_load_bad),
		cmocka_unit_test(test_load_lines),
		cmocka_unit_test(test_load_nul),
		cmocka_unit_test(test_load_shipped),
		cmocka_unit_test(test_args),
		cmocka_unit_test(test_args_suite),
		cmocka_unit_test(test_args_config),
		cmocka_unit_test(test_args_target),
		cmocka_unit_test(test_usage),
	};

	return cmocka_run_group_tests_name("config_read", tests, NULL, NULL);
}
