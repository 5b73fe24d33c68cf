/* SPDX-License-Identifier: GPL-2.0 */
/*
 * logmerge: read several logger buffers and print their records in time
 * order, whole (dump) or only the last N (tail).
 *
 * Sources read through a callback, so tests feed synthetic records and
 * nslogcat feeds read() on non-blocking device fds.
 */
#ifndef NSLOG_LOGMERGE_H
#define NSLOG_LOGMERGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include "logformat.h"
#include "recmeta.h"

struct nslog_src;

/*
 * Read one record into @buf: the byte count, or a negative errno; -EAGAIN
 * means nothing to read now.  Like read() on a logger device.
 */
typedef ssize_t (*nslog_read_fn)(struct nslog_src *src, void *buf,
				 size_t size);

struct nslog_src {
	const char *name;	/* the device path, for headers and errors */
	bool events;		/* payloads are events, not text */
	const char *log;	/* "main" ..., for -v json; NULL if unknown */
	int fd;			/* for the caller's poll(); -1 if none */
	nslog_read_fn read;
	void *priv;

	/* merge state: the record read but not yet printed */
	size_t n;		/* its size, 0 if none */
	struct nslog_rec rec;
	bool started;		/* "beginning of" header printed */
	unsigned char buf[NSLOG_READ_BUF_SIZE] __attribute__((aligned(8)));
};

struct nslog_printer {
	FILE *out;
	FILE *err;		/* warnings, or NULL */
	const char *prog;	/* prefix of warnings */
	struct nslog_fmt fmt;	/* layout and modifiers */
	bool binary;		/* write raw records (logcat -B) */
	bool headers;		/* "--------- beginning of" lines */
	const struct nslog_filter *filter;	/* or NULL */
	const struct nslog_meta *meta;	/* for -v json: ns, utc; or NULL */
};

void nslog_src_init(struct nslog_src *src, const char *name, bool events,
		    int fd, nslog_read_fn read, void *priv);
int nslog_merge_next(struct nslog_src *srcs, size_t count,
		     struct nslog_src **next);
int nslog_print(const struct nslog_printer *p, struct nslog_src *src,
		const void *raw, size_t n);
int nslog_dump(struct nslog_src *srcs, size_t count,
	       const struct nslog_printer *p, size_t tail,
	       struct nslog_src **failed);
const char *nslog_strerror(int err);

#endif /* NSLOG_LOGMERGE_H */
