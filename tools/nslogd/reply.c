// SPDX-License-Identifier: GPL-2.0
/*
 * reply: the control socket's replies (shared/reference/logd-protocol.md,
 * "Control"). Every reply is NUL-terminated. A short one is a word or a
 * number ("success", "262144"); a long one is length-prefixed:
 *
 *	<total>\n<body>\n\f
 *
 * where <total> is the decimal length of the whole of that, its own
 * digits included (not the NUL after it). A client uses it to know how
 * big a buffer to read into, so a value too large would be harmless and
 * one too small would cut the reply: it is exact here.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reply.h"

/**
 * nslogd_reply_init() - an empty reply, nothing allocated yet
 * @r: the reply
 *
 * Context: any.
 */
void nslogd_reply_init(struct nslogd_reply *r)
{
	memset(r, 0, sizeof(*r));
}

/**
 * nslogd_reply_free() - free the buffer
 * @r: the reply
 *
 * Context: any.
 */
void nslogd_reply_free(struct nslogd_reply *r)
{
	free(r->buf);
	nslogd_reply_init(r);
}

/**
 * nslogd_reply_reset() - empty the reply, keeping its buffer
 * @r: the reply
 *
 * Context: any.
 */
void nslogd_reply_reset(struct nslogd_reply *r)
{
	r->len = 0;
	r->overflow = false;
	if (r->buf)
		r->buf[0] = '\0';
}

/* Room for @more bytes and the NUL; false (and overflow) if over the max. */
static bool reply_room(struct nslogd_reply *r, size_t more)
{
	size_t need = r->len + more + 1, cap;
	char *p;

	if (need <= r->cap)
		return true;
	if (need > NSLOGD_REPLY_MAX) {
		r->overflow = true;
		return false;
	}
	cap = r->cap ? r->cap : 256;
	while (cap < need)
		cap *= 2;
	if (cap > NSLOGD_REPLY_MAX)
		cap = NSLOGD_REPLY_MAX;
	p = realloc(r->buf, cap);
	if (!p) {
		r->overflow = true;
		return false;
	}
	r->buf = p;
	r->cap = cap;
	return true;
}

/**
 * nslogd_reply_printf() - add formatted text
 * @r: the reply
 * @fmt: printf's format
 *
 * Text that would take the reply past NSLOGD_REPLY_MAX, or that cannot
 * be allocated, is left out and @r->overflow set.
 *
 * Context: allocates.
 */
void nslogd_reply_printf(struct nslogd_reply *r, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || !reply_room(r, (size_t)n))
		return;
	va_start(ap, fmt);
	vsnprintf(r->buf + r->len, r->cap - r->len, fmt, ap);
	va_end(ap);
	r->len += (size_t)n;
}

/**
 * nslogd_reply_set() - make the reply @s alone
 * @r: the reply
 * @s: a word or a number
 *
 * Context: allocates.
 */
void nslogd_reply_set(struct nslogd_reply *r, const char *s)
{
	nslogd_reply_reset(r);
	nslogd_reply_printf(r, "%s", s);
}

static size_t digits(size_t v)
{
	size_t n = 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

/**
 * nslogd_reply_frame() - make the text so far the body of a long reply
 * @r: the reply, holding the body
 *
 * Prefixes the total length and a newline, and appends a newline and a
 * form feed. The length counts its own digits: it is the smallest total
 * whose digits, with the rest, add up to itself.
 *
 * Context: allocates; the body stays if it cannot.
 */
void nslogd_reply_frame(struct nslogd_reply *r)
{
	size_t rest = r->len + 3;	/* "\n" body "\n\f" */
	size_t total = rest + 1;
	char num[24];
	int n;

	while (total != rest + digits(total))
		total = rest + digits(total);
	n = snprintf(num, sizeof(num), "%zu\n", total);
	if (!reply_room(r, (size_t)n + 2))
		return;
	memmove(r->buf + n, r->buf, r->len);
	memcpy(r->buf, num, (size_t)n);
	r->len += (size_t)n;
	memcpy(r->buf + r->len, "\n\f", 3);
	r->len += 2;
}
