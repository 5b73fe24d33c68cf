/* SPDX-License-Identifier: GPL-2.0 */
/*
 * syslogpri: a syslog message's PRI kept in a text record, after the
 * message's NUL, so that a reader can give the facility back.
 */
#ifndef NSLOG_SYSLOGPRI_H
#define NSLOG_SYSLOGPRI_H

#include <stddef.h>

/* The largest PRI: facility 23 (local7) * 8 + severity 7 (debug). */
#define NSLOG_SYSLOG_PRI_MAX		191
/* Facilities 0 (kern) to 23 (local7). */
#define NSLOG_SYSLOG_FACILITIES		24
/* The longest trailer, "<191>". */
#define NSLOG_SYSLOG_TRAILER_MAX	5

size_t nslog_syslog_trailer_put(char *buf, int pri);
int nslog_syslog_trailer_get(const void *payload, size_t len);
const char *nslog_syslog_facility_name(int facility);

#endif /* NSLOG_SYSLOGPRI_H */
