/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nsident: who owns an IPC namespace, seen from the host: the processes
 * in it (their /proc/PID/ns/ipc has its inode number) and their cgroups
 * (cgparse.c).
 */
#ifndef NSLOG_NSIDENT_H
#define NSLOG_NSIDENT_H

#include <stddef.h>
#include <sys/types.h>
#include <linux/types.h>

#include "cgparse.h"

/* Processes looked at per namespace: enough to tell a pod from one. */
#define NSLOG_NSIDENT_PIDS	8

/* One namespace to identify. */
struct nslog_nsq {
	__u64 ns_id;
	pid_t pids[NSLOG_NSIDENT_PIDS];	/* in it, lowest first */
	size_t count;
};

int nslog_ns_find(const char *proc, struct nslog_nsq *q, size_t count);
int nslog_ns_ident(const char *proc, const struct nslog_nsq *q,
		   struct nslog_ident *id);
int nslog_ns_host_id(const char *proc, __u64 *ns_id);

#endif /* NSLOG_NSIDENT_H */
