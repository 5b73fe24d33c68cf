/* SPDX-License-Identifier: GPL-2.0 */
/*
 * timefmt: RFC 3339 time stamps, for JSON lines and RFC 5424 syslog.
 */
#ifndef NSLOG_TIMEFMT_H
#define NSLOG_TIMEFMT_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

/* "YYYY-MM-DDTHH:MM:SS.nnnnnnnnn+hh:mm" and its NUL, with room to spare. */
#define NSLOG_RFC3339_MAX	48

int nslog_rfc3339(char *buf, size_t size, __s64 sec, __s32 nsec,
		  unsigned int digits, bool utc);

#endif /* NSLOG_TIMEFMT_H */
