/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _NSLOG_STREAM_H
#define _NSLOG_STREAM_H

#include <linux/list.h>
#include <linux/refcount.h>
#include <linux/types.h>
#include <linux/uidgid.h>

#include <uapi/linux/nslogger.h>

#include "log.h"

struct seq_file;

/**
 * struct nslog_stream - a log made at run time in a set (an nslogfs file)
 * @log: the log; its id is NSLOG_NR_LOGS for every stream
 * @ref: the set's table holds one while the stream is listed, each open
 *	file and each inode one
 * @node: in &nslog_logset.streams, in the order they were made; under
 *	&nslog_logset.streams_lock
 * @log_id: its log id in records and NSLOG_IOC_INFO, from
 *	NSLOG_STREAM_LOG_ID_MIN on, never reused within the set
 * @size: the ring size charged for it (what the limits count)
 * @uid: the owner of its files, in every mount of the set
 * @gid: their group
 * @mode: their read and write bits
 * @name: NUL-terminated, see nslog_stream_name_ok()
 *
 * A stream counts against its set's and its owner's limits from being made
 * until its last reference is gone, not until it is removed: a removed
 * stream that is still open still has its ring.
 */
struct nslog_stream {
	struct nslog_log log;
	refcount_t ref;
	struct list_head node;
	u32 log_id;
	u32 size;
	kuid_t uid;
	kgid_t gid;
	umode_t mode;
	char name[NSLOG_STREAM_NAME_MAX + 1];
};

/**
 * struct nslog_stream_limits - what one mount lets its set's streams take
 * @streams: most streams of the set, removed ones still open counted
 * @bytes: most bytes of their rings together
 */
struct nslog_stream_limits {
	unsigned int streams;
	u64 bytes;
};

/**
 * nslog_log_stream() - the stream a log is, if it is one
 * @log: a log
 *
 * Return: the stream, or NULL for one of a set's four logs.
 */
static inline struct nslog_stream *nslog_log_stream(struct nslog_log *log)
{
	return log->id == NSLOG_NR_LOGS ?
	       container_of(log, struct nslog_stream, log) : NULL;
}

/**
 * nslog_log_android_id() - a log's id as records and NSLOG_IOC_INFO give it
 * @log: a log
 *
 * Return: Android's LOG_ID_* for the four logs, the stream's own otherwise.
 */
static inline u32 nslog_log_android_id(struct nslog_log *log)
{
	struct nslog_stream *s = nslog_log_stream(log);

	return s ? s->log_id : nslog_log_android_ids[log->id];
}

static inline struct nslog_stream *nslog_stream_get(struct nslog_stream *s)
{
	refcount_inc(&s->ref);
	return s;
}

bool nslog_stream_name_ok(const char *name);
struct nslog_stream *nslog_stream_create(struct nslog_logset *set,
					 const char *name, u32 size,
					 const struct nslog_stream_limits *lim,
					 kuid_t uid, kgid_t gid, umode_t mode);
struct nslog_stream *nslog_stream_find(struct nslog_logset *set,
				       const char *name);
struct nslog_stream *nslog_stream_next(struct nslog_logset *set, u32 log_id);
int nslog_stream_remove(struct nslog_stream *s);
int nslog_stream_resize(struct nslog_stream *s, u32 size,
			const struct nslog_stream_limits *lim);
void nslog_stream_put(struct nslog_stream *s);

void nslog_streams_init(struct nslog_logset *set);
void nslog_streams_kill(struct nslog_logset *set);
void nslog_streams_destroy(struct nslog_logset *set);
void nslog_streams_show(struct seq_file *m, struct nslog_logset *set,
			void (*show)(struct seq_file *m, void *arg,
				     struct nslog_log *log, const char *name),
			void *arg);

#endif /* _NSLOG_STREAM_H */
