/* SPDX-License-Identifier: GPL-2.0 */
/*
 * catopts: nslogcat's command line, logcat's options and nslogcat's own,
 * parsed into struct nslog_catopts.  Usage errors exit with status 1, as
 * logcat's do; --help, -v help and --version exit with 0.
 */
#ifndef NSLOG_CATOPTS_H
#define NSLOG_CATOPTS_H

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "devpath.h"
#include "logformat.h"

#define NSLOG_CAT_PROG		"nslogcat"
/* logcat's default count of rotated files (-n). */
#define NSLOG_CAT_ROTATE_COUNT	4

struct nslog_catopts {
	int ids[NSLOG_BUF_COUNT];	/* selected logs, in order */
	size_t count;
	bool system_if_present;	/* default or -b default: system if it exists */
	bool dump;		/* -d, -t: ANDROID_LOG_NONBLOCK */
	bool clear;		/* -c */
	bool get_size;		/* -g */
	unsigned long set_size;	/* -G, bytes; 0 if not given */
	bool stats;		/* -S */
	bool binary;		/* -B */
	bool dividers;		/* -D */
	bool v2;		/* --v2 */
	unsigned int tail;	/* -t N, -T N */
	bool got_t;		/* -t (N or time) */
	bool has_start;		/* -t TIME, -T TIME */
	uint32_t start_sec;
	uint32_t start_nsec;
	size_t max_count;	/* -m; 0 for no limit */
	bool has_regex;		/* -e */
	regex_t regex;
	pid_t pid;		/* --pid; 0 for every process */
	unsigned long *uids;	/* --uid; NULL for every uid */
	size_t uid_count;
	const char *file;	/* -f */
	size_t rotate_kb;	/* -r; 0: no rotation */
	size_t rotate_count;	/* -n */
	struct nslog_fmt fmt;
	const char *dev_dir;	/* --dev-dir */
	const char *ns;		/* --ns, as given */
	const char *event_tags;	/* --event-tags or $NSLOG_EVENT_TAGS */
	bool event_tags_given;	/* not the default: a failure is an error */
	struct nslog_filter filter;
};

void nslog_catopts_parse(struct nslog_catopts *o, int argc, char **argv);
int nslog_catopts_parse_time(const char *s, uint32_t *sec, uint32_t *nsec,
			     const char **end);
int nslog_catopts_parse_size(const char *s, unsigned long *size);
void nslog_catopts_free(struct nslog_catopts *o);

#endif /* NSLOG_CATOPTS_H */
