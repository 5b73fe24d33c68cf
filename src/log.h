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
 * @set: the set this log belongs to
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

/**
 * struct nslog_logset - the four logs one IPC namespace writes to
 * @ref: open files and the owner each hold one
 * @user_ns: the user namespace whose CAP_SYSLOG may read all and flush
 * @release: frees the set once it is destroyed; NULL for a static set
 * @id: never the same for two sets while the machine runs (a random start
 *	at module load, then one more for each set)
 * @ns_id: the IPC namespace's id (its nsfs inode number)
 * @max_size: the largest ring size its logs may be given at run time (a
 *	tunable of its maker's, read with READ_ONCE())
 * @order: where the order numbers of the set's records come from
 * @dead: the namespace is gone and the registry let the set go: readers
 *	that read everything get end of file; set once, read locklessly
 * @logs: main, events, radio, system
 * @streams_lock: serialises @streams, the counts below and streams'
 *	resizes (src/stream.c)
 * @streams: the set's &struct nslog_stream, in the order they were made
 * @nr_streams: its streams that exist, removed ones still held included
 * @stream_bytes: their ring sizes, summed
 * @next_log_id: the log id of the next stream
 * @charge: counts streams and their bytes against the set's owner; NULL if
 *	nothing but the mounts' limits bound them (the host's set)
 */
struct nslog_logset {
	refcount_t ref;
	struct user_namespace *user_ns;
	void (*release)(struct nslog_logset *set);
	u64 id;
	u32 ns_id;
	const u32 *max_size;
	atomic64_t order;
	bool dead;
	struct nslog_log logs[NSLOG_NR_LOGS];
	/* the streams, made at run time */
	struct mutex streams_lock;
	struct list_head streams;
	unsigned int nr_streams;
	u64 stream_bytes;
	u32 next_log_id;
	int (*charge)(struct nslog_logset *set, int streams, s64 bytes);
};

extern const char *const nslog_log_names[NSLOG_NR_LOGS];
extern const u32 nslog_log_android_ids[NSLOG_NR_LOGS];
extern const struct kernel_param_ops nslog_log_size_ops;

void nslog_logset_init(struct nslog_logset *set,
		       struct user_namespace *user_ns, u32 ns_id,
		       const u32 sizes[NSLOG_NR_LOGS], const u32 *max_size);
void nslog_logset_kill(struct nslog_logset *set);
void nslog_logset_destroy(struct nslog_logset *set);
struct nslog_logset *nslog_logset_get_init(void);
void nslog_logset_put(struct nslog_logset *set);

/**
 * nslog_logset_get() - take another reference to a set one already holds
 * @set: the set
 *
 * Context: any.
 * Return: @set.
 */
static inline struct nslog_logset *nslog_logset_get(struct nslog_logset *set)
{
	refcount_inc(&set->ref);
	return set;
}

void nslog_log_setup(struct nslog_log *log, struct nslog_logset *set,
		     unsigned int id, u32 size);
void nslog_log_teardown(struct nslog_log *log);
int nslog_log_fit_size(struct nslog_logset *set, u32 *size);
ssize_t nslog_log_write(struct nslog_log *log, struct iov_iter *from, u16 len);
void nslog_log_flush(struct nslog_log *log);
int nslog_log_resize(struct nslog_log *log, u32 size);

int nslog_log_init(void);
void nslog_log_exit(void);

#endif /* _NSLOG_LOG_H */
