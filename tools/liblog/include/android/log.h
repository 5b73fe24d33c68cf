/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * liblog: Android's <android/log.h>, for the nslogger devices.
 *
 * Programs written against Android's <android/log.h> and <log/log.h>
 * build unchanged against these headers and -llog (pkg-config liblog).
 * Every text or binary call stores one record in one of the four logger
 * buffers with a single writev():
 *
 *   text buffers (main, radio, system):
 *	[priority: 1 byte][tag, NUL-terminated][message, NUL-terminated]
 *   events buffer:
 *	[__s32 tag][payload]		__android_log_bwrite()
 *	[__s32 tag][type byte][payload]	__android_log_btwrite()
 *
 * The devices are opened on the first call, write-only: in $NSLOG_DEV_DIR
 * if set, else in /dev/log/ if that is a directory, else as /dev/log_main
 * and so on.  A node that failed to open is tried again at most once a
 * second.  A missing system buffer falls back to main.
 *
 * Text records pass __android_log_is_loggable(prio, tag,
 * ANDROID_LOG_VERBOSE) first: $ANDROID_LOG_TAGS, the log.tag file
 * (/etc/nslogger/log.tag or $NSLOG_LOG_TAG_FILE) and
 * __android_log_set_minimum_priority() may drop them (-EPERM).
 *
 * Every writing call returns the number of bytes the kernel stored, or a
 * negative errno (for example -ENOENT when the buffer's node is missing).
 * All calls are thread-safe.  liblog(3) has the details.
 */
#ifndef NSLOG_ANDROID_LOG_H
#define NSLOG_ANDROID_LOG_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Priorities; the record stores the value as its first byte. */
typedef enum android_LogPriority {
	ANDROID_LOG_UNKNOWN	= 0,
	ANDROID_LOG_DEFAULT	= 1,	/* a filter setting, never stored */
	ANDROID_LOG_VERBOSE	= 2,
	ANDROID_LOG_DEBUG	= 3,
	ANDROID_LOG_INFO	= 4,
	ANDROID_LOG_WARN	= 5,
	ANDROID_LOG_ERROR	= 6,
	ANDROID_LOG_FATAL	= 7,
	ANDROID_LOG_SILENT	= 8,	/* a filter setting, never stored */
} android_LogPriority;

/*
 * Buffers, numbered as Android's.  nslogger has main, radio, events and
 * system; DEFAULT and CRASH are written to main, STATS, SECURITY and
 * KERNEL are refused with -EINVAL (see liblog(3)).
 */
typedef enum log_id {
	LOG_ID_MIN	= 0,
	LOG_ID_MAIN	= 0,
	LOG_ID_RADIO	= 1,
	LOG_ID_EVENTS	= 2,
	LOG_ID_SYSTEM	= 3,
	LOG_ID_CRASH	= 4,
	LOG_ID_STATS	= 5,
	LOG_ID_SECURITY	= 6,
	LOG_ID_KERNEL	= 7,
	LOG_ID_MAX,
	LOG_ID_DEFAULT	= 0x7FFFFFFF
} log_id_t;

/* Type bytes of events payloads, for __android_log_btwrite(). */
typedef enum {
	EVENT_TYPE_INT		= 0,	/* int32_t */
	EVENT_TYPE_LONG		= 1,	/* int64_t */
	EVENT_TYPE_STRING	= 2,	/* int32_t length, then the bytes */
	EVENT_TYPE_LIST		= 3,	/* uint8_t count, then the items */
	EVENT_TYPE_FLOAT	= 4,	/* IEEE 754 single */
	/* What the event list parser returns besides values. */
	EVENT_TYPE_LIST_STOP	= '\n',	/* the end of a list */
	EVENT_TYPE_UNKNOWN	= '?',	/* the end, or a malformed payload */
} AndroidEventLogType;

/* The longest message the _print calls format, NUL included. */
#define NSLOG_PRINT_MAX	1024

/* Text record to main; a NULL @tag is the default tag, a NULL @msg "(null)". */
int __android_log_write(int prio, const char *tag, const char *msg);

/* printf-style text record to main, truncated to NSLOG_PRINT_MAX - 1. */
int __android_log_print(int prio, const char *tag, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

int __android_log_vprint(int prio, const char *tag, const char *fmt,
			 va_list ap)
	__attribute__((format(printf, 3, 0)));

/* Text record to buffer @bufID (a log_id_t); -EINVAL for a bad id. */
int __android_log_buf_write(int bufID, int prio, const char *tag,
			    const char *msg);

int __android_log_buf_print(int bufID, int prio, const char *tag,
			    const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Events record [tag][payload]: @payload is already typed by the caller. */
int __android_log_bwrite(int32_t tag, const void *payload, size_t len);

/* Events record [tag][type][payload]. */
int __android_log_btwrite(int32_t tag, char type, const void *payload,
			  size_t len);

/* Events record [tag][EVENT_TYPE_STRING][int32_t length][@payload's bytes]. */
int __android_log_bswrite(int32_t tag, const char *payload);

/*
 * Log a FATAL record to main, then call the aborter (abort() unless
 * __android_log_set_aborter() changed it).  The message is @fmt formatted,
 * else "Assertion failed: @cond", else "Unspecified assertion failed".
 */
void __android_log_assert(const char *cond, const char *tag,
			  const char *fmt, ...)
	__attribute__((noreturn, format(printf, 3, 4)));

/*
 * Whether a record of @prio for @tag would be written: the level set for
 * the tag ($ANDROID_LOG_TAGS, the log.tag file), else the minimum
 * priority, else @default_prio.  1 or 0.
 */
int __android_log_is_loggable(int prio, const char *tag, int default_prio);
int __android_log_is_loggable_len(int prio, const char *tag, size_t len,
				  int default_prio);

/*
 * Close the devices and forget the filter configuration: the next call
 * opens them and reads $ANDROID_LOG_TAGS and the log.tag file again.
 */
void __android_log_close(void);

/* Android R's pluggable logging (LIBLOG_R). */
struct __android_log_message {
	size_t struct_size;	/* sizeof(struct __android_log_message) */
	int32_t buffer_id;	/* a log_id_t */
	int32_t priority;	/* an android_LogPriority */
	const char *tag;	/* NULL: the default tag */
	const char *file;	/* NULL, or the source file */
	uint32_t line;		/* the line in @file */
	const char *message;	/* NUL-terminated */
};

typedef void (*__android_logger_function)(
	const struct __android_log_message *log_message);
typedef void (*__android_aborter_function)(const char *abort_message);

/* Hand @log_message to the logger (the device writer unless set). */
void __android_log_write_log_message(
	struct __android_log_message *log_message);

/* Replace the logger for this process; NULL restores the device writer. */
void __android_log_set_logger(__android_logger_function logger);

/* The default logger: the nslogger devices (logd's, on Android). */
void __android_log_logd_logger(
	const struct __android_log_message *log_message);

/* A logger that prints "TAG P MM-DD HH:MM:SS PID TID MESSAGE" on stderr. */
void __android_log_stderr_logger(
	const struct __android_log_message *log_message);

void __android_log_set_aborter(__android_aborter_function aborter);
void __android_log_call_aborter(const char *abort_message);
void __android_log_default_aborter(const char *abort_message)
	__attribute__((noreturn));

/* The tag of records whose tag is NULL; the program's name by default. */
void __android_log_set_default_tag(const char *tag);

/*
 * The process-wide minimum priority, ANDROID_LOG_DEFAULT (none) at start;
 * returns the previous value.
 */
int32_t __android_log_set_minimum_priority(int32_t priority);
int32_t __android_log_get_minimum_priority(void);

#ifdef __cplusplus
}
#endif

#endif /* NSLOG_ANDROID_LOG_H */
