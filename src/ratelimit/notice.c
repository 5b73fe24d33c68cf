// SPDX-License-Identifier: GPL-2.0
/*
 * nslogger: reporting rate-limit drops.
 */

/**
 * DOC: notices
 *
 * A bucket that refuses records remembers, per log, how many records and
 * bytes it dropped.  They are reported by a notice, a record the kernel
 * writes in that log just before a record of that bucket that passes:
 * "nslogger: suppressed N records (M bytes) from PATH".  The notice is
 * stamped as written by that record's writer and flagged NSLOG_REC_KERNEL.
 *
 * At most one notice per bucket and log goes out per notice_interval_ms
 * (journald reports its suppressions once per window the same way): a
 * record that passes sooner carries none, and the drops wait for a later
 * one.  So a writer held to N records a second puts N records and one
 * notice a second into the ring, not 2N, however hard it floods; every
 * drop is still reported, by exactly one notice, so the notices add up to
 * the bucket's dropped counts once the last one is out.
 *
 * A bucket keeps NSLOG_RL_PENDING such slots.  A slot is free once it has
 * nothing to report and its last notice is an interval old; with every
 * slot in use, the slot after the one reused last is given up, its drops
 * left in the bucket's totals only.
 */

#include <linux/cgroup.h>
#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/nsproxy.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/time64.h>

#include "rule.h"

unsigned int nslog_rl_notice_interval_ms = 1000;
module_param_named(notice_interval_ms, nslog_rl_notice_interval_ms, uint,
		   0644);
MODULE_PARM_DESC(notice_interval_ms,
		 "least time between two suppression notices of one bucket in one log (default 1000)");

static u64 nslog_rl_interval_ns(void)
{
	return (u64)READ_ONCE(nslog_rl_notice_interval_ms) * NSEC_PER_MSEC;
}

/* Whether a notice in @p's log may go out at @now. */
static bool nslog_rl_interval_over(const struct nslog_rl_pending *p, u64 now)
{
	return !p->noticed_ns ||
	       nslog_rl_elapsed(p->noticed_ns, now) >= nslog_rl_interval_ns();
}

static struct nslog_rl_pending *nslog_rl_slot_find(struct nslog_rl_rule *r,
						   u64 log)
{
	unsigned int i;

	for (i = 0; i < NSLOG_RL_PENDING; i++)
		if (r->pending[i].log == log)
			return &r->pending[i];
	return NULL;
}

/*
 * A slot for @log: its own, else one that is free, else one with nothing
 * to report whose interval is still running (that log may then get its
 * next notice early), else the next one in turn, given up.
 */
static struct nslog_rl_pending *nslog_rl_slot_get(struct nslog_rl_rule *r,
						  u64 log, u64 now)
{
	struct nslog_rl_pending *p = nslog_rl_slot_find(r, log);
	struct nslog_rl_pending *quiet = NULL;
	unsigned int i;

	if (p)
		return p;
	for (i = 0; i < NSLOG_RL_PENDING && !p; i++) {
		struct nslog_rl_pending *s = &r->pending[i];

		if (s->records)
			continue;
		if (nslog_rl_interval_over(s, now))
			p = s;
		else if (!quiet)
			quiet = s;
	}
	if (!p)
		p = quiet;
	if (!p) {
		p = &r->pending[r->evict];
		r->evict = (r->evict + 1) % NSLOG_RL_PENDING;
	}
	*p = (struct nslog_rl_pending){ .log = log };
	return p;
}

/**
 * nslog_rl_pend() - add drops to what a rule has to report in one log
 * @r: the rule, locked
 * @log: the log's nslog_log.rl_key
 * @now: the time
 * @records: records dropped
 * @bytes: their payload bytes
 *
 * Context: with @r's lock held.
 */
void nslog_rl_pend(struct nslog_rl_rule *r, u64 log, u64 now, u64 records,
		   u64 bytes)
{
	struct nslog_rl_pending *p = nslog_rl_slot_get(r, log, now);

	p->records += records;
	p->bytes += bytes;
}

/**
 * nslog_rl_notice_take() - hand out a rule's drops in one log, if due
 * @r: the rule, locked
 * @log: the log's nslog_log.rl_key
 * @now: the time
 * @notice: empty; filled in (with a reference on @r's cgroup) if @r has
 *	drops in @log and its last notice there is an interval old
 *
 * Context: with @r's lock held.
 */
void nslog_rl_notice_take(struct nslog_rl_rule *r, u64 log, u64 now,
			  struct nslog_rl_notice *notice)
{
	struct nslog_rl_pending *p = nslog_rl_slot_find(r, log);

	if (!p || !p->records || !nslog_rl_interval_over(p, now))
		return;
	notice->from = r;
	/* The rule holds one, so this cannot fail. */
	notice->cgrp = r->cgrp;
	if (notice->cgrp)
		cgroup_get(notice->cgrp);
	notice->records = p->records;
	notice->bytes = p->bytes;
	notice->prev_ns = p->noticed_ns;
	p->records = 0;
	p->bytes = 0;
	/* 0 means never: a notice at time 0 is dated 1. */
	p->noticed_ns = now ?: 1;
}

/**
 * nslog_rl_notice_return() - take back a notice whose record was refused
 * @r: the rule that handed it out, locked
 * @log: as given to nslog_rl_notice_take()
 * @now: the time
 * @notice: the notice; emptied, its reference dropped
 *
 * The drops wait for the next notice, and the interval counts from the
 * notice before, as this one never went out.
 *
 * Context: with @r's lock held.
 */
void nslog_rl_notice_return(struct nslog_rl_rule *r, u64 log, u64 now,
			    struct nslog_rl_notice *notice)
{
	struct nslog_rl_pending *p = nslog_rl_slot_get(r, log, now);

	p->records += notice->records;
	p->bytes += notice->bytes;
	p->noticed_ns = notice->prev_ns;
	if (notice->cgrp)
		cgroup_put(notice->cgrp);
	*notice = (struct nslog_rl_notice){ };
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
	*notice = (struct nslog_rl_notice){ };
}

/**
 * nslog_rl_format_notice() - the text of a notice
 * @notice: a notice with drops to report
 * @buf: where to write it
 * @size: room in @buf
 *
 * The cgroup path is shown as the current task's cgroup namespace sees it,
 * so a container's readers are not told the host's layout; the overflow
 * bucket's is "(overflow)".
 *
 * Context: process context, may sleep.
 * Return: the length written, without the NUL.
 */
int nslog_rl_format_notice(const struct nslog_rl_notice *notice, char *buf,
			   size_t size)
{
	char path[NSLOG_RL_NOTICE_PATH_MAX];

	if (!notice->cgrp)
		strscpy(path, "(overflow)", sizeof(path));
	else if (cgroup_path_ns(notice->cgrp, path, sizeof(path),
				current->nsproxy->cgroup_ns) < 0)
		strscpy(path, "?", sizeof(path));
	return scnprintf(buf, size,
			 "nslogger: suppressed %llu records (%llu bytes) from %s",
			 notice->records, notice->bytes, path);
}
