// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libnslog: write Android log records to the nslogger devices.
 *
 * Each call builds the record in iovecs and hands it to the kernel with one
 * writev(), which the driver stores as one record.  The four nodes are
 * opened once, by the first call of any thread (pthread_once), write-only
 * and close-on-exec.  A buffer whose node failed to open keeps failing with
 * the errno of that open; the system buffer falls back to main, as
 * Android's liblog did.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include <android/log.h>
#include "devpath.h"

#define NSLOG_EXPORT	__attribute__((visibility("default")))

struct nslog_writer {
	int fd[NSLOG_BUF_COUNT];
	int err[NSLOG_BUF_COUNT];	/* positive errno of a failed open */
};

static struct nslog_writer nslog_writer;
static pthread_once_t nslog_writer_once = PTHREAD_ONCE_INIT;

static void nslog_writer_open_one(int id)
{
	char path[NSLOG_PATH_MAX];
	int ret;

	nslog_writer.fd[id] = -1;
	ret = nslog_dev_path(path, sizeof(path), id, NULL);
	if (ret) {
		nslog_writer.err[id] = -ret;
		return;
	}
	nslog_writer.fd[id] = open(path, O_WRONLY | O_CLOEXEC);
	if (nslog_writer.fd[id] < 0)
		nslog_writer.err[id] = errno;
}

static void nslog_writer_init(void)
{
	int id;

	for (id = 0; id < NSLOG_BUF_COUNT; id++)
		nslog_writer_open_one(id);

	/* Android 4.x: no system log means system records go to main. */
	if (nslog_writer.fd[NSLOG_BUF_SYSTEM] < 0 &&
	    nslog_writer.fd[NSLOG_BUF_MAIN] >= 0)
		nslog_writer.fd[NSLOG_BUF_SYSTEM] =
			nslog_writer.fd[NSLOG_BUF_MAIN];
}

static int nslog_writev(int id, const struct iovec *vec, int n)
{
	ssize_t ret;
	int fd;

	if (id < 0 || id >= NSLOG_BUF_COUNT)
		return -EINVAL;
	pthread_once(&nslog_writer_once, nslog_writer_init);
	fd = nslog_writer.fd[id];
	if (fd < 0)
		return -nslog_writer.err[id];

	do
		ret = writev(fd, vec, n);
	while (ret < 0 && errno == EINTR);
	return ret < 0 ? -errno : (int)ret;
}

static void nslog_iov(struct iovec *v, const void *base, size_t len)
{
	v->iov_base = (void *)base;
	v->iov_len = len;
}

NSLOG_EXPORT int __android_log_buf_write(int bufID, int prio, const char *tag,
					 const char *msg)
{
	unsigned char prio_byte = (unsigned char)prio;
	struct iovec vec[3];

	if (!tag)
		tag = "";
	if (!msg)
		msg = "(null)";

	nslog_iov(&vec[0], &prio_byte, 1);
	nslog_iov(&vec[1], tag, strlen(tag) + 1);
	nslog_iov(&vec[2], msg, strlen(msg) + 1);
	return nslog_writev(bufID, vec, 3);
}

NSLOG_EXPORT int __android_log_write(int prio, const char *tag,
				     const char *msg)
{
	return __android_log_buf_write(LOG_ID_MAIN, prio, tag, msg);
}

__attribute__((format(printf, 4, 0)))
static int nslog_buf_vprint(int bufID, int prio, const char *tag,
			    const char *fmt, va_list ap)
{
	char msg[NSLOG_PRINT_MAX];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	return __android_log_buf_write(bufID, prio, tag, msg);
}

NSLOG_EXPORT int __android_log_vprint(int prio, const char *tag,
				      const char *fmt, va_list ap)
{
	return nslog_buf_vprint(LOG_ID_MAIN, prio, tag, fmt, ap);
}

NSLOG_EXPORT int __android_log_print(int prio, const char *tag,
				     const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = nslog_buf_vprint(LOG_ID_MAIN, prio, tag, fmt, ap);
	va_end(ap);
	return ret;
}

NSLOG_EXPORT int __android_log_buf_print(int bufID, int prio, const char *tag,
					 const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = nslog_buf_vprint(bufID, prio, tag, fmt, ap);
	va_end(ap);
	return ret;
}

NSLOG_EXPORT int __android_log_bwrite(int32_t tag, const void *payload,
				      size_t len)
{
	struct iovec vec[2];

	nslog_iov(&vec[0], &tag, sizeof(tag));
	nslog_iov(&vec[1], payload, len);
	return nslog_writev(LOG_ID_EVENTS, vec, 2);
}

NSLOG_EXPORT int __android_log_btwrite(int32_t tag, char type,
				       const void *payload, size_t len)
{
	struct iovec vec[3];

	nslog_iov(&vec[0], &tag, sizeof(tag));
	nslog_iov(&vec[1], &type, 1);
	nslog_iov(&vec[2], payload, len);
	return nslog_writev(LOG_ID_EVENTS, vec, 3);
}

NSLOG_EXPORT void __android_log_assert(const char *cond, const char *tag,
				       const char *fmt, ...)
{
	char msg[NSLOG_PRINT_MAX];
	va_list ap;

	if (fmt) {
		va_start(ap, fmt);
		vsnprintf(msg, sizeof(msg), fmt, ap);
		va_end(ap);
	} else if (cond) {
		snprintf(msg, sizeof(msg), "Assertion failed: %s", cond);
	} else {
		snprintf(msg, sizeof(msg), "Unspecified assertion failed");
	}
	__android_log_write(ANDROID_LOG_FATAL, tag, msg);
	abort();
}
