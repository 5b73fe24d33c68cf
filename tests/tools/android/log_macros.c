// SPDX-License-Identifier: GPL-2.0
/*
 * log_macros: Android platform code's logging, unchanged: LOG_TAG,
 * LOG_NDEBUG 0 (verbose compiled in), the ALOG, SLOG and RLOG macros,
 * their _IF forms, IF_ALOG, LOG_PRI, ALOG_ASSERT, LOG_ALWAYS_FATAL.
 *
 *   log_macros		the records below, exit status 0
 *   log_macros fatal	also LOG_ALWAYS_FATAL("fatal %d", 3): aborts
 *
 * Records, in order (tests/tools/android_test.sh and tests/containers/tools.sh
 * check them):
 *   main    V AndroidMacros "verbose 1"
 *   main    D AndroidMacros "debug s"
 *   main    I AndroidMacros "info"
 *   main    W AndroidMacros "warn if"
 *   main    E AndroidMacros "error 2"
 *   system  I AndroidMacros "system info"
 *   radio   W AndroidMacros "radio warn"
 *   system  E AndroidMacros "system error if"
 *   main    D AndroidMacros "in IF_ALOGD"
 *   main    I OtherTag      "alog"
 *   main    W AndroidMacros "log_pri 3"
 *   main    F AndroidMacros "fatal 3"		(log_macros fatal)
 */
#define LOG_NDEBUG 0
#define LOG_TAG "AndroidMacros"

#include <string.h>

#include <log/log.h>

int main(int argc, char **argv)
{
	int calls = 0;

	ALOGV("verbose %d", 1);
	ALOGD("debug %s", "s");
	ALOGI("info");
	ALOGW_IF(argc > 0, "warn if");
	ALOGW_IF(argc < 0, "not logged");
	ALOGE("error %d", 2);
	SLOGI("system info");
	RLOGW("radio warn");
	SLOGE_IF(++calls == 1, "system error if");
	IF_ALOGD() {
		ALOGD("in IF_ALOGD");
	}
	ALOG(LOG_INFO, "OtherTag", "alog");
	LOG_PRI(ANDROID_LOG_WARN, LOG_TAG, "log_pri %d", calls + 2);
	ALOG_ASSERT(calls == 1, "the condition is evaluated once");
	LOG_ALWAYS_FATAL_IF(calls != 1, "never: %d", calls);

	if (argc > 1 && !strcmp(argv[1], "fatal"))
		LOG_ALWAYS_FATAL("fatal %d", 3);
	return 0;
}
