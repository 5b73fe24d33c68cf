/* SPDX-License-Identifier: GPL-2.0 */
/*
 * store: a record into the sender's log set, through NSLOG_IOC_RELAY.
 */
#ifndef NSLOG_SL_STORE_H
#define NSLOG_SL_STORE_H

#include <stdint.h>
#include <sys/socket.h>

#include <linux/nslogger.h>

/* How a socket's records find their set. */
enum nslog_sl_attach {
	/*
	 * The socket belongs to one set (a container's, or the listener's
	 * own in a system container): its fd is a file of that set.
	 */
	NSLOG_SL_TIED,
	/*
	 * The socket is anyone's (not yet tied, or shared): each record
	 * goes to its live sender's own set (NSLOG_RELAY_WRITER_SET).
	 */
	NSLOG_SL_WRITERS,
};

/* What became of a record. */
enum nslog_sl_result {
	NSLOG_SL_STORED = 0,	/* in the socket's set, or its sender's */
	NSLOG_SL_ELSEWHERE,	/* a tied socket's sender of another set: its own */
	NSLOG_SL_UNATTRIBUTED,	/* a gone sender on a shared socket: the listener's set */
	NSLOG_SL_DROPPED,	/* a rate limit dropped it (-EAGAIN) */
	NSLOG_SL_FAILED,	/* any other error */
	NSLOG_SL_RESULTS
};

/* The ioctl, or the tests' stand-in: 0 or more, or -errno. */
typedef int nslog_sl_relay_fn(int fd, const struct nslog_relay *relay);

struct nslog_sl_store {
	nslog_sl_relay_fn *relay;
	int own_fd;		/* a write fd of the listener's own set's main */
};

/* One record for the store. */
struct nslog_sl_put {
	const struct ucred *cred;	/* the sender, as SCM_CREDENTIALS said */
	int tid;			/* the claim stored as the thread id */
	int64_t time_ns;		/* when the listener received it */
	const void *payload;
	size_t len;
};

int nslog_sl_relay_ioctl(int fd, const struct nslog_relay *relay);
enum nslog_sl_result nslog_sl_store_put(const struct nslog_sl_store *st,
					enum nslog_sl_attach how, int fd,
					const struct nslog_sl_put *p,
					int *err);
const char *nslog_sl_result_name(enum nslog_sl_result r);

#endif /* NSLOG_SL_STORE_H */
