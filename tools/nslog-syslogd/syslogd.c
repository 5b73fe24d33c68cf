// SPDX-License-Identifier: GPL-2.0
/*
 * nslog-syslogd: /dev/log for containers, into nslogger's log sets.
 *
 *   nslog-syslogd [--dir DIR] [--socket PATH] [--stream-socket PATH]
 *		   [--dev-dir DIR]
 *	the host's listener: DIR/control takes the runtimes' commands
 *	(control.c), one socket a container; --socket and --stream-socket
 *	add sockets that store each sender's record into its own set
 *   nslog-syslogd --system [--socket PATH | --stream-socket PATH]
 *		   [--dev-dir DIR]
 *	in a system container: one socket (default /dev/log, datagram)
 *	storing into the container's own set
 *   nslog-syslogd ctl [--dir DIR] COMMAND...
 *	send a command to the host's listener and print its reply
 *
 * The main loop is an epoll set over the sockets, their connections, the
 * control socket and a signalfd; every 10 s the tied sockets whose
 * namespace is gone are closed.  SIGUSR1 prints each socket's counts on
 * stderr; SIGTERM and SIGINT print them and end.  man/nslog-syslogd.8 is
 * the reference.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <linux/nslogger.h>

#include "control.h"
#include "devpath.h"
#include "source.h"
#include "usage.h"

#define PROG		"nslog-syslogd"
#define DEFAULT_DIR	"/run/nslogger/syslog"
#define SYSTEM_SOCKET	"/dev/log"
/* How often tied sockets are checked for a namespace that is gone. */
#define REAP_MS		10000
#define MAX_SOCKETS	16

static void help(void)
{
	printf("Usage: " PROG " [--dir DIR] [--socket PATH] [--stream-socket PATH] [--dev-dir DIR]\n"
	       "       " PROG " --system [--socket PATH | --stream-socket PATH] [--dev-dir DIR]\n"
	       "       " PROG " ctl [--dir DIR] add NAME [dgram|stream] [PID|ipc:ID]\n"
	       "       " PROG " ctl [--dir DIR] attach NAME PID|ipc:ID | remove NAME | list\n"
	       "syslog's /dev/log for containers: each message stored through\n"
	       "NSLOG_IOC_RELAY into its sender's own nslogger log set.\n"
	       "  -d, --dir DIR            the host listener's directory (default " DEFAULT_DIR ")\n"
	       "  -s, --socket PATH        a datagram socket at PATH\n"
	       "  -S, --stream-socket PATH a stream socket at PATH\n"
	       "      --system             serve the listener's own container alone\n"
	       "      --dev-dir DIR        where the log nodes are\n"
	       "  -h, --help, -V, --version\n");
}

static int64_t now_mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void print_counts(struct nslog_sl_listener *l)
{
	char line[512];
	unsigned int i;

	for (i = 0; i < l->nsrc; i++) {
		nslog_sl_counts_line(line, sizeof(line), l->src[i]);
		fprintf(stderr, PROG ": counts: %s\n", line);
	}
}

/* Tied sockets of a namespace that is gone: closed, their folder removed. */
static void reap(struct nslog_sl_listener *l, const char *dir)
{
	struct nslog_info info;
	char path[sizeof(l->src[0]->path)];
	unsigned int i = 0;

	while (i < l->nsrc) {
		struct nslog_sl_source *s = l->src[i];

		if (s->how != NSLOG_SL_TIED || !s->owns_fd || !s->name[0] ||
		    ioctl(s->set_fd, NSLOG_IOC_INFO, &info) ||
		    !(info.flags & NSLOG_INFO_DEAD)) {
			i++;
			continue;
		}
		fprintf(stderr, PROG ": %s: its IPC namespace is gone: socket removed\n",
			s->name);
		snprintf(path, sizeof(path), "%s/%s", dir, s->name);
		nslog_sl_source_remove(l, s, true);
		rmdir(path);
	}
}

/* The soft fd limit raised to the hard one; conns_max fitted to it. */
static void fit_fds(struct nslog_sl_listener *l)
{
	struct rlimit r;

	if (getrlimit(RLIMIT_NOFILE, &r))
		return;
	r.rlim_cur = r.rlim_max;
	setrlimit(RLIMIT_NOFILE, &r);
	getrlimit(RLIMIT_NOFILE, &r);
	/* room for the sockets and their sets' files */
	if (r.rlim_cur < (rlim_t)NSLOG_SL_CONNS_MAX + 2 * 256 + 64)
		l->conns_max = r.rlim_cur > 2 * 256 + 64 + 16 ?
			       (unsigned int)(r.rlim_cur - 2 * 256 - 64) : 16;
}

static int ctl_main(int argc, char **argv)
{
	char line[NSLOG_SL_CMD_MAX + 1] = "";
	static char reply[NSLOG_SL_REPLY_MAX];
	const char *dir = DEFAULT_DIR;
	int i = 1, err;
	size_t n = 0;

	if (i + 1 < argc && !strcmp(argv[i], "--dir")) {
		dir = argv[i + 1];
		i += 2;
	}
	if (i >= argc)
		tool_usage(PROG, "ctl: no command");
	for (; i < argc; i++) {
		int w = snprintf(line + n, sizeof(line) - n, "%s%s",
				 n ? " " : "", argv[i]);

		if (w < 0 || (size_t)w >= sizeof(line) - n)
			tool_usage(PROG, "ctl: command too long");
		n += (size_t)w;
	}
	err = nslog_sl_control_client(dir, line, reply, sizeof(reply));
	if (err) {
		fprintf(stderr, PROG ": ctl: %s/" NSLOG_SL_CONTROL_NAME ": %s\n",
			dir, strerror(-err));
		return 1;
	}
	fputs(reply, strncmp(reply, "ok", 2) ? stderr : stdout);
	return strncmp(reply, "ok", 2) ? 1 : 0;
}

enum { OPT_SYSTEM = 256, OPT_DEV_DIR };

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "dir",		required_argument,	NULL, 'd' },
		{ "socket",		required_argument,	NULL, 's' },
		{ "stream-socket",	required_argument,	NULL, 'S' },
		{ "system",		no_argument,		NULL, OPT_SYSTEM },
		{ "dev-dir",		required_argument,	NULL, OPT_DEV_DIR },
		{ "help",		no_argument,		NULL, 'h' },
		{ "version",		no_argument,		NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	static struct nslog_sl_listener l;
	static struct nslog_sl_control ctl;
	const char *paths[MAX_SOCKETS], *dir = DEFAULT_DIR, *dev_dir = NULL;
	int types[MAX_SOCKETS], nsock = 0, own_fd, epfd, sfd, c, i, n;
	char node[NSLOG_PATH_MAX];
	struct epoll_event ev, evs[64];
	static enum nslog_sl_kind sig_kind = NSLOG_SL_EV_SIGNAL;
	bool system_mode = false, stop = false;
	int64_t next_reap;
	sigset_t mask;

	if (argc > 1 && !strcmp(argv[1], "ctl"))
		return ctl_main(argc - 1, argv + 1);
	while ((c = getopt_long(argc, argv, "d:s:S:hV", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			dir = optarg;
			break;
		case 's':
		case 'S':
			if (nsock == MAX_SOCKETS)
				tool_usage(PROG, "at most %d sockets", MAX_SOCKETS);
			paths[nsock] = optarg;
			types[nsock++] = c == 's' ? SOCK_DGRAM : SOCK_STREAM;
			break;
		case OPT_SYSTEM:
			system_mode = true;
			break;
		case OPT_DEV_DIR:
			dev_dir = optarg;
			break;
		case 'h':
			help();
			return 0;
		case 'V':
			printf(PROG " %s\n", NSLOG_VERSION);
			return 0;
		default:
			tool_usage(PROG, "unknown option");
		}
	}
	if (optind < argc)
		tool_usage(PROG, "unexpected argument '%s'", argv[optind]);
	if (system_mode && nsock > 1)
		tool_usage(PROG, "--system serves one socket");
	if (system_mode && !nsock) {
		paths[0] = SYSTEM_SOCKET;
		types[nsock++] = SOCK_DGRAM;
	}

	if (nslog_dev_path(node, sizeof(node), NSLOG_BUF_MAIN, dev_dir)) {
		fprintf(stderr, PROG ": the main log's path is too long\n");
		return 1;
	}
	own_fd = open(node, O_WRONLY | O_CLOEXEC);
	if (own_fd < 0) {
		fprintf(stderr, PROG ": %s: %s\n", node, strerror(errno));
		return 1;
	}
	epfd = epoll_create1(EPOLL_CLOEXEC);
	sigemptyset(&mask);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGUSR1);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	signal(SIGPIPE, SIG_IGN);
	sfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
	if (epfd < 0 || sfd < 0) {
		fprintf(stderr, PROG ": epoll, signalfd: %s\n", strerror(errno));
		return 1;
	}
	ev.events = EPOLLIN;
	ev.data.ptr = &sig_kind;
	epoll_ctl(epfd, EPOLL_CTL_ADD, sfd, &ev);
	nslog_sl_listener_init(&l, epfd, nslog_sl_relay_ioctl, own_fd);
	fit_fds(&l);

	for (i = 0; i < nsock; i++) {
		int ret = nslog_sl_source_add(&l, "", paths[i], types[i],
					      system_mode ? NSLOG_SL_TIED :
							    NSLOG_SL_WRITERS,
					      system_mode ? own_fd : -1, false,
					      0, NULL);

		if (ret) {
			fprintf(stderr, PROG ": %s: %s\n", paths[i],
				strerror(-ret));
			return 1;
		}
	}
	if (!system_mode) {
		ctl.dir = dir;
		ctl.l = &l;
		ctl.open_set = nslog_sl_open_set;
		c = nslog_sl_control_open(&ctl);
		if (c) {
			fprintf(stderr, PROG ": %s/" NSLOG_SL_CONTROL_NAME ": %s\n",
				dir, strerror(-c));
			return 1;
		}
		ev.data.ptr = &ctl;
		epoll_ctl(epfd, EPOLL_CTL_ADD, ctl.sock, &ev);
	}
	fprintf(stderr, PROG ": serving %d socket%s%s%s\n", nsock,
		nsock == 1 ? "" : "s", system_mode ? ", system container" : ", control ",
		system_mode ? "" : dir);

	next_reap = now_mono_ms() + REAP_MS;
	while (!stop) {
		int64_t left = next_reap - now_mono_ms();

		n = epoll_wait(epfd, evs, 64, left > 0 ? (int)left : 0);
		if (n < 0 && errno != EINTR) {
			fprintf(stderr, PROG ": epoll_wait: %s\n", strerror(errno));
			return 1;
		}
		for (i = 0; i < n; i++) {
			enum nslog_sl_kind *k = evs[i].data.ptr;
			struct signalfd_siginfo si;

			switch (*k) {
			case NSLOG_SL_EV_SOURCE:
				if (nslog_sl_source_ready(&l, evs[i].data.ptr) < 0)
					fprintf(stderr, PROG ": recvmsg: %s\n",
						strerror(errno));
				break;
			case NSLOG_SL_EV_CONN:
				nslog_sl_conn_ready(&l, evs[i].data.ptr,
						    evs[i].events);
				break;
			case NSLOG_SL_EV_CONTROL:
				nslog_sl_control_ready(&ctl);
				/* a removed source's events of this round */
				n = 0;
				break;
			case NSLOG_SL_EV_SIGNAL:
				while (read(sfd, &si, sizeof(si)) == sizeof(si)) {
					print_counts(&l);
					if (si.ssi_signo != SIGUSR1)
						stop = true;
				}
				break;
			}
		}
		if (now_mono_ms() >= next_reap) {
			if (!system_mode)
				reap(&l, dir);
			next_reap = now_mono_ms() + REAP_MS;
		}
	}
	for (i = (int)l.nsrc - 1; i >= 0; i--)
		nslog_sl_source_remove(&l, l.src[i], true);
	if (!system_mode) {
		char path[sizeof(((struct sockaddr_un *)0)->sun_path) + 16];

		snprintf(path, sizeof(path), "%s/" NSLOG_SL_CONTROL_NAME, dir);
		unlink(path);
	}
	close(own_fd);
	return 0;
}
