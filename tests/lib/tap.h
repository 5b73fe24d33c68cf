/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A tiny test harness for nslogger's user-space test programs.
 *
 * Each case is a function returning void; CHECK() records one failed
 * property and goes on, REQUIRE() fails the case and returns from it.
 * The program prints one `ok N - name` or `not ok N - name` line per case
 * and ends with `N passed, N failed` (and `, N skipped`).
 */
#ifndef NSLOG_TAP_H
#define NSLOG_TAP_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct tap_case {
	const char *name;
	void (*fn)(void);
};

extern int tap_failed_now;
extern const char *tap_skip_now;

#define CHECK(cond) do {						\
	if (!(cond)) {							\
		printf("#   %s:%d: CHECK(%s) failed (errno %d %s)\n",	\
		       __FILE__, __LINE__, #cond, errno, strerror(errno)); \
		tap_failed_now = 1;					\
	}								\
} while (0)

#define REQUIRE(cond) do {						\
	if (!(cond)) {							\
		printf("#   %s:%d: REQUIRE(%s) failed (errno %d %s)\n",	\
		       __FILE__, __LINE__, #cond, errno, strerror(errno)); \
		tap_failed_now = 1;					\
		return;							\
	}								\
} while (0)

/* Expect a syscall-style call to fail with a given errno. */
#define CHECK_ERR(call, err) do {					\
	errno = 0;							\
	long __r = (long)(call);					\
	if (__r != -1 || errno != (err)) {				\
		printf("#   %s:%d: %s = %ld errno %d (%s), want -1 %s\n", \
		       __FILE__, __LINE__, #call, __r, errno,		\
		       strerror(errno), #err);				\
		tap_failed_now = 1;					\
	}								\
} while (0)

#define SKIP(why) do { tap_skip_now = (why); return; } while (0)

int tap_run(const struct tap_case *cases, int n, int argc, char **argv);

#endif
