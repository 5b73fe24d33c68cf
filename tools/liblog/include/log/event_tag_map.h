/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libnslog: Android's event tag map, the names and value formats of the
 * events log's tags, read from an event-log-tags file.
 *
 * The file has one tag a line: "NUMBER NAME [FORMAT]", where NAME is
 * letters, digits and '_', and FORMAT (optional) describes the values,
 * "(name|type[|unit]),(...)"; '#' starts a comment (a line, or after the
 * format), blank lines are ignored.  A malformed line or a number given
 * twice with different names makes android_openEventTagMap() fail with
 * errno EINVAL.
 */
#ifndef NSLOG_EVENT_TAG_MAP_H
#define NSLOG_EVENT_TAG_MAP_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define EVENT_TAG_MAP_FILE	"/system/etc/event-log-tags"

typedef struct EventTagMap EventTagMap;

/* Read @fileName, or EVENT_TAG_MAP_FILE if NULL; NULL and errno on failure. */
EventTagMap *android_openEventTagMap(const char *fileName);
void android_closeEventTagMap(EventTagMap *map);

/*
 * A tag's name and its format, not NUL-terminated: @len is set to the
 * length; NULL (and *len 0) if the map has no such tag, or no format.
 */
const char *android_lookupEventTag_len(const EventTagMap *map, size_t *len,
				       unsigned int tag);
const char *android_lookupEventFormat_len(const EventTagMap *map, size_t *len,
					  unsigned int tag);

/*
 * The number of the tag named @tagname (and, if @format is not NULL, with
 * that format), or -1 with errno ESRCH.  @prio is accepted for Android's
 * signature and ignored: no daemon assigns new tags here.
 */
int android_lookupEventTagNum(EventTagMap *map, const char *tagname,
			      const char *format, int prio);

#ifdef __cplusplus
}
#endif

#endif /* NSLOG_EVENT_TAG_MAP_H */
