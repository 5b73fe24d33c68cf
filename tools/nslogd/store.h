/* SPDX-License-Identifier: GPL-2.0 */
/*
 * store: a record into the log set, through NSLOG_IOC_RELAY on a write fd
 * of the record's log, so that the kernel stamps the writer's pid and uid
 * and charges the writer's cgroups.
 */
#ifndef NSLOGD_STORE_H
#define NSLOGD_STORE_H

#include <stdint.h>

#include <linux/nslogger.h>

#include "dgram.h"

/* The set's four logs: main, radio, events, system (ids 0 to 3). */
#define NSLOGD_STORE_LOGS	4
/* A node that failed to open is tried again this often, at most. */
#define NSLOGD_STORE_RETRY_NS	1000000000LL

/* What became of a record handed to the store. */
enum nslogd_store_result {
	NSLOGD_STORE_STORED = 0,	/* the kernel took it */
	NSLOGD_STORE_DROPPED,		/* a rate limit dropped it (-EAGAIN) */
	NSLOGD_STORE_NOT_YET,		/* crash, stats, security: no stream yet */
	NSLOGD_STORE_NO_LOG,		/* the log's node could not be opened */
	NSLOGD_STORE_FAILED,		/* any other error of the ioctl */
	NSLOGD_STORE_RESULTS
};

/* The ioctl, or the tests' stand-in: 0 or more, or -errno. */
typedef int nslogd_relay_fn(int fd, const struct nslog_relay *relay);

struct nslogd_store {
	int fd[NSLOGD_STORE_LOGS];	/* -1: not open */
	int64_t next_try_ns[NSLOGD_STORE_LOGS];
	int open_errno[NSLOGD_STORE_LOGS];
	const char *dev_dir;		/* as nslog_dev_path() takes it */
	nslogd_relay_fn *relay;
};

void nslogd_store_init(struct nslogd_store *s, const char *dev_dir,
		       nslogd_relay_fn *relay);
int nslogd_store_open(struct nslogd_store *s, int64_t now_ns);
enum nslogd_store_result nslogd_store_put(struct nslogd_store *s,
					  const struct nslogd_record *rec,
					  int64_t now_ns, int *err);
void nslogd_store_close(struct nslogd_store *s);
const char *nslogd_store_result_name(enum nslogd_store_result r);
int nslogd_relay_ioctl(int fd, const struct nslog_relay *relay);

#endif /* NSLOGD_STORE_H */
