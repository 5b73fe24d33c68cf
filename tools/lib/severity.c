// SPDX-License-Identifier: GPL-2.0
/*
 * severity: Android priority to syslog severity, and back.
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
 *
 * And back, for what syslog senders write (nslog -p's level names,
 * nslog-syslogd's messages):
 *
 *   syslog		Android
 *   0 emerg		7 FATAL    (a program's worst is FATAL)
 *   1 alert		7 FATAL
 *   2 crit		7 FATAL
 *   3 err		6 ERROR
 *   4 warning		5 WARN
 *   5 notice		4 INFO     (Android has no level between I and W)
 *   6 info		4 INFO
 *   7 debug		3 DEBUG
 *
 * crit, err, warning, info and debug go there and back unchanged; emerg
 * and alert come back as crit, notice as info.
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
 * nslog_severity_prio() - the Android priority of a syslog severity
 * @sev: 0 to 7; only the low three bits are looked at, so a whole PRI
 *	 (facility * 8 + severity) gives its severity's priority
 *
 * Context: any.
 * Return: 3 to 7, see the second table above.
 */
int nslog_severity_prio(int sev)
{
	static const unsigned char prio[] = {
		[NSLOG_SEV_EMERG]	= NSLOG_PRIO_FATAL,
		[NSLOG_SEV_ALERT]	= NSLOG_PRIO_FATAL,
		[NSLOG_SEV_CRIT]	= NSLOG_PRIO_FATAL,
		[NSLOG_SEV_ERR]		= NSLOG_PRIO_ERROR,
		[NSLOG_SEV_WARNING]	= NSLOG_PRIO_WARN,
		[NSLOG_SEV_NOTICE]	= NSLOG_PRIO_INFO,
		[NSLOG_SEV_INFO]	= NSLOG_PRIO_INFO,
		[NSLOG_SEV_DEBUG]	= NSLOG_PRIO_DEBUG,
	};

	return prio[sev & 7];
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
