/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frame: messages out of a stream connection's bytes.
 */
#ifndef NSLOG_SL_FRAME_H
#define NSLOG_SL_FRAME_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The longest message kept, on a stream as in a datagram: what is longer
 * is cut here (and again, to the record's payload, by record.c).
 */
#define NSLOG_SL_MSG_MAX	8192
/* An octet count has at most this many digits ("8192" and beyond). */
#define NSLOG_SL_COUNT_DIGITS	9

enum nslog_sl_frame_state {
	NSLOG_SL_FR_START,	/* between messages */
	NSLOG_SL_FR_COUNT,	/* reading an octet count's digits */
	NSLOG_SL_FR_OCTETS,	/* reading @want more bytes of a counted message */
	NSLOG_SL_FR_LINE,	/* reading up to a NUL or a newline */
};

/* One connection's framing; its buffer is the only memory it holds. */
struct nslog_sl_framer {
	enum nslog_sl_frame_state state;
	size_t len;		/* bytes in @buf */
	size_t want;		/* NSLOG_SL_FR_OCTETS: bytes still to come */
	size_t count_len;	/* NSLOG_SL_FR_COUNT: digits so far */
	bool cut;		/* the message in @buf lost bytes */
	char buf[NSLOG_SL_MSG_MAX];
};

/* Called with each message: @cut if bytes of it were dropped. */
typedef void nslog_sl_frame_fn(void *ctx, const char *msg, size_t len,
			       bool cut);

void nslog_sl_frame_init(struct nslog_sl_framer *f);
void nslog_sl_frame_feed(struct nslog_sl_framer *f, const char *data,
			 size_t n, nslog_sl_frame_fn *fn, void *ctx);
void nslog_sl_frame_end(struct nslog_sl_framer *f, nslog_sl_frame_fn *fn,
			void *ctx);
void nslog_sl_trim(const char *msg, size_t *len);

#endif /* NSLOG_SL_FRAME_H */
