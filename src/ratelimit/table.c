// SPDX-License-Identifier: GPL-2.0
/*
 * nslogger: the table of rate-limit rules, and their lifetime.
 *
 * Rules live in a hash table keyed by cgroup id (64-bit kernfs ids, never
 * reused) with RCU readers; inserts, removals and changes take
 * nslog_rl_mutex, which is never held across an allocation (callers
 * allocate first).  A bitmap of the cgroup levels that have rules set by
 * the administrator lets the charging walk skip levels without any.
 *
 * A rule holds a reference on its cgroup and goes away with it: a work item
 * looks every second for rules whose cgroup was removed.  A cgroup made
 * later at the same path is a new cgroup with no rule.
 */

#include <linux/cgroup.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/rculist.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "table.h"

/* Inserts, removals, changes of limits and of the default. */
DEFINE_MUTEX(nslog_rl_mutex);
DEFINE_HASHTABLE(nslog_rl_table, NSLOG_RL_HASH_BITS);
/* Written under nslog_rl_mutex; writers read them locklessly. */
static unsigned int nslog_rl_count;
u32 nslog_rl_level_map;

static unsigned int max_rules = 16384;
module_param(max_rules, uint, 0644);
MODULE_PARM_DESC(max_rules, "most rate-limit buckets, default ones included (default 16384)");

static void nslog_rl_gc_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(nslog_rl_gc_work, nslog_rl_gc_fn);
static bool nslog_rl_exiting;

/**
 * nslog_rl_table_full() - whether max_rules is reached
 *
 * A hint without the mutex, for the write path: nslog_rl_insert() checks
 * again.
 *
 * Context: any.
 * Return: true if no rule can be added now.
 */
bool nslog_rl_table_full(void)
{
	return READ_ONCE(nslog_rl_count) >= READ_ONCE(max_rules);
}

/**
 * nslog_rl_update_levels() - recompute the levels after rules changed
 *
 * Context: with nslog_rl_mutex held.
 */
void nslog_rl_update_levels(void)
{
	struct nslog_rl_rule *r;
	u32 levels = 0;
	int bkt;

	lockdep_assert_held(&nslog_rl_mutex);
	nslog_rl_for_each_rule(bkt, r)
		if (r->kind == NSLOG_RL_RULE)
			levels |= BIT(nslog_rl_level_bit(r->cgrp->level));
	WRITE_ONCE(nslog_rl_level_map, levels);
}

/**
 * nslog_rl_insert() - add a rule with its limit applied
 * @r: the rule; its cgroup has no rule in the table
 *
 * Context: with nslog_rl_mutex held.
 * Return: 0, or -ENOSPC at max_rules.
 */
int nslog_rl_insert(struct nslog_rl_rule *r)
{
	lockdep_assert_held(&nslog_rl_mutex);
	if (nslog_rl_count >= READ_ONCE(max_rules))
		return -ENOSPC;
	hash_add_rcu(nslog_rl_table, &r->node, r->id);
	WRITE_ONCE(nslog_rl_count, nslog_rl_count + 1);
	if (!READ_ONCE(nslog_rl_exiting))
		queue_delayed_work(system_dfl_wq, &nslog_rl_gc_work, HZ);
	return 0;
}

/**
 * nslog_rl_unhash() - take a rule out of the table
 * @r: the rule
 * @freed: a list for nslog_rl_free_list(), after the mutex is dropped
 *
 * Context: with nslog_rl_mutex held.
 */
void nslog_rl_unhash(struct nslog_rl_rule *r, struct list_head *freed)
{
	lockdep_assert_held(&nslog_rl_mutex);
	hash_del_rcu(&r->node);
	WRITE_ONCE(nslog_rl_count, nslog_rl_count - 1);
	list_add(&r->gc, freed);
}

/**
 * nslog_rl_free_list() - free unhashed rules once no walk can see them
 * @freed: as filled by nslog_rl_unhash()
 *
 * Context: process context, may sleep; without nslog_rl_mutex.
 */
void nslog_rl_free_list(struct list_head *freed)
{
	struct nslog_rl_rule *r, *tmp;

	if (list_empty(freed))
		return;
	synchronize_rcu();
	list_for_each_entry_safe(r, tmp, freed, gc) {
		cgroup_put(r->cgrp);
		kfree(r);
	}
}

/**
 * nslog_rl_cgroup_removed() - whether @cgrp was removed
 * @cgrp: a cgroup a rule holds
 *
 * Not css_is_dying(): on 6.12 that tests CSS_DYING, which only subsystem
 * states get; rmdir clears CSS_ONLINE of the cgroup's own state on every
 * kernel.  The root is never removed.
 *
 * Context: any.
 * Return: true once rmdir has taken @cgrp offline.
 */
bool nslog_rl_cgroup_removed(struct cgroup *cgrp)
{
	return cgroup_parent(cgrp) &&
	       !(READ_ONCE(cgrp->self.flags) & CSS_ONLINE);
}

/* Drop the rules of cgroups that are going away. */
static void nslog_rl_gc_fn(struct work_struct *work)
{
	struct nslog_rl_rule *r;
	struct hlist_node *tmp;
	LIST_HEAD(freed);
	bool any;
	int bkt;

	mutex_lock(&nslog_rl_mutex);
	nslog_rl_for_each_rule_safe(bkt, tmp, r)
		if (nslog_rl_cgroup_removed(r->cgrp))
			nslog_rl_unhash(r, &freed);
	nslog_rl_update_levels();
	any = nslog_rl_count;
	mutex_unlock(&nslog_rl_mutex);
	nslog_rl_free_list(&freed);
	if (any && !READ_ONCE(nslog_rl_exiting))
		queue_delayed_work(system_dfl_wq, &nslog_rl_gc_work, HZ);
}

#if IS_ENABLED(CONFIG_NSLOG_RL_KUNIT_TEST)
/**
 * nslog_rl_gc_queued() - whether the collector is queued
 *
 * For the KUnit suite, which checks that each case leaves it idle.
 *
 * Context: any.
 * Return: true while its work is pending.
 */
bool nslog_rl_gc_queued(void)
{
	return delayed_work_pending(&nslog_rl_gc_work);
}

/**
 * nslog_rl_gc_stop() - leave the collector idle once the table is empty
 *
 * For the KUnit cases that add a rule and clear it.  6.1's KUnit runs a
 * module's suites before the module's init and before its parameters are
 * parsed; a load that a bad parameter then refuses frees the module
 * without calling its exit, and a collector still queued then fires in
 * freed memory, or in the next load's copy of it.
 *
 * Context: process context, may sleep; nothing else adds rules meanwhile.
 * Return: true if the table was empty and the collector is now idle.
 */
bool nslog_rl_gc_stop(void)
{
	bool empty;

	mutex_lock(&nslog_rl_mutex);
	empty = !nslog_rl_count;
	mutex_unlock(&nslog_rl_mutex);
	if (empty)
		cancel_delayed_work_sync(&nslog_rl_gc_work);
	return empty;
}
#endif

/**
 * nslog_rl_table_exit() - stop the collector and free every rule
 *
 * Context: module exit, after default buckets stopped being made
 * (nslog_rl_exit()); no write can be in progress.
 */
void nslog_rl_table_exit(void)
{
	struct nslog_rl_rule *r;
	struct hlist_node *tmp;
	LIST_HEAD(freed);
	int bkt;

	WRITE_ONCE(nslog_rl_exiting, true);
	cancel_delayed_work_sync(&nslog_rl_gc_work);
	mutex_lock(&nslog_rl_mutex);
	nslog_rl_for_each_rule_safe(bkt, tmp, r)
		nslog_rl_unhash(r, &freed);
	WRITE_ONCE(nslog_rl_level_map, 0);
	mutex_unlock(&nslog_rl_mutex);
	nslog_rl_free_list(&freed);
}
