/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * liblog: Android's <log/log_system.h>, the SLOG macros: text records
 * to the system buffer, tagged LOG_TAG.  SLOGV and SLOGV_IF compile to
 * nothing when LOG_NDEBUG is 1 (see <log/log_main.h>).
 */
#ifndef NSLOG_LOG_LOG_SYSTEM_H
#define NSLOG_LOG_LOG_SYSTEM_H

#include <stdbool.h>

#include <android/log.h>
#include <log/log_main.h>

#define __SLOG(prio, ...) \
	((void)__android_log_buf_print(LOG_ID_SYSTEM, prio, LOG_TAG, \
				       __VA_ARGS__))
#define __SLOG_IF(cond, prio, ...) \
	((__predict_false(cond)) ? __SLOG(prio, __VA_ARGS__) : (void)0)

#if LOG_NDEBUG
#define SLOGV(...) \
	do { \
		__FAKE_USE_VA_ARGS(__VA_ARGS__); \
		if (false) \
			__SLOG(ANDROID_LOG_VERBOSE, __VA_ARGS__); \
	} while (false)
#define SLOGV_IF(cond, ...)	__FAKE_USE_VA_ARGS(__VA_ARGS__)
#else
#define SLOGV(...)	__SLOG(ANDROID_LOG_VERBOSE, __VA_ARGS__)
#define SLOGV_IF(cond, ...) \
	__SLOG_IF(cond, ANDROID_LOG_VERBOSE, __VA_ARGS__)
#endif

#define SLOGD(...)	__SLOG(ANDROID_LOG_DEBUG, __VA_ARGS__)
#define SLOGI(...)	__SLOG(ANDROID_LOG_INFO, __VA_ARGS__)
#define SLOGW(...)	__SLOG(ANDROID_LOG_WARN, __VA_ARGS__)
#define SLOGE(...)	__SLOG(ANDROID_LOG_ERROR, __VA_ARGS__)

#define SLOGD_IF(cond, ...)	__SLOG_IF(cond, ANDROID_LOG_DEBUG, __VA_ARGS__)
#define SLOGI_IF(cond, ...)	__SLOG_IF(cond, ANDROID_LOG_INFO, __VA_ARGS__)
#define SLOGW_IF(cond, ...)	__SLOG_IF(cond, ANDROID_LOG_WARN, __VA_ARGS__)
#define SLOGE_IF(cond, ...)	__SLOG_IF(cond, ANDROID_LOG_ERROR, __VA_ARGS__)

#endif /* NSLOG_LOG_LOG_SYSTEM_H */
