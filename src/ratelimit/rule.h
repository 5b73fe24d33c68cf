/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nslogger: one rate-limit bucket, the rule of one cgroup (rule.c; its
 * refill and take are here, inline, for the charging walk), and the drops
 * it has yet to report (notice.c).
 */
#ifndef _NSLOG_RL_RULE_H
#define _NSLOG_RL_RULE_H

#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/types.h>

#include "bucket.h"
#include "ratelimit.h"

struct cgroup;

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
 * struct nslog_rl_pending - what a bucket has to report in one log
 * @log: the log's nslog_log.rl_key
 * @records: records dropped since the last notice; 0 if none
 * @bytes: their payload bytes
 * @noticed_ns: when the last notice in this log was handed out, 0 never
 *
 * A slot is in use while it has drops, or while a notice went out less
 * than notice_interval_ms ago (the next one must wait for it).
 */
struct nslog_rl_pending {
	u64 log;
	u64 records;
	u64 bytes;
	u64 noticed_ns;
};

/**
 * enum nslog_rl_kind - where a bucket comes from
 * @NSLOG_RL_RULE: set by the administrator for its cgroup
 * @NSLOG_RL_DEFAULT: made from default_limit, for a cgroup at
 *	default_level (or a shallower writer's own)
 * @NSLOG_RL_OVERFLOW: the one bucket, with no cgroup, of writers whose
 *	default bucket could not be made
 */
enum nslog_rl_kind {
	NSLOG_RL_RULE,
	NSLOG_RL_DEFAULT,
	NSLOG_RL_OVERFLOW,
};

/**
 * struct nslog_rl_rule - a bucket: the rule of one cgroup
 * @node: in the rule table (table.c)
 * @gc: on a private list while being freed
 * @cgrp: the cgroup, a counted reference; NULL for the overflow bucket
 * @id: cgroup_id(@cgrp)
 * @kind: an &enum nslog_rl_kind; changes from default to rule when the
 *	administrator sets one, read locklessly by the walk
 * @limit: what it was set to
 * @lock: protects everything below
 * @last_ns: time of the last refill; only moves forward
 * @rec: the records dimension
 * @bytes: the bytes dimension
 * @accepted: records that passed this bucket
 * @accepted_bytes: their bytes
 * @dropped: records this bucket refused
 * @dropped_bytes: their bytes
 * @evict: the slot to reuse next when all are in use
 * @pending: drops not yet reported, per log
 */
struct nslog_rl_rule {
	struct hlist_node node;
	struct list_head gc;
	struct cgroup *cgrp;
	u64 id;
	int kind;
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
	unsigned int evict;
	struct nslog_rl_pending pending[NSLOG_RL_PENDING];
};

/**
 * struct nslog_rl_stats - a rule's state, as the listing shows it
 * @limit: as set
 * @accepted: see &struct nslog_rl_rule
 * @accepted_bytes: see &struct nslog_rl_rule
 * @dropped: see &struct nslog_rl_rule
 * @dropped_bytes: see &struct nslog_rl_rule
 * @tokens: records it would let through now, U64_MAX if unlimited
 * @byte_tokens: bytes it would let through now, U64_MAX if unlimited
 */
struct nslog_rl_stats {
	struct nslog_rl_limit limit;
	u64 accepted;
	u64 accepted_bytes;
	u64 dropped;
	u64 dropped_bytes;
	u64 tokens;
	u64 byte_tokens;
};

void nslog_rl_rule_init(struct nslog_rl_rule *r, struct cgroup *cgrp,
			int kind);
int nslog_rl_rule_apply(struct nslog_rl_rule *r,
			const struct nslog_rl_limit *l, u64 now);
void nslog_rl_rule_give(struct nslog_rl_rule *r, u64 now, size_t len,
			u64 log, struct nslog_rl_notice *notice);
void nslog_rl_rule_stats(struct nslog_rl_rule *r, u64 now,
			 struct nslog_rl_stats *st);

/*
 * notice.c: the pending slots of a rule, called with its lock held, and
 * the notice_interval_ms parameter (read with READ_ONCE()).
 */
extern unsigned int nslog_rl_notice_interval_ms;
void nslog_rl_pend(struct nslog_rl_rule *r, u64 log, u64 now, u64 records,
		   u64 bytes);
void nslog_rl_notice_take(struct nslog_rl_rule *r, u64 log, u64 now,
			  struct nslog_rl_notice *notice);
void nslog_rl_notice_return(struct nslog_rl_rule *r, u64 log, u64 now,
			    struct nslog_rl_notice *notice);

/*
 * Add to @r's buckets what they earned up to @now.  Called with @r's lock
 * held.
 */
static inline void nslog_rl_rule_refill(struct nslog_rl_rule *r, u64 now)
{
	u64 elapsed = nslog_rl_elapsed(r->last_ns, now);

	nslog_rl_tb_refill(&r->rec, elapsed);
	nslog_rl_tb_refill(&r->bytes, elapsed);
	/*
	 * Only forward: a caller that read the clock before another one got
	 * the lock must not move @last_ns back, or the next refill would
	 * count that stretch of time twice.
	 */
	if (elapsed)
		r->last_ns = now;
}

/**
 * nslog_rl_rule_take() - take one record's worth from a rule's bucket
 * @r: the rule
 * @now: the time; a time before the last refill adds nothing
 * @len: the record's payload length
 * @log: the nslog_log.rl_key of the log the record goes to
 * @notice: if empty, and @r has drops in @log to report now, they are
 *	handed out here (with a reference on @r's cgroup)
 *
 * A refusal is counted against @r, in its totals and in the drops it has
 * to report in @log.  Those are kept per log, not per log id: writers in
 * two IPC namespaces may share @r, and neither set is told of the other's
 * drops.
 *
 * Inline: every limited write calls it once per bucket on its path.
 *
 * Context: takes @r's lock.
 * Return: true if both dimensions had room and the record was taken.
 */
static inline bool nslog_rl_rule_take(struct nslog_rl_rule *r, u64 now,
				      size_t len, u64 log,
				      struct nslog_rl_notice *notice)
{
	bool pass;

	spin_lock(&r->lock);
	nslog_rl_rule_refill(r, now);
	pass = nslog_rl_tb_can(&r->rec, 1) && nslog_rl_tb_can(&r->bytes, len);
	if (pass) {
		nslog_rl_tb_take(&r->rec, 1);
		nslog_rl_tb_take(&r->bytes, len);
		r->accepted++;
		r->accepted_bytes += len;
		/* Most records that pass follow no drop at all. */
		if (!notice->records && r->dropped)
			nslog_rl_notice_take(r, log, now, notice);
	} else {
		r->dropped++;
		r->dropped_bytes += len;
		nslog_rl_pend(r, log, now, 1, len);
	}
	spin_unlock(&r->lock);
	return pass;
}

#endif /* _NSLOG_RL_RULE_H */
