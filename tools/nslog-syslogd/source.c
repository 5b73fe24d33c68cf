// SPDX-License-Identifier: GPL-2.0
/*
 * source: the listener's sockets and connections.
 *
 * A source is one socket at one path: a datagram socket (what journald and
 * rsyslog serve at /dev/log, and what every sender tries first) or a
 * stream socket (glibc falls back to one; framing in frame.c).  Each is
 * tied to one log set or takes each sender's own (store.c).
 *
 * Every message is parsed (parse.c), made a record (record.c), stored
 * (store.c) and counted here, in the order received; nothing blocks: the
 * sockets are non-blocking and the relay drops rather than waits.  A
 * sender on one socket is never held up by another socket's: each has its
 * own queue in the kernel, and the loop reads at most
 * NSLOG_SL_READS_PER_WAKE times from one before it serves the next.
 *
 * Memory: a source is a small fixed structure; a stream connection is
 * one framer, NSLOG_SL_MSG_MAX bytes and a little more, and there are at
 * most conns_max of them (NSLOG_SL_SOURCE_CONNS_MAX on one socket).  A
 * connection over either limit is accepted and closed at once, counted.
 * fds a sender passes (SCM_RIGHTS) are closed unread.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "parse.h"
#include "record.h"
#include "source.h"

/* Room for the credentials and a few fds, which are closed. */
#define CMSG_ROOM	(CMSG_SPACE(sizeof(struct ucred)) + \
			 CMSG_SPACE(16 * sizeof(int)))

/**
 * nslog_sl_listener_init() - a listener with no socket yet
 * @l: the listener
 * @epfd: its epoll fd
 * @relay: nslog_sl_relay_ioctl(), or the tests' stand-in
 * @own_fd: a write fd of the listener's own set's main log
 *
 * Context: any.
 */
void nslog_sl_listener_init(struct nslog_sl_listener *l, int epfd,
			    nslog_sl_relay_fn *relay, int own_fd)
{
	memset(l, 0, sizeof(*l));
	l->epfd = epfd;
	l->store.relay = relay;
	l->store.own_fd = own_fd;
	l->conns_max = NSLOG_SL_CONNS_MAX;
}

/* The socket itself: bound at @path (a stale socket there replaced). */
static int make_socket(const char *path, int type)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	struct stat st;
	int fd, one = 1, err;

	if (strlen(path) >= sizeof(a.sun_path))
		return -ENAMETOOLONG;
	strcpy(a.sun_path, path);
	if (!lstat(path, &st)) {
		if (!S_ISSOCK(st.st_mode))
			return -EEXIST;
		if (unlink(path))
			return -errno;
	}
	fd = socket(AF_UNIX, type | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (setsockopt(fd, SOL_SOCKET, SO_PASSCRED, &one, sizeof(one)) ||
	    bind(fd, (struct sockaddr *)&a, sizeof(a)))
		goto err_close;
	/* anyone may write to /dev/log; the bind already honours umask */
	if (chmod(path, 0666))
		goto err_unlink;
	if (type == SOCK_STREAM && listen(fd, 128))
		goto err_unlink;
	return fd;

err_unlink:
	err = errno;
	unlink(path);
	close(fd);
	return -err;
err_close:
	err = errno;
	close(fd);
	return -err;
}

/**
 * nslog_sl_source_add() - a new socket of the listener
 * @l: the listener
 * @name: a container's name, or "" for a socket of the command line
 * @path: where to bind it
 * @type: SOCK_DGRAM or SOCK_STREAM
 * @how: NSLOG_SL_TIED (@set_fd is a file of the set) or NSLOG_SL_WRITERS
 * @set_fd: see @how; -1 for NSLOG_SL_WRITERS
 * @owns_fd: the source closes @set_fd when removed (and on failure here)
 * @ns_id: the set's namespace id, for listings
 * @out: set to the source, if not NULL
 *
 * Context: process.
 * Return: 0, or -errno: -ENOSPC (NSLOG_SL_SOURCES_MAX), -EEXIST (the name
 * is taken, or @path is something other than a socket), those of socket()
 * and bind().
 */
int nslog_sl_source_add(struct nslog_sl_listener *l, const char *name,
			const char *path, int type, enum nslog_sl_attach how,
			int set_fd, bool owns_fd, uint64_t ns_id,
			struct nslog_sl_source **out)
{
	struct epoll_event ev = { .events = EPOLLIN };
	struct nslog_sl_source *s;
	int ret;

	ret = -ENOSPC;
	if (l->nsrc >= NSLOG_SL_SOURCES_MAX)
		goto err_fd;
	ret = -EEXIST;
	if (*name && nslog_sl_source_find(l, name))
		goto err_fd;
	ret = -ENOMEM;
	s = calloc(1, sizeof(*s));
	if (!s)
		goto err_fd;
	s->kind = NSLOG_SL_EV_SOURCE;
	snprintf(s->name, sizeof(s->name), "%s", name);
	snprintf(s->path, sizeof(s->path), "%s", path);
	s->type = type;
	s->how = how;
	s->set_fd = set_fd;
	s->owns_fd = owns_fd;
	s->ns_id = ns_id;
	s->sock = make_socket(path, type);
	if (s->sock < 0) {
		ret = s->sock;
		goto err_free;
	}
	ev.data.ptr = s;
	if (epoll_ctl(l->epfd, EPOLL_CTL_ADD, s->sock, &ev)) {
		ret = -errno;
		goto err_sock;
	}
	l->src[l->nsrc++] = s;
	if (out)
		*out = s;
	return 0;

err_sock:
	close(s->sock);
	unlink(path);
err_free:
	free(s);
err_fd:
	if (owns_fd && set_fd >= 0)
		close(set_fd);
	return ret;
}

/**
 * nslog_sl_source_find() - a container's source by name
 * @l: the listener
 * @name: the name
 *
 * Context: any.
 * Return: the source, or NULL.
 */
struct nslog_sl_source *nslog_sl_source_find(struct nslog_sl_listener *l,
					     const char *name)
{
	unsigned int i;

	for (i = 0; i < l->nsrc; i++)
		if (l->src[i]->name[0] && !strcmp(l->src[i]->name, name))
			return l->src[i];
	return NULL;
}

/**
 * nslog_sl_source_tie() - tie a source to a set
 * @s: the source
 * @set_fd: a file of the set, which the source now owns
 * @ns_id: its namespace's id
 *
 * A file it had is closed: the next message goes to the new set.
 *
 * Context: process.
 */
void nslog_sl_source_tie(struct nslog_sl_source *s, int set_fd, uint64_t ns_id)
{
	if (s->owns_fd && s->set_fd >= 0)
		close(s->set_fd);
	s->how = NSLOG_SL_TIED;
	s->set_fd = set_fd;
	s->owns_fd = true;
	s->ns_id = ns_id;
}

static void conn_close(struct nslog_sl_listener *l, struct nslog_sl_conn *c);

/**
 * nslog_sl_source_remove() - close a source
 * @l: the listener
 * @s: the source, freed with its connections (what they had of a message
 *	is stored first)
 * @unlink_path: remove its socket from the file system too
 *
 * Context: process.
 */
void nslog_sl_source_remove(struct nslog_sl_listener *l,
			    struct nslog_sl_source *s, bool unlink_path)
{
	struct nslog_sl_conn *c, *next;
	unsigned int i;

	for (i = 0; i < l->nsrc; i++)
		if (l->src[i] == s)
			break;
	if (i == l->nsrc)
		return;
	for (c = l->conn_list; c; c = next) {
		next = c->next;
		if (c->src == s)
			conn_close(l, c);
	}
	l->src[i] = l->src[--l->nsrc];
	epoll_ctl(l->epfd, EPOLL_CTL_DEL, s->sock, NULL);
	close(s->sock);
	if (unlink_path)
		unlink(s->path);
	if (s->owns_fd && s->set_fd >= 0)
		close(s->set_fd);
	free(s);
}

/* The first failure of each kind on a source is logged; all are counted. */
static void log_once(struct nslog_sl_source *s, enum nslog_sl_result r,
		     int err)
{
	if (s->logged & (1u << r))
		return;
	s->logged |= 1u << r;
	fprintf(stderr,
		"nslog-syslogd: %s: a record %s%s%s (logged once; see the counts)\n",
		s->name[0] ? s->name : s->path, nslog_sl_result_name(r),
		err ? ": " : "", err ? strerror(err) : "");
}

/**
 * nslog_sl_take() - parse, store and count one message
 * @l: the listener
 * @s: the source it came on
 * @buf: the message, framing stripped but for a trailing newline or NUL
 * @len: its length
 * @cut: bytes of it were lost on the way (a datagram over
 *	 NSLOG_SL_MSG_MAX, a stream message over the framer's buffer)
 * @cred: the sender's SCM_CREDENTIALS, or NULL if none came
 * @time_ns: when it was received: the record's time
 *
 * Context: process; one or two ioctls.
 */
void nslog_sl_take(struct nslog_sl_listener *l, struct nslog_sl_source *s,
		   const char *buf, size_t len, bool cut,
		   const struct ucred *cred, int64_t time_ns)
{
	char payload[LOGGER_ENTRY_MAX_PAYLOAD];
	struct nslog_sl_msg m;
	struct nslog_sl_put p;
	enum nslog_sl_result r;
	unsigned int what;
	int err;

	nslog_sl_trim(buf, &len);
	if (!len)
		return;		/* an empty datagram is no message */
	s->n.received++;
	nslog_sl_parse(&m, buf, len);
	if (!m.pri_given)
		s->n.no_pri++;
	p.len = nslog_sl_record(payload, &m, &what);
	if (cut || (what & NSLOG_SL_REC_CUT))
		s->n.cut++;
	if (what & NSLOG_SL_REC_NUL)
		s->n.nul++;
	p.cred = cred;
	p.tid = m.claimed_pid;
	p.time_ns = time_ns;
	p.payload = payload;
	r = nslog_sl_store_put(&l->store, s->how, s->set_fd, &p, &err);
	s->n.result[r]++;
	if (r == NSLOG_SL_FAILED || r == NSLOG_SL_UNATTRIBUTED)
		log_once(s, r, err);
}

/* The credentials of a received message; passed fds are closed. */
static const struct ucred *take_cmsgs(struct msghdr *h,
				      struct nslog_sl_source *s)
{
	const struct ucred *cred = NULL;
	struct cmsghdr *c;

	for (c = CMSG_FIRSTHDR(h); c; c = CMSG_NXTHDR(h, c)) {
		if (c->cmsg_level != SOL_SOCKET)
			continue;
		if (c->cmsg_type == SCM_CREDENTIALS &&
		    c->cmsg_len >= CMSG_LEN(sizeof(*cred))) {
			cred = (const struct ucred *)CMSG_DATA(c);
		} else if (c->cmsg_type == SCM_RIGHTS) {
			size_t i, nfd = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
			int fd;

			for (i = 0; i < nfd; i++) {
				memcpy(&fd, CMSG_DATA(c) + i * sizeof(int),
				       sizeof(fd));
				close(fd);
				s->n.fds_closed++;
			}
		}
	}
	return cred;
}

static int64_t listener_now(struct nslog_sl_listener *l)
{
	struct timespec ts;

	if (l->now_ns)
		return l->now_ns();
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void conn_msg(void *ctx, const char *msg, size_t len, bool cut)
{
	struct nslog_sl_listener *l = ctx;

	nslog_sl_take(l, l->cur_src, msg, len, cut, l->cur_cred, l->cur_time);
}

static void conn_close(struct nslog_sl_listener *l, struct nslog_sl_conn *c)
{
	l->cur_src = c->src;
	l->cur_cred = &c->cred;
	l->cur_time = listener_now(l);
	nslog_sl_frame_end(&c->fr, conn_msg, l);
	if (c->prev)
		c->prev->next = c->next;
	else
		l->conn_list = c->next;
	if (c->next)
		c->next->prev = c->prev;
	epoll_ctl(l->epfd, EPOLL_CTL_DEL, c->fd, NULL);
	close(c->fd);
	c->src->conns--;
	l->conns--;
	free(c);
}

/**
 * nslog_sl_conn_ready() - read what a stream connection has
 * @l: the listener
 * @c: the connection; freed if it closed
 * @events: what epoll reported
 *
 * Each read's bytes are framed with the credentials that came with them:
 * a message is its last bytes' sender's.
 *
 * Context: process; does not block.
 */
void nslog_sl_conn_ready(struct nslog_sl_listener *l, struct nslog_sl_conn *c,
			 uint32_t events)
{
	union {
		char buf[CMSG_ROOM];
		struct cmsghdr align;
	} ctl;
	char data[4096];
	struct iovec iov = { .iov_base = data, .iov_len = sizeof(data) };
	struct msghdr h;
	unsigned int i;
	ssize_t n;

	for (i = 0; i < NSLOG_SL_READS_PER_WAKE; i++) {
		memset(&h, 0, sizeof(h));
		h.msg_iov = &iov;
		h.msg_iovlen = 1;
		h.msg_control = ctl.buf;
		h.msg_controllen = sizeof(ctl.buf);
		n = recvmsg(c->fd, &h, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			return;
		if (n <= 0) {
			conn_close(l, c);
			return;
		}
		l->cur_src = c->src;
		l->cur_cred = take_cmsgs(&h, c->src);
		l->cur_time = listener_now(l);
		if (l->cur_cred)
			c->cred = *l->cur_cred;
		l->cur_cred = &c->cred;
		nslog_sl_frame_feed(&c->fr, data, (size_t)n, conn_msg, l);
	}
	(void)events;
}

static void source_accept(struct nslog_sl_listener *l,
			  struct nslog_sl_source *s)
{
	struct epoll_event ev = { .events = EPOLLIN | EPOLLRDHUP };
	struct nslog_sl_conn *c;
	unsigned int i;
	int fd, one = 1;

	for (i = 0; i < NSLOG_SL_READS_PER_WAKE; i++) {
		fd = accept4(s->sock, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd < 0)
			return;
		if (l->conns >= l->conns_max ||
		    s->conns >= NSLOG_SL_SOURCE_CONNS_MAX)
			goto refuse;
		c = malloc(sizeof(*c));
		if (!c)
			goto refuse;
		c->kind = NSLOG_SL_EV_CONN;
		c->src = s;
		c->fd = fd;
		memset(&c->cred, 0, sizeof(c->cred));
		nslog_sl_frame_init(&c->fr);
		ev.data.ptr = c;
		if (setsockopt(fd, SOL_SOCKET, SO_PASSCRED, &one, sizeof(one)) ||
		    epoll_ctl(l->epfd, EPOLL_CTL_ADD, fd, &ev)) {
			free(c);
			goto refuse;
		}
		c->prev = NULL;
		c->next = l->conn_list;
		if (c->next)
			c->next->prev = c;
		l->conn_list = c;
		s->conns++;
		l->conns++;
		continue;
refuse:
		close(fd);
		if (!s->n.conns_refused++)
			fprintf(stderr,
				"nslog-syslogd: %s: connection refused: %u on this socket, %u in all (logged once)\n",
				s->name[0] ? s->name : s->path, s->conns,
				l->conns);
	}
}

/**
 * nslog_sl_source_ready() - serve a source's socket
 * @l: the listener
 * @s: the source
 *
 * A datagram socket: read up to NSLOG_SL_READS_PER_WAKE datagrams, each
 * a message (one longer than NSLOG_SL_MSG_MAX is cut there). A stream
 * socket: accept its waiting connections.
 *
 * Context: process; does not block.
 * Return: datagrams read, or -errno of a receive error other than
 * EAGAIN and EINTR.
 */
int nslog_sl_source_ready(struct nslog_sl_listener *l,
			  struct nslog_sl_source *s)
{
	union {
		char buf[CMSG_ROOM];
		struct cmsghdr align;
	} ctl;
	static char data[NSLOG_SL_MSG_MAX];
	struct iovec iov = { .iov_base = data, .iov_len = sizeof(data) };
	const struct ucred *cred;
	struct msghdr h;
	unsigned int i;
	ssize_t n;

	if (s->type == SOCK_STREAM) {
		source_accept(l, s);
		return 0;
	}
	for (i = 0; i < NSLOG_SL_READS_PER_WAKE; i++) {
		memset(&h, 0, sizeof(h));
		h.msg_iov = &iov;
		h.msg_iovlen = 1;
		h.msg_control = ctl.buf;
		h.msg_controllen = sizeof(ctl.buf);
		n = recvmsg(s->sock, &h, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
		if (n < 0) {
			if (errno == EAGAIN || errno == EINTR)
				break;
			return -errno;
		}
		cred = take_cmsgs(&h, s);
		nslog_sl_take(l, s, data, (size_t)n, h.msg_flags & MSG_TRUNC,
			      cred, listener_now(l));
	}
	return (int)i;
}

/**
 * nslog_sl_counts_line() - a source's counts as one line
 * @buf: filled in, NUL-terminated
 * @size: its size
 * @s: the source
 *
 * "NAME PATH TYPE ATTACH received=N stored=N ...": NAME "-" for a socket
 * of the command line, ATTACH "ipc:ID" or "writers".
 *
 * Context: any.
 * Return: as snprintf().
 */
int nslog_sl_counts_line(char *buf, size_t size,
			 const struct nslog_sl_source *s)
{
	char attach[32];

	if (s->how == NSLOG_SL_TIED)
		snprintf(attach, sizeof(attach), "ipc:%" PRIu64, s->ns_id);
	else
		snprintf(attach, sizeof(attach), "writers");
	return snprintf(buf, size,
			"%s %s %s %s conns=%u received=%" PRIu64
			" stored=%" PRIu64 " elsewhere=%" PRIu64
			" unattributed=%" PRIu64 " dropped=%" PRIu64
			" failed=%" PRIu64 " no_pri=%" PRIu64 " cut=%" PRIu64
			" nul=%" PRIu64 " conns_refused=%" PRIu64
			" fds_closed=%" PRIu64,
			s->name[0] ? s->name : "-", s->path,
			s->type == SOCK_STREAM ? "stream" : "dgram", attach,
			s->conns, s->n.received,
			s->n.result[NSLOG_SL_STORED],
			s->n.result[NSLOG_SL_ELSEWHERE],
			s->n.result[NSLOG_SL_UNATTRIBUTED],
			s->n.result[NSLOG_SL_DROPPED],
			s->n.result[NSLOG_SL_FAILED], s->n.no_pri, s->n.cut,
			s->n.nul, s->n.conns_refused, s->n.fds_closed);
}
