/* SPDX-License-Identifier: GPL-2.0 */
/*
 * writer: the logdw socket, drained in batches into the store.
 */
#ifndef NSLOGD_WRITER_H
#define NSLOGD_WRITER_H

#include <stdint.h>
#include <sys/socket.h>

#include "dgram.h"
#include "stats.h"
#include "store.h"

/* Datagrams one recvmmsg() reads. */
#define NSLOGD_BATCH		32
/* Batches one wake-up drains before the other sockets get a turn. */
#define NSLOGD_BATCHES_PER_WAKE	16
/* Room for the credentials and for a few fds a writer might pass. */
#define NSLOGD_CTL_FDS		8
#define NSLOGD_CTL_SIZE		(CMSG_SPACE(sizeof(struct ucred)) + \
				 CMSG_SPACE(NSLOGD_CTL_FDS * sizeof(int)))

/*
 * Everything a drain needs, allocated once: nslogd's memory is this and
 * does not grow with the backlog, which stays in the socket (and, once
 * that is full, in the writers).
 */
struct nslogd_writer {
	int fd;
	nslogd_logcred_fn *logcred;
	unsigned int batches_per_wake;	/* NSLOGD_BATCHES_PER_WAKE */
	struct mmsghdr msgs[NSLOGD_BATCH];
	struct iovec iov[NSLOGD_BATCH];
	union {
		struct cmsghdr align;
		unsigned char buf[NSLOGD_CTL_SIZE];
	} ctl[NSLOGD_BATCH];
	unsigned char data[NSLOGD_BATCH][NSLOGD_MAX_DGRAM];
};

void nslogd_writer_init(struct nslogd_writer *w, int fd,
			nslogd_logcred_fn *logcred);
int nslogd_writer_drain(struct nslogd_writer *w, struct nslogd_store *s,
			struct nslogd_stats *st, int64_t now_ns);
void nslogd_writer_take(struct nslogd_writer *w, struct msghdr *msg,
			size_t n, struct nslogd_store *s,
			struct nslogd_stats *st, int64_t now_ns);

#endif /* NSLOGD_WRITER_H */
