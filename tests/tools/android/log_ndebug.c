// SPDX-License-Identifier: GPL-2.0
/*
 * log_ndebug: a release build (NDEBUG, so LOG_NDEBUG 1): ALOGV, ALOGV_IF,
 * SLOGV, RLOGV, LOG_FATAL_IF and ALOG_ASSERT compile to nothing, their
 * arguments never evaluated.
 *
 * Records: main I AndroidNdebug "evaluated 0"
 */
#define NDEBUG 1
#define LOG_TAG "AndroidNdebug"

#include <log/log.h>

int main(void)
{
	int evaluated = 0;

	ALOGV("verbose %d", ++evaluated);
	ALOGV_IF(++evaluated, "verbose if");
	SLOGV("system verbose %d", ++evaluated);
	RLOGV("radio verbose %d", ++evaluated);
	LOG_FATAL_IF(++evaluated, "not fatal in a release build");
	ALOG_ASSERT(++evaluated == 0, "not checked in a release build");
	IF_ALOGV() {
		ALOGI("never: IF_ALOGV is if (false)");
	}
	ALOGI("evaluated %d", evaluated);
	return 0;
}
