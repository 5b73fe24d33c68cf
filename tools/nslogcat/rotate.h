/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rotate: nslogcat -f FILE -r KB -n COUNT, logcat's output file and its
 * rotation: FILE, then FILE.1 (the newest) ... FILE.COUNT.
 */
#ifndef NSLOG_ROTATE_H
#define NSLOG_ROTATE_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

struct nslog_rotate {
	const char *path;
	size_t kb;		/* rotate when FILE reaches this; 0: never */
	size_t count;		/* rotated files kept */
	FILE *f;		/* FILE, appended to */
};

int nslog_rotate_name(char *buf, size_t size, const char *path, size_t count,
		      size_t i);
int nslog_rotate_open(struct nslog_rotate *r, const char *path, size_t kb,
		      size_t count);
int nslog_rotate_check(struct nslog_rotate *r);
int nslog_rotate_close(struct nslog_rotate *r);
int nslog_rotate_clear(const char *path, size_t count);

#endif /* NSLOG_ROTATE_H */
