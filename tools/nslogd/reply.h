/* SPDX-License-Identifier: GPL-2.0 */
/*
 * reply: one reply of the control socket, built up in a buffer that grows
 * to at most NSLOGD_REPLY_MAX bytes, then sent NUL-terminated.
 */
#ifndef NSLOGD_REPLY_H
#define NSLOGD_REPLY_H

#include <stdbool.h>
#include <stddef.h>

/* The longest reply: getStatistics' bounded tables fit well within it. */
#define NSLOGD_REPLY_MAX	(256u << 10)

struct nslogd_reply {
	char *buf;
	size_t len;		/* without the NUL, which is always there */
	size_t cap;
	bool overflow;		/* something did not fit: cut */
};

void nslogd_reply_init(struct nslogd_reply *r);
void nslogd_reply_free(struct nslogd_reply *r);
void nslogd_reply_reset(struct nslogd_reply *r);
void nslogd_reply_printf(struct nslogd_reply *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void nslogd_reply_set(struct nslogd_reply *r, const char *s);
void nslogd_reply_frame(struct nslogd_reply *r);

#endif /* NSLOGD_REPLY_H */
