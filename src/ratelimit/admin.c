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

#include "admin.h"
#include "default.h"
#include "ratelimit.h"
#include "table.h"

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
