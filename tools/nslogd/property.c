// SPDX-License-Identifier: GPL-2.0
/*
 * property: the property service's client. One connection per property,
 * as bionic makes one: connect, send the whole message, read the int32
 * answer. Every step is bounded by a timeout (SO_SNDTIMEO bounds connect()
 * and send() on a Unix socket, SO_RCVTIMEO the answer), as nslogd calls
 * this from its one thread: a property service that never answers costs
 * nslogd that time once, and its clients wait in the sockets' queues
 * meanwhile. bionic waits for the answer without a bound; nslogd does not
 * retry.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#include "property.h"

/* The answers init gives (PROP_ERROR_* of bionic's _system_properties.h). */
static const struct {
	int32_t code;
	const char *name;
} prop_errors[] = {
	{ 0x04, "the command could not be read" },
	{ 0x08, "the name or value could not be read" },
	{ 0x0b, "read-only property" },
	{ 0x10, "invalid name" },
	{ 0x14, "invalid value" },
	{ 0x18, "permission denied" },
	{ 0x1b, "invalid command" },
	{ 0x20, "control message not handled" },
	{ 0x24, "set failed" },
};

static void put_u32(unsigned char *p, uint32_t v)
{
	memcpy(p, &v, sizeof(v));	/* host byte order, as bionic sends */
}

/**
 * nslogd_prop_msg() - a PROP_MSG_SETPROP2 message
 * @buf: where to write it
 * @size: its size; NSLOGD_PROP_MSG_MAX holds any message this makes
 * @name: the property's name, 1 to NSLOGD_PROP_NAME_MAX - 1 bytes
 * @value: its value, shorter than NSLOGD_PROP_VALUE_MAX unless @name
 *	   starts with "ro." (bionic's rule), and within this buffer
 *
 * Context: any.
 * Return: the message's length, or 0 if it does not fit @size or breaks
 * the rules above (nothing is then sent).
 */
size_t nslogd_prop_msg(void *buf, size_t size, const char *name,
		       const char *value)
{
	size_t nlen = strlen(name), vlen = strlen(value), len;
	unsigned char *p = buf;

	if (!nlen || nlen >= NSLOGD_PROP_NAME_MAX)
		return 0;
	if (vlen >= NSLOGD_PROP_VALUE_MAX && strncmp(name, "ro.", 3))
		return 0;
	len = 3 * 4 + nlen + vlen;
	if (len > size)
		return 0;
	put_u32(p, NSLOGD_PROP_SETPROP2);
	put_u32(p + 4, (uint32_t)nlen);
	memcpy(p + 8, name, nlen);
	put_u32(p + 8 + nlen, (uint32_t)vlen);
	memcpy(p + 12 + nlen, value, vlen);
	return len;
}

/**
 * nslogd_prop_error_name() - what an answer of the property service means
 * @code: the int32 it answered
 *
 * Context: any.
 * Return: a phrase, "success" for 0, "unknown error" for a code not known.
 */
const char *nslogd_prop_error_name(int32_t code)
{
	size_t i;

	if (!code)
		return "success";
	for (i = 0; i < sizeof(prop_errors) / sizeof(prop_errors[0]); i++)
		if (prop_errors[i].code == code)
			return prop_errors[i].name;
	return "unknown error";
}

static void set_timeouts(int fd, int timeout_ms)
{
	struct timeval tv = {
		.tv_sec = timeout_ms / 1000,
		.tv_usec = (timeout_ms % 1000) * 1000,
	};

	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
}

static enum nslogd_prop_result fail(char *why, size_t why_size,
				    const char *what, int err)
{
	if (err == EAGAIN)
		snprintf(why, why_size, "%s: timed out", what);
	else
		snprintf(why, why_size, "%s: %s", what, strerror(err));
	return NSLOGD_PROP_FAILED;
}

static bool send_all(int fd, const unsigned char *p, size_t len)
{
	ssize_t n;

	while (len) {
		n = send(fd, p, len, MSG_NOSIGNAL);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		p += n;
		len -= (size_t)n;
	}
	return true;
}

static enum nslogd_prop_result talk(int fd, const char *path,
				    const unsigned char *msg, size_t len,
				    char *why, size_t why_size)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	int32_t answer;
	ssize_t n;

	if (strlen(path) >= sizeof(sun.sun_path))
		return fail(why, why_size, "connect", ENAMETOOLONG);
	strcpy(sun.sun_path, path);
	while (connect(fd, (struct sockaddr *)&sun, sizeof(sun))) {
		if (errno == EINTR)
			continue;
		/* no socket file (or no directory): no property service */
		if (errno == ENOENT)
			return NSLOGD_PROP_ABSENT;
		return fail(why, why_size, "connect", errno);
	}
	if (!send_all(fd, msg, len))
		return fail(why, why_size, "send", errno);
	do
		n = recv(fd, &answer, sizeof(answer), MSG_WAITALL);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return fail(why, why_size, "no answer", errno);
	if (n != sizeof(answer)) {
		snprintf(why, why_size, "%s", n ? "a short answer" :
			 "closed without an answer");
		return NSLOGD_PROP_FAILED;
	}
	if (answer) {
		snprintf(why, why_size, "refused: %s (0x%x)",
			 nslogd_prop_error_name(answer), (unsigned int)answer);
		return NSLOGD_PROP_FAILED;
	}
	return NSLOGD_PROP_SET;
}

/**
 * nslogd_prop_set() - set a property through the property service
 * @path: the service's socket (NSLOGD_PROP_SOCKET on Android)
 * @name: the property
 * @value: its value
 * @timeout_ms: the bound of each step: connect, send, the answer
 * @why: where to say what failed, NUL-terminated ("" otherwise)
 * @why_size: its size
 *
 * Context: blocks for at most about three times @timeout_ms.
 * Return: NSLOGD_PROP_SET when the service answered success;
 * NSLOGD_PROP_ABSENT when there is no socket at @path; else
 * NSLOGD_PROP_FAILED with @why filled in.
 */
enum nslogd_prop_result nslogd_prop_set(const char *path, const char *name,
					const char *value, int timeout_ms,
					char *why, size_t why_size)
{
	unsigned char msg[NSLOGD_PROP_MSG_MAX];
	enum nslogd_prop_result r;
	size_t len;
	int fd;

	if (why_size)
		why[0] = '\0';
	len = nslogd_prop_msg(msg, sizeof(msg), name, value);
	if (!len)
		return fail(why, why_size, "the name or value", EINVAL);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return fail(why, why_size, "socket", errno);
	set_timeouts(fd, timeout_ms);
	r = talk(fd, path, msg, len, why, why_size);
	close(fd);
	return r;
}

/**
 * nslogd_prop_format() - the property counters on one line
 * @st: the counters
 * @buf: where to write, NUL-terminated
 * @size: its size
 *
 * "logd.ready: set N absent N failed N".
 *
 * Context: any.
 * Return: the length the whole line has (as snprintf()).
 */
size_t nslogd_prop_format(const struct nslogd_prop_stats *st, char *buf,
			  size_t size)
{
	int n;

	n = snprintf(buf, size, "logd.ready: set %llu absent %llu failed %llu",
		     (unsigned long long)st->n[NSLOGD_PROP_SET],
		     (unsigned long long)st->n[NSLOGD_PROP_ABSENT],
		     (unsigned long long)st->n[NSLOGD_PROP_FAILED]);
	return n < 0 ? 0 : (size_t)n;
}
