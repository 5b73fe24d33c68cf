// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * logger_list: Android's read API over the nslogger devices: making a
 * list, opening its logs, the per-log ioctls (size, clear, version,
 * resize) and nslogger's extensions.  Reading is logger_read.c.
 *
 * Each log is opened read-only and non-blocking when android_logger_open()
 * adds it, so that a missing node fails there, as logcat reports it.
 * Clearing and resizing need a file open for writing: they open the node
 * for the one ioctl.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <log/nslog_read.h>
#include "logger_list.h"

/**
 * nslog_list_failed() - record a failure for nslog_logger_list_error()
 * @list: the list
 * @l: the log concerned
 * @what: what failed, a static string
 *
 * Context: any.
 */
void nslog_list_failed(struct logger_list *list, const struct logger *l,
		       const char *what)
{
	list->err_id = l->id;
	snprintf(list->err_path, sizeof(list->err_path), "%s", l->path);
	list->err_what = what;
}

static struct logger_list *nslog_list_new(int mode, unsigned int tail,
					  uint64_t start_ns, pid_t pid)
{
	struct logger_list *list = calloc(1, sizeof(*list));

	if (!list)
		return NULL;
	list->mode = mode;
	list->tail = tail;
	list->start_ns = start_ns;
	list->pid = pid;
	list->ns_fd = -1;
	list->err_id = -1;
	list->last = &list->head;
	return list;
}

NSLOG_EXPORT
struct logger_list *android_logger_list_alloc(int mode, unsigned int tail,
					      pid_t pid)
{
	return nslog_list_new(mode, tail, 0, pid);
}

NSLOG_EXPORT
struct logger_list *android_logger_list_alloc_time(int mode, log_time start,
						   pid_t pid)
{
	uint64_t ns = (uint64_t)start.tv_sec * 1000000000ULL + start.tv_nsec;

	return nslog_list_new(mode, 0, ns, pid);
}

NSLOG_EXPORT
void android_logger_list_free(struct logger_list *list)
{
	struct nslog_tail_rec *r;
	size_t i;

	if (!list)
		return;
	for (i = 0; i < list->count; i++) {
		close(list->logs[i]->fd);
		free(list->logs[i]);
	}
	while (list->head) {
		r = list->head;
		list->head = r->next;
		free(r);
	}
	free(list->dev_dir);
	free(list);
}

/* Another namespace's log: NSLOG_IOC_OPEN_NS on any file of the node. */
static int nslog_open_ns(struct logger_list *list, struct logger *l)
{
	struct nslog_open_ns arg = {
		.ns_fd = list->ns_fd,
		.ns_id = list->ns_id,
	};
	int dev, fd;

	dev = open(l->path, O_WRONLY | O_CLOEXEC);
	if (dev < 0) {
		nslog_list_failed(list, l, "open");
		return -1;
	}
	fd = ioctl(dev, NSLOG_IOC_OPEN_NS, &arg);
	if (fd < 0) {
		nslog_list_failed(list, l, "NSLOG_IOC_OPEN_NS");
		goto err_close_dev;
	}
	close(dev);
	/* The new file is blocking and close-on-exec. */
	if (fcntl(fd, F_SETFL, O_NONBLOCK)) {
		nslog_list_failed(list, l, "fcntl");
		close(fd);
		return -1;
	}
	return fd;

err_close_dev:
	fd = errno;
	close(dev);
	errno = fd;
	return -1;
}

static int nslog_set_version(int fd, int version)
{
	return ioctl(fd, LOGGER_SET_VERSION, &version);
}

/*
 * The header version asked of the device; see nslog_logger_list_set_header().
 * A module older than relays refuses NSLOG_ENTRY2_VERSION with EINVAL, as
 * drivers refuse every version they do not know, and still gives the
 * 56-byte header; another error (a file that is no logger device) goes
 * on to version 2.  Without nslogger's header, version 2; failing that,
 * what the device gives (version 1), unless version 2 was required.
 */
static int nslog_open_version(struct logger_list *list, struct logger *l)
{
	int want = list->header;

	if (want == NSLOG_ENTRY2_VERSION) {
		if (!nslog_set_version(l->fd, NSLOG_ENTRY2_VERSION))
			return 0;
		if (errno == EINVAL)
			want = NSLOG_ENTRY_VERSION;
	}
	if (want == NSLOG_ENTRY_VERSION &&
	    !nslog_set_version(l->fd, NSLOG_ENTRY_VERSION))
		return 0;
	if (!nslog_set_version(l->fd, 2) || list->header != 2)
		return 0;
	nslog_list_failed(list, l, "LOGGER_SET_VERSION");
	return -1;
}

/*
 * The node's file for the list's access mode: ANDROID_LOG_WRONLY opens it
 * write-only (a writer may clear or resize without read access; reading
 * then fails with EBADF), the others readable and non-blocking.
 */
static int nslog_open_flags(int mode)
{
	switch (mode & ANDROID_LOG_ACCMODE) {
	case ANDROID_LOG_WRONLY:
		return O_WRONLY | O_CLOEXEC;
	case ANDROID_LOG_RDWR:
		return O_RDWR | O_NONBLOCK | O_CLOEXEC;
	}
	return O_RDONLY | O_NONBLOCK | O_CLOEXEC;
}

NSLOG_EXPORT
struct logger *android_logger_open(struct logger_list *list, log_id_t id)
{
	struct logger *l;
	size_t i;
	int ret, err;

	if (!list || (int)id < 0 || (int)id >= NSLOG_BUF_COUNT) {
		errno = EINVAL;
		return NULL;
	}
	for (i = 0; i < list->count; i++)
		if (list->logs[i]->id == id)
			return list->logs[i];
	if (list->mode & (ANDROID_LOG_WRAP | ANDROID_LOG_PSTORE)) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	l = calloc(1, sizeof(*l));
	if (!l)
		return NULL;
	l->list = list;
	l->id = id;
	ret = nslog_dev_path(l->path, sizeof(l->path), id, list->dev_dir);
	if (ret) {
		errno = -ret;
		goto err_free;
	}
	if (list->has_ns) {
		l->fd = nslog_open_ns(list, l);
	} else {
		l->fd = open(l->path, nslog_open_flags(list->mode));
		if (l->fd < 0)
			nslog_list_failed(list, l, "open");
	}
	if (l->fd < 0)
		goto err_free;
	if ((list->mode & ANDROID_LOG_ACCMODE) != ANDROID_LOG_WRONLY &&
	    nslog_open_version(list, l))
		goto err_close;
	list->logs[list->count++] = l;
	return l;

err_close:
	err = errno;
	close(l->fd);
	errno = err;
err_free:
	err = errno;
	free(l);
	errno = err;
	return NULL;
}

NSLOG_EXPORT
struct logger_list *android_logger_list_open(log_id_t id, int mode,
					     unsigned int tail, pid_t pid)
{
	struct logger_list *list = android_logger_list_alloc(mode, tail, pid);

	if (!list)
		return NULL;
	if (!android_logger_open(list, id)) {
		android_logger_list_free(list);
		return NULL;
	}
	return list;
}

NSLOG_EXPORT
log_id_t android_logger_get_id(struct logger *logger)
{
	return logger ? logger->id : (log_id_t)-1;
}

static long nslog_ioctl_long(struct logger *logger, unsigned long cmd)
{
	int ret;

	if (!logger)
		return -EINVAL;
	ret = ioctl(logger->fd, cmd);
	return ret < 0 ? -errno : ret;
}

NSLOG_EXPORT
long android_logger_get_log_size(struct logger *logger)
{
	return nslog_ioctl_long(logger, LOGGER_GET_LOG_BUF_SIZE);
}

NSLOG_EXPORT
long android_logger_get_log_readable_size(struct logger *logger)
{
	return nslog_ioctl_long(logger, LOGGER_GET_LOG_LEN);
}

NSLOG_EXPORT
int android_logger_get_log_version(struct logger *logger)
{
	return (int)nslog_ioctl_long(logger, LOGGER_GET_VERSION);
}

/* An ioctl that needs a file open for writing: clearing and resizing. */
static int nslog_ioctl_write(struct logger *logger, unsigned long cmd,
			     void *arg)
{
	int fd, ret, err = 0;

	if (!logger)
		return -EINVAL;
	if (logger->list->has_ns)
		return -EPERM;
	fd = open(logger->path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = ioctl(fd, cmd, arg);
	if (ret < 0)
		err = -errno;
	close(fd);
	return err;
}

NSLOG_EXPORT
int android_logger_clear(struct logger *logger)
{
	return nslog_ioctl_write(logger, LOGGER_FLUSH_LOG, NULL);
}

NSLOG_EXPORT
int android_logger_set_log_size(struct logger *logger, unsigned long size)
{
	__u32 arg = (__u32)size;

	if (size > UINT32_MAX)
		return -EFBIG;
	return nslog_ioctl_write(logger, NSLOG_IOC_SET_SIZE, &arg);
}

/* The extensions: before the first android_logger_open(). */
static int nslog_list_unopened(const struct logger_list *list)
{
	if (!list)
		return -EINVAL;
	return list->count ? -EBUSY : 0;
}

NSLOG_EXPORT
int nslog_logger_list_set_dev_dir(struct logger_list *list, const char *dir)
{
	char *copy = NULL;
	int ret = nslog_list_unopened(list);

	if (ret)
		return ret;
	if (dir) {
		copy = strdup(dir);
		if (!copy)
			return -ENOMEM;
	}
	free(list->dev_dir);
	list->dev_dir = copy;
	return 0;
}

NSLOG_EXPORT
int nslog_logger_list_set_ns(struct logger_list *list, int ns_fd,
			     uint64_t ns_id)
{
	int ret = nslog_list_unopened(list);

	if (ret)
		return ret;
	list->has_ns = true;
	list->ns_fd = ns_fd;
	list->ns_id = ns_id;
	return 0;
}

NSLOG_EXPORT
int nslog_logger_list_set_header(struct logger_list *list, int version)
{
	int ret = nslog_list_unopened(list);

	if (ret)
		return ret;
	if (version != 0 && version != 2 && version != NSLOG_ENTRY_VERSION &&
	    version != NSLOG_ENTRY2_VERSION)
		return -EINVAL;
	list->header = version;
	return 0;
}

NSLOG_EXPORT
int nslog_logger_list_error(const struct logger_list *list,
			    const char **path, const char **what)
{
	if (!list || list->err_id < 0)
		return -1;
	if (path)
		*path = list->err_path;
	if (what)
		*what = list->err_what;
	return list->err_id;
}

NSLOG_EXPORT
const char *nslog_logger_path(const struct logger *logger)
{
	return logger ? logger->path : NULL;
}

NSLOG_EXPORT
int nslog_logger_fd(const struct logger *logger)
{
	return logger ? logger->fd : -1;
}
