/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ringctl: what the control socket asks of the set's logs, through the
 * logger ioctls: a ring's size, how much of it is used, a flush, a
 * resize within what the host allows, and a fresh reader for statistics;
 * for logs 0 to 3 on the set's nodes, for 4 to 7 on their streams.
 */
#ifndef NSLOGD_RINGCTL_H
#define NSLOGD_RINGCTL_H

#include <stdint.h>

#include "ringfit.h"
#include "streams.h"

struct nslogd_ringctl {
	const char *dev_dir;		/* as nslog_dev_path() takes it */
	nslogd_ringctl_ioctl_fn *ioctl;
	struct nslogd_streams *streams;	/* logs 4 to 7; NULL: none */
};

void nslogd_ringctl_init(struct nslogd_ringctl *rc, const char *dev_dir,
			 nslogd_ringctl_ioctl_fn *ioctl_fn);
long nslogd_ringctl_ioctl(int fd, unsigned long req, void *arg);
int nslogd_ringctl_open(const struct nslogd_ringctl *rc, unsigned int log,
			int flags);
long nslogd_ringctl_size(const struct nslogd_ringctl *rc, unsigned int log);
long nslogd_ringctl_used(const struct nslogd_ringctl *rc, unsigned int log);
int nslogd_ringctl_flush(const struct nslogd_ringctl *rc, unsigned int log);
long nslogd_ringctl_resize(const struct nslogd_ringctl *rc, unsigned int log,
			   uint32_t bytes);
int nslogd_ringctl_reader(const struct nslogd_ringctl *rc, unsigned int log,
			  uint64_t *head_seq, uint64_t *tail_seq);

#endif /* NSLOGD_RINGCTL_H */
