/* SPDX-License-Identifier: GPL-2.0 */
/*
 * logcred: whether a writer has Android's log credentials, the condition
 * for writing the security log.
 */
#ifndef NSLOGD_LOGCRED_H
#define NSLOGD_LOGCRED_H

#include <stdbool.h>
#include <sys/socket.h>
#include <sys/types.h>

bool nslogd_logcred(const struct ucred *cred);
bool nslogd_logcred_groups(const char *status, gid_t gid);
void nslogd_logcred_set_proc(const char *dir);

#endif /* NSLOGD_LOGCRED_H */
