// SPDX-License-Identifier: GPL-2.0
/*
 * logcred: Android's "log credentials": uid or gid root (0), system (1000)
 * or log (1007), or log among the supplementary groups, which only
 * /proc/PID/status tells (SCM_CREDENTIALS carries one gid). Asked for
 * security records only, so the read of /proc costs nothing on the path
 * of the other logs.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dgram.h"
#include "logcred.h"

/* /proc/PID/status is about 1.5 KiB; Groups: is in its first third. */
#define STATUS_MAX	4096

static const char *proc_dir = "/proc";

/**
 * nslogd_logcred_set_proc() - read process status from another directory
 * @dir: a /proc-like directory (the tests'), kept, not copied
 *
 * Context: before the first nslogd_logcred(); not thread-safe.
 */
void nslogd_logcred_set_proc(const char *dir)
{
	proc_dir = dir;
}

static bool privileged_id(unsigned int id)
{
	return id == NSLOGD_AID_ROOT || id == NSLOGD_AID_SYSTEM ||
	       id == NSLOGD_AID_LOG;
}

/**
 * nslogd_logcred_groups() - whether a status text lists a group
 * @status: the text of /proc/PID/status, NUL-terminated
 * @gid: the group looked for
 *
 * Context: any.
 * Return: true if the "Groups:" line holds @gid.
 */
bool nslogd_logcred_groups(const char *status, gid_t gid)
{
	const char *p = status;
	char *end;

	while (p && strncmp(p, "Groups:", 7)) {
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	if (!p)
		return false;
	p += 7;
	for (;;) {
		unsigned long g;

		while (*p == ' ' || *p == '\t')
			p++;
		if (*p < '0' || *p > '9')
			return false;
		g = strtoul(p, &end, 10);
		if (g == gid)
			return true;
		p = end;
	}
}

/**
 * nslogd_logcred() - whether a writer has log credentials
 * @cred: the writer's SCM_CREDENTIALS
 *
 * A writer that exited before this is asked has no status to read and so
 * only its uid and gid count.
 *
 * Context: reads the writer's /proc status if uid and gid do not decide.
 * Return: true if it may write the security log.
 */
bool nslogd_logcred(const struct ucred *cred)
{
	char path[256], buf[STATUS_MAX];
	ssize_t n;
	int fd;

	if (privileged_id(cred->uid) || privileged_id(cred->gid))
		return true;
	snprintf(path, sizeof(path), "%s/%d/status", proc_dir, (int)cred->pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	return nslogd_logcred_groups(buf, NSLOGD_AID_LOG);
}
