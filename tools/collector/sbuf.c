// SPDX-License-Identifier: GPL-2.0
/*
 * sbuf: growing buffer; every append after a failed allocation is
 * ignored and the buffer says so (oom), once, at the end.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sbuf.h"

static bool nslog_sbuf_room(struct nslog_sbuf *b, size_t n)
{
	size_t cap;
	char *p;

	if (b->oom)
		return false;
	if (b->len + n + 1 <= b->cap)
		return true;
	cap = b->cap ? b->cap : 256;
	while (cap < b->len + n + 1)
		cap *= 2;
	p = realloc(b->p, cap);
	if (!p) {
		b->oom = true;
		return false;
	}
	b->p = p;
	b->cap = cap;
	return true;
}

/* Empty it, keeping the memory; forget an earlier failure. */
void nslog_sbuf_reset(struct nslog_sbuf *b)
{
	b->len = 0;
	b->oom = false;
	if (b->p)
		b->p[0] = '\0';
}

void nslog_sbuf_put(struct nslog_sbuf *b, const void *s, size_t n)
{
	if (!nslog_sbuf_room(b, n))
		return;
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

void nslog_sbuf_str(struct nslog_sbuf *b, const char *s)
{
	nslog_sbuf_put(b, s, strlen(s));
}

void nslog_sbuf_ch(struct nslog_sbuf *b, char c)
{
	nslog_sbuf_put(b, &c, 1);
}

void nslog_sbuf_printf(struct nslog_sbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || !nslog_sbuf_room(b, (size_t)n))
		return;
	va_start(ap, fmt);
	vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

void nslog_sbuf_free(struct nslog_sbuf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}
