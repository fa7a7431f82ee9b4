/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * test_nfsrpc: the connection to a server that closes it, which libnfs
 * reports with no error string at all.  The server is a tiny fake in a
 * child process, on a port of 127.0.0.1 of its own: it reads ONC RPC
 * calls (RFC 5531, one record each), answers the NULL pings and MOUNT's
 * MNT, and at the call it is told to (the first of all, or the first
 * NFS call after the pings) reads the call and closes the connection, as
 * a server that goes away does.  What the calls send to a real server is
 * counted in tests/sh/t_nfs.sh.
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
#include "nfs/nfsrpc.h"

#define PROG_NFS	100003
#define PROG_MOUNT	100005
#define PROC_MNT	1

/* Where the fake server closes the connection. */
enum close_at {
	AT_FIRST_CALL,		/* the MOUNT service's NULL ping */
	AT_NFS_CALL		/* the first NFS call but NULL */
};

struct fake {
	pid_t	pid;
	int	port;
};

static int	read_full(int, void *, size_t);
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

/*
 * The fake server, in the child: each connection in turn, each call of
 * it answered (accepted, an empty AUTH_NONE verifier, SUCCESS; MNT with
 * a file handle of 8 bytes and AUTH_UNIX), until the call 'at' names,
 * which is read and answered by closing the connection.
 */
static void
serve(int lfd, enum close_at at)
{
	uint32_t	call[1024], reply[16];
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
			if (at == AT_FIRST_CALL || (ntohl(call[3]) ==
			    PROG_NFS && ntohl(call[5]) != 0))
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
			}
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
	if (f->pid == 0)
		serve(lfd, at);
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

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test(test_closed_at_mount),
		cmocka_unit_test(test_closed_at_call),
	};

	return cmocka_run_group_tests_name("nfsrpc", tests, NULL, NULL);
}
