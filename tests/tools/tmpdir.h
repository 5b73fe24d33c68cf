/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tmpdir.h - a test's own directory under /tmp, and its removal.
 *
 * Header-only, for the nslogd tests, which each make sockets and nodes in
 * a directory of their own.
 */
#ifndef NSLOG_TESTS_TMPDIR_H
#define NSLOG_TESTS_TMPDIR_H

#include <stdio.h>
#include <stdlib.h>

/* /tmp/NAME.XXXXXX made in @buf; NULL if it could not be. */
static inline char *tmpdir_make(char *buf, size_t size, const char *name)
{
	snprintf(buf, size, "/tmp/%s.XXXXXX", name);
	return mkdtemp(buf);
}

/* rm -rf @dir; a failure is told as a TAP comment. */
static inline void tmpdir_remove(const char *dir)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		printf("# rm -rf %s failed\n", dir);
}

#endif /* NSLOG_TESTS_TMPDIR_H */
