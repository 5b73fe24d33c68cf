// SPDX-License-Identifier: GPL-2.0
/*
 * is_loggable: Android code under a filter.  Run with
 * ANDROID_LOG_TAGS="Loggable:W" and a log.tag file holding
 * "log.tag.Filed=ERROR" (NSLOG_LOG_TAG_FILE).
 *
 * Records in main, in order:
 *   W Loggable "warn"
 *   E Filed    "file error"
 *   E Loggable "is_loggable(INFO) 0, (WARN) 1"
 *   E Unset    "min error"
 * Exit status 0, or 1 if a record that should be dropped was not.
 */
#define LOG_TAG "Loggable"

#include <errno.h>

#include <log/log.h>

int main(void)
{
	int kept = 0;

	ALOGD("debug: below Loggable:W");
	ALOGW("warn");
	kept |= __android_log_write(ANDROID_LOG_INFO, "Filed",
				    "below log.tag.Filed") != -EPERM;
	__android_log_write(ANDROID_LOG_ERROR, "Filed", "file error");
	IF_ALOG(LOG_ERROR, LOG_TAG) {
		ALOGE("is_loggable(INFO) %d, (WARN) %d",
		      __android_log_is_loggable(ANDROID_LOG_INFO, LOG_TAG,
						ANDROID_LOG_VERBOSE),
		      __android_log_is_loggable(ANDROID_LOG_WARN, LOG_TAG,
						ANDROID_LOG_VERBOSE));
	}
	__android_log_set_minimum_priority(ANDROID_LOG_ERROR);
	kept |= __android_log_write(ANDROID_LOG_WARN, "Unset",
				    "below the minimum") != -EPERM;
	__android_log_write(ANDROID_LOG_ERROR, "Unset", "min error");
	return kept;
}
