// SPDX-License-Identifier: GPL-2.0
/*
 * dgram: a logdw datagram checked at the boundary, then parsed into a
 * struct nslogd_record. Nothing here allocates or keeps state: the record
 * points into the caller's buffer.
 */
#include <string.h>

#include "dgram.h"

static const char *const verdict_names[NSLOGD_DGRAM_VERDICTS] = {
	[NSLOGD_DGRAM_OK]		= "ok",
	[NSLOGD_DGRAM_SHORT]		= "short",
	[NSLOGD_DGRAM_EMPTY]		= "empty",
	[NSLOGD_DGRAM_OVERSIZED]	= "oversized",
	[NSLOGD_DGRAM_NO_CRED]		= "no-credentials",
	[NSLOGD_DGRAM_LOGD_UID]		= "logd-uid",
	[NSLOGD_DGRAM_BAD_ID]		= "bad-id",
	[NSLOGD_DGRAM_KERNEL_ID]	= "kernel-id",
	[NSLOGD_DGRAM_SECURITY]		= "security-denied",
	[NSLOGD_DGRAM_BINARY_SHORT]	= "binary-short",
};

/**
 * nslogd_verdict_name() - the word stats and messages use for a verdict
 * @v: a verdict
 *
 * Context: any.
 * Return: a static string, "?" for a value out of range.
 */
const char *nslogd_verdict_name(enum nslogd_verdict v)
{
	if ((unsigned int)v >= NSLOGD_DGRAM_VERDICTS)
		return "?";
	return verdict_names[v];
}

/**
 * nslogd_log_is_binary() - whether a log's records are binary events
 * @log_id: an Android log id
 *
 * Context: any.
 * Return: true for events, stats and security.
 */
bool nslogd_log_is_binary(unsigned int log_id)
{
	return log_id == NSLOGD_LOG_EVENTS || log_id == NSLOGD_LOG_STATS ||
	       log_id == NSLOGD_LOG_SECURITY;
}

/**
 * nslogd_dgram_parse() - check one logdw datagram and parse it
 * @buf: the datagram as received
 * @n: its length as received (at most the receive buffer's)
 * @truncated: the datagram was longer than the receive buffer (MSG_TRUNC)
 * @cred: the sender's SCM_CREDENTIALS, or NULL if none came with it
 * @logcred: asked only for a security record: does the sender have log
 *	credentials
 * @rec: filled in when the datagram is accepted
 *
 * The checks, in order: the size (shorter than the header, a header
 * alone, longer than header and 4068 bytes), the credentials (none, a pid
 * this pid namespace cannot see, uid logd), the log id (8 or more; 7, the
 * kernel's, never from a writer), security only from a writer with log
 * credentials, and a binary record long enough for its tag. logd stores an
 * oversized datagram cut to its buffer; nslogd refuses it, as liblog never
 * sends one and a cut text record would lose its terminators.
 *
 * Context: any; calls @logcred for security records only.
 * Return: NSLOGD_DGRAM_OK, or the first check that failed.
 */
enum nslogd_verdict nslogd_dgram_parse(const void *buf, size_t n,
				       bool truncated,
				       const struct ucred *cred,
				       nslogd_logcred_fn *logcred,
				       struct nslogd_record *rec)
{
	const unsigned char *p = buf;
	uint16_t tid;
	uint32_t sec, nsec;
	unsigned int id;

	if (n < NSLOGD_HDR_SIZE)
		return NSLOGD_DGRAM_SHORT;
	if (n == NSLOGD_HDR_SIZE && !truncated)
		return NSLOGD_DGRAM_EMPTY;
	if (truncated || n > NSLOGD_MAX_DGRAM)
		return NSLOGD_DGRAM_OVERSIZED;
	if (!cred || cred->pid <= 0)
		return NSLOGD_DGRAM_NO_CRED;
	if (cred->uid == NSLOGD_AID_LOGD)
		return NSLOGD_DGRAM_LOGD_UID;

	id = p[0];
	if (id >= NSLOGD_LOG_COUNT)
		return NSLOGD_DGRAM_BAD_ID;
	if (id == NSLOGD_LOG_KERNEL)
		return NSLOGD_DGRAM_KERNEL_ID;
	if (id == NSLOGD_LOG_SECURITY && !(logcred && logcred(cred)))
		return NSLOGD_DGRAM_SECURITY;
	if (nslogd_log_is_binary(id) && n - NSLOGD_HDR_SIZE < NSLOGD_BINARY_MIN)
		return NSLOGD_DGRAM_BINARY_SHORT;

	/* packed and in host byte order: copy, never cast */
	memcpy(&tid, p + 1, sizeof(tid));
	memcpy(&sec, p + 3, sizeof(sec));
	memcpy(&nsec, p + 7, sizeof(nsec));

	rec->log_id = id;
	rec->tid = tid;
	rec->sec = sec;
	rec->nsec = nsec;
	rec->pid = cred->pid;
	rec->uid = cred->uid;
	rec->gid = cred->gid;
	rec->payload = p + NSLOGD_HDR_SIZE;
	rec->len = n - NSLOGD_HDR_SIZE;
	return NSLOGD_DGRAM_OK;
}
