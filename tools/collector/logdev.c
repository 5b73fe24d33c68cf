// SPDX-License-Identifier: GPL-2.0
/*
 * logdev: the kernel side of the collector.
 *
 * One write-only file on each followed log's node (found as nslogcat
 * finds it, devpath.c) is kept open for NSLOG_IOC_OPEN_NS, which returns
 * a read fd on the same log of any namespace's set, by id (CAP_SYSLOG).
 * That fd is made non-blocking and switched to nslogger's own header:
 * NSLOG_ENTRY2_VERSION, which shows a relayed record's relay and when it
 * was stored, or NSLOG_ENTRY_VERSION from a module older than relays,
 * which refuses the newer version with EINVAL.
 * A stream is opened by name (NSLOG_IOC_OPEN_STREAM) through any of
 * those files: the ioctl does not depend on the file's own log.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "logdev.h"

/* The kernel's log ids, and the node of each (devpath's numbering). */
static const int nslog_klog_buf[NSLOG_KLOG_COUNT] = {
	[NSLOG_KLOG_MAIN]	= NSLOG_BUF_MAIN,
	[NSLOG_KLOG_EVENTS]	= NSLOG_BUF_EVENTS,
	[NSLOG_KLOG_RADIO]	= NSLOG_BUF_RADIO,
	[NSLOG_KLOG_SYSTEM]	= NSLOG_BUF_SYSTEM,
};

/**
 * nslog_logdev_init() - open the nodes of the followed logs
 * @d: filled in
 * @dev_dir: --dev-dir, or NULL (devpath.c's search)
 * @logmask: the logs, bit (1 << kernel log id)
 * @failed: on error, set to the log that failed
 *
 * Context: process context.
 * Return: 0, or a negative errno (nothing is left open).
 */
int nslog_logdev_init(struct nslog_logdev *d, const char *dev_dir,
		      unsigned int logmask, int *failed)
{
	unsigned int i;
	int ret;

	for (i = 0; i < NSLOG_KLOG_COUNT; i++) {
		d->node[i] = -1;
		d->path[i][0] = '\0';
	}
	for (i = 0; i < NSLOG_KLOG_COUNT; i++) {
		if (!(logmask & (1u << i)))
			continue;
		*failed = (int)i;
		ret = nslog_dev_path(d->path[i], sizeof(d->path[i]),
				     nslog_klog_buf[i], dev_dir);
		if (ret)
			goto fail;
		d->node[i] = open(d->path[i], O_WRONLY | O_CLOEXEC);
		if (d->node[i] < 0) {
			ret = -errno;
			goto fail;
		}
	}
	return 0;
fail:
	nslog_logdev_close(d);
	return ret;
}

static int nslog_logdev_version(int fd, int version)
{
	return ioctl(fd, LOGGER_SET_VERSION, &version) ? -errno : 0;
}

/* Make a new read fd non-blocking, with nslogger's header. */
static int nslog_logdev_setup(int fd)
{
	int ret;

	if (fd < 0)
		return -errno;
	if (fcntl(fd, F_SETFL, O_NONBLOCK)) {
		ret = -errno;
	} else {
		ret = nslog_logdev_version(fd, NSLOG_ENTRY2_VERSION);
		/* a module older than relays: the header of before */
		if (ret == -EINVAL)
			ret = nslog_logdev_version(fd, NSLOG_ENTRY_VERSION);
	}
	if (ret) {
		close(fd);
		return ret;
	}
	return fd;
}

static int nslog_logdev_open(void *ctx, unsigned int klog, __u64 ns_id)
{
	struct nslog_logdev *d = ctx;
	struct nslog_open_ns arg = { .ns_fd = -1, .ns_id = ns_id };

	if (klog >= NSLOG_KLOG_COUNT || d->node[klog] < 0)
		return -EBADF;
	return nslog_logdev_setup(ioctl(d->node[klog], NSLOG_IOC_OPEN_NS,
					&arg));
}

static int nslog_logdev_open_stream(void *ctx, const char *name, __u64 ns_id)
{
	struct nslog_logdev *d = ctx;
	struct nslog_open_stream arg = { .ns_fd = -1, .ns_id = ns_id };
	unsigned int i;
	size_t len = strlen(name);

	if (len >= sizeof(arg.name))
		return -EINVAL;
	memcpy(arg.name, name, len + 1);
	for (i = 0; i < NSLOG_KLOG_COUNT; i++)
		if (d->node[i] >= 0)
			return nslog_logdev_setup(ioctl(d->node[i],
							NSLOG_IOC_OPEN_STREAM,
							&arg));
	return -EBADF;
}

static int nslog_logdev_info(void *ctx, int fd, struct nslog_info *info)
{
	(void)ctx;
	return ioctl(fd, NSLOG_IOC_INFO, info) ? -errno : 0;
}

static int nslog_logdev_seek(void *ctx, int fd, struct nslog_seek *seek)
{
	(void)ctx;
	return ioctl(fd, NSLOG_IOC_SEEK, seek) ? -errno : 0;
}

static ssize_t nslog_logdev_read(void *ctx, int fd, void *buf, size_t size)
{
	ssize_t n = read(fd, buf, size);

	(void)ctx;
	return n < 0 ? -errno : n;
}

static void nslog_logdev_closefd(void *ctx, int fd)
{
	(void)ctx;
	close(fd);
}

/* The kops of @d. */
void nslog_logdev_ops(struct nslog_logdev *d, struct nslog_kops *k)
{
	k->open = nslog_logdev_open;
	k->open_stream = nslog_logdev_open_stream;
	k->info = nslog_logdev_info;
	k->seek = nslog_logdev_seek;
	k->read = nslog_logdev_read;
	k->close = nslog_logdev_closefd;
	k->ctx = d;
}

void nslog_logdev_close(struct nslog_logdev *d)
{
	unsigned int i;

	for (i = 0; i < NSLOG_KLOG_COUNT; i++) {
		if (d->node[i] >= 0)
			close(d->node[i]);
		d->node[i] = -1;
	}
}
