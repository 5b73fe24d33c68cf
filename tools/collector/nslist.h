/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nslist: the log sets /proc/nslogger/namespaces lists.
 */
#ifndef NSLOG_NSLIST_H
#define NSLOG_NSLIST_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

#include "recmeta.h"

/* A stream of a set: a log made at run time in an nslogfs mount. */
struct nslog_nsstream {
	char name[NSLOG_STREAM_NAME_SIZE];
	__u64 stored;
};

struct nslog_nsent {
	__u64 ns_id;
	__u64 set_id;
	bool dead;
	__u64 stored[NSLOG_KLOG_COUNT];	/* records each log holds */
	struct nslog_nsstream *streams;	/* in the listing's order */
	size_t nstreams;
	size_t streams_cap;
};

struct nslog_nslist {
	struct nslog_nsent *sets;
	size_t count;
	size_t cap;
};

int nslog_nslist_parse(struct nslog_nslist *l, const char *text);
int nslog_nslist_read(struct nslog_nslist *l, int fd);
const struct nslog_nsent *nslog_nslist_find(const struct nslog_nslist *l,
					    __u64 set_id);
void nslog_nslist_free(struct nslog_nslist *l);

#endif /* NSLOG_NSLIST_H */
