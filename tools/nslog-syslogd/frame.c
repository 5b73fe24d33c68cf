// SPDX-License-Identifier: GPL-2.0
/*
 * frame: a stream connection's bytes as messages.
 *
 * glibc ends each message with a NUL, util-linux logger with a newline,
 * busybox with a NUL (shared/reference/syslog-socket.md); other senders
 * count octets (RFC 6587, 3.4.1: "LEN SP MSG").  So each message is read
 * by its first byte: a digit 1 to 9 starts an octet count, anything else a
 * message ended by a NUL or a newline (a '\r' before the newline is part of
 * the terminator).  Empty messages between terminators are skipped.
 *
 * Memory is the framer's buffer and nothing else: a message longer than
 * NSLOG_SL_MSG_MAX is delivered cut at that size, once the buffer is full,
 * and the rest of it (to its terminator, or its counted end) is dropped.
 * A message still unterminated when the connection closes is delivered as
 * it is.  A count that is not a number ("12x") makes the bytes read so far
 * a message of their own, terminated as a line.
 */
#include <string.h>

#include "frame.h"

/**
 * nslog_sl_frame_init() - a framer between messages
 * @f: the framer
 *
 * Context: any.
 */
void nslog_sl_frame_init(struct nslog_sl_framer *f)
{
	f->state = NSLOG_SL_FR_START;
	f->len = 0;
	f->want = 0;
	f->count_len = 0;
	f->cut = false;
}

/**
 * nslog_sl_trim() - a message without its trailing newlines and NULs
 * @msg: the message
 * @len: its length, made shorter by the '\n', '\r' and '\0' bytes at its
 *	 end (musl ends each datagram with a newline)
 *
 * Context: any.
 */
void nslog_sl_trim(const char *msg, size_t *len)
{
	while (*len && (msg[*len - 1] == '\n' || msg[*len - 1] == '\r' ||
			msg[*len - 1] == '\0'))
		(*len)--;
}

static void deliver(struct nslog_sl_framer *f, nslog_sl_frame_fn *fn,
		    void *ctx)
{
	size_t len = f->len;

	nslog_sl_trim(f->buf, &len);
	if (len)
		fn(ctx, f->buf, len, f->cut);
	f->len = 0;
	f->cut = false;
	f->state = NSLOG_SL_FR_START;
}

/* Keep @c if there is room; a full buffer marks the message cut. */
static void keep(struct nslog_sl_framer *f, char c)
{
	if (f->len < sizeof(f->buf))
		f->buf[f->len++] = c;
	else
		f->cut = true;
}

/**
 * nslog_sl_frame_feed() - take bytes received on a connection
 * @f: the connection's framer
 * @data: the bytes
 * @n: how many
 * @fn: called with each message completed
 * @ctx: passed to @fn
 *
 * Context: any; @fn is called before this returns.
 */
void nslog_sl_frame_feed(struct nslog_sl_framer *f, const char *data,
			 size_t n, nslog_sl_frame_fn *fn, void *ctx)
{
	const char *p = data, *end = data + n;

	while (p < end) {
		char c = *p;

		switch (f->state) {
		case NSLOG_SL_FR_START:
			if (c == '\0' || c == '\n' || c == '\r') {
				p++;
				break;
			}
			f->state = c >= '1' && c <= '9' ? NSLOG_SL_FR_COUNT :
							  NSLOG_SL_FR_LINE;
			f->want = 0;
			f->count_len = 0;
			break;
		case NSLOG_SL_FR_COUNT:
			if (c >= '0' && c <= '9' &&
			    f->count_len < NSLOG_SL_COUNT_DIGITS) {
				f->want = f->want * 10 + (size_t)(c - '0');
				f->count_len++;
				keep(f, c);
				p++;
			} else if (c == ' ') {
				/* a count: the digits were not the message */
				f->len = 0;
				f->state = NSLOG_SL_FR_OCTETS;
				p++;
				if (!f->want)
					deliver(f, fn, ctx);
			} else {
				/* not a count: a line that starts with digits */
				f->state = NSLOG_SL_FR_LINE;
			}
			break;
		case NSLOG_SL_FR_OCTETS: {
			size_t take = (size_t)(end - p) < f->want ?
				      (size_t)(end - p) : f->want;
			size_t room = sizeof(f->buf) - f->len;
			size_t copy = take < room ? take : room;

			memcpy(f->buf + f->len, p, copy);
			f->len += copy;
			if (copy < take)
				f->cut = true;
			f->want -= take;
			p += take;
			if (!f->want)
				deliver(f, fn, ctx);
			break;
		}
		case NSLOG_SL_FR_LINE: {
			const char *stop = p;

			while (stop < end && *stop != '\0' && *stop != '\n')
				stop++;
			while (p < stop)
				keep(f, *p++);
			if (stop < end) {
				p++;
				deliver(f, fn, ctx);
			}
			break;
		}
		}
	}
}

/**
 * nslog_sl_frame_end() - the connection closed: deliver what is left
 * @f: the connection's framer
 * @fn: called with the unterminated message, if any
 * @ctx: passed to @fn
 *
 * A counted message that ended early is delivered as far as it came,
 * marked cut.
 *
 * Context: any.
 */
void nslog_sl_frame_end(struct nslog_sl_framer *f, nslog_sl_frame_fn *fn,
			void *ctx)
{
	if (f->state == NSLOG_SL_FR_OCTETS && f->want)
		f->cut = true;
	deliver(f, fn, ctx);
}
