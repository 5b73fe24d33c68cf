// SPDX-License-Identifier: GPL-2.0
/*
 * nslogger: the default limit.
 */

/**
 * DOC: the default limit
 *
 * With default_limit set, writes that no administrator's rule was meant for
 * still have a budget.  Each subtree of the cgroup hierarchy rooted at
 * level default_level (2 by default: a systemd service, a user's slice, a
 * container's scope) gets one default bucket, made from default_limit on
 * the first write from anywhere in it; a writer above that level gets one
 * for its own cgroup.  A cgroup at that level with a rule of its own is
 * charged to the rule instead.
 *
 * One bucket per subtree, not per cgroup: anyone who may make cgroups below
 * default_level (a delegated subtree: a user's systemd instance, a
 * container with its own cgroup namespace) gains nothing by making one and
 * moving into it, since it is charged to the same bucket.  So default_level
 * must be no deeper than any cgroup the host delegates.
 *
 * Default buckets count towards max_rules.  When one cannot be made (the
 * table is full, or memory is short), the write is charged to the overflow
 * bucket, one bucket with the default limit that every such writer shares:
 * never to no bucket at all.  The overflow bucket's notices name it
 * "(overflow)".
 */

#include <linux/cgroup.h>
#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <linux/timekeeping.h>

#include "default.h"
#include "parse.h"
#include "table.h"

/* Written under nslog_rl_mutex; writers read it locklessly. */
bool nslog_rl_dflt_on;
/* Under nslog_rl_mutex. */
static struct nslog_rl_limit nslog_rl_dflt;

unsigned int nslog_rl_dflt_level = 2;
module_param_named(default_level, nslog_rl_dflt_level, uint, 0644);
MODULE_PARM_DESC(default_level,
		 "cgroup level whose subtrees each share one default bucket (default 2)");

/* Static, as default_limit may be set before the module's init runs. */
static struct nslog_rl_rule nslog_rl_overflow_rule = {
	.lock = __SPIN_LOCK_UNLOCKED(nslog_rl_overflow_rule.lock),
	.kind = NSLOG_RL_OVERFLOW,
};

/**
 * nslog_rl_overflow() - the bucket of writers whose default bucket is missing
 *
 * Context: any.
 * Return: the overflow bucket; it always exists.
 */
struct nslog_rl_rule *nslog_rl_overflow(void)
{
	return &nslog_rl_overflow_rule;
}

/**
 * nslog_rl_default_make() - make the default bucket of a cgroup
 * @cgrp: the cgroup, at its writers' default level; its reference is
 *	taken over
 *
 * Allocates before taking the mutex, so a writer at its memory cgroup's
 * limit stalls nobody else.  Nothing happens if the cgroup has a bucket by
 * then, the default was turned off, or the table is full.
 *
 * Context: process context, may sleep.
 */
void nslog_rl_default_make(struct cgroup *cgrp)
{
	struct nslog_rl_rule *r;

	r = kzalloc(sizeof(*r), GFP_KERNEL_ACCOUNT);
	if (!r) {
		cgroup_put(cgrp);
		return;
	}
	nslog_rl_rule_init(r, cgrp, NSLOG_RL_DEFAULT);
	mutex_lock(&nslog_rl_mutex);
	if (nslog_rl_dflt_on && !nslog_rl_find(r->id) &&
	    !nslog_rl_rule_apply(r, &nslog_rl_dflt, ktime_get_ns()) &&
	    !nslog_rl_insert(r))
		r = NULL;
	mutex_unlock(&nslog_rl_mutex);
	if (r) {
		cgroup_put(cgrp);
		kfree(r);
	}
}

/**
 * nslog_rl_default_get() - the default limit, if set
 * @l: filled in if it is
 *
 * Context: with nslog_rl_mutex held.
 * Return: whether default_limit is set.
 */
bool nslog_rl_default_get(struct nslog_rl_limit *l)
{
	lockdep_assert_held(&nslog_rl_mutex);
	if (nslog_rl_dflt_on)
		*l = nslog_rl_dflt;
	return nslog_rl_dflt_on;
}

/**
 * nslog_rl_default_off() - stop charging default buckets
 *
 * Context: module exit, with nslog_rl_mutex held.
 */
void nslog_rl_default_off(void)
{
	lockdep_assert_held(&nslog_rl_mutex);
	WRITE_ONCE(nslog_rl_dflt_on, false);
}

/* The default_limit parameter: a limit as after "set PATH", or "off". */
static int nslog_rl_param_set_default(const char *val,
				      const struct kernel_param *kp)
{
	struct nslog_rl_rule *r;
	struct nslog_rl_limit l;
	struct hlist_node *tmp;
	LIST_HEAD(freed);
	char *copy;
	bool on;
	int bkt, err = 0;

	copy = kstrdup(val, GFP_KERNEL);
	if (!copy)
		return -ENOMEM;
	strim(copy);
	on = *copy && strcmp(copy, "off");
	if (on)
		err = nslog_rl_parse_limit(copy, &l);
	kfree(copy);
	if (err) {
		pr_err("nslogger: default_limit=%s: expected e.g. \"records=10000/30s\" or \"off\"\n",
		       val);
		return err;
	}

	mutex_lock(&nslog_rl_mutex);
	/* Buckets made from the old default start again from the new one. */
	nslog_rl_for_each_rule_safe(bkt, tmp, r)
		if (r->kind == NSLOG_RL_DEFAULT)
			nslog_rl_unhash(r, &freed);
	if (on) {
		nslog_rl_dflt = l;
		/* Parsed, so within the buckets' bounds: this cannot fail. */
		nslog_rl_rule_apply(&nslog_rl_overflow_rule, &l, ktime_get_ns());
	}
	WRITE_ONCE(nslog_rl_dflt_on, on);
	mutex_unlock(&nslog_rl_mutex);
	nslog_rl_free_list(&freed);
	return 0;
}

static int nslog_rl_param_get_default(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%s\n",
			  READ_ONCE(nslog_rl_dflt_on) ? "on" : "off");
}

static const struct kernel_param_ops nslog_rl_default_ops = {
	.set = nslog_rl_param_set_default,
	.get = nslog_rl_param_get_default,
};
module_param_cb(default_limit, &nslog_rl_default_ops, NULL, 0644);
MODULE_PARM_DESC(default_limit,
		 "bucket for each cgroup subtree at default_level without a rule, e.g. \"records=10000/30s\" (default off)");
