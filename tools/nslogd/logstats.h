/* SPDX-License-Identifier: GPL-2.0 */
/*
 * logstats: getStatistics' text, counted from the records stored at the
 * time of the request by reading each log with a fresh reader.
 */
#ifndef NSLOGD_LOGSTATS_H
#define NSLOGD_LOGSTATS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "reply.h"
#include "ringctl.h"

/* Distinct uids, and pids, one log's count keeps; the rest are "other". */
#define NSLOGD_LOGSTATS_KEYS	1024
/* Rows of each table shown, the chattiest first. */
#define NSLOGD_LOGSTATS_ROWS	32

/* What the request asks for. */
struct nslogd_logstats_req {
	unsigned int logs;	/* bit per log id 0 to 7 */
	pid_t pid;		/* only this pid's records; 0: all */
	bool all_uids;		/* false: only @uid's records */
	uid_t uid;
};

/* nslogd's own counts the text adds: what never reached a ring. */
struct nslogd_logstats_extra {
	uint64_t dropped;	/* rate limits (-EAGAIN from the relay) */
	uint64_t failed;	/* other errors of the relay, logs missing */
	uint64_t not_stored[8];	/* per log id, of @failed */
};

int nslogd_logstats(const struct nslogd_ringctl *rc,
		    const struct nslogd_logstats_req *req,
		    const struct nslogd_logstats_extra *extra,
		    struct nslogd_reply *out);

#endif /* NSLOGD_LOGSTATS_H */
