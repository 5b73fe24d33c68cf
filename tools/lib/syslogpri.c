// SPDX-License-Identifier: GPL-2.0
/*
 * syslogpri: the trailer that keeps a syslog message's PRI in its record.
 *
 * A text record is [priority][tag\0][message\0]; Android's priority says
 * how bad, but not which facility, and it folds syslog's eight severities
 * into five.  nslog-syslogd stores what the sender used after the
 * message's NUL:
 *
 *   [priority][tag\0][message\0]<PRI>
 *
 * PRI in decimal, 0 to 191, no leading zero, and nothing after the '>':
 * the trailer ends the payload.  Readers that know nothing of it (logcat,
 * liblog's, nslogcat) end the message at its NUL and never see it; the
 * collector reads it to give back the facility and severity the program
 * used.  liblog never writes bytes after the message's NUL, so a record
 * with a trailer came from a syslog listener (or from a raw write() that
 * chose this form).
 */
#include <stdio.h>
#include <string.h>

#include "syslogpri.h"

/* RFC 5424's table 1, as syslog.conf and logger name the facilities. */
static const char *const nslog_facility_names[NSLOG_SYSLOG_FACILITIES] = {
	"kern", "user", "mail", "daemon", "auth", "syslog", "lpr", "news",
	"uucp", "cron", "authpriv", "ftp", "ntp", "security", "console",
	"solaris-cron", "local0", "local1", "local2", "local3", "local4",
	"local5", "local6", "local7",
};

/**
 * nslog_syslog_facility_name() - a facility's name
 * @facility: 0 to NSLOG_SYSLOG_FACILITIES - 1
 *
 * Context: any.
 * Return: "kern" ... "local7", or NULL out of range.
 */
const char *nslog_syslog_facility_name(int facility)
{
	if (facility < 0 || facility >= NSLOG_SYSLOG_FACILITIES)
		return NULL;
	return nslog_facility_names[facility];
}

/**
 * nslog_syslog_trailer_put() - write the trailer of a PRI
 * @buf: room for NSLOG_SYSLOG_TRAILER_MAX bytes; no NUL is written
 * @pri: 0 to NSLOG_SYSLOG_PRI_MAX
 *
 * Context: any.
 * Return: the trailer's length, 3 to 5; 0 for a PRI out of range.
 */
size_t nslog_syslog_trailer_put(char *buf, int pri)
{
	char t[NSLOG_SYSLOG_TRAILER_MAX + 1];
	int n;

	if (pri < 0 || pri > NSLOG_SYSLOG_PRI_MAX)
		return 0;
	n = snprintf(t, sizeof(t), "<%d>", pri);
	memcpy(buf, t, (size_t)n);
	return (size_t)n;
}

/**
 * nslog_syslog_trailer_get() - the PRI kept in a text record, if any
 * @payload: the record's payload, [priority][tag\0][message\0]...
 * @len: its length
 *
 * Context: any.
 * Return: the PRI, 0 to NSLOG_SYSLOG_PRI_MAX, or -1 if the record has no
 * well-formed trailer (nothing after the message's NUL, or something
 * else).
 */
int nslog_syslog_trailer_get(const void *payload, size_t len)
{
	const char *p = payload, *end = p + len, *nul;
	int pri = 0;

	if (len < 2)
		return -1;
	nul = memchr(p + 1, '\0', len - 1);		/* the tag's */
	if (!nul)
		return -1;
	nul = memchr(nul + 1, '\0', (size_t)(end - nul - 1));	/* the message's */
	if (!nul)
		return -1;
	p = nul + 1;
	if (end - p < 3 || end - p > NSLOG_SYSLOG_TRAILER_MAX || *p != '<' ||
	    end[-1] != '>')
		return -1;
	p++;
	if (*p == '0' && p + 1 != end - 1)
		return -1;		/* a leading zero */
	for (; p < end - 1; p++) {
		if (*p < '0' || *p > '9')
			return -1;
		pri = pri * 10 + (*p - '0');
	}
	return pri <= NSLOG_SYSLOG_PRI_MAX ? pri : -1;
}
