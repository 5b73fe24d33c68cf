// SPDX-License-Identifier: GPL-2.0
/*
 * reader: logdr (shared/reference/logd-protocol.md, "Readers").
 *
 * A client connects, sends one command (rdcmd.c) and gets records, one
 * message each: struct logger_entry v4 and the payload (frame.c), merged
 * across the logs it asked for in nslogger's order (merge.c).
 *
 * Each connection opens its own read fd on each of its logs (rdlog.c), so
 * the kernel keeps its place: the records are never copied into nslogd,
 * and a connection's memory is one record buffer per log (4132 bytes)
 * and its struct, whatever it asked for and however far behind it is.
 * Everything waits in one epoll set, which nslogd's poll() loop watches:
 * the listening socket, a timerfd, each connection's socket and each of
 * its log fds that ran dry (EPOLLONESHOT, armed again when it runs dry
 * again). Nothing sleeps and nothing polls on a timer.
 *
 * Fairness: a turn serves each ready connection at most NSLOGD_RD_BURST
 * records (filtered ones count), then the next; one with more to send is
 * queued for the next turn, and nslogd's loop does not wait while any is.
 *
 * A reader that stops reading: sends are non-blocking; when its socket
 * is full the record is kept framed in its buffer and the connection
 * waits for EPOLLOUT, reading nothing more from the kernel, so it holds up
 * no other reader and no writer (the ring overwrites what it did not read:
 * the kernel counts that in @lost, which logd's protocol cannot tell a
 * reader, so it is counted in the stats). A record left unsent for
 * NSLOGD_RD_SEND_TIMEOUT_NS (logd's send timeout, 32 s) disconnects it.
 *
 * Who reads what, logd's rule: a reader with log credentials (uid or gid
 * root, system or log, or log among its groups: logcred.c, on its
 * SO_PEERCRED) sees every uid's records; any other only records of its
 * own uid. Only uid or gid system is given the security log. Android 13's
 * consent dialog (binder) is not asked: the rule is Android 12's.
 *
 * tail=N: the records the reader may see are counted first, from each
 * log's oldest (or, when nothing filters, its last N) up to the head each
 * had when the command came (NSLOG_IOC_INFO); each log is then seeked
 * back (NSLOG_IOC_SEEK) and the merge skips all but the last N. Counting
 * reads at most NSLOGD_RD_BURST * 4 records a turn. dumpAndClose ends at
 * those heads too, or at the first log run dry, whichever comes first,
 * and then the connection is closed: the client reads the records queued
 * and then end of file. start= drops records older than it (the writer's
 * claimed time); with timeout= the connection is held that many seconds
 * before anything is sent (logcat's wrap mode; logd also lets it go when
 * its buffer is about to wrap, which nslogd does not watch).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "frame.h"
#include "logcred.h"
#include "reader.h"

enum {
	RTAG_LISTEN = 0,
	RTAG_TIMER,
	RTAG_SOCK,
	RTAG_LOG,
};

/* Events one epoll_wait() takes. */
#define RD_EVENTS		64
/* Reads one turn of counting (tail=) makes. */
#define RD_COUNT_BUDGET		(NSLOGD_RD_BURST * 4)
#define RD_NO_DEADLINE		INT64_MAX

/**
 * nslogd_reader_lids() - the log ids a reader may be given
 * @cred: the reader's credentials
 * @lids: the ids it asked for (bit per id)
 *
 * Context: any.
 * Return: @lids without security (6) unless the reader's uid or gid is
 * system (1000).
 */
uint32_t nslogd_reader_lids(const struct ucred *cred, uint32_t lids)
{
	if (cred->uid != NSLOGD_AID_SYSTEM && cred->gid != NSLOGD_AID_SYSTEM)
		lids &= ~(1u << NSLOGD_LOG_SECURITY);
	return lids;
}

/**
 * nslogd_reader_visible() - whether a connection is sent a record
 * @c: the connection, its command parsed
 * @h: the record's header
 *
 * Context: any.
 * Return: true if the uid rule, pid= and start= all let it through.
 */
bool nslogd_reader_visible(const struct nslogd_rconn *c,
			   const struct nslog_entry *h)
{
	if (!c->privileged && h->euid != c->cred.uid)
		return false;
	if (c->cmd.pid && h->pid != c->cmd.pid)
		return false;
	if (c->cmd.has_start && h->time_ns < c->cmd.start_ns)
		return false;
	return true;
}

/* Nothing but the uid rule and the command's filters: all may be seen. */
static bool unfiltered(const struct nslogd_rconn *c)
{
	return c->privileged && !c->cmd.pid && !c->cmd.has_start;
}

static void arm_timer(struct nslogd_reader *rd, int64_t at)
{
	struct itimerspec its = { { 0, 0 }, { 0, 0 } };

	if (at != RD_NO_DEADLINE) {
		if (at <= 0)
			at = 1;		/* 0 would disarm it */
		its.it_value.tv_sec = at / 1000000000LL;
		its.it_value.tv_nsec = at % 1000000000LL;
	}
	timerfd_settime(rd->tfd, TFD_TIMER_ABSTIME, &its, NULL);
}

static void set_deadline(struct nslogd_rconn *c, struct nslogd_reader *rd,
			 int64_t at)
{
	c->deadline_ns = at;
	if (at < rd->next_deadline) {
		rd->next_deadline = at;
		arm_timer(rd, at);
	}
}

static void queue_ready(struct nslogd_reader *rd, struct nslogd_rconn *c)
{
	if (c->ready || c->dead)
		return;
	c->ready = true;
	c->ready_next = NULL;
	*rd->ready_tail = c;
	rd->ready_tail = &c->ready_next;
}

static void resume_listening(struct nslogd_reader *rd)
{
	struct epoll_event ev = { .events = EPOLLIN,
				  .data.ptr = &rd->listen_tag };

	if (rd->listen_paused &&
	    !epoll_ctl(rd->epfd, EPOLL_CTL_MOD, rd->lfd, &ev))
		rd->listen_paused = false;
}

/*
 * Close a connection: its fds now (closing them takes them out of the
 * epoll set), its memory at the end of the turn, as later events of the
 * same turn may still name it.
 */
static void conn_close(struct nslogd_reader *rd, struct nslogd_rconn *c)
{
	if (c->dead)
		return;
	c->dead = true;
	rd->st.lost += c->m.lost;
	rd->st.bad += c->m.bad;
	nslogd_merge_free(&c->m);
	close(c->fd);
	if (c->prev)
		c->prev->next = c->next;
	else
		rd->conns = c->next;
	if (c->next)
		c->next->prev = c->prev;
	c->next = rd->dead;
	rd->dead = c;
	rd->nconns--;
	resume_listening(rd);
}

static int sock_events(struct nslogd_reader *rd, struct nslogd_rconn *c,
		       bool out)
{
	struct epoll_event ev = {
		.events = EPOLLIN | EPOLLRDHUP | (out ? EPOLLOUT : 0),
		.data.ptr = &c->sock_tag,
	};

	c->out_armed = out;
	return epoll_ctl(rd->epfd, EPOLL_CTL_MOD, c->fd, &ev);
}

/* Wait for each log that ran dry; each fires once, then is disarmed. */
static void arm_drained(struct nslogd_reader *rd, struct nslogd_rconn *c)
{
	unsigned int i;

	for (i = 0; i < c->m.n; i++) {
		struct epoll_event ev = { .events = EPOLLIN | EPOLLONESHOT,
					  .data.ptr = &c->log_tag[i] };

		if (c->m.src[i].state != NSLOGD_MSRC_DRAINED || c->armed[i])
			continue;
		if (epoll_ctl(rd->epfd, c->registered[i] ? EPOLL_CTL_MOD :
				EPOLL_CTL_ADD, c->m.src[i].fd, &ev)) {
			/* cannot wait for it: the log ends for this reader */
			c->m.src[i].state = NSLOGD_MSRC_DONE;
			c->m.src[i].err = errno;
			continue;
		}
		c->registered[i] = true;
		c->armed[i] = true;
	}
}

static void start_sending(struct nslogd_reader *rd, struct nslogd_rconn *c,
			  int64_t now_ns)
{
	if (c->cmd.has_start && c->cmd.has_timeout && c->cmd.timeout_s) {
		c->state = NSLOGD_RCONN_HELD;
		set_deadline(c, rd, now_ns +
			     (int64_t)c->cmd.timeout_s * 1000000000LL);
		return;
	}
	c->state = NSLOGD_RCONN_SEND;
	queue_ready(rd, c);
}

/* tail=: where each log's counting starts and stops; seek there. */
static void count_setup(struct nslogd_reader *rd, struct nslogd_rconn *c)
{
	unsigned int i;

	for (i = 0; i < c->m.n; i++) {
		struct nslogd_msrc *s = &c->m.src[i];
		struct nslog_info info;
		struct nslog_seek seek = { 0 };
		int err;

		c->run_stop[i] = s->stop_seq;
		err = rd->ops.info(rd->ops.ctx, s->fd, &info);
		if (!err) {
			seek.seq = info.tail_seq;
			if (unfiltered(c) &&
			    info.head_seq - info.tail_seq > c->cmd.tail)
				seek.seq = info.head_seq - c->cmd.tail;
			err = rd->ops.seek(rd->ops.ctx, s->fd, &seek);
		}
		if (err) {
			s->state = NSLOGD_MSRC_DONE;
			s->err = -err;
			continue;
		}
		c->start_seq[i] = seek.seq;
		if (info.head_seq < s->stop_seq)
			s->stop_seq = info.head_seq;
		s->stop_drained = true;
	}
	c->count_src = 0;
	c->counted = 0;
	c->state = NSLOGD_RCONN_COUNT;
	queue_ready(rd, c);
}

/* tail=: count a turn's worth; when done, rewind and start sending. */
static void conn_count(struct nslogd_reader *rd, struct nslogd_rconn *c,
		       int64_t now_ns)
{
	unsigned int budget = RD_COUNT_BUDGET, i;
	uint64_t lost = c->m.lost;

	while (budget && c->count_src < c->m.n) {
		struct nslogd_msrc *s = &c->m.src[c->count_src];

		if (s->state == NSLOGD_MSRC_DONE) {
			c->count_src++;
			continue;
		}
		nslogd_merge_fill(&c->m, s);
		budget--;
		if (s->state == NSLOGD_MSRC_HAVE) {
			if (nslogd_reader_visible(c, &s->hdr))
				c->counted++;
			nslogd_merge_consume(s);
		}
	}
	c->m.lost = lost;	/* read again below, and told then */
	if (c->count_src < c->m.n) {
		queue_ready(rd, c);
		return;
	}

	for (i = 0; i < c->m.n; i++) {
		struct nslogd_msrc *s = &c->m.src[i];
		struct nslog_seek seek = { .seq = c->start_seq[i] };
		int err;

		if (s->err)
			continue;	/* broken: stays done */
		err = rd->ops.seek(rd->ops.ctx, s->fd, &seek);
		if (err) {
			s->err = -err;
			continue;
		}
		s->state = NSLOGD_MSRC_EMPTY;
		s->stop_seq = c->run_stop[i];
		s->stop_drained = !c->cmd.stream;
	}
	c->skip = c->counted > c->cmd.tail ? c->counted - c->cmd.tail : 0;
	start_sending(rd, c, now_ns);
}

/* The logs of the command: opened, into the merge, limits set. */
static int conn_setup(struct nslogd_reader *rd, struct nslogd_rconn *c,
		      int64_t now_ns)
{
	uint32_t lids = nslogd_reader_lids(&c->cred, c->cmd.lids);
	unsigned int id, i;

	for (id = 0; id < NSLOGD_MERGE_LOGS; id++) {
		int fd;

		if (!(lids & (1u << id)))
			continue;
		fd = rd->ops.open(rd->ops.ctx, id);
		if (fd == -EMFILE || fd == -ENFILE)
			return fd;	/* the reader would miss records */
		if (fd == -ENOENT && id >= NSLOGD_STREAM_FIRST)
			continue;	/* no streams at all: an empty log */
		if (fd < 0) {
			rd->st.open_failed++;
			if (!rd->told_open)
				fprintf(stderr,
					"nslogd: logdr: log %u: %s; such failures are only counted from now on\n",
					id, strerror(-fd));
			rd->told_open = true;
			continue;
		}
		if (nslogd_merge_add(&c->m, id, fd))
			return -ENOMEM;
	}
	for (i = 0; i < c->m.n; i++) {
		struct nslogd_msrc *s = &c->m.src[i];
		struct nslog_info info;

		c->log_tag[i] = (struct nslogd_rtag){ RTAG_LOG, (unsigned char)i,
						      c };
		if (c->cmd.stream)
			continue;
		/* a dump ends at the head each log has now, or when dry */
		s->stop_drained = true;
		if (!rd->ops.info(rd->ops.ctx, s->fd, &info))
			s->stop_seq = info.head_seq;
	}
	if (c->cmd.tail)
		count_setup(rd, c);
	else
		start_sending(rd, c, now_ns);
	return 0;
}

/* CMD: the one command. */
static void conn_command(struct nslogd_reader *rd, struct nslogd_rconn *c,
			 int64_t now_ns)
{
	char buf[NSLOGD_RDCMD_MAX + 1];
	ssize_t n;
	int err;

	n = recv(c->fd, buf, sizeof(buf), MSG_DONTWAIT | MSG_TRUNC);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		conn_close(rd, c);	/* gone before its command */
		return;
	}
	err = nslogd_rdcmd_parse(buf, (size_t)n, &c->cmd);
	if (err) {
		if (err == -EMSGSIZE)
			rd->st.oversized++;
		else
			rd->st.garbage++;
		conn_close(rd, c);
		return;
	}
	if (conn_setup(rd, c, now_ns))
		conn_close(rd, c);
}

/* SEND: send what may be sent, up to a turn's worth. */
static void conn_send(struct nslogd_reader *rd, struct nslogd_rconn *c,
		      int64_t now_ns)
{
	unsigned int budget;
	ssize_t r;

	if (c->pending) {
		r = send(c->fd, c->pending_msg, c->pending_len,
			 MSG_DONTWAIT | MSG_NOSIGNAL);
		if (r < 0 && (errno == EAGAIN || errno == EINTR))
			return;		/* still full: EPOLLOUT is armed */
		if (r < 0) {
			conn_close(rd, c);
			return;
		}
		rd->st.sent++;
		c->sent++;
		nslogd_merge_consume(c->pending);
		c->pending = NULL;
		c->deadline_ns = 0;
		if (sock_events(rd, c, false)) {
			conn_close(rd, c);
			return;
		}
	}

	for (budget = NSLOGD_RD_BURST; budget; budget--) {
		struct nslogd_msrc *s;
		const void *msg;
		size_t len;

		switch (nslogd_merge_next(&c->m, &s)) {
		case NSLOGD_MERGE_WAIT:
			arm_drained(rd, c);
			return;
		case NSLOGD_MERGE_END:
			if (!c->cmd.stream)
				rd->st.dumps++;
			conn_close(rd, c);
			return;
		case NSLOGD_MERGE_REC:
			break;
		}
		if (!nslogd_reader_visible(c, &s->hdr)) {
			nslogd_merge_consume(s);
			continue;
		}
		if (c->skip) {
			c->skip--;
			nslogd_merge_consume(s);
			continue;
		}
		msg = nslogd_frame_v4(s->buf, &s->hdr, &len);
		r = send(c->fd, msg, len, MSG_DONTWAIT | MSG_NOSIGNAL);
		if (r < 0 && (errno == EAGAIN || errno == EINTR)) {
			c->pending = s;
			c->pending_msg = msg;
			c->pending_len = len;
			if (sock_events(rd, c, true)) {
				conn_close(rd, c);
				return;
			}
			set_deadline(c, rd, now_ns + rd->send_timeout_ns);
			return;
		}
		if (r < 0) {
			conn_close(rd, c);	/* EPIPE, ECONNRESET */
			return;
		}
		rd->st.sent++;
		c->sent++;
		nslogd_merge_consume(s);
	}
	queue_ready(rd, c);
}

static void conn_serve(struct nslogd_reader *rd, struct nslogd_rconn *c,
		       int64_t now_ns)
{
	switch (c->state) {
	case NSLOGD_RCONN_CMD:
		conn_command(rd, c, now_ns);
		break;
	case NSLOGD_RCONN_COUNT:
		conn_count(rd, c, now_ns);
		break;
	case NSLOGD_RCONN_HELD:
		break;
	case NSLOGD_RCONN_SEND:
		conn_send(rd, c, now_ns);
		break;
	}
}

/* An event on a connection's socket. */
static void sock_event(struct nslogd_reader *rd, struct nslogd_rconn *c,
		       uint32_t events, int64_t now_ns)
{
	char b;
	ssize_t n;

	if (c->state == NSLOGD_RCONN_CMD) {
		conn_command(rd, c, now_ns);
		return;
	}
	if (events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR)) {
		n = recv(c->fd, &b, 1, MSG_DONTWAIT | MSG_PEEK);
		if (n > 0)
			rd->st.second++;	/* logd disconnects it too */
		if (n >= 0 || (errno != EAGAIN && errno != EINTR)) {
			conn_close(rd, c);
			return;
		}
	}
	if ((events & EPOLLOUT) && c->pending)
		queue_ready(rd, c);
}

/* A log that ran dry has a record again (or hung up). */
static void log_event(struct nslogd_reader *rd, struct nslogd_rconn *c,
		      unsigned int i)
{
	if (i >= c->m.n)
		return;
	c->armed[i] = false;
	if (c->m.src[i].state == NSLOGD_MSRC_DRAINED)
		c->m.src[i].state = NSLOGD_MSRC_EMPTY;
	if (!c->pending && c->state == NSLOGD_RCONN_SEND)
		queue_ready(rd, c);
}

static void accept_conns(struct nslogd_reader *rd)
{
	unsigned int i;

	for (i = 0; i < NSLOGD_RD_ACCEPTS; i++) {
		struct epoll_event ev = { .events = EPOLLIN | EPOLLRDHUP };
		struct nslogd_rconn *c;
		socklen_t len = sizeof(struct ucred);
		int fd;

		fd = accept4(rd->lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd < 0) {
			if (errno == EMFILE || errno == ENFILE ||
			    errno == ENOBUFS || errno == ENOMEM) {
				/* wait for a connection to close */
				struct epoll_event off = {
					.events = 0, .data.ptr = &rd->listen_tag };

				if (!epoll_ctl(rd->epfd, EPOLL_CTL_MOD, rd->lfd,
					       &off))
					rd->listen_paused = true;
			}
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			return;
		}
		if (rd->nconns >= rd->max_conns) {
			rd->st.full++;
			close(fd);
			continue;
		}
		c = calloc(1, sizeof(*c));
		if (!c) {
			close(fd);
			continue;
		}
		c->fd = fd;
		if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &c->cred, &len)) {
			close(fd);
			free(c);
			continue;
		}
		c->privileged = rd->logcred(&c->cred);
		nslogd_merge_init(&c->m, &rd->ops);
		c->sock_tag = (struct nslogd_rtag){ RTAG_SOCK, 0, c };
		ev.data.ptr = &c->sock_tag;
		if (epoll_ctl(rd->epfd, EPOLL_CTL_ADD, fd, &ev)) {
			close(fd);
			free(c);
			continue;
		}
		c->next = rd->conns;
		if (c->next)
			c->next->prev = c;
		rd->conns = c;
		rd->nconns++;
		rd->st.accepted++;
	}
}

/* Deadlines due: held connections go, stuck ones are disconnected. */
static void run_deadlines(struct nslogd_reader *rd, int64_t now_ns)
{
	struct nslogd_rconn *c, *next;
	int64_t soonest = RD_NO_DEADLINE;

	for (c = rd->conns; c; c = next) {
		next = c->next;
		if (!c->deadline_ns)
			continue;
		if (c->deadline_ns > now_ns) {
			if (c->deadline_ns < soonest)
				soonest = c->deadline_ns;
			continue;
		}
		c->deadline_ns = 0;
		if (c->state == NSLOGD_RCONN_HELD) {
			c->state = NSLOGD_RCONN_SEND;
			queue_ready(rd, c);
		} else if (c->pending) {
			rd->st.slow++;
			conn_close(rd, c);
		}
	}
	rd->next_deadline = soonest;
	arm_timer(rd, soonest);
}

/**
 * nslogd_reader_run() - one turn: events, deadlines, ready connections
 * @rd: the reader
 * @now_ns: CLOCK_MONOTONIC now (the tests' own)
 *
 * Does not wait: takes what epoll has, serves each ready connection up to
 * NSLOGD_RD_BURST records, and frees the connections closed.
 *
 * Context: nslogd's loop, when nslogd_reader_fd() is readable or
 * nslogd_reader_busy().
 * Return: 1 if connections are left ready for another turn, else 0;
 * -errno if epoll_wait() failed.
 */
int nslogd_reader_run(struct nslogd_reader *rd, int64_t now_ns)
{
	struct epoll_event ev[RD_EVENTS];
	struct nslogd_rconn *c, *list;
	int n, i;

	n = epoll_wait(rd->epfd, ev, RD_EVENTS, 0);
	if (n < 0 && errno != EINTR)
		return -errno;
	for (i = 0; i < n; i++) {
		struct nslogd_rtag *t = ev[i].data.ptr;

		switch (t->kind) {
		case RTAG_LISTEN:
			accept_conns(rd);
			break;
		case RTAG_TIMER: {
			uint64_t expired;

			/* the deadlines are checked against @now_ns below */
			if (read(rd->tfd, &expired, sizeof(expired)) < 0)
				break;
			break;
		}
		case RTAG_SOCK:
			if (!t->c->dead)
				sock_event(rd, t->c, ev[i].events, now_ns);
			break;
		case RTAG_LOG:
			if (!t->c->dead)
				log_event(rd, t->c, t->idx);
			break;
		}
	}
	if (now_ns >= rd->next_deadline)
		run_deadlines(rd, now_ns);

	list = rd->ready;
	rd->ready = NULL;
	rd->ready_tail = &rd->ready;
	while (list) {
		c = list;
		list = c->ready_next;
		c->ready = false;
		if (!c->dead)
			conn_serve(rd, c, now_ns);
	}

	while (rd->dead) {
		c = rd->dead;
		rd->dead = c->next;
		free(c);
	}
	return rd->ready != NULL;
}

/**
 * nslogd_reader_init() - serve readers on a listening socket
 * @rd: the reader
 * @lfd: logdr, listening and non-blocking; not closed by the reader
 * @ops: the kernel's operations (copied)
 * @logcred: whether a peer has log credentials (nslogd_logcred())
 *
 * Context: process.
 * Return: 0 or -errno.
 */
int nslogd_reader_init(struct nslogd_reader *rd, int lfd,
		       const struct nslogd_rdops *ops,
		       nslogd_logcred_fn *logcred)
{
	struct epoll_event ev = { .events = EPOLLIN };
	int err;

	memset(rd, 0, sizeof(*rd));
	rd->lfd = lfd;
	rd->ops = *ops;
	rd->logcred = logcred;
	rd->max_conns = NSLOGD_READERS_MAX;
	rd->send_timeout_ns = NSLOGD_RD_SEND_TIMEOUT_NS;
	rd->next_deadline = RD_NO_DEADLINE;
	rd->ready_tail = &rd->ready;
	rd->listen_tag.kind = RTAG_LISTEN;
	rd->timer_tag.kind = RTAG_TIMER;

	rd->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (rd->epfd < 0)
		return -errno;
	rd->tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (rd->tfd < 0)
		goto err_epoll;
	ev.data.ptr = &rd->timer_tag;
	if (epoll_ctl(rd->epfd, EPOLL_CTL_ADD, rd->tfd, &ev))
		goto err_timer;
	ev.data.ptr = &rd->listen_tag;
	if (epoll_ctl(rd->epfd, EPOLL_CTL_ADD, lfd, &ev))
		goto err_timer;
	return 0;

err_timer:
	err = -errno;
	close(rd->tfd);
	close(rd->epfd);
	return err;
err_epoll:
	err = -errno;
	close(rd->epfd);
	return err;
}

/**
 * nslogd_reader_exit() - close every connection, the timer and the epoll set
 * @rd: the reader
 *
 * Context: process.
 */
void nslogd_reader_exit(struct nslogd_reader *rd)
{
	struct nslogd_rconn *c;

	while (rd->conns)
		conn_close(rd, rd->conns);
	while (rd->dead) {
		c = rd->dead;
		rd->dead = c->next;
		free(c);
	}
	rd->ready = NULL;
	rd->ready_tail = &rd->ready;
	close(rd->tfd);
	close(rd->epfd);
}

/**
 * nslogd_rdstats_format() - the readers' counters on one line
 * @st: the counters
 * @buf: where to write, NUL-terminated
 * @size: its size
 *
 * "logdr: accepted N full N garbage N oversized N second-command N slow N
 * dumps N sent N lost N bad N open-failed N".
 *
 * Context: any.
 * Return: the length the whole line has (as snprintf()).
 */
size_t nslogd_rdstats_format(const struct nslogd_rdstats *st, char *buf,
			     size_t size)
{
	int n = snprintf(buf, size,
			 "logdr: accepted %llu full %llu garbage %llu oversized %llu second-command %llu slow %llu dumps %llu sent %llu lost %llu bad %llu open-failed %llu",
			 (unsigned long long)st->accepted,
			 (unsigned long long)st->full,
			 (unsigned long long)st->garbage,
			 (unsigned long long)st->oversized,
			 (unsigned long long)st->second,
			 (unsigned long long)st->slow,
			 (unsigned long long)st->dumps,
			 (unsigned long long)st->sent,
			 (unsigned long long)st->lost,
			 (unsigned long long)st->bad,
			 (unsigned long long)st->open_failed);

	return n < 0 ? 0 : (size_t)n;
}
