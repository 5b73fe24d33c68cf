// SPDX-License-Identifier: GPL-2.0
/*
 * cgparse_test: the container of a cgroup path, on paths as the runtimes
 * make them (Docker, Podman, LXC, systemd-nspawn, containerd, CRI-O,
 * Kubernetes with either cgroup driver), and the choice of the line of
 * /proc/PID/cgroup.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgparse.h"
#include "tap.h"

#define ID1 "3f4b7e2c9a1d8f6e5b0c4a3d2e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f"
#define ID2 "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
#define POD "5c1d8d34-9b0e-4c8e-a1f2-3b4c5d6e7f80"
#define POD_ "5c1d8d34_9b0e_4c8e_a1f2_3b4c5d6e7f80"

struct cg_case {
	const char *what;
	const char *path;
	int kind;
	const char *runtime;
	const char *engine;
	const char *id;
	const char *name;
	const char *pod;
	const char *unit;
};

static const struct cg_case cases[] = {
	{ "docker, systemd driver", "/system.slice/docker-" ID1 ".scope",
	  NSLOG_CG_CONTAINER, "docker", NULL, ID1, NULL, NULL, NULL },
	{ "docker, cgroupfs driver (v1 and v2)", "/docker/" ID1,
	  NSLOG_CG_CONTAINER, "docker", NULL, ID1, NULL, NULL, NULL },
	{ "docker, rootless",
	  "/user.slice/user-1000.slice/user@1000.service/app.slice/docker-" ID2 ".scope",
	  NSLOG_CG_CONTAINER, "docker", NULL, ID2, NULL, NULL, NULL },
	{ "docker, systemd inside the container (--cgroupns=host)",
	  "/system.slice/docker-" ID1 ".scope/system.slice/nginx.service",
	  NSLOG_CG_CONTAINER, "docker", NULL, ID1, NULL, NULL, NULL },
	{ "docker, init.scope below the container", "/docker/" ID1 "/init.scope",
	  NSLOG_CG_CONTAINER, "docker", NULL, ID1, NULL, NULL, NULL },
	{ "docker in docker: the inner container",
	  "/system.slice/docker-" ID1 ".scope/docker/" ID2,
	  NSLOG_CG_CONTAINER, "docker", NULL, ID2, NULL, NULL, NULL },
	{ "docker: not 64 hex digits is no container id",
	  "/system.slice/docker-3f4b7e2c.scope",
	  NSLOG_CG_NONE, NULL, NULL, NULL, NULL, NULL,
	  "docker-3f4b7e2c.scope" },
	{ "docker.service itself is a unit",
	  "/system.slice/docker.service",
	  NSLOG_CG_NONE, NULL, NULL, NULL, NULL, NULL, "docker.service" },
	{ "podman, root", "/machine.slice/libpod-" ID1 ".scope",
	  NSLOG_CG_CONTAINER, "podman", NULL, ID1, NULL, NULL, NULL },
	{ "podman, with the payload one level down",
	  "/machine.slice/libpod-" ID1 ".scope/container",
	  NSLOG_CG_CONTAINER, "podman", NULL, ID1, NULL, NULL, NULL },
	{ "podman, rootless",
	  "/user.slice/user-1000.slice/user@1000.service/user.slice/libpod-" ID2 ".scope",
	  NSLOG_CG_CONTAINER, "podman", NULL, ID2, NULL, NULL, NULL },
	{ "podman, conmon is a monitor",
	  "/machine.slice/libpod-conmon-" ID1 ".scope",
	  NSLOG_CG_MONITOR, "podman", NULL, NULL, NULL, NULL, NULL },
	{ "podman, cgroupfs manager", "/libpod_parent/libpod-" ID1,
	  NSLOG_CG_CONTAINER, "podman", NULL, ID1, NULL, NULL, NULL },
	{ "podman pod", "/machine.slice/machine-libpod_pod_" ID2
	  ".slice/libpod-" ID1 ".scope",
	  NSLOG_CG_CONTAINER, "podman", NULL, ID1, NULL, ID2, NULL },
	{ "lxc 4.0+", "/lxc.payload.web1",
	  NSLOG_CG_CONTAINER, "lxc", NULL, NULL, "web1", NULL, NULL },
	{ "lxc 4.0+, systemd inside",
	  "/lxc.payload.web-1/system.slice/nginx.service",
	  NSLOG_CG_CONTAINER, "lxc", NULL, NULL, "web-1", NULL, NULL },
	{ "lxc under a user's systemd",
	  "/user.slice/user-1000.slice/user@1000.service/app.slice/lxc.payload.c1/init.scope",
	  NSLOG_CG_CONTAINER, "lxc", NULL, NULL, "c1", NULL, NULL },
	{ "lxc monitor", "/lxc.monitor.web1",
	  NSLOG_CG_MONITOR, "lxc", NULL, NULL, NULL, NULL, NULL },
	{ "lxc 1.x to 3.x", "/lxc/web1",
	  NSLOG_CG_CONTAINER, "lxc", NULL, NULL, "web1", NULL, NULL },
	{ "lxc 3.x payload directory", "/lxc.payload/db",
	  NSLOG_CG_CONTAINER, "lxc", NULL, NULL, "db", NULL, NULL },
	{ "lxc 3.x monitor directory", "/lxc.monitor/db",
	  NSLOG_CG_MONITOR, "lxc", NULL, NULL, NULL, NULL, NULL },
	{ "docker inside lxc: the docker container",
	  "/lxc.payload.web1/system.slice/docker-" ID2 ".scope",
	  NSLOG_CG_CONTAINER, "docker", NULL, ID2, NULL, NULL, NULL },
	{ "systemd-nspawn", "/machine.slice/machine-debian12.scope",
	  NSLOG_CG_CONTAINER, "systemd-nspawn", NULL, NULL, "debian12", NULL,
	  NULL },
	{ "systemd-nspawn: \\x2d unescaped, payload below",
	  "/machine.slice/machine-my\\x2dbox.scope/payload/system.slice/cron.service",
	  NSLOG_CG_CONTAINER, "systemd-nspawn", NULL, NULL, "my-box", NULL,
	  NULL },
	{ "kubernetes, systemd driver, containerd",
	  "/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod" POD_
	  ".slice/cri-containerd-" ID1 ".scope",
	  NSLOG_CG_CONTAINER, "kubernetes", "containerd", ID1, NULL, POD, NULL },
	{ "kubernetes, systemd driver, cri-o, guaranteed QoS",
	  "/kubepods.slice/kubepods-pod" POD_ ".slice/crio-" ID2 ".scope",
	  NSLOG_CG_CONTAINER, "kubernetes", "cri-o", ID2, NULL, POD, NULL },
	{ "kubernetes, cri-o's conmon is a monitor",
	  "/kubepods.slice/kubepods-pod" POD_ ".slice/crio-conmon-" ID2 ".scope",
	  NSLOG_CG_MONITOR, "cri-o", NULL, NULL, NULL, NULL, NULL },
	{ "kubernetes, systemd driver, cri-dockerd",
	  "/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod" POD_
	  ".slice/docker-" ID1 ".scope",
	  NSLOG_CG_CONTAINER, "kubernetes", "docker", ID1, NULL, POD, NULL },
	{ "kubernetes, cgroupfs driver",
	  "/kubepods/burstable/pod" POD "/" ID2,
	  NSLOG_CG_CONTAINER, "kubernetes", NULL, ID2, NULL, POD, NULL },
	{ "kubernetes, cgroupfs driver, guaranteed QoS, cri-o",
	  "/kubepods/pod" POD "/crio-" ID1,
	  NSLOG_CG_CONTAINER, "kubernetes", "cri-o", ID1, NULL, POD, NULL },
	{ "kubernetes: the pod's own cgroup (no container)",
	  "/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod" POD_ ".slice",
	  NSLOG_CG_CONTAINER, "kubernetes", NULL, NULL, NULL, POD, NULL },
	{ "kubernetes in a kind node (docker): the pod's container",
	  "/system.slice/docker-" ID2 ".scope/kubelet.slice/kubelet-kubepods.slice/"
	  "kubelet-kubepods-burstable.slice/kubelet-kubepods-burstable-pod" POD_
	  ".slice/cri-containerd-" ID1 ".scope",
	  NSLOG_CG_CONTAINER, "kubernetes", "containerd", ID1, NULL, POD, NULL },
	{ "containerd with nerdctl", "/system.slice/nerdctl-" ID2 ".scope",
	  NSLOG_CG_CONTAINER, "containerd", NULL, ID2, NULL, NULL, NULL },
	{ "a bare 64-hex directory outside kubepods is nothing",
	  "/custom/" ID1, NSLOG_CG_NONE, NULL, NULL, NULL, NULL, NULL, NULL },
	{ "a service with PrivateIPC=yes", "/system.slice/foo.service",
	  NSLOG_CG_NONE, NULL, NULL, NULL, NULL, NULL, "foo.service" },
	{ "a login session's unshare --ipc",
	  "/user.slice/user-1000.slice/session-3.scope",
	  NSLOG_CG_NONE, NULL, NULL, NULL, NULL, NULL, "session-3.scope" },
	{ "the root cgroup", "/",
	  NSLOG_CG_NONE, NULL, NULL, NULL, NULL, NULL, NULL },
	{ "a slice only", "/user.slice",
	  NSLOG_CG_NONE, NULL, NULL, NULL, NULL, NULL, NULL },
	{ "machine-.scope with nothing between is no machine",
	  "/machine.slice/machine-.scope",
	  NSLOG_CG_NONE, NULL, NULL, NULL, NULL, NULL, "machine-.scope" },
};

static bool same(const char *a, const char *b)
{
	if (!a || !b)
		return a == b;
	return !strcmp(a, b);
}

static const char *show(const char *s)
{
	return s ? s : "(null)";
}

static void test_table(void)
{
	struct nslog_ident id;
	char what[256];
	size_t i;
	int kind;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct cg_case *c = &cases[i];
		bool ok;

		kind = nslog_cg_parse(&id, c->path);
		ok = kind == c->kind && same(id.runtime, c->runtime) &&
		     same(id.engine, c->engine) && same(id.id, c->id) &&
		     same(id.name, c->name) && same(id.pod, c->pod) &&
		     same(id.unit, c->unit) && same(id.cgroup, c->path);
		snprintf(what, sizeof(what), "parse: %s", c->what);
		if (!tap_ok(ok, what))
			printf("#   kind %d runtime %s engine %s id %s name %s pod %s unit %s\n",
			       kind, show(id.runtime), show(id.engine),
			       show(id.id), show(id.name), show(id.pod),
			       show(id.unit));
		nslog_ident_free(&id);
	}
}

static void test_proc_lines(void)
{
	struct nslog_ident id;
	char buf[256];
	const char *p;
	int kind;

	p = nslog_cg_path("0::/system.slice/docker-" ID1 ".scope\n", buf,
			  sizeof(buf));
	tap_str("proc: cgroup v2, one line", p ? p : "",
		"/system.slice/docker-" ID1 ".scope");

	p = nslog_cg_path("12:pids:/docker/" ID1 "\n"
			  "11:memory:/docker/" ID1 "\n"
			  "1:name=systemd:/system.slice/docker-" ID2 ".scope\n"
			  "0::/system.slice/docker-" ID1 ".scope\n",
			  buf, sizeof(buf));
	tap_str("proc: hybrid: the unified hierarchy's line wins", p ? p : "",
		"/system.slice/docker-" ID1 ".scope");

	p = nslog_cg_path("12:pids:/docker/" ID1 "\n"
			  "1:name=systemd:/lxc/web1\n"
			  "2:cpu,cpuacct:/docker/" ID1 "\n", buf, sizeof(buf));
	tap_str("proc: cgroup v1: the name=systemd line", p ? p : "",
		"/lxc/web1");

	p = nslog_cg_path("4:cpu,cpuacct:/lxc/db\n3:memory:/lxc/x\n", buf,
			  sizeof(buf));
	tap_str("proc: cgroup v1 without systemd: the first line", p ? p : "",
		"/lxc/db");

	p = nslog_cg_path("0::/system.slice/a:b.service (deleted)\n", buf,
			  sizeof(buf));
	tap_str("proc: a colon in the path; ' (deleted)' dropped", p ? p : "",
		"/system.slice/a:b.service");

	tap_ok(!nslog_cg_path("", buf, sizeof(buf)) &&
	       !nslog_cg_path("garbage\n", buf, sizeof(buf)) &&
	       !nslog_cg_path("0::\n", buf, sizeof(buf)),
	       "proc: no path: NULL");
	tap_ok(!nslog_cg_path("0::/a/very/long/path\n", buf, 8),
	       "proc: a path longer than the buffer: NULL");

	kind = nslog_cg_from_proc(&id, "0::/lxc.payload.web1\n");
	tap_ok(kind == NSLOG_CG_CONTAINER && same(id.name, "web1") &&
	       same(id.cgroup, "/lxc.payload.web1"),
	       "from_proc: the line, then the table");
	nslog_ident_free(&id);
	tap_int("from_proc: no cgroup line", nslog_cg_from_proc(&id, "x\n"),
		-ENOENT);
}

static void test_ident_ops(void)
{
	struct nslog_ident a, b;

	nslog_cg_parse(&a, "/docker/" ID1);
	tap_ok(!nslog_ident_copy(&b, &a) && nslog_ident_same(&a, &b) &&
	       b.id != a.id && same(b.cgroup, "/docker/" ID1),
	       "ident: a deep copy is the same");
	nslog_ident_free(&b);
	nslog_cg_parse(&b, "/system.slice/docker-" ID1 ".scope");
	tap_ok(nslog_ident_same(&a, &b),
	       "ident: the same container by another cgroup is the same");
	nslog_ident_free(&b);
	nslog_cg_parse(&b, "/docker/" ID2);
	tap_ok(!nslog_ident_same(&a, &b), "ident: another container differs");
	nslog_ident_free(&b);
	nslog_ident_free(&a);
	tap_ok(!a.id && !a.cgroup && !a.runtime, "ident: free empties it");
}

int main(void)
{
	test_table();
	test_proc_lines();
	test_ident_ops();
	return tap_done();
}
