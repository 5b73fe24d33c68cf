/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nslogger: the rate limits, as the rest of the module sees them: charging
 * a record (charge.c), reporting drops (notice.c), the administrator's file
 * (admin.c), and setting up and tearing down (ratelimit.c).
 */
#ifndef _NSLOG_RATELIMIT_H
#define _NSLOG_RATELIMIT_H

#include <linux/compiler.h>
#include <linux/types.h>

struct cgroup;
struct seq_file;
struct task_struct;

/**
 * struct nslog_rl_notice - drops to report before a record that passed
 * @from: the bucket that handed them out; compared only, never followed
 * @cgrp: that bucket's cgroup (a counted reference), or NULL for the
 *	overflow bucket
 * @records: records dropped since the bucket's last notice in this log; 0
 *	when there is nothing to report
 * @bytes: their payload bytes
 * @prev_ns: when the bucket's notice before this one was handed out, for
 *	nslog_rl_rule_give() to put back
 */
struct nslog_rl_notice {
	const void *from;
	struct cgroup *cgrp;
	u64 records;
	u64 bytes;
	u64 prev_ns;
};

/*
 * Whether any rule exists, by level (table.c), and whether default_limit
 * is set (default.c): written under nslog_rl_mutex, read locklessly by
 * every write.
 */
extern u32 nslog_rl_level_map;
extern bool nslog_rl_dflt_on;

/* No rule and no default limit: nothing to charge, known from two loads. */
static inline bool nslog_rl_idle(void)
{
	return !READ_ONCE(nslog_rl_level_map) && !READ_ONCE(nslog_rl_dflt_on);
}

int nslog_rl_charge_walk(u64 log, size_t len, struct nslog_rl_notice *notice);
int nslog_rl_charge_task_walk(struct task_struct *task, u64 log, size_t len,
			      struct nslog_rl_notice *notice);

/**
 * nslog_rl_charge() - charge one record to the writer's cgroups
 * @log: the nslog_log.rl_key of the log the record goes to
 * @len: its payload length
 * @notice: zeroed by the caller; filled in if drops are to be reported
 *	before this record (then nslog_rl_notice_done() must follow)
 *
 * With no rule and no default limit a write is charged nothing, and this
 * costs two loads: the walk (charge.c) is not even called.  The writer,
 * current, is read by the walk, so write() does not load it here.
 *
 * Context: process context, may sleep (a default bucket may be made).
 * Return: 0 if the record may be stored, -EAGAIN if a limit dropped it.
 */
static inline int nslog_rl_charge(u64 log, size_t len,
				  struct nslog_rl_notice *notice)
{
	if (likely(nslog_rl_idle()))
		return 0;
	return nslog_rl_charge_walk(log, len, notice);
}

/**
 * nslog_rl_charge_task() - charge one record to a given task's cgroups
 * @task: the writer, held by the caller: the task a relay names for
 *	NSLOG_IOC_RELAY (src/relay.c), or the relay itself
 * @log: as for nslog_rl_charge()
 * @len: as for nslog_rl_charge()
 * @notice: as for nslog_rl_charge()
 *
 * As nslog_rl_charge(), for a record stored on another task's behalf.
 *
 * Context: process context, may sleep (a default bucket may be made).
 * Return: as for nslog_rl_charge().
 */
static inline int nslog_rl_charge_task(struct task_struct *task, u64 log,
				       size_t len,
				       struct nslog_rl_notice *notice)
{
	if (likely(nslog_rl_idle()))
		return 0;
	return nslog_rl_charge_task_walk(task, log, len, notice);
}

void nslog_rl_notice_done(struct nslog_rl_notice *notice);
bool nslog_rl_drop_fails(void);
/*
 * The longest cgroup path a notice shows, its NUL included (longer ones
 * are cut), and so the longest notice text, its NUL included:
 * "nslogger: suppressed " (21), a u64 (20), " records (" (10), a u64,
 * " bytes) from " (13) and the path.
 */
#define NSLOG_RL_NOTICE_PATH_MAX	256
#define NSLOG_RL_NOTICE_MAX	(21 + 20 + 10 + 20 + 13 + \
				 NSLOG_RL_NOTICE_PATH_MAX)

int nslog_rl_format_notice(const struct nslog_rl_notice *notice, char *buf,
			   size_t size);

int nslog_rl_show(struct seq_file *m, void *v);
ssize_t nslog_rl_write(const char *text);

int nslog_rl_init(void);
void nslog_rl_exit(void);

#endif /* _NSLOG_RATELIMIT_H */
