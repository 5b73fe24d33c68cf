/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ringfit: a log given the size asked, or the largest the host allows.
 */
#ifndef NSLOGD_RINGFIT_H
#define NSLOGD_RINGFIT_H

#include <stdint.h>

/* The smallest ring the kernel makes (NSLOG_IOC_SET_SIZE's -EINVAL). */
#define NSLOGD_RING_MIN		(8u << 10)

/*
 * The ioctl, or the tests' stand-in: like NSLOG_IOC_RELAY's in store.h,
 * the only way control reaches the kernel. Returns what ioctl() returns
 * (0 or more), or -errno.
 */
typedef long nslogd_ringctl_ioctl_fn(int fd, unsigned long req, void *arg);

long nslogd_ringfit(nslogd_ringctl_ioctl_fn *ioctl_fn, int fd, uint32_t bytes);

#endif /* NSLOGD_RINGFIT_H */
