/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * liblog: Android's <log/log_main.h>, the ALOG macros of the main buffer.
 *
 * Define LOG_TAG before including (NULL otherwise: the default tag).
 * LOG_NDEBUG, as in Android: 1 if NDEBUG is defined, else 0, unless set.
 * With LOG_NDEBUG 1, ALOGV, ALOGV_IF, IF_ALOGV, LOG_FATAL(_IF) and
 * ALOG_ASSERT compile to nothing (their arguments are not evaluated).
 * The _IF forms evaluate their condition once, hinted unlikely.
 */
#ifndef NSLOG_LOG_LOG_MAIN_H
#define NSLOG_LOG_LOG_MAIN_H

#include <stdbool.h>
#include <string.h>

#include <android/log.h>

#ifndef __predict_false
#define __predict_false(exp)	__builtin_expect((exp) != 0, 0)
#endif
#ifndef __predict_true
#define __predict_true(exp)	__builtin_expect((exp) != 0, 1)
#endif

#ifndef LOG_NDEBUG
#ifdef NDEBUG
#define LOG_NDEBUG 1
#else
#define LOG_NDEBUG 0
#endif
#endif

#ifndef LOG_TAG
#define LOG_TAG NULL
#endif

/* Arguments of compiled-out macros: seen by the compiler, never run. */
#define __FAKE_USE_VA_ARGS(...)	((void)(0))

#define android_printLog(prio, tag, ...) \
	__android_log_print(prio, tag, __VA_ARGS__)
#define android_vprintLog(prio, cond, tag, ...) \
	__android_log_vprint(prio, tag, __VA_ARGS__)

/* Format optional: android_printAssert(cond, tag) passes a NULL format. */
#define __android_second(dummy, second, ...)	second
#define __android_rest(first, ...)		, ##__VA_ARGS__
#define android_printAssert(cond, tag, ...) \
	__android_log_assert(cond, tag, \
			     __android_second(0, ##__VA_ARGS__, NULL) \
			     __android_rest(__VA_ARGS__))

#define LOG_PRI(priority, tag, ...) android_printLog(priority, tag, __VA_ARGS__)
#define LOG_PRI_VA(priority, tag, fmt, args) \
	android_vprintLog(priority, NULL, tag, fmt, args)
#define ALOG(priority, tag, ...) LOG_PRI(ANDROID_##priority, tag, __VA_ARGS__)

/* Whether a record would be kept; production builds default to DEBUG. */
#if LOG_NDEBUG
#define android_testLog(prio, tag) \
	(__android_log_is_loggable_len(prio, tag, \
				       ((tag) && *(tag)) ? strlen(tag) : 0, \
				       ANDROID_LOG_DEBUG) != 0)
#else
#define android_testLog(prio, tag) \
	(__android_log_is_loggable_len(prio, tag, \
				       ((tag) && *(tag)) ? strlen(tag) : 0, \
				       ANDROID_LOG_VERBOSE) != 0)
#endif

#define IF_ALOG(priority, tag) if (android_testLog(ANDROID_##priority, tag))

/* Abort with a FATAL record, always, or if cond holds. */
#define LOG_ALWAYS_FATAL_IF(cond, ...) \
	((__predict_false(cond)) ? \
	 ((void)android_printAssert(#cond, LOG_TAG, ##__VA_ARGS__)) : (void)0)
#define LOG_ALWAYS_FATAL(...) \
	(((void)android_printAssert(NULL, LOG_TAG, ##__VA_ARGS__)))

#if LOG_NDEBUG
#define LOG_FATAL_IF(cond, ...)	__FAKE_USE_VA_ARGS(__VA_ARGS__)
#define LOG_FATAL(...)		__FAKE_USE_VA_ARGS(__VA_ARGS__)
#else
#define LOG_FATAL_IF(cond, ...)	LOG_ALWAYS_FATAL_IF(cond, ##__VA_ARGS__)
#define LOG_FATAL(...)		LOG_ALWAYS_FATAL(__VA_ARGS__)
#endif

#define ALOG_ASSERT(cond, ...)	LOG_FATAL_IF(!(cond), ##__VA_ARGS__)

#define __ALOGV(...)	((void)ALOG(LOG_VERBOSE, LOG_TAG, __VA_ARGS__))
#if LOG_NDEBUG
#define ALOGV(...) \
	do { \
		__FAKE_USE_VA_ARGS(__VA_ARGS__); \
		if (false) \
			__ALOGV(__VA_ARGS__); \
	} while (false)
#define ALOGV_IF(cond, ...)	__FAKE_USE_VA_ARGS(__VA_ARGS__)
#define IF_ALOGV()		if (false)
#else
#define ALOGV(...)		__ALOGV(__VA_ARGS__)
#define ALOGV_IF(cond, ...) \
	((__predict_false(cond)) ? \
	 ((void)ALOG(LOG_VERBOSE, LOG_TAG, __VA_ARGS__)) : (void)0)
#define IF_ALOGV()		IF_ALOG(LOG_VERBOSE, LOG_TAG)
#endif

#define ALOGD(...)	((void)ALOG(LOG_DEBUG, LOG_TAG, __VA_ARGS__))
#define ALOGI(...)	((void)ALOG(LOG_INFO, LOG_TAG, __VA_ARGS__))
#define ALOGW(...)	((void)ALOG(LOG_WARN, LOG_TAG, __VA_ARGS__))
#define ALOGE(...)	((void)ALOG(LOG_ERROR, LOG_TAG, __VA_ARGS__))

#define ALOGD_IF(cond, ...) \
	((__predict_false(cond)) ? \
	 ((void)ALOG(LOG_DEBUG, LOG_TAG, __VA_ARGS__)) : (void)0)
#define ALOGI_IF(cond, ...) \
	((__predict_false(cond)) ? \
	 ((void)ALOG(LOG_INFO, LOG_TAG, __VA_ARGS__)) : (void)0)
#define ALOGW_IF(cond, ...) \
	((__predict_false(cond)) ? \
	 ((void)ALOG(LOG_WARN, LOG_TAG, __VA_ARGS__)) : (void)0)
#define ALOGE_IF(cond, ...) \
	((__predict_false(cond)) ? \
	 ((void)ALOG(LOG_ERROR, LOG_TAG, __VA_ARGS__)) : (void)0)

#define IF_ALOGD()	IF_ALOG(LOG_DEBUG, LOG_TAG)
#define IF_ALOGI()	IF_ALOG(LOG_INFO, LOG_TAG)
#define IF_ALOGW()	IF_ALOG(LOG_WARN, LOG_TAG)
#define IF_ALOGE()	IF_ALOG(LOG_ERROR, LOG_TAG)

#endif /* NSLOG_LOG_LOG_MAIN_H */
