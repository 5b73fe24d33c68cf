/* SPDX-License-Identifier: GPL-2.0 */
/*
 * syslogdest: where RFC 5424 messages go: standard output, a unix socket
 * (datagram or stream), UDP or TCP.
 */
#ifndef NSLOG_SYSLOGDEST_H
#define NSLOG_SYSLOGDEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum nslog_dest_kind {
	NSLOG_DEST_STDOUT,	/* one line a message */
	NSLOG_DEST_UNIX,	/* datagram; stream (a line each) if it is one */
	NSLOG_DEST_UDP,		/* a datagram a message (RFC 5426) */
	NSLOG_DEST_TCP,		/* octet counting (RFC 6587, 3.4.1) */
};

struct nslog_dest {
	enum nslog_dest_kind kind;
	char addr[256];		/* PATH, or HOST:PORT */
	bool stream;		/* the unix socket is a stream */
	int fd;
	FILE *out;		/* NSLOG_DEST_STDOUT */
	unsigned long refused;	/* UDP datagrams the peer refused */
};

/* The largest UDP payload sent; longer messages are cut. */
#define NSLOG_DEST_UDP_MAX	65000

int nslog_dest_parse(struct nslog_dest *d, const char *spec);
int nslog_dest_open(struct nslog_dest *d, FILE *out);
int nslog_dest_send(struct nslog_dest *d, const char *msg, size_t len);
int nslog_dest_flush(struct nslog_dest *d);
void nslog_dest_close(struct nslog_dest *d);

#endif /* NSLOG_SYSLOGDEST_H */
