/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * perf: count CPU and kernel events of the calling thread with
 * perf_event_open(2), the events named and encoded by libpfm4 (so
 * "cycles", "page-faults" and a CPU's own names such as
 * "INST_RETIRED:ANY_P" all work).  main parses --events with perf_init(),
 * opens the counters once with perf_open() and reads them around every
 * phase with perf_start() and perf_stop().
 *
 * An event counts user and kernel mode with two counters where the kernel
 * allows it, else with one; a refused event is no error, it only has no
 * values.  The value layout (perf_nvalues(), perf_value_name()) is fixed
 * by perf_open() and kept by perf_reopen() after fork(), so the columns
 * of a run never change.  perf_start() and perf_stop() switch all the
 * counters at once with one prctl(2) each, which is cheap and leaves no
 * counter counting the switching of the others; so a thread has one
 * struct perf open at a time.  The counters are never reset: perf_stop()
 * subtracts the count and times it read last, which also scales counts
 * correctly when the kernel multiplexes hardware counters.
 *
 * The software clocks (task-clock, cpu-clock) are never split: the
 * kernel times them whatever exclude_user and exclude_kernel say, so
 * both halves would be the total.  context-switches and cpu-migrations
 * are split, but happen in the kernel, so their user half is always 0.
 *
 * See perf_none.c for the build without libpfm4.
 */

#include <sys/prctl.h>
#include <sys/syscall.h>

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <perfmon/pfmlib_perf_event.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/parse.h"
#include "base/util.h"
#include "machine/perf.h"
#include "machine/sysfile.h"

#define PARANOID	"/proc/sys/kernel/perf_event_paranoid"
#define READ_FORMAT	\
	(PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING)

_Static_assert(sizeof(struct perf_event_attr) <=
    sizeof(((struct perf_item *)NULL)->attr),
    "struct perf_item has no room for a struct perf_event_attr");

static int	encode(struct perf *, size_t, char *);
static void	get_attr(const struct perf_item *, struct perf_event_attr *);
static bool	is_clock(const struct perf_event_attr *);
static int	open_counter(const struct perf_item *, enum perf_exclude);
static void	add_value(struct perf *, size_t, int, enum perf_exclude,
		    const char *);
static void	open_item(struct perf *, size_t);
static void	reason(const struct perf_item *, char *, size_t);
static bool	hardware(const struct perf_item *);
static const char	*sentence(const struct perf_item *);
static void	build_unavailable(struct perf *);
static int	pfm_encode_error(const struct perf *, size_t);
static bool	any_open(const struct perf *);

static bool	pfm_ready;	/* pfm_initialize() succeeded */

/* ===== The list ===== */


/*
 * Encode item 'i' of 'pf' with libpfm4 into its attr, and decide whether
 * its modes can be counted apart.  Return 0, or -1 with a message in
 * 'err' for an unknown or invalid event, or one listed before under
 * another name.
 */
static int
encode(struct perf *pf, size_t i, char *err)
{
	struct perf_item	*it = &pf->items[i];
	struct perf_event_attr	 attr;
	pfm_perf_encode_arg_t	 arg;
	size_t			 j;
	int			 r;

	memset(&attr, 0, sizeof(attr));
	memset(&arg, 0, sizeof(arg));
	arg.attr = &attr;
	arg.size = sizeof(arg);
	r = pfm_get_os_event_encoding(it->name, PFM_PLM0 | PFM_PLM3,
	    PFM_OS_PERF_EVENT_EXT, &arg);
	if (r != PFM_SUCCESS) {
		(void)snprintf(err, LD_ERRLEN, "--events '%s': %s "
		    "(libpfm4: %s)", it->name, r == PFM_ERR_NOTFOUND ?
		    "no such event" : "invalid event", pfm_strerror(r));
		return -1;
	}
	memset(it->attr, 0, sizeof(it->attr));
	memcpy(it->attr, &attr, sizeof(attr));
	it->flags = arg.flags;
	/* "cycles:u" keeps the mode it asks for. */
	it->split = !is_clock(&attr) && !attr.exclude_user &&
	    !attr.exclude_kernel;
	for (j = 0; j < i; j++)
		if (memcmp(pf->items[j].attr, it->attr,
		    sizeof(it->attr)) == 0) {
			(void)snprintf(err, LD_ERRLEN, "--events '%s': the "
			    "same event as '%s'", it->name,
			    pf->items[j].name);
			return -1;
		}
	return 0;
}

/*
 * Parse the comma-separated list of libpfm4 event names 'list' (such as
 * PERF_DEFAULT; "" or "none" gives no events) into 'pf', encoding each
 * event but opening nothing.  Return 0, or -1 with errno EINVAL and a
 * one-line message in 'err' (LD_ERRLEN bytes) that names the culprit:
 * an unknown or invalid event, an empty item, a duplicate, more than
 * PERF_MAX_EVENTS events.  On failure 'pf' has no events.
 */
int
perf_init(struct perf *pf, const char *list, char *err)
{
	size_t	i;
	int	r;

	memset(pf, 0, sizeof(*pf));
	for (i = 0; i < PERF_MAX_VALUES; i++)
		pf->values[i].fd = -1;
	if (list == NULL)
		list = "";
	if (perf_parse_list(pf, list, err) == -1)
		goto fail;
	if (pf->nitems > 0 && !pfm_ready) {
		if ((r = pfm_initialize()) != PFM_SUCCESS) {
			(void)snprintf(err, LD_ERRLEN, "--events '%s': "
			    "libpfm4 cannot start (%s)", list,
			    pfm_strerror(r));
			goto fail;
		}
		pfm_ready = true;
	}
	for (i = 0; i < pf->nitems; i++)
		if (encode(pf, i, err) == -1)
			goto fail;
	return 0;
fail:
	pf->nitems = 0;
	errno = EINVAL;
	return -1;
}

/*
 * As perf_init(), for a list the user did not choose (PERF_DEFAULT): an
 * event libpfm4 cannot encode on this machine (a CPU it does not know,
 * as in User-Mode Linux) is not an error but unavailable, and
 * perf_unavailable() says so, as for one the kernel refuses.
 */
int
perf_init_default(struct perf *pf, const char *list, char *err)
{
	size_t	i;
	int	r = PFM_SUCCESS;

	if (perf_init(pf, "", err) == -1 ||
	    perf_parse_list(pf, list != NULL ? list : "", err) == -1)
		goto fail;
	if (pf->nitems > 0 && !pfm_ready) {
		if ((r = pfm_initialize()) == PFM_SUCCESS)
			pfm_ready = true;
	}
	for (i = 0; i < pf->nitems; i++) {
		if (!pfm_ready)
			pf->items[i].pfm_error = r;
		else if (encode(pf, i, err) == -1)
			pf->items[i].pfm_error = pfm_encode_error(pf, i);
		if (pf->items[i].pfm_error != 0)
			pf->items[i].mode = PERF_UNAVAILABLE;
	}
	*err = '\0';
	return 0;
fail:
	pf->nitems = 0;
	errno = EINVAL;
	return -1;
}

/* libpfm4's error for item 'i' of 'pf', which encode() refused. */
static int
pfm_encode_error(const struct perf *pf, size_t i)
{
	pfm_perf_encode_arg_t	arg;
	struct perf_event_attr	attr;
	int			r;

	memset(&attr, 0, sizeof(attr));
	memset(&arg, 0, sizeof(arg));
	arg.attr = &attr;
	arg.size = sizeof(arg);
	r = pfm_get_os_event_encoding(pf->items[i].name,
	    PFM_PLM0 | PFM_PLM3, PFM_OS_PERF_EVENT_EXT, &arg);
	/* A duplicate encodes: call it what it is for the reader. */
	return r != PFM_SUCCESS ? r : PFM_ERR_INVAL;
}

/* ===== Counters ===== */

/* Copy the attr of 'it' into '*attr'. */
static void
get_attr(const struct perf_item *it, struct perf_event_attr *attr)
{
	memcpy(attr, it->attr, sizeof(*attr));
}

/* Whether 'attr' is a software clock, timed in every mode. */
static bool
is_clock(const struct perf_event_attr *attr)
{
	return attr->type == PERF_TYPE_SOFTWARE &&
	    (attr->config == PERF_COUNT_SW_CPU_CLOCK ||
	    attr->config == PERF_COUNT_SW_TASK_CLOCK);
}

/*
 * Open a disabled counter of item 'it' for the calling thread on any
 * CPU, leaving out the mode 'excl' says.  Return the fd, or -1 with
 * errno set.
 */
static int
open_counter(const struct perf_item *it, enum perf_exclude excl)
{
	struct perf_event_attr	attr;

	get_attr(it, &attr);
	attr.size = sizeof(attr);
	attr.disabled = 1;
	attr.inherit = 0;
	attr.read_format = READ_FORMAT;
	if (excl != PERF_EXCL_NONE) {
		attr.exclude_user = excl == PERF_EXCL_USER;
		attr.exclude_kernel = excl == PERF_EXCL_KERNEL;
		attr.exclude_hv = 1;
	}
	return (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1,
	    (unsigned long)it->flags | PERF_FLAG_FD_CLOEXEC);
}

/*
 * Append to 'pf' the value of item 'i' read from 'fd', a counter opened
 * with 'excl', named after the item with 'suffix'.
 */
static void
add_value(struct perf *pf, size_t i, int fd, enum perf_exclude excl,
    const char *suffix)
{
	struct perf_value	*v = &pf->values[pf->nvalues++];
	char			 col[PERF_NAMELEN];

	perf_column(col, sizeof(col), pf->items[i].name);
	(void)snprintf(v->name, sizeof(v->name), "%s%s", col, suffix);
	v->item = i;
	v->fd = fd;
	v->excl = excl;
	memset(v->base, 0, sizeof(v->base));
}

/*
 * Open the counters of item 'i' of 'pf': user and kernel mode apart if
 * the item may be split and the kernel takes both; else one counter for
 * the event as listed; else, if that asked for both modes, user mode
 * alone (perf_event_paranoid 2 refuses kernel mode without root).  If
 * nothing opens, the item is unavailable with the errno of the counter
 * as listed.
 */
static void
open_item(struct perf *pf, size_t i)
{
	struct perf_item	*it = &pf->items[i];
	struct perf_event_attr	 attr;
	int			 ufd = -1, kfd = -1, fd, error;

	it->error = 0;
	if (it->split) {
		ufd = open_counter(it, PERF_EXCL_KERNEL);
		kfd = open_counter(it, PERF_EXCL_USER);
		if (ufd != -1 && kfd != -1) {
			it->mode = PERF_SPLIT;
			add_value(pf, i, ufd, PERF_EXCL_KERNEL, "_user");
			add_value(pf, i, kfd, PERF_EXCL_USER, "_kernel");
			return;
		}
		if (kfd != -1)
			(void)close(kfd);
	}
	if ((fd = open_counter(it, PERF_EXCL_NONE)) != -1) {
		if (ufd != -1)
			(void)close(ufd);
		it->mode = PERF_TOTAL;
		add_value(pf, i, fd, PERF_EXCL_NONE, "");
		return;
	}
	error = errno;
	get_attr(it, &attr);
	if (!attr.exclude_user && !attr.exclude_kernel) {
		if (ufd == -1)
			ufd = open_counter(it, PERF_EXCL_KERNEL);
		if (ufd != -1 && is_clock(&attr)) {
			/* A clock counts both modes all the same. */
			it->mode = PERF_TOTAL;
			add_value(pf, i, ufd, PERF_EXCL_KERNEL, "");
			return;
		}
		if (ufd != -1) {
			it->mode = PERF_USER;
			it->error = error;
			add_value(pf, i, ufd, PERF_EXCL_KERNEL, "_user");
			return;
		}
	}
	it->mode = PERF_UNAVAILABLE;
	it->error = error;
}

/* Whether item 'it' counts with the CPU's hardware counters. */
static bool
hardware(const struct perf_item *it)
{
	struct perf_event_attr	attr;

	get_attr(it, &attr);
	return attr.type == PERF_TYPE_HARDWARE ||
	    attr.type == PERF_TYPE_HW_CACHE || attr.type == PERF_TYPE_RAW;
}

/*
 * Store in 'buf' of 'len' bytes why the kernel refused item 'it', in
 * parentheses: the errno's text and, where it helps, what to do.
 */
static void
reason(const struct perf_item *it, char *buf, size_t len)
{
	const char		*hint = NULL, *errstr;
	char			 more[128], line[32];
	int			 level = -2;

	if (it->pfm_error != 0) {
		(void)snprintf(buf, len, "(libpfm4: %s)",
		    pfm_strerror(it->pfm_error));
		return;
	}
	switch (it->error) {
	case ENOENT:
		if (hardware(it))
			hint = "no hardware counters here, as in many "
			    "virtual machines";
		break;
	case EACCES:
		if (sysfile_line(PARANOID, line, sizeof(line)) == 0) {
			level = (int)parse_num(line, INT_MIN, INT_MAX,
			    &errstr);
			if (errstr != NULL)
				level = -2;
		}
		if (level >= 2) {
			(void)snprintf(more, sizeof(more),
			    "kernel.perf_event_paranoid is %d: run as root "
			    "or lower it to 1", level);
			hint = more;
		} else
			hint = "run as root";
		break;
	case EPERM:
		hint = "perf_event_open is forbidden here, as in many "
		    "containers";
		break;
	case ENOSYS:
		hint = "the kernel has no perf events";
		break;
	case ENODEV:
	case EOPNOTSUPP:
		hint = "this CPU cannot count it";
		break;
	default:
		break;
	}
	if (hint != NULL)
		(void)snprintf(buf, len, "(%s: %s)", strerror(it->error),
		    hint);
	else
		(void)snprintf(buf, len, "(%s)", strerror(it->error));
}

/*
 * Why the kernel refused item 'it', as a sentence of its own where the
 * reason is the machine's, not the event's: no hardware counters (a
 * virtual machine), perf events forbidden (a container), none at all;
 * else NULL.
 */
static const char *
sentence(const struct perf_item *it)
{
	if (it->pfm_error != 0)
		return NULL;
	switch (it->error) {
	case ENOENT:
		if (hardware(it))
			return "the kernel has no hardware counters here "
			    "(ENOENT), as in many virtual machines";
		return NULL;
	case EPERM:
		return "perf_event_open is forbidden here (EPERM), as in many "
		    "containers";
	case ENOSYS:
		return "the kernel has no perf events (ENOSYS)";
	default:
		return NULL;
	}
}

/*
 * Write 'pf->unavailable': the events refused or counted in user mode
 * only, grouped by mode and reason, groups separated by "; ".
 */
static void
build_unavailable(struct perf *pf)
{
	char		 why[PERF_NAMELEN * 3], other[PERF_NAMELEN * 3];
	char		*buf = pf->unavailable;
	bool		 done[PERF_MAX_EVENTS] = { false };
	size_t		 i, j, k, len = sizeof(pf->unavailable), off = 0;
	enum perf_mode	 mode;

	buf[0] = '\0';
	for (i = 0; i < pf->nitems && off < len; i++) {
		mode = pf->items[i].mode;
		if (done[i] || (mode != PERF_UNAVAILABLE && mode != PERF_USER))
			continue;
		reason(&pf->items[i], why, sizeof(why));
		for (j = i, k = 0; j < pf->nitems && off < len; j++) {
			if (done[j] || pf->items[j].mode != mode)
				continue;
			reason(&pf->items[j], other, sizeof(other));
			if (strcmp(why, other) != 0)
				continue;
			done[j] = true;
			off += snprintf(buf + off, len - off, "%s%s",
			    k > 0 ? ", " : off > 0 ? "; " : "",
			    pf->items[j].name);
			k++;
		}
		if (off >= len)
			break;
		if (mode == PERF_USER)
			off += snprintf(buf + off, len - off, ": counted in "
			    "user mode only, the kernel refused kernel mode "
			    "%s", why);
		else if (pf->items[i].pfm_error != 0)
			off += snprintf(buf + off, len - off, ": not known on "
			    "this machine %s", why);
		else if (sentence(&pf->items[i]) != NULL)
			off += snprintf(buf + off, len - off, ": %s",
			    sentence(&pf->items[i]));
		else
			off += snprintf(buf + off, len - off, ": the kernel "
			    "refused %s %s", k > 1 ? "them" : "it", why);
	}
}

/*
 * Open the counters of every event of 'pf' for the calling thread, on
 * any CPU, disabled (closing any open before).  An event counts user
 * and kernel mode apart where the kernel allows it, else in total, else
 * in user mode only; an event the kernel refuses is left out, with its
 * errno kept for perf_unavailable().  This fixes perf_nvalues() and the
 * value names.  Return the number of events that opened; this never
 * fails.
 */
int
perf_open(struct perf *pf)
{
	size_t	i;
	int	n = 0;

	perf_close(pf);
	pf->nvalues = 0;
	for (i = 0; i < pf->nitems; i++) {
		if (pf->items[i].pfm_error != 0)
			continue;	/* not encoded: unavailable */
		open_item(pf, i);
		if (pf->items[i].mode != PERF_UNAVAILABLE)
			n++;
	}
	build_unavailable(pf);
	return n;
}

/*
 * After fork(), in the child: close the counters inherited from the
 * parent (which go on counting the parent) and open the same ones for
 * the calling process.  The values keep their layout; a counter that
 * fails to open now reads NAN.
 */
void
perf_reopen(struct perf *pf)
{
	struct perf_value	*v;
	size_t			 i;

	for (i = 0; i < pf->nvalues; i++) {
		v = &pf->values[i];
		if (v->fd != -1)
			(void)close(v->fd);
		v->fd = open_counter(&pf->items[v->item], v->excl);
		memset(v->base, 0, sizeof(v->base));
	}
}

/* Whether any counter of 'pf' is open. */
static bool
any_open(const struct perf *pf)
{
	size_t	i;

	for (i = 0; i < pf->nvalues; i++)
		if (pf->values[i].fd != -1)
			return true;
	return false;
}

/*
 * Enable every counter of 'pf', all in one system call: prctl(2) enables
 * every counter the calling thread opened, so a thread must have only
 * one struct perf open, and must be the one that called perf_open() or
 * perf_reopen().  The counters go on from where the last perf_stop()
 * left them; perf_stop() subtracts that.
 */
void
perf_start(struct perf *pf)
{
	if (any_open(pf))
		(void)prctl(PR_TASK_PERF_EVENTS_ENABLE, 0, 0, 0, 0);
}

/*
 * Disable every counter of 'pf' (one prctl(2), as in perf_start()), then
 * read each and store in 'values' (perf_nvalues() of them) what it
 * counted since perf_start(), scaled by the time it was enabled over the
 * time it ran when the kernel multiplexed it.  A value is NAN when its
 * counter never ran or cannot be read.
 */
void
perf_stop(struct perf *pf, double *values)
{
	struct perf_value	*v;
	uint64_t		 now[3], d[3];
	size_t			 i, k;

	if (any_open(pf))
		(void)prctl(PR_TASK_PERF_EVENTS_DISABLE, 0, 0, 0, 0);
	for (i = 0; i < pf->nvalues; i++) {
		v = &pf->values[i];
		values[i] = NAN;
		if (v->fd == -1 ||
		    read(v->fd, now, sizeof(now)) != (ssize_t)sizeof(now))
			continue;
		for (k = 0; k < 3; k++) {
			d[k] = now[k] - v->base[k];
			v->base[k] = now[k];
		}
		if (d[2] == 0)
			continue;
		values[i] = d[2] < d[1] ?
		    (double)d[0] * ((double)d[1] / (double)d[2]) :
		    (double)d[0];
	}
}

/*
 * Close every counter of 'pf'.  The events and the value names stay, so
 * a later perf_stop() reads NAN and perf_open() opens them again.
 */
void
perf_close(struct perf *pf)
{
	size_t	i;

	for (i = 0; i < pf->nvalues; i++)
		if (pf->values[i].fd != -1) {
			(void)close(pf->values[i].fd);
			pf->values[i].fd = -1;
		}
}

