// SPDX-License-Identifier: GPL-2.0
/*
 * nslogger: the rate limits' setup and teardown, for main.c.
 *
 * The one file above both the default limit (default.c) and the rule table
 * (table.c) that has to stop them in order: first no new default bucket,
 * then every rule freed.
 */

#include <linux/mutex.h>

#include "default.h"
#include "ratelimit.h"
#include "table.h"

/**
 * nslog_rl_init() - start with no rules (default_limit may already be set)
 *
 * Context: module init.
 * Return: 0.
 */
int nslog_rl_init(void)
{
	return 0;
}

/**
 * nslog_rl_exit() - stop charging default buckets and free every rule
 *
 * Context: module exit; no write can be in progress.
 */
void nslog_rl_exit(void)
{
	mutex_lock(&nslog_rl_mutex);
	nslog_rl_default_off();
	mutex_unlock(&nslog_rl_mutex);
	nslog_rl_table_exit();
}
