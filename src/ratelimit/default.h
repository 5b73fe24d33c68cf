/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nslogger: the default limit: default buckets and the overflow bucket
 * (default.c).
 */
#ifndef _NSLOG_RL_DEFAULT_H
#define _NSLOG_RL_DEFAULT_H

#include <linux/compiler.h>
#include <linux/minmax.h>
#include <linux/types.h>

#include "ratelimit.h"
#include "rule.h"

struct cgroup;

/**
 * nslog_rl_default_enabled() - whether default_limit is set
 *
 * Context: any.
 * Return: true if writes are charged to default buckets.
 */
static inline bool nslog_rl_default_enabled(void)
{
	/* Paired with WRITE_ONCE() in nslog_rl_param_set_default(). */
	return READ_ONCE(nslog_rl_dflt_on);
}

/* default_level (default.c), read locklessly. */
extern unsigned int nslog_rl_dflt_level;

/**
 * nslog_rl_default_level() - the level of a writer's default bucket
 * @own: the level of the writer's cgroup
 *
 * Context: any.
 * Return: default_level, or @own if that is shallower.
 */
static inline int nslog_rl_default_level(int own)
{
	return min_t(unsigned int, own, READ_ONCE(nslog_rl_dflt_level));
}

void nslog_rl_default_make(struct cgroup *cgrp);
struct nslog_rl_rule *nslog_rl_overflow(void);
bool nslog_rl_default_get(struct nslog_rl_limit *l);
void nslog_rl_default_off(void);

#endif /* _NSLOG_RL_DEFAULT_H */
