/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * cleanup: largedir cleanup (and --cleanup), what killed runs left
 * behind (a front-end module: it prints and returns an exit status).
 */

#ifndef LD_CLEANUP_H
#define LD_CLEANUP_H

int	cleanup_main(const char *, const char *);
char	**cleanup_verb_args(int, char **);

#endif /* LD_CLEANUP_H */
