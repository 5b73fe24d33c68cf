/* SPDX-License-Identifier: GPL-2.0 */
/*
 * merge: one reader's logs read ahead a record each and handed out in
 * nslogger's order (struct nslog_entry's @order, one counter per set).
 */
#ifndef NSLOGD_MERGE_H
#define NSLOGD_MERGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/nslogger.h>

#include "rdlog.h"

/*
 * The logs a reader can be served: main, radio, events, system and the
 * streams crash, stats, security, kernel.
 */
#define NSLOGD_MERGE_LOGS	8
#define NSLOGD_MERGE_NO_STOP	UINT64_MAX

enum nslogd_msrc_state {
	NSLOGD_MSRC_EMPTY = 0,	/* nothing read ahead: read next */
	NSLOGD_MSRC_HAVE,	/* a record read ahead, in @buf */
	NSLOGD_MSRC_DRAINED,	/* read() said -EAGAIN at @tick */
	NSLOGD_MSRC_DONE,	/* nothing more: end, stop, or @err */
};

/* One log of one reader. */
struct nslogd_msrc {
	int fd;
	unsigned int log_id;	/* Android's: @hdr.log_id is set to it */
	enum nslogd_msrc_state state;
	uint64_t tick;		/* the merge's clock when read or drained */
	uint64_t stop_seq;	/* a record of this seq or later ends it */
	bool stop_drained;	/* -EAGAIN ends it (a dump) */
	int err;		/* why it is done, 0 for an end */
	size_t n;		/* the record's length */
	struct nslog_entry hdr;	/* its header */
	unsigned char *buf;	/* NSLOG_ENTRY_MAX_LEN bytes */
};

enum nslogd_merge_ret {
	NSLOGD_MERGE_REC = 0,	/* the next record is in *out */
	NSLOGD_MERGE_WAIT,	/* none yet: wait for a drained log's fd */
	NSLOGD_MERGE_END,	/* every log is done */
};

struct nslogd_merge {
	const struct nslogd_rdops *ops;
	unsigned int n;
	struct nslogd_msrc src[NSLOGD_MERGE_LOGS];
	uint64_t clock;		/* counts reads, to date them */
	uint64_t lost;		/* records the kernel said this reader lost */
	uint64_t bad;		/* reads that were no whole record: skipped */
};

void nslogd_merge_init(struct nslogd_merge *m, const struct nslogd_rdops *ops);
int nslogd_merge_add(struct nslogd_merge *m, unsigned int log_id, int fd);
void nslogd_merge_fill(struct nslogd_merge *m, struct nslogd_msrc *s);
enum nslogd_merge_ret nslogd_merge_next(struct nslogd_merge *m,
					struct nslogd_msrc **out);
void nslogd_merge_free(struct nslogd_merge *m);

/* The record handed out is used: read the next one of its log. */
static inline void nslogd_merge_consume(struct nslogd_msrc *s)
{
	s->state = NSLOGD_MSRC_EMPTY;
}

#endif /* NSLOGD_MERGE_H */
