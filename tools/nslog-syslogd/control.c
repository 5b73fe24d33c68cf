// SPDX-License-Identifier: GPL-2.0
/*
 * control: how a runtime tells the host listener about its containers.
 *
 * DIR/control is a SOCK_SEQPACKET socket, mode 0600, and only a peer of
 * the listener's own uid is served: one command a connection, one reply.
 *
 *   add NAME [dgram|stream] [PID|ipc:ID]
 *	a socket at DIR/NAME/log (DIR/NAME made 0700, the socket 0666),
 *	for the runtime to bind at the container's /dev/log; with PID (any
 *	process of the container) or ipc:ID (its IPC namespace, whose set
 *	must exist) tied to that container's log set, else each sender's
 *	own set until "attach".  Reply "ok DIR/NAME/log ipc:ID|writers".
 *   attach NAME PID|ipc:ID
 *	tie an added socket to a set: done when the container's first
 *	process exists, if the socket had to be made before (a bind mount
 *	needs its source first)
 *   remove NAME
 *	close the socket, unlink it and DIR/NAME
 *   list
 *	one line a socket, nslog_sl_counts_line()'s
 *
 * A PID is read as the listener sees it: the host's, for a host
 * listener.  The set is opened through /proc/PID/ns/ipc with
 * NSLOG_IOC_OPEN_NS, which makes it if the container has logged nothing
 * yet, and is kept open: the fd is what a tied socket relays through.
 * DIR/NAME is 0700 so that no other user of the host reaches the socket
 * by its path; the container reaches it through its bind mount.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#include <linux/nslogger.h>

#include "control.h"

static bool name_ok(const char *s, size_t n)
{
	size_t i;

	if (!n || n > NSLOG_SL_NAME_MAX || s[0] == '.')
		return false;
	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_' &&
		    s[i] != '.' && s[i] != '-')
			return false;
	return true;
}

/* A decimal number of at most @max; -1 if @s is not one. */
static int64_t number(const char *s, uint64_t max)
{
	uint64_t v = 0;

	if (!*s || (*s == '0' && s[1]))
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		v = v * 10 + (uint64_t)(*s - '0');
		if (v > max)
			return -1;
	}
	return (int64_t)v;
}

static int parse_target(struct nslog_sl_cmd *c, const char *w)
{
	int64_t v;

	if (!strncmp(w, "ipc:", 4)) {
		v = number(w + 4, UINT32_MAX);
		if (v <= 0)
			return -1;
		c->target = NSLOG_SL_BY_ID;
		c->ns_id = (uint64_t)v;
		return 0;
	}
	v = number(w, INT32_MAX);
	if (v <= 0)
		return -1;
	c->target = NSLOG_SL_BY_PID;
	c->pid = (int)v;
	return 0;
}

/**
 * nslog_sl_cmd_parse() - a control command
 * @c: filled in
 * @line: the command, NUL-terminated, words separated by spaces (a
 *	  trailing newline allowed)
 * @why: set to what is wrong, on error
 *
 * Context: any.
 * Return: 0, or -EINVAL.
 */
int nslog_sl_cmd_parse(struct nslog_sl_cmd *c, const char *line,
		       const char **why)
{
	char buf[NSLOG_SL_CMD_MAX + 1], *w[5], *save = NULL, *t;
	int n = 0, i = 2;

	memset(c, 0, sizeof(*c));
	c->type = SOCK_DGRAM;
	*why = "command too long";
	if (strlen(line) > NSLOG_SL_CMD_MAX)
		return -EINVAL;
	strcpy(buf, line);
	for (t = strtok_r(buf, " \t\n", &save); t;
	     t = strtok_r(NULL, " \t\n", &save)) {
		*why = "too many words";
		if (n == 5)
			return -EINVAL;
		w[n++] = t;
	}
	*why = "no command";
	if (!n)
		return -EINVAL;
	if (!strcmp(w[0], "list")) {
		c->op = NSLOG_SL_LIST;
		*why = "list takes nothing";
		return n == 1 ? 0 : -EINVAL;
	}
	if (!strcmp(w[0], "add"))
		c->op = NSLOG_SL_ADD;
	else if (!strcmp(w[0], "attach"))
		c->op = NSLOG_SL_ATTACH;
	else if (!strcmp(w[0], "remove"))
		c->op = NSLOG_SL_REMOVE;
	else
		c->op = NSLOG_SL_LIST;	/* not a command: refused below */
	if (c->op == NSLOG_SL_LIST) {
		*why = "unknown command (add, attach, remove, list)";
		return -EINVAL;
	}
	*why = "bad or missing NAME ([A-Za-z0-9_.-], 1 to 64, not starting with '.')";
	if (n < 2 || !name_ok(w[1], strlen(w[1])))
		return -EINVAL;
	strcpy(c->name, w[1]);
	if (c->op == NSLOG_SL_REMOVE) {
		*why = "remove takes NAME only";
		return n == 2 ? 0 : -EINVAL;
	}
	if (c->op == NSLOG_SL_ADD && i < n &&
	    (!strcmp(w[i], "dgram") || !strcmp(w[i], "stream"))) {
		c->type = !strcmp(w[i], "stream") ? SOCK_STREAM : SOCK_DGRAM;
		i++;
	}
	if (i < n) {
		*why = "bad PID or ipc:ID";
		if (parse_target(c, w[i++]))
			return -EINVAL;
	}
	*why = "attach needs PID or ipc:ID";
	if (c->op == NSLOG_SL_ATTACH && c->target == NSLOG_SL_NO_SET)
		return -EINVAL;
	*why = "too many words";
	return i == n ? 0 : -EINVAL;
}

/**
 * nslog_sl_open_set() - a file of the set a command names
 * @own_fd: a file of a main log (the listener's own)
 * @c: a command with a target
 * @ns_id: set to the IPC namespace's id
 *
 * NSLOG_IOC_OPEN_NS: through /proc/PID/ns/ipc for a pid (the set is made
 * if need be), by id otherwise.
 *
 * Context: process; needs CAP_SYSLOG in the initial user namespace.
 * Return: a read fd of the set's main log, or -errno.
 */
int nslog_sl_open_set(int own_fd, const struct nslog_sl_cmd *c,
		      uint64_t *ns_id)
{
	struct nslog_open_ns arg = { .ns_fd = -1 };
	char path[64];
	struct stat st;
	int fd, err;

	if (c->target == NSLOG_SL_BY_ID) {
		arg.ns_id = c->ns_id;
		*ns_id = c->ns_id;
		fd = ioctl(own_fd, NSLOG_IOC_OPEN_NS, &arg);
		return fd < 0 ? -errno : fd;
	}
	snprintf(path, sizeof(path), "/proc/%d/ns/ipc", c->pid);
	arg.ns_fd = open(path, O_RDONLY | O_CLOEXEC);
	if (arg.ns_fd < 0)
		return -errno;
	if (fstat(arg.ns_fd, &st)) {
		err = -errno;
		close(arg.ns_fd);
		return err;
	}
	*ns_id = st.st_ino;
	fd = ioctl(own_fd, NSLOG_IOC_OPEN_NS, &arg);
	err = fd < 0 ? -errno : fd;
	close(arg.ns_fd);
	return err;
}

static void reply_err(char *reply, size_t size, const char *what, int err)
{
	snprintf(reply, size, "error %s%s%s\n", what, err ? ": " : "",
		 err ? strerror(err) : "");
}

static void run_add(struct nslog_sl_control *ctl, const struct nslog_sl_cmd *c,
		    char *reply, size_t size)
{
	struct nslog_sl_source *s;
	char dir[sizeof(s->path)], path[sizeof(s->path)];
	uint64_t ns_id = 0;
	int fd = -1, ret;

	if (nslog_sl_source_find(ctl->l, c->name)) {
		reply_err(reply, size, "NAME is taken", 0);
		return;
	}
	if ((size_t)snprintf(path, sizeof(path), "%s/%s/" NSLOG_SL_SOCKET_NAME,
			     ctl->dir, c->name) >= sizeof(path)) {
		reply_err(reply, size, "DIR/NAME/log is too long", ENAMETOOLONG);
		return;
	}
	if (c->target != NSLOG_SL_NO_SET) {
		fd = ctl->open_set(ctl->l->store.own_fd, c, &ns_id);
		if (fd < 0) {
			reply_err(reply, size, "cannot open the set", -fd);
			return;
		}
	}
	snprintf(dir, sizeof(dir), "%s/%s", ctl->dir, c->name);
	if (mkdir(dir, 0700) && errno != EEXIST) {
		ret = errno;
		if (fd >= 0)
			close(fd);
		reply_err(reply, size, "cannot make DIR/NAME", ret);
		return;
	}
	ret = nslog_sl_source_add(ctl->l, c->name, path, c->type,
				  fd >= 0 ? NSLOG_SL_TIED : NSLOG_SL_WRITERS,
				  fd, true, ns_id, &s);
	if (ret) {
		rmdir(dir);
		reply_err(reply, size, "cannot make the socket", -ret);
		return;
	}
	if (fd >= 0)
		snprintf(reply, size, "ok %s ipc:%" PRIu64 "\n", path, ns_id);
	else
		snprintf(reply, size, "ok %s writers\n", path);
}

static void run_attach(struct nslog_sl_control *ctl,
		       const struct nslog_sl_cmd *c, char *reply, size_t size)
{
	struct nslog_sl_source *s = nslog_sl_source_find(ctl->l, c->name);
	uint64_t ns_id = 0;
	int fd;

	if (!s) {
		reply_err(reply, size, "no such NAME", 0);
		return;
	}
	fd = ctl->open_set(ctl->l->store.own_fd, c, &ns_id);
	if (fd < 0) {
		reply_err(reply, size, "cannot open the set", -fd);
		return;
	}
	nslog_sl_source_tie(s, fd, ns_id);
	snprintf(reply, size, "ok %s ipc:%" PRIu64 "\n", s->path, ns_id);
}

static void run_remove(struct nslog_sl_control *ctl,
		       const struct nslog_sl_cmd *c, char *reply, size_t size)
{
	struct nslog_sl_source *s = nslog_sl_source_find(ctl->l, c->name);
	char dir[sizeof(s->path)];

	if (!s) {
		reply_err(reply, size, "no such NAME", 0);
		return;
	}
	nslog_sl_source_remove(ctl->l, s, true);
	snprintf(dir, sizeof(dir), "%s/%s", ctl->dir, c->name);
	rmdir(dir);
	snprintf(reply, size, "ok\n");
}

static void run_list(struct nslog_sl_control *ctl, char *reply, size_t size)
{
	size_t n = 0;
	unsigned int i;
	int w;

	snprintf(reply, size, "ok %u\n", ctl->l->nsrc);
	n = strlen(reply);
	for (i = 0; i < ctl->l->nsrc && n + 2 < size; i++) {
		w = nslog_sl_counts_line(reply + n, size - n - 1,
					 ctl->l->src[i]);
		if (w < 0 || (size_t)w >= size - n - 1)
			break;
		n += (size_t)w;
		reply[n++] = '\n';
		reply[n] = '\0';
	}
}

/**
 * nslog_sl_control_run() - one command, and its reply
 * @ctl: the control state
 * @line: the command
 * @reply: filled in: "ok ..." or "error ...", lines ending in '\n'
 * @size: its size
 *
 * Context: process.
 */
void nslog_sl_control_run(struct nslog_sl_control *ctl, const char *line,
			  char *reply, size_t size)
{
	struct nslog_sl_cmd c;
	const char *why;

	if (nslog_sl_cmd_parse(&c, line, &why)) {
		reply_err(reply, size, why, 0);
		return;
	}
	switch (c.op) {
	case NSLOG_SL_ADD:
		run_add(ctl, &c, reply, size);
		break;
	case NSLOG_SL_ATTACH:
		run_attach(ctl, &c, reply, size);
		break;
	case NSLOG_SL_REMOVE:
		run_remove(ctl, &c, reply, size);
		break;
	case NSLOG_SL_LIST:
		run_list(ctl, reply, size);
		break;
	}
}

static int control_addr(struct sockaddr_un *a, const char *dir)
{
	memset(a, 0, sizeof(*a));
	a->sun_family = AF_UNIX;
	if ((size_t)snprintf(a->sun_path, sizeof(a->sun_path), "%s/%s", dir,
			     NSLOG_SL_CONTROL_NAME) >= sizeof(a->sun_path))
		return -ENAMETOOLONG;
	return 0;
}

/* DIR's parents, 0755, as mkdir -p makes them. */
static int make_parents(const char *dir)
{
	char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	char *p;

	if ((size_t)snprintf(path, sizeof(path), "%s", dir) >= sizeof(path))
		return -ENAMETOOLONG;
	for (p = path + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		if (mkdir(path, 0755) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	return 0;
}

/**
 * nslog_sl_control_open() - make DIR (0700) and DIR/control (0600)
 * @ctl: with @dir set; @sock is set
 *
 * DIR's parents are made if missing (0755).  A socket left at
 * DIR/control by a listener before is replaced.
 *
 * Context: process.
 * Return: 0, or -errno.
 */
int nslog_sl_control_open(struct nslog_sl_control *ctl)
{
	struct sockaddr_un a;
	int fd, err;

	ctl->kind = NSLOG_SL_EV_CONTROL;
	err = control_addr(&a, ctl->dir);
	if (err)
		return err;
	err = make_parents(ctl->dir);
	if (err)
		return err;
	if (mkdir(ctl->dir, 0700) && errno != EEXIST)
		return -errno;
	unlink(a.sun_path);
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (bind(fd, (struct sockaddr *)&a, sizeof(a)) ||
	    chmod(a.sun_path, 0600) || listen(fd, 16)) {
		err = -errno;
		close(fd);
		return err;
	}
	ctl->sock = fd;
	return 0;
}

/**
 * nslog_sl_control_ready() - serve the connections waiting on DIR/control
 * @ctl: the control state
 *
 * Each peer has a second to send its command; a peer of another uid is
 * told no.
 *
 * Context: process; waits at most a second for one peer.
 */
void nslog_sl_control_ready(struct nslog_sl_control *ctl)
{
	static char reply[NSLOG_SL_REPLY_MAX];
	struct timeval tv = { .tv_sec = 1 };
	char line[NSLOG_SL_CMD_MAX + 2];
	struct ucred peer;
	socklen_t len = sizeof(peer);
	ssize_t n;
	int fd;

	while ((fd = accept4(ctl->sock, NULL, NULL, SOCK_CLOEXEC)) >= 0) {
		setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
		setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
		if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &peer, &len) ||
		    peer.uid != geteuid()) {
			reply_err(reply, sizeof(reply), "not allowed", EPERM);
		} else {
			n = recv(fd, line, sizeof(line) - 1, 0);
			if (n < 0)
				n = 0;
			line[n] = '\0';
			if ((size_t)n > NSLOG_SL_CMD_MAX)
				reply_err(reply, sizeof(reply),
					  "command too long", 0);
			else
				nslog_sl_control_run(ctl, line, reply,
						     sizeof(reply));
		}
		if (send(fd, reply, strlen(reply), MSG_NOSIGNAL) < 0)
			fprintf(stderr, "nslog-syslogd: control: reply: %s\n",
				strerror(errno));
		close(fd);
	}
}

/**
 * nslog_sl_control_client() - send one command to a running listener
 * @dir: its directory
 * @line: the command
 * @reply: filled in with the reply, NUL-terminated
 * @size: its size
 *
 * Context: process; waits for the reply.
 * Return: 0, or -errno of reaching the listener.
 */
int nslog_sl_control_client(const char *dir, const char *line, char *reply,
			    size_t size)
{
	struct sockaddr_un a;
	ssize_t n;
	int fd, err;

	err = control_addr(&a, dir);
	if (err)
		return err;
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&a, sizeof(a)) ||
	    send(fd, line, strlen(line), MSG_NOSIGNAL) < 0) {
		err = -errno;
		close(fd);
		return err;
	}
	n = recv(fd, reply, size - 1, 0);
	err = n < 0 ? -errno : 0;
	close(fd);
	reply[n < 0 ? 0 : n] = '\0';
	return err;
}
