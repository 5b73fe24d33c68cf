/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _NSLOG_RATELIMIT_H
#define _NSLOG_RATELIMIT_H

#include <linux/types.h>

struct cgroup;
struct seq_file;

/**
 * struct nslog_rl_notice - drops to report before a record that passed
 * @cgrp: the cgroup whose bucket dropped them (a counted reference), or
 *	NULL when there is nothing to report
 * @records: records dropped since the last report
 * @bytes: their payload bytes
 */
struct nslog_rl_notice {
	struct cgroup *cgrp;
	u64 records;
	u64 bytes;
};

int nslog_rl_charge(u64 log, size_t len, struct nslog_rl_notice *notice);
void nslog_rl_notice_done(struct nslog_rl_notice *notice);
bool nslog_rl_drop_fails(void);
int nslog_rl_format_notice(const struct nslog_rl_notice *notice, char *buf,
			   size_t size);

int nslog_rl_show(struct seq_file *m, void *v);
ssize_t nslog_rl_write(const char *text);

int nslog_rl_init(void);
void nslog_rl_exit(void);

#endif /* _NSLOG_RATELIMIT_H */
