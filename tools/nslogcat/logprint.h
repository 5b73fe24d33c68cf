/* SPDX-License-Identifier: GPL-2.0 */
/*
 * logprint: print the records liblog's reader returns (struct log_msg) as
 * nslogcat does: filters (tags, regex, uids), the event tag map, the
 * layouts and -v json, -B, and logcat's "beginning of" and -D dividers.
 */
#ifndef NSLOG_LOGPRINT_H
#define NSLOG_LOGPRINT_H

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include <log/event_tag_map.h>

#include "logformat.h"
#include "recmeta.h"

struct nslog_printer {
	FILE *out;
	FILE *err;		/* warnings, or NULL */
	const char *prog;	/* prefix of warnings */
	struct nslog_fmt fmt;	/* layout and modifiers */
	bool binary;		/* write raw records (logcat -B) */
	bool headers;		/* "--------- beginning of LOG" lines */
	bool dividers;		/* and "--------- switch to LOG" (-D) */
	const struct nslog_filter *filter;	/* or NULL */
	const regex_t *regex;	/* -e: on the message; or NULL */
	const unsigned long *uids;	/* --uid: the writer's euid; or NULL */
	size_t uid_count;
	const EventTagMap *tags;	/* events tag names; or NULL */
	const struct nslog_meta *meta;	/* for -v json: ns, utc; or NULL */
};

/* What the dividers need to know of the records printed before. */
struct nslog_print_state {
	unsigned int started;	/* a bit per log id with a record printed */
	int last;		/* log id of the last record printed, or -1 */
};

void nslog_print_state_init(struct nslog_print_state *st);
int nslog_print(const struct nslog_printer *p, struct nslog_print_state *st,
		const void *raw, size_t n);

#endif /* NSLOG_LOGPRINT_H */
