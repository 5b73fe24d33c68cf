// SPDX-License-Identifier: GPL-2.0
/*
 * control: logd's control socket.
 *
 * A client connects (SOCK_STREAM), sends NUL-terminated commands and
 * reads one NUL-terminated reply to each (command.c, reply.c); liblog
 * sends one command a connection, but any number are served, in order,
 * also when one arrives in pieces or several in one read.
 *
 * The listening socket and every connection are in one epoll set, whose
 * fd nslogd's poll() loop watches; nslogd_control_run() serves at most
 * NSLOGD_CTL_EVENTS ready fds and returns, so control never starves the
 * writers. Nothing blocks: connections are non-blocking, and a reply the
 * client does not read at once is kept (the connection is then not read
 * from until it has gone), so a client that never reads holds its own
 * connection and nothing else.
 *
 * Bounds: NSLOGD_CTL_CONNS connections (a new one beyond closes the one
 * idle longest: a client that connects and says nothing cannot lock the
 * others out), each with NSLOGD_CTL_CMD_MAX bytes of command and at most
 * one reply (NSLOGD_REPLY_MAX). A command that does not end within
 * NSLOGD_CTL_CMD_MAX bytes is answered NSLOGD_R_TOO_LARGE, as logd
 * answers one that does not end within its buffer, and the connection
 * closed: nslogd does not buffer more, and cannot tell where the next
 * command would start (logd skips to the next NUL of that read).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#include "control.h"

/* epoll data: the listener, or a connection's slot + 1. */
#define CTL_LISTENER	0

static int conn_events(struct nslogd_control *ctl,
		       struct nslogd_ctl_conn *c, uint32_t events)
{
	struct epoll_event ev = {
		.events = events,
		.data.u32 = (uint32_t)(c - ctl->conn) + 1,
	};

	return epoll_ctl(ctl->epfd, EPOLL_CTL_MOD, c->fd, &ev);
}

static void conn_close(struct nslogd_control *ctl, struct nslogd_ctl_conn *c)
{
	(void)ctl;
	close(c->fd);		/* leaves the epoll set with it */
	nslogd_reply_free(&c->out);
	c->fd = -1;
	c->in_len = 0;
	c->out_off = 0;
	c->close_after = false;
	c->eof = false;
}

/*
 * Send what is left of the reply: 1 all sent, 0 some left (wait for
 * EPOLLOUT), -1 the connection is gone.
 */
static int conn_send(struct nslogd_ctl_conn *c, int64_t now_ns)
{
	size_t total = c->out.len + 1;	/* the NUL too */
	ssize_t n;

	while (c->out_off < total) {
		n = send(c->fd, c->out.buf + c->out_off, total - c->out_off,
			 MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return errno == EAGAIN ? 0 : -1;
		}
		c->out_off += (size_t)n;
		c->last_ns = now_ns;
	}
	nslogd_reply_free(&c->out);
	c->out_off = 0;
	return 1;
}

/* Hand the reply just made to @c and send it; as conn_send(). */
static int conn_reply(struct nslogd_control *ctl, struct nslogd_ctl_conn *c,
		      int64_t now_ns)
{
	c->out = ctl->reply;
	c->out_off = 0;
	nslogd_reply_init(&ctl->reply);
	return conn_send(c, now_ns);
}

/*
 * Run the whole commands in @c's buffer while their replies go out at
 * once. 1: go on reading; 0: a reply waits for EPOLLOUT; -1: closed.
 */
static int conn_commands(struct nslogd_control *ctl,
			 struct nslogd_ctl_conn *c, int64_t now_ns)
{
	enum nslogd_cmd_after after;
	char *nul;
	size_t len;
	int r;

	while (!c->close_after) {
		nul = memchr(c->in, '\0', c->in_len);
		if (!nul) {
			if (c->in_len < sizeof(c->in))
				break;
			ctl->n.oversized++;
			nslogd_reply_set(&ctl->reply, NSLOGD_R_TOO_LARGE);
			c->in_len = 0;
			c->close_after = true;
		} else {
			len = (size_t)(nul - c->in) + 1;
			ctl->n.commands++;
			nslogd_reply_reset(&ctl->reply);
			after = nslogd_cmd_run(&ctl->cmd, c->in, &c->cred,
					       &ctl->reply);
			if (ctl->reply.len == strlen(NSLOGD_R_UNKNOWN) &&
			    !strcmp(ctl->reply.buf, NSLOGD_R_UNKNOWN))
				ctl->n.unrecognized++;
			memmove(c->in, c->in + len, c->in_len - len);
			c->in_len -= len;
			if (after == NSLOGD_CMD_CLOSE)
				c->close_after = true;
		}
		r = conn_reply(ctl, c, now_ns);
		if (r <= 0) {
			if (r < 0) {
				conn_close(ctl, c);
				return -1;
			}
			conn_events(ctl, c, EPOLLOUT);
			return 0;
		}
	}
	if (c->close_after || (c->eof && !memchr(c->in, '\0', c->in_len))) {
		conn_close(ctl, c);
		return -1;
	}
	return 1;
}

/* Read what the client sent, then run it. */
static void conn_read(struct nslogd_control *ctl, struct nslogd_ctl_conn *c,
		      int64_t now_ns)
{
	ssize_t n;

	for (;;) {
		if (c->in_len == sizeof(c->in))
			break;		/* full: conn_commands() decides */
		n = recv(c->fd, c->in + c->in_len, sizeof(c->in) - c->in_len,
			 MSG_DONTWAIT);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			break;
		if (n <= 0) {
			c->eof = true;	/* end of file, or reset */
			break;
		}
		c->in_len += (size_t)n;
		c->last_ns = now_ns;
	}
	conn_commands(ctl, c, now_ns);
}

static void conn_writable(struct nslogd_control *ctl,
			  struct nslogd_ctl_conn *c, int64_t now_ns)
{
	int r = conn_send(c, now_ns);

	if (r < 0) {
		conn_close(ctl, c);
		return;
	}
	if (!r)
		return;
	/* sent: run what came meanwhile, then read again */
	if (conn_commands(ctl, c, now_ns) > 0)
		conn_events(ctl, c, EPOLLIN);
}

/* A free slot, or the one idle longest, closed for it. */
static struct nslogd_ctl_conn *conn_slot(struct nslogd_control *ctl)
{
	struct nslogd_ctl_conn *idle = NULL;
	unsigned int i;

	for (i = 0; i < NSLOGD_CTL_CONNS; i++) {
		if (ctl->conn[i].fd < 0)
			return &ctl->conn[i];
		if (!idle || ctl->conn[i].last_ns < idle->last_ns)
			idle = &ctl->conn[i];
	}
	ctl->n.evicted++;
	conn_close(ctl, idle);
	return idle;
}

static void accept_all(struct nslogd_control *ctl, int64_t now_ns)
{
	struct nslogd_ctl_conn *c;
	struct epoll_event ev;
	socklen_t len;
	int fd, i;

	for (i = 0; i < NSLOGD_CTL_EVENTS; i++) {
		fd = accept4(ctl->listen_fd, NULL, NULL,
			     SOCK_CLOEXEC | SOCK_NONBLOCK);
		if (fd < 0) {
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			return;		/* EAGAIN, or out of fds: later */
		}
		c = conn_slot(ctl);
		c->fd = fd;
		c->last_ns = now_ns;
		len = sizeof(c->cred);
		ev.events = EPOLLIN;
		ev.data.u32 = (uint32_t)(c - ctl->conn) + 1;
		if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &c->cred, &len) ||
		    epoll_ctl(ctl->epfd, EPOLL_CTL_ADD, fd, &ev)) {
			conn_close(ctl, c);
			continue;
		}
		ctl->n.accepted++;
		/* a command sent with the connect is served before any
		 * later accept could take this slot */
		conn_read(ctl, c, now_ns);
	}
}

/**
 * nslogd_control_init() - serve logd's control socket
 * @ctl: the control state
 * @listen_fd: the logd socket, listening and non-blocking (sockets.c)
 * @dev_dir: the nodes' directory, as nslog_dev_path() takes it
 * @ioctl_fn: nslogd_ringctl_ioctl(), or a stand-in
 * @logcred: nslogd_logcred(), or a stand-in
 * @stats: the writer's counters, for getStatistics; NULL for none
 *
 * Context: process.
 * Return: 0, or -errno (the epoll set).
 */
int nslogd_control_init(struct nslogd_control *ctl, int listen_fd,
			const char *dev_dir, nslogd_ringctl_ioctl_fn *ioctl_fn,
			nslogd_logcred_fn *logcred,
			const struct nslogd_stats *stats)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.u32 = CTL_LISTENER };
	unsigned int i;
	int err;

	memset(ctl, 0, sizeof(*ctl));
	for (i = 0; i < NSLOGD_CTL_CONNS; i++)
		ctl->conn[i].fd = -1;
	ctl->listen_fd = listen_fd;
	ctl->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (ctl->epfd < 0)
		return -errno;
	if (epoll_ctl(ctl->epfd, EPOLL_CTL_ADD, listen_fd, &ev))
		goto err_epoll;
	nslogd_cmd_init(&ctl->cmd, dev_dir, ioctl_fn, logcred, stats);
	return 0;

err_epoll:
	err = -errno;
	close(ctl->epfd);
	ctl->epfd = -1;
	return err;
}

/**
 * nslogd_control_fd() - the fd to poll() for control's work
 * @ctl: the control state
 *
 * Context: any.
 * Return: the epoll set's fd: readable when something is to be served.
 */
int nslogd_control_fd(const struct nslogd_control *ctl)
{
	return ctl->epfd;
}

/**
 * nslogd_control_run() - serve what is ready, without waiting
 * @ctl: the control state
 * @now_ns: CLOCK_MONOTONIC, for the idle order of connections
 *
 * Context: process; does not block (a getStatistics reads the logs).
 * Return: the number of ready fds served, or -errno of epoll_wait().
 */
int nslogd_control_run(struct nslogd_control *ctl, int64_t now_ns)
{
	struct epoll_event ev[NSLOGD_CTL_EVENTS];
	struct nslogd_ctl_conn *c;
	int n, i;

	n = epoll_wait(ctl->epfd, ev, NSLOGD_CTL_EVENTS, 0);
	if (n < 0)
		return errno == EINTR ? 0 : -errno;
	for (i = 0; i < n; i++) {
		if (ev[i].data.u32 == CTL_LISTENER) {
			accept_all(ctl, now_ns);
			continue;
		}
		c = &ctl->conn[ev[i].data.u32 - 1];
		if (c->fd < 0)
			continue;	/* closed by an earlier event */
		if (c->out.buf)
			conn_writable(ctl, c, now_ns);
		else
			conn_read(ctl, c, now_ns);
	}
	return n;
}

/**
 * nslogd_control_conns() - connections open now
 * @ctl: the control state
 *
 * Context: any.
 * Return: how many.
 */
unsigned int nslogd_control_conns(const struct nslogd_control *ctl)
{
	unsigned int i, n = 0;

	for (i = 0; i < NSLOGD_CTL_CONNS; i++)
		n += ctl->conn[i].fd >= 0;
	return n;
}

/**
 * nslogd_control_format() - control's counters, one line
 * @ctl: the control state
 * @buf: where to write it
 * @size: its size
 *
 * "control accepted N commands N unrecognized N oversized N evicted N
 * open N"
 *
 * Context: any.
 * Return: what snprintf() returns.
 */
size_t nslogd_control_format(const struct nslogd_control *ctl, char *buf,
			     size_t size)
{
	int n = snprintf(buf, size,
		"control accepted %llu commands %llu unrecognized %llu "
		"oversized %llu evicted %llu open %u",
		(unsigned long long)ctl->n.accepted,
		(unsigned long long)ctl->n.commands,
		(unsigned long long)ctl->n.unrecognized,
		(unsigned long long)ctl->n.oversized,
		(unsigned long long)ctl->n.evicted,
		nslogd_control_conns(ctl));

	return n < 0 ? 0 : (size_t)n;
}

/**
 * nslogd_control_exit() - close every connection and the epoll set
 * @ctl: the control state
 *
 * The listening socket is not closed: it is nslogd.c's (sockets.c).
 *
 * Context: process.
 */
void nslogd_control_exit(struct nslogd_control *ctl)
{
	unsigned int i;

	for (i = 0; i < NSLOGD_CTL_CONNS; i++)
		if (ctl->conn[i].fd >= 0)
			conn_close(ctl, &ctl->conn[i]);
	nslogd_reply_free(&ctl->reply);
	nslogd_cmd_exit(&ctl->cmd);
	if (ctl->epfd >= 0)
		close(ctl->epfd);
	ctl->epfd = -1;
}
