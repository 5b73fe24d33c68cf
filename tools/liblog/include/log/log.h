/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * liblog: Android's <log/log.h>: everything a platform program includes.
 *
 * The read side (<log/log_read.h>, <log/log_time.h>) is included when it
 * is installed beside this header.
 */
#ifndef NSLOG_LOG_LOG_H
#define NSLOG_LOG_LOG_H

#include <stdint.h>

#include <android/log.h>
#include <log/log_id.h>
#include <log/log_main.h>
#include <log/log_radio.h>
#include <log/log_system.h>
#include <log/log_safetynet.h>
#include <log/log_properties.h>
#include <log/log_event_list.h>
#if defined(__has_include)
#if __has_include(<log/log_time.h>)
#include <log/log_time.h>
#endif
#if __has_include(<log/log_read.h>)
#include <log/log_read.h>
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Android's longest log message, the record's payload. */
#ifndef LOGGER_ENTRY_MAX_PAYLOAD
#define LOGGER_ENTRY_MAX_PAYLOAD	4076
#endif

#define android_bWriteLog(tag, payload, len) \
	__android_log_bwrite(tag, payload, len)
#define android_btWriteLog(tag, type, payload, len) \
	__android_log_btwrite(tag, type, payload, len)

/* Events records of one value: [tag][type][value], little-endian. */
#define LOG_EVENT_INT(_tag, _value) \
	{ \
		int intBuf = _value; \
		(void)android_btWriteLog(_tag, EVENT_TYPE_INT, &intBuf, \
					 sizeof(intBuf)); \
	}
#define LOG_EVENT_LONG(_tag, _value) \
	{ \
		long long longBuf = _value; \
		(void)android_btWriteLog(_tag, EVENT_TYPE_LONG, &longBuf, \
					 sizeof(longBuf)); \
	}
#define LOG_EVENT_FLOAT(_tag, _value) \
	{ \
		float floatBuf = _value; \
		(void)android_btWriteLog(_tag, EVENT_TYPE_FLOAT, &floatBuf, \
					 sizeof(floatBuf)); \
	}
#define LOG_EVENT_STRING(_tag, _value) \
	(void)__android_log_bswrite(_tag, _value)

#ifdef __cplusplus
}
#endif

#endif /* NSLOG_LOG_LOG_H */
