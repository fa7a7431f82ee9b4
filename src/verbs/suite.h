/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * suite: largedir suite, the same workload on several targets (a
 * front-end module: it prints and returns an exit status).
 */

#ifndef LD_SUITE_H
#define LD_SUITE_H

/*
 * The suite's own command line, as the user typed it, handed to each
 * target in the environment; a run records it as suite_command.
 */
#define SUITE_COMMAND_ENV	"LARGEDIR_SUITE_COMMAND"

int	suite_main(int, char **);

#endif /* LD_SUITE_H */
