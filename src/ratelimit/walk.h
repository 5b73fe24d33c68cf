/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nslogger: the charging walk, without the cgroups, for charge.c and its
 * KUnit suite.
 */
#ifndef _NSLOG_RL_WALK_H
#define _NSLOG_RL_WALK_H

#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/types.h>

#include "rule.h"

/* The most buckets one record is charged to: the deepest ones on its path. */
#define NSLOG_RL_MAX_PATH	16

/**
 * nslog_rl_charge_path() - charge one record to the buckets on its path
 * @rule_at: the bucket that charges the path's cgroup at a level, or NULL
 *	for none
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
				nslog_rl_rule_give(taken[i], now, len, log,
						   notice);
			return -EAGAIN;
		}
		taken[n++] = r;
	}
	return 0;
}

#endif /* _NSLOG_RL_WALK_H */
