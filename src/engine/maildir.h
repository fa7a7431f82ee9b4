/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * maildir: the workload of a mailbox (--workload maildir), as a mail
 * server works one.  A repetition's round directory is the Maildir: its
 * tmp/, new/ and cur/ are made before the phases (maildir_open()), and
 * its n messages go through them:
 *	deliver	 into tmp/, written (and fsync'd), renamed into new/ (and
 *		 new/ fsync'd), as an MTA or an LDA delivers (the backend's
 *		 deliver op);
 *	move	 new/NAME to cur/NAME:2, as an IMAP server does with the
 *		 mail it has seen;
 *	flag	 to cur/NAME:2,S in random order, a flag change (\Seen);
 *	scan	 new/ and cur/ read, every entry stat'd: a server's resync;
 *	read	 each message opened, read whole, closed, in random order;
 *	expunge	 unlinked, in delivery order.
 * The timed loops are workload.c's; maildir_op() is one operation of one
 * message.  The names are the table's, which holds them as cur/ spells
 * them (names.h: NAMES_INFO), with the info of where they are.
 */

#ifndef LD_MAILDIR_H
#define LD_MAILDIR_H

#include <stdbool.h>
#include <stdint.h>

#include "base/phase.h"
#include "engine/workload.h"

int		 maildir_open(struct workload *);
int		 maildir_op(struct workload *, enum phase, uint64_t);
void		 maildir_done(struct workload *, enum phase, bool);
const char	*maildir_info(const struct workload *);
int		 maildir_remove(struct workload *, uint64_t);
int		 maildir_clean(struct workload *, uint64_t *);

#endif /* LD_MAILDIR_H */
