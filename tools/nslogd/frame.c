// SPDX-License-Identifier: GPL-2.0
/*
 * frame: nslogger's record to logd's v4 message, in place.
 *
 * A record read with NSLOG_ENTRY_VERSION is a 56-byte struct nslog_entry
 * (hdr_size says how long; a later kernel may say more, never less) and
 * the payload. The v4 header is 28 bytes, so it is written over the end
 * of nslogger's header, just before the payload, and the message is sent
 * from there: no copy of the payload, and no buffer besides the one the
 * record was read into.
 *
 * The fields: pid and uid are what the kernel stamped (for a relayed
 * record, the writer's credentials); tid and the time are the writer's
 * claims for a relayed record, the kernel's for any other; sec is the
 * low 32 bits of the seconds, as logd's is (unsigned: good until 2106).
 */
#include <string.h>

#include "frame.h"

/**
 * nslogd_frame_check() - whether a read() gave a whole, sane record
 * @rec: what read() returned
 * @n: its length
 * @hdr: filled in with the header (copied: @rec need not be aligned)
 *
 * Context: any.
 * Return: true if @rec is a header of at least struct nslog_entry's size
 * and exactly its payload.
 */
bool nslogd_frame_check(const void *rec, size_t n, struct nslog_entry *hdr)
{
	if (n < sizeof(*hdr))
		return false;
	memcpy(hdr, rec, sizeof(*hdr));
	return hdr->hdr_size >= sizeof(*hdr) &&
	       hdr->len <= LOGGER_ENTRY_MAX_PAYLOAD &&
	       (size_t)hdr->hdr_size + hdr->len == n;
}

/**
 * nslogd_frame_v4() - frame a checked record as logd's v4 message
 * @rec: the record, as nslogd_frame_check() accepted it; its header is
 *	overwritten
 * @hdr: its header, from nslogd_frame_check()
 * @len: set to the message's length
 *
 * Context: any.
 * Return: the message's start, inside @rec.
 */
const void *nslogd_frame_v4(void *rec, const struct nslog_entry *hdr,
			    size_t *len)
{
	struct nslogd_v4_entry v4 = {
		.len = hdr->len,
		.hdr_size = NSLOGD_V4_HDR_SIZE,
		.pid = hdr->pid,
		.tid = hdr->tid,
		.lid = hdr->log_id,
		.uid = hdr->euid,
	};
	int64_t sec = hdr->time_ns / 1000000000LL;
	int64_t nsec = hdr->time_ns % 1000000000LL;
	unsigned char *msg = (unsigned char *)rec + hdr->hdr_size -
			     NSLOGD_V4_HDR_SIZE;

	if (nsec < 0) {		/* floor, for a time before 1970 */
		nsec += 1000000000LL;
		sec--;
	}
	v4.sec = (uint32_t)sec;
	v4.nsec = (uint32_t)nsec;
	memcpy(msg, &v4, sizeof(v4));
	*len = NSLOGD_V4_HDR_SIZE + hdr->len;
	return msg;
}
