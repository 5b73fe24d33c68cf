/* SPDX-License-Identifier: GPL-2.0 */
/*
 * klog: the kernel log (id 7) of the container: what nslogd itself has
 * to say, never the host kernel's messages.
 */
#ifndef NSLOGD_KLOG_H
#define NSLOGD_KLOG_H

#include <stdint.h>

#include "dgram.h"
#include "stats.h"
#include "streams.h"

/* The tag of nslogd's lines. */
#define NSLOGD_KLOG_TAG		"nslogd"
/* The counts are told at most this often. */
#define NSLOGD_KLOG_GAP_NS	1000000000LL
/* The longest line, its NUL included. */
#define NSLOGD_KLOG_LINE	512

/* Android's priorities (android_LogPriority) of nslogd's lines. */
#define NSLOGD_PRIO_INFO	4
#define NSLOGD_PRIO_WARN	5

struct nslogd_klog {
	struct nslogd_streams *streams;	/* NULL: nowhere to write */
	int fd;				/* the kernel stream; -1: not open */
	int64_t next_ns;		/* the counts: not told before */
	int64_t next_check_ns;		/* the stream's name: looked at */
	/* the counts as last told */
	uint64_t refused[NSLOGD_DGRAM_VERDICTS];
	uint64_t dropped, unstored;
	uint64_t lines, unwritten;	/* lines written, lines that were not */
};

void nslogd_klog_init(struct nslogd_klog *k, struct nslogd_streams *streams);
void nslogd_klog_say(struct nslogd_klog *k, int prio, int64_t now_ns,
		     const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
int64_t nslogd_klog_tick(struct nslogd_klog *k, const struct nslogd_stats *st,
			 int64_t now_ns);
void nslogd_klog_close(struct nslogd_klog *k);

#endif /* NSLOGD_KLOG_H */
