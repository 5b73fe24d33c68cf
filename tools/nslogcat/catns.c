// SPDX-License-Identifier: GPL-2.0
/*
 * catns: nslogcat --ns NS.  A path or a PID opens the namespace's nsfs
 * file, which NSLOG_IOC_OPEN_NS then names by fd; an id (ID or ipc:[ID],
 * a number above the largest pid) goes to the ioctl as it is.  Either
 * way the namespace's id is known, for messages and -S.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "catns.h"

/* The largest pid there can be (PID_MAX_LIMIT); namespace ids are larger. */
#define NSLOG_PID_MAX	4194304UL

/* A whole decimal number, else false. */
static int nslog_catns_number(const char *s, unsigned long long *out)
{
	char *end;

	if (*s < '0' || *s > '9')
		return 0;
	errno = 0;
	*out = strtoull(s, &end, 10);
	return !errno && !*end;
}

/**
 * nslog_catns_resolve() - the namespace --ns names
 * @ns: the argument
 * @ns_fd: set to an open nsfs file, or -1 for an id
 * @ns_id: set to the namespace's id
 *
 * Context: process context; opens /proc/PID/ns/ipc or the path given.
 * Return: 0; -EINVAL for an argument that is none of the forms (a usage
 * error); or the negative errno of open() or fstat(), @ns_fd then -1.
 */
int nslog_catns_resolve(const char *ns, int *ns_fd, uint64_t *ns_id)
{
	const char *file = ns;
	unsigned long long n;
	char path[64], *end;
	struct stat st;
	int fd, err;

	*ns_fd = -1;
	if (!strncmp(ns, "ipc:[", 5)) {
		errno = 0;
		n = strtoull(ns + 5, &end, 10);
		if (errno || end == ns + 5 || strcmp(end, "]"))
			return -EINVAL;
		*ns_id = n;
		return 0;
	}
	if (nslog_catns_number(ns, &n)) {
		if (!n)
			return -EINVAL;
		if (n > NSLOG_PID_MAX) {
			*ns_id = n;
			return 0;
		}
		snprintf(path, sizeof(path), "/proc/%llu/ns/ipc", n);
		file = path;
	} else if (!strchr(ns, '/')) {
		return -EINVAL;
	}

	fd = open(file, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		err = -errno;
		close(fd);
		return err;
	}
	*ns_fd = fd;
	*ns_id = st.st_ino;
	return 0;
}
