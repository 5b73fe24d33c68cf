/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nslogger: log sets (logset.c), the four logs of one IPC namespace and its
 * streams.  Above the logs (log.h) and the streams (stream.c): a set uses
 * both, neither looks for it.
 */
#ifndef _NSLOG_LOGSET_H
#define _NSLOG_LOGSET_H

#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/refcount.h>
#include <linux/types.h>

#include "log.h"

struct user_namespace;

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

void nslog_logset_init(struct nslog_logset *set,
		       struct user_namespace *user_ns, u32 ns_id,
		       const u32 sizes[NSLOG_NR_LOGS], const u32 *max_size);
void nslog_logset_kill(struct nslog_logset *set);
void nslog_logset_destroy(struct nslog_logset *set);
struct nslog_logset *nslog_logset_get_init(void);
void nslog_logset_put(struct nslog_logset *set);

int nslog_logsets_init(void);
void nslog_logsets_exit(void);

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

/**
 * nslog_logset_max_size() - the largest ring a set's logs may be given now
 * @set: the set
 *
 * Context: any.
 * Return: the set's limit (&nslog_logset.max_size), read now, so that the
 * host can lower it for sets that exist.
 */
static inline u32 nslog_logset_max_size(const struct nslog_logset *set)
{
	return READ_ONCE(*set->max_size);
}

/**
 * nslog_logset_fit_size() - check a ring size one of a set's logs may have
 * @set: the set
 * @size: as for nslog_log_fit_size()
 *
 * Context: any.
 * Return: as nslog_log_fit_size() with the set's limit.
 */
static inline int nslog_logset_fit_size(const struct nslog_logset *set,
					u32 *size)
{
	return nslog_log_fit_size(nslog_logset_max_size(set), size);
}

#endif /* _NSLOG_LOGSET_H */
