// SPDX-License-Identifier: GPL-2.0
/*
 * ringctl: the logger ioctls behind logd's control verbs.
 *
 * Each call opens the log's node for what it needs and closes it again:
 * control commands are rare (a logcat -g, -G, -c or -S), an open() costs
 * little next to them, and a node that appeared after nslogd started
 * (the module loaded later, /dev/log bound in later) is found without a
 * retry timer. Write-only opens need no privilege and give what
 * LOGGER_GET_LOG_BUF_SIZE, LOGGER_FLUSH_LOG and NSLOG_IOC_SET_SIZE take;
 * a read open gives a fresh reader, which starts at the oldest stored
 * record, so that LOGGER_GET_LOG_LEN on it is the bytes stored.
 *
 * Logs 4 to 7 (crash, stats, security, kernel) are streams of the set
 * (streams.c). One not made yet is answered for as an empty log of the
 * size it would be made with: getLogSize NSLOGD_STREAM_SIZE, the used
 * bytes 0, clear a success; setLogSize makes it (its first use). Without
 * a view of the set's nslogfs, every stream is one not made yet, and
 * setLogSize cannot make it (-ENOENT, "busy").
 *
 * Every ioctl goes through rc->ioctl: nslogd_ringctl_ioctl() in the
 * daemon, a stand-in in the tests (the module cannot be loaded there).
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/nslogger.h>

#include "devpath.h"
#include "ringctl.h"

/**
 * nslogd_ringctl_init() - where the nodes are and how to reach them
 * @rc: the ring control
 * @dev_dir: as nslog_dev_path() takes it (NULL: $NSLOG_DEV_DIR, else
 *	/dev/log/ or /dev/log_*)
 * @ioctl_fn: nslogd_ringctl_ioctl(), or a stand-in
 *
 * No streams: @rc->streams is set by the caller that has them.
 *
 * Context: any.
 */
void nslogd_ringctl_init(struct nslogd_ringctl *rc, const char *dev_dir,
			 nslogd_ringctl_ioctl_fn *ioctl_fn)
{
	rc->dev_dir = dev_dir;
	rc->ioctl = ioctl_fn;
	rc->streams = NULL;
}

/**
 * nslogd_ringctl_ioctl() - ioctl() itself
 * @fd: a log's fd
 * @req: the request
 * @arg: its argument
 *
 * Context: a system call; none of control's requests blocks.
 * Return: what ioctl() returns, or -errno.
 */
long nslogd_ringctl_ioctl(int fd, unsigned long req, void *arg)
{
	long r = ioctl(fd, req, arg);

	return r < 0 ? -errno : r;
}

/* A stream's fd, made first if @make; -ENOENT: not there. */
static int stream_open(const struct nslogd_ringctl *rc, unsigned int log,
		       int flags, bool make)
{
	if (!rc->streams)
		return -ENOENT;
	return nslogd_streams_open(rc->streams, log, flags, make);
}

/**
 * nslogd_ringctl_open() - open a log's node, or its stream
 * @rc: the ring control
 * @log: the log id, 0 to 7; a stream (4 to 7) is not made here
 * @flags: O_WRONLY, or O_RDONLY | O_NONBLOCK for a reader
 *
 * Context: process; opens a file.
 * Return: the fd (close-on-exec), or -errno (-ENOENT: a stream not made
 * yet).
 */
int nslogd_ringctl_open(const struct nslogd_ringctl *rc, unsigned int log,
			int flags)
{
	char path[NSLOG_PATH_MAX];
	int fd;

	if (nslogd_stream_name(log))
		return stream_open(rc, log, flags, false);
	if (log >= NSLOG_BUF_COUNT)
		return -ENOENT;
	if (nslog_dev_path(path, sizeof(path), (int)log, rc->dev_dir) < 0)
		return -ENAMETOOLONG;
	fd = open(path, flags | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

/* One ioctl on a node opened for it. */
static long ring_call(const struct nslogd_ringctl *rc, unsigned int log,
		      int flags, unsigned long req, void *arg)
{
	int fd = nslogd_ringctl_open(rc, log, flags);
	long r;

	if (fd < 0)
		return fd;
	r = rc->ioctl(fd, req, arg);
	close(fd);
	return r;
}

/* A stream not made yet answers as an empty log: @absent. */
static long ring_call_or(const struct nslogd_ringctl *rc, unsigned int log,
			 int flags, unsigned long req, long absent)
{
	long r = ring_call(rc, log, flags, req, NULL);

	return r == -ENOENT && nslogd_stream_name(log) ? absent : r;
}

/**
 * nslogd_ringctl_size() - a log's ring size (LOGGER_GET_LOG_BUF_SIZE)
 * @rc: the ring control
 * @log: the log id, 0 to 7
 *
 * Context: process.
 * Return: the size in bytes (NSLOGD_STREAM_SIZE for a stream not made
 * yet), or -errno.
 */
long nslogd_ringctl_size(const struct nslogd_ringctl *rc, unsigned int log)
{
	return ring_call_or(rc, log, O_WRONLY, LOGGER_GET_LOG_BUF_SIZE,
			    NSLOGD_STREAM_SIZE);
}

/**
 * nslogd_ringctl_used() - the bytes a log holds now (LOGGER_GET_LOG_LEN)
 * @rc: the ring control
 * @log: the log id, 0 to 7
 *
 * Asked of a fresh reader, which has read nothing: every stored record,
 * headers and padding included, whoever wrote it.
 *
 * Context: process.
 * Return: the bytes (0 for a stream not made yet), or -errno.
 */
long nslogd_ringctl_used(const struct nslogd_ringctl *rc, unsigned int log)
{
	return ring_call_or(rc, log, O_RDONLY | O_NONBLOCK, LOGGER_GET_LOG_LEN,
			    0);
}

/**
 * nslogd_ringctl_flush() - drop every record of a log (LOGGER_FLUSH_LOG)
 * @rc: the ring control
 * @log: the log id, 0 to 7
 *
 * The kernel checks nslogd's own privilege at the call (the log group or
 * CAP_SYSLOG over the set; for a stream, the file's mode, nslogd's own);
 * whom nslogd lets ask is command.c's business.
 *
 * Context: process.
 * Return: 0 (also for a stream not made yet: nothing to drop), or -errno
 * (-EPERM: nslogd lacks the privilege).
 */
int nslogd_ringctl_flush(const struct nslogd_ringctl *rc, unsigned int log)
{
	long r = ring_call_or(rc, log, O_WRONLY, LOGGER_FLUSH_LOG, 0);

	return r < 0 ? (int)r : 0;
}

/**
 * nslogd_ringctl_resize() - give a log the size asked, or the most allowed
 * @rc: the ring control
 * @log: the log id, 0 to 7; a stream not made yet is made
 * @bytes: the size asked
 *
 * As ringfit.c does: the power of two at or above @bytes, else the
 * largest below it that the limits allow.
 *
 * Context: process; the kernel moves the kept records, at most one
 * ring's worth of memcpy().
 * Return: the log's size now, or -errno (-EPERM: nslogd has no
 * CAP_SYSLOG over the set; -ENOMEM: its memory cgroup is full; -ENOENT:
 * no view to make a stream in).
 */
long nslogd_ringctl_resize(const struct nslogd_ringctl *rc, unsigned int log,
			   uint32_t bytes)
{
	long r;
	int fd;

	if (nslogd_stream_name(log))
		fd = stream_open(rc, log, O_WRONLY, true);
	else
		fd = nslogd_ringctl_open(rc, log, O_WRONLY);
	if (fd < 0)
		return fd;
	r = nslogd_ringfit(rc->ioctl, fd, bytes);
	close(fd);
	return r;
}

/**
 * nslogd_ringctl_reader() - a fresh reader of a log, with nslogger's header
 * @rc: the ring control
 * @log: the log id, 0 to 7
 * @head_seq: set to the seq the next record written will get: a reader
 *	that stops there reads a bounded number of records however fast
 *	writers go on
 * @tail_seq: set to the seq of the oldest record stored: as many records
 *	were overwritten or flushed since the set began
 *
 * Non-blocking, reading struct nslog_entry (NSLOG_ENTRY_VERSION): pid,
 * euid and seq of every record.
 *
 * Context: process.
 * Return: the fd, or -errno (-ENOENT: a stream not made yet).
 */
int nslogd_ringctl_reader(const struct nslogd_ringctl *rc, unsigned int log,
			  uint64_t *head_seq, uint64_t *tail_seq)
{
	struct nslog_info info;
	int version = NSLOG_ENTRY_VERSION;
	int fd = nslogd_ringctl_open(rc, log, O_RDONLY | O_NONBLOCK);
	long r;

	if (fd < 0)
		return fd;
	r = rc->ioctl(fd, LOGGER_SET_VERSION, &version);
	if (r >= 0)
		r = rc->ioctl(fd, NSLOG_IOC_INFO, &info);
	if (r < 0) {
		close(fd);
		return (int)r;
	}
	*head_seq = info.head_seq;
	*tail_seq = info.tail_seq;
	return fd;
}
