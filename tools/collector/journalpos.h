/* SPDX-License-Identifier: GPL-2.0 */
/*
 * journalpos: asking the journal which record of a log it has last, so
 * that a collector restarted after a SIGKILL ships nothing twice.
 */
#ifndef NSLOG_JOURNALPOS_H
#define NSLOG_JOURNALPOS_H

#include <sys/types.h>
#include <linux/types.h>

#include "resume.h"

/* journald's varlink socket, for io.systemd.Journal.Synchronize. */
#define NSLOG_JOURNAL_VARLINK	"/run/systemd/journal/io.systemd.journal"

struct nslog_jpos {
	void *j;		/* sd_journal */
	char boot_match[48];	/* _BOOT_ID=... (journald's: no dashes) */
	char uid_match[32];	/* _UID=... */
};

int nslog_journal_sync(const char *path, int timeout_ms);
int nslog_jpos_open(struct nslog_jpos *q, const char *dir,
		    const char *boot_id, uid_t uid);
int nslog_jpos_last(struct nslog_jpos *q, __u64 set_id, const char *log,
		    struct nslog_pos *pos);
void nslog_jpos_close(struct nslog_jpos *q);

#endif /* NSLOG_JOURNALPOS_H */
