/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rfc5424: records (and records of lost records) as RFC 5424 syslog
 * messages, for rsyslog and syslog-ng.
 */
#ifndef NSLOG_RFC5424_H
#define NSLOG_RFC5424_H

#include <stdbool.h>

#include "logformat.h"
#include "recmeta.h"
#include "sbuf.h"

/* The SD-ID of nslogger's structured data: the example enterprise number. */
#define NSLOG_SD_ID		"nslogger@32473"
#define NSLOG_FACILITY_USER	1

int nslog_facility_from_name(const char *name);
void nslog_rfc5424_record(struct nslog_sbuf *b, int facility,
			  const struct nslog_rec *rec,
			  const struct nslog_decoded *t,
			  const struct nslog_meta *m, bool events);
void nslog_rfc5424_loss(struct nslog_sbuf *b, int facility,
			const struct nslog_meta *m,
			const struct nslog_loss *loss);

#endif /* NSLOG_RFC5424_H */
