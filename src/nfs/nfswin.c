/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * nfswin: see nfswin.h.
 *
 * Each chain has a slot, whose struct nfsrpc_call carries one call at a
 * time; next() is its 'then': it judges the call that came back and
 * sends the chain's next one from inside libnfs's callback (libnfs
 * allows that), or frees the slot.  A dropped connection cancels every
 * call in flight, which runs next() for each with a failure, so every
 * slot is free again when nfsrpc_wait() returns.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nfs/nfswin.h"

static bool	has_room(void *);
static bool	idle(void *);
static void	next(struct nfsrpc_call *);
static int	send_call(struct nfswin_slot *, int, const struct nfsrpc_args *);
static void	release(struct nfswin_slot *);
static void	note(struct nfswin *, int);
static int	settle(struct nfswin *);

/* Get 'w' ready for up to 'size' chains at a time on connection 'c'. */
void
nfswin_init(struct nfswin *w, struct nfsrpc *c, unsigned size)
{
	memset(w, 0, sizeof(*w));
	w->c = c;
	w->size = size;
	w->slots = xcalloc(size, sizeof(*w->slots));
}

/* Free what 'w' holds; no chain may be under way. */
void
nfswin_free(struct nfswin *w)
{
	free(w->slots);
	memset(w, 0, sizeof(*w));
}

/*
 * Start the chain of 'op' for 'name' in directory 'dir' as soon as fewer
 * than the window's size are under way.  'name' is sent before this
 * returns.  Return 0, or -1 as nfswin.h says.
 */
int
nfswin_start(struct nfswin *w, enum nfswin_op op, const struct nfsrpc_fh *dir,
    const char *name)
{
	struct nfswin_slot	*s;
	struct nfsrpc_args	 a;
	unsigned		 i;
	int			 proc;

	if (w->err == 0 && nfsrpc_wait(w->c, has_room, w) == -1)
		note(w, errno);
	if (w->err != 0)
		return settle(w);
	for (i = 0; w->slots[i].busy; i++)
		continue;
	s = &w->slots[i];
	memset(s, 0, sizeof(*s));
	s->w = w;
	s->op = op;
	s->busy = true;
	w->busy++;
	memset(&a, 0, sizeof(a));
	a.fh = dir;
	a.name = name;
	switch (op) {
	case NFSWIN_CREATE:
		proc = NFSRPC_CREATE;
		a.flag = w->guarded;
		a.mode = 0644;
		s->call.fh = &s->fh;
		break;
	case NFSWIN_OPEN:
		proc = NFSRPC_LOOKUP;
		s->call.fh = &s->fh;
		break;
	case NFSWIN_STAT:
		proc = NFSRPC_LOOKUP;
		break;
	default:
		proc = NFSRPC_REMOVE;
		break;
	}
	return send_call(s, proc, &a) == -1 ? settle(w) : 0;
}

/*
 * Wait until every chain has ended.  Return 0, or -1 as nfswin.h says.
 */
int
nfswin_drain(struct nfswin *w)
{
	if (nfsrpc_wait(w->c, idle, w) == -1)
		note(w, errno);
	return w->err != 0 ? settle(w) : 0;
}

/* The 'until' of nfsrpc_wait(): a slot is free. */
static bool
has_room(void *arg)
{
	struct nfswin	*w = arg;

	return w->busy < w->size;
}

/* The 'until' of nfsrpc_wait(): no chain is under way. */
static bool
idle(void *arg)
{
	return ((struct nfswin *)arg)->busy == 0;
}

/*
 * The 'then' of every call: judge it, then send the next call of its
 * chain, or end the chain.  A create goes CREATE, SETATTR (unless
 * guarded), WRITE until the file has its size, COMMIT; an open LOOKUP,
 * ACCESS.
 */
static void
next(struct nfsrpc_call *call)
{
	struct nfswin_slot	*s = call->arg;
	struct nfswin		*w = s->w;
	struct nfsrpc_args	 a;

	if (nfsrpc_judge(w->c, call) == -1) {
		note(w, errno);
		release(s);
		return;
	}
	memset(&a, 0, sizeof(a));
	a.fh = &s->fh;
	switch (call->proc) {
	case NFSRPC_CREATE:
		if (!w->guarded) {
			a.mode = 0644;
			(void)send_call(s, NFSRPC_SETATTR, &a);
			return;
		}
		/* FALLTHROUGH */
	case NFSRPC_SETATTR:
	case NFSRPC_WRITE:
		if (s->off < w->file_size) {
			a.off = s->off;
			a.count = w->file_size - s->off < w->chunk ?
			    (uint32_t)(w->file_size - s->off) : w->chunk;
			a.data = w->data;
			s->off += a.count;
			(void)send_call(s, NFSRPC_WRITE, &a);
			return;
		}
		if (w->file_size > 0) {		/* as close(2) flushes */
			(void)send_call(s, NFSRPC_COMMIT, &a);
			return;
		}
		break;
	case NFSRPC_LOOKUP:
		if (s->op == NFSWIN_OPEN) {
			(void)send_call(s, NFSRPC_ACCESS, &a);
			return;
		}
		break;
	default:
		break;
	}
	release(s);
}

/*
 * Send the call 'proc' of the chain in slot 's'.  Return 0, or -1 with
 * the failure noted and the slot freed.
 */
static int
send_call(struct nfswin_slot *s, int proc, const struct nfsrpc_args *a)
{
	s->call.then = next;
	s->call.arg = s;
	if (nfsrpc_send(s->w->c, &s->call, proc, a) == 0)
		return 0;
	note(s->w, errno);
	release(s);
	return -1;
}

/* The chain in slot 's' has ended. */
static void
release(struct nfswin_slot *s)
{
	s->busy = false;
	s->w->busy--;
}

/* Keep failure 'e' (the connection's message with it) if it is the first. */
static void
note(struct nfswin *w, int e)
{
	if (w->err != 0)
		return;
	w->err = e;
	w->nfserr = w->c->nfserr;
	(void)snprintf(w->why, sizeof(w->why), "%s", w->c->err);
}

/*
 * A chain failed: wait until the others have ended, then give the first
 * failure back (and forget it, for the next phase).  Return -1.
 */
static int
settle(struct nfswin *w)
{
	int	e;

	(void)nfsrpc_wait(w->c, idle, w);	/* a drop ends them all */
	e = w->err;
	w->c->nfserr = w->nfserr;
	(void)snprintf(w->c->err, sizeof(w->c->err), "%s", w->why);
	w->err = 0;
	errno = e;
	return -1;
}
