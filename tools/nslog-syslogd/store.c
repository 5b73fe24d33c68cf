// SPDX-License-Identifier: GPL-2.0
/*
 * store: each record into its sender's own log set.
 *
 * The kernel decides whose record it is (docs/abi.md, NSLOG_IOC_RELAY):
 * given the sender's pid, as SCM_CREDENTIALS named it in the listener's
 * pid namespace, it finds the process, stamps its pid and euid, and
 * charges its cgroups.  What the listener decides is which set, and that
 * depends on the socket the message came on:
 *
 *   socket	first call			and if that fails
 *   tied	the socket's set's fd,		-EPERM (the sender lives in
 *		KEEP_EXITED			another IPC namespace): again
 *						with WRITER_SET: its own set
 *   writers	the listener's fd, WRITER_SET	-ESRCH (the sender is gone, so
 *		| KEEP_EXITED			its set is unknown): again with
 *						KEEP_EXITED alone: the
 *						listener's own set, unverified
 *
 * A sender that is gone by the time its message is read is the case a
 * tied socket is for: the kernel cannot look at it, but the socket says
 * which container it was in, and KEEP_EXITED stores the record there with
 * the pid and uid of its credentials, marked unverified (and charged to
 * the listener, docs/security.md).  On a socket shared by several sets
 * the same message can only be kept in the listener's own set: that is
 * the one case a record lands outside its sender's set, and it is counted
 * as unattributed.
 */
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>

#include "store.h"

static const char *const result_names[NSLOG_SL_RESULTS] = {
	[NSLOG_SL_STORED]	= "stored",
	[NSLOG_SL_ELSEWHERE]	= "elsewhere",
	[NSLOG_SL_UNATTRIBUTED]	= "unattributed",
	[NSLOG_SL_DROPPED]	= "dropped",
	[NSLOG_SL_FAILED]	= "failed",
};

/**
 * nslog_sl_result_name() - the word the counters use for a result
 * @r: a result
 *
 * Context: any.
 * Return: a static string, "?" for a value out of range.
 */
const char *nslog_sl_result_name(enum nslog_sl_result r)
{
	if ((unsigned int)r >= NSLOG_SL_RESULTS)
		return "?";
	return result_names[r];
}

/**
 * nslog_sl_relay_ioctl() - NSLOG_IOC_RELAY itself
 * @fd: a file of a log of the set
 * @relay: the record and its writer
 *
 * Context: a system call; does not block (a rate limit drops, not waits).
 * Return: the payload length, or -errno.
 */
int nslog_sl_relay_ioctl(int fd, const struct nslog_relay *relay)
{
	int r = ioctl(fd, NSLOG_IOC_RELAY, relay);

	return r < 0 ? -errno : r;
}

static int relay(const struct nslog_sl_store *st, int fd,
		 const struct nslog_sl_put *p, uint32_t flags)
{
	struct nslog_relay r;

	memset(&r, 0, sizeof(r));
	r.pid = p->cred->pid;
	r.uid = p->cred->uid;
	r.tid = p->tid > 0 ? p->tid : 0;
	r.log_id = 0;		/* main */
	r.time_ns = p->time_ns;
	r.flags = flags;
	r.len = (uint32_t)p->len;
	r.payload = (uint64_t)(uintptr_t)p->payload;
	return st->relay(fd, &r);
}

/**
 * nslog_sl_store_put() - store one record as its sender's
 * @st: the store
 * @how: how the socket it came on finds its set
 * @fd: for NSLOG_SL_TIED, a file of the socket's set; else ignored
 * @p: the record and its sender
 * @err: set to the errno of NSLOG_SL_FAILED, else 0
 *
 * Context: process; one ioctl, two when the table above says so.
 * Return: what became of the record.
 */
enum nslog_sl_result nslog_sl_store_put(const struct nslog_sl_store *st,
					enum nslog_sl_attach how, int fd,
					const struct nslog_sl_put *p,
					int *err)
{
	enum nslog_sl_result ok = NSLOG_SL_STORED;
	int ret;

	*err = 0;
	if (!p->cred || p->cred->pid <= 0) {
		*err = ESRCH;
		return NSLOG_SL_FAILED;
	}
	if (how == NSLOG_SL_TIED) {
		ret = relay(st, fd, p, NSLOG_RELAY_KEEP_EXITED);
		if (ret == -EPERM) {
			ok = NSLOG_SL_ELSEWHERE;
			ret = relay(st, fd, p, NSLOG_RELAY_WRITER_SET);
		}
	} else {
		ret = relay(st, st->own_fd, p,
			    NSLOG_RELAY_WRITER_SET | NSLOG_RELAY_KEEP_EXITED);
		if (ret == -ESRCH) {
			ok = NSLOG_SL_UNATTRIBUTED;
			ret = relay(st, st->own_fd, p, NSLOG_RELAY_KEEP_EXITED);
		}
	}
	if (ret >= 0)
		return ok;
	if (ret == -EAGAIN)
		return NSLOG_SL_DROPPED;
	*err = -ret;
	return NSLOG_SL_FAILED;
}
