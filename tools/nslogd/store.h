/* SPDX-License-Identifier: GPL-2.0 */
/*
 * store: a record into the log set, through NSLOG_IOC_RELAY on a write fd
 * of the record's log (a node, or a stream for crash, stats and security),
 * so that the kernel stamps the writer's pid and uid and charges the
 * writer's cgroups.
 */
#ifndef NSLOGD_STORE_H
#define NSLOGD_STORE_H

#include <stdbool.h>
#include <stdint.h>

#include <linux/nslogger.h>

#include "dgram.h"
#include "streams.h"

/*
 * The logs a writer may name: main, radio, events, system (ids 0 to 3,
 * the set's nodes) and crash, stats, security (4 to 6, streams of the
 * set: streams.c). The kernel log (7) is never a writer's.
 */
#define NSLOGD_STORE_LOGS	7
/* A log that failed to open is tried again this often, at most. */
#define NSLOGD_STORE_RETRY_NS	1000000000LL

/* What became of a record handed to the store. */
enum nslogd_store_result {
	NSLOGD_STORE_STORED = 0,	/* the kernel took it */
	NSLOGD_STORE_DROPPED,		/* a rate limit dropped it (-EAGAIN) */
	NSLOGD_STORE_NO_LOG,		/* its node or stream could not be opened or made */
	NSLOGD_STORE_FAILED,		/* any other error of the ioctl */
	NSLOGD_STORE_NO_FILE_LOG,	/* 4 to 6: the kernel has no NSLOG_RELAY_FILE_LOG */
	NSLOGD_STORE_RESULTS
};

/* The ioctl, or the tests' stand-in: 0 or more, or -errno. */
typedef int nslogd_relay_fn(int fd, const struct nslog_relay *relay);

struct nslogd_store {
	int fd[NSLOGD_STORE_LOGS];	/* -1: not open */
	int64_t next_try_ns[NSLOGD_STORE_LOGS];	/* an open that failed */
	int64_t next_check_ns[NSLOGD_STORE_LOGS];	/* a stream's name */
	int open_errno[NSLOGD_STORE_LOGS];
	const char *dev_dir;		/* as nslog_dev_path() takes it */
	nslogd_relay_fn *relay;
	struct nslogd_streams *streams;	/* logs 4 to 6; NULL: none */
	bool no_file_log;		/* the kernel refused the flag */
};

void nslogd_store_init(struct nslogd_store *s, const char *dev_dir,
		       nslogd_relay_fn *relay, struct nslogd_streams *streams);
int nslogd_store_open(struct nslogd_store *s, int64_t now_ns);
enum nslogd_store_result nslogd_store_put(struct nslogd_store *s,
					  const struct nslogd_record *rec,
					  int64_t now_ns, int *err);
void nslogd_store_close(struct nslogd_store *s);
const char *nslogd_store_result_name(enum nslogd_store_result r);
int nslogd_relay_ioctl(int fd, const struct nslog_relay *relay);

#endif /* NSLOGD_STORE_H */
