/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * liblog: Android's <log/log_id.h>: log ids (in <android/log.h>) and
 * their names.
 */
#ifndef NSLOG_LOG_LOG_ID_H
#define NSLOG_LOG_LOG_ID_H

#include <android/log.h>

#ifdef __cplusplus
extern "C" {
#endif

/* "main", "radio", ... "kernel"; an id out of range is "main". */
const char *android_log_id_to_name(log_id_t log_id);

/* The id of a name or of a path ending in one; LOG_ID_MAX if none. */
log_id_t android_name_to_log_id(const char *logName);

#ifdef __cplusplus
}
#endif

#endif /* NSLOG_LOG_LOG_ID_H */
