// SPDX-License-Identifier: GPL-2.0
/*
 * liblog_retry: a process that logs before the module is loaded and again
 * after.  Run by tests/containers/tools.sh with the module unloaded:
 *
 *   liblog_retry <FIFO
 *
 * writes main I "retry" "before the module", then waits for a line on
 * stdin (the test loads the module, waits past the retry interval and
 * writes one), then writes main I "retry" "after the module".  Prints
 * each call's return value, one a line: the first must be an error, the
 * second the byte count (the node opened again by the library itself).
 */
#include <stdio.h>

#include <android/log.h>

int main(void)
{
	char line[16];

	printf("%d\n", __android_log_write(ANDROID_LOG_INFO, "retry",
					   "before the module"));
	fflush(stdout);
	if (!fgets(line, sizeof(line), stdin))
		return 1;
	printf("%d\n", __android_log_write(ANDROID_LOG_INFO, "retry",
					   "after the module"));
	return 0;
}
