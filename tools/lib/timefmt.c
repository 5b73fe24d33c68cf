// SPDX-License-Identifier: GPL-2.0
/*
 * timefmt: RFC 3339 (ISO 8601) time stamps with their zone:
 *
 *   2023-11-14T23:13:20.123456789+01:00    local time ($TZ honoured)
 *   2023-11-14T22:13:20.123456789Z         utc
 *
 * with 0, 3, 6 or 9 digits of fraction (RFC 5424 allows at most 6).  A
 * local time at offset zero is written "+00:00": "-00:00" would mean an
 * unknown offset (RFC 3339, 4.3).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "timefmt.h"

/**
 * nslog_rfc3339() - write an RFC 3339 time stamp
 * @buf: output, NSLOG_RFC3339_MAX bytes are enough
 * @size: size of @buf
 * @sec: seconds since the epoch
 * @nsec: nanoseconds, 0 to 999999999
 * @digits: fraction digits: 0, 3, 6 or 9 (others are taken as 9)
 * @utc: "Z" in UTC; else local time with its offset
 *
 * Context: process context (localtime_r() may read the zone files).
 * Return: the length written, or -EINVAL if the time has no calendar
 * date or @buf is too small (then @buf holds "").
 */
int nslog_rfc3339(char *buf, size_t size, __s64 sec, __s32 nsec,
		  unsigned int digits, bool utc)
{
	static const int div[] = { 1000000000, 1000000, 1000, 1 };
	time_t t = (time_t)sec;
	struct tm tm;
	size_t n;
	long off;
	int ret;

	if (!size)
		return -EINVAL;
	buf[0] = '\0';
	if (!(utc ? gmtime_r(&t, &tm) : localtime_r(&t, &tm)))
		return -EINVAL;
	n = strftime(buf, size, "%Y-%m-%dT%H:%M:%S", &tm);
	if (!n)
		return -EINVAL;
	if (digits != 0 && digits != 3 && digits != 6)
		digits = 9;
	if (digits)
		ret = snprintf(buf + n, size - n, ".%0*d", (int)digits,
			       (int)(nsec / div[digits / 3]));
	else
		ret = 0;
	if (ret < 0 || (size_t)ret >= size - n)
		goto too_small;
	n += (size_t)ret;
	if (utc) {
		ret = snprintf(buf + n, size - n, "Z");
	} else {
		off = tm.tm_gmtoff / 60;
		ret = snprintf(buf + n, size - n, "%c%02ld:%02ld",
			       off < 0 ? '-' : '+', labs(off) / 60,
			       labs(off) % 60);
	}
	if (ret < 0 || (size_t)ret >= size - n)
		goto too_small;
	return (int)(n + (size_t)ret);

too_small:
	buf[0] = '\0';
	return -EINVAL;
}
