// SPDX-License-Identifier: GPL-2.0
/*
 * nslogger: the administrator's interface to the rate limits,
 * /proc/nslogger/limits (see src/proc.c for who may open it).
 */

#include <linux/cgroup.h>
#include <linux/ctype.h>
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/nsproxy.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>

#include <uapi/linux/nslogger.h>

#include "default.h"
#include "parse.h"
#include "ratelimit.h"
#include "table.h"

/*
 * The administrator's interface: /proc/nslogger/limits (see src/proc.c).
 *
 *   set PATH [records=N/PERIOD] [records_burst=B] [bytes=SIZE/PERIOD]
 *            [bytes_burst=SIZE]
 *   clear PATH
 *
 * PATH is a cgroup v2 path from the root of the hierarchy, /a/b; the
 * limit after it is parsed by parse.c.  One command per line; a write is
 * parsed whole before anything is applied, so a bad line changes nothing.
 */

/**
 * struct nslog_rl_cmd - one parsed line of the admin interface
 * @cgrp: its cgroup, a counted reference
 * @clear: remove the rule rather than set it
 * @limit: the limit, for a set
 * @rule: for a set, a rule allocated before the mutex is taken, used if
 *	the cgroup has none yet
 */
struct nslog_rl_cmd {
	struct cgroup *cgrp;
	bool clear;
	struct nslog_rl_limit limit;
	struct nslog_rl_rule *rule;
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
		cmd->rule = kzalloc(sizeof(*cmd->rule), GFP_KERNEL_ACCOUNT);
		if (!cmd->rule)
			return -ENOMEM;
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
	u64 now = ktime_get_ns();
	int err;

	lockdep_assert_held(&nslog_rl_mutex);
	if (cmd->clear) {
		if (!r || r->kind != NSLOG_RL_RULE)
			return -ENOENT;
		nslog_rl_unhash(r, freed);
		return 0;
	}
	if (r) {
		/*
		 * A default bucket becomes the rule, with its credit.
		 * Paired with READ_ONCE() in nslog_rl_rule_at().
		 */
		WRITE_ONCE(r->kind, NSLOG_RL_RULE);
		return nslog_rl_rule_apply(r, &cmd->limit, now);
	}
	r = cmd->rule;
	nslog_rl_rule_init(r, cmd->cgrp, NSLOG_RL_RULE);
	err = nslog_rl_rule_apply(r, &cmd->limit, now);
	if (!err)
		err = nslog_rl_insert(r);
	if (err) {
		r->cgrp = NULL;
		return err;
	}
	/* The rule has the cgroup's reference and is the table's now. */
	cmd->cgrp = NULL;
	cmd->rule = NULL;
	return 0;
}

#define NSLOG_RL_MAX_CMDS	64

/**
 * nslog_rl_write() - carry out the commands written to the admin file
 * @text: NUL-terminated text, one command per line
 *
 * Every line is parsed, every cgroup looked up and every new rule
 * allocated before any is applied, so the mutex is held across no
 * allocation.
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
	/* A line that failed to parse may hold a cgroup or a rule too. */
	for (i = 0; cmds && i <= n && i < NSLOG_RL_MAX_CMDS; i++) {
		if (cmds[i].cgrp)
			cgroup_put(cmds[i].cgrp);
		kfree(cmds[i].rule);
	}
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

static void nslog_rl_show_limit(struct seq_file *m,
				const struct nslog_rl_limit *l)
{
	nslog_rl_show_rate(m, "records", l->records, l->records_period_ns,
			   l->records_burst);
	nslog_rl_show_rate(m, "bytes", l->bytes, l->bytes_period_ns,
			   l->bytes_burst);
}

static void nslog_rl_show_one(struct seq_file *m, const char *path,
			      const char *kind, struct nslog_rl_rule *r,
			      u64 now)
{
	struct nslog_rl_stats st;

	nslog_rl_rule_stats(r, now, &st);
	seq_printf(m, "%s kind=%s", path, kind);
	nslog_rl_show_limit(m, &st.limit);
	seq_printf(m, " accepted=%llu accepted_bytes=%llu dropped=%llu dropped_bytes=%llu",
		   st.accepted, st.accepted_bytes, st.dropped, st.dropped_bytes);
	if (st.tokens != U64_MAX)
		seq_printf(m, " tokens=%llu", st.tokens);
	else
		seq_puts(m, " tokens=-");
	if (st.byte_tokens != U64_MAX)
		seq_printf(m, " byte_tokens=%llu\n", st.byte_tokens);
	else
		seq_puts(m, " byte_tokens=-\n");
}

static const char *const nslog_rl_kinds[] = {
	[NSLOG_RL_RULE]		= "rule",
	[NSLOG_RL_DEFAULT]	= "default",
	[NSLOG_RL_OVERFLOW]	= "overflow",
};

/**
 * nslog_rl_show() - list rules and their statistics, for the admin file
 * @m: the seq_file
 * @v: unused
 *
 * With a default limit, first a "default" line with it.  Then one line per
 * bucket of a cgroup not removed: the cgroup path, whether it is a rule or
 * a default bucket, the limits, then records and bytes accepted and dropped, and the records and
 * bytes the bucket would let through now.  With a default limit, last the
 * overflow bucket's line, whose path is "(overflow)".
 *
 * Context: process context, may sleep.
 * Return: 0.
 */
int nslog_rl_show(struct seq_file *m, void *v)
{
	struct nslog_rl_limit dflt;
	struct nslog_rl_rule *r;
	bool on;
	char *path;
	int bkt;

	path = kmalloc(PATH_MAX, GFP_KERNEL);
	if (!path)
		return -ENOMEM;
	mutex_lock(&nslog_rl_mutex);
	on = nslog_rl_default_get(&dflt);
	if (on) {
		seq_puts(m, "default");
		nslog_rl_show_limit(m, &dflt);
		seq_putc(m, '\n');
	}
	nslog_rl_for_each_rule(bkt, r) {
		/* Its path may already name a new cgroup: not listed twice. */
		if (nslog_rl_cgroup_removed(r->cgrp))
			continue;
		if (cgroup_path_ns(r->cgrp, path, PATH_MAX,
				   current->nsproxy->cgroup_ns) < 0)
			strscpy(path, "?", PATH_MAX);
		nslog_rl_show_one(m, path, nslog_rl_kinds[r->kind], r,
				  ktime_get_ns());
	}
	if (on)
		nslog_rl_show_one(m, "(overflow)",
				  nslog_rl_kinds[NSLOG_RL_OVERFLOW],
				  nslog_rl_overflow(), ktime_get_ns());
	mutex_unlock(&nslog_rl_mutex);
	kfree(path);
	return 0;
}
