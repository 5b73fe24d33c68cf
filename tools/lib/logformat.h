/* SPDX-License-Identifier: GPL-2.0 */
/*
 * logformat: decode logger records and print them as logcat does.
 *
 * Pure functions on byte buffers, so that tests/tools/logformat_test.c can
 * check every layout with synthetic records and no device.
 */
#ifndef NSLOG_LOGFORMAT_H
#define NSLOG_LOGFORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <linux/nslogger.h>

/* Priorities outside the uapi enum: unknown, and silent for filters. */
#define NSLOG_PRIO_UNKNOWN	0
#define NSLOG_PRIO_SILENT	8

/* Size of one read(): Android's user-space LOGGER_ENTRY_MAX_LEN. */
#define NSLOG_READ_BUF_SIZE	5120

/* Room for the text of a decoded events record (worst case ~10 KiB). */
#define NSLOG_EVENT_TEXT_MAX	16384

/* Version 1 header size; version 2 headers say their size in hdr_size. */
#define NSLOG_HDR_V1_SIZE	((unsigned int)sizeof(struct logger_entry))
#define NSLOG_HDR_V2_SIZE	((unsigned int)sizeof(struct logger_entry_v2))

/* Android's version 4 header (liblog's reader): log id and uid. */
#define NSLOG_HDR_V4_SIZE	28U

/* nslogger's own header (NSLOG_ENTRY_VERSION); larger ones are later. */
#define NSLOG_HDR_NS_SIZE	((unsigned int)sizeof(struct nslog_entry))
/* ... with what relays add (NSLOG_ENTRY2_VERSION): relay_pid, stored_ns. */
#define NSLOG_HDR_NS2_SIZE	((unsigned int)sizeof(struct nslog_entry2))

/* The fields of a record header, whatever its version. */
struct nslog_rec {
	unsigned int hdr_size;
	unsigned int len;
	__s32 pid;
	__s32 tid;
	__s64 sec;	/* v1, v2: 32 bits read as unsigned (until 2106) */
	__s32 nsec;
	__u32 euid;
	bool has_euid;	/* version 2, a known uid in 4, or nslogger's header */
	bool has_lid;	/* @log_id is set: version 4 or nslogger's header */
	bool has_seq;	/* nslogger's header: the fields below are set */
	__u64 seq;
	__u64 order;
	__u64 lost;
	__u32 log_id;
	__u32 flags;		/* NSLOG_ENTRY_*: nslog_rec_relayed() ... */
	bool has_relay;		/* nslogger's 0x4e54 header: the fields below */
	__s32 relay_pid;	/* a relayed record's relay, 0 if not visible */
	__s64 stored_sec;	/* when the kernel stored it: @sec, but for a */
	__s32 stored_nsec;	/* relayed record, whose @sec is the writer's */
	const unsigned char *payload;
};

/* Stored by a relay for another process (NSLOG_IOC_RELAY). */
static inline bool nslog_rec_relayed(const struct nslog_rec *rec)
{
	return rec->has_seq && (rec->flags & NSLOG_ENTRY_RELAYED);
}

/* ... whose writer was gone: its pid and uid are the relay's word. */
static inline bool nslog_rec_unverified(const struct nslog_rec *rec)
{
	return nslog_rec_relayed(rec) && (rec->flags & NSLOG_ENTRY_UNVERIFIED);
}

/* A record decoded for printing: priority, tag and message text. */
struct nslog_decoded {
	int prio;
	const char *tag;
	int tag_len;
	const char *msg;
	size_t msg_len;
	char tag_buf[16];
	char text[NSLOG_EVENT_TEXT_MAX];
};

enum nslog_format {
	NSLOG_FMT_BRIEF,
	NSLOG_FMT_PROCESS,
	NSLOG_FMT_TAG,
	NSLOG_FMT_THREAD,
	NSLOG_FMT_RAW,
	NSLOG_FMT_TIME,
	NSLOG_FMT_THREADTIME,
	NSLOG_FMT_LONG,
	NSLOG_FMT_JSON,		/* one JSON object a record (jsonrec.c) */
};

/*
 * A -v argument: a layout and logcat's modifiers.  The modifiers change
 * the time (year, zone, UTC, epoch, usec, nsec) of the layouts that show
 * one, and add the writer's uid to those that show a pid (uid); nslogger's
 * relay adds a relayed record's relay there too.
 */
struct nslog_fmt {
	enum nslog_format layout;
	bool year;	/* YYYY-MM-DD */
	bool zone;	/* " +hhmm" after the time */
	bool utc;	/* UTC instead of $TZ; shows the zone */
	bool epoch;	/* seconds since the epoch instead of a date */
	bool usec;	/* 6 fraction digits instead of 3 */
	bool nsec;	/* 9 fraction digits */
	bool uid;	/* the writer's euid before the pid */
	bool relay;	/* a relayed record's relay before the pid */
};

struct nslog_filter_rule {
	char *tag;
	int prio;
};

/* logcat filterspecs: a record passes if its priority >= its tag's. */
struct nslog_filter {
	int global;
	struct nslog_filter_rule *rules;
	size_t count;
};

int nslog_rec_parse(struct nslog_rec *rec, const void *buf, size_t n);

void nslog_entry_from_text(struct nslog_decoded *e, const struct nslog_rec *rec);
int nslog_entry_from_event(struct nslog_decoded *e, const struct nslog_rec *rec);

int nslog_format_from_name(const char *name);
int nslog_fmt_parse(struct nslog_fmt *fmt, const char *spec,
		    const char **bad);
char nslog_prio_char(int prio);
int nslog_prio_from_char(char c);

void nslog_format_time(char *buf, size_t size, __s64 sec, __s32 nsec);
void nslog_format_time_fmt(char *buf, size_t size, const struct nslog_fmt *fmt,
			   __s64 sec, __s32 nsec);
int nslog_format_entry(FILE *out, enum nslog_format fmt,
		       const struct nslog_rec *rec,
		       const struct nslog_decoded *e);
int nslog_format_line(FILE *out, const struct nslog_fmt *fmt,
		      const struct nslog_rec *rec,
		      const struct nslog_decoded *e);

void nslog_filter_init(struct nslog_filter *f);
int nslog_filter_parse(struct nslog_filter *f, const char *specs);
bool nslog_filter_pass(const struct nslog_filter *f, const char *tag,
		       int tag_len, int prio);
void nslog_filter_free(struct nslog_filter *f);

#endif /* NSLOG_LOGFORMAT_H */
