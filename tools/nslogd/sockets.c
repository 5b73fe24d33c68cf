// SPDX-License-Identifier: GPL-2.0
/*
 * sockets: logd's three sockets (shared/reference/logd-protocol.md, "The
 * three sockets"):
 *
 *	/dev/socket/logd	SOCK_STREAM	0666	control
 *	/dev/socket/logdr	SOCK_SEQPACKET	0666	readers
 *	/dev/socket/logdw	SOCK_DGRAM	0222	writers, SO_PASSCRED
 *
 * Android's init makes them from logd.rc and passes each as an inherited
 * fd named in the environment (ANDROID_SOCKET_logdw=5). nslogd takes such
 * an fd if it is a socket of the right type, and otherwise makes the
 * socket itself, at logd's path or under another directory. Every fd ends
 * up close-on-exec and non-blocking, and logdw passes credentials (init's
 * "dgram+passcred" already does; set again for a socket made here, and for
 * one from a stand-in for init that forgot).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "sockets.h"

const struct nslogd_sock_spec nslogd_sock_specs[NSLOGD_SOCKS] = {
	[NSLOGD_SOCK_LOGD]  = { "logd",  SOCK_STREAM,    0666 },
	[NSLOGD_SOCK_LOGDR] = { "logdr", SOCK_SEQPACKET, 0666 },
	[NSLOGD_SOCK_LOGDW] = { "logdw", SOCK_DGRAM,     0222 },
};

/**
 * nslogd_sock_env_fd() - the fd number in an ANDROID_SOCKET_ variable
 * @value: the variable's value
 *
 * Only what init writes: decimal digits, nothing else, no sign, no
 * leading zero but for "0" itself, at most INT_MAX.
 *
 * Context: any.
 * Return: the fd number, or -1 if @value is not one.
 */
int nslogd_sock_env_fd(const char *value)
{
	long v = 0;
	const char *p;

	if (!value || !*value || (value[0] == '0' && value[1]))
		return -1;
	for (p = value; *p; p++) {
		if (*p < '0' || *p > '9')
			return -1;
		v = v * 10 + (*p - '0');
		if (v > INT_MAX)
			return -1;
	}
	return (int)v;
}

/* Close-on-exec, non-blocking, and for logdw, credentials on. */
static int sock_setup(enum nslogd_sock_id id, int fd)
{
	int one = 1, fl;

	if (fcntl(fd, F_SETFD, FD_CLOEXEC))
		return -errno;
	fl = fcntl(fd, F_GETFL);
	if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK))
		return -errno;
	if (id == NSLOGD_SOCK_LOGDW) {
		if (setsockopt(fd, SOL_SOCKET, SO_PASSCRED, &one, sizeof(one)))
			return -errno;
	} else if (listen(fd, NSLOGD_LISTEN_BACKLOG)) {
		/* init binds but does not listen: the service does */
		return -errno;
	}
	return 0;
}

/**
 * nslogd_sock_from_env() - the socket init passed for @id
 * @id: which socket
 *
 * Takes ANDROID_SOCKET_<name>: the fd must be open, a socket and of the
 * type logd.rc gives it. It is made close-on-exec and non-blocking.
 *
 * Context: process; reads the environment.
 * Return: the fd; -ENOENT if the variable is not set, -EINVAL if it holds
 * no fd number, -EBADF, -ENOTSOCK, -EPROTOTYPE (another type), or the
 * errno of setting it up.
 */
int nslogd_sock_from_env(enum nslogd_sock_id id)
{
	const struct nslogd_sock_spec *spec = &nslogd_sock_specs[id];
	char var[64];
	const char *value;
	struct stat st;
	socklen_t len = sizeof(int);
	int fd, type, ret;

	snprintf(var, sizeof(var), "%s%s", NSLOGD_SOCKET_ENV, spec->name);
	value = getenv(var);
	if (!value)
		return -ENOENT;
	fd = nslogd_sock_env_fd(value);
	if (fd < 0)
		return -EINVAL;
	if (fstat(fd, &st))
		return -errno;
	if (!S_ISSOCK(st.st_mode))
		return -ENOTSOCK;
	if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &len))
		return -errno;
	if (type != spec->type)
		return -EPROTOTYPE;
	ret = sock_setup(id, fd);
	return ret ? ret : fd;
}

/**
 * nslogd_sock_path() - the path of a socket nslogd makes
 * @buf: where to write it
 * @size: its size
 * @id: which socket
 * @dir: the directory, NULL for /dev/socket
 *
 * Context: any.
 * Return: 0, or -ENAMETOOLONG if it does not fit @buf or a sockaddr_un.
 */
int nslogd_sock_path(char *buf, size_t size, enum nslogd_sock_id id,
		     const char *dir)
{
	struct sockaddr_un sun;
	int n;

	n = snprintf(buf, size, "%s/%s", dir ? dir : NSLOGD_SOCKET_DIR,
		     nslogd_sock_specs[id].name);
	if (n < 0 || (size_t)n >= size || (size_t)n >= sizeof(sun.sun_path))
		return -ENAMETOOLONG;
	return 0;
}

/**
 * nslogd_sock_make() - make a socket as init would from logd.rc
 * @id: which socket
 * @dir: the directory, NULL for /dev/socket
 *
 * Binds a socket of the type of @id at DIR/NAME with its mode. A socket
 * file left there (by an nslogd or logd that is gone) is replaced; any
 * other file is not. The mode is set on the socket before bind(), so the
 * file is never looser than it should be, and again after, whatever the
 * umask.
 *
 * Context: process.
 * Return: the fd, or -errno.
 */
int nslogd_sock_make(enum nslogd_sock_id id, const char *dir)
{
	const struct nslogd_sock_spec *spec = &nslogd_sock_specs[id];
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	struct stat st;
	int fd, ret;

	ret = nslogd_sock_path(sun.sun_path, sizeof(sun.sun_path), id, dir);
	if (ret)
		return ret;
	if (!lstat(sun.sun_path, &st)) {
		if (!S_ISSOCK(st.st_mode))
			return -EEXIST;
		if (unlink(sun.sun_path))
			return -errno;
	}

	fd = socket(AF_UNIX, spec->type | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (fchmod(fd, spec->mode))
		goto err_close;
	if (bind(fd, (struct sockaddr *)&sun, sizeof(sun)))
		goto err_close;
	if (chmod(sun.sun_path, spec->mode))
		goto err_unlink;
	ret = sock_setup(id, fd);
	if (ret) {
		errno = -ret;
		goto err_unlink;
	}
	return fd;

err_unlink:
	ret = -errno;
	unlink(sun.sun_path);
	close(fd);
	return ret;
err_close:
	ret = -errno;
	close(fd);
	return ret;
}

/**
 * nslogd_sock_open() - the socket for @id: init's, else made here
 * @id: which socket
 * @dir: where to make it, NULL for /dev/socket
 * @inherited: set to whether the fd came from init
 *
 * A variable that is set but unusable is an error, not a reason to make
 * another socket: clients would connect to the one init made.
 *
 * Context: process.
 * Return: the fd, or -errno.
 */
int nslogd_sock_open(enum nslogd_sock_id id, const char *dir,
		     bool *inherited)
{
	int fd = nslogd_sock_from_env(id);

	*inherited = fd >= 0;
	if (fd != -ENOENT)
		return fd;
	return nslogd_sock_make(id, dir);
}

/**
 * nslogd_sock_accept_close() - accept every pending connection and close it
 * @fd: a listening socket, non-blocking
 *
 * For logd and logdr until they are served: a client gets end of file
 * straight away rather than waiting on a connection nobody reads.
 *
 * Context: process; does not block.
 * Return: how many connections were closed.
 */
unsigned int nslogd_sock_accept_close(int fd)
{
	unsigned int n = 0;
	int c;

	while ((c = accept4(fd, NULL, NULL, SOCK_CLOEXEC)) >= 0 ||
	       errno == EINTR || errno == ECONNABORTED) {
		if (c >= 0) {
			close(c);
			n++;
		}
	}
	return n;
}
