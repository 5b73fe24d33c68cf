// SPDX-License-Identifier: GPL-2.0
/*
 * event_list: Android platform code's events, unchanged: LOG_EVENT_INT,
 * _LONG, _FLOAT and _STRING, the event list builder of
 * <log/log_event_list.h>, and android_errorWriteLog().
 *
 * Records in events, in order, as [tag] payload:
 *   [42001] INT 7
 *   [42002] LONG 1099511627776
 *   [42003] FLOAT 1.5
 *   [42004] STRING "str"
 *   [42005] LIST [INT 1, STRING "two", LIST [LONG 3], FLOAT 0.25]
 *   [42006] INT 9				(a list of one is written bare)
 *   [0x534e4554] LIST [STRING "123456", INT -1, STRING ""]
 * Exit status 0, or 1 if a call failed.
 */
#define LOG_TAG "AndroidEvents"

#include <log/log.h>
#include <log/log_event_list.h>

static int write_list(void)
{
	android_log_context ctx = create_android_logger(42005);
	int ret;

	if (!ctx)
		return -1;
	android_log_write_int32(ctx, 1);
	android_log_write_string8(ctx, "two");
	android_log_write_list_begin(ctx);
	android_log_write_int64(ctx, 3);
	android_log_write_list_end(ctx);
	android_log_write_float32(ctx, 0.25f);
	ret = android_log_write_list(ctx, LOG_ID_EVENTS);
	android_log_destroy(&ctx);
	return ret;
}

static int write_one(void)
{
	android_log_context ctx = create_android_logger(42006);
	int ret;

	if (!ctx)
		return -1;
	android_log_write_int32(ctx, 9);
	ret = android_log_write_list(ctx, LOG_ID_EVENTS);
	android_log_destroy(&ctx);
	return ret;
}

int main(void)
{
	LOG_EVENT_INT(42001, 7);
	LOG_EVENT_LONG(42002, 1LL << 40);
	LOG_EVENT_FLOAT(42003, 1.5f);
	LOG_EVENT_STRING(42004, "str");
	if (write_list() < 0 || write_one() < 0)
		return 1;
	if (android_errorWriteLog(0x534e4554, "123456") < 0)
		return 1;
	return 0;
}
