// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * logid: Android's eight log ids, their names, and where each goes.
 *
 * nslogger has four buffers, numbered as Android's first four.  Of the
 * others, DEFAULT and CRASH are text buffers whose records Android's own
 * tools read beside main's (logcat's default set is main, system and
 * crash), so they are written to main, where nothing is lost.  STATS is
 * statsd's binary stream, SECURITY the device owner's audit log and
 * KERNEL the kernel's own log, read-only: writing them here would
 * mislabel the records, so they are refused with -EINVAL.
 */
#include <errno.h>
#include <string.h>

#include <android/log.h>
#include <log/log_id.h>
#include "devpath.h"
#include "internal.h"

static const char *const nslog_logid_names[LOG_ID_MAX] = {
	[LOG_ID_MAIN]		= "main",
	[LOG_ID_RADIO]		= "radio",
	[LOG_ID_EVENTS]		= "events",
	[LOG_ID_SYSTEM]		= "system",
	[LOG_ID_CRASH]		= "crash",
	[LOG_ID_STATS]		= "stats",
	[LOG_ID_SECURITY]	= "security",
	[LOG_ID_KERNEL]		= "kernel",
};

/**
 * nslog_logid_route() - the nslogger buffer a log id's records go to
 * @log_id: a log_id_t
 *
 * Context: any.
 * Return: an enum nslog_buf_id, or -EINVAL for a buffer nslogger lacks.
 */
int nslog_logid_route(int log_id)
{
	switch (log_id) {
	case LOG_ID_MAIN:
	case LOG_ID_RADIO:
	case LOG_ID_EVENTS:
	case LOG_ID_SYSTEM:
		return log_id;
	case LOG_ID_DEFAULT:
	case LOG_ID_CRASH:
		return NSLOG_BUF_MAIN;
	default:
		return -EINVAL;
	}
}

/* As Android's: an id out of range names main. */
NSLOG_EXPORT const char *android_log_id_to_name(log_id_t log_id)
{
	if ((int)log_id < 0 || log_id >= LOG_ID_MAX)
		log_id = LOG_ID_MAIN;
	return nslog_logid_names[log_id];
}

/* As Android's: a path's last component counts ("/dev/log/main" is main). */
NSLOG_EXPORT log_id_t android_name_to_log_id(const char *name)
{
	const char *base;
	int id;

	if (!name)
		return LOG_ID_MAX;
	base = strrchr(name, '/');
	if (base)
		name = base + 1;
	for (id = LOG_ID_MIN; id < LOG_ID_MAX; id++)
		if (!strcmp(name, nslog_logid_names[id]))
			return (log_id_t)id;
	return LOG_ID_MAX;
}
