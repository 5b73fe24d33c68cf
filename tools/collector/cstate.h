/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cstate: the collector's state file, where each log of each set stands:
 * the seq of the last record the output has (flushed).
 */
#ifndef NSLOG_CSTATE_H
#define NSLOG_CSTATE_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

#include "recmeta.h"

/* A boot id as /proc/sys/kernel/random/boot_id has it: 36 characters. */
#define NSLOG_BOOT_ID_LEN	36

/* Where a stream of a set stands: only streams that shipped a record. */
struct nslog_cstate_stream {
	char name[NSLOG_STREAM_NAME_SIZE];
	__u32 log_id;	/* its log id, never reused in a set; 0: not known */
	__u64 last;
};

struct nslog_cstate_set {
	__u64 set_id;
	__u64 ns_id;
	bool has[NSLOG_KLOG_COUNT];	/* a record of this log was shipped */
	__u64 last[NSLOG_KLOG_COUNT];	/* the seq of the last one */
	struct nslog_cstate_stream *streams;	/* allocated */
	size_t nstreams;
};

struct nslog_cstate {
	char boot_id[NSLOG_BOOT_ID_LEN + 1];
	struct nslog_cstate_set *sets;
	size_t count;
	size_t cap;
};

int nslog_boot_id(const char *path, char *buf);
struct nslog_cstate_set *nslog_cstate_add(struct nslog_cstate *st,
					  __u64 set_id, __u64 ns_id);
struct nslog_cstate_set *nslog_cstate_find(const struct nslog_cstate *st,
					   __u64 set_id);
void nslog_cstate_remove(struct nslog_cstate *st, struct nslog_cstate_set *s);
const struct nslog_cstate_stream *
nslog_cstate_stream_find(const struct nslog_cstate_set *s, const char *name);
int nslog_cstate_stream_add(struct nslog_cstate_set *s, const char *name,
			    __u32 log_id, __u64 last);
int nslog_cstate_load(struct nslog_cstate *st, const char *path,
		      const char *boot_id, unsigned int *line);
int nslog_cstate_format(const struct nslog_cstate *st, char **text,
			size_t *len);
int nslog_cstate_save(const struct nslog_cstate *st, const char *path);
void nslog_cstate_free(struct nslog_cstate *st);

#endif /* NSLOG_CSTATE_H */
