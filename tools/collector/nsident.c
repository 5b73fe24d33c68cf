// SPDX-License-Identifier: GPL-2.0
/*
 * nsident: the container of an IPC namespace.
 *
 * One walk of /proc finds, for every namespace asked about, up to
 * NSLOG_NSIDENT_PIDS processes whose /proc/PID/ns/ipc is that namespace
 * (stat() gives its inode number, the namespace id), the lowest pids
 * first.  Their /proc/PID/cgroup is then parsed (cgparse.c):
 *
 *  - runtime monitors (conmon, lxc.monitor) are skipped;
 *  - the first process with a container's cgroup gives the identity;
 *  - other processes of another container in the same namespace (a
 *    Kubernetes or Podman pod, whose containers share one IPC namespace;
 *    docker run --ipc container:NAME) make it the pod's: the container
 *    id and name are dropped if the pod is the same, else the first
 *    (lowest pid, usually the namespace's maker) stays;
 *  - with no container, the first process's unit and cgroup are kept.
 *
 * The /proc root is a parameter, so that tests run this on a tree of
 * regular files whose inode numbers stand in for namespace ids.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nsident.h"

static void nslog_nsq_add(struct nslog_nsq *q, pid_t pid)
{
	size_t i;

	if (q->count == NSLOG_NSIDENT_PIDS && pid > q->pids[q->count - 1])
		return;
	if (q->count < NSLOG_NSIDENT_PIDS)
		q->count++;
	for (i = q->count - 1; i && q->pids[i - 1] > pid; i--)
		q->pids[i] = q->pids[i - 1];
	q->pids[i] = pid;
}

/**
 * nslog_ns_find() - the processes in each of some IPC namespaces
 * @proc: the /proc root ("/proc")
 * @q: the namespaces, each with @ns_id set; @pids and @count filled in
 * @count: how many
 *
 * Processes that exit meanwhile, or that the caller may not look at
 * (ptrace access mode), are skipped.
 *
 * Context: process context.
 * Return: 0, or a negative errno if @proc cannot be read.
 */
int nslog_ns_find(const char *proc, struct nslog_nsq *q, size_t count)
{
	char path[4096];
	struct dirent *d;
	struct stat st;
	size_t i;
	DIR *dir;
	char *end;
	long pid;

	for (i = 0; i < count; i++)
		q[i].count = 0;
	dir = opendir(proc);
	if (!dir)
		return -errno;
	while ((d = readdir(dir))) {
		if (d->d_name[0] < '1' || d->d_name[0] > '9')
			continue;
		pid = strtol(d->d_name, &end, 10);
		if (*end || pid <= 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s/ns/ipc", proc, d->d_name);
		if (stat(path, &st))
			continue;
		for (i = 0; i < count; i++)
			if (q[i].ns_id == (__u64)st.st_ino)
				nslog_nsq_add(&q[i], (pid_t)pid);
	}
	closedir(dir);
	return 0;
}

/* The text of /proc/PID/cgroup, NUL-terminated, in @buf. */
static int nslog_read_cgroup(const char *proc, pid_t pid, char *buf,
			     size_t size)
{
	char path[4096];
	size_t n = 0;
	ssize_t r;
	int fd;

	snprintf(path, sizeof(path), "%s/%d/cgroup", proc, (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (n < size - 1) {
		r = read(fd, buf + n, size - 1 - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	buf[n] = '\0';
	return 0;
}

/* Two containers of one namespace: keep what they share. */
static void nslog_ident_merge(struct nslog_ident *id,
			      const struct nslog_ident *other)
{
	if (nslog_ident_same(id, other))
		return;
	if (!id->pod || !other->pod || strcmp(id->pod, other->pod))
		return;
	/* one pod, several containers: the set is the pod's */
	free(id->id);
	free(id->name);
	id->id = NULL;
	id->name = NULL;
}

/**
 * nslog_ns_ident() - the identity of a namespace whose processes are known
 * @proc: the /proc root
 * @q: the namespace and its processes (nslog_ns_find())
 * @id: filled in; empty if nothing is known (free with nslog_ident_free())
 *
 * Context: process context; allocates.
 * Return: 0 (@id may be empty), or -ENOMEM.
 */
int nslog_ns_ident(const char *proc, const struct nslog_nsq *q,
		   struct nslog_ident *id)
{
	static char text[16384];
	struct nslog_ident one, first = { 0 };
	bool have_first = false, have_ctr = false;
	size_t i;
	int kind;

	memset(id, 0, sizeof(*id));
	for (i = 0; i < q->count; i++) {
		if (nslog_read_cgroup(proc, q->pids[i], text, sizeof(text)))
			continue;
		kind = nslog_cg_from_proc(&one, text);
		if (kind == -ENOMEM)
			goto nomem;
		if (kind < 0 || kind == NSLOG_CG_MONITOR) {
			nslog_ident_free(&one);
			continue;
		}
		if (kind == NSLOG_CG_CONTAINER) {
			if (!have_ctr) {
				nslog_ident_free(id);
				*id = one;
				have_ctr = true;
				continue;
			}
			nslog_ident_merge(id, &one);
		} else if (!have_first) {
			first = one;
			have_first = true;
			continue;
		}
		nslog_ident_free(&one);
	}
	if (!have_ctr && have_first) {
		*id = first;
		return 0;
	}
	nslog_ident_free(&first);
	return 0;

nomem:
	nslog_ident_free(&first);
	nslog_ident_free(id);
	return -ENOMEM;
}

/**
 * nslog_ns_host_id() - the id of the host's IPC namespace: init's
 * @proc: the /proc root
 * @ns_id: set to it
 *
 * Context: process context.
 * Return: 0, or a negative errno.
 */
int nslog_ns_host_id(const char *proc, __u64 *ns_id)
{
	char path[4096];
	struct stat st;

	snprintf(path, sizeof(path), "%s/1/ns/ipc", proc);
	if (stat(path, &st))
		return -errno;
	*ns_id = (__u64)st.st_ino;
	return 0;
}
