/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * logger_list: the read API's state (struct logger_list, struct logger),
 * shared by logger_list.c (opening, the ioctls, the extensions) and
 * logger_read.c (reading and merging).  Not installed.
 */
#ifndef NSLOG_LOGGER_LIST_H
#define NSLOG_LOGGER_LIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <log/log_read.h>
#include "devpath.h"
#include "internal.h"

/* One log of a list: its reader and the record read ahead of the merge. */
struct logger {
	struct logger_list *list;
	log_id_t id;
	int fd;				/* read-only, non-blocking */
	char path[NSLOG_PATH_MAX];
	size_t n;			/* size of @msg, 0 if none pending */
	uint64_t time_ns;		/* of @msg */
	uint64_t order;			/* of @msg, nslogger's header only */
	bool has_order;
	struct log_msg msg;		/* as android_logger_list_read() gives it */
};

/* A record kept for tail mode. */
struct nslog_tail_rec {
	struct nslog_tail_rec *next;
	size_t n;
	unsigned char raw[];
};

struct logger_list {
	int mode;
	unsigned int tail;
	uint64_t start_ns;		/* 0: from the oldest */
	pid_t pid;			/* 0: every process */
	char *dev_dir;			/* NULL: $NSLOG_DEV_DIR or the default */
	bool has_ns;
	int ns_fd;
	uint64_t ns_id;
	int header;			/* as nslog_logger_list_set_header() */
	struct logger *logs[NSLOG_BUF_COUNT];	/* in the order opened */
	size_t count;

	/* tail mode: the last @tail records, a queue served first */
	bool tail_done;
	struct nslog_tail_rec *head;
	struct nslog_tail_rec **last;
	size_t queued;

	/* the last failure, for nslog_logger_list_error() */
	int err_id;
	char err_path[NSLOG_PATH_MAX];
	const char *err_what;
};

void nslog_list_failed(struct logger_list *list, const struct logger *l,
		       const char *what);

#endif /* NSLOG_LOGGER_LIST_H */
