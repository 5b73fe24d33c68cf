/* SPDX-License-Identifier: GPL-2.0 */
/*
 * recmeta: what the outputs know of a record besides its header and
 * text: its log, its set, its container, the host; and records of lost
 * records.
 */
#ifndef NSLOG_RECMETA_H
#define NSLOG_RECMETA_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

#include "cgparse.h"

/*
 * The logs as the devices come (log_main, log_events, ...): the order in
 * which the collector keeps them.  struct nslog_entry and nslog_info number
 * them as Android's LOG_ID_* instead: nslog_klog_android_id().
 */
enum nslog_klog {
	NSLOG_KLOG_MAIN		= 0,
	NSLOG_KLOG_EVENTS	= 1,
	NSLOG_KLOG_RADIO	= 2,
	NSLOG_KLOG_SYSTEM	= 3,
	NSLOG_KLOG_COUNT
};

/*
 * Streams made at run time in an nslogfs mount have names instead
 * (nslog_stream_name_ok()); the collector gives them this klog.
 */
#define NSLOG_KLOG_STREAM	NSLOG_KLOG_COUNT
/* A stream's name and its NUL: struct nslog_open_stream's name. */
#define NSLOG_STREAM_NAME_SIZE	32

struct nslog_meta {
	const char *log;		/* "main" ..., or NULL */
	const char *host;		/* the host's name, or NULL */
	const char *boot_id;		/* or NULL */
	bool has_set;
	__u64 set_id;
	bool has_ns;
	__u64 ns_id;
	const struct nslog_ident *ident;	/* or NULL */
	bool utc;			/* time stamps in UTC, else local */
};

/* Why records may have been lost, when how many is not known. */
enum nslog_loss_why {
	NSLOG_LOSS_SET_GONE,	/* the set went before they were read */
	NSLOG_LOSS_STREAM_GONE,	/* the stream was removed before */
	NSLOG_LOSS_STREAM_REMADE,	/* ... and another has its name now */
};

/* Records of one log that never reached the output. */
struct nslog_loss {
	bool known;		/* @count is known; else "some" */
	enum nslog_loss_why why;	/* if not @known */
	__u64 count;
	__u64 first_seq;	/* the first of them */
	__s64 sec;		/* when they were missed: the next record's */
	__s32 nsec;
};

/* Room for nslog_loss_text() and nslog_meta_label(). */
#define NSLOG_LOSS_TEXT_MAX	512
#define NSLOG_LABEL_MAX		160

const char *nslog_klog_name(unsigned int log_id);
unsigned int nslog_klog_android_id(unsigned int klog);
int nslog_klog_from_android_id(__u32 android_id);
int nslog_klog_from_name(const char *name);
bool nslog_stream_name_ok(const char *name);
bool nslog_stream_binary(const char *name);
void nslog_meta_label(char *buf, size_t size, const struct nslog_meta *m);
void nslog_loss_text(char *buf, size_t size, const struct nslog_meta *m,
		     const struct nslog_loss *loss);

#endif /* NSLOG_RECMETA_H */
