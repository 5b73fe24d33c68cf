/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rdlog: the set's logs as a reader opens them (the nodes, and the
 * streams of logs 4 to 7): a read fd of its own per log and connection, so the kernel keeps each reader's place (and tells
 * it what it lost), in nslogger's header. Reached through struct
 * nslogd_rdops, so that the tests play the kernel.
 */
#ifndef NSLOGD_RDLOG_H
#define NSLOGD_RDLOG_H

#include <sys/types.h>

#include <linux/nslogger.h>

#include "streams.h"

struct nslogd_rdops {
	/*
	 * A new non-blocking read fd on log @log_id (0 to 7) reading
	 * NSLOG_ENTRY_VERSION records, at the oldest stored one; pollable
	 * (POLLIN: a record is waiting). -errno on failure.
	 */
	int (*open)(void *ctx, unsigned int log_id);
	int (*info)(void *ctx, int fd, struct nslog_info *info);	/* NSLOG_IOC_INFO */
	int (*seek)(void *ctx, int fd, struct nslog_seek *seek);	/* NSLOG_IOC_SEEK */
	/* one record: its length, 0 at end of file, or -errno (-EAGAIN) */
	ssize_t (*read)(void *ctx, int fd, void *buf, size_t size);
	void (*close)(void *ctx, int fd);
	void *ctx;
};

/* Where the real operations find the logs: rdlog.c. */
struct nslogd_rdlogs {
	const char *dev_dir;		/* as nslog_dev_path() takes it */
	struct nslogd_streams *streams;	/* logs 4 to 7; NULL: none */
};

void nslogd_rdlog_ops(struct nslogd_rdops *ops, struct nslogd_rdlogs *logs);

#endif /* NSLOGD_RDLOG_H */
