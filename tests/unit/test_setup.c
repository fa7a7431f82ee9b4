/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * test_setup: the set-up steps of a run say what stops it instead of
 * printing and exiting: the operands of the command line, a backend that
 * cannot do what the options ask (the fake backend: no forked op, so no
 * --clients; no memory limit), a directory that is not one, and the
 * label a backend of URLs gives a run.
 */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/util.h"
#include "fake.h"
#include "report/report.h"
#include "run/setup.h"

static struct run	run;

/* A run as run_main() starts it, with the command line 'argv'. */
static int
args(int argc, char **argv, struct setup_say *s)
{
	bool	cleanup = false;

	config_free(&run.cfg);
	memset(&run, 0, sizeof(run));
	setup_init(&run);
	*s->line = '\0';
	return setup_args(&run, argc, argv, &cleanup, s);
}

static void
test_operands(void **state)
{
	struct setup_say	 s;
	char			*two[] = { (char *)"largedir", (char *)"a",
				    (char *)"b", NULL };
	char			*none[] = { (char *)"largedir", NULL };
	char			*one[] = { (char *)"largedir",
				    (char *)"fake://x", NULL };

	(void)state;
	assert_int_equal(args(3, two, &s), -1);
	assert_int_equal(s.status, EXIT_USAGE);
	assert_string_equal(s.line, "one directory only, got 'b' too");
	assert_int_equal(args(1, none, &s), -1);
	assert_string_equal(s.line, "missing the directory to measure, or -c "
	    "FILE (see largedir -h)");
	assert_int_equal(args(2, one, &s), 0);
	assert_string_equal(run.dir, "fake://x");
}

static void
test_backend(void **state)
{
	struct setup_say	 s;
	char			*argv[] = { (char *)"largedir",
				    (char *)"fake://x", NULL };
	char			*nodir[] = { (char *)"largedir",
				    (char *)"/nonexistent/largedir", NULL };

	(void)state;
	assert_int_equal(args(2, argv, &s), 0);
	assert_int_equal(setup_backend(&run, &s), 0);
	assert_ptr_equal(run.ops, &fake_ops);
	setup_label(&run);
	assert_string_equal(run.label, "fake");	/* not a local directory */
	free(run.label);
	run.cfg.clients = 2;
	assert_int_equal(setup_backend(&run, &s), -1);
	assert_int_equal(s.status, EXIT_USAGE);
	assert_string_equal(s.line, "--clients 2: not with the fake backend "
	    "(it cannot be used by two processes)");
	run.cfg.clients = 1;
	run.cfg.memory_limit = 1 << 20;
	assert_int_equal(setup_backend(&run, &s), -1);
	assert_string_equal(s.line, "--memory-limit: not with fake://x (the "
	    "fake backend's phases share its connection with largedir)");
	/* posix checks its directory. */
	assert_int_equal(args(2, nodir, &s), 0);
	assert_int_equal(setup_backend(&run, &s), -1);
	assert_int_equal(s.status, EXIT_USAGE);
	assert_string_equal(s.line, "/nonexistent/largedir: No such file or "
	    "directory");
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test(test_operands),
		cmocka_unit_test(test_backend),
	};
	int			rc;

	if (backend_register(&fake_ops) == -1)
		return 1;
	rc = cmocka_run_group_tests_name("setup", tests, NULL, NULL);
	config_free(&run.cfg);
	return rc;
}
