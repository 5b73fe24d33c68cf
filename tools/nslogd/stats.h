/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stats: nslogd's counters, and what it says about them.
 */
#ifndef NSLOGD_STATS_H
#define NSLOGD_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dgram.h"
#include "store.h"

struct nslogd_stats {
	uint64_t received;			/* datagrams read from logdw */
	uint64_t refused[NSLOGD_DGRAM_VERDICTS];	/* [0]: accepted */
	uint64_t result[NSLOGD_STORE_RESULTS];	/* of the accepted */
	uint64_t stored[NSLOGD_LOG_COUNT];	/* per log id */
	uint64_t unstored[NSLOGD_LOG_COUNT];	/* per log id: no-log, failed, no-file-log */
	uint64_t fds_closed;		/* fds a writer passed, closed unread */
	uint64_t conns_closed[2];	/* logd, logdr: accepted and closed */
	/* what was said once already (bits of verdicts, results) */
	uint32_t told_verdicts;
	uint32_t told_results;
};

void nslogd_stats_refused(struct nslogd_stats *st, enum nslogd_verdict v,
			  pid_t pid);
void nslogd_stats_result(struct nslogd_stats *st, unsigned int log_id,
			 enum nslogd_store_result r, int err);
size_t nslogd_stats_format(const struct nslogd_stats *st, char *buf,
			   size_t size);

#endif /* NSLOGD_STATS_H */
