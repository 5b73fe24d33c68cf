/* SPDX-License-Identifier: GPL-2.0 */
/*
 * collector: nslog-collector's shared state.  collector.c has the
 * options and the main loop, collscan.c finding and following sets,
 * collstate.c the state file and the flush before it.
 */
#ifndef NSLOG_COLLECTOR_H
#define NSLOG_COLLECTOR_H

#include <stdbool.h>
#include <time.h>

#include "cstate.h"
#include "logdev.h"
#include "logset.h"
#include "nslist.h"
#include "output.h"

#define COLL_PROG	"nslog-collector"

struct nslog_collector {
	/* options */
	const char *state_path;		/* NULL: --no-state */
	unsigned int state_ms;
	unsigned int logmask;		/* bit (1 << kernel log id) */
	bool dump;
	const char *dev_dir;
	const char *proc_dir;		/* nslogger's: /proc/nslogger */
	const char *proc_root;		/* /proc, for namespaces' processes */
	const char *boot_id_path;

	/* running */
	struct nslog_out out;
	struct nslog_sink sink;
	char host[256];
	char boot_id[NSLOG_BOOT_ID_LEN + 1];
	struct nslog_logdev dev;
	struct nslog_kops k;
	struct nslog_cstate st;		/* the loaded state, until matched */
	struct nslog_cstate found;	/* what the journal has, until matched */
	struct nslog_nslist list;	/* the last listing */
	struct nslog_set *sets;
	unsigned int nsets;
	__u64 host_ns;
	bool have_host_ns;
	int nsfd;			/* /proc/nslogger/namespaces */
	int epfd;
	int sigfd;
	int lockfd;
	bool scanned;			/* the first listing was read */
	bool no_streams;		/* NSLOG_IOC_OPEN_STREAM said -ENOTTY */
	bool shipped;			/* records handed since the last flush */
	bool dirty;			/* flushed positions not yet saved */
	struct timespec saved;		/* when the state was last saved */
	bool stop;
};

/* collscan.c */
int coll_scan(struct nslog_collector *c);
int coll_state_vanished(struct nslog_collector *c);
int coll_pump(struct nslog_collector *c, struct nslog_set *s, bool *more);
void coll_reap(struct nslog_collector *c);
void coll_close_sets(struct nslog_collector *c);

/* collstate.c */
int coll_state_open(struct nslog_collector *c);
void coll_state_found(struct nslog_collector *c);
int coll_flush(struct nslog_collector *c);
int coll_save(struct nslog_collector *c, bool force);
int coll_state_due_ms(const struct nslog_collector *c);
void coll_state_close(struct nslog_collector *c);

#endif /* NSLOG_COLLECTOR_H */
