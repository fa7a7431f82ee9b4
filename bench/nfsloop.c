/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * nfsloop: the smallest honest program that does over NFSv3 what one
 * round of largedir does with its default options, used by bench/nfs.sh
 * as the yardstick for largedir's NFS client.  It shares no code with
 * largedir and links only libnfs (its raw RPC layer, as largedir's
 * src/nfs/nfsrpc.c uses it: the *_async calls, poll(2) and rpc_service()).
 *
 *	nfsloop URL N SEED WINDOW
 *
 * URL is nfs://HOST/EXPORT?nfsport=P&mountport=M.  nfsloop mounts EXPORT
 * (MOUNT v3 on port M), connects to NFS on port P, makes a fresh
 * directory nfsloop.PID.TIME in the export and, with everything prepared
 * before any clock starts (the N names "00000000", "00000001", ... and a
 * seeded random permutation), times three phases with CLOCK_MONOTONIC:
 *
 *	create	CREATE (EXCLUSIVE, a verifier of its own) + SETATTR (mode
 *		0644) per file, in order
 *	open	LOOKUP + ACCESS (ACCESS3_READ) per file, in the permuted order
 *	delete	REMOVE per file, in creation order
 *
 * These are the calls largedir's NFS backend sends with --file-size 0.
 * Up to WINDOW files are under way at a time, each file's calls one after
 * the other (WINDOW 1: one call at a time).  It prints one line,
 * "create_per_s open_per_s delete_per_s" in files per second, and removes
 * its directory.  Any error is fatal (exit 1).
 */

#include <sys/types.h>

#include <err.h>
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <nfsc/libnfs.h>
#include <nfsc/libnfs-raw.h>
#include <nfsc/libnfs-raw-mount.h>
#include <nfsc/libnfs-raw-nfs.h>

#define NAME_LEN	8			/* largedir's default width */
#define NAME_STRIDE	(NAME_LEN + 1)		/* name and its NUL */
#define MAX_FILES	UINT64_C(100000000)	/* 10^NAME_LEN */
#define MAX_WINDOW	256			/* as --nfs-window */
#define TIMEOUT_MS	30000			/* for any one reply */

/* What a call is; its reply decides what comes next. */
enum step { CONNECT, MNT, MKDIR, RMDIR, CREATE, SETATTR, LOOKUP, ACCESS,
    REMOVE };

/* One file under way (or one set-up call). */
struct slot {
	enum step	 step;
	bool		 busy;
	bool		 file;		/* one of 'slots' */
	const char	*name;
	nfs_fh3		 fh;		/* the file's, once known */
	char		 fhbuf[NFS3_FHSIZE];
};

static uint64_t	 now_ns(void);
static double	 per_s(uint64_t, uint64_t);
static uint64_t	 parse_u64(const char *, uint64_t, uint64_t, const char *);
static uint64_t	 splitmix64(uint64_t *);
static void	 shuffle(uint32_t *, uint64_t, uint64_t);
static char	*build_names(uint64_t);
static void	 parse_url(char *);
static void	 pump(struct rpc_context *);
static void	 sync_call(struct rpc_context *, struct slot *);
static void	 send_call(struct slot *, enum step);
static void	 on_reply(struct rpc_context *, int, void *, void *);
static void	 keep_fh(struct slot *, const nfs_fh3 *);
static double	 phase(enum step, const char *, const uint32_t *);
static void	 usage(void) __attribute__((noreturn));

static const char *const step_names[] = {
	"connect", "MNT", "MKDIR", "RMDIR", "CREATE", "SETATTR", "LOOKUP",
	"ACCESS", "REMOVE"
};

static char		*host, *export;
static int		 nfsport, mountport;
static struct rpc_context *rpc;		/* the NFS connection */
static struct slot	 root, dir;	/* their handles */
static struct slot	 slots[MAX_WINDOW];
static unsigned		 window, busy;
static uint64_t		 n, verf_serial;

static uint64_t
now_ns(void)
{
	struct timespec	ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts) == -1)
		err(1, "clock_gettime");
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* 'count' files in 'elapsed_ns' as files per second. */
static double
per_s(uint64_t count, uint64_t elapsed_ns)
{
	return (double)count * 1e9 /
	    (double)(elapsed_ns > 0 ? elapsed_ns : 1);
}

/* The decimal number 's' in ['min', 'max'], or die naming it 'what'. */
static uint64_t
parse_u64(const char *s, uint64_t min, uint64_t max, const char *what)
{
	unsigned long long	 v;
	char			*end;

	if (*s < '0' || *s > '9')
		errx(2, "%s is not a number: %s", what, s);
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno != 0 || *end != '\0' || v < min || v > max)
		errx(2, "%s out of range [%" PRIu64 ", %" PRIu64 "]: %s",
		    what, min, max, s);
	return (uint64_t)v;
}

static uint64_t
splitmix64(uint64_t *state)
{
	uint64_t	z;

	z = (*state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Fill 'order' with a permutation of 0 .. 'count'-1 drawn from 'seed'. */
static void
shuffle(uint32_t *order, uint64_t count, uint64_t seed)
{
	uint64_t	state = seed, i, j;
	uint32_t	tmp;

	for (i = 0; i < count; i++)
		order[i] = (uint32_t)i;
	for (i = count; i > 1; i--) {
		j = splitmix64(&state) % i;
		tmp = order[i - 1];
		order[i - 1] = order[j];
		order[j] = tmp;
	}
}

/* The 'count' names, NAME_STRIDE bytes apart, as largedir's name table. */
static char *
build_names(uint64_t count)
{
	char		*names, *p;
	uint64_t	 i, v;
	int		 k;

	if ((names = calloc(count, NAME_STRIDE)) == NULL)
		err(1, "calloc");
	for (i = 0; i < count; i++) {
		p = names + i * NAME_STRIDE;
		for (v = i, k = NAME_LEN - 1; k >= 0; k--, v /= 10)
			p[k] = (char)('0' + v % 10);
	}
	return names;
}

/* Split 'url' (modified) into host, export, nfsport and mountport. */
static void
parse_url(char *url)
{
	char	*q, *tok, *save;

	if (strncmp(url, "nfs://", 6) != 0 ||
	    (export = strchr(url + 6, '/')) == NULL ||
	    (q = strchr(export, '?')) == NULL)
		errx(2, "not nfs://HOST/EXPORT?nfsport=P&mountport=M: %s",
		    url);
	if ((host = strndup(url + 6, (size_t)(export - url - 6))) == NULL)
		err(1, "strndup");
	*q++ = '\0';
	for (tok = strtok_r(q, "&", &save); tok != NULL;
	    tok = strtok_r(NULL, "&", &save)) {
		if (strncmp(tok, "nfsport=", 8) == 0)
			nfsport = (int)parse_u64(tok + 8, 1, 65535, "nfsport");
		else if (strncmp(tok, "mountport=", 10) == 0)
			mountport = (int)parse_u64(tok + 10, 1, 65535,
			    "mountport");
		else
			errx(2, "unknown in the URL: %s", tok);
	}
	if (nfsport == 0 || mountport == 0)
		errx(2, "the URL needs nfsport= and mountport=");
}

/* Wait for the connection 'r' once, and handle what it has. */
static void
pump(struct rpc_context *r)
{
	struct pollfd	pfd;
	int		k;

	pfd.fd = rpc_get_fd(r);
	pfd.events = (short)rpc_which_events(r);
	if ((k = poll(&pfd, 1, TIMEOUT_MS)) == -1)
		err(1, "poll");
	if (k == 0)
		errx(1, "no reply in %d s", TIMEOUT_MS / 1000);
	if (rpc_service(r, pfd.revents) < 0)
		errx(1, "rpc: %s", rpc_get_error(r));
}

/* Wait on 'r' until the call of 's' is done. */
static void
sync_call(struct rpc_context *r, struct slot *s)
{
	while (s->busy)
		pump(r);
}

/*
 * Send call 'step' for the file of slot 's' in the directory 'dir'.
 * libnfs encodes the arguments before it returns.
 */
static void
send_call(struct slot *s, enum step step)
{
	union {
		CREATE3args	create;
		SETATTR3args	setattr;
		LOOKUP3args	lookup;
		ACCESS3args	access;
		REMOVE3args	remove;
		MKDIR3args	mkdir;
		RMDIR3args	rmdir;
	} u;
	uint64_t	verf;
	int		rc = -1;

	memset(&u, 0, sizeof(u));
	s->step = step;
	switch (step) {
	case CREATE:
		u.create.where.dir = dir.fh;
		u.create.where.name = (char *)s->name;
		u.create.how.mode = EXCLUSIVE;
		verf = ((uint64_t)getpid() << 32) ^ ++verf_serial;
		memcpy(u.create.how.createhow3_u.verf, &verf, sizeof(verf));
		rc = rpc_nfs3_create_async(rpc, on_reply, &u.create, s);
		break;
	case SETATTR:
		u.setattr.object = s->fh;
		u.setattr.new_attributes.mode.set_it = 1;
		u.setattr.new_attributes.mode.set_mode3_u.mode = 0644;
		rc = rpc_nfs3_setattr_async(rpc, on_reply, &u.setattr, s);
		break;
	case LOOKUP:
		u.lookup.what.dir = dir.fh;
		u.lookup.what.name = (char *)s->name;
		rc = rpc_nfs3_lookup_async(rpc, on_reply, &u.lookup, s);
		break;
	case ACCESS:
		u.access.object = s->fh;
		u.access.access = ACCESS3_READ;
		rc = rpc_nfs3_access_async(rpc, on_reply, &u.access, s);
		break;
	case REMOVE:
		u.remove.object.dir = dir.fh;
		u.remove.object.name = (char *)s->name;
		rc = rpc_nfs3_remove_async(rpc, on_reply, &u.remove, s);
		break;
	case MKDIR:
		u.mkdir.where.dir = root.fh;
		u.mkdir.where.name = (char *)s->name;
		u.mkdir.attributes.mode.set_it = 1;
		u.mkdir.attributes.mode.set_mode3_u.mode = 0755;
		rc = rpc_nfs3_mkdir_async(rpc, on_reply, &u.mkdir, s);
		break;
	case RMDIR:
		u.rmdir.object.dir = root.fh;
		u.rmdir.object.name = (char *)s->name;
		rc = rpc_nfs3_rmdir_async(rpc, on_reply, &u.rmdir, s);
		break;
	default:
		break;
	}
	if (rc != 0)
		errx(1, "%s %s: %s", step_names[step], s->name,
		    rpc_get_error(rpc));
}

/* Copy the file handle 'fh' of a reply into slot 's'. */
static void
keep_fh(struct slot *s, const nfs_fh3 *fh)
{
	if (fh->data.data_len > NFS3_FHSIZE)
		errx(1, "%s %s: file handle of %u bytes",
		    step_names[s->step], s->name, fh->data.data_len);
	memcpy(s->fhbuf, fh->data.data_val, fh->data.data_len);
	s->fh.data.data_len = fh->data.data_len;
	s->fh.data.data_val = s->fhbuf;
}

/*
 * libnfs's callback for every call: any failure is fatal; a CREATE is
 * followed by its SETATTR and a LOOKUP by its ACCESS; else the slot is
 * free again.
 */
static void
on_reply(struct rpc_context *r, int status, void *data, void *arg)
{
	struct slot		*s = arg;
	const mountres3		*mnt = data;
	const CREATE3res	*cr = data;
	const LOOKUP3res	*lk = data;
	const MKDIR3res		*mk = data;

	(void)r;
	if (status != RPC_STATUS_SUCCESS)
		errx(1, "%s %s: %s", step_names[s->step], s->name,
		    status == RPC_STATUS_ERROR && data != NULL ?
		    (const char *)data : "cancelled");
	if (s->step == MNT && mnt->fhs_status != MNT3_OK)
		errx(1, "MNT %s: status %d", s->name, (int)mnt->fhs_status);
	if (s->step > MNT && *(const nfsstat3 *)data != NFS3_OK)
		errx(1, "%s %s: NFS status %d", step_names[s->step], s->name,
		    (int)*(const nfsstat3 *)data);
	switch (s->step) {
	case MNT:
		if (mnt->mountres3_u.mountinfo.fhandle.fhandle3_len >
		    NFS3_FHSIZE)
			errx(1, "MNT %s: file handle too long", s->name);
		memcpy(s->fhbuf, mnt->mountres3_u.mountinfo.fhandle.
		    fhandle3_val, mnt->mountres3_u.mountinfo.fhandle.
		    fhandle3_len);
		s->fh.data.data_len =
		    mnt->mountres3_u.mountinfo.fhandle.fhandle3_len;
		s->fh.data.data_val = s->fhbuf;
		break;
	case CREATE:
		if (!cr->CREATE3res_u.resok.obj.handle_follows)
			errx(1, "CREATE %s: no file handle", s->name);
		keep_fh(s, &cr->CREATE3res_u.resok.obj.post_op_fh3_u.handle);
		send_call(s, SETATTR);
		return;
	case MKDIR:
		if (!mk->MKDIR3res_u.resok.obj.handle_follows)
			errx(1, "MKDIR %s: no file handle", s->name);
		keep_fh(s, &mk->MKDIR3res_u.resok.obj.post_op_fh3_u.handle);
		break;
	case LOOKUP:
		keep_fh(s, &lk->LOOKUP3res_u.resok.object);
		send_call(s, ACCESS);
		return;
	default:
		break;
	}
	s->busy = false;
	if (s->file)
		busy--;
}

/*
 * One timed phase: the chain starting with 'first' for each of the n
 * names in 'names', in 'order' if it is not NULL, up to 'window' files at
 * a time.  Return files per second.
 */
static double
phase(enum step first, const char *names, const uint32_t *order)
{
	uint64_t	i, t0;
	unsigned	k;

	t0 = now_ns();
	for (i = 0; i < n; i++) {
		while (busy == window)
			pump(rpc);
		for (k = 0; slots[k].busy; k++)
			continue;
		slots[k].busy = slots[k].file = true;
		slots[k].name = names + (order != NULL ? order[i] : i) *
		    NAME_STRIDE;
		busy++;
		send_call(&slots[k], first);
	}
	while (busy > 0)
		pump(rpc);
	return per_s(n, now_ns() - t0);
}

static void
usage(void)
{
	(void)fprintf(stderr, "usage: nfsloop url count seed window\n");
	exit(2);
}

int
main(int argc, char *argv[])
{
	struct rpc_context	*m;
	struct slot		 conn = { 0 };
	char			*names, dirname[64];
	uint32_t		*order;
	uint64_t		 seed;
	double			 create_per_s, open_per_s, delete_per_s;

	if (argc != 5)
		usage();
	parse_url(argv[1]);
	n = parse_u64(argv[2], 1, MAX_FILES, "count");
	seed = parse_u64(argv[3], 0, UINT64_MAX, "seed");
	window = (unsigned)parse_u64(argv[4], 1, MAX_WINDOW, "window");

	/* Everything the loops need, before any clock starts. */
	names = build_names(n);
	if ((order = calloc(n, sizeof(*order))) == NULL)
		err(1, "calloc");
	shuffle(order, n, seed);

	/* Mount the export, then connect to NFS. */
	if ((m = rpc_init_context()) == NULL ||
	    (rpc = rpc_init_context()) == NULL)
		errx(1, "rpc_init_context");
	conn.name = host;
	conn.busy = true;
	if (rpc_connect_port_async(m, host, mountport, MOUNT_PROGRAM,
	    MOUNT_V3, on_reply, &conn) != 0)
		errx(1, "connect %s:%d: %s", host, mountport, rpc_get_error(m));
	sync_call(m, &conn);
	root.name = export;
	root.step = MNT;
	root.busy = true;
	if (rpc_mount3_mnt_async(m, on_reply, export, &root) != 0)
		errx(1, "MNT %s: %s", export, rpc_get_error(m));
	sync_call(m, &root);
	rpc_destroy_context(m);
	conn.busy = true;
	if (rpc_connect_port_async(rpc, host, nfsport, NFS_PROGRAM, NFS_V3,
	    on_reply, &conn) != 0)
		errx(1, "connect %s:%d: %s", host, nfsport,
		    rpc_get_error(rpc));
	sync_call(rpc, &conn);

	(void)snprintf(dirname, sizeof(dirname), "nfsloop.%ld.%lld",
	    (long)getpid(), (long long)time(NULL));
	dir.name = dirname;
	dir.busy = true;
	send_call(&dir, MKDIR);
	sync_call(rpc, &dir);

	create_per_s = phase(CREATE, names, NULL);
	open_per_s = phase(LOOKUP, names, order);
	delete_per_s = phase(REMOVE, names, NULL);

	dir.busy = true;
	send_call(&dir, RMDIR);
	sync_call(rpc, &dir);
	rpc_destroy_context(rpc);

	printf("%.1f %.1f %.1f\n", create_per_s, open_per_s, delete_per_s);
	if (fflush(stdout) == EOF || ferror(stdout))
		err(1, "stdout");
	free(order);
	free(names);
	free(host);
	return 0;
}
