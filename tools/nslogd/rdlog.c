// SPDX-License-Identifier: GPL-2.0
/*
 * rdlog: struct nslogd_rdops on the real nodes and streams.
 *
 * Each node is found as every tool finds it (lib/devpath: --dev-dir,
 * $NSLOG_DEV_DIR, /dev/log/, /dev/log_*), each stream in nslogd's view
 * of the set's nslogfs (streams.c; made if it is not there yet, so that
 * a reader that follows crash sees its first record), and opened
 * read-only and non-blocking, then switched to nslogger's own header, which carries
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
	const struct nslogd_rdlogs *logs = ctx;
	char path[NSLOG_PATH_MAX];
	int fd, version = NSLOG_ENTRY_VERSION, err;

	if (nslogd_stream_name(log_id)) {
		if (!logs->streams)
			return -ENOENT;
		/* A reader asking for one is a use: it is made. */
		fd = nslogd_streams_open(logs->streams, log_id,
					 O_RDONLY | O_NONBLOCK, true);
		if (fd < 0)
			return fd;
	} else {
		if (nslog_dev_path(path, sizeof(path), (int)log_id,
				   logs->dev_dir) < 0)
			return -ENAMETOOLONG;
		fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0)
			return -errno;
	}
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
 * nslogd_rdlog_ops() - the operations on the real nodes and streams
 * @ops: filled in
 * @logs: where the nodes are (@logs->dev_dir as nslog_dev_path() takes
 *	it: NULL for $NSLOG_DEV_DIR, else /dev/log/ or /dev/log_*) and the
 *	streams; kept, not copied
 *
 * Context: any.
 */
void nslogd_rdlog_ops(struct nslogd_rdops *ops, struct nslogd_rdlogs *logs)
{
	ops->open = rdlog_open;
	ops->info = rdlog_info;
	ops->seek = rdlog_seek;
	ops->read = rdlog_read;
	ops->close = rdlog_close;
	ops->ctx = logs;
}
