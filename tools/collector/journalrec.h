/* SPDX-License-Identifier: GPL-2.0 */
/*
 * journalrec: records (and records of lost records) as journald fields,
 * for sd_journal_sendv().
 */
#ifndef NSLOG_JOURNALREC_H
#define NSLOG_JOURNALREC_H

#include <stdbool.h>
#include <sys/uio.h>

#include "logformat.h"
#include "recmeta.h"
#include "sbuf.h"

#define NSLOG_JOURNAL_FIELDS	40

/* The MESSAGE_ID of records of lost records (journalctl MESSAGE_ID=...). */
#define NSLOG_JOURNAL_LOST_ID	"b7a54cbb0e0d4c1e9f7b3e6a2d15c8f0"

struct nslog_jfields {
	struct iovec iov[NSLOG_JOURNAL_FIELDS];
	size_t count;
	size_t off[NSLOG_JOURNAL_FIELDS];	/* of each field in @buf */
	struct nslog_sbuf buf;			/* "KEY=value" one after another */
};

void nslog_journal_record(struct nslog_jfields *f,
			  const struct nslog_rec *rec,
			  const struct nslog_decoded *t,
			  const struct nslog_meta *m, bool events);
void nslog_journal_loss(struct nslog_jfields *f, const struct nslog_meta *m,
			const struct nslog_loss *loss);
void nslog_journal_free(struct nslog_jfields *f);

#endif /* NSLOG_JOURNALREC_H */
