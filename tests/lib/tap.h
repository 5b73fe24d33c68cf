/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The TAP helper of every user-space test program: the VM's (tests/,
 * built by the top Makefile) and the host's (tests/tools/). The shell
 * tests' is tap.sh, beside it: the same lines, unnumbered.
 *
 * Each program prints one "ok N - what" or "not ok N - what" line per
 * result ("ok N - what # SKIP why" for a skip) and ends with
 * "N passed, N failed" (and ", N skipped" when some were): the lines
 * tests/tools/run.sh and the VM's scripts count. Two ways to get there:
 *
 * - cases: tap_run() calls each struct tap_case's function, one result
 *   each; inside, CHECK() records a failed property and goes on,
 *   REQUIRE() fails the case and returns, SKIP() skips it;
 * - checks: tap_ok() is one result, and tap_str(), tap_mem() and
 *   tap_int() one comparison that shows both sides when they differ;
 *   tap_done() prints the summary and gives the exit status.
 */
#ifndef NSLOG_TAP_H
#define NSLOG_TAP_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

/* The results so far; a test may move one from passed to failed. */
extern int tap_passed;
extern int tap_failed;
extern int tap_skipped;

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

bool tap_ok(bool ok, const char *what);
void tap_escaped(const char *label, const char *s, size_t n);
bool tap_mem(const char *what, const void *got, size_t got_n,
	     const void *want, size_t want_n);
bool tap_str(const char *what, const char *got, const char *want);
bool tap_int(const char *what, long got, long want);
int tap_done(void);

#endif /* NSLOG_TAP_H */
