/* SPDX-License-Identifier: GPL-2.0 */
/*
 * logdev: struct nslog_kops on the real devices: NSLOG_IOC_OPEN_NS,
 * NSLOG_IOC_OPEN_STREAM, NSLOG_IOC_INFO, NSLOG_IOC_SEEK and read().
 */
#ifndef NSLOG_LOGDEV_H
#define NSLOG_LOGDEV_H

#include "devpath.h"
#include "logset.h"

struct nslog_logdev {
	int node[NSLOG_KLOG_COUNT];	/* a file of each log's node, or -1 */
	char path[NSLOG_KLOG_COUNT][NSLOG_PATH_MAX];
};

int nslog_logdev_init(struct nslog_logdev *d, const char *dev_dir,
		      unsigned int logmask, int *failed);
void nslog_logdev_ops(struct nslog_logdev *d, struct nslog_kops *k);
void nslog_logdev_close(struct nslog_logdev *d);

#endif /* NSLOG_LOGDEV_H */
