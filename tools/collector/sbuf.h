/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sbuf: a growing byte buffer that remembers running out of memory, so
 * that the outputs build a message with no check per append.
 */
#ifndef NSLOG_SBUF_H
#define NSLOG_SBUF_H

#include <stdbool.h>
#include <stddef.h>

struct nslog_sbuf {
	char *p;	/* NUL-terminated while !oom */
	size_t len;
	size_t cap;
	bool oom;
};

void nslog_sbuf_reset(struct nslog_sbuf *b);
void nslog_sbuf_put(struct nslog_sbuf *b, const void *s, size_t n);
void nslog_sbuf_str(struct nslog_sbuf *b, const char *s);
void nslog_sbuf_ch(struct nslog_sbuf *b, char c);
void __attribute__((format(printf, 2, 3)))
nslog_sbuf_printf(struct nslog_sbuf *b, const char *fmt, ...);
void nslog_sbuf_free(struct nslog_sbuf *b);

#endif /* NSLOG_SBUF_H */
