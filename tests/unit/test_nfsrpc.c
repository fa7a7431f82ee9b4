/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * test_nfsrpc: the connection to a server that closes it, which libnfs
 * reports with no error string at all.  The server is a tiny fake in a
 * child process, on a port of 127.0.0.1 of its own: it reads ONC RPC
 * calls (RFC 5531, one record each), answers the NULL pings and MOUNT's
 * MNT, and at the call it is told to (the first of all, or the first
 * NFS call after the pings) reads the call and closes the connection, as
 * a server that goes away does.  Told to serve, it answers FSINFO and
 * PATHCONF, so the connection comes up, and checks the arguments of a
 * RENAME word by word (RFC 1813, 3.3.14): NFS3_OK if they are the ones
 * test_rename sends, NFS3ERR_NOENT for the name "missing", else
 * NFS3ERR_INVAL.  The procedures' names and counters agree, table by
 * table.  What the calls send to a real server is counted in
 * tests/sh/t_nfs.sh.
 */

#include <sys/socket.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/util.h"
#include "nfs/nfsproc.h"
#include "nfs/nfsrpc.h"

#define PROG_NFS	100003
#define PROG_MOUNT	100005
#define PROC_MNT	1
#define PROC_RENAME	14
#define PROC_FSINFO	19
#define PROC_PATHCONF	20
#define ERR_NOENT	2
#define ERR_INVAL	22

/* Where the fake server closes the connection. */
enum close_at {
	AT_FIRST_CALL,		/* the MOUNT service's NULL ping */
	AT_NFS_CALL,		/* the first NFS call but NULL */
	AT_NONE			/* none: serve FSINFO, PATHCONF, RENAME */
};

struct fake {
	pid_t	pid;
	int	port;
};

static int	read_full(int, void *, size_t);
static size_t	get_opaque(const uint32_t *, size_t, size_t, char *,
		    size_t *);
static uint32_t	check_rename(const uint32_t *, size_t);
static size_t	answer_nfs(const uint32_t *, size_t, uint32_t *);
static void	serve(int, enum close_at);
static void	fake_start(struct fake *, enum close_at);
static void	fake_stop(struct fake *);
static int	connect_to(const struct fake *, char *);

/* Read 'len' bytes; 0, or -1 at the end of the stream or on an error. */
static int
read_full(int fd, void *buf, size_t len)
{
	ssize_t	n;
	size_t	got = 0;

	while (got < len) {
		n = read(fd, (char *)buf + got, len - got);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		got += (size_t)n;
	}
	return 0;
}

/* What test_rename sends: from "dir-one"/"old", to "dir-two-xx"/"new". */
static const struct nfsrpc_fh	from_fh = { 7, "dir-one" };
static const struct nfsrpc_fh	to_fh = { 10, "dir-two-xx" };

/*
 * The XDR opaque<> of the 'len' words of 'w' at word 'i' into 'buf' (at
 * most 63 bytes and a NUL), its length into '*n'.  Return the word after
 * it, or 'len' + 1 if it runs past the call.
 */
static size_t
get_opaque(const uint32_t *w, size_t len, size_t i, char *buf, size_t *n)
{
	if (i >= len)
		return len + 1;
	*n = ntohl(w[i]);
	if (*n > 63 || i + 1 + (*n + 3) / 4 > len)
		return len + 1;
	memcpy(buf, &w[i + 1], *n);
	buf[*n] = '\0';
	return i + 1 + (*n + 3) / 4;
}

/*
 * The status of a RENAME whose arguments start at word 'i' of the
 * 'len' words of call 'w': from.dir, from.name, to.dir, to.name, each
 * an opaque<>, and nothing after them.
 */
static uint32_t
check_rename(const uint32_t *w, size_t len)
{
	char	fdir[64], fname[64], tdir[64], tname[64];
	size_t	i, nfd, nfn, ntd, ntn;

	/* The credential and the verifier: flavour, opaque<> each. */
	i = get_opaque(w, len, 7, fdir, &nfd);
	i = get_opaque(w, len, i + 1, fdir, &nfd);
	i = get_opaque(w, len, i, fdir, &nfd);
	i = get_opaque(w, len, i, fname, &nfn);
	i = get_opaque(w, len, i, tdir, &ntd);
	i = get_opaque(w, len, i, tname, &ntn);
	if (i != len)
		return ERR_INVAL;
	if (strcmp(fname, "missing") == 0)
		return ERR_NOENT;
	if (nfd != from_fh.len || memcmp(fdir, from_fh.data, nfd) != 0 ||
	    ntd != to_fh.len || memcmp(tdir, to_fh.data, ntd) != 0 ||
	    strcmp(fname, "old") != 0 || strcmp(tname, "new") != 0)
		return ERR_INVAL;
	return 0;
}

/*
 * The results of NFS call 'w' ('len' words) into 'res': FSINFO's (no
 * attributes; rtmax 65536, rtpref 32768, wtmax 65536, wtpref 32768,
 * dtpref 8192), PATHCONF's (name_max 255), RENAME's (its status and
 * two empty wcc_data), or nothing (NULL).  Return the words.
 */
static size_t
answer_nfs(const uint32_t *w, size_t len, uint32_t *res)
{
	static const uint32_t	fsinfo[] = { 0, 0, 65536, 32768, 4096,
	    65536, 32768, 4096, 8192, 0, 1U << 30, 1, 0, 0x1b };
	static const uint32_t	pathconf[] = { 0, 0, 32000, 255, 1, 1, 0,
	    1 };
	size_t			i;

	switch (ntohl(w[5])) {
	case PROC_FSINFO:
		for (i = 0; i < sizeof(fsinfo) / sizeof(fsinfo[0]); i++)
			res[i] = htonl(fsinfo[i]);
		return i;
	case PROC_PATHCONF:
		for (i = 0; i < sizeof(pathconf) / sizeof(pathconf[0]); i++)
			res[i] = htonl(pathconf[i]);
		return i;
	case PROC_RENAME:
		res[0] = htonl(check_rename(w, len / 4));
		for (i = 1; i < 5; i++)
			res[i] = 0;
		return 5;
	default:
		return 0;
	}
}

/*
 * The fake server, in the child: each connection in turn, each call of
 * it answered (accepted, an empty AUTH_NONE verifier, SUCCESS; MNT with
 * a file handle of 8 bytes and AUTH_UNIX; NFS calls by answer_nfs()),
 * until the call 'at' names, which is read and answered by closing the
 * connection.
 */
static void
serve(int lfd, enum close_at at)
{
	uint32_t	call[1024], reply[32];
	size_t		len, n;
	int		fd;

	for (;;) {
		if ((fd = accept(lfd, NULL, NULL)) == -1)
			_exit(1);
		for (;;) {
			if (read_full(fd, call, 4) == -1)
				break;
			len = ntohl(call[0]) & 0x7fffffff;
			if (len < 24 || len > sizeof(call) ||
			    read_full(fd, call, len) == -1)
				break;
			if (at == AT_FIRST_CALL || (at == AT_NFS_CALL &&
			    ntohl(call[3]) == PROG_NFS && ntohl(call[5]) != 0))
				break;
			n = 1;
			reply[n++] = call[0];		/* xid */
			reply[n++] = htonl(1);		/* REPLY */
			reply[n++] = htonl(0);		/* MSG_ACCEPTED */
			reply[n++] = htonl(0);		/* AUTH_NONE */
			reply[n++] = htonl(0);
			reply[n++] = htonl(0);		/* SUCCESS */
			if (ntohl(call[3]) == PROG_MOUNT &&
			    ntohl(call[5]) == PROC_MNT) {
				reply[n++] = htonl(0);	/* MNT3_OK */
				reply[n++] = htonl(8);
				reply[n++] = htonl(1);
				reply[n++] = htonl(2);
				reply[n++] = htonl(1);	/* one flavour */
				reply[n++] = htonl(1);	/* AUTH_UNIX */
			} else if (ntohl(call[3]) == PROG_NFS)
				n += answer_nfs(call, len, reply + n);
			reply[0] = htonl(0x80000000U | (uint32_t)(4 *
			    (n - 1)));
			if (send(fd, reply, 4 * n, MSG_NOSIGNAL) !=
			    (ssize_t)(4 * n))
				break;
		}
		(void)close(fd);
	}
}

/* Start the fake server that closes the connection at 'at'. */
static void
fake_start(struct fake *f, enum close_at at)
{
	struct sockaddr_in	sin;
	socklen_t		len = sizeof(sin);
	int			lfd;

	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_not_equal(lfd = socket(AF_INET, SOCK_STREAM, 0), -1);
	assert_int_equal(bind(lfd, (struct sockaddr *)&sin, sizeof(sin)),
	    0);
	assert_int_equal(listen(lfd, 4), 0);
	assert_int_equal(getsockname(lfd, (struct sockaddr *)&sin, &len), 0);
	f->port = ntohs(sin.sin_port);
	assert_int_not_equal(f->pid = fork(), -1);
	if (f->pid == 0) {
		/* A test that failed before fake_stop() leaves it: it ends. */
		(void)alarm(30);
		serve(lfd, at);
	}
	assert_int_equal(close(lfd), 0);
}

static void
fake_stop(struct fake *f)
{
	int	ws;

	assert_int_equal(kill(f->pid, SIGKILL), 0);
	assert_int_equal(waitpid(f->pid, &ws, 0), f->pid);
}

/*
 * Connect to the fake server 'f', MOUNT and NFS on its one port, which
 * fails; leave the message in 'err' and return the errno.
 */
static int
connect_to(const struct fake *f, char *err)
{
	struct nfsrpc	c;
	char		url[128];

	(void)snprintf(url, sizeof(url), "nfs://127.0.0.1/x?nfsport=%d&"
	    "mountport=%d", f->port, f->port);
	*err = '\0';
	assert_int_equal(nfsrpc_connect(&c, url, 5000, err), -1);
	return errno;
}

/* Closed at the first call: the MOUNT service is not there. */
static void
test_closed_at_mount(void **state)
{
	struct fake	f;
	char		err[LD_ERRLEN];

	(void)state;
	fake_start(&f, AT_FIRST_CALL);
	(void)connect_to(&f, err);
	fake_stop(&f);
	assert_null(strstr(err, "(null)"));
	assert_string_equal(err, "127.0.0.1: no MOUNT service: the server "
	    "closed the connection");
}

/*
 * Closed at the first NFS call, FSINFO, after the export was mounted
 * and the NFS service answered its ping: the call names itself.
 */
static void
test_closed_at_call(void **state)
{
	struct fake	f;
	char		err[LD_ERRLEN], want[LD_ERRLEN];
	int		e;

	(void)state;
	fake_start(&f, AT_NFS_CALL);
	e = connect_to(&f, err);
	fake_stop(&f);
	assert_int_equal(e, EIO);
	(void)snprintf(want, sizeof(want), "nfs://127.0.0.1/x?nfsport=%d&"
	    "mountport=%d: FSINFO: the server closed the connection", f.port,
	    f.port);
	assert_string_equal(err, want);
}

/*
 * RENAME goes out as RFC 1813 has it (the fake answers NFS3ERR_INVAL to
 * anything else), is counted as RENAME, and its NFS error comes back as
 * the errno and message of every procedure's.
 */
static void
test_rename(void **state)
{
	struct fake	f;
	struct nfsrpc	c;
	char		url[128], err[LD_ERRLEN];
	uint64_t	v[NFSRPC_NCOUNTERS];

	(void)state;
	fake_start(&f, AT_NONE);
	(void)snprintf(url, sizeof(url), "nfs://127.0.0.1/x?nfsport=%d&"
	    "mountport=%d", f.port, f.port);
	if (nfsrpc_connect(&c, url, 5000, err) == -1)
		fail_msg("connect: %s", err);
	assert_int_equal(c.wtmax, 65536);
	assert_int_equal(c.wtpref, 32768);
	assert_int_equal(c.rtpref, 32768);
	assert_int_equal(nfsproc_rename(&c, &from_fh, "old", &to_fh, "new"),
	    0);
	assert_int_equal(nfsproc_rename(&c, &to_fh, "old", &from_fh, "new"),
	    -1);
	assert_int_equal(errno, EINVAL);
	assert_string_equal(c.err, "RENAME: NFS3ERR_INVAL");
	assert_int_equal(nfsproc_rename(&c, &from_fh, "missing", &to_fh,
	    "new"), -1);
	assert_int_equal(errno, ENOENT);
	assert_string_equal(c.err, "RENAME: NFS3ERR_NOENT");
	nfsrpc_counters(&c, v);
	assert_int_equal(v[NFSRPC_RENAME], 3);
	assert_int_equal(v[NFSRPC_NPROC], 2);		/* errors */
	assert_int_equal(v[NFSRPC_FSINFO], 1);
	assert_int_equal(v[NFSRPC_PATHCONF], 1);
	nfsrpc_close(&c);
	fake_stop(&f);
}

/*
 * Every procedure has its name and its counter, "rpc_" and the name in
 * lower case, and the counters after them count something else.
 */
static void
test_names(void **state)
{
	const char	*name;
	char		 want[32];
	size_t		 i, k;

	(void)state;
	for (i = 0; i < NFSRPC_NPROC; i++) {
		name = nfsrpc_proc_name((int)i);
		assert_non_null(name);
		assert_string_not_equal(name, "?");
		k = (size_t)snprintf(want, sizeof(want), "rpc_%s", name);
		for (k = 4; want[k] != '\0'; k++)
			want[k] = (char)(want[k] - 'A' + 'a');
		assert_string_equal(nfsrpc_counter_names[i], want);
	}
	assert_string_equal(nfsrpc_proc_name(NFSRPC_RENAME), "RENAME");
	assert_string_equal(nfsrpc_proc_name(NFSRPC_NPROC), "?");
	assert_string_equal(nfsrpc_counter_names[NFSRPC_NPROC], "rpc_errors");
	assert_null(nfsrpc_counter_names[NFSRPC_NCOUNTERS]);
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test(test_closed_at_mount),
		cmocka_unit_test(test_closed_at_call),
		cmocka_unit_test(test_rename),
		cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests_name("nfsrpc", tests, NULL, NULL);
}
