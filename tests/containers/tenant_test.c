// SPDX-License-Identifier: GPL-2.0
/*
 * tenant_test: the hostile tenants of tests/containers/tenants.sh (issue 14),
 * each one a loop or a sequence of system calls that a shell cannot make.
 *
 *   tenant_test hoard [-U] [-n] [-m MAX] [-d NODE] [-H]
 *	up to MAX times (default 1000): unshare(CLONE_NEWIPC), keep
 *	/proc/self/ns/ipc open, open NODE (default /dev/log_main) for
 *	writing, write a record and keep the file; stop at the first
 *	failure.  -U: first a user namespace of its own (its uid and gid
 *	mapped to 0, as unshare -Ur does); -n: every step is
 *	unshare(CLONE_NEWUSER | CLONE_NEWIPC), one level deeper each time
 *	(MAX defaults to 30 then, under the kernel's depth of 32).  Prints
 *	"sets=N err=ERR" (ERR: the errno name of the open that failed,
 *	"unshare:ERRNO" or "write:ERRNO" for those, "none" if MAX was
 *	reached); -H then prints "ready" and holds everything until killed
 *   tenant_test orphans [-U] [-n N] [-s MS] [-D DIR]
 *	N times (default 24): unshare(CLONE_NEWIPC), open all four logs for
 *	writing (DIR/log_BUF, default /dev/log_BUF), write one record to
 *	each, keep the files but not the namespace, sleep MS ms (default
 *	100) so that the namespace left behind is reaped.  Prints
 *	"cycles=N sets=S refused=R err=ERR" (S cycles got all four files,
 *	R opens failed, ERR the errno name of the last failure or "none"),
 *	then "ready", and holds the files until killed
 *   tenant_test hop LOG PER TAG DIR...
 *	for each cgroup directory DIR (made if missing): move there, write
 *	PER records to /dev/log_LOG as fast as possible; prints
 *	"attempted=N elapsed_ns=E start_ns=S end_ns=T" (CLOCK_MONOTONIC,
 *	the buckets' clock, from before the first write to after the last)
 *   tenant_test pace LOG COUNT RATE SIZE TAG
 *	COUNT records "TAG seq=I" of SIZE payload bytes, RATE a second at
 *	fixed times (start + I / RATE, absolute: no drift); prints
 *	"written=N elapsed_ns=E"
 *   tenant_test flushpriv [-d NODE] self|setuid|scm [UID GID]
 *	open NODE (default /dev/log_main) for reading and for writing with
 *	the caller's credentials, write a record, then LOGGER_FLUSH_LOG on
 *	the write file: "self" as is; "setuid" after setresuid/setresgid to
 *	UID:GID (no groups); "scm" from a child already running as UID:GID
 *	that got the write file over SCM_RIGHTS.  Prints "flush=ok|ERRNO
 *	before=B after=A", B and A the reader's LOGGER_GET_LOG_LEN before
 *	and after (the reader was opened before anything was dropped)
 *   tenant_test openprobe [-d NODE] r|w
 *	print "pid=PID", open NODE for reading (r) or writing (w), close it,
 *	print "opened" (for counting the checks made by one open)
 *   tenant_test stuck [-d NODE] poll|len|next|setver [MS]
 *	a reader stuck in read(): thread A reads a record into a buffer
 *	registered with userfaultfd (missing mode) whose fault is not
 *	served, so A sits in copy_to_user(); thread B then polls the same
 *	file with a timeout of MS ms (default 1000), or makes the ioctl
 *	(LOGGER_GET_LOG_LEN, LOGGER_GET_NEXT_ENTRY_LEN, LOGGER_SET_VERSION)
 *	with a SIGALRM MS ms later whose handler has no SA_RESTART; then
 *	the fault is served and A's read finishes.  All of it runs in a
 *	child; if the probe has not returned within MS + 4000 ms the child
 *	is killed.  Prints "poll ret=R revents=X ms=E" or "ioctl ret=R
 *	errno=ERRNO ms=E", then "reader=N" (what A's read returned); or
 *	"hung" if the probe never returned, "died" if the child exited
 *	before it (it could not set up the stuck reader: see its stderr)
 *   tenant_test idmount SRC DST UIDMAP GIDMAP
 *	an idmapped bind mount of SRC on DST: open_tree(OPEN_TREE_CLONE),
 *	mount_setattr(MOUNT_ATTR_IDMAP) with a user namespace whose maps
 *	are UIDMAP and GIDMAP ("IN:OUT:COUNT"), move_mount().  Prints "ok"
 *
 * A text record is [prio 4][TAG\0][message\0]; an events record a STRING
 * event of tag 1.  Exit status: 0 done (the results are in the output),
 * 1 a step that must not fail failed, 2 usage.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/mount.h>
#include <linux/userfaultfd.h>

#include <linux/nslogger.h>

#define PROG	"tenant_test"

static const char *const log_names[] = { "main", "events", "radio", "system" };

static void __attribute__((noreturn)) usage(const char *what)
{
	fprintf(stderr, PROG ": %s\n(see the top of tests/containers/tenant_test.c)\n",
		what);
	exit(2);
}

static void __attribute__((noreturn)) die(const char *what)
{
	fprintf(stderr, PROG ": %s: %s\n", what, strerror(errno));
	exit(1);
}

static const char *errname(int err)
{
	static char other[16];

	switch (err) {
	case 0: return "ok";
	case EPERM: return "EPERM";
	case EACCES: return "EACCES";
	case ENOENT: return "ENOENT";
	case EINVAL: return "EINVAL";
	case ENOSPC: return "ENOSPC";
	case EAGAIN: return "EAGAIN";
	case EBADF: return "EBADF";
	case EINTR: return "EINTR";
	case ENOMEM: return "ENOMEM";
	case EUSERS: return "EUSERS";
	case EMFILE: return "EMFILE";
	case EFAULT: return "EFAULT";
	case ENOTTY: return "ENOTTY";
	}
	snprintf(other, sizeof(other), "errno%d", err);
	return other;
}

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* A record of exactly @size payload bytes for log @log. */
static size_t make_record(char *buf, size_t size, const char *log,
			  const char *tag, const char *msg)
{
	size_t tl = strlen(tag) + 1, ml = strlen(msg);

	memset(buf, 'x', size);
	if (!strcmp(log, "events")) {
		int etag = 1, slen = (int)size - 9;

		memcpy(buf, &etag, 4);
		buf[4] = NSLOG_EVENT_STRING;
		memcpy(buf + 5, &slen, 4);
		memcpy(buf + 9, msg, ml < size - 9 ? ml : size - 9);
		return size;
	}
	buf[0] = NSLOG_PRIO_INFO;
	memcpy(buf + 1, tag, tl);
	if (1 + tl + ml + 1 > size)
		ml = size - tl - 2;
	memcpy(buf + 1 + tl, msg, ml);
	buf[size - 1] = '\0';
	return size;
}

static int write_record(int fd, const char *log, const char *tag,
			const char *msg)
{
	char buf[128];
	size_t len = make_record(buf, 64, log, tag, msg);

	return write(fd, buf, len) == (ssize_t)len ? 0 : -1;
}

static void write_file(const char *path, const char *text)
{
	size_t len = strlen(text);
	int fd = open(path, O_WRONLY | O_CLOEXEC);

	if (fd < 0 || write(fd, text, len) != (ssize_t)len)
		die(path);
	close(fd);
}

/*
 * unshare(CLONE_NEWUSER | @more) and map this process's uid and gid to 0
 * in the new namespace, as `unshare -Ur` does: the one mapping an
 * unprivileged process may write for itself.
 */
static int unshare_user(int more)
{
	uid_t uid = geteuid();
	gid_t gid = getegid();
	char map[64];

	if (unshare(CLONE_NEWUSER | more))
		return -1;
	write_file("/proc/self/setgroups", "deny");
	snprintf(map, sizeof(map), "0 %u 1\n", uid);
	write_file("/proc/self/uid_map", map);
	snprintf(map, sizeof(map), "0 %u 1\n", gid);
	write_file("/proc/self/gid_map", map);
	return 0;
}

static void __attribute__((noreturn)) hold_forever(void)
{
	puts("ready");
	fflush(stdout);
	for (;;)
		pause();
}

/* --- hoard ------------------------------------------------------------- */

static int cmd_hoard(int argc, char **argv)
{
	const char *node = "/dev/log_main";
	int own_user = 0, nested = 0, hold = 0, max = -1, got = 0, c, i;
	char err[48] = "none", msg[48];

	while ((c = getopt(argc, argv, "+Unm:d:H")) != -1) {
		switch (c) {
		case 'U': own_user = 1; break;
		case 'n': nested = 1; break;
		case 'm': max = atoi(optarg); break;
		case 'd': node = optarg; break;
		case 'H': hold = 1; break;
		default: usage("hoard: bad option");
		}
	}
	if (max < 0)
		max = nested ? 30 : 1000;
	if (own_user && unshare_user(0))
		die("unshare(CLONE_NEWUSER)");
	for (i = 0; i < max; i++) {
		int r, fd;

		r = nested ? unshare_user(CLONE_NEWIPC) : unshare(CLONE_NEWIPC);
		if (r) {
			snprintf(err, sizeof(err), "unshare:%s", errname(errno));
			break;
		}
		/* The namespace lives as long as this file does. */
		if (open("/proc/self/ns/ipc", O_RDONLY | O_CLOEXEC) < 0)
			die("/proc/self/ns/ipc");
		fd = open(node, O_WRONLY | O_CLOEXEC);
		if (fd < 0) {
			snprintf(err, sizeof(err), "%s", errname(errno));
			break;
		}
		snprintf(msg, sizeof(msg), "hoard %d", i);
		if (write_record(fd, "main", "hoard", msg)) {
			snprintf(err, sizeof(err), "write:%s", errname(errno));
			break;
		}
		got++;
	}
	printf("sets=%d err=%s\n", got, err);
	fflush(stdout);
	if (hold)
		hold_forever();
	return 0;
}

/* --- orphans ----------------------------------------------------------- */

static int cmd_orphans(int argc, char **argv)
{
	int own_user = 0, cycles = 24, ms = 100, sets = 0, refused = 0;
	int last_err = 0, c, i, l;
	const char *dir = "/dev";
	char path[4096], msg[48];

	while ((c = getopt(argc, argv, "+Un:s:D:")) != -1) {
		switch (c) {
		case 'U': own_user = 1; break;
		case 'n': cycles = atoi(optarg); break;
		case 's': ms = atoi(optarg); break;
		case 'D': dir = optarg; break;
		default: usage("orphans: bad option");
		}
	}
	if (own_user && unshare_user(0))
		die("unshare(CLONE_NEWUSER)");
	for (i = 0; i < cycles; i++) {
		int opened = 0;

		if (unshare(CLONE_NEWIPC))
			die("unshare(CLONE_NEWIPC)");
		for (l = 0; l < 4; l++) {
			int fd;

			snprintf(path, sizeof(path), "%s/log_%s", dir,
				 log_names[l]);
			fd = open(path, O_WRONLY | O_CLOEXEC);
			if (fd < 0) {
				refused++;
				last_err = errno;
				continue;
			}
			snprintf(msg, sizeof(msg), "orphan %d", i);
			if (write_record(fd, log_names[l], "orphan", msg))
				die("write");
			opened++;	/* and kept */
		}
		if (opened == 4)
			sets++;
		usleep(ms * 1000);
	}
	printf("cycles=%d sets=%d refused=%d err=%s\n", cycles, sets, refused,
	       last_err ? errname(last_err) : "none");
	fflush(stdout);
	hold_forever();
}

/* --- hop, pace --------------------------------------------------------- */

static int open_log(const char *log)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/dev/log_%s", log);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		die(path);
	return fd;
}

static void move_to(const char *dir)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	write_file(path, "0\n");
}

static int cmd_hop(int argc, char **argv)
{
	unsigned long long start = 0, end = 0, attempted = 0;
	const char *log, *tag;
	char buf[128];
	int per, fd, i, j;

	if (argc < 5)
		usage("hop LOG PER TAG DIR...");
	log = argv[1];
	per = atoi(argv[2]);
	tag = argv[3];
	fd = open_log(log);
	make_record(buf, 64, log, tag, "hop");
	for (i = 4; i < argc; i++) {
		if (mkdir(argv[i], 0755) && errno != EEXIST)
			die(argv[i]);
		move_to(argv[i]);
		if (!start)
			start = now_ns();
		for (j = 0; j < per; j++) {
			if (write(fd, buf, 64) != 64)
				die("write");
			attempted++;
		}
	}
	end = now_ns();
	printf("attempted=%llu elapsed_ns=%llu start_ns=%llu end_ns=%llu\n",
	       attempted, end - start, start, end);
	return 0;
}

static int cmd_pace(int argc, char **argv)
{
	unsigned long long start, t;
	int count, rate, size, fd, i, written = 0;
	char buf[LOGGER_ENTRY_MAX_PAYLOAD], msg[64];
	struct timespec ts;

	if (argc != 6)
		usage("pace LOG COUNT RATE SIZE TAG");
	count = atoi(argv[2]);
	rate = atoi(argv[3]);
	size = atoi(argv[4]);
	if (rate <= 0 || size < 16 || size > (int)sizeof(buf))
		usage("pace: bad RATE or SIZE");
	fd = open_log(argv[1]);
	start = now_ns();
	for (i = 0; i < count; i++) {
		t = start + (unsigned long long)i * 1000000000ULL / rate;
		ts.tv_sec = t / 1000000000ULL;
		ts.tv_nsec = t % 1000000000ULL;
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts,
				       NULL) == EINTR)
			;
		snprintf(msg, sizeof(msg), "%s seq=%d", argv[5], i);
		make_record(buf, size, argv[1], argv[5], msg);
		if (write(fd, buf, size) == size)
			written++;
	}
	printf("written=%d elapsed_ns=%llu\n", written, now_ns() - start);
	return 0;
}

/* --- flushpriv, openprobe ---------------------------------------------- */

static void become(uid_t uid, gid_t gid)
{
	if (setgroups(0, NULL))
		die("setgroups");
	if (setresgid(gid, gid, gid))
		die("setresgid");
	if (setresuid(uid, uid, uid))
		die("setresuid");
}

static void send_fd(int sock, int fd)
{
	char data = 'f', cbuf[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { .iov_base = &data, .iov_len = 1 };
	struct msghdr mh = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *cm;

	memset(cbuf, 0, sizeof(cbuf));
	cm = CMSG_FIRSTHDR(&mh);
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &fd, sizeof(int));
	if (sendmsg(sock, &mh, 0) != 1)
		die("sendmsg");
}

static int recv_fd(int sock)
{
	char data, cbuf[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { .iov_base = &data, .iov_len = 1 };
	struct msghdr mh = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *cm;
	int fd;

	if (recvmsg(sock, &mh, MSG_CMSG_CLOEXEC) != 1)
		die("recvmsg");
	cm = CMSG_FIRSTHDR(&mh);
	if (!cm || cm->cmsg_type != SCM_RIGHTS)
		usage("recvmsg: no SCM_RIGHTS");
	memcpy(&fd, CMSG_DATA(cm), sizeof(int));
	return fd;
}

static int cmd_flushpriv(int argc, char **argv)
{
	const char *node = "/dev/log_main", *mode;
	uid_t uid = 0;
	gid_t gid = 0;
	long before, after;
	int rfd, wfd, c, err = 0;

	while ((c = getopt(argc, argv, "+d:")) != -1) {
		if (c == 'd')
			node = optarg;
		else
			usage("flushpriv: bad option");
	}
	if (optind >= argc)
		usage("flushpriv [-d NODE] self|setuid|scm [UID GID]");
	mode = argv[optind];
	if (strcmp(mode, "self")) {
		if (optind + 3 != argc)
			usage("flushpriv: UID GID");
		uid = strtoul(argv[optind + 1], NULL, 10);
		gid = strtoul(argv[optind + 2], NULL, 10);
	}
	rfd = open(node, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (rfd < 0)
		die(node);
	wfd = open(node, O_WRONLY | O_CLOEXEC);
	if (wfd < 0)
		die(node);
	if (write_record(wfd, "main", "flushprobe", "kept?"))
		die("write");
	before = ioctl(rfd, LOGGER_GET_LOG_LEN);
	if (!strcmp(mode, "self")) {
		if (ioctl(wfd, LOGGER_FLUSH_LOG))
			err = errno;
	} else if (!strcmp(mode, "setuid")) {
		become(uid, gid);
		if (ioctl(wfd, LOGGER_FLUSH_LOG))
			err = errno;
	} else if (!strcmp(mode, "scm")) {
		int sv[2], status;
		pid_t pid;

		if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
			die("socketpair");
		pid = fork();
		if (pid < 0)
			die("fork");
		if (!pid) {
			int fd, e = 0;

			close(sv[0]);
			close(rfd);
			close(wfd);
			become(uid, gid);
			fd = recv_fd(sv[1]);
			if (ioctl(fd, LOGGER_FLUSH_LOG))
				e = errno;
			if (write(sv[1], &e, sizeof(e)) != sizeof(e))
				die("write result");
			_exit(0);
		}
		close(sv[1]);
		send_fd(sv[0], wfd);
		if (read(sv[0], &err, sizeof(err)) != sizeof(err))
			die("the child's result");
		if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
		    WEXITSTATUS(status))
			usage("the scm child failed");
	} else {
		usage("flushpriv: self, setuid or scm");
	}
	after = ioctl(rfd, LOGGER_GET_LOG_LEN);
	printf("flush=%s before=%ld after=%ld\n", errname(err), before, after);
	return 0;
}

static int cmd_openprobe(int argc, char **argv)
{
	const char *node = "/dev/log_main";
	int c, fd;

	while ((c = getopt(argc, argv, "+d:")) != -1) {
		if (c == 'd')
			node = optarg;
		else
			usage("openprobe: bad option");
	}
	if (optind + 1 != argc || (strcmp(argv[optind], "r") &&
				   strcmp(argv[optind], "w")))
		usage("openprobe [-d NODE] r|w");
	printf("pid=%d\n", getpid());
	fflush(stdout);
	fd = open(node, (argv[optind][0] == 'r' ? O_RDONLY | O_NONBLOCK :
			 O_WRONLY) | O_CLOEXEC);
	if (fd < 0)
		die(node);
	close(fd);
	puts("opened");
	return 0;
}

/* --- stuck ------------------------------------------------------------- */

struct stuck_reader {
	int fd;
	char *buf;
	size_t len;
	ssize_t ret;
	int err;
};

static void *stuck_read(void *arg)
{
	struct stuck_reader *r = arg;

	r->ret = read(r->fd, r->buf, r->len);
	r->err = r->ret < 0 ? errno : 0;
	return NULL;
}

static void on_alarm(int sig)
{
	(void)sig;
}

/* The child of cmd_stuck: results as lines on @out. */
static void __attribute__((noreturn))
stuck_child(const char *node, const char *probe, int ms, FILE *out)
{
	long page = sysconf(_SC_PAGESIZE);
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = { 0 };
	struct stuck_reader r = { 0 };
	struct pollfd pfd;
	struct uffd_msg msg;
	unsigned long long t0;
	pthread_t thread;
	int uffd, wfd, i;

	wfd = open(node, O_WRONLY | O_CLOEXEC);
	if (wfd < 0)
		die(node);
	if (write_record(wfd, "main", "stuck", "a record to be read"))
		die("write");
	r.fd = open(node, O_RDONLY | O_CLOEXEC);
	if (r.fd < 0)
		die(node);
	uffd = syscall(SYS_userfaultfd, O_CLOEXEC);
	if (uffd < 0)
		die("userfaultfd");
	if (ioctl(uffd, UFFDIO_API, &api))
		die("UFFDIO_API");
	r.len = 2 * page;
	r.buf = mmap(NULL, r.len, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (r.buf == MAP_FAILED)
		die("mmap");
	reg.range.start = (unsigned long)r.buf;
	reg.range.len = r.len;
	reg.mode = UFFDIO_REGISTER_MODE_MISSING;
	if (ioctl(uffd, UFFDIO_REGISTER, &reg))
		die("UFFDIO_REGISTER");
	errno = pthread_create(&thread, NULL, stuck_read, &r);
	if (errno)
		die("pthread_create");
	/* A's fault reported: A is inside copy_to_user(), in read(). */
	pfd.fd = uffd;
	pfd.events = POLLIN;
	if (poll(&pfd, 1, 10000) != 1)
		usage("the reader never faulted on the userfaultfd buffer");
	if (read(uffd, &msg, sizeof(msg)) != sizeof(msg) ||
	    msg.event != UFFD_EVENT_PAGEFAULT)
		die("reading the userfaultfd");
	fprintf(out, "# reader faulted at +%llu\n",
		(unsigned long long)(msg.arg.pagefault.address -
				     (unsigned long)r.buf));
	fflush(out);

	t0 = now_ns();
	if (!strcmp(probe, "poll")) {
		struct pollfd p = { .fd = r.fd, .events = POLLIN };
		int n = poll(&p, 1, ms);

		fprintf(out, "poll ret=%d revents=%#x errno=%s ms=%llu\n", n,
			p.revents, n < 0 ? errname(errno) : "ok",
			(now_ns() - t0) / 1000000);
	} else {
		struct sigaction sa = { .sa_handler = on_alarm };
		struct itimerval it = {
			.it_value = { ms / 1000, ms % 1000 * 1000 },
		};
		int version = 2;
		long ret;

		sigemptyset(&sa.sa_mask);	/* and no SA_RESTART */
		if (sigaction(SIGALRM, &sa, NULL))
			die("sigaction");
		if (setitimer(ITIMER_REAL, &it, NULL))
			die("setitimer");
		if (!strcmp(probe, "len"))
			ret = ioctl(r.fd, LOGGER_GET_LOG_LEN);
		else if (!strcmp(probe, "next"))
			ret = ioctl(r.fd, LOGGER_GET_NEXT_ENTRY_LEN);
		else
			ret = ioctl(r.fd, LOGGER_SET_VERSION, &version);
		fprintf(out, "ioctl ret=%ld errno=%s ms=%llu\n", ret,
			ret < 0 ? errname(errno) : "ok",
			(now_ns() - t0) / 1000000);
	}
	fflush(out);

	/* Serve both pages: A's copy goes on and its read() returns. */
	for (i = 0; i < 2; i++) {
		struct uffdio_zeropage zp = {
			.range = { (unsigned long)r.buf + i * page, page },
		};

		if (ioctl(uffd, UFFDIO_ZEROPAGE, &zp) && errno != EEXIST)
			die("UFFDIO_ZEROPAGE");
	}
	pthread_join(thread, NULL);
	fprintf(out, "reader=%zd%s%s\n", r.ret, r.ret < 0 ? " errno=" : "",
		r.ret < 0 ? errname(r.err) : "");
	fflush(out);
	_exit(0);
}

static int cmd_stuck(int argc, char **argv)
{
	const char *node = "/dev/log_main", *probe;
	int ms = 1000, c, pipefd[2], hung = 1, status;
	char line[256];
	unsigned long long deadline;
	int eof = 0;
	FILE *in;
	pid_t pid;

	while ((c = getopt(argc, argv, "+d:")) != -1) {
		if (c == 'd')
			node = optarg;
		else
			usage("stuck: bad option");
	}
	if (optind >= argc)
		usage("stuck [-d NODE] poll|len|next|setver [MS]");
	probe = argv[optind];
	if (strcmp(probe, "poll") && strcmp(probe, "len") &&
	    strcmp(probe, "next") && strcmp(probe, "setver"))
		usage("stuck: poll, len, next or setver");
	if (optind + 1 < argc)
		ms = atoi(argv[optind + 1]);
	if (pipe2(pipefd, O_CLOEXEC))
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid) {
		close(pipefd[0]);
		stuck_child(node, probe, ms, fdopen(pipefd[1], "w"));
	}
	close(pipefd[1]);
	in = fdopen(pipefd[0], "r");
	/* The watchdog: the probe's line within MS + 4 s, or it hung. */
	deadline = now_ns() + (ms + 4000ULL) * 1000000ULL;
	for (;;) {
		struct pollfd p = { .fd = pipefd[0], .events = POLLIN };
		long long left = (long long)(deadline - now_ns()) / 1000000;

		if (left <= 0 || poll(&p, 1, left) <= 0)
			break;
		if (!fgets(line, sizeof(line), in)) {
			eof = 1;
			break;
		}
		fputs(line, stdout);
		fflush(stdout);
		if (!strncmp(line, "poll ", 5) || !strncmp(line, "ioctl ", 6)) {
			hung = 0;
			/* The reader's line follows once its fault is served. */
			deadline = now_ns() + 10000ULL * 1000000ULL;
		}
		if (!strncmp(line, "reader=", 7))
			break;
	}
	if (hung) {
		/* Gone before the probe: it could not be set up. */
		puts(eof ? "died" : "hung");
		fflush(stdout);
	}
	/* Killing the child makes A's fault fail, which releases B too. */
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	return 0;
}

/* --- idmount ----------------------------------------------------------- */

static int cmd_idmount(int argc, char **argv)
{
	struct mount_attr attr = { .attr_set = MOUNT_ATTR_IDMAP };
	unsigned long in, out, count;
	char path[64], map[64], x;
	int ready[2], go[2], tree, ufd, i;
	pid_t pid;

	if (argc != 5)
		usage("idmount SRC DST UIDMAP GIDMAP");
	if (pipe2(ready, O_CLOEXEC) || pipe2(go, O_CLOEXEC))
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid) {
		if (unshare(CLONE_NEWUSER))
			die("unshare(CLONE_NEWUSER)");
		if (write(ready[1], "u", 1) != 1)
			die("write");
		/* Wait until the parent has the namespace's fd. */
		if (read(go[0], &x, 1) < 0)
			die("read");
		_exit(0);
	}
	if (read(ready[0], &x, 1) != 1)
		usage("idmount: the child could not unshare");
	for (i = 0; i < 2; i++) {
		if (sscanf(argv[3 + i], "%lu:%lu:%lu", &in, &out, &count) != 3)
			usage("idmount: a map is IN:OUT:COUNT");
		snprintf(map, sizeof(map), "%lu %lu %lu\n", in, out, count);
		snprintf(path, sizeof(path), "/proc/%d/%s", pid,
			 i ? "gid_map" : "uid_map");
		write_file(path, map);
	}
	snprintf(path, sizeof(path), "/proc/%d/ns/user", pid);
	ufd = open(path, O_RDONLY | O_CLOEXEC);
	if (ufd < 0)
		die(path);
	attr.userns_fd = ufd;
	if (write(go[1], "g", 1) != 1)
		die("write");
	waitpid(pid, NULL, 0);

	tree = syscall(SYS_open_tree, AT_FDCWD, argv[1],
		       OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC);
	if (tree < 0)
		die("open_tree");
	if (syscall(SYS_mount_setattr, tree, "", AT_EMPTY_PATH, &attr,
		    sizeof(attr)))
		die("mount_setattr(MOUNT_ATTR_IDMAP)");
	if (syscall(SYS_move_mount, tree, "", AT_FDCWD, argv[2],
		    MOVE_MOUNT_F_EMPTY_PATH))
		die("move_mount");
	puts("ok");
	return 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc < 2)
		usage("no command");
	argc--;
	argv++;
	if (!strcmp(argv[0], "hoard"))
		return cmd_hoard(argc, argv);
	if (!strcmp(argv[0], "orphans"))
		return cmd_orphans(argc, argv);
	if (!strcmp(argv[0], "hop"))
		return cmd_hop(argc, argv);
	if (!strcmp(argv[0], "pace"))
		return cmd_pace(argc, argv);
	if (!strcmp(argv[0], "flushpriv"))
		return cmd_flushpriv(argc, argv);
	if (!strcmp(argv[0], "openprobe"))
		return cmd_openprobe(argc, argv);
	if (!strcmp(argv[0], "stuck"))
		return cmd_stuck(argc, argv);
	if (!strcmp(argv[0], "idmount"))
		return cmd_idmount(argc, argv);
	usage("unknown command");
}
