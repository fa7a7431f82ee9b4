/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * test_nfsdec: what a reply gives is copied out of libnfs's structs.  A
 * READDIR reply's entries go into the call's arrays without "." and
 * "..", its cookie and verifier into the cursor; where the arrays have
 * no room left, the copy stops at the last entry kept and eof is taken
 * back, so that the next call goes on from there.  LOOKUP copies the
 * handle (cut to NFSRPC_FHSIZE), the file id and the size; FSINFO fills
 * the connection.  Procedures without results copy nothing: RENAME's
 * two wcc_data are left where they are.
 */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include <nfsc/libnfs.h>
#include <nfsc/libnfs-raw.h>
#include <nfsc/libnfs-raw-nfs.h>

#include "nfs/nfsdec.h"
#include "nfs/nfsrpc.h"

/* A READDIR reply of 'n' entries named 'names', cookies 10, 20, ... */
static void
reply(READDIR3res *res, entry3 *e, char **names, size_t n, int eof)
{
	size_t	i;

	memset(res, 0, sizeof(*res));
	for (i = 0; i < n; i++) {
		e[i].fileid = 100 + i;
		e[i].name = names[i];
		e[i].cookie = 10 * (i + 1);
		e[i].nextentry = i + 1 < n ? &e[i + 1] : NULL;
	}
	res->READDIR3res_u.resok.reply.entries = n > 0 ? e : NULL;
	res->READDIR3res_u.resok.reply.eof = (uint32_t)eof;
	memcpy(res->READDIR3res_u.resok.cookieverf, "verifier", 8);
}

static void
test_readdir(void **state)
{
	char			*names[] = { ".", "..", "a", "bb", "ccc" };
	entry3			 e[5];
	READDIR3res		 res;
	struct nfsrpc		 c;
	struct nfsrpc_call	 call;
	struct nfsrpc_dircursor	 cur;
	struct nfsrpc_dirent	 ents[8];
	char			 buf[64];

	(void)state;
	memset(&c, 0, sizeof(c));
	memset(&call, 0, sizeof(call));
	memset(&cur, 0, sizeof(cur));
	call.c = &c;
	call.proc = NFSRPC_READDIR;
	call.cur = &cur;
	call.ents = ents;
	call.maxents = 8;
	call.names = buf;
	call.nameslen = sizeof(buf);
	reply(&res, e, names, 5, 1);
	nfsdec_reply(&call, &res);
	assert_int_equal(call.nents, 3);
	assert_string_equal(ents[0].name, "a");
	assert_string_equal(ents[2].name, "ccc");
	assert_int_equal(ents[1].fileid, 103);
	assert_int_equal(cur.cookie, 50);
	assert_memory_equal(cur.verf, "verifier", 8);
	assert_true(cur.eof);

	/* Room for two: cut after "bb", and the next call goes on there. */
	memset(&cur, 0, sizeof(cur));
	call.nents = call.namesused = 0;
	call.maxents = 2;
	nfsdec_reply(&call, &res);
	assert_int_equal(call.nents, 2);
	assert_string_equal(ents[1].name, "bb");
	assert_int_equal(cur.cookie, 40);
	assert_false(cur.eof);

	/* Or room for "a\0bb" and not "ccc\0" in the names. */
	memset(&cur, 0, sizeof(cur));
	call.nents = call.namesused = 0;
	call.maxents = 8;
	call.nameslen = 6;
	nfsdec_reply(&call, &res);
	assert_int_equal(call.nents, 2);
	assert_int_equal(cur.cookie, 40);
	assert_false(cur.eof);
}

static void
test_lookup_fsinfo(void **state)
{
	LOOKUP3res		 lk;
	FSINFO3res		 fi;
	struct nfsrpc		 c;
	struct nfsrpc_call	 call;
	struct nfsrpc_fh	 fh;
	char			 handle[NFSRPC_FHSIZE + 8];
	uint64_t		 fileid = 0, size = 0;

	(void)state;
	memset(&c, 0, sizeof(c));
	memset(&call, 0, sizeof(call));
	memset(&lk, 0, sizeof(lk));
	memset(handle, 'h', sizeof(handle));
	lk.LOOKUP3res_u.resok.object.data.data_len = sizeof(handle);
	lk.LOOKUP3res_u.resok.object.data.data_val = handle;
	lk.LOOKUP3res_u.resok.obj_attributes.attributes_follow = 1;
	lk.LOOKUP3res_u.resok.obj_attributes.post_op_attr_u.attributes.
	    fileid = 77;
	lk.LOOKUP3res_u.resok.obj_attributes.post_op_attr_u.attributes.
	    size = 5000000000ULL;
	call.c = &c;
	call.proc = NFSRPC_LOOKUP;
	call.fh = &fh;
	call.fileid = &fileid;
	call.size = &size;
	nfsdec_reply(&call, &lk);
	assert_int_equal(fh.len, NFSRPC_FHSIZE);
	assert_memory_equal(fh.data, handle, NFSRPC_FHSIZE);
	assert_int_equal(fileid, 77);
	assert_int_equal(size, 5000000000ULL);
	/* No attributes: the size stays as it was. */
	lk.LOOKUP3res_u.resok.obj_attributes.attributes_follow = 0;
	size = 1;
	nfsdec_reply(&call, &lk);
	assert_int_equal(size, 1);

	memset(&fi, 0, sizeof(fi));
	fi.FSINFO3res_u.resok.rtmax = 1048576;
	fi.FSINFO3res_u.resok.rtpref = 65536;
	fi.FSINFO3res_u.resok.wtmax = 524288;
	fi.FSINFO3res_u.resok.wtpref = 32768;
	fi.FSINFO3res_u.resok.dtpref = 16384;
	call.proc = NFSRPC_FSINFO;
	nfsdec_reply(&call, &fi);
	assert_int_equal(c.rtmax, 1048576);
	assert_int_equal(c.rtpref, 65536);
	assert_int_equal(c.wtmax, 524288);
	assert_int_equal(c.wtpref, 32768);
	assert_int_equal(c.dtpref, 16384);

	/* REMOVE brings nothing to copy; an unknown procedure neither. */
	call.proc = NFSRPC_REMOVE;
	nfsdec_reply(&call, &fi);
	call.proc = -1;
	nfsdec_reply(&call, &fi);
	assert_int_equal(c.rtmax, 1048576);
}

/*
 * RENAME brings its status and the directories' wcc_data, which nothing
 * asks for: a call with every result pointer set keeps them untouched.
 */
static void
test_rename(void **state)
{
	RENAME3res		 res;
	struct nfsrpc		 c;
	struct nfsrpc_call	 call;
	struct nfsrpc_fh	 fh;
	struct nfsrpc_dircursor	 cur;
	uint64_t		 fileid = 5, size = 6;
	uint32_t		 mode = 7;
	char			 buf[8] = "unread";
	bool			 eof = false;

	(void)state;
	memset(&res, 0, sizeof(res));
	res.RENAME3res_u.resok.fromdir_wcc.after.attributes_follow = 1;
	res.RENAME3res_u.resok.fromdir_wcc.after.post_op_attr_u.attributes.
	    fileid = 99;
	res.RENAME3res_u.resok.todir_wcc.after.attributes_follow = 1;
	res.RENAME3res_u.resok.todir_wcc.after.post_op_attr_u.attributes.
	    size = 4096;
	memset(&c, 0, sizeof(c));
	memset(&call, 0, sizeof(call));
	memset(&fh, 'f', sizeof(fh));
	memset(&cur, 'c', sizeof(cur));
	call.c = &c;
	call.proc = NFSRPC_RENAME;
	call.fh = &fh;
	call.fileid = &fileid;
	call.mode = &mode;
	call.size = &size;
	call.cur = &cur;
	call.buf = buf;
	call.buflen = sizeof(buf);
	call.eof = &eof;
	nfsdec_reply(&call, &res);
	assert_int_equal(fileid, 5);
	assert_int_equal(size, 6);
	assert_int_equal(mode, 7);
	assert_int_equal(fh.len, 0x66666666);
	assert_int_equal(cur.cookie, 0x6363636363636363ULL);
	assert_string_equal(buf, "unread");
	assert_false(eof);
	assert_int_equal(call.got, 0);
	assert_int_equal(call.nents, 0);
	assert_int_equal(c.rtmax, 0);
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test(test_readdir),
		cmocka_unit_test(test_lookup_fsinfo),
		cmocka_unit_test(test_rename),
	};

	return cmocka_run_group_tests_name("nfsdec", tests, NULL, NULL);
}
