// SPDX-License-Identifier: GPL-2.0
/*
 * logd_test: the C half of nslogd.sh, logd's protocol from both ends, written
 * from shared/reference/logd-protocol.md (no Android code): a stand-in for
 * Android's init that passes logd its sockets, and a writer, a reader and a
 * control client.  The clients of issue 30's bad-input and many-client
 * checks (burst, junk, readers, hold) are described above their code.
 *
 *   logd_test init [-s DIR] [-r ROOT] -- PROGRAM [ARG...]
 *	Android's init for one service: makes DIR/logd (stream, 0666),
 *	DIR/logdr (seqpacket, 0666) and DIR/logdw (datagram with SO_PASSCRED,
 *	0222), all three logd:logd (1036), as logd.rc's "socket" lines do, and
 *	starts PROGRAM with them as ANDROID_SOCKET_logd, _logdr and _logdw.
 *	PROGRAM is started again whenever it ends, with the same sockets (a
 *	datagram queued meanwhile waits for it).  Serves DIR/property_service
 *	(protocol version 2, PROP_MSG_SETPROP2) and answers 0 to every set.
 *	DIR defaults to /dev/socket.  -r: PROGRAM runs chroot()ed into ROOT
 *	(and its path is ROOT's), as a service of an Android root.  Prints, one line each, "start N PID",
 *	"exit PID status S" or "exit PID signal S", "property NAME=VALUE";
 *	SIGTERM stops PROGRAM with SIGTERM, then itself (exit 0)
 *   logd_test write [-s DIR] [-l ID] [-n COUNT] [-j THREADS] [-d USEC]
 *		[-t TAG] [-c PID [-e ERRNO]] [-W MS] [-L LEN] MSG
 *	COUNT (default 1) datagrams on DIR/logdw from each of THREADS threads
 *	(default 1): the 11-byte header (ID, default 0; the thread's tid;
 *	CLOCK_REALTIME) and a text payload: priority 4, TAG (default
 *	"logd_test") and "MSG T.I" (T the thread, I the record, from 0), each
 *	NUL-terminated; -d sleeps USEC between datagrams; -L sends LEN bytes
 *	of that instead, header included, padded with 'x' (bad input).  First prints
 *	"PID UID" (getpid, getuid).  -c sends each with SCM_CREDENTIALS
 *	claiming pid PID (and the caller's uid and gid); with -e each send
 *	must fail with ERRNO, else the exit status is 1.  -W: then stay until
 *	logdr gives back every record sent ("dumpAndClose pid=PID lids=ID"
 *	every 20 ms), at most MS ms, as a long-lived app stays while logd
 *	stores its records: a writer gone before its datagram is read is
 *	stored unverified and charged to the relay (src/relay.c)
 *   logd_test read [-s DIR] [-n COUNT] [-w MS] COMMAND
 *	sends COMMAND (no NUL) on DIR/logdr and prints each record as
 *	"LID PID UID TID SEC.NSEC PRIO TAG MSG" (a text payload) until end of
 *	file ("eof") or COUNT records; each message is checked: hdr_size at
 *	least 28, len + hdr_size its size.  No message in MS ms (default
 *	10000): "timeout", exit 1
 *   logd_test ctl [-s DIR] [-L] COMMAND...
 *	on DIR/logd, each COMMAND sent with its NUL, and its reply (up to its
 *	NUL) printed, then a newline.  -L: each reply must be length-prefixed
 *	("TOTAL\nBODY\n\f", TOTAL counting itself and all of that); the body
 *	is printed, and a bad prefix is an error
 *
 * Exit status: 0 as expected, 1 a check failed, 2 usage.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define LOGD_UID		1036
#define HDR_SIZE		11	/* android_log_header_t */
#define V4_HDR_SIZE		28	/* struct logger_entry, version 4 */
#define MAX_PAYLOAD		4068
#define READ_BUF		5120
#define PROP_MSG_SETPROP2	0x00020001
#define PROP_NAME_MAX		256
#define PROP_VALUE_MAX		92

static const char *dir = "/dev/socket";

static void __attribute__((noreturn, format(printf, 2, 3)))
die(int code, const char *fmt, ...)
{
	va_list ap;

	fputs("logd_test: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(code);
}

static void __attribute__((noreturn)) usage(void)
{
	die(2, "usage: logd_test init|write|read|ctl ... (see the source)");
}

static const struct { const char *name; int err; } errnos[] = {
	{ "EPERM", EPERM }, { "EINVAL", EINVAL }, { "ESRCH", ESRCH },
};

static int errno_of(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(errnos) / sizeof(errnos[0]); i++)
		if (!strcmp(errnos[i].name, name))
			return errnos[i].err;
	die(2, "unknown errno name %s", name);
}

static void addr_of(struct sockaddr_un *sa, const char *name)
{
	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	if (snprintf(sa->sun_path, sizeof(sa->sun_path), "%s/%s", dir, name) >=
	    (int)sizeof(sa->sun_path))
		die(2, "socket path too long");
}

static int connect_to(const char *name, int type)
{
	struct sockaddr_un sa;
	int fd = socket(AF_UNIX, type | SOCK_CLOEXEC, 0);

	if (fd < 0)
		die(1, "socket: %s", strerror(errno));
	addr_of(&sa, name);
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)))
		die(1, "connect %s: %s", sa.sun_path, strerror(errno));
	return fd;
}

/* A logdr connection that has been sent @cmd (no NUL, as readers send). */
static int logdr_command(const char *cmd)
{
	int fd = connect_to("logdr", SOCK_SEQPACKET);

	if (send(fd, cmd, strlen(cmd), MSG_NOSIGNAL) < 0)
		die(1, "send: %s", strerror(errno));
	return fd;
}

/* --- init ------------------------------------------------------------- */

#define SOCK_PASSCRED	0x1	/* logd.rc's "+passcred" */
#define SOCK_LOGD	0x2	/* logd's: chown logd:logd, inherited by it */

/* A socket of init's at DIR/NAME, bound and chmod'ed; kept open. */
static int make_socket(const char *name, int type, mode_t mode, int flags)
{
	struct sockaddr_un sa;
	int one = 1, fd;

	fd = socket(AF_UNIX, type | (flags & SOCK_LOGD ? 0 : SOCK_CLOEXEC), 0);
	if (fd < 0)
		die(1, "socket %s: %s", name, strerror(errno));
	addr_of(&sa, name);
	unlink(sa.sun_path);
	if ((flags & SOCK_PASSCRED) && setsockopt(fd, SOL_SOCKET, SO_PASSCRED, &one, sizeof(one)))
		die(1, "SO_PASSCRED: %s", strerror(errno));
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)))
		die(1, "bind %s: %s", sa.sun_path, strerror(errno));
	if (type != SOCK_DGRAM && listen(fd, 128))
		die(1, "listen %s: %s", sa.sun_path, strerror(errno));
	if (chmod(sa.sun_path, mode))
		die(1, "chmod %s: %s", sa.sun_path, strerror(errno));
	if ((flags & SOCK_LOGD) && chown(sa.sun_path, LOGD_UID, LOGD_UID))
		die(1, "chown %s: %s", sa.sun_path, strerror(errno));
	return fd;
}

static const char *root;

static pid_t start(char **argv, const int fds[3], const sigset_t *mask)
{
	static const char *const names[3] = { "logd", "logdr", "logdw" };
	static int n;
	char var[64], val[16];
	pid_t pid = fork();
	int i;

	if (pid < 0)
		die(1, "fork: %s", strerror(errno));
	if (!pid) {
		sigprocmask(SIG_UNBLOCK, mask, NULL);
		for (i = 0; i < 3; i++) {
			snprintf(var, sizeof(var), "ANDROID_SOCKET_%s", names[i]);
			snprintf(val, sizeof(val), "%d", fds[i]);
			setenv(var, val, 1);
		}
		if (root && (chroot(root) || chdir("/"))) {
			fprintf(stderr, "logd_test: chroot %s: %s\n", root,
				strerror(errno));
			_exit(127);
		}
		execv(argv[0], argv);
		fprintf(stderr, "logd_test: exec %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	printf("start %d %d\n", ++n, pid);
	return pid;
}

/* One property_service client: one PROP_MSG_SETPROP2, answered 0. */
static void serve_property(int lfd)
{
	struct timeval tv = { .tv_sec = 2 };
	char name[PROP_NAME_MAX + 1], value[PROP_VALUE_MAX + 1];
	uint32_t cmd, len;
	int32_t answer = 0;
	int fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);

	if (fd < 0)
		return;
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (recv(fd, &cmd, 4, MSG_WAITALL) != 4 || cmd != PROP_MSG_SETPROP2) {
		printf("property bad-command\n");
		goto out;
	}
	if (recv(fd, &len, 4, MSG_WAITALL) != 4 || len > PROP_NAME_MAX ||
	    recv(fd, name, len, MSG_WAITALL) != (ssize_t)len)
		goto cut;
	name[len] = 0;
	if (recv(fd, &len, 4, MSG_WAITALL) != 4 || len > PROP_VALUE_MAX ||
	    recv(fd, value, len, MSG_WAITALL) != (ssize_t)len)
		goto cut;
	value[len] = 0;
	printf("property %s=%s\n", name, value);
	if (send(fd, &answer, sizeof(answer), MSG_NOSIGNAL) != sizeof(answer))
		printf("property answer not sent\n");
	goto out;
cut:
	printf("property cut-short\n");
out:
	close(fd);
}

static int cmd_init(int argc, char **argv)
{
	int fds[3], prop, sfd, c, stopping = 0;
	struct signalfd_siginfo si;
	struct pollfd pfd[2];
	pid_t child;
	sigset_t mask;

	while ((c = getopt(argc, argv, "+s:r:")) != -1) {
		switch (c) {
		case 's': dir = optarg; break;
		case 'r': root = optarg; break;
		default: usage();
		}
	}
	if (optind >= argc)
		usage();
	argv += optind;
	setvbuf(stdout, NULL, _IOLBF, 0);
	mkdir(dir, 0755);

	/* logd.rc: socket logd stream 0666 logd logd, and so on. */
	fds[0] = make_socket("logd", SOCK_STREAM, 0666, SOCK_LOGD);
	fds[1] = make_socket("logdr", SOCK_SEQPACKET, 0666, SOCK_LOGD);
	fds[2] = make_socket("logdw", SOCK_DGRAM, 0222,
			     SOCK_LOGD | SOCK_PASSCRED);
	prop = make_socket("property_service", SOCK_STREAM, 0666, 0);

	sigemptyset(&mask);
	sigaddset(&mask, SIGCHLD);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGINT);
	if (sigprocmask(SIG_BLOCK, &mask, NULL))
		die(1, "sigprocmask: %s", strerror(errno));
	sfd = signalfd(-1, &mask, SFD_CLOEXEC);
	if (sfd < 0)
		die(1, "signalfd: %s", strerror(errno));

	child = start(argv, fds, &mask);
	pfd[0] = (struct pollfd){ .fd = sfd, .events = POLLIN };
	pfd[1] = (struct pollfd){ .fd = prop, .events = POLLIN };
	for (;;) {
		if (poll(pfd, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			die(1, "poll: %s", strerror(errno));
		}
		if (pfd[1].revents & POLLIN)
			serve_property(prop);
		if (!(pfd[0].revents & POLLIN))
			continue;
		if (read(sfd, &si, sizeof(si)) != sizeof(si))
			continue;
		if (si.ssi_signo == SIGTERM || si.ssi_signo == SIGINT) {
			stopping = 1;
			if (child > 0)
				kill(child, SIGTERM);
			else
				return 0;
			continue;
		}
		for (;;) {	/* SIGCHLD: reap every child (pid 1 inherits) */
			int status;
			pid_t p = waitpid(-1, &status, WNOHANG);

			if (p <= 0)
				break;
			if (p != child)
				continue;
			if (WIFSIGNALED(status))
				printf("exit %d signal %d\n", p, WTERMSIG(status));
			else
				printf("exit %d status %d\n", p, WEXITSTATUS(status));
			child = -1;
			if (stopping)
				return 0;
			child = start(argv, fds, &mask);
		}
	}
}

/* --- write ------------------------------------------------------------ */

struct writer {
	pthread_t thread;
	int n;
	int fd;
	int id, count, usec, claim, want, raw_len;
	const char *tag, *msg;
	int sent, refused;
};

static void *write_thread(void *arg)
{
	struct writer *w = arg;
	unsigned char buf[HDR_SIZE + MAX_PAYLOAD + 64];
	uint16_t tid = (uint16_t)syscall(SYS_gettid);
	struct timespec ts;
	uint32_t sec, nsec;
	size_t len, tlen = strlen(w->tag) + 1;
	int i;

	for (i = 0; i < w->count; i++) {
		clock_gettime(CLOCK_REALTIME, &ts);
		sec = (uint32_t)ts.tv_sec;
		nsec = (uint32_t)ts.tv_nsec;
		buf[0] = (unsigned char)w->id;
		memcpy(buf + 1, &tid, 2);
		memcpy(buf + 3, &sec, 4);
		memcpy(buf + 7, &nsec, 4);
		len = HDR_SIZE;
		buf[len++] = 4;	/* ANDROID_LOG_INFO */
		memcpy(buf + len, w->tag, tlen);
		len += tlen;
		len += snprintf((char *)buf + len, sizeof(buf) - len, "%s %d.%d",
				w->msg, w->n, i) + 1;
		if (w->raw_len >= 0) {
			if ((size_t)w->raw_len > len)
				memset(buf + len, 'x', w->raw_len - len);
			len = w->raw_len;
		}

		if (w->claim) {
			union {
				char b[CMSG_SPACE(sizeof(struct ucred))];
				struct cmsghdr align;
			} u;
			struct iovec iov = { .iov_base = buf, .iov_len = len };
			struct msghdr mh = {
				.msg_iov = &iov, .msg_iovlen = 1,
				.msg_control = u.b, .msg_controllen = sizeof(u.b),
			};
			struct cmsghdr *cm = CMSG_FIRSTHDR(&mh);
			struct ucred cred = {
				.pid = w->claim, .uid = getuid(), .gid = getgid(),
			};

			cm->cmsg_level = SOL_SOCKET;
			cm->cmsg_type = SCM_CREDENTIALS;
			cm->cmsg_len = CMSG_LEN(sizeof(cred));
			memcpy(CMSG_DATA(cm), &cred, sizeof(cred));
			if (sendmsg(w->fd, &mh, 0) == (ssize_t)len) {
				w->sent++;
			} else if (w->want && errno == w->want) {
				w->refused++;
			} else {
				fprintf(stderr, "logd_test: sendmsg claiming pid %d: %s\n",
					w->claim, strerror(errno));
				w->refused++;
			}
		} else if (send(w->fd, buf, len, 0) == (ssize_t)len) {
			w->sent++;
		} else {
			fprintf(stderr, "logd_test: send: %s\n", strerror(errno));
			break;
		}
		if (w->usec)
			usleep(w->usec);
	}
	return NULL;
}

/* How many records of log @id logdr gives back with this process's pid. */
static int seen(int id)
{
	char cmd[64], buf[READ_BUF];
	int fd, n = 0;
	ssize_t r;

	snprintf(cmd, sizeof(cmd), "dumpAndClose pid=%d lids=%d", getpid(), id);
	fd = logdr_command(cmd);
	while ((r = recv(fd, buf, sizeof(buf), 0)) > 0)
		n++;
	close(fd);
	return n;
}

static void linger(int id, int sent, int ms)
{
	struct timespec t0, t;
	int n;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		n = seen(id);
		clock_gettime(CLOCK_MONOTONIC, &t);
		if (n >= sent || (t.tv_sec - t0.tv_sec) * 1000 +
		    (t.tv_nsec - t0.tv_nsec) / 1000000 >= ms)
			break;
		usleep(20000);
	}
	fprintf(stderr, "logd_test: %d of %d seen through logdr\n", n, sent);
}

static int cmd_write(int argc, char **argv)
{
	struct writer proto = { .count = 1, .tag = "logd_test", .raw_len = -1 };
	struct writer *w;
	int c, i, threads = 1, fd, sent = 0, refused = 0, linger_ms = 0;

	while ((c = getopt(argc, argv, "s:l:n:j:d:t:c:e:W:L:")) != -1) {
		switch (c) {
		case 's': dir = optarg; break;
		case 'l': proto.id = atoi(optarg); break;
		case 'n': proto.count = atoi(optarg); break;
		case 'j': threads = atoi(optarg); break;
		case 'd': proto.usec = atoi(optarg); break;
		case 't': proto.tag = optarg; break;
		case 'c': proto.claim = atoi(optarg); break;
		case 'e': proto.want = errno_of(optarg); break;
		case 'W': linger_ms = atoi(optarg); break;
		case 'L': proto.raw_len = atoi(optarg); break;
		default: usage();
		}
	}
	if (optind != argc - 1 || threads < 1 || threads > 64 ||
	    proto.raw_len > HDR_SIZE + MAX_PAYLOAD + 64 ||
	    strlen(argv[optind]) + strlen(proto.tag) > 1000)
		usage();
	proto.msg = argv[optind];
	printf("%d %u\n", getpid(), getuid());
	fflush(stdout);

	/* One socket, as liblog has: the threads share it. */
	fd = connect_to("logdw", SOCK_DGRAM);
	proto.fd = fd;
	w = calloc(threads, sizeof(*w));
	if (!w)
		die(1, "out of memory");
	for (i = 0; i < threads; i++) {
		w[i] = proto;
		w[i].n = i;
		if (pthread_create(&w[i].thread, NULL, write_thread, &w[i]))
			die(1, "pthread_create failed");
	}
	for (i = 0; i < threads; i++) {
		pthread_join(w[i].thread, NULL);
		sent += w[i].sent;
		refused += w[i].refused;
	}
	fprintf(stderr, "logd_test: %d sent, %d refused\n", sent, refused);
	if (linger_ms)
		linger(proto.id, sent, linger_ms);
	if (proto.want)
		return sent == 0 && refused == threads * proto.count ? 0 : 1;
	return sent == threads * proto.count ? 0 : 1;
}

/* --- read ------------------------------------------------------------- */

static int cmd_read(int argc, char **argv)
{
	unsigned char buf[READ_BUF];
	int c, fd, count = -1, ms = 10000, got = 0;

	while ((c = getopt(argc, argv, "s:n:w:")) != -1) {
		switch (c) {
		case 's': dir = optarg; break;
		case 'n': count = atoi(optarg); break;
		case 'w': ms = atoi(optarg); break;
		default: usage();
		}
	}
	if (optind != argc - 1)
		usage();
	setvbuf(stdout, NULL, _IOLBF, 0);
	fd = logdr_command(argv[optind]);

	while (count < 0 || got < count) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		uint16_t len, hdr;
		int32_t pid, tid, lid;
		uint32_t sec, nsec, uid;
		const char *tag, *msg, *end;
		ssize_t n;

		if (poll(&pfd, 1, ms) == 0) {
			printf("timeout\n");
			return 1;
		}
		n = recv(fd, buf, sizeof(buf), 0);
		if (n < 0)
			die(1, "recv: %s", strerror(errno));
		if (n == 0) {
			printf("eof\n");
			return 0;
		}
		memcpy(&len, buf, 2);
		memcpy(&hdr, buf + 2, 2);
		if (n < V4_HDR_SIZE || hdr < V4_HDR_SIZE || len + hdr != n)
			die(1, "malformed message: %zd bytes, len %u, hdr_size %u",
			    n, len, hdr);
		memcpy(&pid, buf + 4, 4);
		memcpy(&tid, buf + 8, 4);
		memcpy(&sec, buf + 12, 4);
		memcpy(&nsec, buf + 16, 4);
		memcpy(&lid, buf + 20, 4);
		memcpy(&uid, buf + 24, 4);
		/* A text payload: priority, tag, message, each NUL-ended. */
		end = (const char *)buf + n;
		tag = (const char *)buf + hdr + 1;
		msg = tag < end ? memchr(tag, 0, end - tag) : NULL;
		msg = msg ? msg + 1 : end;
		printf("%d %d %u %d %u.%09u %d %.*s %.*s\n", lid, pid, uid, tid,
		       sec, nsec, len ? buf[hdr] : -1,
		       (int)(msg > tag ? msg - tag - 1 : 0), tag,
		       (int)strnlen(msg, end - msg), msg);
		got++;
	}
	return 0;
}

/* --- issue 30's VM checks: filters, bad input, many clients ----------- */
/*
 *   logd_test burst [-s DIR] [-l ID] [-n COUNT] [-t TAG] [-T SEC,...]
 *		[-g K] [-S MS] [-d USEC] [-p] [-e] MSG
 *	COUNT (default 1; 0: until killed) records "MSG I" (I from 0), text
 *	of priority 4 and TAG (default "burst"), on DIR/logdw from one
 *	thread, blocking.  -T: record I claims the I-th time of the list
 *	(seconds, 0 ns; after the list, 1 s more each), not CLOCK_REALTIME.
 *	-e: an events payload instead: tag 42 and one STRING item "MSG I".
 *	-g: after K records, wait for SIGUSR1, then send the rest.  -S: a
 *	send blocked for MS ms is a stall: "stalled at I", exit 1.  -d:
 *	sleep USEC after each record.  -p: "I"
 *	on stdout after each record sent, unbuffered, so that a writer
 *	killed in its loop leaves the count it sent (the kill can fall
 *	between a send and its line: at most one more was sent).  First
 *	prints "PID UID"
 *   logd_test junk dgram [-s DIR] [-r REPEAT]
 *	REPEAT (default 1) times nine datagrams logd refuses: 0, 5 and 10
 *	bytes (short), a header alone (empty), 11 + 4069 and 65,000 bytes
 *	(oversized), log ids 8 and 255 (bad-id), 7 (kernel-id); prints
 *	"sent N"
 *   logd_test junk ctl [-s DIR]
 *	bad input on DIR/logd, one line of what came back per case (below)
 *   logd_test junk logdr [-s DIR]
 *	bad commands on DIR/logdr, each on its own connection: "CASE: N
 *	records, closed" (or "open": nothing came within 5 s)
 *   logd_test readers [-s DIR] [-n CONNS] [-w MS] [-c COUNT] [-g] COMMAND
 *	opens CONNS (default 1000) connections to DIR/logdr (raising its own
 *	RLIMIT_NOFILE), all before any sends anything, then sends COMMAND on
 *	each and reads each to its end, or COUNT records (-c: a stream's);
 *	prints "N connections: R records"
 *	for each count of records R, connections in order, runs of the same
 *	count joined ("1024 connections: 1 records", "6 connections: 0
 *	records"), 0 meaning closed without a record.  A connection silent
 *	MS ms (default 10000) is an error.  -g: before reading, wait until
 *	every connection has something to read (a record, or its end), print
 *	"ready CONNS PID" and wait for SIGUSR1, all CONNS kept open meanwhile
 *   logd_test hold [-s DIR] [-n COUNT] [-w MS] COMMAND
 *	prints its pid, sends COMMAND on DIR/logdr and reads nothing until
 *	SIGUSR1; then reads COUNT records (none in MS ms, default 10000: it
 *	stops) and prints "got N, last MSG"; exit 1 if fewer than COUNT
 */
#define EVENT_TAG_TEST		42
#define EVENT_TYPE_STRING	2
#define CTL_CONNS		64	/* nslogd's NSLOGD_CTL_CONNS */

/* The message of one v4 record: text, or an events STRING item. */
static void record_msg(const unsigned char *buf, ssize_t n, char *out,
		       size_t size)
{
	const unsigned char *p, *end = buf + n;
	uint32_t lid, len;
	uint16_t hdr;

	memcpy(&hdr, buf + 2, 2);
	memcpy(&lid, buf + 20, 4);
	p = buf + hdr;
	if (lid == 2) {
		if (end - p < 9 || p[4] != EVENT_TYPE_STRING) {
			snprintf(out, size, "?");
			return;
		}
		memcpy(&len, p + 5, 4);
		if (len > (size_t)(end - p - 9))
			len = (uint32_t)(end - p - 9);
		snprintf(out, size, "%.*s", (int)len, p + 9);
		return;
	}
	p = end > p ? memchr(p, 0, end - p) : NULL;	/* after the tag */
	if (!p || ++p >= end) {
		snprintf(out, size, "?");
		return;
	}
	snprintf(out, size, "%.*s", (int)strnlen((const char *)p, end - p), p);
}

static int cmd_burst(int argc, char **argv)
{
	unsigned char buf[HDR_SIZE + MAX_PAYLOAD];
	uint16_t tid = (uint16_t)syscall(SYS_gettid);
	struct timeval tv = { 0, 0 };
	const char *tag = "burst", *times = NULL;
	int c, fd, id = 0, count = 1, go = -1, progress = 0, events = 0;
	int usec = 0;
	uint32_t sec = 0;
	sigset_t usr1;
	long i;

	while ((c = getopt(argc, argv, "s:l:n:t:T:g:S:d:pe")) != -1) {
		switch (c) {
		case 's': dir = optarg; break;
		case 'l': id = atoi(optarg); break;
		case 'n': count = atoi(optarg); break;
		case 't': tag = optarg; break;
		case 'T': times = optarg; break;
		case 'g': go = atoi(optarg); break;
		case 'S':
			tv.tv_sec = atoi(optarg) / 1000;
			tv.tv_usec = atoi(optarg) % 1000 * 1000;
			break;
		case 'd': usec = atoi(optarg); break;
		case 'p': progress = 1; break;
		case 'e': events = 1; break;
		default: usage();
		}
	}
	if (optind != argc - 1 || count < 0 || strlen(tag) > 100 ||
	    strlen(argv[optind]) > 1000)
		usage();
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	sigprocmask(SIG_BLOCK, &usr1, NULL);
	printf("%d %u\n", getpid(), getuid());
	fflush(stdout);
	fd = connect_to("logdw", SOCK_DGRAM);
	if (tv.tv_sec || tv.tv_usec)
		setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));

	for (i = 0; !count || i < count; i++) {
		struct timespec ts;
		uint32_t nsec, slen;
		size_t len = HDR_SIZE;
		char msg[1100], line[24];
		int sig;

		if (i == go && sigwait(&usr1, &sig))
			die(1, "sigwait failed");
		clock_gettime(CLOCK_REALTIME, &ts);
		nsec = (uint32_t)ts.tv_nsec;
		if (times && *times) {
			char *end;

			sec = (uint32_t)strtoul(times, &end, 10);
			times = *end == ',' ? end + 1 : end;
			nsec = 0;
		} else if (times) {
			sec++;
			nsec = 0;
		} else {
			sec = (uint32_t)ts.tv_sec;
		}
		buf[0] = (unsigned char)id;
		memcpy(buf + 1, &tid, 2);
		memcpy(buf + 3, &sec, 4);
		memcpy(buf + 7, &nsec, 4);
		slen = (uint32_t)snprintf(msg, sizeof(msg), "%s %ld",
					  argv[optind], i);
		if (events) {
			uint32_t t = EVENT_TAG_TEST;

			memcpy(buf + len, &t, 4);
			buf[len + 4] = EVENT_TYPE_STRING;
			memcpy(buf + len + 5, &slen, 4);
			memcpy(buf + len + 9, msg, slen);
			len += 9 + slen;
		} else {
			buf[len++] = 4;	/* ANDROID_LOG_INFO */
			memcpy(buf + len, tag, strlen(tag) + 1);
			len += strlen(tag) + 1;
			memcpy(buf + len, msg, slen + 1);
			len += slen + 1;
		}
		if (send(fd, buf, len, 0) != (ssize_t)len) {
			if (errno == EAGAIN || errno == EWOULDBLOCK) {
				printf("stalled at %ld\n", i);
				return 1;
			}
			die(1, "send: %s", strerror(errno));
		}
		if (progress) {
			int l = snprintf(line, sizeof(line), "%ld\n", i);

			if (write(1, line, (size_t)l) != l)
				die(1, "write: %s", strerror(errno));
		}
		if (usec)
			usleep(usec);
	}
	return 0;
}

static int send_all(int fd, const void *buf, size_t len)
{
	return send(fd, buf, len, MSG_NOSIGNAL) == (ssize_t)len ? 0 : -1;
}

static int junk_dgram(int repeat)
{
	static unsigned char big[65000];
	static const struct { int id; size_t len; } kinds[] = {
		{ 0, 0 }, { 0, 5 }, { 0, 10 },		/* short */
		{ 0, HDR_SIZE },			/* empty */
		{ 0, HDR_SIZE + MAX_PAYLOAD + 1 },	/* oversized */
		{ 0, sizeof(big) },			/* oversized */
		{ 8, 40 }, { 255, 40 },			/* bad-id */
		{ 7, 40 },				/* kernel-id */
	};
	int fd = connect_to("logdw", SOCK_DGRAM), sndbuf = 256 << 10, n = 0;
	size_t i;

	setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof(sndbuf));
	memset(big, 'j', sizeof(big));
	big[HDR_SIZE] = 4;
	while (repeat-- > 0) {
		for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
			big[0] = (unsigned char)kinds[i].id;
			if (send(fd, big, kinds[i].len, 0) != (ssize_t)kinds[i].len)
				die(1, "send of %zu bytes: %s", kinds[i].len,
				    strerror(errno));
			n++;
		}
	}
	printf("sent %d\n", n);
	return 0;
}

/*
 * One reply on a control connection, into @out: 1 a reply, 0 the
 * connection closed (end of file or reset), -1 nothing within @ms.
 */
static int ctl_reply(int fd, char *out, size_t size, int ms)
{
	size_t n = 0;

	for (;;) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		ssize_t r;

		if (poll(&pfd, 1, ms) == 0)
			return -1;
		r = recv(fd, out + n, 1, 0);
		if (r == 0 || (r < 0 && errno == ECONNRESET))
			return 0;
		if (r < 0)
			die(1, "recv: %s", strerror(errno));
		if (!out[n])
			return 1;
		if (++n == size - 1)
			die(1, "reply too long");
	}
}

/*
 * Print "NAME:", each reply up to @want of them (" | " between), then
 * "; closed", "; open" (nothing more within 200 ms) or "; more: REPLY".
 */
static void ctl_case(const char *name, int fd, int want)
{
	char reply[4096];
	int i, r = 1;

	printf("%s:", name);
	for (i = 0; i < want; i++) {
		r = ctl_reply(fd, reply, sizeof(reply), 5000);
		if (r <= 0)
			break;
		printf("%s %s", i ? " |" : "", reply);
	}
	if (!i)
		printf(" no reply");
	if (r > 0)
		r = ctl_reply(fd, reply, sizeof(reply), 200);
	printf(r == 0 ? "; closed\n" : r < 0 ? "; open\n" : "; more: %s\n", reply);
	close(fd);
}

static int junk_ctl(void)
{
	static const char unknown[] = "frobnicate\0getlogsize 0\0\0getLogSize 0";
	static const char binary[] = "\x01\xff\x80\t\n\0\x7f" "A\xfe\0getLogSize 0";
	static char longest[64 << 10];
	int fd, conns[CTL_CONNS + 1], i;
	char reply[64];

	fd = connect_to("logd", SOCK_STREAM);
	send_all(fd, unknown, sizeof(unknown));
	ctl_case("unknown verbs, an empty command, then one known", fd, 4);

	fd = connect_to("logd", SOCK_STREAM);
	send_all(fd, binary, sizeof(binary));
	ctl_case("binary junk, then a command", fd, 3);

	/* No NUL yet: no reply, until the rest comes. */
	fd = connect_to("logd", SOCK_STREAM);
	send_all(fd, "getLogSize", 10);
	printf("no NUL: %s; ", ctl_reply(fd, reply, sizeof(reply), 300) < 0 ?
	       "no reply" : "a reply");
	send_all(fd, " 0", 3);
	ctl_case("the rest", fd, 1);

	/* No NUL, then the client's end: nothing is run. */
	fd = connect_to("logd", SOCK_STREAM);
	send_all(fd, "clear 0", 7);
	shutdown(fd, SHUT_WR);
	ctl_case("no NUL, then end of file", fd, 1);

	/* 1,023 bytes and the NUL fit; one more does not. */
	memset(longest, 'x', sizeof(longest));
	longest[1023] = '\0';
	fd = connect_to("logd", SOCK_STREAM);
	send_all(fd, longest, 1024);
	send_all(fd, "getLogSize 0", 13);
	ctl_case("1,023 bytes, then a command", fd, 2);
	longest[1023] = 'x';
	longest[1024] = '\0';
	fd = connect_to("logd", SOCK_STREAM);
	send_all(fd, longest, 1025);
	ctl_case("1,024 bytes", fd, 2);
	fd = connect_to("logd", SOCK_STREAM);
	longest[1024] = 'x';
	send_all(fd, longest, sizeof(longest));
	ctl_case("64 KiB without a NUL", fd, 2);

	fd = connect_to("logd", SOCK_STREAM);
	send_all(fd, "exit\0getLogSize 0", 18);
	ctl_case("exit, then a command", fd, 2);

	/*
	 * One connection more than nslogd keeps: the one idle longest (the
	 * first, as every other has sent a command since) is closed.
	 */
	for (i = 0; i <= CTL_CONNS; i++) {
		conns[i] = connect_to("logd", SOCK_STREAM);
		if (!i || i == CTL_CONNS)
			continue;
		send_all(conns[i], "getLogSize 0", 13);
		if (ctl_reply(conns[i], reply, sizeof(reply), 5000) <= 0)
			die(1, "connection %d: no reply", i);
	}
	send_all(conns[i - 1], "getLogSize 0", 13);
	if (ctl_reply(conns[i - 1], reply, sizeof(reply), 5000) <= 0)
		die(1, "connection %d: no reply", i - 1);
	printf("%d connections: the newest answered, ", i);
	ctl_case("the idle first", conns[0], 1);
	for (i = 1; i <= CTL_CONNS; i++)
		close(conns[i]);
	return 0;
}

/* Records until the end of @fd or @max of them (0: no limit); -1 after
 * @ms of silence. */
static int drain_count(int fd, int ms, int max)
{
	unsigned char buf[READ_BUF];
	int n = 0;

	while (!max || n < max) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		ssize_t r;

		if (poll(&pfd, 1, ms) == 0)
			return -1;
		r = recv(fd, buf, sizeof(buf), 0);
		if (r == 0 || (r < 0 && errno == ECONNRESET))
			return n;
		if (r < 0)
			die(1, "recv: %s", strerror(errno));
		n++;
	}
	return n;
}

static int junk_logdr(void)
{
	static const struct { const char *name, *cmd; size_t len; } cases[] = {
		{ "an unknown word", "dumpAndClose lids=0 frob=1", 0 },
		{ "binary junk", "\x00\x01\xff\x80junk", 8 },
		{ "a NUL inside", "dumpAndClose\0lids=0", 19 },
		{ "a number with junk", "dumpAndClose tail=12x", 0 },
		{ "a key twice", "dumpAndClose lids=0 lids=1", 0 },
		{ "an unknown verb", "dumpAll", 0 },
		{ "an empty message", "", 0 },
		{ "255 bytes", NULL, 255 },
	};
	char big[256];
	size_t i;
	int fd, n;

	memset(big, ' ', sizeof(big));
	memcpy(big, "dumpAndClose", 12);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *cmd = cases[i].cmd ? cases[i].cmd : big;
		size_t len = cases[i].len ? cases[i].len : strlen(cmd);

		fd = connect_to("logdr", SOCK_SEQPACKET);
		if (send(fd, cmd, len, MSG_NOSIGNAL) != (ssize_t)len)
			die(1, "send: %s", strerror(errno));
		n = drain_count(fd, 5000, 0);
		printf(n < 0 ? "%s: open\n" : "%s: %d records, closed\n",
		       cases[i].name, n);
		close(fd);
	}

	/* A second command: logd disconnects the client. */
	fd = connect_to("logdr", SOCK_SEQPACKET);
	send(fd, "stream lids=0 tail=1", 20, MSG_NOSIGNAL);
	send(fd, "stream", 6, MSG_NOSIGNAL);
	n = drain_count(fd, 5000, 0);
	printf(n < 0 ? "a second command: open\n" :
	       "a second command: %s, closed\n",
	       n <= 1 ? "at most its tail" : "more than its tail");
	close(fd);
	return 0;
}

static int cmd_junk(int argc, char **argv)
{
	int c, repeat = 1;
	const char *what;

	if (argc < 2)
		usage();
	what = argv[1];
	argc--;
	argv++;
	while ((c = getopt(argc, argv, "s:r:")) != -1) {
		switch (c) {
		case 's': dir = optarg; break;
		case 'r': repeat = atoi(optarg); break;
		default: usage();
		}
	}
	if (optind != argc)
		usage();
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(what, "dgram"))
		return junk_dgram(repeat);
	if (!strcmp(what, "ctl"))
		return junk_ctl();
	if (!strcmp(what, "logdr"))
		return junk_logdr();
	usage();
}

static int cmd_readers(int argc, char **argv)
{
	int c, i, conns = 1000, ms = 10000, count = 0, go = 0, sig;
	int *fd, *got, run;
	struct rlimit rl;
	sigset_t usr1;

	while ((c = getopt(argc, argv, "s:n:w:c:g")) != -1) {
		switch (c) {
		case 's': dir = optarg; break;
		case 'n': conns = atoi(optarg); break;
		case 'w': ms = atoi(optarg); break;
		case 'c': count = atoi(optarg); break;
		case 'g': go = 1; break;
		default: usage();
		}
	}
	if (optind != argc - 1 || conns < 1 || count < 0)
		usage();
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	sigprocmask(SIG_BLOCK, &usr1, NULL);
	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	fd = calloc(conns, sizeof(*fd));
	got = calloc(conns, sizeof(*got));
	if (!fd || !got)
		die(1, "out of memory");
	for (i = 0; i < conns; i++)
		fd[i] = connect_to("logdr", SOCK_SEQPACKET);
	for (i = 0; i < conns; i++)	/* nslogd may have closed it */
		send(fd[i], argv[optind], strlen(argv[optind]), MSG_NOSIGNAL);
	if (go) {
		for (i = 0; i < conns; i++) {
			struct pollfd pfd = { .fd = fd[i], .events = POLLIN };

			if (poll(&pfd, 1, ms) != 1)
				die(1, "connection %d: nothing in %d ms", i, ms);
		}
		printf("ready %d %d\n", conns, getpid());
		fflush(stdout);
		if (sigwait(&usr1, &sig))
			die(1, "sigwait failed");
	}
	for (i = 0; i < conns; i++) {
		got[i] = drain_count(fd[i], ms, count);
		if (got[i] < 0)
			die(1, "connection %d: nothing in %d ms", i, ms);
		close(fd[i]);
	}
	for (i = 0, run = 1; i < conns; i++, run++) {
		if (i + 1 < conns && got[i + 1] == got[i])
			continue;
		printf("%d connections: %d records\n", run, got[i]);
		run = 0;
	}
	return 0;
}

static int cmd_hold(int argc, char **argv)
{
	unsigned char buf[READ_BUF];
	char last[128] = "-";
	int c, fd, sig, count = 1, ms = 10000, got = 0;
	sigset_t usr1;

	while ((c = getopt(argc, argv, "s:n:w:")) != -1) {
		switch (c) {
		case 's': dir = optarg; break;
		case 'n': count = atoi(optarg); break;
		case 'w': ms = atoi(optarg); break;
		default: usage();
		}
	}
	if (optind != argc - 1)
		usage();
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	sigprocmask(SIG_BLOCK, &usr1, NULL);
	fd = logdr_command(argv[optind]);
	printf("%d\n", getpid());
	fflush(stdout);
	if (sigwait(&usr1, &sig))
		die(1, "sigwait failed");
	while (got < count) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		ssize_t n;

		if (poll(&pfd, 1, ms) == 0)
			break;
		n = recv(fd, buf, sizeof(buf), 0);
		if (n <= 0)
			break;
		if (n < V4_HDR_SIZE)
			die(1, "malformed message: %zd bytes", n);
		record_msg(buf, n, last, sizeof(last));
		got++;
	}
	printf("got %d, last %s\n", got, last);
	return got == count ? 0 : 1;
}

/* --- ctl -------------------------------------------------------------- */

static int cmd_ctl(int argc, char **argv)
{
	struct timeval tv = { .tv_sec = 5 };
	static char reply[1 << 20];
	int c, fd, prefixed = 0, rc = 0;

	while ((c = getopt(argc, argv, "s:L")) != -1) {
		switch (c) {
		case 's': dir = optarg; break;
		case 'L': prefixed = 1; break;
		default: usage();
		}
	}
	if (optind >= argc)
		usage();
	fd = connect_to("logd", SOCK_STREAM);
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	for (; optind < argc; optind++) {
		const char *cmd = argv[optind];
		size_t n = 0;

		if (send(fd, cmd, strlen(cmd) + 1, MSG_NOSIGNAL) < 0)
			die(1, "send: %s", strerror(errno));
		for (;;) {	/* up to the reply's NUL */
			ssize_t r = recv(fd, reply + n, 1, 0);

			if (r <= 0)
				die(1, "%s: no whole reply (%s)", cmd,
				    r ? strerror(errno) : "end of file");
			if (!reply[n])
				break;
			if (++n == sizeof(reply) - 1)
				die(1, "%s: reply too long", cmd);
		}
		if (prefixed) {
			char *body;
			unsigned long total = strtoul(reply, &body, 10);

			if (body == reply || *body != '\n' || total != n ||
			    n < (size_t)(body - reply) + 3 ||
			    strcmp(reply + n - 2, "\n\f")) {
				fprintf(stderr, "logd_test: %s: bad length prefix (%zu bytes)\n",
					cmd, n);
				rc = 1;
				continue;
			}
			fwrite(body + 1, 1, n - (body + 1 - reply) - 2, stdout);
			putchar('\n');
		} else {
			printf("%s\n", reply);
		}
	}
	return rc;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		usage();
	if (!strcmp(argv[1], "burst"))
		return cmd_burst(argc - 1, argv + 1);
	if (!strcmp(argv[1], "junk"))
		return cmd_junk(argc - 1, argv + 1);
	if (!strcmp(argv[1], "readers"))
		return cmd_readers(argc - 1, argv + 1);
	if (!strcmp(argv[1], "hold"))
		return cmd_hold(argc - 1, argv + 1);
	if (!strcmp(argv[1], "init"))
		return cmd_init(argc - 1, argv + 1);
	if (!strcmp(argv[1], "write"))
		return cmd_write(argc - 1, argv + 1);
	if (!strcmp(argv[1], "read"))
		return cmd_read(argc - 1, argv + 1);
	if (!strcmp(argv[1], "ctl"))
		return cmd_ctl(argc - 1, argv + 1);
	usage();
}
