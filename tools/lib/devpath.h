/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * devpath: where the logger device nodes of each buffer live.
 *
 * Shared by liblog and the programs (nslog, nslogcat, the collector) so
 * that they always agree.  Not part of liblog's public API: liblog.so
 * builds it in hidden, the programs link it from lib/.
 */
#ifndef NSLOG_DEVPATH_H
#define NSLOG_DEVPATH_H

#include <stddef.h>

/* Buffer ids, numbered as Android's log_id_t. */
enum nslog_buf_id {
	NSLOG_BUF_MAIN		= 0,
	NSLOG_BUF_RADIO		= 1,
	NSLOG_BUF_EVENTS	= 2,
	NSLOG_BUF_SYSTEM	= 3,
	NSLOG_BUF_COUNT
};

/* Environment variable naming the directory that holds the nodes. */
#define NSLOG_DEV_DIR_ENV	"NSLOG_DEV_DIR"

/* Long enough for any path nslog_dev_path() produces from a sane dir. */
#define NSLOG_PATH_MAX		4096

const char *nslog_buf_name(int id);
int nslog_buf_from_name(const char *name);
int nslog_dev_path(char *buf, size_t size, int id, const char *dir);
int nslog_dev_path_root(char *buf, size_t size, int id, const char *root);

#endif /* NSLOG_DEVPATH_H */
