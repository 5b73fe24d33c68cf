// SPDX-License-Identifier: GPL-2.0
/*
 * nslogfs in the guest: run as root with the module loaded, by
 * tests/containers/nslogfs.sh.  Each container case forks a "container": a
 * process that becomes host uid 100000 and unshares a user namespace (its
 * uid 0 and 1 are host 100000 and 100001, mapped by this, its parent, as
 * newuidmap would) with new IPC and mount namespaces, as a rootless runtime
 * does, then mounts nslogfs on a tmpfs of its own.
 *
 *   host (root) ---- /dev/log_* --------------------------------+
 *   |  container: userns 0 -> 100000, 1 -> 100001, ipc, mnt      |
 *   |    tmpfs on /mnt, nslogfs on /mnt/log: main events ...     |
 *   +------------------------------------------------------------+
 *
 * Environment: NSLOG_FS_MNT, the directory a container mounts its tmpfs on
 * (default /mnt).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/nslogger.h>

#include "../lib/tap.h"

#define HOST_BASE	100000	/* container uid 0 on the host */
#define NSHDR		((ssize_t)sizeof(struct nslog_entry))
#define RDBUF		(LOGGER_ENTRY_MAX_PAYLOAD + 64)

static const char *const log_names[4] = { "main", "events", "radio", "system" };
static const char *mnt = "/mnt";
static char logdir[256];

/* ------------------------------------------------------------------ */
/* Processes and namespaces                                           */

/*
 * Run @fn in a child; its CHECK()s count as the case's.  Returns 0 if the
 * child passed, -1 if it failed or died.
 */
static int in_child(void (*fn)(void))
{
	pid_t pid;
	int st;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		tap_failed_now = 0;
		fn();
		fflush(stdout);
		_exit(tap_failed_now ? 1 : 0);
	}
	if (waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

static int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, s, strlen(s));
	close(fd);
	return n == (ssize_t)strlen(s) ? 0 : -1;
}

struct container {
	pid_t pid;
	int go;		/* parent -> child: maps written */
	int done;	/* child -> parent: a byte when the body is done */
};

/*
 * Fork a container that runs @body: host uid HOST_BASE, unshare(CLONE_NEWUSER
 * | @flags), wait for the parent to map 0-1 to HOST_BASE.., become 0.  The
 * body's checks are reported through its exit status (container_wait()).
 * After the body the child stays until container_wait(), so the parent can
 * look at it while it lives (container_body_done()).
 */
static int container_start(struct container *c, int flags, void (*body)(void))
{
	int go[2], ready[2], done[2];
	char b, path[64], map[64];

	if (pipe(go) || pipe(ready) || pipe(done))
		return -1;
	fflush(stdout);
	c->pid = fork();
	if (c->pid < 0)
		return -1;
	if (c->pid == 0) {
		close(go[1]);
		close(ready[0]);
		close(done[0]);
		signal(SIGPIPE, SIG_IGN);
		if (setgroups(0, NULL) || setresgid(HOST_BASE, HOST_BASE, HOST_BASE) ||
		    setresuid(HOST_BASE, HOST_BASE, HOST_BASE) ||
		    unshare(CLONE_NEWUSER | flags))
			_exit(100);
		b = 1;
		if (write(ready[1], &b, 1) != 1 || read(go[0], &b, 1) != 1)
			_exit(101);
		if (setresgid(0, 0, 0) || setresuid(0, 0, 0))
			_exit(102);
		tap_failed_now = 0;
		body();
		fflush(stdout);
		b = 1;
		if (write(done[1], &b, 1) != 1)
			_exit(103);
		/* Stay, so that the parent can look at a live container. */
		if (read(go[0], &b, 1) < 0)
			_exit(104);
		_exit(tap_failed_now ? 1 : 0);
	}
	close(go[0]);
	close(ready[1]);
	close(done[1]);
	if (read(ready[0], &b, 1) != 1)
		return -1;
	close(ready[0]);
	snprintf(map, sizeof(map), "0 %d 2\n", HOST_BASE);
	snprintf(path, sizeof(path), "/proc/%d/uid_map", (int)c->pid);
	if (write_str(path, map))
		return -1;
	snprintf(path, sizeof(path), "/proc/%d/gid_map", (int)c->pid);
	if (write_str(path, map))
		return -1;
	b = 1;
	if (write(go[1], &b, 1) != 1)
		return -1;
	c->go = go[1];
	c->done = done[0];
	return 0;
}

/* Wait until the body is done; the container still lives. */
static int container_body_done(struct container *c)
{
	char b;

	return read(c->done, &b, 1) == 1 ? 0 : -1;
}

/*
 * Let the container exit; 0 if its body passed.  A byte, not end of file,
 * says so: containers forked later hold copies of the pipe's write end.
 */
static int container_wait(struct container *c)
{
	char b = 1;
	int st;

	if (write(c->go, &b, 1) != 1)
		return -1;
	close(c->go);
	close(c->done);
	if (waitpid(c->pid, &st, 0) != c->pid)
		return -1;
	if (!WIFEXITED(st) || WEXITSTATUS(st)) {
		printf("#   container exited with status %#x\n", st);
		return -1;
	}
	return 0;
}

static int container_run(int flags, void (*body)(void))
{
	struct container c;

	if (container_start(&c, flags, body))
		return -1;
	if (container_body_done(&c))
		printf("#   the container's body did not finish\n");
	return container_wait(&c);
}

#define CONTAINER	(CLONE_NEWIPC | CLONE_NEWNS)

/* In a container: a tmpfs of its own on @mnt, and @logdir in it. */
static int own_tmpfs(void)
{
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		return -1;
	if (mount("tmpfs", mnt, "tmpfs", 0, "mode=0755"))
		return -1;
	return mkdir(logdir, 0755);
}

static int mount_logs(const char *opts)
{
	return mount("nslogfs", logdir, "nslogfs", 0, opts);
}

static void log_path(char *p, size_t n, const char *log)
{
	snprintf(p, n, "%s/%s", logdir, log);
}

static int open_fs(const char *log, int flags)
{
	char p[300];

	log_path(p, sizeof(p), log);
	return open(p, flags | O_CLOEXEC);
}

static int open_dev(const char *log, int flags)
{
	char p[64];

	snprintf(p, sizeof(p), "/dev/log_%s", log);
	return open(p, flags | O_CLOEXEC);
}

/* A reader with nslogger's own header. */
static int own_reader(int fd)
{
	int v = NSLOG_ENTRY_VERSION;

	if (fd < 0 || ioctl(fd, LOGGER_SET_VERSION, &v))
		return -1;
	return fd;
}

static ssize_t write_text(int fd, const char *msg)
{
	char buf[256];
	size_t n;

	buf[0] = 4;
	memcpy(buf + 1, "fs", 3);
	n = strlen(msg) + 1;
	memcpy(buf + 4, msg, n);
	return write(fd, buf, 4 + n);
}

/* The next record's message, or NULL; @e gets the header. */
static const char *read_text(int fd, unsigned char *buf)
{
	struct nslog_entry *e = (void *)buf;
	ssize_t n = read(fd, buf, RDBUF);

	if (n < NSHDR + 4)
		return NULL;
	buf[n] = 0;
	return (const char *)e->msg + 4;
}

/* Whether a reader of @fd finds @msg among the records it can see. */
static int finds(int fd, const char *msg)
{
	unsigned char buf[RDBUF + 1];
	const char *m;

	while ((m = read_text(fd, buf)))
		if (!strcmp(m, msg))
			return 1;
	return 0;
}

static int get_info(int fd, struct nslog_info *in)
{
	return ioctl(fd, NSLOG_IOC_INFO, in);
}

static uint64_t ns_id_of(const char *path)
{
	unsigned long long id = 0;
	char l[64];
	ssize_t n = readlink(path, l, sizeof(l) - 1);

	if (n <= 0)
		return 0;
	l[n] = 0;
	return sscanf(l, "ipc:[%llu]", &id) == 1 ? id : 0;
}

/* As container uid 1: 0 if @fn returns 0 in a child. */
static int as_uid1(int (*fn)(void))
{
	pid_t pid;
	int st;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		if (setresgid(1, 1, 1) || setresuid(1, 1, 1))
			_exit(100);
		_exit(fn());
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

/* ------------------------------------------------------------------ */
/* Cases                                                              */

static void body_host_mount(void)
{
	struct nslog_info a, b;
	struct statfs sfs;
	struct stat st;
	char p[300], msg[64];
	int w, r, rd;

	/* A mount namespace of its own, to leave the guest's as it is. */
	REQUIRE(unshare(CLONE_NEWNS) == 0);
	REQUIRE(own_tmpfs() == 0);
	REQUIRE(mount_logs(NULL) == 0);
	CHECK(statfs(logdir, &sfs) == 0 && sfs.f_type == NSLOGFS_SUPER_MAGIC);
	for (int i = 0; i < 4; i++) {
		log_path(p, sizeof(p), log_names[i]);
		CHECK(stat(p, &st) == 0 && S_ISREG(st.st_mode));
		CHECK((st.st_mode & 07777) == 0622 && st.st_uid == 0 &&
		      st.st_gid == 0);
	}
	w = open_dev("main", O_WRONLY);
	r = own_reader(open_fs("main", O_RDONLY | O_NONBLOCK));
	rd = own_reader(open_dev("main", O_RDONLY | O_NONBLOCK));
	REQUIRE(w >= 0 && r >= 0 && rd >= 0);
	CHECK(get_info(w, &a) == 0 && get_info(r, &b) == 0);
	CHECK(a.set_id == b.set_id && b.log_id == 0);
	CHECK(b.ns_id == ns_id_of("/proc/self/ns/ipc"));
	snprintf(msg, sizeof(msg), "dev-to-fs %d", (int)getpid());
	REQUIRE(write_text(w, msg) > 0);
	CHECK(finds(r, msg));
	close(w);
	w = open_fs("main", O_WRONLY);
	REQUIRE(w >= 0);
	snprintf(msg, sizeof(msg), "fs-to-dev %d", (int)getpid());
	REQUIRE(write_text(w, msg) > 0);
	CHECK(finds(rd, msg));
	/* The same ioctls: a size, a length, the version. */
	CHECK(ioctl(w, LOGGER_GET_LOG_BUF_SIZE) ==
	      ioctl(rd, LOGGER_GET_LOG_BUF_SIZE));
	CHECK(ioctl(r, LOGGER_GET_VERSION) == NSLOG_ENTRY_VERSION);
	CHECK_ERR(lseek(r, 0, SEEK_SET), ESPIPE);
	close(w);
	close(r);
	close(rd);
	/* Busy while a file is open, then it goes. */
	r = open_fs("events", O_RDONLY);
	CHECK_ERR(umount(logdir), EBUSY);
	close(r);
	CHECK(umount(logdir) == 0);
}

/* The host's root mounts the host's set: the devices' very logs. */
static void t_host_mount_shows_the_devices_set(void)
{
	CHECK(in_child(body_host_mount) == 0);
}

/*
 * The host's nodes (0622 root:root) let the container write but not read:
 * what it writes through a node it reads back through its mount.
 */
static void body_rootless_own_set(void)
{
	unsigned char buf[RDBUF + 1];
	struct nslog_info a, b;
	int wf, wd, rf;

	REQUIRE(own_tmpfs() == 0);
	REQUIRE(mount_logs(NULL) == 0);
	wf = open_fs("main", O_WRONLY);
	wd = open_dev("main", O_WRONLY);
	rf = own_reader(open_fs("main", O_RDONLY | O_NONBLOCK));
	REQUIRE(wf >= 0 && wd >= 0 && rf >= 0);
	CHECK(get_info(wf, &a) == 0 && get_info(wd, &b) == 0);
	CHECK(a.set_id == b.set_id);
	CHECK(a.ns_id == ns_id_of("/proc/self/ns/ipc"));
	CHECK(a.ns_id != 4026531839u);
	REQUIRE(write_text(wf, "in container via fs") > 0);
	REQUIRE(write_text(wd, "in container via dev") > 0);
	CHECK(finds(rf, "in container via fs"));
	CHECK(finds(rf, "in container via dev"));
	CHECK(read_text(rf, buf) == NULL && errno == EAGAIN);
	close(wf);
	close(wd);
	close(rf);
}

/* A rootless container mounts its own set, the devices' in there. */
static void t_rootless_container_mounts_its_own_set(void)
{
	CHECK(container_run(CONTAINER, body_rootless_own_set) == 0);
}

static void body_no_own_ipc(void)
{
	REQUIRE(own_tmpfs() == 0);
	CHECK_ERR(mount_logs(NULL), EPERM);
}

/*
 * A user namespace that shares the host's IPC namespace cannot mount the
 * host's set: that would give its root the host's logs through chmod.
 */
static void t_userns_without_own_ipc_cannot_mount(void)
{
	CHECK(container_run(CLONE_NEWNS, body_no_own_ipc) == 0);
}

static void body_options(void)
{
	struct stat st;
	char p[300];
	FILE *f;
	char line[512];
	int seen = 0;

	REQUIRE(own_tmpfs() == 0);
	CHECK_ERR(mount_logs("mode=0755"), EINVAL);
	CHECK_ERR(mount_logs("uid=5"), EINVAL);
	CHECK_ERR(mount_logs("gid=5"), EINVAL);
	CHECK_ERR(mount_logs("size=1"), EINVAL);
	REQUIRE(mount_logs("mode=0640,uid=1,gid=1") == 0);
	log_path(p, sizeof(p), "radio");
	CHECK(stat(p, &st) == 0 && (st.st_mode & 07777) == 0640);
	CHECK(st.st_uid == 1 && st.st_gid == 1);
	f = fopen("/proc/self/mountinfo", "r");
	REQUIRE(f);
	while (fgets(line, sizeof(line), f))
		if (strstr(line, " nslogfs ") &&
		    strstr(line, "uid=1,gid=1,mode=0640"))
			seen = 1;
	fclose(f);
	CHECK(seen);
}

/* uid=, gid=, mode= in the container's ids; bad ones refused. */
static void t_mount_options_in_the_containers_ids(void)
{
	CHECK(container_run(CONTAINER, body_options) == 0);
}

static int uid1_write(void)
{
	int w = open_fs("main", O_WRONLY);

	if (w < 0)
		return errno == EACCES ? 10 : 11;
	return write_text(w, "from uid 1") > 0 ? 0 : 12;
}

static int uid1_read(void)
{
	int r = own_reader(open_fs("main", O_RDONLY | O_NONBLOCK));

	if (r < 0)
		return errno == EACCES ? 10 : 11;
	/* Read permission is reading every record: root's included. */
	return finds(r, "root's secret") ? 0 : 12;
}

static int uid1_truncate(void)
{
	char p[300];

	log_path(p, sizeof(p), "main");
	if (truncate(p, 0) == 0)
		return 0;
	return errno == EACCES ? 10 : 11;
}

static int uid1_flush_ioctl(void)
{
	int w = open_fs("main", O_WRONLY);

	if (w < 0)
		return 11;
	if (ioctl(w, LOGGER_FLUSH_LOG) == 0)
		return 0;
	return errno == EPERM ? 10 : 12;
}

static void body_chmod(void)
{
	char p[300];
	int w;

	REQUIRE(own_tmpfs() == 0);
	REQUIRE(mount_logs(NULL) == 0);
	log_path(p, sizeof(p), "main");
	w = open_fs("main", O_WRONLY);
	REQUIRE(w >= 0 && write_text(w, "root's secret") > 0);
	/* 0622: uid 1 writes but may neither read nor flush. */
	CHECK(as_uid1(uid1_write) == 0);
	CHECK(as_uid1(uid1_read) == 10);
	CHECK(as_uid1(uid1_truncate) == 10);
	CHECK(as_uid1(uid1_flush_ioctl) == 10);
	/* Read and write bits only, as mode= takes them. */
	CHECK_ERR(chmod(p, 0755), EINVAL);
	CHECK_ERR(chmod(p, 04622), EINVAL);
	/* 0600: not even write. */
	REQUIRE(chmod(p, 0600) == 0);
	CHECK(as_uid1(uid1_write) == 10);
	/* 0644: uid 1 reads everything, still cannot flush. */
	REQUIRE(chmod(p, 0644) == 0);
	CHECK(as_uid1(uid1_read) == 0);
	CHECK(as_uid1(uid1_truncate) == 10);
	/* Given the file: reads, writes and flushes. */
	REQUIRE(chown(p, 1, 1) == 0 && chmod(p, 0600) == 0);
	CHECK(as_uid1(uid1_write) == 0);
	CHECK(as_uid1(uid1_read) == 0);
	CHECK(as_uid1(uid1_flush_ioctl) == 0);
	CHECK(as_uid1(uid1_truncate) == 0);
	close(w);
}

/* chmod and chown decide who writes, who reads all, who flushes. */
static void t_chmod_chown_decide_access(void)
{
	CHECK(container_run(CONTAINER, body_chmod) == 0);
}

static void body_truncate_stat(void)
{
	unsigned char buf[RDBUF + 1];
	struct stat st;
	char p[300];
	uint32_t size = 16 << 10;
	int w, r, i;
	long len;

	REQUIRE(own_tmpfs() == 0);
	REQUIRE(mount_logs(NULL) == 0);
	log_path(p, sizeof(p), "system");
	CHECK(stat(p, &st) == 0 && st.st_size == 0 && st.st_blocks == 0);
	w = open_fs("system", O_WRONLY);
	r = own_reader(open_fs("system", O_RDONLY | O_NONBLOCK));
	REQUIRE(w >= 0 && r >= 0);
	for (i = 0; i < 3; i++)
		REQUIRE(write_text(w, "twelve bytes") > 0);
	len = ioctl(r, LOGGER_GET_LOG_LEN);
	/* Size: what is held; blocks: the ring, 64 KiB, in 512s. */
	CHECK(stat(p, &st) == 0 && st.st_size == len && len > 0);
	CHECK(st.st_blocks == (64 << 10) / 512);
	CHECK(ioctl(w, NSLOG_IOC_SET_SIZE, &size) == 0);
	CHECK(stat(p, &st) == 0 && st.st_blocks == (16 << 10) / 512);
	CHECK(st.st_size == len);
	CHECK_ERR(truncate(p, 10), EINVAL);
	CHECK(truncate(p, 0) == 0);
	CHECK(stat(p, &st) == 0 && st.st_size == 0);
	CHECK(read_text(r, buf) == NULL && errno == EAGAIN);
	/* O_TRUNC is a truncate too. */
	REQUIRE(write_text(w, "again") > 0);
	i = open(p, O_WRONLY | O_TRUNC | O_CLOEXEC);
	CHECK(i >= 0);
	close(i);
	CHECK(read_text(r, buf) == NULL && errno == EAGAIN);
	close(w);
	close(r);
}

/* truncate to 0 flushes; stat tells what is held and the ring's size. */
static void t_truncate_flushes_stat_shows_size(void)
{
	CHECK(container_run(CONTAINER, body_truncate_stat) == 0);
}

static void body_write_secret(void)
{
	int w;

	REQUIRE(own_tmpfs() == 0);
	REQUIRE(mount_logs(NULL) == 0);
	w = open_fs("radio", O_WRONLY);
	REQUIRE(w >= 0 && write_text(w, "A's secret") > 0);
	close(w);
}

static void body_look_for_secret(void)
{
	int r;

	REQUIRE(own_tmpfs() == 0);
	REQUIRE(mount_logs(NULL) == 0);
	r = own_reader(open_fs("radio", O_RDONLY | O_NONBLOCK));
	REQUIRE(r >= 0);
	CHECK(!finds(r, "A's secret"));
}

/* Two containers' mounts never show each other's streams. */
static void t_two_containers_never_see_each_other(void)
{
	struct container a;
	unsigned char buf[RDBUF + 1];
	struct nslog_open_ns on = { .flags = 0 };
	char p[64];
	int any, r, found = 0;
	const char *m;

	REQUIRE(container_start(&a, CONTAINER, body_write_secret) == 0);
	REQUIRE(container_body_done(&a) == 0);
	CHECK(container_run(CONTAINER, body_look_for_secret) == 0);

	/* The host collects what A wrote through its mount. */
	snprintf(p, sizeof(p), "/proc/%d/ns/ipc", (int)a.pid);
	on.ns_fd = open(p, O_RDONLY | O_CLOEXEC);
	any = open_dev("radio", O_WRONLY);
	REQUIRE(on.ns_fd >= 0 && any >= 0);
	r = own_reader(ioctl(any, NSLOG_IOC_OPEN_NS, &on));
	REQUIRE(r >= 0);
	fcntl(r, F_SETFL, O_NONBLOCK);
	while ((m = read_text(r, buf)))
		found |= !strcmp(m, "A's secret");
	CHECK(found);
	close(r);
	close(any);
	close(on.ns_fd);
	CHECK(container_wait(&a) == 0);
}

/* How many lines of /proc/nslogger/namespaces are of IPC namespace @id. */
static int listed(uint64_t id)
{
	char line[512], want[32];
	FILE *f = fopen("/proc/nslogger/namespaces", "r");
	int n = 0;

	if (!f)
		return -1;
	snprintf(want, sizeof(want), "%llu ", (unsigned long long)id);
	while (fgets(line, sizeof(line), f))
		n += !strncmp(line, want, strlen(want));
	fclose(f);
	return n;
}

static void body_mount_and_hold(void)
{
	int w;

	REQUIRE(own_tmpfs() == 0);
	REQUIRE(mount_logs(NULL) == 0);
	w = open_fs("main", O_WRONLY);
	REQUIRE(w >= 0 && write_text(w, "soon gone") > 0);
	close(w);
}

/*
 * A container's set lives while its namespace or its mount does, and is
 * gone from the listing (freed) once both are: the mount dies with the
 * container's mount namespace.
 */
static void t_set_freed_after_container_and_mount_go(void)
{
	struct container c;
	struct timespec ts = { 0, 50 * 1000 * 1000 };
	char p[64];
	uint64_t id;
	int i;

	REQUIRE(container_start(&c, CONTAINER, body_mount_and_hold) == 0);
	REQUIRE(container_body_done(&c) == 0);
	snprintf(p, sizeof(p), "/proc/%d/ns/ipc", (int)c.pid);
	id = ns_id_of(p);
	REQUIRE(id != 0);
	CHECK(listed(id) == 4);
	CHECK(container_wait(&c) == 0);
	/* ns_grace_ms is lowered by nslogfs.sh; give it ten seconds. */
	for (i = 0; i < 200 && listed(id) > 0; i++)
		nanosleep(&ts, NULL);
	CHECK(listed(id) == 0);
}

/* How many sets host uid HOST_BASE owns, from /proc/nslogger/owners. */
static int owner_sets(void)
{
	char line[128], want[32];
	FILE *f = fopen("/proc/nslogger/owners", "r");
	int n = 0;

	if (!f)
		return -1;
	snprintf(want, sizeof(want), "uid:%d %%d", HOST_BASE);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, want, &n) == 1)
			break;
	fclose(f);
	return n;
}

static void body_mount_refused_over_quota(void)
{
	REQUIRE(own_tmpfs() == 0);
	CHECK_ERR(mount_logs(NULL), ENOSPC);
	/* The same as opening a node: there is no second way in. */
	CHECK_ERR(open_dev("main", O_WRONLY), ENOSPC);
}

/*
 * A tenant at its quota of sets (ns_per_owner) gets no more through
 * mounts: a mount needs its namespace's set as an open does.
 */
static void t_owner_quota_holds_for_mounts(void)
{
	struct container a, b;
	struct timespec ts = { 0, 50 * 1000 * 1000 };
	const char *param = "/sys/module/nslogger/parameters/ns_per_owner";
	char saved[32] = "";
	int fd, i;
	ssize_t n;

	/* Earlier cases' sets of this owner go within the grace period. */
	for (i = 0; i < 200 && owner_sets() > 0; i++)
		nanosleep(&ts, NULL);
	REQUIRE(owner_sets() == 0);
	fd = open(param, O_RDONLY | O_CLOEXEC);
	REQUIRE(fd >= 0);
	n = read(fd, saved, sizeof(saved) - 1);
	close(fd);
	REQUIRE(n > 0);
	REQUIRE(write_str(param, "2") == 0);

	REQUIRE(container_start(&a, CONTAINER, body_mount_and_hold) == 0);
	REQUIRE(container_body_done(&a) == 0);
	REQUIRE(container_start(&b, CONTAINER, body_mount_and_hold) == 0);
	REQUIRE(container_body_done(&b) == 0);
	CHECK(owner_sets() == 2);
	CHECK(container_run(CONTAINER, body_mount_refused_over_quota) == 0);
	CHECK(owner_sets() == 2);
	CHECK(container_wait(&a) == 0);
	CHECK(container_wait(&b) == 0);
	CHECK(write_str(param, saved) == 0);
}

/* ------------------------------------------------------------------ */
/* Streams                                                            */

/* Whether a directory listing of @dir has @name; -1 if it cannot be read. */
static int dir_has(const char *dir, const char *name)
{
	struct dirent *d;
	DIR *dp = opendir(dir);
	int found = 0;

	if (!dp)
		return -1;
	while ((d = readdir(dp)))
		found |= !strcmp(d->d_name, name);
	closedir(dp);
	return found;
}

/* The names of @dir in the order listed, space-separated, dots left out. */
static void dir_names(const char *dir, char *out, size_t n)
{
	struct dirent *d;
	DIR *dp = opendir(dir);

	out[0] = 0;
	if (!dp)
		return;
	while ((d = readdir(dp)))
		if (d->d_name[0] != '.' && strlen(out) + strlen(d->d_name) + 2 < n) {
			strcat(out, out[0] ? " " : "");
			strcat(out, d->d_name);
		}
	closedir(dp);
}

/* Make stream @name in @logdir (a file, 0600): its write fd, or -1. */
static int make_stream(const char *name)
{
	char p[300];

	log_path(p, sizeof(p), name);
	return open(p, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
}

static void body_stream_life(void)
{
	unsigned char buf[RDBUF + 1];
	struct nslog_entry *e = (void *)buf;
	struct nslog_info in;
	struct stat st;
	char p[300], names[256];
	uint32_t size;
	int w, r, fd;

	REQUIRE(own_tmpfs() == 0);
	REQUIRE(mount_logs(NULL) == 0);
	log_path(p, sizeof(p), "app");
	umask(022);
	w = open(p, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0664);
	REQUIRE(w >= 0);
	dir_names(logdir, names, sizeof(names));
	CHECK(!strcmp(names, "main events radio system app"));
	printf("#   listed: %s\n", names);
	CHECK(stat(p, &st) == 0 && S_ISREG(st.st_mode));
	CHECK((st.st_mode & 07777) == 0644 && st.st_uid == 0 && st.st_gid == 0);
	CHECK(st.st_size == 0 && st.st_blocks == 0);
	CHECK_ERR(open(p, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600),
		  EEXIST);

	r = own_reader(open(p, O_RDONLY | O_NONBLOCK | O_CLOEXEC));
	REQUIRE(r >= 0);
	REQUIRE(write_text(w, "to a stream") > 0);
	CHECK(read_text(r, buf) && !strcmp((char *)e->msg + 4, "to a stream"));
	CHECK(e->log_id == NSLOG_STREAM_LOG_ID_MIN);
	CHECK(get_info(w, &in) == 0 && in.log_id == NSLOG_STREAM_LOG_ID_MIN);
	CHECK(in.ns_id == ns_id_of("/proc/self/ns/ipc"));
	/* The mount's default size, 64K; held once written. */
	CHECK(ioctl(w, LOGGER_GET_LOG_BUF_SIZE) == 64 << 10);
	CHECK(stat(p, &st) == 0 && st.st_size > 0 && st.st_blocks == 128);

	/* Sized at run time by the container's root, up to ns_max_size. */
	size = 16 << 10;
	CHECK(ioctl(w, NSLOG_IOC_SET_SIZE, &size) == 0);
	CHECK(ioctl(w, LOGGER_GET_LOG_BUF_SIZE) == 16 << 10);
	CHECK(stat(p, &st) == 0 && st.st_blocks == 32);
	size = 128 << 10;
	CHECK_ERR(ioctl(w, NSLOG_IOC_SET_SIZE, &size), EFBIG);

	/* Truncate flushes it as it does the four logs. */
	REQUIRE(write_text(w, "flushed") > 0);
	CHECK(truncate(p, 0) == 0);
	CHECK(stat(p, &st) == 0 && st.st_size == 0);
	CHECK(read_text(r, buf) == NULL && errno == EAGAIN);

	/* Names: what is not one, and what is not a stream. */
	CHECK_ERR(make_stream("a b"), EINVAL);
	CHECK_ERR(make_stream("0123456789012345678901234567890123456789"), ENAMETOOLONG);
	log_path(p, sizeof(p), "dir");
	CHECK_ERR(mkdir(p, 0755), EPERM);
	CHECK_ERR(mknod(p, S_IFIFO | 0600, 0), EPERM);
	log_path(p, sizeof(p), "main");
	CHECK_ERR(unlink(p), EPERM);
	CHECK(access(p, W_OK) == 0);

	/* Removed: gone from the directory, its reader reads to the end. */
	REQUIRE(write_text(w, "last words") > 0);
	log_path(p, sizeof(p), "app");
	CHECK(unlink(p) == 0);
	CHECK_ERR(open(p, O_WRONLY | O_CLOEXEC), ENOENT);
	CHECK(dir_has(logdir, "app") == 0);
	CHECK(read_text(r, buf) && !strcmp((char *)e->msg + 4, "last words"));
	fcntl(r, F_SETFL, 0);
	CHECK(read(r, buf, RDBUF) == 0);
	/* A new one of the old name is another stream. */
	fd = make_stream("app");
	CHECK(fd >= 0 && get_info(fd, &in) == 0 &&
	      in.log_id == NSLOG_STREAM_LOG_ID_MIN + 1);
	close(fd);
	close(w);
	close(r);
}

/*
 * A rootless container makes a stream by creating a file: written, read,
 * listed, stat()ed, sized, flushed and removed as a file; names checked.
 */
static void t_stream_made_written_removed(void)
{
	CHECK(container_run(CONTAINER, body_stream_life) == 0);
}

static void body_stream_mount_limits(void)
{
	char p[300];
	uint32_t size;
	int a, b;

	REQUIRE(own_tmpfs() == 0);
	CHECK_ERR(mount_logs("size=1x"), EINVAL);
	REQUIRE(mount_logs("size=16K,streams=2,stream_bytes=40K") == 0);
	a = make_stream("a");
	b = make_stream("b");
	REQUIRE(a >= 0 && b >= 0);
	CHECK(ioctl(a, LOGGER_GET_LOG_BUF_SIZE) == 16 << 10);
	CHECK_ERR(make_stream("c"), ENOSPC);
	/* 16K + 32K is past 40K; the size stays. */
	size = 32 << 10;
	CHECK_ERR(ioctl(a, NSLOG_IOC_SET_SIZE, &size), ENOSPC);
	CHECK(ioctl(a, LOGGER_GET_LOG_BUF_SIZE) == 16 << 10);
	/* Removed while open still counts; closed, it frees its place. */
	log_path(p, sizeof(p), "b");
	CHECK(unlink(p) == 0);
	CHECK_ERR(make_stream("c"), ENOSPC);
	close(b);
	b = make_stream("c");
	CHECK(b >= 0);
	close(a);
	close(b);
}

/* The mount's size=, streams= and stream_bytes=: -ENOSPC past them. */
static void t_stream_mount_limits(void)
{
	CHECK(container_run(CONTAINER, body_stream_mount_limits) == 0);
}

/* Host uid HOST_BASE's streams and their bytes, from /proc/nslogger/owners. */
static int owner_streams(unsigned long long *bytes)
{
	char line[128], want[32];
	FILE *f = fopen("/proc/nslogger/owners", "r");
	int sets, n = 0;

	*bytes = 0;
	if (!f)
		return -1;
	snprintf(want, sizeof(want), "uid:%d %%d %%d %%llu", HOST_BASE);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, want, &sets, &n, bytes) == 3)
			break;
	fclose(f);
	return n;
}

static int set_param(const char *name, const char *val, char *saved, size_t n)
{
	char path[128];
	ssize_t got;
	int fd;

	snprintf(path, sizeof(path), "/sys/module/nslogger/parameters/%s", name);
	if (saved) {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return -1;
		got = read(fd, saved, n - 1);
		close(fd);
		if (got <= 0)
			return -1;
		saved[got] = 0;
	}
	return write_str(path, val);
}

static void body_make_two_streams(void)
{
	char name[16];
	int i, fd;

	REQUIRE(own_tmpfs() == 0);
	REQUIRE(mount_logs(NULL) == 0);
	for (i = 0; i < 2; i++) {
		snprintf(name, sizeof(name), "s%d", i);
		fd = make_stream(name);
		CHECK(fd >= 0);
		close(fd);
	}
}

static void body_stream_over_owner_quota(void)
{
	char p[300];
	int fd;

	REQUIRE(own_tmpfs() == 0);
	REQUIRE(mount_logs(NULL) == 0);
	fd = make_stream("one");
	REQUIRE(fd >= 0);
	CHECK_ERR(make_stream("two"), EDQUOT);
	/* Removing the one kept open gains nothing. */
	log_path(p, sizeof(p), "one");
	CHECK(unlink(p) == 0);
	CHECK_ERR(make_stream("two"), EDQUOT);
	close(fd);
	fd = make_stream("two");
	CHECK(fd >= 0);
	close(fd);
}

/*
 * The owner's limits (owner_streams, owner_stream_bytes) hold across its
 * containers and mounts: a tenant cannot multiply them with more
 * namespaces, more mounts, or streams removed but kept open.  What they
 * take is back at 0 once the containers are gone.
 */
static void t_stream_owner_quota_across_containers(void)
{
	struct container a;
	struct timespec ts = { 0, 50 * 1000 * 1000 };
	char saved_n[32], saved_b[32];
	unsigned long long bytes;
	int i;

	/* Earlier cases' sets go within the grace period, streams with them. */
	for (i = 0; i < 200 && owner_streams(&bytes) > 0; i++)
		nanosleep(&ts, NULL);
	REQUIRE(owner_streams(&bytes) == 0);
	REQUIRE(set_param("owner_streams", "3", saved_n, sizeof(saved_n)) == 0);
	REQUIRE(set_param("owner_stream_bytes", "16777216", saved_b,
			  sizeof(saved_b)) == 0);
	REQUIRE(container_start(&a, CONTAINER, body_make_two_streams) == 0);
	REQUIRE(container_body_done(&a) == 0);
	CHECK(owner_streams(&bytes) == 2 && bytes == 2 * 65536ULL);
	CHECK(container_run(CONTAINER, body_stream_over_owner_quota) == 0);
	for (i = 0; i < 200 && owner_streams(&bytes) > 2; i++)
		nanosleep(&ts, NULL);
	CHECK(owner_streams(&bytes) == 2);

	/* Bytes: with room for one 64K stream, the second is refused. */
	CHECK(set_param("owner_streams", "100", NULL, 0) == 0);
	CHECK(set_param("owner_stream_bytes", "196608", NULL, 0) == 0);
	CHECK(container_run(CONTAINER, body_stream_over_owner_quota) == 0);
	CHECK(container_wait(&a) == 0);
	for (i = 0; i < 200 && owner_streams(&bytes) > 0; i++)
		nanosleep(&ts, NULL);
	CHECK(owner_streams(&bytes) == 0 && bytes == 0);
	CHECK(set_param("owner_streams", saved_n, NULL, 0) == 0);
	CHECK(set_param("owner_stream_bytes", saved_b, NULL, 0) == 0);
}

static int uid1_write_s(void)
{
	char p[300];
	int fd;

	log_path(p, sizeof(p), "s");
	fd = open(p, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

static void body_two_mounts(void)
{
	char p[300], q[320], other[300];
	struct stat st;
	int w, fd;

	REQUIRE(own_tmpfs() == 0);
	REQUIRE(mount_logs(NULL) == 0);
	snprintf(other, sizeof(other), "%s/log2", mnt);
	REQUIRE(mkdir(other, 0755) == 0);
	REQUIRE(mount("nslogfs", other, "nslogfs", 0, NULL) == 0);

	/* Looked up in the second mount before it exists: then made. */
	snprintf(q, sizeof(q), "%s/s", other);
	CHECK_ERR(open(q, O_WRONLY | O_CLOEXEC), ENOENT);
	w = make_stream("s");
	REQUIRE(w >= 0);
	log_path(p, sizeof(p), "s");
	REQUIRE(write_text(w, "seen in both") > 0);
	fd = own_reader(open(q, O_RDONLY | O_NONBLOCK | O_CLOEXEC));
	CHECK(fd >= 0 && finds(fd, "seen in both"));
	close(fd);
	CHECK(dir_has(other, "s") == 1);

	/* Owner and mode are the stream's: chmod in one, seen in the other. */
	CHECK(as_uid1(uid1_write_s) == EACCES);
	CHECK(chmod(q, 0622) == 0);
	CHECK(stat(p, &st) == 0 && (st.st_mode & 07777) == 0622);
	CHECK(as_uid1(uid1_write_s) == 0);
	CHECK_ERR(chmod(p, 0755), EINVAL);

	/* Removed through the second, while the first still has it open. */
	CHECK(unlink(q) == 0);
	CHECK_ERR(open(p, O_WRONLY | O_CLOEXEC), ENOENT);
	CHECK(dir_has(logdir, "s") == 0);
	close(w);
}

/* Two mounts of one set show the same streams, made and removed in either. */
static void t_stream_two_mounts_agree(void)
{
	CHECK(container_run(CONTAINER, body_two_mounts) == 0);
}

static void body_make_secret_stream(void)
{
	int w;

	REQUIRE(own_tmpfs() == 0);
	REQUIRE(mount_logs(NULL) == 0);
	w = make_stream("secret");
	REQUIRE(w >= 0);
	REQUIRE(write_text(w, "A's stream") > 0);
	close(w);
}

static void body_no_secret_stream(void)
{
	char p[300];

	REQUIRE(own_tmpfs() == 0);
	REQUIRE(mount_logs(NULL) == 0);
	log_path(p, sizeof(p), "secret");
	CHECK_ERR(open(p, O_RDONLY | O_CLOEXEC), ENOENT);
	CHECK(dir_has(logdir, "secret") == 0);
}

/* Whether the listing has a line of set @id's log @name. */
static int listed_log(uint64_t id, const char *name)
{
	char line[512], want[32], log[64];
	FILE *f = fopen("/proc/nslogger/namespaces", "r");
	int n = 0;

	if (!f)
		return -1;
	snprintf(want, sizeof(want), "%llu ", (unsigned long long)id);
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, want, strlen(want)) &&
		    sscanf(line, "%*s %*s %*s %*s %63s", log) == 1)
			n += !strcmp(log, name);
	fclose(f);
	return n;
}

/*
 * Another container never sees a container's stream; the host lists it
 * and collects it by name (NSLOG_IOC_OPEN_STREAM), and the stream goes
 * with the container.
 */
static void t_stream_private_to_container_collected_by_host(void)
{
	struct nslog_open_stream os = { .ns_fd = -1 };
	unsigned char buf[RDBUF + 1];
	struct nslog_entry *e = (void *)buf;
	struct timespec ts = { 0, 50 * 1000 * 1000 };
	struct container a;
	char p[64];
	int any, r, i;

	REQUIRE(container_start(&a, CONTAINER, body_make_secret_stream) == 0);
	REQUIRE(container_body_done(&a) == 0);
	CHECK(container_run(CONTAINER, body_no_secret_stream) == 0);

	snprintf(p, sizeof(p), "/proc/%d/ns/ipc", (int)a.pid);
	os.ns_id = ns_id_of(p);
	REQUIRE(os.ns_id != 0);
	CHECK(listed(os.ns_id) == 5 && listed_log(os.ns_id, "secret") == 1);
	any = open_dev("main", O_WRONLY);
	REQUIRE(any >= 0);
	strcpy(os.name, "secret");
	r = own_reader(ioctl(any, NSLOG_IOC_OPEN_STREAM, &os));
	CHECK(r >= 0);
	if (r >= 0) {
		fcntl(r, F_SETFL, O_NONBLOCK);
		CHECK(read_text(r, buf) &&
		      !strcmp((char *)e->msg + 4, "A's stream"));
		CHECK(e->log_id == NSLOG_STREAM_LOG_ID_MIN);
		close(r);
	}
	strcpy(os.name, "nosuch");
	CHECK_ERR(ioctl(any, NSLOG_IOC_OPEN_STREAM, &os), ENOENT);
	strcpy(os.name, "main");
	r = ioctl(any, NSLOG_IOC_OPEN_STREAM, &os);
	CHECK(r >= 0);
	close(r);
	memset(os.name, 'x', sizeof(os.name));
	CHECK_ERR(ioctl(any, NSLOG_IOC_OPEN_STREAM, &os), EINVAL);
	os.flags = 1;
	strcpy(os.name, "secret");
	CHECK_ERR(ioctl(any, NSLOG_IOC_OPEN_STREAM, &os), EINVAL);
	close(any);

	CHECK(container_wait(&a) == 0);
	for (i = 0; i < 200 && listed(os.ns_id) > 0; i++)
		nanosleep(&ts, NULL);
	CHECK(listed(os.ns_id) == 0);
}

static int uid1_make_stream(void)
{
	int fd;

	fd = make_stream("mine");
	if (fd >= 0) {
		close(fd);
		return 0;
	}
	return errno;
}

static void body_uid1_no_create(void)
{
	REQUIRE(own_tmpfs() == 0);
	REQUIRE(mount_logs(NULL) == 0);
	/* The directory is its mounter's, 0755: uid 1 makes nothing. */
	CHECK(as_uid1(uid1_make_stream) == EACCES);
}

/* Only who may write the mount's directory makes streams. */
static void t_stream_create_needs_the_directory(void)
{
	CHECK(container_run(CONTAINER, body_uid1_no_create) == 0);
}

#define T(fn) { #fn + 2, fn }
static const struct tap_case cases[] = {
	T(t_host_mount_shows_the_devices_set),
	T(t_rootless_container_mounts_its_own_set),
	T(t_userns_without_own_ipc_cannot_mount),
	T(t_mount_options_in_the_containers_ids),
	T(t_chmod_chown_decide_access),
	T(t_truncate_flushes_stat_shows_size),
	T(t_two_containers_never_see_each_other),
	T(t_set_freed_after_container_and_mount_go),
	T(t_owner_quota_holds_for_mounts),
	T(t_stream_made_written_removed),
	T(t_stream_mount_limits),
	T(t_stream_owner_quota_across_containers),
	T(t_stream_two_mounts_agree),
	T(t_stream_private_to_container_collected_by_host),
	T(t_stream_create_needs_the_directory),
};

int main(int argc, char **argv)
{
	if (getenv("NSLOG_FS_MNT"))
		mnt = getenv("NSLOG_FS_MNT");
	snprintf(logdir, sizeof(logdir), "%s/log", mnt);
	return tap_run(cases, sizeof(cases) / sizeof(cases[0]), argc, argv);
}
