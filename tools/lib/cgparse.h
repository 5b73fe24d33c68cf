/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cgparse: which container a cgroup path belongs to (Docker, Podman, LXC,
 * systemd-nspawn, containerd, CRI-O, Kubernetes pods), from the names
 * that the runtimes give their cgroups.  Table-driven; pure, so that
 * tests/tools/cgparse_test.c checks it on real-looking paths.
 */
#ifndef NSLOG_CGPARSE_H
#define NSLOG_CGPARSE_H

#include <stdbool.h>

/*
 * A log set's owner, as far as the host can tell.  Strings are NULL when
 * unknown; runtime and engine are static, the others allocated.
 */
struct nslog_ident {
	/* "host", "docker", "podman", "lxc", "systemd-nspawn",
	 * "containerd", "cri-o" or "kubernetes"
	 */
	const char *runtime;
	const char *engine;	/* kubernetes: the runtime running its pods */
	char *id;		/* container id, 64 hex digits */
	char *name;		/* container name (LXC, systemd-nspawn) */
	char *pod;		/* Kubernetes pod uid, Podman pod id */
	char *unit;		/* no container: the systemd unit */
	char *cgroup;		/* the cgroup path it was read from */
};

enum nslog_cg_kind {
	NSLOG_CG_NONE,		/* no container's cgroup (maybe a unit's) */
	NSLOG_CG_CONTAINER,	/* a container's (or a pod's) */
	NSLOG_CG_MONITOR,	/* a runtime's monitor (conmon, lxc.monitor) */
};

int nslog_cg_parse(struct nslog_ident *id, const char *path);
int nslog_cg_from_proc(struct nslog_ident *id, const char *text);
const char *nslog_cg_path(const char *text, char *buf, unsigned int size);
bool nslog_ident_same(const struct nslog_ident *a,
		      const struct nslog_ident *b);
int nslog_ident_copy(struct nslog_ident *dst, const struct nslog_ident *src);
void nslog_ident_free(struct nslog_ident *id);

#endif /* NSLOG_CGPARSE_H */
