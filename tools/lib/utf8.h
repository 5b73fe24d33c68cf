/* SPDX-License-Identifier: GPL-2.0 */
/*
 * utf8: how long the valid UTF-8 sequence at a position is, for the
 * outputs that must emit valid UTF-8 (JSON, RFC 5424 values) whatever
 * bytes a writer logged.
 */
#ifndef NSLOG_UTF8_H
#define NSLOG_UTF8_H

#include <stddef.h>

/* U+FFFD, what an invalid byte becomes. */
#define NSLOG_UTF8_REPLACEMENT	"\xef\xbf\xbd"

size_t nslog_utf8_seq(const unsigned char *s, size_t n);

#endif /* NSLOG_UTF8_H */
