/* SPDX-License-Identifier: ISC */
/* Copyright (c) 2026 The largedir authors */

/*
 * backend: what the backends share.  The ops tables themselves live in
 * the backends' own files (posix.c).
 */

#include "backend.h"

/* The name of fsync mode 'm' as --fsync spells it. */
const char *
backend_fsync_name(enum backend_fsync m)
{
	switch (m) {
	case BACKEND_FSYNC_FILE:
		return "file";
	case BACKEND_FSYNC_DIR:
		return "dir";
	case BACKEND_FSYNC_BOTH:
		return "both";
	case BACKEND_FSYNC_NONE:
		break;
	}
	return "none";
}
