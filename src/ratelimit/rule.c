// SPDX-License-Identifier: GPL-2.0
/*
 * nslogger: one rate-limit bucket: refilling it, taking a record from it,
 * giving one back, changing its limit.
 *
 * A bucket has two dimensions, records and bytes (bucket.c does the
 * arithmetic of each); a record passes only if both have room.  A refusal
 * is counted against the bucket, in its totals and in the drops it has to
 * report in the record's log (notice.c); a record that passes may be handed
 * those drops to report.  Everything here runs under the rule's spinlock.
 */

#include <linux/cgroup.h>
#include <linux/spinlock.h>

#include "rule.h"

/**
 * nslog_rl_rule_init() - set up a rule with no limit yet
 * @r: the rule, zeroed
 * @cgrp: its cgroup, whose reference it takes over; NULL for the overflow
 *	bucket
 * @kind: an &enum nslog_rl_kind
 *
 * Context: any.
 */
void nslog_rl_rule_init(struct nslog_rl_rule *r, struct cgroup *cgrp,
			int kind)
{
	spin_lock_init(&r->lock);
	INIT_HLIST_NODE(&r->node);
	r->cgrp = cgrp;
	r->id = cgrp ? cgroup_id(cgrp) : 0;
	r->kind = kind;
}

/**
 * nslog_rl_rule_apply() - give a rule a (new) limit
 * @r: the rule
 * @l: the limit, checked by nslog_rl_parse_limit()
 * @now: the time
 *
 * A changed limit keeps the credit it had, brought up to now and cut to
 * the new cap: the records or bytes it would let through, not the raw
 * credit, whose worth depends on the period.  A rule with no limit yet
 * (its @last_ns still 0) starts full.
 *
 * Context: takes @r's lock.
 * Return: 0, or -EINVAL if the limit is out of the buckets' bounds.
 */
int nslog_rl_rule_apply(struct nslog_rl_rule *r,
			const struct nslog_rl_limit *l, u64 now)
{
	struct nslog_rl_tb rec, bytes;
	int err;

	err = nslog_rl_tb_set(&rec, l->records, l->records_period_ns,
			      l->records_burst);
	if (!err)
		err = nslog_rl_tb_set(&bytes, l->bytes, l->bytes_period_ns,
				      l->bytes_burst);
	if (err)
		return err;

	spin_lock(&r->lock);
	nslog_rl_rule_refill(r, now);
	nslog_rl_tb_carry(&rec, &r->rec);
	nslog_rl_tb_carry(&bytes, &r->bytes);
	r->rec = rec;
	r->bytes = bytes;
	r->limit = *l;
	spin_unlock(&r->lock);
	return 0;
}

/**
 * nslog_rl_rule_give() - undo nslog_rl_rule_take() for a refused record
 * @r: a rule that took the record
 * @now: as given to nslog_rl_rule_take()
 * @len: as given to nslog_rl_rule_take()
 * @log: as given to nslog_rl_rule_take()
 * @notice: given back to @r if @r handed it out
 *
 * Context: takes @r's lock.
 */
void nslog_rl_rule_give(struct nslog_rl_rule *r, u64 now, size_t len,
			u64 log, struct nslog_rl_notice *notice)
{
	spin_lock(&r->lock);
	nslog_rl_tb_give(&r->rec, 1);
	nslog_rl_tb_give(&r->bytes, len);
	r->accepted--;
	r->accepted_bytes -= len;
	if (notice->records && notice->from == r)
		nslog_rl_notice_return(r, log, now, notice);
	spin_unlock(&r->lock);
}

/**
 * nslog_rl_rule_stats() - what a rule has done, and would let through now
 * @r: the rule
 * @now: the time
 * @st: filled in
 *
 * Context: takes @r's lock.
 */
void nslog_rl_rule_stats(struct nslog_rl_rule *r, u64 now,
			 struct nslog_rl_stats *st)
{
	struct nslog_rl_tb rec, bytes;
	u64 elapsed;

	spin_lock(&r->lock);
	/* A copy is refilled: looking must not move @last_ns. */
	elapsed = nslog_rl_elapsed(r->last_ns, now);
	rec = r->rec;
	bytes = r->bytes;
	nslog_rl_tb_refill(&rec, elapsed);
	nslog_rl_tb_refill(&bytes, elapsed);
	st->limit = r->limit;
	st->accepted = r->accepted;
	st->accepted_bytes = r->accepted_bytes;
	st->dropped = r->dropped;
	st->dropped_bytes = r->dropped_bytes;
	spin_unlock(&r->lock);
	st->tokens = nslog_rl_tb_units(&rec);
	st->byte_tokens = nslog_rl_tb_units(&bytes);
}
