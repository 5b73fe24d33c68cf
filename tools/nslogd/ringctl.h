/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ringctl: what the control socket asks of the set's logs, through the
 * logger ioctls: a ring's size, how much of it is used, a flush, a
 * resize within what the host allows, and a fresh reader for statistics.
 */
#ifndef NSLOGD_RINGCTL_H
#define NSLOGD_RINGCTL_H

#include <stdint.h>

/* The smallest ring the kernel makes (NSLOG_IOC_SET_SIZE's -EINVAL). */
#define NSLOGD_RING_MIN		(8u << 10)

/*
 * The ioctl, or the tests' stand-in: like NSLOG_IOC_RELAY's in store.h,
 * the only way control reaches the kernel. Returns what ioctl() returns
 * (0 or more), or -errno.
 */
typedef long nslogd_ringctl_ioctl_fn(int fd, unsigned long req, void *arg);

struct nslogd_ringctl {
	const char *dev_dir;		/* as nslog_dev_path() takes it */
	nslogd_ringctl_ioctl_fn *ioctl;
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
