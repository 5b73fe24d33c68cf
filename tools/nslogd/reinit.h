/* SPDX-License-Identifier: GPL-2.0 */
/*
 * reinit: `nslogd --reinit`, the client logd.rc's logd-reinit service runs.
 */
#ifndef NSLOGD_REINIT_H
#define NSLOGD_REINIT_H

int nslogd_reinit_client(const char *dir, int timeout_ms);

#endif /* NSLOGD_REINIT_H */
