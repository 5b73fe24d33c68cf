/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nslogger: the charging walk's path: the buckets one record is charged
 * to, gathered by charge.c from the writer's cgroups, and charging them.
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
 * struct nslog_rl_path - the buckets one record is charged to
 * @rules: deepest first, as nslog_rl_path_add() was given them
 * @n: how many
 */
struct nslog_rl_path {
	struct nslog_rl_rule *rules[NSLOG_RL_MAX_PATH];
	unsigned int n;
};

/**
 * nslog_rl_path_add() - add the bucket of the next level up, if any
 * @path: the path so far
 * @r: the bucket that charges the writer's cgroup at that level, or NULL
 *
 * The walk asks for each level from the writer's own up to the root at
 * level 0, and stops once the path is full: only the NSLOG_RL_MAX_PATH
 * deepest buckets on a path are charged.
 *
 * Context: any.
 * Return: true while there is room for another bucket.
 */
static inline bool nslog_rl_path_add(struct nslog_rl_path *path,
				     struct nslog_rl_rule *r)
{
	if (r)
		path->rules[path->n++] = r;
	return path->n < NSLOG_RL_MAX_PATH;
}

/**
 * nslog_rl_path_charge() - charge one record to the buckets on its path
 * @path: the buckets, deepest first
 * @now: the time, for the refills
 * @log: the nslog_log.rl_key of the log the record goes to
 * @len: its payload length
 * @notice: as for nslog_rl_charge()
 *
 * The buckets are charged in order, deepest first.  The first one that
 * refuses keeps the drop (its dropped and pending counts); what the
 * buckets below it took is given back to exactly those buckets, a notice
 * one of them handed out included, so nothing depends on finding them
 * again.
 *
 * Context: in an RCU read-side critical section that keeps @path's rules
 * valid; takes each rule's lock in turn.
 * Return: 0 if every bucket let the record through, -EAGAIN if one refused.
 */
static inline int nslog_rl_path_charge(const struct nslog_rl_path *path,
				       u64 now, u64 log, size_t len,
				       struct nslog_rl_notice *notice)
{
	unsigned int i, j;

	for (i = 0; i < path->n; i++) {
		if (nslog_rl_rule_take(path->rules[i], now, len, log, notice))
			continue;
		for (j = 0; j < i; j++)
			nslog_rl_rule_give(path->rules[j], now, len, log,
					   notice);
		return -EAGAIN;
	}
	return 0;
}

#endif /* _NSLOG_RL_WALK_H */
