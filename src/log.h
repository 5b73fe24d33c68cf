/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _NSLOG_LOG_H
#define _NSLOG_LOG_H

#include <linux/atomic.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/moduleparam.h>
#include <linux/refcount.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include "ring.h"

struct iov_iter;
struct task_struct;
struct user_namespace;

/* The four logs of a set, in the order of the devices. */
enum nslog_log_id {
	NSLOG_LOG_MAIN,
	NSLOG_LOG_EVENTS,
	NSLOG_LOG_RADIO,
	NSLOG_LOG_SYSTEM,
	NSLOG_NR_LOGS,
};

struct nslog_logset;

/**
 * struct nslog_log - one log: a ring and the readers waiting on it
 * @ring: the records; storage is attached on the first write
 * @wait: readers blocked in read() or poll()
 * @wake_work: wakes @wait outside the write path
 * @set: the set this log belongs to (logset.h); never looked into here
 * @id: which of the set's logs this is, an &enum nslog_log_id
 * @rl_key: names this log to the rate limits (src/ratelimit/), which keep
 *	drops to report per log; unique and never reused while the module
 *	is loaded
 * @gone: a stream removed from its set (src/stream.c): readers that have
 *	read everything get end of file; set once, read locklessly
 */
struct nslog_log {
	struct nslog_ring ring;
	wait_queue_head_t wait;
	struct work_struct wake_work;
	struct nslog_logset *set;
	unsigned int id;
	u64 rl_key;
	bool gone;
};

extern const char *const nslog_log_names[NSLOG_NR_LOGS];
extern const u32 nslog_log_android_ids[NSLOG_NR_LOGS];
extern const struct kernel_param_ops nslog_log_size_ops;

void nslog_log_setup(struct nslog_log *log, struct nslog_logset *set,
		     atomic64_t *order, unsigned int id, u32 size);
void nslog_log_teardown(struct nslog_log *log);
int nslog_log_fit_size(u32 limit, u32 *size);
ssize_t nslog_log_write(struct nslog_log *log, struct iov_iter *from, u16 len);
int nslog_log_store_for(struct nslog_log *log, struct task_struct *charged,
			struct nslog_rec *rec, const struct nslog_rec_relay *rel,
			struct iov_iter *from);
void nslog_log_flush(struct nslog_log *log);
int nslog_log_resize(struct nslog_log *log, u32 size, u32 limit);

#endif /* _NSLOG_LOG_H */
