/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record: a parsed syslog message as a text record's payload.
 */
#ifndef NSLOG_SL_RECORD_H
#define NSLOG_SL_RECORD_H

#include <stddef.h>

#include <linux/nslogger.h>

#include "parse.h"

/* The tag of a message that names none. */
#define NSLOG_SL_TAG_NONE	"syslog"

/* What record.c did to a message on its way into the payload. */
#define NSLOG_SL_REC_CUT	0x1	/* the text was cut to fit */
#define NSLOG_SL_REC_NUL	0x2	/* NUL bytes in the text became spaces */

size_t nslog_sl_record(char payload[LOGGER_ENTRY_MAX_PAYLOAD],
		       const struct nslog_sl_msg *m, unsigned int *what);

#endif /* NSLOG_SL_RECORD_H */
