// SPDX-License-Identifier: GPL-2.0
/*
 * syslogbench: syslog datagrams as fast as a receiver takes them, and a
 * bare receiver, for bench/syslog-run.sh.
 *
 *   syslogbench send PATH COUNT JOBS
 *	JOBS processes send COUNT datagrams in all to PATH, each a glibc
 *	syslog(3) line of 96 bytes ("<14>Dec  7 02:42:50 bench[PID]: ...");
 *	blocking sends, so the senders go as fast as the receiver drains
 *   syslogbench recv PATH COUNT
 *	bind a datagram socket at PATH (SO_PASSCRED on, as a syslog daemon
 *	has it), print "ready", receive COUNT datagrams with their
 *	credentials, then exit
 *
 * Exit status: 0, 1 a failure, 2 usage.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

static void usage(void)
{
	fprintf(stderr, "usage: syslogbench send PATH COUNT JOBS | recv PATH COUNT\n");
	exit(2);
}

static void addr(struct sockaddr_un *a, const char *path)
{
	memset(a, 0, sizeof(*a));
	a->sun_family = AF_UNIX;
	snprintf(a->sun_path, sizeof(a->sun_path), "%s", path);
}

static int sender(const char *path, long count)
{
	struct sockaddr_un a;
	char msg[128];
	long i;
	int fd, n;

	addr(&a, path);
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof(a)))
		return 1;
	for (i = 0; i < count; i++) {
		n = snprintf(msg, sizeof(msg),
			     "<14>Dec  7 02:42:50 bench[%6d]: message %08ld of a benchmark, some 96 bytes",
			     (int)getpid(), i);
		while (send(fd, msg, (size_t)n, 0) < 0)
			if (errno != EINTR && errno != ENOBUFS && errno != EAGAIN)
				return 1;
	}
	return 0;
}

static int cmd_send(const char *path, long count, int jobs)
{
	int j, status, rc = 0;

	for (j = 0; j < jobs; j++) {
		pid_t pid = fork();

		if (pid < 0)
			return 1;
		if (!pid)
			_exit(sender(path, count / jobs + (j < count % jobs)));
	}
	while (wait(&status) > 0)
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			rc = 1;
	return rc;
}

static int cmd_recv(const char *path, long count)
{
	union {
		char buf[CMSG_SPACE(sizeof(struct ucred))];
		struct cmsghdr align;
	} ctl;
	char data[8192];
	struct iovec iov = { .iov_base = data, .iov_len = sizeof(data) };
	struct msghdr h;
	struct sockaddr_un a;
	int fd, one = 1;
	long got = 0;

	addr(&a, path);
	unlink(path);
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_PASSCRED, &one, sizeof(one)) ||
	    bind(fd, (struct sockaddr *)&a, sizeof(a)))
		return 1;
	printf("ready\n");
	fflush(stdout);
	while (got < count) {
		memset(&h, 0, sizeof(h));
		h.msg_iov = &iov;
		h.msg_iovlen = 1;
		h.msg_control = ctl.buf;
		h.msg_controllen = sizeof(ctl.buf);
		if (recvmsg(fd, &h, 0) >= 0)
			got++;
		else if (errno != EINTR)
			return 1;
	}
	unlink(path);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 5 && !strcmp(argv[1], "send"))
		return cmd_send(argv[2], atol(argv[3]), atoi(argv[4]));
	if (argc == 4 && !strcmp(argv[1], "recv"))
		return cmd_recv(argv[2], atol(argv[3]));
	usage();
	return 2;
}
