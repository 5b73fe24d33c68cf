/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nslogger: the rate limits' admin interface (admin.c): the limit parser,
 * shared with the default_limit parameter.
 */
#ifndef _NSLOG_RL_ADMIN_H
#define _NSLOG_RL_ADMIN_H

#include "rule.h"

int nslog_rl_parse_limit(char *args, struct nslog_rl_limit *l);

#endif /* _NSLOG_RL_ADMIN_H */
