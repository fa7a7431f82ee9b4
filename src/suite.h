/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * suite: largedir suite, the same workload on several targets (a
 * front-end module: it prints and returns an exit status).
 */

#ifndef LD_SUITE_H
#define LD_SUITE_H

int	suite_main(int, char **);

#endif /* LD_SUITE_H */
