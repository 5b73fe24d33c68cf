/* SPDX-License-Identifier: GPL-2.0 */
/*
 * logset: following one log set (one IPC namespace's four logs, and the
 * streams made in its nslogfs mounts) for the collector: open by
 * namespace id, resume at a seq, read the logs in write order, report
 * what was lost, and hand every record to an output.
 *
 * The kernel is reached through struct nslog_kops, so that
 * tests/tools/logset_test.c plays the kernel.
 */
#ifndef NSLOG_LOGSET_H
#define NSLOG_LOGSET_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <linux/nslogger.h>

#include "cgparse.h"
#include "cstate.h"
#include "logformat.h"
#include "output.h"
#include "recmeta.h"
#include "resume.h"

struct nslog_kops {
	/* a non-blocking read fd on log @klog of set @ns_id, header set */
	int (*open)(void *ctx, unsigned int klog, __u64 ns_id);
	/*
	 * The same, on the log named @name (a stream): NSLOG_IOC_OPEN_STREAM.
	 * NULL, as -ENOTTY, for a kernel without streams.
	 */
	int (*open_stream)(void *ctx, const char *name, __u64 ns_id);
	int (*info)(void *ctx, int fd, struct nslog_info *info);
	int (*seek)(void *ctx, int fd, struct nslog_seek *seek);
	/* one record: its size, 0 at end of file, or a negative errno */
	ssize_t (*read)(void *ctx, int fd, void *buf, size_t size);
	void (*close)(void *ctx, int fd);
	void *ctx;
};

struct nslog_set;

/* One log of a followed set: a fixed one, or a stream. */
struct nslog_flog {
	struct nslog_set *set;
	unsigned int klog;	/* NSLOG_KLOG_STREAM for a stream */
	char name[NSLOG_STREAM_NAME_SIZE];	/* what the outputs call it */
	__u32 log_id;		/* NSLOG_IOC_INFO's: a stream's, never reused */
	bool remade;		/* the state's stream of @name had another id */
	__u64 remade_last;	/* ... and shipped up to this seq */
	int fd;			/* -1: not followed, or finished */
	bool eof;		/* read() said end of file: the set is gone */
	int err;		/* why it stopped, if not end of file */
	bool told;		/* the caller reported @err */
	bool drained;		/* read() said -EAGAIN in this pump */
	bool shipped_any;	/* @shipped is set */
	__u64 shipped;		/* seq of the last record handed to the output */
	bool flushed_any;
	__u64 flushed;		/* ... and flushed by it */
	__u64 next_seq;		/* the seq expected next */
	struct nslog_resume resumed;	/* where it resumed, and from whose word */
	size_t n;		/* size of the record read ahead, 0 if none */
	struct nslog_rec rec;
	unsigned char *buf;	/* NSLOG_READ_BUF_SIZE, only while pumped */
};

struct nslog_set {
	__u64 set_id;
	__u64 ns_id;
	struct nslog_ident ident;
	unsigned int ident_tries;	/* lookups that found no process */
	struct nslog_flog logs[NSLOG_KLOG_COUNT];
	struct nslog_flog **streams;	/* each allocated: epoll points at it */
	unsigned int nstreams;
	unsigned int streams_cap;
	struct nslog_set *next;		/* the collector's list */
	bool ready;			/* to be pumped again */
};

/* Where records go, and what every record's metadata shares. */
struct nslog_sink {
	struct nslog_out *out;
	const char *host;
	const char *boot_id;
	bool utc;
};

int nslog_set_open(struct nslog_set *s, const struct nslog_kops *k,
		   __u64 ns_id, __u64 set_id, unsigned int logmask,
		   const struct nslog_cstate_set *resume,
		   const struct nslog_cstate_set *found);
int nslog_set_open_stream(struct nslog_set *s, const struct nslog_kops *k,
			  const char *name,
			  const struct nslog_cstate_set *resume,
			  const struct nslog_cstate_set *found,
			  struct nslog_flog **lp);
unsigned int nslog_set_nlogs(const struct nslog_set *s);
struct nslog_flog *nslog_set_log(const struct nslog_set *s, unsigned int i);
struct nslog_flog *nslog_set_find_stream(const struct nslog_set *s,
					 const char *name);
unsigned int nslog_set_prune(struct nslog_set *s, const struct nslog_kops *k);
int nslog_set_pump(struct nslog_set *s, const struct nslog_kops *k,
		   const struct nslog_sink *sink, unsigned int budget,
		   bool *more);
bool nslog_set_done(const struct nslog_set *s);
void nslog_set_flushed(struct nslog_set *s);
int nslog_set_state(const struct nslog_set *s, struct nslog_cstate_set *c);
void nslog_set_meta(const struct nslog_flog *l, const struct nslog_sink *sink,
		    struct nslog_meta *m);
void nslog_set_close(struct nslog_set *s, const struct nslog_kops *k);

#endif /* NSLOG_LOGSET_H */
