// SPDX-License-Identifier: GPL-2.0
#include <fnmatch.h>
#include <unistd.h>

#include "tap.h"

int tap_failed_now;
const char *tap_skip_now;

/*
 * Run every case, or those matching the shell patterns given as arguments.
 * Returns the exit status: 0 only if nothing failed.
 */
int tap_run(const struct tap_case *cases, int n, int argc, char **argv)
{
	int passed = 0, failed = 0, skipped = 0, num = 0;

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
		num++;
		if (tap_failed_now) {
			printf("not ok %d - %s\n", num, cases[i].name);
			failed++;
		} else if (tap_skip_now) {
			printf("ok %d - %s # SKIP %s\n", num, cases[i].name,
			       tap_skip_now);
			skipped++;
		} else {
			printf("ok %d - %s\n", num, cases[i].name);
			passed++;
		}
	}
	printf("%d passed, %d failed", passed, failed);
	if (skipped)
		printf(", %d skipped", skipped);
	printf("\n");
	return failed ? 1 : 0;
}
