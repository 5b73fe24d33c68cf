// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * logger: Android R's pluggable logger, aborter and default tag.
 *
 * The logger is where __android_log_write_log_message() sends a record:
 * the nslogger devices (named __android_log_logd_logger, as the function
 * Android programs pass to restore the default), stderr, or the
 * program's own.  The aborter is what __android_log_assert() calls.
 * Both are function pointers read with acquire loads that pair with the
 * release stores of their setters.  The default tag, for records whose
 * tag is NULL, is the program's short name until set; it is copied out
 * under a lock, as a setter may replace it while another thread logs.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <android/log.h>
#include "internal.h"

static __android_logger_function nslog_logger = __android_log_logd_logger;
static __android_aborter_function nslog_aborter =
	__android_log_default_aborter;
static char nslog_tag[128];
static int nslog_tag_set;
static pthread_mutex_t nslog_tag_lock = PTHREAD_MUTEX_INITIALIZER;

/**
 * nslog_default_tag() - the tag of records whose tag is NULL
 * @buf: where to copy it
 * @size: size of @buf
 *
 * Context: any thread.
 * Return: @buf.
 */
const char *nslog_default_tag(char *buf, size_t size)
{
	pthread_mutex_lock(&nslog_tag_lock);
	snprintf(buf, size, "%s",
		 nslog_tag_set ? nslog_tag : program_invocation_short_name);
	pthread_mutex_unlock(&nslog_tag_lock);
	return buf;
}

/**
 * nslog_logger_is_default() - whether records go to the devices
 *
 * Context: any thread.
 * Return: 1 if the logger is __android_log_logd_logger, else 0.
 */
int nslog_logger_is_default(void)
{
	return __atomic_load_n(&nslog_logger, __ATOMIC_ACQUIRE) ==
	       __android_log_logd_logger;
}

NSLOG_EXPORT void __android_log_set_default_tag(const char *tag)
{
	pthread_mutex_lock(&nslog_tag_lock);
	snprintf(nslog_tag, sizeof(nslog_tag), "%s", tag ? tag : "");
	nslog_tag_set = tag != NULL;
	pthread_mutex_unlock(&nslog_tag_lock);
}

NSLOG_EXPORT void __android_log_set_logger(__android_logger_function logger)
{
	__atomic_store_n(&nslog_logger,
			 logger ? logger : __android_log_logd_logger,
			 __ATOMIC_RELEASE);
}

/* Text buffers only, as Android R's: events take the binary calls. */
NSLOG_EXPORT void __android_log_write_log_message(
	struct __android_log_message *m)
{
	__android_logger_function logger;
	char def_tag[128];

	switch (m->buffer_id) {
	case LOG_ID_DEFAULT:
	case LOG_ID_MAIN:
	case LOG_ID_SYSTEM:
	case LOG_ID_RADIO:
	case LOG_ID_CRASH:
		break;
	default:
		return;
	}
	if (!m->tag)
		m->tag = nslog_default_tag(def_tag, sizeof(def_tag));
	logger = __atomic_load_n(&nslog_logger, __ATOMIC_ACQUIRE);
	logger(m);
}

NSLOG_EXPORT void __android_log_logd_logger(
	const struct __android_log_message *m)
{
	char def_tag[128];
	const char *tag = m->tag;

	if (!tag)
		tag = nslog_default_tag(def_tag, sizeof(def_tag));
	nslog_text_write(m->buffer_id, m->priority, tag, m->message);
}

/* "TAG P MM-DD HH:MM:SS PID TID [FILE:LINE] MESSAGE", as Android R's. */
NSLOG_EXPORT void __android_log_stderr_logger(
	const struct __android_log_message *m)
{
	static const char prio_chars[] = "XXVDIWEF";
	struct timespec now;
	char stamp[32];
	struct tm tm;
	char prio;

	clock_gettime(CLOCK_REALTIME, &now);
	localtime_r(&now.tv_sec, &tm);
	strftime(stamp, sizeof(stamp), "%m-%d %H:%M:%S", &tm);
	prio = m->priority >= 0 && m->priority < (int)sizeof(prio_chars) - 1 ?
	       prio_chars[m->priority] : 'X';
	if (m->file)
		fprintf(stderr, "%s %c %s %5d %5d %s:%u] %s\n",
			m->tag ? m->tag : "nullptr", prio, stamp, getpid(),
			(int)syscall(SYS_gettid), m->file, m->line,
			m->message ? m->message : "(null)");
	else
		fprintf(stderr, "%s %c %s %5d %5d %s\n",
			m->tag ? m->tag : "nullptr", prio, stamp, getpid(),
			(int)syscall(SYS_gettid),
			m->message ? m->message : "(null)");
}

NSLOG_EXPORT void __android_log_set_aborter(__android_aborter_function ab)
{
	__atomic_store_n(&nslog_aborter,
			 ab ? ab : __android_log_default_aborter,
			 __ATOMIC_RELEASE);
}

NSLOG_EXPORT void __android_log_call_aborter(const char *abort_message)
{
	__atomic_load_n(&nslog_aborter, __ATOMIC_ACQUIRE)(abort_message);
}

/* Bionic also stores the message for the tombstone; glibc has no place. */
NSLOG_EXPORT void __android_log_default_aborter(const char *abort_message)
{
	(void)abort_message;
	abort();
}
