/* SPDX-License-Identifier: GPL-2.0 */
/*
 * eventtag: the event-log-tags file, for getEventTag.
 */
#ifndef NSLOGD_EVENTTAG_H
#define NSLOGD_EVENTTAG_H

#include <stddef.h>

/* Where Android keeps it; $NSLOG_EVENT_TAGS names another (as nslogcat). */
#define NSLOGD_EVENTTAG_FILE	"/system/etc/event-log-tags"
#define NSLOGD_EVENTTAG_ENV	"NSLOG_EVENT_TAGS"
/* A larger file is not read (Android's is about 40 KiB). */
#define NSLOGD_EVENTTAG_FILE_MAX	(1u << 20)

struct nslogd_eventtag {
	unsigned int num;
	const char *name;	/* into the file's text, NUL-terminated */
	const char *format;	/* "" if none */
};

struct nslogd_eventtags {
	char *text;		/* the file, its lines cut into fields */
	struct nslogd_eventtag *tags;
	size_t n;
	int err;		/* why the file was not read; 0 if it was */
};

int nslogd_eventtags_load(struct nslogd_eventtags *t, const char *path);
void nslogd_eventtags_free(struct nslogd_eventtags *t);
const struct nslogd_eventtag *
nslogd_eventtag_by_num(const struct nslogd_eventtags *t, unsigned int num);
const struct nslogd_eventtag *
nslogd_eventtag_by_name(const struct nslogd_eventtags *t, const char *name);

#endif /* NSLOGD_EVENTTAG_H */
