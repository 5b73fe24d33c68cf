/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nslogger: the rules of ratelimit.c and the charging walk, for ratelimit.c
 * and its KUnit suite only.
 */
#ifndef _NSLOG_RL_RULE_H
#define _NSLOG_RL_RULE_H

#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/types.h>

#include "bucket.h"
#include "log.h"
#include "ratelimit.h"

struct cgroup;

/* The most buckets one record is charged to: the deepest ones on its path. */
#define NSLOG_RL_MAX_PATH	16

/**
 * struct nslog_rl_limit - a limit as the administrator gave it
 * @records: N of "records=N/P", 0 for no record limit
 * @records_period_ns: P
 * @records_burst: B, N unless given
 * @bytes: N of "bytes=N/P", 0 for no byte limit
 * @bytes_period_ns: P
 * @bytes_burst: B, N unless given
 */
struct nslog_rl_limit {
	u64 records;
	u64 records_period_ns;
	u64 records_burst;
	u64 bytes;
	u64 bytes_period_ns;
	u64 bytes_burst;
};

/*
 * The most logs one bucket keeps unreported drops for at once.  Writers in
 * several IPC namespaces can share a cgroup's bucket, and each set's drops
 * are reported in that set only; past this many logs with drops pending,
 * the oldest slot's count is given up (it stays in the bucket's totals).
 */
#define NSLOG_RL_PENDING	8

/**
 * struct nslog_rl_pending - drops a bucket has not reported in one log
 * @log: the log's nslog_log.rl_key
 * @records: records dropped; 0 marks the slot free
 * @bytes: their payload bytes
 */
struct nslog_rl_pending {
	u64 log;
	u64 records;
	u64 bytes;
};

/**
 * struct nslog_rl_rule - the bucket of one cgroup
 * @node: in nslog_rl_table
 * @gc: on a private list while being freed
 * @cgrp: the cgroup, a counted reference
 * @id: cgroup_id(@cgrp)
 * @dynamic: made from the default, not set by an administrator
 * @limit: what it was set to
 * @lock: protects everything below
 * @last_ns: time of the last refill; only moves forward
 * @rec: the records dimension
 * @bytes: the bytes dimension
 * @accepted: records that passed this bucket
 * @accepted_bytes: their bytes
 * @dropped: records this bucket refused
 * @dropped_bytes: their bytes
 * @npending: slots of @pending in use
 * @evict: the slot to reuse next when all are in use
 * @pending: drops not yet reported, per log
 */
struct nslog_rl_rule {
	struct hlist_node node;
	struct list_head gc;
	struct cgroup *cgrp;
	u64 id;
	bool dynamic;
	struct nslog_rl_limit limit;
	/* the buckets and counters */
	spinlock_t lock;
	u64 last_ns;
	struct nslog_rl_tb rec;
	struct nslog_rl_tb bytes;
	u64 accepted;
	u64 accepted_bytes;
	u64 dropped;
	u64 dropped_bytes;
	unsigned int npending;
	unsigned int evict;
	struct nslog_rl_pending pending[NSLOG_RL_PENDING];
};

bool nslog_rl_rule_take(struct nslog_rl_rule *r, u64 now, size_t len,
			u64 log, struct nslog_rl_notice *notice);
void nslog_rl_rule_give(struct nslog_rl_rule *r, size_t len, u64 log,
			struct nslog_rl_notice *notice);
u64 nslog_rl_rule_pending(struct nslog_rl_rule *r, u64 log, u64 *bytes);
int nslog_rl_parse_limit(char *args, struct nslog_rl_limit *l);

/**
 * nslog_rl_charge_path() - charge one record to the buckets on its path
 * @rule_at: the rule of the path's cgroup at a level, or NULL for none
 * @path: what @rule_at looks at
 * @own: the level of the writer's cgroup
 * @now: the time, for the refills
 * @log: the nslog_log.rl_key of the log the record goes to
 * @len: its payload length
 * @notice: as for nslog_rl_charge()
 *
 * The charging walk of nslog_rl_charge() without the cgroups, so that KUnit
 * can hand it rules of its own.  @rule_at is asked once per level, from @own
 * up to the root at level 0, and the buckets it gives are charged in that
 * order, deepest first.  The first one that refuses keeps the drop (its
 * dropped and pending counts); what the buckets below it took is given back
 * to exactly those buckets, a notice one of them handed out included, so
 * nothing depends on finding them again.  Only the NSLOG_RL_MAX_PATH deepest
 * buckets on a path are charged.
 *
 * Always inlined: in nslog_rl_charge(), @rule_at is a direct call.
 *
 * Context: in an RCU read-side critical section that keeps the rules
 * @rule_at gives valid; takes each rule's lock in turn.
 * Return: 0 if every bucket let the record through, -EAGAIN if one refused.
 */
static __always_inline int
nslog_rl_charge_path(struct nslog_rl_rule *(*rule_at)(const void *path,
						      int level),
		     const void *path, int own, u64 now, u64 log, size_t len,
		     struct nslog_rl_notice *notice)
{
	struct nslog_rl_rule *taken[NSLOG_RL_MAX_PATH];
	struct nslog_rl_rule *r;
	unsigned int n = 0, i;
	int level;

	for (level = own; level >= 0 && n < NSLOG_RL_MAX_PATH; level--) {
		r = rule_at(path, level);
		if (!r)
			continue;
		if (!nslog_rl_rule_take(r, now, len, log, notice)) {
			for (i = 0; i < n; i++)
				nslog_rl_rule_give(taken[i], len, log, notice);
			return -EAGAIN;
		}
		taken[n++] = r;
	}
	return 0;
}

#endif /* _NSLOG_RL_RULE_H */
