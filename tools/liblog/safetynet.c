// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * safetynet: __android_log_error_write(), an events list built with the
 * event list builder: [subTag (32 bytes at most), uid, data].
 */
#include <errno.h>
#include <stddef.h>

#include <log/log_event_list.h>
#include <log/log_safetynet.h>
#include "internal.h"

/* Android's cut of the sub-tag (a bug id). */
#define NSLOG_SUBTAG_MAX	32

NSLOG_EXPORT int __android_log_error_write(int tag, const char *subTag,
					   int32_t uid, const char *data,
					   uint32_t dataLen)
{
	android_log_context ctx;
	int ret;

	if (!subTag || (!data && dataLen))
		return -EINVAL;
	ctx = create_android_logger((uint32_t)tag);
	if (!ctx)
		return -ENOMEM;
	ret = android_log_write_string8_len(ctx, subTag, NSLOG_SUBTAG_MAX);
	if (ret >= 0)
		ret = android_log_write_int32(ctx, uid);
	if (ret >= 0)
		ret = android_log_write_string8_len(ctx, data, dataLen);
	if (ret >= 0)
		ret = android_log_write_list(ctx, LOG_ID_EVENTS);
	android_log_destroy(&ctx);
	return ret;
}
