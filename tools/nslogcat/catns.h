/* SPDX-License-Identifier: GPL-2.0 */
/*
 * catns: what nslogcat --ns names: an IPC namespace, by an nsfs file
 * (opened) or by its id.
 */
#ifndef NSLOG_CATNS_H
#define NSLOG_CATNS_H

#include <stdint.h>

int nslog_catns_resolve(const char *ns, int *ns_fd, uint64_t *ns_id);

#endif /* NSLOG_CATNS_H */
