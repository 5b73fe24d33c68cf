/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * liblog: Android's <log/log_radio.h>, the RLOG macros: text records
 * to the radio buffer, tagged LOG_TAG.  RLOGV and RLOGV_IF compile to
 * nothing when LOG_NDEBUG is 1 (see <log/log_main.h>).
 */
#ifndef NSLOG_LOG_LOG_RADIO_H
#define NSLOG_LOG_LOG_RADIO_H

#include <stdbool.h>

#include <android/log.h>
#include <log/log_main.h>

#define __RLOG(prio, ...) \
	((void)__android_log_buf_print(LOG_ID_RADIO, prio, LOG_TAG, \
				       __VA_ARGS__))
#define __RLOG_IF(cond, prio, ...) \
	((__predict_false(cond)) ? __RLOG(prio, __VA_ARGS__) : (void)0)

#if LOG_NDEBUG
#define RLOGV(...) \
	do { \
		__FAKE_USE_VA_ARGS(__VA_ARGS__); \
		if (false) \
			__RLOG(ANDROID_LOG_VERBOSE, __VA_ARGS__); \
	} while (false)
#define RLOGV_IF(cond, ...)	__FAKE_USE_VA_ARGS(__VA_ARGS__)
#else
#define RLOGV(...)	__RLOG(ANDROID_LOG_VERBOSE, __VA_ARGS__)
#define RLOGV_IF(cond, ...) \
	__RLOG_IF(cond, ANDROID_LOG_VERBOSE, __VA_ARGS__)
#endif

#define RLOGD(...)	__RLOG(ANDROID_LOG_DEBUG, __VA_ARGS__)
#define RLOGI(...)	__RLOG(ANDROID_LOG_INFO, __VA_ARGS__)
#define RLOGW(...)	__RLOG(ANDROID_LOG_WARN, __VA_ARGS__)
#define RLOGE(...)	__RLOG(ANDROID_LOG_ERROR, __VA_ARGS__)

#define RLOGD_IF(cond, ...)	__RLOG_IF(cond, ANDROID_LOG_DEBUG, __VA_ARGS__)
#define RLOGI_IF(cond, ...)	__RLOG_IF(cond, ANDROID_LOG_INFO, __VA_ARGS__)
#define RLOGW_IF(cond, ...)	__RLOG_IF(cond, ANDROID_LOG_WARN, __VA_ARGS__)
#define RLOGE_IF(cond, ...)	__RLOG_IF(cond, ANDROID_LOG_ERROR, __VA_ARGS__)

#endif /* NSLOG_LOG_LOG_RADIO_H */
