// SPDX-License-Identifier: GPL-2.0
/*
 * severity: Android priority to syslog severity.
 *
 *   Android		syslog
 *   7 FATAL   F	2 crit     (the process aborts after it)
 *   6 ERROR   E	3 err
 *   5 WARN    W	4 warning
 *   4 INFO    I	6 info
 *   3 DEBUG   D	7 debug
 *   2 VERBOSE V	7 debug
 *   anything else	6 info     (0, 1 and 8 are never logged by liblog)
 *
 * Events records are INFO, as logcat shows them.  Nothing maps to emerg
 * or alert: those are the whole system's, not one program's.  Records of
 * lost records are the collector's own, warning.
 */
#include <linux/nslogger.h>

#include "severity.h"

/**
 * nslog_severity() - the syslog severity of an Android priority
 * @prio: the priority byte of a text record
 *
 * Context: any.
 * Return: 2 to 7, see the table above.
 */
int nslog_severity(int prio)
{
	switch (prio) {
	case NSLOG_PRIO_FATAL:
		return NSLOG_SEV_CRIT;
	case NSLOG_PRIO_ERROR:
		return NSLOG_SEV_ERR;
	case NSLOG_PRIO_WARN:
		return NSLOG_SEV_WARNING;
	case NSLOG_PRIO_DEBUG:
	case NSLOG_PRIO_VERBOSE:
		return NSLOG_SEV_DEBUG;
	case NSLOG_PRIO_INFO:
	default:
		return NSLOG_SEV_INFO;
	}
}

/**
 * nslog_severity_name() - syslog's keyword for a severity
 * @sev: 0 to 7
 *
 * Context: any.
 * Return: "emerg" ... "debug", as journalctl -p and syslog.conf name
 * them; "info" for anything out of range.
 */
const char *nslog_severity_name(int sev)
{
	static const char *const names[] = {
		"emerg", "alert", "crit", "err", "warning", "notice", "info",
		"debug",
	};

	if (sev < 0 || sev > NSLOG_SEV_DEBUG)
		sev = NSLOG_SEV_INFO;
	return names[sev];
}
