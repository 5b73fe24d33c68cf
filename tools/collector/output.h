/* SPDX-License-Identifier: GPL-2.0 */
/*
 * output: the collector's outputs behind one interface: journald, JSON
 * lines, RFC 5424 syslog, and nslogcat's layouts.
 */
#ifndef NSLOG_OUTPUT_H
#define NSLOG_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/uio.h>

#include "journalrec.h"
#include "logformat.h"
#include "recmeta.h"
#include "sbuf.h"
#include "syslogdest.h"

enum nslog_out_kind {
	NSLOG_OUT_JOURNAL,
	NSLOG_OUT_JSON,
	NSLOG_OUT_RFC5424,
	NSLOG_OUT_LOGCAT,
};

typedef int (*nslog_journal_send_fn)(const struct iovec *iov, int n);

struct nslog_out {
	enum nslog_out_kind kind;
	struct nslog_fmt fmt;		/* NSLOG_OUT_LOGCAT */
	int facility;			/* NSLOG_OUT_RFC5424 */
	struct nslog_dest dest;		/* NSLOG_OUT_RFC5424 */
	FILE *file;			/* JSON, logcat layouts */
	nslog_journal_send_fn send;	/* sd_journal_sendv(), or a test's */
	struct nslog_sbuf sb;
	struct nslog_jfields jf;
	bool have_last;			/* logcat: the last header's set, log */
	unsigned long long last_set;
	char last_log[NSLOG_STREAM_NAME_SIZE];	/* a copy: a stream's goes */
};

int nslog_out_parse(struct nslog_out *o, const char *spec);
int nslog_out_open(struct nslog_out *o, FILE *file);
int nslog_out_record(struct nslog_out *o, const struct nslog_rec *rec,
		     const struct nslog_decoded *t, const struct nslog_meta *m,
		     bool events);
int nslog_out_loss(struct nslog_out *o, const struct nslog_meta *m,
		   const struct nslog_loss *loss);
int nslog_out_flush(struct nslog_out *o);
int nslog_out_sync(struct nslog_out *o);
void nslog_out_close(struct nslog_out *o);

#endif /* NSLOG_OUTPUT_H */
