/* SPDX-License-Identifier: GPL-2.0 */
/*
 * reader: logdr, the readers' socket: one command per connection, then
 * the set's records framed as logd's struct logger_entry v4.
 */
#ifndef NSLOGD_READER_H
#define NSLOGD_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "dgram.h"
#include "merge.h"
#include "rdcmd.h"
#include "rdlog.h"

/* Connections served at once; more are accepted and closed. */
#define NSLOGD_READERS_MAX	1024
/* Records a connection looks at in one turn before the others get theirs. */
#define NSLOGD_RD_BURST		64
/* Connections accepted in one turn. */
#define NSLOGD_RD_ACCEPTS	64
/*
 * How long a reader may leave a record unread in a full socket before it
 * is disconnected: logd's send timeout.
 */
#define NSLOGD_RD_SEND_TIMEOUT_NS	(32LL * 1000000000LL)

enum nslogd_rconn_state {
	NSLOGD_RCONN_CMD = 0,	/* waiting for the command */
	NSLOGD_RCONN_COUNT,	/* tail=: counting what there is */
	NSLOGD_RCONN_HELD,	/* start= with timeout=: until the deadline */
	NSLOGD_RCONN_SEND,	/* sending, or waiting for records */
};

/* What an epoll event is about. */
struct nslogd_rtag {
	unsigned char kind;	/* enum in reader.c */
	unsigned char idx;	/* the log's index in the merge */
	struct nslogd_rconn *c;
};

/* One reader's connection. */
struct nslogd_rconn {
	struct nslogd_rconn *prev, *next;	/* every connection */
	struct nslogd_rconn *ready_next;	/* to be served this turn */
	bool ready;
	bool dead;		/* closed: freed at the end of the turn */
	int fd;
	struct ucred cred;	/* SO_PEERCRED */
	bool privileged;	/* sees every uid's records */
	enum nslogd_rconn_state state;
	struct nslogd_rdcmd cmd;
	struct nslogd_merge m;
	uint64_t start_seq[NSLOGD_MERGE_LOGS];	/* tail=: where counting began */
	uint64_t run_stop[NSLOGD_MERGE_LOGS];	/* stop_seq after counting */
	unsigned int count_src;	/* tail=: the log being counted */
	uint64_t counted;	/* ... records the reader may see, so far */
	uint64_t skip;		/* of those, how many to skip first */
	struct nslogd_msrc *pending;	/* framed, not sent: socket full */
	const void *pending_msg;
	size_t pending_len;
	bool registered[NSLOGD_MERGE_LOGS];	/* its fd is in the epoll set */
	bool armed[NSLOGD_MERGE_LOGS];		/* ... and waited for */
	bool out_armed;
	int64_t deadline_ns;	/* 0: none */
	uint64_t sent;
	struct nslogd_rtag sock_tag, log_tag[NSLOGD_MERGE_LOGS];
};

struct nslogd_rdstats {
	uint64_t accepted;	/* connections taken */
	uint64_t full;		/* closed at once: NSLOGD_READERS_MAX */
	uint64_t garbage;	/* closed: a command nslogd_rdcmd_parse() refused */
	uint64_t oversized;	/* closed: a command over NSLOGD_RDCMD_MAX */
	uint64_t second;	/* closed: a second command */
	uint64_t slow;		/* closed: a record unread NSLOGD_RD_SEND_TIMEOUT_NS */
	uint64_t dumps;		/* dumpAndClose served to the end */
	uint64_t sent;		/* records */
	uint64_t lost;		/* records the kernel said readers lost */
	uint64_t bad;		/* reads that were no record */
	uint64_t open_failed;	/* logs a reader asked for that would not open */
};

struct nslogd_reader {
	int epfd;
	int lfd;		/* logdr, listening, non-blocking */
	int tfd;		/* a timerfd at the earliest deadline */
	bool listen_paused;	/* out of fds: until a connection closes */
	struct nslogd_rdops ops;
	nslogd_logcred_fn *logcred;
	unsigned int nconns;
	unsigned int max_conns;		/* NSLOGD_READERS_MAX */
	int64_t send_timeout_ns;	/* NSLOGD_RD_SEND_TIMEOUT_NS */
	int64_t next_deadline;		/* INT64_MAX: none */
	struct nslogd_rconn *conns;
	struct nslogd_rconn *ready;	/* served next turn, in order */
	struct nslogd_rconn **ready_tail;
	struct nslogd_rconn *dead;	/* freed at the end of the turn */
	struct nslogd_rtag listen_tag, timer_tag;
	struct nslogd_rdstats st;
	bool told_open;
};

int nslogd_reader_init(struct nslogd_reader *rd, int lfd,
		       const struct nslogd_rdops *ops,
		       nslogd_logcred_fn *logcred);
int nslogd_reader_run(struct nslogd_reader *rd, int64_t now_ns);
void nslogd_reader_exit(struct nslogd_reader *rd);
uint32_t nslogd_reader_lids(const struct ucred *cred, uint32_t lids);
bool nslogd_reader_visible(const struct nslogd_rconn *c,
			   const struct nslog_entry *h);
size_t nslogd_rdstats_format(const struct nslogd_rdstats *st, char *buf,
			     size_t size);

/* The fd nslogd's poll() waits on: readable when a turn has work. */
static inline int nslogd_reader_fd(const struct nslogd_reader *rd)
{
	return rd->epfd;
}

/* Whether a turn left work for the next one: poll() must not wait. */
static inline bool nslogd_reader_busy(const struct nslogd_reader *rd)
{
	return rd->ready != NULL;
}

#endif /* NSLOGD_READER_H */
