// SPDX-License-Identifier: GPL-2.0
/*
 * rdlog: struct nslogd_rdops on the real nodes.
 *
 * Each node is found as every tool finds it (lib/devpath: --dev-dir,
 * $NSLOG_DEV_DIR, /dev/log/, /dev/log_*) and opened read-only and
 * non-blocking, then switched to nslogger's own header, which carries
 * what logd's readers need and versions 1 and 2 do not: the log id,
 * the order across logs (for the merge), seq (for tail and the end of a
 * dump) and lost. nslogd reads as the log group or with CAP_SYSLOG, so
 * the kernel shows it every record; who may see what is nslogd's rule,
 * applied per connection (reader.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "devpath.h"
#include "rdlog.h"

static int rdlog_open(void *ctx, unsigned int log_id)
{
	char path[NSLOG_PATH_MAX];
	int fd, version = NSLOG_ENTRY_VERSION, err;

	if (nslog_dev_path(path, sizeof(path), (int)log_id, ctx) < 0)
		return -ENAMETOOLONG;
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (ioctl(fd, LOGGER_SET_VERSION, &version)) {
		err = -errno;
		close(fd);
		return err;
	}
	return fd;
}

static int rdlog_info(void *ctx, int fd, struct nslog_info *info)
{
	(void)ctx;
	return ioctl(fd, NSLOG_IOC_INFO, info) ? -errno : 0;
}

static int rdlog_seek(void *ctx, int fd, struct nslog_seek *seek)
{
	(void)ctx;
	return ioctl(fd, NSLOG_IOC_SEEK, seek) ? -errno : 0;
}

static ssize_t rdlog_read(void *ctx, int fd, void *buf, size_t size)
{
	ssize_t n;

	(void)ctx;
	do
		n = read(fd, buf, size);
	while (n < 0 && errno == EINTR);
	return n < 0 ? -errno : n;
}

static void rdlog_close(void *ctx, int fd)
{
	(void)ctx;
	close(fd);
}

/**
 * nslogd_rdlog_ops() - the operations on the real nodes
 * @ops: filled in
 * @dev_dir: where the nodes are, as nslog_dev_path() takes it (NULL:
 *	$NSLOG_DEV_DIR, else /dev/log/ or /dev/log_*); kept, not copied
 *
 * Context: any.
 */
void nslogd_rdlog_ops(struct nslogd_rdops *ops, const char *dev_dir)
{
	ops->open = rdlog_open;
	ops->info = rdlog_info;
	ops->seek = rdlog_seek;
	ops->read = rdlog_read;
	ops->close = rdlog_close;
	ops->ctx = (void *)dev_dir;
}
