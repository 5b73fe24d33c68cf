// SPDX-License-Identifier: GPL-2.0
/*
 * writer: logdw, the writers' socket.
 *
 * One datagram is one record. nslogd reads them NSLOGD_BATCH at a time
 * with recvmmsg(), each into its own fixed buffer with room for the
 * largest valid datagram, so a longer one comes back with MSG_TRUNC and
 * is refused as oversized. Each is checked (dgram.c), stored (store.c)
 * and counted (stats.c) before the next batch is read. Nothing here
 * blocks: the socket is non-blocking and the relay ioctl drops rather
 * than waits, so writers are held up only as long as nslogd takes to
 * store what came before.
 *
 * A writer may attach fds (SCM_RIGHTS) to a datagram; the kernel installs
 * them in nslogd. They are closed unread, so no writer can fill nslogd's
 * fd table.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "writer.h"

/**
 * nslogd_writer_init() - a writer drain on the logdw socket
 * @w: the state, allocated once by the caller
 * @fd: the logdw socket: non-blocking, SO_PASSCRED on
 * @logcred: nslogd_logcred(), or the tests' stand-in
 *
 * Context: any.
 */
void nslogd_writer_init(struct nslogd_writer *w, int fd,
			nslogd_logcred_fn *logcred)
{
	unsigned int i;

	memset(w, 0, sizeof(*w));
	w->fd = fd;
	w->logcred = logcred;
	w->batches_per_wake = NSLOGD_BATCHES_PER_WAKE;
	for (i = 0; i < NSLOGD_BATCH; i++) {
		w->iov[i].iov_base = w->data[i];
		w->iov[i].iov_len = sizeof(w->data[i]);
		w->msgs[i].msg_hdr.msg_iov = &w->iov[i];
		w->msgs[i].msg_hdr.msg_iovlen = 1;
	}
}

/* The credentials, if any; every fd passed is closed. */
static const struct ucred *take_cmsgs(struct msghdr *msg,
				      struct nslogd_stats *st)
{
	const struct ucred *cred = NULL;
	struct cmsghdr *c;

	for (c = CMSG_FIRSTHDR(msg); c; c = CMSG_NXTHDR(msg, c)) {
		if (c->cmsg_level != SOL_SOCKET)
			continue;
		if (c->cmsg_type == SCM_CREDENTIALS &&
		    c->cmsg_len >= CMSG_LEN(sizeof(*cred))) {
			cred = (const struct ucred *)CMSG_DATA(c);
		} else if (c->cmsg_type == SCM_RIGHTS) {
			size_t i, nfd = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
			int fd;

			for (i = 0; i < nfd; i++) {
				memcpy(&fd, CMSG_DATA(c) + i * sizeof(int),
				       sizeof(fd));
				close(fd);
				st->fds_closed++;
			}
		}
	}
	return cred;
}

/**
 * nslogd_writer_take() - check, store and count one received datagram
 * @w: the writer state (its credential check)
 * @msg: the datagram's header as recvmsg() or recvmmsg() filled it in
 * @n: the bytes received
 * @s: the store
 * @st: the counters
 * @now_ns: the time, for the store's retries
 *
 * Context: process; one ioctl for an accepted record of logs 0 to 3.
 */
void nslogd_writer_take(struct nslogd_writer *w, struct msghdr *msg,
			size_t n, struct nslogd_store *s,
			struct nslogd_stats *st, int64_t now_ns)
{
	const struct ucred *cred = take_cmsgs(msg, st);
	struct nslogd_record rec;
	enum nslogd_verdict v;
	enum nslogd_store_result r;
	int err;

	v = nslogd_dgram_parse(msg->msg_iov[0].iov_base, n,
			       msg->msg_flags & MSG_TRUNC, cred, w->logcred,
			       &rec);
	nslogd_stats_refused(st, v, cred ? cred->pid : 0);
	if (v != NSLOGD_DGRAM_OK)
		return;
	r = nslogd_store_put(s, &rec, now_ns, &err);
	nslogd_stats_result(st, rec.log_id, r, err);
}

/**
 * nslogd_writer_drain() - read and store what is waiting on logdw
 * @w: the writer state
 * @s: the store
 * @st: the counters
 * @now_ns: the time, for the store's retries
 *
 * Reads up to @w->batches_per_wake batches, then returns so that the
 * other sockets are served; poll() reports logdw again if more is queued.
 *
 * Context: process; does not block.
 * Return: datagrams read, or -errno of a receive error other than
 * EAGAIN and EINTR.
 */
int nslogd_writer_drain(struct nslogd_writer *w, struct nslogd_store *s,
			struct nslogd_stats *st, int64_t now_ns)
{
	unsigned int b, i;
	int total = 0, got;

	for (b = 0; b < w->batches_per_wake; b++) {
		for (i = 0; i < NSLOGD_BATCH; i++) {
			struct msghdr *h = &w->msgs[i].msg_hdr;

			h->msg_control = w->ctl[i].buf;
			h->msg_controllen = sizeof(w->ctl[i].buf);
			h->msg_flags = 0;
			h->msg_name = NULL;
			h->msg_namelen = 0;
		}
		got = recvmmsg(w->fd, w->msgs, NSLOGD_BATCH,
			       MSG_DONTWAIT | MSG_CMSG_CLOEXEC, NULL);
		if (got < 0) {
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				break;
			if (errno == EINTR)
				continue;
			return -errno;
		}
		for (i = 0; i < (unsigned int)got; i++)
			nslogd_writer_take(w, &w->msgs[i].msg_hdr,
					   w->msgs[i].msg_len, s, st, now_ns);
		total += got;
		if (got < NSLOGD_BATCH)
			break;
	}
	return total;
}
