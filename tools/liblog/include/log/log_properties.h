/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * liblog: Android's <log/log_properties.h>.
 */
#ifndef NSLOG_LOG_LOG_PROPERTIES_H
#define NSLOG_LOG_LOG_PROPERTIES_H

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Android's ro.debuggable: 0 here, as for a production build, since no
 * property says otherwise.
 */
int __android_log_is_debuggable(void);

#ifdef __cplusplus
}
#endif

#endif /* NSLOG_LOG_LOG_PROPERTIES_H */
