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
 * Context: any.
 */
void nslogd_ringctl_init(struct nslogd_ringctl *rc, const char *dev_dir,
			 nslogd_ringctl_ioctl_fn *ioctl_fn)
{
	rc->dev_dir = dev_dir;
	rc->ioctl = ioctl_fn;
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

/**
 * nslogd_ringctl_open() - open a log's node
 * @rc: the ring control
 * @log: the log id, 0 to 3
 * @flags: O_WRONLY, or O_RDONLY | O_NONBLOCK for a reader
 *
 * Context: process; opens a file.
 * Return: the fd (close-on-exec), or -errno.
 */
int nslogd_ringctl_open(const struct nslogd_ringctl *rc, unsigned int log,
			int flags)
{
	char path[NSLOG_PATH_MAX];
	int fd;

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

/**
 * nslogd_ringctl_size() - a log's ring size (LOGGER_GET_LOG_BUF_SIZE)
 * @rc: the ring control
 * @log: the log id, 0 to 3
 *
 * Context: process.
 * Return: the size in bytes, or -errno.
 */
long nslogd_ringctl_size(const struct nslogd_ringctl *rc, unsigned int log)
{
	return ring_call(rc, log, O_WRONLY, LOGGER_GET_LOG_BUF_SIZE, NULL);
}

/**
 * nslogd_ringctl_used() - the bytes a log holds now (LOGGER_GET_LOG_LEN)
 * @rc: the ring control
 * @log: the log id, 0 to 3
 *
 * Asked of a fresh reader, which has read nothing: every stored record,
 * headers and padding included, whoever wrote it.
 *
 * Context: process.
 * Return: the bytes, or -errno.
 */
long nslogd_ringctl_used(const struct nslogd_ringctl *rc, unsigned int log)
{
	return ring_call(rc, log, O_RDONLY | O_NONBLOCK, LOGGER_GET_LOG_LEN,
			 NULL);
}

/**
 * nslogd_ringctl_flush() - drop every record of a log (LOGGER_FLUSH_LOG)
 * @rc: the ring control
 * @log: the log id, 0 to 3
 *
 * The kernel checks nslogd's own privilege at the call (the log group or
 * CAP_SYSLOG over the set); whom nslogd lets ask is command.c's business.
 *
 * Context: process.
 * Return: 0, or -errno (-EPERM: nslogd lacks the privilege).
 */
int nslogd_ringctl_flush(const struct nslogd_ringctl *rc, unsigned int log)
{
	long r = ring_call(rc, log, O_WRONLY, LOGGER_FLUSH_LOG, NULL);

	return r < 0 ? (int)r : 0;
}

static uint32_t roundup_pow2(uint32_t v)
{
	uint32_t p = NSLOGD_RING_MIN;

	while (p < v && p < (1u << 31))
		p <<= 1;
	return p;
}

/**
 * nslogd_ringctl_resize() - give a log the size asked, or the most allowed
 * @rc: the ring control
 * @log: the log id, 0 to 3
 * @bytes: the size asked
 *
 * The kernel rounds a size up to a power of two and refuses one above
 * what the host allows the set (-EFBIG: ns_max_size for a container's
 * set), a limit the container cannot read. So the power of two at or
 * above @bytes is asked first, then each next lower one until the kernel
 * takes one: at most log2(@bytes / 8 KiB) calls, each a refusal that
 * costs nothing. The size the log has then is read back, not assumed.
 *
 * Context: process; the kernel moves the kept records, at most one
 * ring's worth of memcpy().
 * Return: the log's size now, or -errno (-EPERM: nslogd has no
 * CAP_SYSLOG over the set; -ENOMEM: its memory cgroup is full).
 */
long nslogd_ringctl_resize(const struct nslogd_ringctl *rc, unsigned int log,
			   uint32_t bytes)
{
	uint32_t want = roundup_pow2(bytes);
	long r;
	int fd = nslogd_ringctl_open(rc, log, O_WRONLY);

	if (fd < 0)
		return fd;
	for (;;) {
		r = rc->ioctl(fd, NSLOG_IOC_SET_SIZE, &want);
		if (r != -EFBIG || want <= NSLOGD_RING_MIN)
			break;
		want >>= 1;
	}
	if (r >= 0)
		r = rc->ioctl(fd, LOGGER_GET_LOG_BUF_SIZE, NULL);
	close(fd);
	return r;
}

/**
 * nslogd_ringctl_reader() - a fresh reader of a log, with nslogger's header
 * @rc: the ring control
 * @log: the log id, 0 to 3
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
 * Return: the fd, or -errno.
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
