// SPDX-License-Identifier: GPL-2.0
#include <fnmatch.h>
#include <unistd.h>

#include "tap.h"

int tap_passed;
int tap_failed;
int tap_skipped;
int tap_failed_now;
const char *tap_skip_now;

/* One result line, numbered after every result before it. */
static void tap_result(bool ok, const char *what, const char *skip)
{
	int num = tap_passed + tap_failed + tap_skipped + 1;

	if (!ok) {
		tap_failed++;
		printf("not ok %d - %s\n", num, what);
	} else if (skip) {
		tap_skipped++;
		printf("ok %d - %s # SKIP %s\n", num, what, skip);
	} else {
		tap_passed++;
		printf("ok %d - %s\n", num, what);
	}
}

/*
 * Run every case, or those matching the shell patterns given as arguments.
 * Returns the exit status: 0 only if nothing failed.
 */
int tap_run(const struct tap_case *cases, int n, int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (int i = 0; i < n; i++) {
		int match = argc < 2;

		for (int a = 1; a < argc && !match; a++)
			match = !fnmatch(argv[a], cases[i].name, 0);
		if (!match)
			continue;
		tap_failed_now = 0;
		tap_skip_now = NULL;
		cases[i].fn();
		tap_result(!tap_failed_now, cases[i].name, tap_skip_now);
	}
	return tap_done();
}

/* One result: @ok or not. Returns @ok. */
bool tap_ok(bool ok, const char *what)
{
	tap_result(ok, what, NULL);
	return ok;
}

/* Print @s with C escapes so that a diff shows spaces and newlines. */
void tap_escaped(const char *label, const char *s, size_t n)
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

bool tap_mem(const char *what, const void *got, size_t got_n,
	     const void *want, size_t want_n)
{
	bool ok = got_n == want_n && !memcmp(got, want, got_n);

	if (!tap_ok(ok, what)) {
		tap_escaped("got: ", (const char *)got, got_n);
		tap_escaped("want:", (const char *)want, want_n);
	}
	return ok;
}

bool tap_str(const char *what, const char *got, const char *want)
{
	return tap_mem(what, got, strlen(got), want, strlen(want));
}

bool tap_int(const char *what, long got, long want)
{
	bool ok = got == want;

	if (!tap_ok(ok, what))
		printf("#   got %ld, want %ld\n", got, want);
	return ok;
}

/* The summary line; the exit status: 0 only if nothing failed. */
int tap_done(void)
{
	printf("%d passed, %d failed", tap_passed, tap_failed);
	if (tap_skipped)
		printf(", %d skipped", tap_skipped);
	printf("\n");
	return tap_failed ? 1 : 0;
}
