// SPDX-License-Identifier: GPL-2.0
/*
 * nslogger: charging a write to the writer's cgroups.
 */

/**
 * DOC: per-cgroup rate limits
 *
 * Every write is charged to the writer's cgroup v2 cgroup, read from the
 * task at the time of the write, and to each of its ancestors that has a
 * rule.  A rule is a token bucket (bucket.c, rule.c) in records, in bytes,
 * or both; a record passes only if every bucket on its path has room in
 * every dimension.
 *
 * Charging walks from the writer's cgroup towards the root, gathering the
 * bucket of each level that has one, then takes from them, deepest first
 * (walk.h).  If a bucket refuses, what was taken
 * from the buckets below it is given back, and the drop is counted against
 * the refusing bucket: the drop is attributed to the deepest cgroup whose
 * limit was exceeded, and reported in the log it happened in (notice.c).
 * A record is charged to at most NSLOG_RL_MAX_PATH (16) buckets, the
 * deepest ones on its path; only an administrator can make a path with more
 * rules than that.
 *
 * A bitmap of the levels that have rules (table.c) lets the walk skip
 * levels without any, so a writer pays one lookup per level that has a rule
 * somewhere, however many rules there are; with no rule and no default the
 * walk is skipped entirely.  With default_limit set, the walk also charges
 * the writer's default bucket, at default_level (default.c).
 */

#include <linux/cgroup.h>
#include <linux/moduleparam.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/timekeeping.h>

#include "default.h"
#include "ratelimit.h"
#include "table.h"
#include "walk.h"

static bool drop_errno;
module_param(drop_errno, bool, 0644);
MODULE_PARM_DESC(drop_errno,
		 "fail a rate-limited write with -EAGAIN instead of reporting success (default N)");

/**
 * nslog_rl_drop_fails() - whether a dropped write returns -EAGAIN
 *
 * Context: any.
 * Return: the drop_errno parameter; by default a dropped write reports
 * success, as liblog ignores errors and apps would otherwise retry.
 */
bool nslog_rl_drop_fails(void)
{
	return READ_ONCE(drop_errno);
}

/* The writer's cgroups, as nslog_rl_charge_walk() asks nslog_rl_rule_at(). */
struct nslog_rl_walk {
	struct cgroup *cgrp;
	u32 levels;
	bool dflt;
	int own;
	int dlevel;
};

/*
 * The bucket that charges @p's cgroup at @level: the administrator's rule
 * there, looked up only if that level has any; at the default level, else
 * the default bucket there, or the overflow bucket if it has none.  Other
 * cgroups' default buckets are not this writer's: they are skipped.
 */
static struct nslog_rl_rule *nslog_rl_rule_at(const struct nslog_rl_walk *w,
					      int level)
{
	bool dflt = w->dflt && level == w->dlevel;
	struct nslog_rl_rule *r;

	if (!dflt && !(w->levels & BIT(nslog_rl_level_bit(level))))
		return NULL;
	r = nslog_rl_find(cgroup_id(cgroup_ancestor(w->cgrp, level)));
	if (!r)
		return dflt ? nslog_rl_overflow() : NULL;
	/* Paired with WRITE_ONCE() in nslog_rl_do(). */
	if (!dflt && READ_ONCE(r->kind) == NSLOG_RL_DEFAULT)
		return NULL;
	return r;
}

/*
 * The walk of nslog_rl_charge() and nslog_rl_charge_task(), for @task, held
 * by the caller.
 */
static int nslog_rl_charge_cgroups(struct task_struct *task, u64 log,
				   size_t len, struct nslog_rl_notice *notice)
{
	struct nslog_rl_walk w = {
		.levels = nslog_rl_levels(),
		.dflt = nslog_rl_default_enabled(),
	};
	struct nslog_rl_path path = { };
	struct cgroup *cgrp;
	int err, level;
	u64 now;

	/*
	 * Make the writer's default bucket if it has none.  Once max_rules
	 * is reached none can be made: do not take the mutex on every write
	 * to find that out again (the overflow bucket charges those).
	 */
	if (w.dflt && !nslog_rl_table_full()) {
		rcu_read_lock();
		cgrp = task_dfl_cgroup(task);
		cgrp = cgroup_ancestor(cgrp, nslog_rl_default_level(cgrp->level));
		if (nslog_rl_find(cgroup_id(cgrp)) || !cgroup_tryget(cgrp))
			cgrp = NULL;
		rcu_read_unlock();
		if (cgrp)
			nslog_rl_default_make(cgrp);
	}

	now = ktime_get_ns();
	rcu_read_lock();
	/* The task may move between cgroups: charge the one it is in now. */
	w.cgrp = task_dfl_cgroup(task);
	w.own = w.cgrp->level;
	w.dlevel = w.dflt ? nslog_rl_default_level(w.own) : -1;
	for (level = w.own; level >= 0; level--)
		if (!nslog_rl_path_add(&path, nslog_rl_rule_at(&w, level)))
			break;
	err = nslog_rl_path_charge(&path, now, log, len, notice);
	rcu_read_unlock();
	return err;
}

/**
 * nslog_rl_charge_walk() - the walk of nslog_rl_charge(), for current
 * @log: as for nslog_rl_charge()
 * @len: as for nslog_rl_charge()
 * @notice: as for nslog_rl_charge()
 *
 * Context: process context, may sleep (a default bucket may be made).
 * Return: as for nslog_rl_charge().
 */
int nslog_rl_charge_walk(u64 log, size_t len, struct nslog_rl_notice *notice)
{
	return nslog_rl_charge_cgroups(current, log, len, notice);
}

/**
 * nslog_rl_charge_task_walk() - the walk of nslog_rl_charge_task()
 * @task: the writer, held by the caller
 * @log: as for nslog_rl_charge()
 * @len: as for nslog_rl_charge()
 * @notice: as for nslog_rl_charge()
 *
 * Context: process context, may sleep (a default bucket may be made).
 * Return: as for nslog_rl_charge().
 */
int nslog_rl_charge_task_walk(struct task_struct *task, u64 log, size_t len,
			      struct nslog_rl_notice *notice)
{
	return nslog_rl_charge_cgroups(task, log, len, notice);
}
