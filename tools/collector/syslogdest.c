// SPDX-License-Identifier: GPL-2.0
/*
 * syslogdest: sending RFC 5424 messages.
 *
 *   stdout (or -)   one message a line, through stdio
 *   unix:PATH       a unix datagram socket (rsyslog's imuxsock, syslog-ng's
 *                   unix-dgram()): one message a datagram; if PATH is a
 *                   stream socket (syslog-ng's unix-stream()), one a line
 *   udp:HOST:PORT   one message a datagram (RFC 5426), cut at 65000 bytes
 *   tcp:HOST:PORT   octet counting, "LENGTH SP MESSAGE" (RFC 6587 3.4.1),
 *                   as rsyslog's imtcp and syslog-ng's syslog() take it
 *
 * HOST may be a name, an IPv4 address or an IPv6 one in brackets.  Sends
 * block: a slow receiver holds the collector back, and the records wait in
 * the kernel's rings (where they may be overwritten, which is then
 * reported).  A failed send is an error the caller stops on, except for
 * UDP's "connection refused" (nobody listening yet), which is counted.
 */
#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "syslogdest.h"

/**
 * nslog_dest_parse() - read a destination
 * @d: filled in (not opened)
 * @spec: "stdout", "-", "unix:PATH", "udp:HOST:PORT" or "tcp:HOST:PORT"
 *
 * Context: any.
 * Return: 0, or -EINVAL.
 */
int nslog_dest_parse(struct nslog_dest *d, const char *spec)
{
	const char *rest, *colon;

	memset(d, 0, sizeof(*d));
	d->fd = -1;
	if (!strcmp(spec, "stdout") || !strcmp(spec, "-")) {
		d->kind = NSLOG_DEST_STDOUT;
		return 0;
	}
	if (!strncmp(spec, "unix:", 5)) {
		d->kind = NSLOG_DEST_UNIX;
		rest = spec + 5;
		if (!*rest || strlen(rest) >= sizeof(((struct sockaddr_un *)0)->sun_path))
			return -EINVAL;
	} else if (!strncmp(spec, "udp:", 4) || !strncmp(spec, "tcp:", 4)) {
		d->kind = spec[0] == 'u' ? NSLOG_DEST_UDP : NSLOG_DEST_TCP;
		rest = spec + 4;
		colon = strrchr(rest, ':');
		if (!colon || colon == rest || !colon[1] ||
		    strspn(colon + 1, "0123456789") != strlen(colon + 1))
			return -EINVAL;
		if (rest[0] == '[' && colon[-1] != ']')
			return -EINVAL;
	} else {
		return -EINVAL;
	}
	if (strlen(rest) >= sizeof(d->addr))
		return -EINVAL;
	strcpy(d->addr, rest);
	return 0;
}

static int nslog_dest_unix(struct nslog_dest *d)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int type, err;

	strcpy(sa.sun_path, d->addr);
	for (type = SOCK_DGRAM;; type = SOCK_STREAM) {
		d->fd = socket(AF_UNIX, type | SOCK_CLOEXEC, 0);
		if (d->fd < 0)
			return -errno;
		if (!connect(d->fd, (struct sockaddr *)&sa, sizeof(sa))) {
			d->stream = type == SOCK_STREAM;
			return 0;
		}
		err = -errno;
		close(d->fd);
		d->fd = -1;
		if (err != -EPROTOTYPE || type == SOCK_STREAM)
			return err;
	}
}

static int nslog_dest_inet(struct nslog_dest *d)
{
	struct addrinfo hints = {
		.ai_socktype = d->kind == NSLOG_DEST_UDP ? SOCK_DGRAM :
			       SOCK_STREAM,
	};
	struct addrinfo *res, *ai;
	char host[256];
	const char *port;
	size_t n;
	int err;

	port = strrchr(d->addr, ':') + 1;
	n = (size_t)(port - 1 - d->addr);
	if (d->addr[0] == '[') {
		memcpy(host, d->addr + 1, n - 2);
		host[n - 2] = '\0';
	} else {
		memcpy(host, d->addr, n);
		host[n] = '\0';
	}
	err = getaddrinfo(host, port, &hints, &res);
	if (err)
		return err == EAI_SYSTEM ? -errno : -EHOSTUNREACH;
	err = -EHOSTUNREACH;
	for (ai = res; ai; ai = ai->ai_next) {
		d->fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC,
			       ai->ai_protocol);
		if (d->fd < 0) {
			err = -errno;
			continue;
		}
		if (!connect(d->fd, ai->ai_addr, ai->ai_addrlen))
			break;
		err = -errno;
		close(d->fd);
		d->fd = -1;
	}
	freeaddrinfo(res);
	return d->fd < 0 ? err : 0;
}

/**
 * nslog_dest_open() - connect to the destination
 * @d: parsed by nslog_dest_parse()
 * @out: the stream of NSLOG_DEST_STDOUT
 *
 * Context: process context; may resolve a host name.
 * Return: 0, or a negative errno (-EHOSTUNREACH for a name that does
 * not resolve).
 */
int nslog_dest_open(struct nslog_dest *d, FILE *out)
{
	d->out = out;
	switch (d->kind) {
	case NSLOG_DEST_STDOUT:
		return 0;
	case NSLOG_DEST_UNIX:
		return nslog_dest_unix(d);
	case NSLOG_DEST_UDP:
	case NSLOG_DEST_TCP:
		return nslog_dest_inet(d);
	}
	return -EINVAL;
}

static int nslog_dest_write(int fd, const char *p, size_t n)
{
	ssize_t w;

	while (n) {
		w = send(fd, p, n, MSG_NOSIGNAL);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/**
 * nslog_dest_send() - send one message
 * @d: an open destination
 * @msg: the message, without framing
 * @len: its length
 *
 * Context: process context; blocks while the receiver is full.
 * Return: 0, or a negative errno (-EIO for standard output).
 */
int nslog_dest_send(struct nslog_dest *d, const char *msg, size_t len)
{
	char count[24];
	ssize_t w;
	int ret;

	switch (d->kind) {
	case NSLOG_DEST_STDOUT:
		fwrite(msg, 1, len, d->out);
		putc('\n', d->out);
		return ferror(d->out) ? -EIO : 0;
	case NSLOG_DEST_UNIX:
		if (d->stream) {
			ret = nslog_dest_write(d->fd, msg, len);
			return ret ? ret : nslog_dest_write(d->fd, "\n", 1);
		}
		break;
	case NSLOG_DEST_UDP:
		if (len > NSLOG_DEST_UDP_MAX)
			len = NSLOG_DEST_UDP_MAX;
		break;
	case NSLOG_DEST_TCP:
		snprintf(count, sizeof(count), "%zu ", len);
		ret = nslog_dest_write(d->fd, count, strlen(count));
		return ret ? ret : nslog_dest_write(d->fd, msg, len);
	}
	do
		w = send(d->fd, msg, len, MSG_NOSIGNAL);
	while (w < 0 && errno == EINTR);
	if (w < 0 && errno == ECONNREFUSED && d->kind == NSLOG_DEST_UDP) {
		d->refused++;
		return 0;
	}
	return w < 0 ? -errno : 0;
}

/* Standard output's buffer to the file; sockets have none. */
int nslog_dest_flush(struct nslog_dest *d)
{
	if (d->kind != NSLOG_DEST_STDOUT)
		return 0;
	return fflush(d->out) ? -EIO : 0;
}

void nslog_dest_close(struct nslog_dest *d)
{
	if (d->fd >= 0)
		close(d->fd);
	d->fd = -1;
}
