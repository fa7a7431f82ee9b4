/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * phase: the phases of a round, and their names as --phases, the output
 * columns and the pages spell them.  What each one does is workload.c's.
 */

#ifndef LD_PHASE_H
#define LD_PHASE_H

enum phase {
	PHASE_CREATE,		/* create n empty files, creation order */
	PHASE_OPEN,		/* open+close each once, random order */
	PHASE_LIST,		/* read the directory: ls -f */
	PHASE_LISTSTAT,		/* read it and stat every entry: ls -lU */
	PHASE_DELETE,		/* unlink in creation order */
	PHASE_RMRF,		/* unlink in directory order: rm -rf */
	PHASE_MKDIR,		/* the tree layout: make its directories */
	PHASE_COUNT
};

const char	*phase_name(enum phase);
int		 phase_parse(const char *, enum phase *);

#endif /* LD_PHASE_H */
