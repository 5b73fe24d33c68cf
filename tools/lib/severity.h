/* SPDX-License-Identifier: GPL-2.0 */
/*
 * severity: Android's log priorities as syslog severities, for journald's
 * PRIORITY, RFC 5424's PRI and JSON's "level"; and syslog's severities as
 * Android priorities, for what syslog senders write.
 */
#ifndef NSLOG_SEVERITY_H
#define NSLOG_SEVERITY_H

/* syslog severities (RFC 5424, table 2), as journald's PRIORITY takes them. */
enum nslog_severity {
	NSLOG_SEV_EMERG		= 0,
	NSLOG_SEV_ALERT		= 1,
	NSLOG_SEV_CRIT		= 2,
	NSLOG_SEV_ERR		= 3,
	NSLOG_SEV_WARNING	= 4,
	NSLOG_SEV_NOTICE	= 5,
	NSLOG_SEV_INFO		= 6,
	NSLOG_SEV_DEBUG		= 7,
};

int nslog_severity(int prio);
int nslog_severity_prio(int sev);
const char *nslog_severity_name(int sev);

#endif /* NSLOG_SEVERITY_H */
