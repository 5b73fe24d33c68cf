/* SPDX-License-Identifier: GPL-2.0 */
/*
 * property: a property set through Android init's property service, as
 * bionic's __system_property_set() does with protocol version 2.
 *
 * The message, on a SOCK_STREAM connection to /dev/socket/property_service,
 * every number a uint32 in host byte order: the command PROP_MSG_SETPROP2
 * (0x00020001), the name's length and its bytes, the value's length and its
 * bytes (none when empty), no NULs. The service answers one int32: 0
 * (PROP_SUCCESS) or an error code (PROP_ERROR_*), and closes.
 */
#ifndef NSLOGD_PROPERTY_H
#define NSLOGD_PROPERTY_H

#include <stddef.h>
#include <stdint.h>

#define NSLOGD_PROP_SOCKET	"/dev/socket/property_service"
#define NSLOGD_PROP_SETPROP2	0x00020001u
/* Values this long or longer are refused but for "ro." names (bionic). */
#define NSLOGD_PROP_VALUE_MAX	92
/* nslogd's own bound on a name: logd's are short. */
#define NSLOGD_PROP_NAME_MAX	256
#define NSLOGD_PROP_MSG_MAX	(3 * 4 + NSLOGD_PROP_NAME_MAX + \
				 NSLOGD_PROP_VALUE_MAX)
/* How long a connect, the send and the reply may take, each. */
#define NSLOGD_PROP_TIMEOUT_MS	2000

enum nslogd_prop_result {
	NSLOGD_PROP_SET = 0,	/* the service answered PROP_SUCCESS */
	NSLOGD_PROP_ABSENT,	/* no socket at the path: no property service */
	NSLOGD_PROP_FAILED,	/* anything else */
	NSLOGD_PROP_RESULTS
};

struct nslogd_prop_stats {
	uint64_t n[NSLOGD_PROP_RESULTS];
};

size_t nslogd_prop_msg(void *buf, size_t size, const char *name,
		       const char *value);
const char *nslogd_prop_error_name(int32_t code);
enum nslogd_prop_result nslogd_prop_set(const char *path, const char *name,
					const char *value, int timeout_ms,
					char *why, size_t why_size);
size_t nslogd_prop_format(const struct nslogd_prop_stats *st, char *buf,
			  size_t size);

#endif /* NSLOGD_PROPERTY_H */
