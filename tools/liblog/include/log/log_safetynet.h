/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * liblog: Android's <log/log_safetynet.h>: security bug reports as events.
 *
 * android_errorWriteLog(TAG, SUBTAG) writes an events record of tag TAG
 * (Android's code passes 0x534e4554, "SNET") whose payload is the list
 * [SUBTAG (at most 32 bytes), uid (-1), data ("")].
 */
#ifndef NSLOG_LOG_LOG_SAFETYNET_H
#define NSLOG_LOG_LOG_SAFETYNET_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define android_errorWriteLog(tag, subTag) \
	__android_log_error_write(tag, subTag, -1, NULL, 0)

#define android_errorWriteWithInfoLog(tag, subTag, uid, data, dataLen) \
	__android_log_error_write(tag, subTag, uid, data, dataLen)

/* Bytes stored, or -EINVAL (no @subTag, or @dataLen with no @data). */
int __android_log_error_write(int tag, const char *subTag, int32_t uid,
			      const char *data, uint32_t dataLen);

#ifdef __cplusplus
}
#endif

#endif /* NSLOG_LOG_LOG_SAFETYNET_H */
