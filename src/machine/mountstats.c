/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * mountstats: see mountstats.h.
 *
 * The parser reads line by line and knows where it is: outside any
 * mount's block, in the block of a mount whose statistics are not NFS's
 * (skipped up to its empty line), in the head of an NFS block (opts: to
 * the xprt: lines; keys it does not know are skipped, so a later kernel's
 * new lines do no harm), or in its per-op lines.  What it cannot place is
 * an error naming the file and the line.  It is strict where a cut or
 * garbled file would otherwise give wrong numbers: every number is
 * checked, a per-op line must have exactly the count its iostats version
 * says, events: and bytes: at least the kernel's count, and the file must
 * end with a newline.
 *
 * largedir nfsstat (nfsstat.c) is its user; the counts of a mount under
 * test per phase will be another.  Nothing here prints.
 */

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/util.h"
#include "machine/mountinfo.h"
#include "machine/mountstats.h"

/* Where the parser is. */
enum where {
	W_NONE,		/* between blocks */
	W_OTHER,	/* statistics of another filesystem: skipped */
	W_HEAD,		/* an NFS block, before "per-op statistics" */
	W_OPS		/* its per-op lines */
};

/* What an NFS block must have had when it ends. */
#define SEEN_EVENTS	0x1
#define SEEN_BYTES	0x2
#define SEEN_RPC	0x4

struct parser {
	const char		*name;		/* the file, for messages */
	size_t			 lineno;
	struct mountstats	*ms;
	enum where		 where;
	unsigned		 seen;		/* SEEN_* of the block */
	bool			 more_ok;	/* later iostats: extra fields */
	char			*err;
};

const char *const mountstats_event_names[MS_NEVENTS] = {
	"inoderevalidate", "dentryrevalidate", "datainvalidate",
	"attrinvalidate", "vfsopen", "vfslookup", "vfsaccess",
	"vfsupdatepage", "vfsreadpage", "vfsreadpages", "vfswritepage",
	"vfswritepages", "vfsgetdents", "vfssetattr", "vfsflush",
	"vfsfsync", "vfslock", "vfsrelease", "congestionwait",
	"setattrtrunc", "extendwrite", "sillyrename", "shortread",
	"shortwrite", "delay", "pnfs_read", "pnfs_write"
};

const char *const mountstats_byte_names[MS_NBYTES] = {
	"normalreadbytes", "normalwrittenbytes", "directreadbytes",
	"directwrittenbytes", "serverreadbytes", "serverwrittenbytes",
	"readpages", "writepages"
};

const char *const mountstats_field_names[MS_NFIELDS] = {
	"ops", "trans", "timeouts", "bytes_sent", "bytes_recv", "queue_ms",
	"rtt_ms", "execute_ms", "errors"
};

static int	bad(struct parser *, const char *, ...)
		    __attribute__((format(printf, 2, 3)));
static int	number(const char *, uint64_t *);
static int	numbers(struct parser *, char *, const char *, uint64_t *,
		    size_t, bool);
static int	device_line(struct parser *, char *);
static int	head_line(struct parser *, char *);
static int	rpc_line(struct parser *, struct ms_mount *, char *);
static int	op_line(struct parser *, char *);
static int	end_block(struct parser *);
static int	down(const char *, const char *, const char *, uint64_t,
		    uint64_t, char *);

/* ===== Parsing ===== */

/* Write "FILE:LINE: message" into the parser's 'err'; return -1, EINVAL. */
static int
bad(struct parser *p, const char *fmt, ...)
{
	va_list	ap;
	char	msg[LD_ERRLEN];

	va_start(ap, fmt);
	(void)vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return util_fail(p->err, EINVAL, "%s:%zu: %s", p->name, p->lineno,
	    msg);
}

/* Store the decimal 's' in '*v'; return 0, or -1 if it is none or too big. */
static int
number(const char *s, uint64_t *v)
{
	uint64_t	x = 0;

	if (*s == '\0')
		return -1;
	for (; *s != '\0'; s++) {
		if (*s < '0' || *s > '9' || x > (UINT64_MAX - (*s - '0')) / 10)
			return -1;
		x = x * 10 + (uint64_t)(*s - '0');
	}
	*v = x;
	return 0;
}

/*
 * Read the numbers of 's', separated by spaces or tabs, into 'v': 'want'
 * of them, or more if 'more' (the extra ones are dropped).  'what' names
 * the line in messages.
 */
static int
numbers(struct parser *p, char *s, const char *what, uint64_t *v,
    size_t want, bool more)
{
	char		*w;
	uint64_t	 x;
	size_t		 n = 0;

	while ((w = strsep(&s, " \t")) != NULL) {
		if (*w == '\0')
			continue;
		if (number(w, &x) == -1)
			return bad(p, "%s: '%.40s' is not a number", what, w);
		if (n < want)
			v[n] = x;
		n++;
	}
	if (n < want || (n > want && !more))
		return bad(p, "%s: %zu numbers, expected %zu", what, n, want);
	return 0;
}

/*
 * "device D mounted on M with fstype T[ statvers=V]", or "no device
 * mounted on ...": a new mount at the end of the table.
 */
static int
device_line(struct parser *p, char *line)
{
	struct mountstats	*ms = p->ms;
	struct ms_mount		*m;
	char			*w[10], *s = line;
	size_t			 n = 0;
	bool			 nodev;

	while (n < 10 && (w[n] = strsep(&s, " ")) != NULL)
		n++;
	if (s != NULL || n < 8 || n > 9)
		return bad(p, "not a device line: too %s words",
		    n < 8 ? "few" : "many");
	/* "no device" takes the place of "device NAME". */
	nodev = strcmp(w[0], "no") == 0 && strcmp(w[1], "device") == 0;
	if ((!nodev && strcmp(w[0], "device") != 0) ||
	    strcmp(w[2], "mounted") != 0 || strcmp(w[3], "on") != 0 ||
	    strcmp(w[5], "with") != 0 || strcmp(w[6], "fstype") != 0)
		return bad(p, "not a device line");
	if (n == 9 && strncmp(w[8], "statvers=", 9) != 0)
		return bad(p, "device line: '%.40s' where statvers= or the end "
		    "belongs", w[8]);
	if (*w[4] == '\0' || *w[7] == '\0')
		return bad(p, "device line: no mount point or no fstype");

	ms->v = xreallocarray(ms->v, ms->n + 1, sizeof(*ms->v));
	m = &ms->v[ms->n++];
	memset(m, 0, sizeof(*m));
	m->line = p->lineno;
	m->device = xstrdup(nodev ? "none" : w[1]);
	mountinfo_unescape(m->device);
	m->mountpoint = xstrdup(w[4]);
	mountinfo_unescape(m->mountpoint);
	m->fstype = xstrdup(w[7]);
	p->where = W_NONE;
	if (n == 9) {
		m->statvers = xstrdup(w[8] + 9);
		m->nfs = strcmp(m->fstype, "nfs") == 0 ||
		    strcmp(m->fstype, "nfs4") == 0;
		p->where = m->nfs ? W_HEAD : W_OTHER;
		p->seen = 0;
	} else if (strcmp(m->fstype, "nfs") == 0 ||
	    strcmp(m->fstype, "nfs4") == 0)
		return bad(p, "%s mount without statvers=", m->fstype);
	return 0;
}

/*
 * "RPC iostats version: 1.1  p/v: 100003/3 (nfs)" (after the tab) for
 * the mount 'm'.
 */
static int
rpc_line(struct parser *p, struct ms_mount *m, char *s)
{
	char		*vers, *pv, *slash;
	uint64_t	 prog, pvers, minor;

	s += strlen("RPC iostats version:");
	while (*s == ' ')
		s++;
	vers = strsep(&s, " ");
	while (s != NULL && *s == ' ')
		s++;
	if (s == NULL || strncmp(s, "p/v: ", 5) != 0)
		return bad(p, "RPC iostats line without p/v:");
	s += 5;
	pv = strsep(&s, " ");
	if ((slash = strchr(pv, '/')) == NULL)
		return bad(p, "p/v: '%.40s' is not PROGRAM/VERSION", pv);
	*slash = '\0';
	if (number(pv, &prog) == -1 || number(slash + 1, &pvers) == -1 ||
	    prog > UINT32_MAX || pvers > UINT32_MAX)
		return bad(p, "p/v: '%.20s/%.20s' is not PROGRAM/VERSION", pv,
		    slash + 1);
	if (strcmp(vers, "1.0") == 0)
		m->nfields = 8;
	else if (strncmp(vers, "1.", 2) == 0 &&
	    number(vers + 2, &minor) == 0 && minor >= 1)
		/* 1.1 added the errors; a later 1.x may add more fields. */
		m->nfields = 9;
	else
		return bad(p, "RPC iostats version '%.20s': not 1.0 or 1.1",
		    vers);
	p->more_ok = m->nfields == 9 && strcmp(vers, "1.1") != 0;
	m->prog = (unsigned)prog;
	m->vers = (unsigned)pvers;
	free(m->iostats);
	m->iostats = xstrdup(vers);
	p->seen |= SEEN_RPC;
	return 0;
}

/* A line of the head of an NFS block, without its leading tab. */
static int
head_line(struct parser *p, char *s)
{
	struct ms_mount	*m = &p->ms->v[p->ms->n - 1];
	char		*key, *colon;

	if (strncmp(s, "RPC iostats version:", 20) == 0)
		return rpc_line(p, m, s);
	if (strcmp(s, "per-op statistics") == 0) {
		if ((p->seen & SEEN_RPC) == 0)
			return bad(p, "per-op statistics before the RPC "
			    "iostats line");
		p->where = W_OPS;
		return 0;
	}
	if ((colon = strchr(s, ':')) == NULL)
		return 0;	/* not "key:": a kernel's own extra line */
	*colon = '\0';
	key = s;
	for (s = colon + 1; *s == '\t' || *s == ' '; s++)
		;
	if (strcmp(key, "events") == 0) {
		p->seen |= SEEN_EVENTS;
		return numbers(p, s, "events", m->events, MS_NEVENTS, true);
	}
	if (strcmp(key, "bytes") == 0) {
		p->seen |= SEEN_BYTES;
		return numbers(p, s, "bytes", m->bytes, MS_NBYTES, true);
	}
	if (strcmp(key, "age") == 0)
		return numbers(p, s, "age", &m->age_s, 1, false);
	if (strcmp(key, "opts") == 0) {
		free(m->opts);
		m->opts = xstrdup(s);
	} else if (strcmp(key, "caps") == 0) {
		free(m->caps);
		m->caps = xstrdup(s);
	} else if (strcmp(key, "xprt") == 0) {
		/* One line per connection: nconnect=N gives N. */
		if (m->xprt == NULL)
			m->xprt = xstrdup(s);
		m->nxprt++;
	}
	return 0;	/* sec, nfsv4, impl_id, fsc, ... */
}

/* "\t     READDIR: 1 1 0 ..." in an NFS block: one operation. */
static int
op_line(struct parser *p, char *s)
{
	struct ms_mount	*m = &p->ms->v[p->ms->n - 1];
	struct ms_op	*op;
	char		*name, *colon;
	size_t		 i;

	while (*s == ' ')
		s++;
	name = s;
	if ((colon = strchr(s, ':')) == NULL || colon == s ||
	    strcspn(name, " \t") < (size_t)(colon - name))
		return bad(p, "not a per-op line: '%.40s'", name);
	*colon = '\0';
	for (i = 0; i < m->nops; i++)
		if (strcmp(m->ops[i].name, name) == 0)
			return bad(p, "%s: a second line for it", name);
	m->ops = xreallocarray(m->ops, m->nops + 1, sizeof(*m->ops));
	op = &m->ops[m->nops];
	memset(op, 0, sizeof(*op));
	if (numbers(p, colon + 1, name, op->v, (size_t)m->nfields,
	    p->more_ok) == -1)
		return -1;
	op->name = xstrdup(name);
	m->nops++;
	return 0;
}

/* The block under way ends here: did it have all an NFS block has? */
static int
end_block(struct parser *p)
{
	struct ms_mount	*m;
	enum where	 w = p->where;

	p->where = W_NONE;
	if (w != W_HEAD && w != W_OPS)
		return 0;
	m = &p->ms->v[p->ms->n - 1];
	if ((p->seen & SEEN_EVENTS) == 0)
		return bad(p, "the block of %s (line %zu) ends without events:",
		    m->mountpoint, m->line);
	if ((p->seen & SEEN_BYTES) == 0)
		return bad(p, "the block of %s (line %zu) ends without bytes:",
		    m->mountpoint, m->line);
	if (w != W_OPS)
		return bad(p, "the block of %s (line %zu) ends without per-op "
		    "statistics", m->mountpoint, m->line);
	return 0;
}

/*
 * Parse the mountstats text of 'fp' into 'ms' (filled from empty; free it
 * with mountstats_free(), also after an error).  'name' is the file's
 * name in messages.  Return 0, or -1 with errno: EINVAL and "NAME:LINE:
 * what is wrong" in 'err' for a malformed file, the read's errno else.
 */
int
mountstats_parse(FILE *fp, const char *name, struct mountstats *ms,
    char *err)
{
	struct parser	 p;
	char		*line = NULL;
	size_t		 cap = 0;
	ssize_t		 len;
	int		 rc = 0;

	memset(ms, 0, sizeof(*ms));
	memset(&p, 0, sizeof(p));
	p.name = name;
	p.ms = ms;
	p.err = err;
	while (rc == 0 && (len = getline(&line, &cap, fp)) != -1) {
		p.lineno++;
		if (len == 0 || line[len - 1] != '\n') {
			rc = bad(&p, "no newline at the end: the file is cut "
			    "short");
			break;
		}
		line[len - 1] = '\0';
		if (*line == '\0')
			rc = end_block(&p);
		else if (strncmp(line, "device ", 7) == 0 ||
		    strncmp(line, "no device ", 10) == 0) {
			if ((rc = end_block(&p)) == 0)
				rc = device_line(&p, line);
		} else if (*line != '\t')
			rc = bad(&p, "not a mountstats line: '%.40s'", line);
		else if (p.where == W_NONE)
			rc = bad(&p, "a statistics line outside a mount's "
			    "block");
		else if (p.where == W_HEAD)
			rc = head_line(&p, line + 1);
		else if (p.where == W_OPS)
			rc = op_line(&p, line + 1);
	}
	if (rc == 0 && ferror(fp))
		rc = util_syserr(err, "read %s", name);
	if (rc == 0) {
		p.lineno++;	/* the end is after the last line */
		rc = end_block(&p);
	}
	free(line);
	return rc;
}

/*
 * Read the mountstats file 'path' (MOUNTSTATS_SELF, or a saved copy) into
 * 'ms', as mountstats_parse() does.  Return 0, or -1 with errno and a
 * message in 'err' (ENOENT and friends: "open PATH: ...").
 */
int
mountstats_read(const char *path, struct mountstats *ms, char *err)
{
	FILE	*fp;
	int	 rc, saved;

	memset(ms, 0, sizeof(*ms));
	if ((fp = fopen(path, "r")) == NULL)
		return util_syserr(err, "open %s", path);
	rc = mountstats_parse(fp, path, ms, err);
	saved = errno;
	(void)fclose(fp);
	errno = saved;
	return rc;
}

/* Free what mount 'm' holds and empty it. */
void
mountstats_clear(struct ms_mount *m)
{
	size_t	i;

	free(m->device);
	free(m->mountpoint);
	free(m->fstype);
	free(m->statvers);
	free(m->opts);
	free(m->caps);
	free(m->xprt);
	free(m->iostats);
	for (i = 0; i < m->nops; i++)
		free(m->ops[i].name);
	free(m->ops);
	memset(m, 0, sizeof(*m));
}

/* Free what 'ms' holds (it may be half filled by a failed parse). */
void
mountstats_free(struct mountstats *ms)
{
	size_t	i;

	for (i = 0; i < ms->n; i++)
		mountstats_clear(&ms->v[i]);
	free(ms->v);
	memset(ms, 0, sizeof(*ms));
}

/* ===== Lookups ===== */

/*
 * The mount on 'mountpoint' (decoded, as the table has it, no trailing
 * slash), of any filesystem; of mounts stacked on one point the last,
 * which is on top.  NULL if there is none.
 */
const struct ms_mount *
mountstats_find(const struct mountstats *ms, const char *mountpoint)
{
	size_t	i;

	for (i = ms->n; i > 0; i--)
		if (strcmp(ms->v[i - 1].mountpoint, mountpoint) == 0)
			return &ms->v[i - 1];
	return NULL;
}

/*
 * The per-op line of 'm' for the procedure 'name', in any case
 * ("readdir" finds READDIR), or NULL if the mount has none.
 */
const struct ms_op *
mountstats_op(const struct ms_mount *m, const char *name)
{
	size_t	i;

	for (i = 0; i < m->nops; i++)
		if (strcasecmp(m->ops[i].name, name) == 0)
			return &m->ops[i];
	return NULL;
}

/* ===== Differences ===== */

/* The message of a counter 'what' ('which') that went from 'a' to 'b'. */
static int
down(const char *mp, const char *what, const char *which, uint64_t a,
    uint64_t b, char *err)
{
	return util_fail(err, ERANGE, "%s: %s %s went down from %llu to %llu "
	    "(mounted again between the copies?)", mp, what, which,
	    (unsigned long long)a, (unsigned long long)b);
}

/*
 * What the NFS mount 'after' did since 'before' (the same mount in an
 * earlier copy): 'out' (overwritten; free it with mountstats_clear())
 * gets the strings of 'after', its age minus the earlier one (seconds
 * between the copies), and every counter minus the earlier one; an
 * operation the earlier copy lacks counts from zero.  Return 0, or -1
 * with a message in 'err' that names the mount and the counter: EINVAL
 * if either is no NFS mount or they differ in fstype, program, version
 * or iostats version, ERANGE if a counter or the age went down (the
 * share was mounted again between the two) or an operation went away.
 * 'out' is untouched on failure.
 */
int
mountstats_delta(const struct ms_mount *before, const struct ms_mount *after,
    struct ms_mount *out, char *err)
{
	const char	*mp = after->mountpoint;
	const struct ms_op *b;
	struct ms_op	 zero;
	size_t		 i, j;
	int		 f;

	if (!before->nfs || !after->nfs)
		return util_fail(err, EINVAL, "%s: not an NFS mount in both",
		    mp);
	if (strcmp(before->fstype, after->fstype) != 0 ||
	    before->prog != after->prog || before->vers != after->vers ||
	    before->nfields != after->nfields)
		return util_fail(err, EINVAL, "%s: %s version %u (%d fields), "
		    "then %s version %u (%d fields): another mount", mp,
		    before->fstype, before->vers, before->nfields,
		    after->fstype, after->vers, after->nfields);
	if (after->age_s < before->age_s)
		return down(mp, "age", "in seconds", before->age_s,
		    after->age_s, err);
	for (i = 0; i < MS_NEVENTS; i++)
		if (after->events[i] < before->events[i])
			return down(mp, "event", mountstats_event_names[i],
			    before->events[i], after->events[i], err);
	for (i = 0; i < MS_NBYTES; i++)
		if (after->bytes[i] < before->bytes[i])
			return down(mp, "byte count", mountstats_byte_names[i],
			    before->bytes[i], after->bytes[i], err);
	for (i = 0; i < before->nops; i++)
		if (mountstats_op(after, before->ops[i].name) == NULL)
			return util_fail(err, ERANGE, "%s: %s is in the first "
			    "copy only", mp, before->ops[i].name);
	memset(&zero, 0, sizeof(zero));
	for (i = 0; i < after->nops; i++) {
		if ((b = mountstats_op(before, after->ops[i].name)) == NULL)
			b = &zero;
		for (f = 0; f < MS_NFIELDS; f++)
			if (after->ops[i].v[f] < b->v[f])
				return util_fail(err, ERANGE, "%s: %s %s went "
				    "down from %llu to %llu (mounted again "
				    "between the copies?)", mp,
				    after->ops[i].name,
				    mountstats_field_names[f],
				    (unsigned long long)b->v[f],
				    (unsigned long long)after->ops[i].v[f]);
	}

	memset(out, 0, sizeof(*out));
	out->device = xstrdup(after->device);
	out->mountpoint = xstrdup(after->mountpoint);
	out->fstype = xstrdup(after->fstype);
	out->statvers = xstrdup(after->statvers);
	out->nfs = true;
	out->line = after->line;
	out->opts = after->opts != NULL ? xstrdup(after->opts) : NULL;
	out->caps = after->caps != NULL ? xstrdup(after->caps) : NULL;
	out->xprt = after->xprt != NULL ? xstrdup(after->xprt) : NULL;
	out->nxprt = after->nxprt;
	out->age_s = after->age_s - before->age_s;
	for (i = 0; i < MS_NEVENTS; i++)
		out->events[i] = after->events[i] - before->events[i];
	for (i = 0; i < MS_NBYTES; i++)
		out->bytes[i] = after->bytes[i] - before->bytes[i];
	out->iostats = xstrdup(after->iostats);
	out->prog = after->prog;
	out->vers = after->vers;
	out->nfields = after->nfields;
	out->nops = after->nops;
	out->ops = xreallocarray(NULL, after->nops + 1, sizeof(*out->ops));
	for (i = 0; i < after->nops; i++) {
		if ((b = mountstats_op(before, after->ops[i].name)) == NULL)
			b = &zero;
		out->ops[i].name = xstrdup(after->ops[i].name);
		for (j = 0; j < MS_NFIELDS; j++)
			out->ops[i].v[j] = after->ops[i].v[j] - b->v[j];
	}
	return 0;
}
