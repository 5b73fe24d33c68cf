// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * log_write: Android's liblog writing calls.
 *
 * Each call builds the record in iovecs and hands it to devfd, which
 * stores it with one writev(): the driver keeps one writev() as one
 * record (text records through text_write.c, which logger.c's default
 * logger uses too).  Text calls pass the filter first, as Android R's do:
 * __android_log_is_loggable(prio, tag, ANDROID_LOG_VERBOSE), -EPERM when
 * it says no.  Binary (events) calls are not filtered, as on Android.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <android/log.h>
#include "internal.h"

NSLOG_EXPORT int __android_log_buf_write(int bufID, int prio, const char *tag,
					 const char *msg)
{
	struct __android_log_message m = {
		.struct_size = sizeof(m),
		.buffer_id = bufID,
		.priority = prio,
		.tag = tag,
		.message = msg,
	};
	char def_tag[128];

	if (!__android_log_is_loggable(prio, tag, ANDROID_LOG_VERBOSE))
		return -EPERM;
	/* Another logger cannot say what it stored: Android R returns 1. */
	if (!nslog_logger_is_default()) {
		__android_log_write_log_message(&m);
		return 1;
	}
	if (!tag)
		tag = nslog_default_tag(def_tag, sizeof(def_tag));
	return nslog_text_write(bufID, prio, tag, msg);
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

	/* Not formatted at all when filtered: the filter is the cheap part. */
	if (!__android_log_is_loggable(prio, tag, ANDROID_LOG_VERBOSE))
		return -EPERM;
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
	return nslog_dev_writev(LOG_ID_EVENTS, vec, 2);
}

NSLOG_EXPORT int __android_log_btwrite(int32_t tag, char type,
				       const void *payload, size_t len)
{
	struct iovec vec[3];

	nslog_iov(&vec[0], &tag, sizeof(tag));
	nslog_iov(&vec[1], &type, 1);
	nslog_iov(&vec[2], payload, len);
	return nslog_dev_writev(LOG_ID_EVENTS, vec, 3);
}

NSLOG_EXPORT int __android_log_bswrite(int32_t tag, const char *payload)
{
	char type = EVENT_TYPE_STRING;
	/* The payload is little-endian, as every host nslogger runs on. */
	int32_t len = payload ? (int32_t)strlen(payload) : 0;
	struct iovec vec[4];

	nslog_iov(&vec[0], &tag, sizeof(tag));
	nslog_iov(&vec[1], &type, 1);
	nslog_iov(&vec[2], &len, sizeof(len));
	nslog_iov(&vec[3], payload, (size_t)len);
	return nslog_dev_writev(LOG_ID_EVENTS, vec, 4);
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
	__android_log_call_aborter(msg);
	/* An aborter that returns does not make this return. */
	abort();
}

NSLOG_EXPORT void __android_log_close(void)
{
	nslog_dev_close();
	nslog_filter_reset();
}
