// SPDX-License-Identifier: GPL-2.0
/*
 * nslogger: per-cgroup rate limits on the write path.
 */

/**
 * DOC: per-cgroup rate limits
 *
 * Every write is charged to the writer's cgroup v2 cgroup, read from the
 * task at the time of the write, and to each of its ancestors that has a
 * rule.  A rule is a token bucket (bucket.c) in records, in bytes, or both;
 * a record passes only if every bucket on its path has room in every
 * dimension.
 *
 * Charging walks from the writer's cgroup towards the root and takes from
 * each bucket as it goes.  If a bucket refuses, what was taken from the
 * buckets below it is given back, and the drop is counted against the
 * refusing bucket: the drop is attributed to the deepest cgroup whose limit
 * was exceeded.  That bucket also remembers, per log, how many records and
 * bytes it dropped; the next record charged through it that passes in that
 * log is preceded by a notice record, "nslogger: suppressed N records (M
 * bytes) from PATH", stamped as written by that record's writer.  A record
 * is charged to at most NSLOG_RL_MAX_PATH (16) buckets, the deepest ones on
 * its path; only an administrator can make a path with more rules than that.
 *
 * Rules live in a hash table keyed by cgroup id (64-bit kernfs ids, never
 * reused) with RCU readers and a spinlock per rule.  A bitmap of the cgroup
 * levels that have rules lets the walk skip levels without any, so a writer
 * pays one lookup per level that has a rule somewhere, however many rules
 * there are; with no rule and no default the walk is skipped entirely.
 *
 * A rule holds a reference on its cgroup and goes away with it: a work item
 * looks every second for rules whose cgroup is being removed.  A cgroup made
 * later at the same path is a new cgroup with no rule.
 *
 * The default: when default_limit is set, a writer whose own cgroup has no
 * rule gets a bucket of its own made from the default on its first write
 * (journald's way: each service its own budget).  It is charged only for
 * its own cgroup's writes, never as an ancestor's.  These count towards
 * max_rules; once it is reached, cgroups without a bucket are not limited.
 */

#include <linux/capability.h>
#include <linux/cgroup.h>
#include <linux/ctype.h>
#include <linux/hashtable.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/nsproxy.h>
#include <linux/rculist.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/workqueue.h>

#include <uapi/linux/nslogger.h>

#include "bucket.h"
#include "log.h"
#include "ratelimit.h"
#include "rule.h"

#define NSLOG_RL_HASH_BITS	12
/* Levels that have a rule: bit L for level L, the last bit for deeper. */
#define NSLOG_RL_LEVEL_BITS	32

static DEFINE_HASHTABLE(nslog_rl_table, NSLOG_RL_HASH_BITS);
/* Inserts, removals, changes of limits and of the default. */
static DEFINE_MUTEX(nslog_rl_mutex);
/* Written under nslog_rl_mutex; writers read it locklessly. */
static unsigned int nslog_rl_count;
/* Read locklessly by writers; written under nslog_rl_mutex. */
static u32 nslog_rl_levels;
static bool nslog_rl_default_on;
static struct nslog_rl_limit nslog_rl_default;

static unsigned int max_rules = 16384;
module_param(max_rules, uint, 0644);
MODULE_PARM_DESC(max_rules, "most rate-limit buckets, default ones included (default 16384)");

static bool drop_errno;
module_param(drop_errno, bool, 0644);
MODULE_PARM_DESC(drop_errno,
		 "fail a rate-limited write with -EAGAIN instead of reporting success (default N)");

static void nslog_rl_gc_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(nslog_rl_gc_work, nslog_rl_gc_fn);
static bool nslog_rl_exiting;

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

static unsigned int nslog_rl_level_bit(int level)
{
	return min(level, NSLOG_RL_LEVEL_BITS - 1);
}

static struct nslog_rl_rule *nslog_rl_find(u64 id)
{
	struct nslog_rl_rule *r;

	hash_for_each_possible_rcu(nslog_rl_table, r, node, id,
				   lockdep_is_held(&nslog_rl_mutex))
		if (r->id == id)
			return r;
	return NULL;
}

/* Called with the mutex held after the set of explicit rules changed. */
static void nslog_rl_update_levels(void)
{
	struct nslog_rl_rule *r;
	u32 levels = 0;
	int bkt;

	lockdep_assert_held(&nslog_rl_mutex);
	hash_for_each(nslog_rl_table, bkt, r, node)
		if (!r->dynamic)
			levels |= BIT(nslog_rl_level_bit(r->cgrp->level));
	/* Paired with READ_ONCE() in nslog_rl_charge(). */
	WRITE_ONCE(nslog_rl_levels, levels);
}

/*
 * Add to @r's buckets what they earned up to @now.  Called with @r's lock
 * held.
 */
static void nslog_rl_rule_refill(struct nslog_rl_rule *r, u64 now)
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

static int nslog_rl_apply(struct nslog_rl_rule *r,
			  const struct nslog_rl_limit *l)
{
	struct nslog_rl_tb rec, bytes;
	u64 now;
	int err;

	err = nslog_rl_tb_set(&rec, l->records, l->records_period_ns,
			      l->records_burst);
	if (!err)
		err = nslog_rl_tb_set(&bytes, l->bytes, l->bytes_period_ns,
				      l->bytes_burst);
	if (err)
		return err;

	now = ktime_get_ns();
	spin_lock(&r->lock);
	/*
	 * A changed limit keeps the credit it had, brought up to now and cut
	 * to the new cap: the records or bytes it would let through, not the
	 * raw credit, whose worth depends on the period.
	 */
	nslog_rl_rule_refill(r, now);
	nslog_rl_tb_carry(&rec, &r->rec);
	nslog_rl_tb_carry(&bytes, &r->bytes);
	r->rec = rec;
	r->bytes = bytes;
	r->limit = *l;
	spin_unlock(&r->lock);
	return 0;
}

/* A new rule for @cgrp, whose reference it takes over on success. */
static struct nslog_rl_rule *nslog_rl_new(struct cgroup *cgrp,
					  const struct nslog_rl_limit *l,
					  bool dynamic)
{
	struct nslog_rl_rule *r;

	lockdep_assert_held(&nslog_rl_mutex);
	if (nslog_rl_count >= READ_ONCE(max_rules))
		return ERR_PTR(-ENOSPC);
	r = kzalloc(sizeof(*r), GFP_KERNEL_ACCOUNT);
	if (!r)
		return ERR_PTR(-ENOMEM);
	spin_lock_init(&r->lock);
	r->cgrp = cgrp;
	r->id = cgroup_id(cgrp);
	r->dynamic = dynamic;
	if (nslog_rl_apply(r, l)) {
		kfree(r);
		return ERR_PTR(-EINVAL);
	}
	hash_add_rcu(nslog_rl_table, &r->node, r->id);
	WRITE_ONCE(nslog_rl_count, nslog_rl_count + 1);
	if (!READ_ONCE(nslog_rl_exiting))
		queue_delayed_work(system_wq, &nslog_rl_gc_work, HZ);
	return r;
}

/* Unhash every rule on @list's way out, then free them after readers. */
static void nslog_rl_free_list(struct list_head *list)
{
	struct nslog_rl_rule *r, *tmp;

	if (list_empty(list))
		return;
	synchronize_rcu();
	list_for_each_entry_safe(r, tmp, list, gc) {
		cgroup_put(r->cgrp);
		kfree(r);
	}
}

static void nslog_rl_unhash(struct nslog_rl_rule *r, struct list_head *list)
{
	lockdep_assert_held(&nslog_rl_mutex);
	hash_del_rcu(&r->node);
	WRITE_ONCE(nslog_rl_count, nslog_rl_count - 1);
	list_add(&r->gc, list);
}

/* Make the default bucket of @cgrp, if it has none yet. */
static void nslog_rl_add_default(struct cgroup *cgrp)
{
	struct nslog_rl_rule *r = NULL;

	mutex_lock(&nslog_rl_mutex);
	if (nslog_rl_default_on && !nslog_rl_find(cgroup_id(cgrp)))
		r = nslog_rl_new(cgrp, &nslog_rl_default, true);
	mutex_unlock(&nslog_rl_mutex);
	if (IS_ERR_OR_NULL(r))
		cgroup_put(cgrp);
}

/* @r's pending slot for @log, or NULL.  Called with @r's lock held. */
static struct nslog_rl_pending *nslog_rl_pending_find(struct nslog_rl_rule *r,
						      u64 log)
{
	unsigned int i;

	if (!r->npending)
		return NULL;
	for (i = 0; i < NSLOG_RL_PENDING; i++)
		if (r->pending[i].records && r->pending[i].log == log)
			return &r->pending[i];
	return NULL;
}

/*
 * Add @records drops of @bytes to what @r has to report in @log.  With
 * every slot taken by other logs, the one after the last reused is given
 * up: those drops stay in @r's totals but are not reported.  Called with
 * @r's lock held.
 */
static void nslog_rl_pend(struct nslog_rl_rule *r, u64 log, u64 records,
			  u64 bytes)
{
	struct nslog_rl_pending *p = nslog_rl_pending_find(r, log);
	unsigned int i;

	if (!p) {
		for (i = 0; i < NSLOG_RL_PENDING && !p; i++)
			if (!r->pending[i].records)
				p = &r->pending[i];
		if (p) {
			r->npending++;
		} else {
			p = &r->pending[r->evict];
			r->evict = (r->evict + 1) % NSLOG_RL_PENDING;
		}
		*p = (struct nslog_rl_pending){ .log = log };
	}
	p->records += records;
	p->bytes += bytes;
}

/**
 * nslog_rl_rule_pending() - drops @r has not yet reported in one log
 * @r: the rule
 * @log: the log's nslog_log.rl_key
 * @bytes: set to their payload bytes
 *
 * For the KUnit suite.
 *
 * Context: takes @r's lock.
 * Return: the records.
 */
u64 nslog_rl_rule_pending(struct nslog_rl_rule *r, u64 log, u64 *bytes)
{
	struct nslog_rl_pending *p;
	u64 records = 0;

	*bytes = 0;
	spin_lock(&r->lock);
	p = nslog_rl_pending_find(r, log);
	if (p) {
		records = p->records;
		*bytes = p->bytes;
	}
	spin_unlock(&r->lock);
	return records;
}

/**
 * nslog_rl_rule_take() - take one record's worth from a rule's bucket
 * @r: the rule
 * @now: the time; a time before the last refill adds nothing
 * @len: the record's payload length
 * @log: the nslog_log.rl_key of the log the record goes to
 * @notice: if empty, and @r has drops in @log not yet reported, they are
 *	handed out here (with a reference on @r's cgroup)
 *
 * A refusal is counted against @r, in its totals and in the drops it has
 * to report in @log.  Those are kept per log, not per log id: writers in
 * two IPC namespaces may share @r, and neither set is told of the other's
 * drops.
 *
 * Context: takes @r's lock.
 * Return: true if both dimensions had room and the record was taken.
 */
bool nslog_rl_rule_take(struct nslog_rl_rule *r, u64 now, size_t len,
			u64 log, struct nslog_rl_notice *notice)
{
	struct nslog_rl_pending *p;
	bool pass;

	spin_lock(&r->lock);
	nslog_rl_rule_refill(r, now);
	pass = nslog_rl_tb_can(&r->rec, 1) && nslog_rl_tb_can(&r->bytes, len);
	if (pass) {
		nslog_rl_tb_take(&r->rec, 1);
		nslog_rl_tb_take(&r->bytes, len);
		r->accepted++;
		r->accepted_bytes += len;
		p = notice->cgrp ? NULL : nslog_rl_pending_find(r, log);
		if (p) {
			notice->records = p->records;
			notice->bytes = p->bytes;
			*p = (struct nslog_rl_pending){ };
			r->npending--;
			/* The rule holds one, so this cannot fail. */
			cgroup_get(r->cgrp);
			notice->cgrp = r->cgrp;
		}
	} else {
		r->dropped++;
		r->dropped_bytes += len;
		nslog_rl_pend(r, log, 1, len);
	}
	spin_unlock(&r->lock);
	return pass;
}

/**
 * nslog_rl_rule_give() - undo nslog_rl_rule_take() for a refused record
 * @r: a rule that took the record
 * @len: as given to nslog_rl_rule_take()
 * @log: as given to nslog_rl_rule_take()
 * @notice: given back to @r if @r handed it out
 *
 * Context: takes @r's lock.
 */
void nslog_rl_rule_give(struct nslog_rl_rule *r, size_t len, u64 log,
			struct nslog_rl_notice *notice)
{
	spin_lock(&r->lock);
	nslog_rl_tb_give(&r->rec, 1);
	nslog_rl_tb_give(&r->bytes, len);
	r->accepted--;
	r->accepted_bytes -= len;
	if (notice->cgrp == r->cgrp) {
		/* Not reported after all: the record goes too. */
		nslog_rl_pend(r, log, notice->records, notice->bytes);
		cgroup_put(notice->cgrp);
		*notice = (struct nslog_rl_notice){ };
	}
	spin_unlock(&r->lock);
}

static bool nslog_rl_level_limited(u32 levels, bool dflt, int level, int own)
{
	return (levels & BIT(nslog_rl_level_bit(level))) ||
	       (dflt && level == own);
}

/* The writer's path, as nslog_rl_charge() hands it to nslog_rl_rule_at(). */
struct nslog_rl_walk {
	struct cgroup *cgrp;
	u32 levels;
	bool dflt;
	int own;
};

/*
 * The rule of @p's cgroup at @level, looked up only if that level has any.
 * A default bucket is its own cgroup's budget: an ancestor's is skipped,
 * as it is when no rule makes the walk look at that level.
 */
static struct nslog_rl_rule *nslog_rl_rule_at(const void *p, int level)
{
	const struct nslog_rl_walk *w = p;
	struct nslog_rl_rule *r;

	if (!nslog_rl_level_limited(w->levels, w->dflt, level, w->own))
		return NULL;
	r = nslog_rl_find(cgroup_id(cgroup_ancestor(w->cgrp, level)));
	/* Paired with WRITE_ONCE() in nslog_rl_do(). */
	if (r && level != w->own && READ_ONCE(r->dynamic))
		return NULL;
	return r;
}

/**
 * nslog_rl_charge() - charge one record to the writer's cgroups
 * @log: the nslog_log.rl_key of the log the record goes to
 * @len: its payload length
 * @notice: zeroed by the caller; filled in if drops are to be reported
 *	before this record (then nslog_rl_notice_done() must follow)
 *
 * Context: process context, may sleep (a default bucket may be made).
 * Return: 0 if the record may be stored, -EAGAIN if a limit dropped it.
 */
int nslog_rl_charge(u64 log, size_t len, struct nslog_rl_notice *notice)
{
	struct nslog_rl_walk w = {
		.levels = READ_ONCE(nslog_rl_levels),
		.dflt = READ_ONCE(nslog_rl_default_on),
	};
	struct cgroup *cgrp;
	int err;
	u64 now;

	if (likely(!w.levels && !w.dflt))
		return 0;

	/*
	 * Once max_rules is reached no default bucket can be made: do not
	 * take the mutex on every write to find that out again.
	 */
	if (w.dflt && READ_ONCE(nslog_rl_count) < READ_ONCE(max_rules)) {
		rcu_read_lock();
		cgrp = task_dfl_cgroup(current);
		if (nslog_rl_find(cgroup_id(cgrp)) || !cgroup_tryget(cgrp))
			cgrp = NULL;
		rcu_read_unlock();
		if (cgrp)
			nslog_rl_add_default(cgrp);
	}

	now = ktime_get_ns();
	rcu_read_lock();
	/* The task may move between cgroups: charge the one it is in now. */
	w.cgrp = task_dfl_cgroup(current);
	w.own = w.cgrp->level;
	err = nslog_rl_charge_path(nslog_rl_rule_at, &w, w.own, now, log, len,
				   notice);
	rcu_read_unlock();
	return err;
}

/**
 * nslog_rl_notice_done() - release a notice once its record is written
 * @notice: as filled in by nslog_rl_charge()
 *
 * Context: process context.
 */
void nslog_rl_notice_done(struct nslog_rl_notice *notice)
{
	if (notice->cgrp)
		cgroup_put(notice->cgrp);
	notice->cgrp = NULL;
}

/**
 * nslog_rl_format_notice() - the text of a notice
 * @notice: a notice with a cgroup
 * @buf: where to write it
 * @size: room in @buf
 *
 * The cgroup path is shown as the current task's cgroup namespace sees it,
 * so a container's readers are not told the host's layout.
 *
 * Context: process context, may sleep.
 * Return: the length written, without the NUL.
 */
int nslog_rl_format_notice(const struct nslog_rl_notice *notice, char *buf,
			   size_t size)
{
	char path[256];

	if (cgroup_path_ns(notice->cgrp, path, sizeof(path),
			   current->nsproxy->cgroup_ns) < 0)
		strscpy(path, "?", sizeof(path));
	return scnprintf(buf, size,
			 "nslogger: suppressed %llu records (%llu bytes) from %s",
			 notice->records, notice->bytes, path);
}

/*
 * The administrator's interface: /proc/nslogger/limits (see src/proc.c).
 *
 *   set PATH [records=N/PERIOD] [records_burst=B] [bytes=SIZE/PERIOD]
 *            [bytes_burst=SIZE]
 *   clear PATH
 *
 * PATH is a cgroup v2 path from the root of the hierarchy, /a/b.  PERIOD
 * is a number (1 if left out) and a unit: ms, s, min, h.  N, B and SIZE
 * take the K and M suffixes.  One command per line; a write is parsed
 * whole before anything is applied, so a bad line changes nothing.
 */

static int nslog_rl_parse_count(const char *s, const char *end, u64 *out)
{
	char num[24];
	size_t n = end - s;
	unsigned int shift = 0;
	u64 v;

	if (!n || n >= sizeof(num) || !isdigit(*s))
		return -EINVAL;
	memcpy(num, s, n);
	num[n] = '\0';
	/* No G: every count of 1G or more is above NSLOG_RL_MAX_COUNT. */
	switch (tolower(num[n - 1])) {
	case 'm':
		shift += 10;
		fallthrough;
	case 'k':
		shift += 10;
		num[n - 1] = '\0';
	}
	/* Decimal only, and nothing that wraps: no count above the bound. */
	if (kstrtoull(num, 10, &v) || v > NSLOG_RL_MAX_COUNT >> shift)
		return -EINVAL;
	*out = v << shift;
	return 0;
}

static int nslog_rl_parse_period(const char *s, u64 *out)
{
	static const struct { const char *unit; u64 ns; } units[] = {
		{ "ms", NSEC_PER_MSEC }, { "s", NSEC_PER_SEC },
		{ "min", 60 * NSEC_PER_SEC }, { "h", 3600 * NSEC_PER_SEC },
	};
	size_t digits = strspn(s, "0123456789");
	unsigned long long n = 1;
	char num[12];
	int i;

	if (digits) {
		if (digits >= sizeof(num))
			return -EINVAL;
		memcpy(num, s, digits);
		num[digits] = '\0';
		if (kstrtoull(num, 10, &n) || !n)
			return -EINVAL;
	}
	for (i = 0; i < ARRAY_SIZE(units); i++) {
		if (!strcmp(s + digits, units[i].unit)) {
			/* No period above the bound, and so none that wraps. */
			if (n > NSLOG_RL_MAX_PERIOD_NS / units[i].ns)
				return -EINVAL;
			*out = n * units[i].ns;
			return 0;
		}
	}
	return -EINVAL;
}

/* "N/PERIOD" */
static int nslog_rl_parse_rate(const char *s, u64 *count, u64 *period_ns)
{
	const char *slash = strchr(s, '/');

	if (!slash || nslog_rl_parse_count(s, slash, count) || !*count)
		return -EINVAL;
	return nslog_rl_parse_period(slash + 1, period_ns);
}

/* "B": a burst given is never 0, which would mean "not given" below. */
static int nslog_rl_parse_burst(const char *s, u64 *burst)
{
	if (nslog_rl_parse_count(s, s + strlen(s), burst) || !*burst)
		return -EINVAL;
	return 0;
}

/**
 * nslog_rl_parse_limit() - parse the limit of a "set" line
 * @args: what follows "set PATH", e.g. "records=100/s bytes=64K/1min";
 *	cut up in place
 * @l: the limit, with the bursts filled in
 *
 * Context: any.
 * Return: 0, or -EINVAL if @args is malformed or the limit out of bounds.
 */
int nslog_rl_parse_limit(char *args, struct nslog_rl_limit *l)
{
	struct nslog_rl_tb probe;
	char *tok;
	int err;

	memset(l, 0, sizeof(*l));
	while ((tok = strsep(&args, " \t")) != NULL) {
		char *val = strchr(tok, '=');

		if (!*tok)
			continue;
		if (!val)
			return -EINVAL;
		*val++ = '\0';
		if (!strcmp(tok, "records"))
			err = nslog_rl_parse_rate(val, &l->records,
						  &l->records_period_ns);
		else if (!strcmp(tok, "bytes"))
			err = nslog_rl_parse_rate(val, &l->bytes,
						  &l->bytes_period_ns);
		else if (!strcmp(tok, "records_burst"))
			err = nslog_rl_parse_burst(val, &l->records_burst);
		else if (!strcmp(tok, "bytes_burst"))
			err = nslog_rl_parse_burst(val, &l->bytes_burst);
		else
			err = -EINVAL;
		if (err)
			return err;
	}
	if (!l->records && !l->bytes)
		return -EINVAL;
	/* A burst without its rate means nothing. */
	if ((l->records_burst && !l->records) || (l->bytes_burst && !l->bytes))
		return -EINVAL;
	if (l->records && !l->records_burst)
		l->records_burst = l->records;
	if (l->bytes && !l->bytes_burst)
		l->bytes_burst = l->bytes;
	/* A byte bucket that can never pass a full record is a mistake. */
	if (l->bytes && l->bytes_burst < LOGGER_ENTRY_MAX_PAYLOAD)
		return -EINVAL;
	if (nslog_rl_tb_set(&probe, l->records, l->records_period_ns,
			    l->records_burst) ||
	    nslog_rl_tb_set(&probe, l->bytes, l->bytes_period_ns,
			    l->bytes_burst))
		return -EINVAL;
	return 0;
}

/**
 * struct nslog_rl_cmd - one parsed line of the admin interface
 * @cgrp: its cgroup, a counted reference
 * @clear: remove the rule rather than set it
 * @limit: the limit, for a set
 */
struct nslog_rl_cmd {
	struct cgroup *cgrp;
	bool clear;
	struct nslog_rl_limit limit;
};

static int nslog_rl_parse_line(char *line, struct nslog_rl_cmd *cmd)
{
	char *verb = strsep(&line, " \t");
	char *path;
	int err;

	line = skip_spaces(line ?: "");
	path = strsep(&line, " \t");
	if (!path || path[0] != '/')
		return -EINVAL;
	if (!strcmp(verb, "clear")) {
		if (line && *skip_spaces(line))
			return -EINVAL;
		cmd->clear = true;
	} else if (!strcmp(verb, "set")) {
		err = nslog_rl_parse_limit(line ?: "", &cmd->limit);
		if (err)
			return err;
	} else {
		return -EINVAL;
	}
	cmd->cgrp = cgroup_get_from_path(path);
	if (IS_ERR(cmd->cgrp)) {
		err = PTR_ERR(cmd->cgrp);
		cmd->cgrp = NULL;
		return err;
	}
	return 0;
}

static int nslog_rl_do(struct nslog_rl_cmd *cmd, struct list_head *freed)
{
	struct nslog_rl_rule *r = nslog_rl_find(cgroup_id(cmd->cgrp));

	lockdep_assert_held(&nslog_rl_mutex);
	if (cmd->clear) {
		if (!r || r->dynamic)
			return -ENOENT;
		nslog_rl_unhash(r, freed);
		return 0;
	}
	if (r) {
		/* Paired with READ_ONCE() in nslog_rl_rule_at(). */
		WRITE_ONCE(r->dynamic, false);
		return nslog_rl_apply(r, &cmd->limit);
	}
	r = nslog_rl_new(cmd->cgrp, &cmd->limit, false);
	if (IS_ERR(r))
		return PTR_ERR(r);
	cmd->cgrp = NULL;	/* the rule has the reference now */
	return 0;
}

#define NSLOG_RL_MAX_CMDS	64

/**
 * nslog_rl_write() - carry out the commands written to the admin file
 * @text: NUL-terminated text, one command per line
 *
 * Every line is parsed, and every cgroup looked up, before any is applied.
 * Applying can then fail only for lack of room (-ENOSPC) or memory, or for
 * clearing a rule that is not there (-ENOENT); the commands before the
 * failing one stay applied and the error is returned.
 *
 * Context: process context, may sleep.
 * Return: 0, or a negative errno: -EINVAL for a malformed line or an
 * absurd limit, -ENOENT for an unknown cgroup, -E2BIG for too many lines.
 */
ssize_t nslog_rl_write(const char *text)
{
	struct nslog_rl_cmd *cmds;
	char *copy, *rest, *line;
	LIST_HEAD(freed);
	int n = 0, i, err = 0;

	copy = kstrdup(text, GFP_KERNEL);
	cmds = kcalloc(NSLOG_RL_MAX_CMDS, sizeof(*cmds), GFP_KERNEL);
	if (!copy || !cmds) {
		err = -ENOMEM;
		goto out;
	}
	rest = copy;
	while ((line = strsep(&rest, "\n")) != NULL) {
		line = strim(line);
		if (!*line || *line == '#')
			continue;
		if (n == NSLOG_RL_MAX_CMDS) {
			err = -E2BIG;
			goto out;
		}
		err = nslog_rl_parse_line(line, &cmds[n]);
		if (err)
			goto out;
		n++;
	}

	mutex_lock(&nslog_rl_mutex);
	for (i = 0; i < n && !err; i++)
		err = nslog_rl_do(&cmds[i], &freed);
	nslog_rl_update_levels();
	mutex_unlock(&nslog_rl_mutex);
	nslog_rl_free_list(&freed);

out:
	for (i = 0; cmds && i < n; i++)
		if (cmds[i].cgrp)
			cgroup_put(cmds[i].cgrp);
	kfree(cmds);
	kfree(copy);
	return err;
}

static void nslog_rl_show_rate(struct seq_file *m, const char *name, u64 n,
			       u64 period_ns, u64 burst)
{
	if (!n) {
		seq_printf(m, " %s=- %s_burst=-", name, name);
		return;
	}
	if (period_ns % NSEC_PER_SEC)
		seq_printf(m, " %s=%llu/%llums", name, n,
			   period_ns / NSEC_PER_MSEC);
	else
		seq_printf(m, " %s=%llu/%llus", name, n,
			   period_ns / NSEC_PER_SEC);
	seq_printf(m, " %s_burst=%llu", name, burst);
}

/**
 * nslog_rl_show() - list rules and their statistics, for the admin file
 * @m: the seq_file
 * @v: unused
 *
 * One line per bucket: the cgroup path, whether it is a rule or a default
 * bucket, the limits, then records and bytes accepted and dropped, and the
 * records and bytes the bucket would let through now.
 *
 * Context: process context, may sleep.
 * Return: 0.
 */
int nslog_rl_show(struct seq_file *m, void *v)
{
	struct nslog_rl_rule *r;
	char *path;
	int bkt;

	path = kmalloc(PATH_MAX, GFP_KERNEL);
	if (!path)
		return -ENOMEM;
	mutex_lock(&nslog_rl_mutex);
	if (nslog_rl_default_on) {
		seq_puts(m, "default");
		nslog_rl_show_rate(m, "records", nslog_rl_default.records,
				   nslog_rl_default.records_period_ns,
				   nslog_rl_default.records_burst);
		nslog_rl_show_rate(m, "bytes", nslog_rl_default.bytes,
				   nslog_rl_default.bytes_period_ns,
				   nslog_rl_default.bytes_burst);
		seq_putc(m, '\n');
	}
	hash_for_each(nslog_rl_table, bkt, r, node) {
		struct nslog_rl_tb rec, bytes;
		u64 acc, accb, drop, dropb, now = ktime_get_ns();

		if (cgroup_path_ns(r->cgrp, path, PATH_MAX,
				   current->nsproxy->cgroup_ns) < 0)
			strscpy(path, "?", PATH_MAX);
		spin_lock(&r->lock);
		rec = r->rec;
		bytes = r->bytes;
		nslog_rl_tb_refill(&rec, nslog_rl_elapsed(r->last_ns, now));
		nslog_rl_tb_refill(&bytes, nslog_rl_elapsed(r->last_ns, now));
		acc = r->accepted;
		accb = r->accepted_bytes;
		drop = r->dropped;
		dropb = r->dropped_bytes;
		spin_unlock(&r->lock);

		seq_printf(m, "%s kind=%s", path, r->dynamic ? "default" : "rule");
		nslog_rl_show_rate(m, "records", r->limit.records,
				   r->limit.records_period_ns,
				   r->limit.records_burst);
		nslog_rl_show_rate(m, "bytes", r->limit.bytes,
				   r->limit.bytes_period_ns,
				   r->limit.bytes_burst);
		seq_printf(m, " accepted=%llu accepted_bytes=%llu dropped=%llu dropped_bytes=%llu",
			   acc, accb, drop, dropb);
		if (rec.rate)
			seq_printf(m, " tokens=%llu", nslog_rl_tb_units(&rec));
		else
			seq_puts(m, " tokens=-");
		if (bytes.rate)
			seq_printf(m, " byte_tokens=%llu\n",
				   nslog_rl_tb_units(&bytes));
		else
			seq_puts(m, " byte_tokens=-\n");
	}
	mutex_unlock(&nslog_rl_mutex);
	kfree(path);
	return 0;
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
	hash_for_each_safe(nslog_rl_table, bkt, tmp, r, node)
		if (r->dynamic)
			nslog_rl_unhash(r, &freed);
	if (on)
		nslog_rl_default = l;
	WRITE_ONCE(nslog_rl_default_on, on);
	mutex_unlock(&nslog_rl_mutex);
	nslog_rl_free_list(&freed);
	return 0;
}

static int nslog_rl_param_get_default(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%s\n",
			  READ_ONCE(nslog_rl_default_on) ? "on" : "off");
}

static const struct kernel_param_ops nslog_rl_default_ops = {
	.set = nslog_rl_param_set_default,
	.get = nslog_rl_param_get_default,
};
module_param_cb(default_limit, &nslog_rl_default_ops, NULL, 0644);
MODULE_PARM_DESC(default_limit,
		 "bucket for each cgroup without a rule, e.g. \"records=10000/30s\" (default off)");

/*
 * Whether @cgrp was removed.  Not css_is_dying(): on 6.12 that tests
 * CSS_DYING, which only subsystem states get; rmdir clears CSS_ONLINE
 * of the cgroup's own state on every kernel.  The root is never removed.
 */
static bool nslog_rl_cgroup_removed(struct cgroup *cgrp)
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
	hash_for_each_safe(nslog_rl_table, bkt, tmp, r, node)
		if (nslog_rl_cgroup_removed(r->cgrp))
			nslog_rl_unhash(r, &freed);
	nslog_rl_update_levels();
	any = nslog_rl_count;
	mutex_unlock(&nslog_rl_mutex);
	nslog_rl_free_list(&freed);
	if (any && !READ_ONCE(nslog_rl_exiting))
		queue_delayed_work(system_wq, &nslog_rl_gc_work, HZ);
}

/**
 * nslog_rl_init() - start with no rules
 *
 * Context: module init.
 * Return: 0.
 */
int nslog_rl_init(void)
{
	return 0;
}

/**
 * nslog_rl_exit() - free every rule
 *
 * Context: module exit; no write can be in progress.
 */
void nslog_rl_exit(void)
{
	struct nslog_rl_rule *r;
	struct hlist_node *tmp;
	LIST_HEAD(freed);
	int bkt;

	WRITE_ONCE(nslog_rl_exiting, true);
	cancel_delayed_work_sync(&nslog_rl_gc_work);
	mutex_lock(&nslog_rl_mutex);
	hash_for_each_safe(nslog_rl_table, bkt, tmp, r, node)
		nslog_rl_unhash(r, &freed);
	WRITE_ONCE(nslog_rl_levels, 0);
	WRITE_ONCE(nslog_rl_default_on, false);
	mutex_unlock(&nslog_rl_mutex);
	nslog_rl_free_list(&freed);
}
