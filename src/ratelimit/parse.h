/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nslogger: parsing a rate limit (parse.c), for the admin file and the
 * default_limit parameter.
 */
#ifndef _NSLOG_RL_PARSE_H
#define _NSLOG_RL_PARSE_H

#include "rule.h"

int nslog_rl_parse_limit(char *args, struct nslog_rl_limit *l);

#endif /* _NSLOG_RL_PARSE_H */
