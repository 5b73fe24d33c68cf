/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nslogger: the table of rate-limit rules, by cgroup id (table.c).
 */
#ifndef _NSLOG_RL_TABLE_H
#define _NSLOG_RL_TABLE_H

#include <linux/bits.h>
#include <linux/hashtable.h>
#include <linux/list.h>
#include <linux/minmax.h>
#include <linux/mutex.h>
#include <linux/rculist.h>
#include <linux/types.h>

#include "rule.h"

#define NSLOG_RL_HASH_BITS	12
/* Levels that have a rule: bit L for level L, the last bit for deeper. */
#define NSLOG_RL_LEVEL_BITS	32

/* Inserts, removals, changes of limits and of the default. */
extern struct mutex nslog_rl_mutex;
extern struct hlist_head nslog_rl_table[1 << NSLOG_RL_HASH_BITS];

/* Every rule in the table; under nslog_rl_mutex. */
#define nslog_rl_for_each_rule(bkt, r) \
	hash_for_each(nslog_rl_table, bkt, r, node)
#define nslog_rl_for_each_rule_safe(bkt, tmp, r) \
	hash_for_each_safe(nslog_rl_table, bkt, tmp, r, node)

static inline unsigned int nslog_rl_level_bit(int level)
{
	return min(level, NSLOG_RL_LEVEL_BITS - 1);
}

/**
 * nslog_rl_find() - the rule of a cgroup
 * @id: cgroup_id() of the cgroup
 *
 * Inline: the charging walk looks up one rule per level it charges.
 *
 * Context: under rcu_read_lock() or nslog_rl_mutex.
 * Return: the rule, or NULL.
 */
static inline struct nslog_rl_rule *nslog_rl_find(u64 id)
{
	struct nslog_rl_rule *r;

	hash_for_each_possible_rcu(nslog_rl_table, r, node, id,
				   lockdep_is_held(&nslog_rl_mutex))
		if (r->id == id)
			return r;
	return NULL;
}

/**
 * nslog_rl_levels() - the cgroup levels that have a rule
 *
 * Context: any.
 * Return: bit nslog_rl_level_bit(L) set if a rule (not a default bucket)
 * exists at level L.
 */
static inline u32 nslog_rl_levels(void)
{
	/* Paired with WRITE_ONCE() in nslog_rl_update_levels(). */
	return READ_ONCE(nslog_rl_level_map);
}

bool nslog_rl_table_full(void);
int nslog_rl_insert(struct nslog_rl_rule *r);
void nslog_rl_unhash(struct nslog_rl_rule *r, struct list_head *freed);
void nslog_rl_free_list(struct list_head *freed);
void nslog_rl_update_levels(void);
bool nslog_rl_cgroup_removed(struct cgroup *cgrp);
void nslog_rl_table_exit(void);

#if IS_ENABLED(CONFIG_NSLOG_RL_KUNIT_TEST)
bool nslog_rl_gc_queued(void);
bool nslog_rl_gc_stop(void);
#endif

#endif /* _NSLOG_RL_TABLE_H */
