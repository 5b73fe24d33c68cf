/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tap.h: the few helpers the tools' unit tests share: "ok N - what" and
 * "not ok N - what" lines, then "N passed, N failed".
 */
#ifndef NSLOG_TAP_H
#define NSLOG_TAP_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static int tap_passed;
static int tap_failed;

static inline bool tap_ok(bool ok, const char *what)
{
	if (ok)
		tap_passed++;
	else
		tap_failed++;
	printf("%sok %d - %s\n", ok ? "" : "not ", tap_passed + tap_failed,
	       what);
	return ok;
}

/* Print @s with C escapes so that a diff shows spaces and newlines. */
static inline void tap_escaped(const char *label, const char *s, size_t n)
{
	size_t i;

	printf("#   %s \"", label);
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '\n')
			fputs("\\n", stdout);
		else if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			printf("\\%03o", c);
		else
			putchar(c);
	}
	puts("\"");
}

static inline bool tap_mem(const char *what, const void *got, size_t got_n,
			   const void *want, size_t want_n)
{
	bool ok = got_n == want_n && !memcmp(got, want, got_n);

	if (!tap_ok(ok, what)) {
		tap_escaped("got: ", (const char *)got, got_n);
		tap_escaped("want:", (const char *)want, want_n);
	}
	return ok;
}

static inline bool tap_str(const char *what, const char *got,
			   const char *want)
{
	return tap_mem(what, got, strlen(got), want, strlen(want));
}

static inline bool tap_int(const char *what, long got, long want)
{
	bool ok = got == want;

	if (!tap_ok(ok, what))
		printf("#   got %ld, want %ld\n", got, want);
	return ok;
}

static inline int tap_done(void)
{
	printf("%d passed, %d failed\n", tap_passed, tap_failed);
	return tap_failed ? 1 : 0;
}

#endif /* NSLOG_TAP_H */
