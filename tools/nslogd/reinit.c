// SPDX-License-Identifier: GPL-2.0
/*
 * reinit: `nslogd --reinit`, the client logd.rc's logd-reinit service runs.
 *
 * Android's init runs `/system/bin/logd --reinit` (service logd-reinit in
 * logd.rc) when the event tags or the settings changed: that process is not
 * a daemon, it asks the running logd to reinit over the control socket and
 * ends. With nslogd bound over /system/bin/logd the same command line comes
 * to nslogd, so it does the same: connect to DIR/logd, send "reinit" with
 * its NUL, wait for the reply, and end 0 for "success", 1 for anything else
 * (told on stderr).
 */

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "reinit.h"
#include "sockets.h"

/* The reply, with the NUL it ends in. */
static int reinit_reply(int fd, char *buf, size_t size, int timeout_ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	size_t got = 0;
	ssize_t n;

	while (got < size) {
		n = poll(&p, 1, timeout_ms);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (!n)
			return -ETIMEDOUT;
		n = read(fd, buf + got, size - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (!n)
			return -ECONNRESET;
		if (memchr(buf + got, '\0', (size_t)n))
			return 0;
		got += (size_t)n;
	}
	return -EMSGSIZE;
}

/**
 * nslogd_reinit_client() - ask the running logd (or nslogd) to reinit
 * @dir: the sockets' directory, NULL for /dev/socket
 * @timeout_ms: how long to wait for the reply
 *
 * Context: process context; blocks up to @timeout_ms for the reply.
 * Return: 0 if it answered "success", else 1; what went wrong is told on
 * stderr.
 */
int nslogd_reinit_client(const char *dir, int timeout_ms)
{
	static const char cmd[] = "reinit";
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	char reply[64];
	int fd, err;

	err = nslogd_sock_path(sun.sun_path, sizeof(sun.sun_path),
			       NSLOGD_SOCK_LOGD, dir);
	if (err) {
		fprintf(stderr, "nslogd --reinit: %s\n", strerror(-err));
		return 1;
	}
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		perror("nslogd --reinit: socket");
		return 1;
	}
	if (connect(fd, (struct sockaddr *)&sun, sizeof(sun))) {
		fprintf(stderr, "nslogd --reinit: %s: %s\n", sun.sun_path,
			strerror(errno));
		goto fail;
	}
	/* The NUL ends the command. */
	if (send(fd, cmd, sizeof(cmd), MSG_NOSIGNAL) != (ssize_t)sizeof(cmd)) {
		perror("nslogd --reinit: send");
		goto fail;
	}
	err = reinit_reply(fd, reply, sizeof(reply), timeout_ms);
	if (err) {
		fprintf(stderr, "nslogd --reinit: no reply: %s\n",
			strerror(-err));
		goto fail;
	}
	close(fd);
	if (strcmp(reply, "success")) {
		fprintf(stderr, "nslogd --reinit: logd said \"%s\"\n", reply);
		return 1;
	}
	return 0;

fail:
	close(fd);
	return 1;
}
