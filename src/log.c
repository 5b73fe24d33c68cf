// SPDX-License-Identifier: GPL-2.0
/*
 * nslogger: logs.
 *
 * A log is a ring plus the readers waiting on it.  Its storage is allocated
 * on the first write, charged to the writer's memory cgroup, so a set that
 * is only opened costs a few hundred bytes.  A log knows its set (logset.c)
 * only to hand it to its users: nothing here looks into a set, so the sets
 * and their streams (stream.c) sit above the logs, never beside them.
 */

#include <linux/atomic.h>
#include <linux/cred.h>
#include <linux/log2.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/pid.h>
#include <linux/poll.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>
#include <linux/uio.h>
#include <linux/vmalloc.h>

#include <uapi/linux/nslogger.h>

#include "log.h"
#include "ratelimit/ratelimit.h"

const char *const nslog_log_names[NSLOG_NR_LOGS] = {
	[NSLOG_LOG_MAIN]	= "main",
	[NSLOG_LOG_EVENTS]	= "events",
	[NSLOG_LOG_RADIO]	= "radio",
	[NSLOG_LOG_SYSTEM]	= "system",
};

/* Android's LOG_ID_* of each log, as nslogger's own header reports it. */
const u32 nslog_log_android_ids[NSLOG_NR_LOGS] = {
	[NSLOG_LOG_MAIN]	= 0,
	[NSLOG_LOG_RADIO]	= 1,
	[NSLOG_LOG_EVENTS]	= 2,
	[NSLOG_LOG_SYSTEM]	= 3,
};

static int nslog_param_set_size(const char *val, const struct kernel_param *kp)
{
	unsigned long long size;
	char *end;

	size = memparse(val, &end);
	if (*end == '\n')
		end++;
	if (end == val || *end || !is_power_of_2(size) ||
	    size < NSLOG_RING_MIN_SIZE || size > NSLOG_RING_MAX_SIZE) {
		pr_err("nslogger: %s=%s: a log size is a power of two from %uK to %uM, e.g. 256K\n",
		       kp->name, val, NSLOG_RING_MIN_SIZE >> 10,
		       NSLOG_RING_MAX_SIZE >> 20);
		return -EINVAL;
	}
	*(u32 *)kp->arg = size;
	return 0;
}

static int nslog_param_get_size(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%u\n", *(u32 *)kp->arg);
}

/* Shared with the registry's ns_size. */
const struct kernel_param_ops nslog_log_size_ops = {
	.set = nslog_param_set_size,
	.get = nslog_param_get_size,
};

static void nslog_log_wake_fn(struct work_struct *work)
{
	struct nslog_log *log = container_of(work, struct nslog_log, wake_work);

	wake_up_interruptible_poll(&log->wait, EPOLLIN | EPOLLRDNORM);
}

/*
 * Readers are woken from a work item, not by the writer: with many readers
 * asleep a wake-up is O(readers), and the write path stays O(1).  While the
 * work is pending, further writes only see its pending bit.
 */
static void nslog_log_wake(struct nslog_log *log)
{
	/*
	 * The full barrier in wq_has_sleeper() pairs with the one in
	 * set_current_state() of a reader going to sleep (and the smp_mb()
	 * after poll_wait() in nslog_poll()): either the reader sees the new
	 * head, or this sees the reader on the queue.
	 */
	if (wq_has_sleeper(&log->wait))
		queue_work(system_percpu_wq, &log->wake_work);
}

/**
 * nslog_log_setup() - set up a log with no storage yet
 * @log: the log
 * @set: the set it belongs to; only kept, for the log's users
 * @order: where the order numbers of its records come from, shared by
 *	every log of @set
 * @id: an &enum nslog_log_id, or NSLOG_NR_LOGS for a stream
 * @size: its ring size, a power of two
 *
 * Context: process context.
 */
void nslog_log_setup(struct nslog_log *log, struct nslog_logset *set,
		     atomic64_t *order, unsigned int id, u32 size)
{
	static atomic64_t keys = ATOMIC64_INIT(0);

	/*
	 * The largest record must fit the smallest ring, or a write could
	 * never make room for it however many records it dropped.
	 */
	BUILD_BUG_ON(nslog_ring_rec_size(LOGGER_ENTRY_MAX_PAYLOAD) >
		     NSLOG_RING_MIN_SIZE);
	log->id = id;
	log->rl_key = atomic64_inc_return(&keys);
	log->gone = false;
	nslog_ring_init(&log->ring, size, order);
	init_waitqueue_head(&log->wait);
	INIT_WORK(&log->wake_work, nslog_log_wake_fn);
	log->set = set;
}

/**
 * nslog_log_teardown() - free a log's records and storage
 * @log: the log, with no file open
 *
 * Context: process context, may sleep.
 */
void nslog_log_teardown(struct nslog_log *log)
{
	/* No file is open, so no writer can queue the work again. */
	cancel_work_sync(&log->wake_work);
	vfree(nslog_ring_release(&log->ring));
}

/* Give a log its storage, charged to the caller's memory cgroup. */
static int nslog_log_alloc(struct nslog_log *log)
{
	u8 *buf;

	/*
	 * vmalloc: no high-order pages, and it shows in VmallocUsed.  The size
	 * cannot change under us while no storage is attached: a resize
	 * attaches its own, and then this attach loses the race.
	 */
	buf = __vmalloc(READ_ONCE(log->ring.size), GFP_KERNEL_ACCOUNT);
	if (!buf)
		return -ENOMEM;
	if (!nslog_ring_attach(&log->ring, buf))
		vfree(buf);
	return 0;
}

/*
 * A header for a record of the current task.  The leader of a thread group
 * is its own thread, so its records hold one pid reference, not two.
 */
static void nslog_log_stamp(struct nslog_rec *rec, u16 len, u16 flags)
{
	struct pid *tgid = task_tgid(current);
	struct pid *tid = task_pid(current);

	rec->ts_ns = ktime_get_real_ns();
	rec->tgid = get_pid(tgid);
	rec->tid = tid == tgid ? NULL : get_pid(tid);
	rec->euid = current_euid();
	rec->len = len;
	rec->flags = flags;
}

static void nslog_log_unstamp(struct nslog_rec *rec)
{
	put_pid(rec->tgid);
	put_pid(rec->tid);
}

/* Store a record whose payload is in kernel memory. */
static void nslog_log_store(struct nslog_log *log, const void *payload,
			    u16 len, u16 flags)
{
	struct nslog_rec rec;

	nslog_log_stamp(&rec, len, flags);
	nslog_ring_write(&log->ring, &rec, payload);
}

/*
 * Store a record whose payload is the next @len bytes of @from, copied
 * straight into the ring.  The copy runs under the ring lock, so with page
 * faults disabled: a page that is not there makes it come up short, and the
 * reserved room is given up with nothing published.
 *
 * Return: 0, or -EFAULT if the copy came up short; @from is then as it was.
 */
static int nslog_log_store_iter(struct nslog_log *log, struct iov_iter *from,
				u16 len)
{
	struct nslog_ring_span span;
	struct nslog_rec rec;
	size_t copied;

	nslog_log_stamp(&rec, len, 0);
	nslog_ring_reserve(&log->ring, len, &span);
	pagefault_disable();
	copied = copy_from_iter(span.buf[0], span.len[0], from);
	if (copied == span.len[0] && span.len[1])
		copied += copy_from_iter(span.buf[1], span.len[1], from);
	pagefault_enable();
	if (likely(copied == len)) {
		nslog_ring_commit(&log->ring, &rec);
		return 0;
	}
	nslog_ring_abort(&log->ring);
	iov_iter_revert(from, copied);
	nslog_log_unstamp(&rec);
	return -EFAULT;
}

/*
 * The slow way, for when the buffer was faulted in but a page went away
 * again before the copy (reclaim, or another thread unmapping it): copy it
 * to a bounce buffer, where faults may sleep, then into the ring.
 */
static int nslog_log_store_bounce(struct nslog_log *log,
				  struct iov_iter *from, u16 len)
{
	u8 *buf;
	int err = 0;

	buf = kmalloc(len, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	if (copy_from_iter_full(buf, len, from))
		nslog_log_store(log, buf, len, 0);
	else
		err = -EFAULT;
	kfree(buf);
	return err;
}

/*
 * The head of a string event in the events log: the tag, the type byte and
 * the string's length, then the string itself (no NUL), all little-endian
 * and unaligned, as Android's event log lays them out.
 */
struct nslog_event_string {
	__le32 tag;
	u8 type;
	__le32 len;
	char str[];
} __packed;

/*
 * The tag of a notice in a text log, whose records are the priority byte,
 * then the tag and the message, each NUL-terminated.
 */
#define NSLOG_NOTICE_TAG	"nslogger"

/* The largest notice record: a text log's, one byte longer than an event. */
#define NSLOG_NOTICE_REC_MAX	(1 + sizeof(NSLOG_NOTICE_TAG) + \
				 NSLOG_RL_NOTICE_MAX)

/*
 * Report a rate limit's drops, in the log they happened in, before the
 * record that passed: a text record for the text logs, a string event with
 * tag NSLOG_EVENT_TAG_SUPPRESSED for the events log.
 *
 * Built on the stack, not allocated: the drops were taken from their rule
 * when the notice was handed out, so a notice that could not be stored
 * would lose them, and a notice is short (NSLOG_RL_NOTICE_MAX).  Nothing
 * here can fail, so every drop handed out is reported exactly once.
 */
static void nslog_log_store_notice(struct nslog_log *log,
				   const struct nslog_rl_notice *notice)
{
	u8 buf[NSLOG_NOTICE_REC_MAX] __aligned(8);
	size_t len;

	BUILD_BUG_ON(sizeof(struct nslog_event_string) + NSLOG_RL_NOTICE_MAX >
		     NSLOG_NOTICE_REC_MAX);
	BUILD_BUG_ON(NSLOG_NOTICE_REC_MAX > LOGGER_ENTRY_MAX_PAYLOAD);
	if (log->id == NSLOG_LOG_EVENTS) {
		struct nslog_event_string *ev = (void *)buf;
		int slen;

		slen = nslog_rl_format_notice(notice, ev->str,
					      sizeof(buf) - sizeof(*ev));
		ev->tag = cpu_to_le32(NSLOG_EVENT_TAG_SUPPRESSED);
		ev->type = NSLOG_EVENT_STRING;
		ev->len = cpu_to_le32(slen);
		len = sizeof(*ev) + slen;
	} else {
		buf[0] = NSLOG_PRIO_WARN;
		len = 1;
		memcpy(buf + len, NSLOG_NOTICE_TAG, sizeof(NSLOG_NOTICE_TAG));
		len += sizeof(NSLOG_NOTICE_TAG);
		/* The message and its NUL. */
		len += nslog_rl_format_notice(notice, buf + len,
					      sizeof(buf) - len) + 1;
	}
	nslog_log_store(log, buf, len, NSLOG_REC_KERNEL);
}

/**
 * nslog_log_write() - store one record from the current task
 * @log: the log
 * @from: the payload, in user or kernel memory
 * @len: how many bytes of @from make the payload, 1 to
 *	LOGGER_ENTRY_MAX_PAYLOAD
 *
 * Stamps the record with the caller's thread group, thread, effective uid
 * and the time; none of them comes from the writer's data.  The record is
 * charged to the caller's cgroups (src/ratelimit/) before it is stored.
 *
 * The payload is faulted in before anything else: a buffer that cannot be
 * read is refused with -EFAULT before the rate limit is charged or the ring
 * touched.  Only if a page is taken away again after that, by reclaim or by
 * another thread of the writer, can room made for the record (records
 * dropped at the tail) be spent on a write that then fails.
 *
 * Context: process context, may sleep (the first write allocates).
 * Return: @len, also when a rate limit dropped the record, unless
 * drop_errno is set (then -EAGAIN); -EFAULT if the payload cannot be read;
 * or -ENOMEM if the log's storage could not be allocated.
 */
ssize_t nslog_log_write(struct nslog_log *log, struct iov_iter *from, u16 len)
{
	struct nslog_rl_notice notice = { };
	int err;

	if (fault_in_iov_iter_readable(from, len))
		return -EFAULT;

	/*
	 * The storage is set under the ring lock, replaced only by a resize and
	 * freed with the log; the ring uses it only under the lock.  It comes
	 * before the charge, so that a write failing here neither
	 * spends credit nor takes a notice of drops that then goes unwritten.
	 */
	if (unlikely(!READ_ONCE(log->ring.buf))) {
		err = nslog_log_alloc(log);
		if (err)
			return err;
	}

	if (nslog_rl_charge(log->rl_key, len, &notice))
		return nslog_rl_drop_fails() ? -EAGAIN : len;

	if (unlikely(notice.records)) {
		nslog_log_store_notice(log, &notice);
		nslog_rl_notice_done(&notice);
	}
	err = nslog_log_store_iter(log, from, len);
	if (unlikely(err))
		err = nslog_log_store_bounce(log, from, len);
	if (err)
		return err;
	nslog_log_wake(log);
	return len;
}

/*
 * Store a relayed record: its claims, then the next @rec->len - sizeof(*rel)
 * bytes of @from, copied straight into the ring as nslog_log_store_iter()
 * copies a write's, with page faults disabled under the ring lock.
 *
 * Return: 0, or -EFAULT if the copy came up short; @from is then as it was
 * and @rec still holds its references.
 */
static int nslog_log_store_relay_iter(struct nslog_log *log,
				      struct nslog_rec *rec,
				      const struct nslog_rec_relay *rel,
				      struct iov_iter *from)
{
	size_t n = sizeof(*rel), len = rec->len - n, first, copied;
	struct nslog_ring_span span;

	nslog_ring_reserve(&log->ring, rec->len, &span);
	/* The claims, which the end of the ring may cut in two ... */
	first = min_t(size_t, n, span.len[0]);
	memcpy(span.buf[0], rel, first);
	memcpy(span.buf[1], (const u8 *)rel + first, n - first);
	/* ... then the payload, after them. */
	pagefault_disable();
	if (first < n) {
		copied = copy_from_iter(span.buf[1] + n - first, len, from);
	} else {
		copied = copy_from_iter(span.buf[0] + n, span.len[0] - n, from);
		if (copied == span.len[0] - n && span.len[1])
			copied += copy_from_iter(span.buf[1], span.len[1],
						 from);
	}
	pagefault_enable();
	if (likely(copied == len)) {
		nslog_ring_commit(&log->ring, rec);
		return 0;
	}
	nslog_ring_abort(&log->ring);
	iov_iter_revert(from, copied);
	return -EFAULT;
}

/* As nslog_log_store_bounce(), for a relayed record. */
static int nslog_log_store_relay_bounce(struct nslog_log *log,
					struct nslog_rec *rec,
					const struct nslog_rec_relay *rel,
					struct iov_iter *from)
{
	size_t n = sizeof(*rel);
	u8 *buf;

	buf = kmalloc(rec->len, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	memcpy(buf, rel, n);
	if (!copy_from_iter_full(buf + n, rec->len - n, from)) {
		kfree(buf);
		return -EFAULT;
	}
	nslog_ring_write(&log->ring, rec, buf);
	kfree(buf);
	return 0;
}

/**
 * nslog_log_store_for() - store a relayed record for another task
 * @log: the log
 * @charged: whose cgroups pay for the record, held by the caller: the
 *	writer a relay named, or the relay itself (src/relay.c)
 * @rec: the header, stamped by the caller (NSLOG_REC_RELAY); the
 *	references in @rec->tgid and @rec->tid are taken over, also on failure
 * @rel: the claims stored before the payload
 * @from: the payload, @rec->len - sizeof(*@rel) bytes, faulted in by the
 *	caller
 *
 * As nslog_log_write(), but the identity is the caller's to stamp and the
 * charge goes to @charged.  The payload is copied once, from @from into
 * the ring.
 *
 * Context: process context, may sleep (the first write allocates).
 * Return: 0, -EAGAIN if a rate limit dropped the record, -EFAULT if the
 * payload could not be read after all, or -ENOMEM.
 */
int nslog_log_store_for(struct nslog_log *log, struct task_struct *charged,
			struct nslog_rec *rec, const struct nslog_rec_relay *rel,
			struct iov_iter *from)
{
	struct nslog_rl_notice notice = { };
	/* The payload is charged, as for write(), not what a relay adds. */
	u16 len = rec->len - sizeof(*rel);
	int err = 0;

	if (unlikely(!READ_ONCE(log->ring.buf)))
		err = nslog_log_alloc(log);
	if (!err && nslog_rl_charge_task(charged, log->rl_key, len, &notice))
		err = -EAGAIN;
	if (err)
		goto out_unstamp;
	if (unlikely(notice.records)) {
		nslog_log_store_notice(log, &notice);
		nslog_rl_notice_done(&notice);
	}
	err = nslog_log_store_relay_iter(log, rec, rel, from);
	if (unlikely(err))
		err = nslog_log_store_relay_bounce(log, rec, rel, from);
	if (err)
		goto out_unstamp;
	nslog_log_wake(log);
	return 0;

out_unstamp:
	nslog_log_unstamp(rec);
	return err;
}

/**
 * nslog_log_flush() - drop every record of a log
 * @log: the log
 *
 * Context: process context, may sleep.
 */
void nslog_log_flush(struct nslog_log *log)
{
	nslog_ring_flush(&log->ring);
}

/**
 * nslog_log_fit_size() - check a ring size a log may have
 * @limit: the largest size allowed, in bytes (its set's, which the caller
 *	reads: nslog_logset_fit_size())
 * @size: in: the size asked for, in bytes; out: rounded up to a power of two
 *
 * Context: any.
 * Return: 0, -EINVAL below NSLOG_RING_MIN_SIZE, -EFBIG above @limit or
 * NSLOG_RING_MAX_SIZE.
 */
int nslog_log_fit_size(u32 limit, u32 *size)
{
	limit = min(limit, NSLOG_RING_MAX_SIZE);
	if (*size < NSLOG_RING_MIN_SIZE)
		return -EINVAL;
	if (*size > limit)
		return -EFBIG;
	*size = roundup_pow_of_two(*size);
	return *size > limit ? -EFBIG : 0;
}

/**
 * nslog_log_resize() - give a log another ring size, keeping what fits
 * @log: the log
 * @size: the size asked for, in bytes; rounded up to a power of two
 * @limit: the largest size allowed, as for nslog_log_fit_size()
 *
 * The caller has checked the caller's right to do it.  The new storage is
 * charged to the caller's memory cgroup, like a first write's.
 *
 * Context: process context, may sleep.
 * Return: 0, -EINVAL below NSLOG_RING_MIN_SIZE, -EFBIG above @limit, or
 * -ENOMEM.
 */
int nslog_log_resize(struct nslog_log *log, u32 size, u32 limit)
{
	u8 *buf;
	int err;

	err = nslog_log_fit_size(limit, &size);
	if (err)
		return err;
	buf = __vmalloc(size, GFP_KERNEL_ACCOUNT);
	if (!buf)
		return -ENOMEM;
	vfree(nslog_ring_resize(&log->ring, buf, size));
	return 0;
}

