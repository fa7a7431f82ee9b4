/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * phase: the phases of a round, and their names as --phases, the output
 * columns and the pages spell them, and what kind each is.  What each
 * one does is workload.c's (maildir.c's for a mailbox's).
 */

#ifndef LD_PHASE_H
#define LD_PHASE_H

#include <stdbool.h>

enum phase {
	PHASE_CREATE,		/* create n empty files, creation order */
	PHASE_OPEN,		/* open+close each once, random order */
	PHASE_LIST,		/* read the directory: ls -f */
	PHASE_LISTSTAT,		/* read it and stat every entry: ls -lU */
	PHASE_DELETE,		/* unlink in creation order */
	PHASE_RMRF,		/* unlink in directory order: rm -rf */
	PHASE_MKDIR,		/* the tree layout: make its directories */
	/* --workload maildir: a mailbox's tmp/, new/ and cur/ */
	PHASE_DELIVER,		/* tmp/, write, fsync, rename into new/ */
	PHASE_MOVE,		/* new/NAME to cur/NAME:2, */
	PHASE_FLAG,		/* to cur/NAME:2,S, random order */
	PHASE_SCAN,		/* read new/ and cur/, stat every entry */
	PHASE_READ,		/* open, read, close, random order */
	PHASE_EXPUNGE,		/* unlink in delivery order */
	PHASE_COUNT
};

const char	*phase_name(enum phase);
int		 phase_parse(const char *, enum phase *);
bool		 phase_maildir(enum phase);
bool		 phase_makes(enum phase);
bool		 phase_removes(enum phase);
bool		 phase_shuffled(enum phase);
bool		 phase_reads(enum phase);

#endif /* LD_PHASE_H */
