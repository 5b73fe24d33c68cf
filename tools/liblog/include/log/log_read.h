/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libnslog: Android's liblog read API, over the nslogger devices.
 *
 * A logger_list is a set of logs (main, radio, events, system) read as one
 * stream: android_logger_list_read() returns their records one at a time,
 * merged in time order (ties go to the log opened first), each in a
 * struct log_msg whose header is Android's version 4 (entry.hdr_size 28,
 * entry.lid the log it came from, entry.uid the writer's effective uid, or
 * (uint32_t)-1 when the device did not say).  The payload follows the
 * header: buf + entry.hdr_size, entry.len bytes.
 *
 * mode, as in Android:
 *   ANDROID_LOG_RDONLY		each log's node is opened for reading (and
 *				clearing and resizing open it for writing
 *				for the one call)
 *   ANDROID_LOG_WRONLY		opened for writing only: enough to clear or
 *				resize without read access; a read then
 *				fails with -EBADF, and the sizes that need
 *				a reader too
 *   ANDROID_LOG_RDWR		both
 *   ANDROID_LOG_NONBLOCK	android_logger_list_read() returns -EAGAIN
 *				once every log is read empty (a dump, as
 *				logcat -d); without it, it waits in poll()
 *   ANDROID_LOG_WRAP		refused (-EOPNOTSUPP at open): the devices
 *				do not tell a reader that they are about to
 *				wrap
 *   ANDROID_LOG_PSTORE		refused (-EOPNOTSUPP at open): there is no
 *				pstore copy of the logs
 * tail: > 0, only the last @tail records of what the logs hold now (then,
 *	without ANDROID_LOG_NONBLOCK, every later record).
 * start (android_logger_list_alloc_time()): records older than @start are
 *	skipped.
 * pid: > 0, only that process's records (the pid as the reader's pid
 *	namespace sees it).
 *
 * Errors are negative errnos: android_logger_list_read() returns -EAGAIN
 * (ANDROID_LOG_NONBLOCK, nothing more), -EIO (a read() of 0: the node is
 * not a logger device), -EINVAL (a record whose size does not match its
 * header), -EOPNOTSUPP, or the errno of open() or read().
 *
 * nslogger's extensions (another namespace's logs, the device directory,
 * nslogger's own header) are in <log/nslog_read.h>.
 */
#ifndef NSLOG_LOG_READ_H
#define NSLOG_LOG_READ_H

#include <fcntl.h>
#include <stdint.h>
#include <sys/types.h>

#include <android/log.h>
#if defined(__has_include)
#if __has_include(<log/log_id.h>)
#include <log/log_id.h>
#endif
#endif
#include <linux/nslogger.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ANDROID_LOG_RDONLY	O_RDONLY
#define ANDROID_LOG_WRONLY	O_WRONLY
#define ANDROID_LOG_RDWR	O_RDWR
#define ANDROID_LOG_ACCMODE	O_ACCMODE
#ifndef O_NONBLOCK
#define ANDROID_LOG_NONBLOCK	0x00000800
#else
#define ANDROID_LOG_NONBLOCK	O_NONBLOCK
#endif
#define ANDROID_LOG_WRAP	0x40000000
#define ANDROID_LOG_WRAP_DEFAULT_TIMEOUT	7200
#define ANDROID_LOG_PSTORE	0x80000000

/* What one read returns at most: Android's user-space LOGGER_ENTRY_MAX_LEN. */
#ifndef LOGGER_ENTRY_MAX_LEN
#define LOGGER_ENTRY_MAX_LEN	(5 * 1024)
#endif

/*
 * struct logger_entry (version 1) and struct logger_entry_v2 are the
 * kernel's, from <linux/nslogger.h>; versions 3 and 4 are logd's, which
 * the version 4 headers of struct log_msg follow.
 */
struct logger_entry_v3 {
	uint16_t len;		/* payload length */
	uint16_t hdr_size;	/* sizeof(struct logger_entry_v3) */
	int32_t pid;
	int32_t tid;
	int32_t sec;
	int32_t nsec;
	uint32_t lid;		/* log id of the payload */
	char msg[];
} __attribute__((__packed__));

struct logger_entry_v4 {
	uint16_t len;		/* payload length */
	uint16_t hdr_size;	/* sizeof(struct logger_entry_v4), 28 */
	int32_t pid;
	uint32_t tid;
	uint32_t sec;
	uint32_t nsec;
	uint32_t lid;		/* log id of the payload */
	uint32_t uid;		/* writer's effective uid; (uint32_t)-1 unknown */
	char msg[];
} __attribute__((__packed__));

/*
 * Android's log_time, as C sees it (AOSP's C++ class has the same two
 * fields).  A <log/log_time.h> installed beside this header defines it
 * instead, and another header that defines it first says so with
 * NSLOG_LOG_TIME_DEFINED.
 */
#if !defined(NSLOG_LOG_TIME_DEFINED) && defined(__has_include)
#if __has_include(<log/log_time.h>)
#include <log/log_time.h>
#define NSLOG_LOG_TIME_DEFINED	1
#endif
#endif
#ifndef NSLOG_LOG_TIME_DEFINED
#define NSLOG_LOG_TIME_DEFINED	1
#ifndef __cplusplus
typedef struct log_time {
	uint32_t tv_sec;
	uint32_t tv_nsec;
} __attribute__((__packed__)) log_time;
#else
struct log_time {
	uint32_t tv_sec;
	uint32_t tv_nsec;
} __attribute__((__packed__));
#endif
#endif

struct log_msg {
	union {
		unsigned char buf[LOGGER_ENTRY_MAX_LEN + 1];
		struct logger_entry_v4 entry;
		struct logger_entry_v4 entry_v4;
		struct logger_entry_v3 entry_v3;
		struct logger_entry_v2 entry_v2;
		struct logger_entry entry_v1;
	} __attribute__((aligned(4)));
#ifdef __cplusplus
	uint64_t nsec() const
	{
		return (uint64_t)entry.sec * 1000000000ULL + entry.nsec;
	}
	log_id_t id() { return (log_id_t)entry.lid; }
	char *msg()
	{
		unsigned short hdr = entry.hdr_size;

		return hdr ? (char *)buf + hdr : (char *)entry_v1.msg;
	}
	unsigned int len() { return entry.hdr_size + entry.len; }
#endif
};

struct logger;
struct logger_list;

long android_logger_get_log_size(struct logger *logger);
int android_logger_set_log_size(struct logger *logger, unsigned long size);
long android_logger_get_log_readable_size(struct logger *logger);
int android_logger_get_log_version(struct logger *logger);
int android_logger_clear(struct logger *logger);
log_id_t android_logger_get_id(struct logger *logger);

struct logger_list *android_logger_list_alloc(int mode, unsigned int tail,
					      pid_t pid);
#ifndef __cplusplus
struct logger_list *android_logger_list_alloc_time(int mode, log_time start,
						   pid_t pid);
#else
struct logger_list *android_logger_list_alloc_time(int mode,
						   struct log_time start,
						   pid_t pid);
#endif
void android_logger_list_free(struct logger_list *logger_list);
int android_logger_list_read(struct logger_list *logger_list,
			     struct log_msg *log_msg);
struct logger *android_logger_open(struct logger_list *logger_list,
				   log_id_t id);
struct logger_list *android_logger_list_open(log_id_t id, int mode,
					     unsigned int tail, pid_t pid);
#define android_logger_list_close android_logger_list_free

#ifdef __cplusplus
}
#endif

#endif /* NSLOG_LOG_READ_H */
