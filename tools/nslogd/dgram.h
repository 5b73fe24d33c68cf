/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dgram: one logdw datagram, checked and parsed into a record.
 *
 * The wire format (shared/reference/logd-protocol.md, "Writers"): an
 * 11-byte packed header in host byte order (log id u8, tid u16, realtime
 * seconds u32, realtime nanoseconds u32), then the payload, 1 to 4068
 * bytes. The sender's pid, uid and gid are the kernel's (SCM_CREDENTIALS);
 * everything in the datagram is the writer's claim.
 */
#ifndef NSLOGD_DGRAM_H
#define NSLOGD_DGRAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>

#define NSLOGD_HDR_SIZE		11
/* The largest payload logd's socket carries (LOGGER_ENTRY_MAX_PAYLOAD). */
#define NSLOGD_MAX_PAYLOAD	4068
#define NSLOGD_MAX_DGRAM	(NSLOGD_HDR_SIZE + NSLOGD_MAX_PAYLOAD)
/* Binary records (events, stats, security) start with an int32 tag. */
#define NSLOGD_BINARY_MIN	4

/* Android's log ids (log_id_t). */
enum nslogd_log_id {
	NSLOGD_LOG_MAIN		= 0,
	NSLOGD_LOG_RADIO	= 1,
	NSLOGD_LOG_EVENTS	= 2,
	NSLOGD_LOG_SYSTEM	= 3,
	NSLOGD_LOG_CRASH	= 4,
	NSLOGD_LOG_STATS	= 5,
	NSLOGD_LOG_SECURITY	= 6,
	NSLOGD_LOG_KERNEL	= 7,
	NSLOGD_LOG_COUNT
};

/* Android ids the checks name (AID_*). */
#define NSLOGD_AID_ROOT		0
#define NSLOGD_AID_SYSTEM	1000
#define NSLOGD_AID_LOG		1007
#define NSLOGD_AID_LOGD		1036

/*
 * What became of a datagram: NSLOGD_DGRAM_OK, or why it was refused. The
 * order is the order of the checks.
 */
enum nslogd_verdict {
	NSLOGD_DGRAM_OK = 0,
	NSLOGD_DGRAM_SHORT,		/* fewer than NSLOGD_HDR_SIZE bytes */
	NSLOGD_DGRAM_EMPTY,		/* a header and no payload */
	NSLOGD_DGRAM_OVERSIZED,		/* more than NSLOGD_MAX_DGRAM bytes */
	NSLOGD_DGRAM_NO_CRED,		/* no SCM_CREDENTIALS, or a pid of 0 */
	NSLOGD_DGRAM_LOGD_UID,		/* from uid logd (1036), as logd */
	NSLOGD_DGRAM_BAD_ID,		/* log id 8 or more */
	NSLOGD_DGRAM_KERNEL_ID,		/* log id 7: the kernel's, never a writer's */
	NSLOGD_DGRAM_SECURITY,		/* security without log credentials */
	NSLOGD_DGRAM_BINARY_SHORT,	/* binary payload without its tag */
	NSLOGD_DGRAM_VERDICTS
};

/* One record as a writer sent it, with the kernel's word on who it is. */
struct nslogd_record {
	unsigned int log_id;
	uint16_t tid;		/* claimed */
	uint32_t sec;		/* claimed CLOCK_REALTIME */
	uint32_t nsec;
	pid_t pid;		/* SCM_CREDENTIALS */
	uid_t uid;
	gid_t gid;
	const unsigned char *payload;	/* points into the datagram */
	size_t len;
};

/*
 * Whether a writer has log credentials (uid or gid root, system or log,
 * or log among its groups); nslogd_logcred() in the daemon, a stand-in in
 * the tests.
 */
typedef bool nslogd_logcred_fn(const struct ucred *cred);

enum nslogd_verdict nslogd_dgram_parse(const void *buf, size_t n,
				       bool truncated,
				       const struct ucred *cred,
				       nslogd_logcred_fn *logcred,
				       struct nslogd_record *rec);
const char *nslogd_verdict_name(enum nslogd_verdict v);
bool nslogd_log_is_binary(unsigned int log_id);

#endif /* NSLOGD_DGRAM_H */
