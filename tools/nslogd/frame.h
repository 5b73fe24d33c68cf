/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frame: a record read from nslogger (struct nslog_entry, header version
 * NSLOG_ENTRY_VERSION) checked, and framed as logd's readers get it:
 * struct logger_entry version 4, then the payload.
 */
#ifndef NSLOGD_FRAME_H
#define NSLOGD_FRAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/nslogger.h>

/*
 * logd's struct logger_entry, version 4 (shared/reference/logd-protocol.md,
 * "Readers"): 28 bytes, natural alignment, host byte order.
 */
struct nslogd_v4_entry {
	uint16_t len;		/* payload bytes */
	uint16_t hdr_size;	/* 28 */
	int32_t pid;		/* the writer's, from its credentials */
	int32_t tid;		/* the writer's claim */
	uint32_t sec;		/* the writer's claimed CLOCK_REALTIME */
	uint32_t nsec;
	uint32_t lid;		/* log id */
	uint32_t uid;		/* the writer's, from its credentials */
};

#define NSLOGD_V4_HDR_SIZE	28
/* The largest message a reader gets: logcat reads with 5 KiB. */
#define NSLOGD_V4_MAX		(NSLOGD_V4_HDR_SIZE + LOGGER_ENTRY_MAX_PAYLOAD)

_Static_assert(sizeof(struct nslogd_v4_entry) == NSLOGD_V4_HDR_SIZE,
	       "logger_entry v4 is 28 bytes");

bool nslogd_frame_check(const void *rec, size_t n, struct nslog_entry *hdr);
const void *nslogd_frame_v4(void *rec, const struct nslog_entry *hdr,
			    size_t *len);

#endif /* NSLOGD_FRAME_H */
