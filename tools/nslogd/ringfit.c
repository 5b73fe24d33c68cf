// SPDX-License-Identifier: GPL-2.0
/*
 * ringfit: NSLOG_IOC_SET_SIZE within limits nslogd cannot read.
 *
 * The kernel rounds a size up to a power of two and refuses one above
 * what the host allows the set (-EFBIG: ns_max_size for a container's
 * set), a limit the container cannot read; a stream's size also counts
 * against the limits of the mount it is sized through and of its owner
 * (-ENOSPC, -EDQUOT: docs/nslogfs.md), which the four logs never meet.
 * So the power of two at or above the size asked is tried first, then
 * each next lower one until the kernel takes one: at most log2(size /
 * 8 KiB) calls, each refusal free. setLogSize (ringctl.c) and a stream
 * made on first use (streams.c) size their logs so.
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>

#include <linux/nslogger.h>

#include "ringfit.h"

static uint32_t roundup_pow2(uint32_t v)
{
	uint32_t p = NSLOGD_RING_MIN;

	while (p < v && p < (1u << 31))
		p <<= 1;
	return p;
}

/* Refusals that a smaller ring may pass. */
static bool too_big(long r)
{
	return r == -EFBIG || r == -ENOSPC || r == -EDQUOT;
}

/**
 * nslogd_ringfit() - give a log the size asked, or the most allowed
 * @ioctl_fn: nslogd_ringctl_ioctl(), or a stand-in
 * @fd: a write fd of the log
 * @bytes: the size asked
 *
 * Context: process; the kernel moves the kept records, at most one
 * ring's worth of memcpy().
 * Return: the log's size now, read back, not assumed; or -errno (-EPERM:
 * no CAP_SYSLOG over the set; -ENOMEM: the memory cgroup is full; a
 * limit's error when not even NSLOGD_RING_MIN fits).
 */
long nslogd_ringfit(nslogd_ringctl_ioctl_fn *ioctl_fn, int fd, uint32_t bytes)
{
	uint32_t want = roundup_pow2(bytes);
	long r;

	for (;;) {
		r = ioctl_fn(fd, NSLOG_IOC_SET_SIZE, &want);
		if (!too_big(r) || want <= NSLOGD_RING_MIN)
			break;
		want >>= 1;
	}
	if (r >= 0)
		r = ioctl_fn(fd, LOGGER_GET_LOG_BUF_SIZE, NULL);
	return r;
}
