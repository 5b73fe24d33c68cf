/* SPDX-License-Identifier: GPL-2.0 */
/*
 * control: logd's control socket (/dev/socket/logd): connections, their
 * commands and replies, served from one epoll set nslogd's loop polls.
 */
#ifndef NSLOGD_CONTROL_H
#define NSLOGD_CONTROL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "command.h"
#include "reply.h"

/* Connections at once; a new one beyond closes the longest idle. */
#define NSLOGD_CTL_CONNS	64
/* The longest command, its NUL included; a longer one is refused. */
#define NSLOGD_CTL_CMD_MAX	1024
/* Events one call serves before nslogd's loop gets a turn. */
#define NSLOGD_CTL_EVENTS	32

struct nslogd_ctl_conn {
	int fd;				/* -1: a free slot */
	struct ucred cred;		/* SO_PEERCRED, at connect time */
	int64_t last_ns;		/* last data either way */
	size_t in_len;
	char in[NSLOGD_CTL_CMD_MAX];	/* commands read, not yet run */
	struct nslogd_reply out;	/* a reply not yet all sent */
	size_t out_off;
	bool close_after;		/* once the reply is sent */
	bool eof;			/* the client sends no more */
};

struct nslogd_ctl_counts {
	uint64_t accepted;
	uint64_t commands;
	uint64_t evicted;	/* closed for a new one, the longest idle */
	uint64_t oversized;	/* a command longer than NSLOGD_CTL_CMD_MAX */
	uint64_t unrecognized;	/* NSLOGD_R_UNKNOWN: unknown verbs, garbage */
};

struct nslogd_control {
	int listen_fd;
	int epfd;
	struct nslogd_cmd cmd;
	struct nslogd_reply reply;	/* built here, moved to a conn if
					 * it cannot be sent at once */
	struct nslogd_ctl_counts n;
	struct nslogd_ctl_conn conn[NSLOGD_CTL_CONNS];
};

int nslogd_control_init(struct nslogd_control *ctl, int listen_fd,
			const char *dev_dir, nslogd_ringctl_ioctl_fn *ioctl_fn,
			nslogd_logcred_fn *logcred,
			const struct nslogd_stats *stats);
int nslogd_control_fd(const struct nslogd_control *ctl);
int nslogd_control_run(struct nslogd_control *ctl, int64_t now_ns);
unsigned int nslogd_control_conns(const struct nslogd_control *ctl);
size_t nslogd_control_format(const struct nslogd_control *ctl, char *buf,
			     size_t size);
void nslogd_control_exit(struct nslogd_control *ctl);

#endif /* NSLOGD_CONTROL_H */
