// SPDX-License-Identifier: GPL-2.0
/*
 * syslog_test: the C half of syslog.sh (nslog-syslogd in containers).
 *
 *   syslog_test send [-t TAG] [-f FACILITY] [-p SEVERITY] [-n COUNT]
 *		[-w FILE] MSG
 *	glibc's syslog(3): openlog(TAG, LOG_PID, FACILITY << 3), then COUNT
 *	times (default 1) syslog(SEVERITY, "MSG I"), I from 0; prints
 *	"PID UID" (getpid(), getuid()) once sent; with -w, then waits until
 *	FILE exists (at most 60 s) before it exits.  FACILITY and SEVERITY
 *	are numbers (default 1, user, and 5, notice)
 *   syslog_test dgram [-w FILE] PATH
 *	standard input, whatever its bytes, as one datagram to PATH; with
 *	-w, then waits until FILE exists
 *   syslog_test stream PATH [-n CONNS] [-w FILE]
 *	CONNS stream connections to PATH (default 1), standard input sent on
 *	each; prints "connected N" (N the connections made), "closed N" (of
 *	them, those the listener closed, counted until the count stays the
 *	same for 300 ms, 3 s at most), then waits until FILE exists before
 *	closing them (without -w: at once)
 *
 * Exit status: 0, 1 a failure, 2 usage.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <syslog.h>
#include <unistd.h>

static void usage(void)
{
	fprintf(stderr, "usage: syslog_test send|dgram|stream ... (see the source)\n");
	exit(2);
}

static void wait_file(const char *path)
{
	int i;

	for (i = 0; path && i < 6000 && access(path, F_OK); i++)
		usleep(10000);
}

static size_t slurp(char *buf, size_t size)
{
	size_t n = 0;
	ssize_t r;

	while (n < size && (r = read(0, buf + n, size - n)) > 0)
		n += (size_t)r;
	return n;
}

static int unix_socket(const char *path, int type)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, type | SOCK_CLOEXEC, 0);

	snprintf(a.sun_path, sizeof(a.sun_path), "%s", path);
	if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof(a))) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

static int cmd_send(int argc, char **argv)
{
	const char *tag = "syslog_test", *wait = NULL;
	int c, fac = 1, sev = 5, count = 1, i;

	while ((c = getopt(argc, argv, "t:f:p:n:w:")) != -1) {
		switch (c) {
		case 't': tag = optarg; break;
		case 'f': fac = atoi(optarg); break;
		case 'p': sev = atoi(optarg); break;
		case 'n': count = atoi(optarg); break;
		case 'w': wait = optarg; break;
		default: usage();
		}
	}
	if (optind + 1 != argc)
		usage();
	openlog(tag, LOG_PID, fac << 3);
	for (i = 0; i < count; i++)
		syslog(sev, "%s %d", argv[optind], i);
	closelog();
	printf("%d %d\n", (int)getpid(), (int)getuid());
	fflush(stdout);
	wait_file(wait);
	return 0;
}

static int cmd_dgram(int argc, char **argv)
{
	static char buf[65536];
	const char *wait = NULL;
	size_t n;
	int fd, c;

	while ((c = getopt(argc, argv, "w:")) != -1) {
		if (c != 'w')
			usage();
		wait = optarg;
	}
	if (optind + 1 != argc)
		usage();
	n = slurp(buf, sizeof(buf));
	fd = unix_socket(argv[optind], SOCK_DGRAM);
	if (fd < 0 || send(fd, buf, n, 0) != (ssize_t)n) {
		perror("syslog_test: dgram");
		return 1;
	}
	close(fd);
	wait_file(wait);
	return 0;
}

/* Of @fds, how many the peer closed (or sent something to). */
static int count_closed(const int *fds, int conns)
{
	int i, closed = 0;

	for (i = 0; i < conns; i++) {
		struct pollfd p = { .fd = fds[i], .events = POLLIN };

		if (fds[i] >= 0 && poll(&p, 1, 0) == 1 &&
		    (p.revents & (POLLIN | POLLHUP)))
			closed++;
	}
	return closed;
}

static int cmd_stream(int argc, char **argv)
{
	static char buf[65536];
	const char *wait = NULL, *path;
	int c, conns = 1, i, made = 0, closed = -1, last, same = 0, *fds;
	struct rlimit r;
	size_t n;

	while ((c = getopt(argc, argv, "n:w:")) != -1) {
		switch (c) {
		case 'n': conns = atoi(optarg); break;
		case 'w': wait = optarg; break;
		default: usage();
		}
	}
	if (optind + 1 != argc || conns < 1)
		usage();
	path = argv[optind];
	if (!getrlimit(RLIMIT_NOFILE, &r) && r.rlim_cur < (rlim_t)conns + 16) {
		r.rlim_cur = (rlim_t)conns + 16;
		if (r.rlim_max < r.rlim_cur)
			r.rlim_max = r.rlim_cur;
		setrlimit(RLIMIT_NOFILE, &r);
	}
	n = slurp(buf, sizeof(buf));
	fds = calloc((size_t)conns, sizeof(int));
	if (!fds)
		return 1;
	for (i = 0; i < conns; i++) {
		fds[i] = unix_socket(path, SOCK_STREAM);
		if (fds[i] < 0)
			continue;
		made++;
		/* a connection the listener refused may be closed already */
		if (n)
			send(fds[i], buf, n, MSG_NOSIGNAL);
	}
	for (i = 0; i < 30 && same < 3; i++) {
		usleep(100000);
		last = closed;
		closed = count_closed(fds, conns);
		same = closed == last ? same + 1 : 0;
	}
	printf("connected %d\nclosed %d\n", made, closed);
	fflush(stdout);
	wait_file(wait);
	for (i = 0; i < conns; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	free(fds);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		usage();
	if (!strcmp(argv[1], "send"))
		return cmd_send(argc - 1, argv + 1);
	if (!strcmp(argv[1], "dgram"))
		return cmd_dgram(argc - 1, argv + 1);
	if (!strcmp(argv[1], "stream"))
		return cmd_stream(argc - 1, argv + 1);
	usage();
	return 2;
}
