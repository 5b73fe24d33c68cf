/* SPDX-License-Identifier: GPL-2.0 */
/*
 * source: the listener's sockets, their stream connections, and what each
 * message received becomes.
 */
#ifndef NSLOG_SL_SOURCE_H
#define NSLOG_SL_SOURCE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "frame.h"
#include "store.h"

/* A container's name: [A-Za-z0-9_.-], not starting with '.'. */
#define NSLOG_SL_NAME_MAX	64
/* Sockets, one a container, and the command line's. */
#define NSLOG_SL_SOURCES_MAX	4096
/*
 * Stream connections: in all, and on one socket (so that one container
 * cannot take them all).
 */
#define NSLOG_SL_CONNS_MAX	1024
#define NSLOG_SL_SOURCE_CONNS_MAX	256
/* Datagrams read, or reads of a connection, before the others are served. */
#define NSLOG_SL_READS_PER_WAKE	64

/* What epoll's data.ptr points at: each object starts with one. */
enum nslog_sl_kind {
	NSLOG_SL_EV_SOURCE,
	NSLOG_SL_EV_CONN,
	NSLOG_SL_EV_CONTROL,
	NSLOG_SL_EV_SIGNAL,
};

struct nslog_sl_counts {
	uint64_t received;		/* messages */
	uint64_t result[NSLOG_SL_RESULTS];
	uint64_t no_pri;		/* stored with the default PRI */
	uint64_t cut;			/* longer than a record: cut */
	uint64_t nul;			/* NUL bytes made spaces */
	uint64_t conns_refused;		/* over the connection limits */
	uint64_t fds_closed;		/* fds a sender passed, closed */
};

struct nslog_sl_source {
	enum nslog_sl_kind kind;	/* NSLOG_SL_EV_SOURCE */
	char name[NSLOG_SL_NAME_MAX + 1];	/* "" for the command line's */
	char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	int sock;
	int type;			/* SOCK_DGRAM or SOCK_STREAM */
	enum nslog_sl_attach how;
	int set_fd;			/* NSLOG_SL_TIED: a file of the set */
	bool owns_fd;			/* close @set_fd with the source */
	uint64_t ns_id;			/* NSLOG_SL_TIED: the set's namespace */
	unsigned int conns;
	unsigned int logged;		/* results already logged, a bit each */
	struct nslog_sl_counts n;
};

struct nslog_sl_conn {
	enum nslog_sl_kind kind;	/* NSLOG_SL_EV_CONN */
	struct nslog_sl_source *src;
	int fd;
	struct ucred cred;		/* of the last bytes read */
	struct nslog_sl_conn *prev, *next;	/* the listener's list */
	struct nslog_sl_framer fr;
};

/* The listener: its store, its sockets, its epoll set. */
struct nslog_sl_listener {
	struct nslog_sl_store store;
	int epfd;
	struct nslog_sl_source *src[NSLOG_SL_SOURCES_MAX];
	unsigned int nsrc;
	unsigned int conns;
	struct nslog_sl_conn *conn_list;
	unsigned int conns_max;		/* NSLOG_SL_CONNS_MAX, or fewer fds */
	int64_t (*now_ns)(void);	/* CLOCK_REALTIME, or the tests' */
	/* the message being framed, for nslog_sl_frame_feed()'s callback */
	struct nslog_sl_source *cur_src;
	const struct ucred *cur_cred;
	int64_t cur_time;
};

void nslog_sl_listener_init(struct nslog_sl_listener *l, int epfd,
			    nslog_sl_relay_fn *relay, int own_fd);
int nslog_sl_source_add(struct nslog_sl_listener *l, const char *name,
			const char *path, int type, enum nslog_sl_attach how,
			int set_fd, bool owns_fd, uint64_t ns_id,
			struct nslog_sl_source **out);
struct nslog_sl_source *nslog_sl_source_find(struct nslog_sl_listener *l,
					     const char *name);
void nslog_sl_source_tie(struct nslog_sl_source *s, int set_fd,
			 uint64_t ns_id);
void nslog_sl_source_remove(struct nslog_sl_listener *l,
			    struct nslog_sl_source *s, bool unlink_path);
void nslog_sl_take(struct nslog_sl_listener *l, struct nslog_sl_source *s,
		   const char *buf, size_t len, bool cut,
		   const struct ucred *cred, int64_t time_ns);
int nslog_sl_source_ready(struct nslog_sl_listener *l,
			  struct nslog_sl_source *s);
void nslog_sl_conn_ready(struct nslog_sl_listener *l, struct nslog_sl_conn *c,
			 uint32_t events);
int nslog_sl_counts_line(char *buf, size_t size,
			 const struct nslog_sl_source *s);

#endif /* NSLOG_SL_SOURCE_H */
