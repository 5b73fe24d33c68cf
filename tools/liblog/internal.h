/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * internal: what liblog's files share and do not export.
 *
 * liblog.so.0 is built with -fvisibility=hidden and a version script:
 * only NSLOG_EXPORT functions are public, each in its AOSP version node
 * (liblog.map).  Everything declared here is hidden.
 */
#ifndef NSLOG_LIBLOG_INTERNAL_H
#define NSLOG_LIBLOG_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

#define NSLOG_EXPORT	__attribute__((visibility("default")))

/* logid.c: the nslogger buffer (enum nslog_buf_id) of a log_id_t. */
int nslog_logid_route(int log_id);

/* devfd.c: one record to a nslogger buffer; opens (and retries) the node. */
int nslog_dev_writev(int buf, const struct iovec *vec, int n);
void nslog_dev_close(void);

/* Environment variable: the retry interval of a failed open, in ms. */
#define NSLOG_RETRY_MS_ENV	"NSLOG_LOG_RETRY_MS"
#define NSLOG_RETRY_MS_DEFAULT	1000

/* filter.c: the level set for a tag, or -1; forget the configuration. */
int nslog_filter_tag_level(const char *tag, size_t len);
void nslog_filter_reset(void);

/* Environment variables: logcat filterspecs and the log.tag file. */
#define NSLOG_LOG_TAGS_ENV	"ANDROID_LOG_TAGS"
#define NSLOG_LOG_TAG_FILE_ENV	"NSLOG_LOG_TAG_FILE"
#ifndef NSLOG_LOG_TAG_FILE
#define NSLOG_LOG_TAG_FILE	"/etc/nslogger/log.tag"
#endif

/* text_write.c: a text record, filter passed, tag resolved. */
int nslog_text_write(int log_id, int prio, const char *tag, const char *msg);

/* logger.c: the default tag, copied into @buf (for a NULL tag). */
const char *nslog_default_tag(char *buf, size_t size);
int nslog_logger_is_default(void);

static inline void nslog_iov(struct iovec *v, const void *base, size_t len)
{
	v->iov_base = (void *)base;
	v->iov_len = len;
}

#endif /* NSLOG_LIBLOG_INTERNAL_H */
