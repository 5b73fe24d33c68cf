// SPDX-License-Identifier: GPL-2.0
/*
 * nslogd: a logd for Android containers that stores into nslogger.
 *
 * This version serves writers, readers and control: it takes logd's three
 * sockets, stores every logdw datagram of the logs main, radio, events and
 * system into the log set of its IPC namespace with NSLOG_IOC_RELAY, crash,
 * stats and security into streams of the same set (streams.c), and counts
 * the rest; logdr readers get the set's records (reader.c); logd's control
 * commands are answered (control.c); the kernel log holds what nslogd
 * itself reports (klog.c). README.md, beside this file, says what works
 * and what not yet.
 *
 * Start-up in order: the sockets, whom to become (which they decide),
 * the view of the set's nslogfs (which may mount, so before the drop), the
 * store, the signals, control, the readers; then every privilege but
 * CAP_SYSLOG dropped (priv.c), the start told in the kernel log, and
 * logd.ready=true through init's property service (once, bounded by a
 * timeout); torn down in reverse. One thread, one poll() loop; nothing in
 * it blocks.
 */
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <time.h>
#include <unistd.h>

#include "control.h"
#include "klog.h"
#include "logcred.h"
#include "priv.h"
#include "property.h"
#include "ringctl.h"
#include "rdlog.h"
#include "reader.h"
#include "reinit.h"
#include "sockets.h"
#include "stats.h"
#include "store.h"
#include "streams.h"
#include "writer.h"

#ifndef NSLOG_VERSION
#define NSLOG_VERSION "unknown"
#endif

struct nslogd {
	const char *socket_dir;
	const char *dev_dir;
	const char *prop_socket;	/* the property service, "" for none */
	const char *user;		/* --user, or NULL */
	int sock[NSLOGD_SOCKS];
	bool inherited[NSLOGD_SOCKS];
	int sigfd;
	struct nslogd_user become;	/* whom to become: priv.c */
	struct nslogd_streams streams;	/* logs 4 to 7 */
	struct nslogd_rdlogs rdlogs;	/* what the readers open */
	struct nslogd_klog klog;	/* the kernel log */
	struct nslogd_store store;
	struct nslogd_stats stats;
	struct nslogd_writer writer;	/* the batch buffers: ~130 KiB */
	struct nslogd_control control;	/* logd: ~70 KiB */
	struct nslogd_reader reader;	/* logdr: reader.c */
	struct nslogd_prop_stats ready;	/* logd.ready: property.c */
};

/* Static: the writer's buffers are too big for the stack. */
static struct nslogd d;

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: nslogd [--socket-dir DIR] [--dev-dir DIR]\n"
		"              [--property-socket PATH] [--user UID[:GID[,GROUP...]]]\n"
		"\n"
		"Android's logd for containers, storing into nslogger.\n"
		"\n"
		"Sockets come from init (ANDROID_SOCKET_logd, _logdr, _logdw);\n"
		"those not passed are made in DIR (default " NSLOGD_SOCKET_DIR ").\n"
		"Logs: the nodes of DIR as nslogcat --dev-dir finds them, else\n"
		"$NSLOG_DEV_DIR, else /dev/log/ or /dev/log_*.\n"
		"\n"
		"  -s, --socket-dir DIR  make missing sockets in DIR\n"
		"  -d, --dev-dir DIR     the log nodes' directory\n"
		"  -p, --property-socket PATH\n"
		"                        init's property service, for logd.ready=true\n"
		"                        (default " NSLOGD_PROP_SOCKET ";\n"
		"                        \"\" sets nothing)\n"
		"  -u, --user UID[:GID[,GROUP...]]\n"
		"                        become that user once set up (default: 1036:1036,\n"
		"                        1007,3009 when root and init passed all three\n"
		"                        sockets, else the same user); only CAP_SYSLOG\n"
		"                        is kept\n"
		"      --reinit          ask the running logd to reread the event\n"
		"                        tags over DIR/logd, as logd --reinit\n"
		"                        (logd.rc's logd-reinit); 0 on success\n"
		"  -h, --help            this text\n"
		"  -V, --version         the version\n"
		"\n"
		"SIGUSR1 prints the counters on stderr; SIGTERM and SIGINT end\n"
		"it, printing them too.\n");
}

static void print_stats(void)
{
	char line[1024];

	nslogd_stats_format(&d.stats, line, sizeof(line));
	fprintf(stderr, "nslogd: %s\n", line);
	nslogd_control_format(&d.control, line, sizeof(line));
	fprintf(stderr, "nslogd: %s\n", line);
	nslogd_rdstats_format(&d.reader.st, line, sizeof(line));
	fprintf(stderr, "nslogd: %s\n", line);
	nslogd_prop_format(&d.ready, line, sizeof(line));
	fprintf(stderr, "nslogd: %s\n", line);
}

static int sockets_init(void)
{
	int i, fd;

	for (i = 0; i < NSLOGD_SOCKS; i++)
		d.sock[i] = -1;
	for (i = 0; i < NSLOGD_SOCKS; i++) {
		fd = nslogd_sock_open(i, d.socket_dir, &d.inherited[i]);
		if (fd < 0) {
			fprintf(stderr, "nslogd: socket %s: %s\n",
				nslogd_sock_specs[i].name, strerror(-fd));
			return -1;
		}
		d.sock[i] = fd;
	}
	return 0;
}

/* Close the sockets; remove the files of those made here. */
static void sockets_exit(void)
{
	char path[256];
	int i;

	for (i = NSLOGD_SOCKS - 1; i >= 0; i--) {
		if (d.sock[i] < 0)
			continue;
		if (!d.inherited[i] &&
		    !nslogd_sock_path(path, sizeof(path), i, d.socket_dir))
			unlink(path);
		close(d.sock[i]);
		d.sock[i] = -1;
	}
}

static int signals_init(void)
{
	sigset_t set;

	signal(SIGPIPE, SIG_IGN);
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGUSR1);
	if (sigprocmask(SIG_BLOCK, &set, NULL))
		return -1;
	d.sigfd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	return d.sigfd < 0 ? -1 : 0;
}

/* 1: go on; 0: asked to stop. */
static int take_signals(void)
{
	struct signalfd_siginfo si;

	while (read(d.sigfd, &si, sizeof(si)) == sizeof(si)) {
		if (si.ssi_signo == SIGUSR1)
			print_stats();
		else
			return 0;
	}
	return 1;
}

/*
 * Readers: a connection holds its socket and a read fd per log it asked
 * for, up to 9 fds; NSLOGD_READERS_MAX of them need more than the usual
 * soft limit of 1024, so take the hard limit.
 */
static int readers_init(void)
{
	struct nslogd_rdops ops;
	struct rlimit rl;

	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	d.rdlogs.dev_dir = d.dev_dir;
	d.rdlogs.streams = &d.streams;
	nslogd_rdlog_ops(&ops, &d.rdlogs);
	return nslogd_reader_init(&d.reader, d.sock[NSLOGD_SOCK_LOGDR], &ops,
				  nslogd_logcred);
}

/*
 * logd.ready=true, as logd sets it once its listeners are up; Android 13+
 * sets it false when logd restarts, so a restarted nslogd sets it again.
 * No property service (a host, a test) is not an error; a failure is told
 * and counted, and nslogd serves on.
 */
static void set_ready(void)
{
	enum nslogd_prop_result r;
	char why[160];

	if (!*d.prop_socket)
		return;
	r = nslogd_prop_set(d.prop_socket, "logd.ready", "true",
			    NSLOGD_PROP_TIMEOUT_MS, why, sizeof(why));
	d.ready.n[r]++;
	if (r == NSLOGD_PROP_FAILED)
		fprintf(stderr, "nslogd: logd.ready=true not set through %s: %s\n",
			d.prop_socket, why);
}

/*
 * Whom nslogd becomes once set up: --user, else logd's ids where Android's
 * init made the sockets and nslogd runs as root (priv.c says why), else
 * the ids it has. Known before the sockets are taken (from the
 * environment) only for --user; the default is settled by
 * pick_default_user() once they are.
 */
static int pick_user(void)
{
	if (d.user && nslogd_priv_parse_user(d.user, &d.become)) {
		fprintf(stderr, "nslogd: --user %s: not UID[:GID[,GROUP...]]\n",
			d.user);
		return -1;
	}
	return 0;
}

static void pick_default_user(void)
{
	if (d.user)
		return;
	nslogd_priv_default_user(geteuid(),
				 d.inherited[NSLOGD_SOCK_LOGD] &&
				 d.inherited[NSLOGD_SOCK_LOGDR] &&
				 d.inherited[NSLOGD_SOCK_LOGDW], &d.become);
}

/*
 * The view of the set's nslogfs for logs 4 to 7, made as the user nslogd
 * becomes will use it (streams.c). Said once on stderr: without one,
 * crash, stats and security are refused (no-log) and the kernel log
 * stays empty.
 */
static void streams_init(void)
{
	static gid_t groups[NSLOGD_GROUPS_MAX];
	struct nslogd_who who;
	int n, err;

	if (d.become.set) {
		who = (struct nslogd_who){ d.become.uid, d.become.gid,
					   d.become.ngroups, d.become.groups };
	} else {
		n = getgroups(NSLOGD_GROUPS_MAX, groups);
		who = (struct nslogd_who){ geteuid(), getegid(),
					   n > 0 ? (size_t)n : 0, groups };
	}
	err = nslogd_streams_view(&d.streams, d.dev_dir, &who,
				  nslogd_ringctl_ioctl);
	if (err)
		fprintf(stderr,
			"nslogd: streams: none (an nslogfs mount of the set: %s); crash, stats and security are refused (no-log) and the kernel log stays empty\n",
			strerror(-err));
	else if (d.streams.err)
		fprintf(stderr,
			"nslogd: streams: in the nodes' nslogfs, where uid %u may not make them (a mount of its own: %s); only streams already there are used\n",
			(unsigned int)who.uid, strerror(d.streams.err));
	else
		fprintf(stderr, "nslogd: streams: in %s\n",
			nslogd_view_name(d.streams.view));
}

/*
 * Once everything is open: CAP_SYSLOG alone, and the ids of d.become. A
 * failure stops nslogd: it does not serve with more than it was told to
 * keep.
 */
static int drop_privileges(void)
{
	struct nslogd_privdone done;
	const char *what;
	char line[256];
	int ret;

	ret = nslogd_priv_drop(&d.become, &done, &what);
	if (ret) {
		fprintf(stderr, "nslogd: dropping privileges: %s: %s\n", what,
			strerror(-ret));
		return -1;
	}
	nslogd_priv_format(&done, line, sizeof(line));
	fprintf(stderr, "nslogd: %s\n", line);
	return 0;
}

/* poll()'s timeout: none while readers have work, else the kernel log's. */
static int poll_timeout(void)
{
	int64_t due;

	if (nslogd_reader_busy(&d.reader))
		return 0;
	due = nslogd_klog_tick(&d.klog, &d.stats, now_ns());
	if (due < 0)
		return -1;
	return (int)(due / 1000000) + 1;
}

static int run(void)
{
	struct pollfd pfd[NSLOGD_SOCKS + 1];
	int i, n;

	for (i = 0; i < NSLOGD_SOCKS; i++)
		pfd[i] = (struct pollfd){ .fd = d.sock[i], .events = POLLIN };
	pfd[NSLOGD_SOCKS] = (struct pollfd){ .fd = d.sigfd, .events = POLLIN };
	/* control: its epoll set, which holds logd and its connections */
	pfd[NSLOGD_SOCK_LOGD].fd = nslogd_control_fd(&d.control);
	/* readers: logdr and every connection wait in the reader's epoll set */
	pfd[NSLOGD_SOCK_LOGDR].fd = nslogd_reader_fd(&d.reader);

	for (;;) {
		n = poll(pfd, NSLOGD_SOCKS + 1, poll_timeout());
		if (n < 0) {
			if (errno == EINTR)
				continue;
			perror("nslogd: poll");
			return -1;
		}
		if (pfd[NSLOGD_SOCK_LOGDW].revents) {
			n = nslogd_writer_drain(&d.writer, &d.store, &d.stats,
						now_ns());
			if (n < 0)
				fprintf(stderr, "nslogd: logdw: %s\n",
					strerror(-n));
		}
		if (pfd[NSLOGD_SOCK_LOGD].revents)
			nslogd_control_run(&d.control, now_ns());
		if (pfd[NSLOGD_SOCK_LOGDR].revents ||
		    nslogd_reader_busy(&d.reader)) {
			n = nslogd_reader_run(&d.reader, now_ns());
			if (n < 0)
				fprintf(stderr, "nslogd: logdr: %s\n",
					strerror(-n));
		}
		if (pfd[NSLOGD_SOCKS].revents && !take_signals())
			return 0;
	}
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "socket-dir", required_argument, NULL, 's' },
		{ "dev-dir", required_argument, NULL, 'd' },
		{ "property-socket", required_argument, NULL, 'p' },
		{ "user", required_argument, NULL, 'u' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ "reinit", no_argument, NULL, 'R' },
		{ NULL, 0, NULL, 0 },
	};
	bool reinit = false;
	int c, ret = 1;

	d.prop_socket = NSLOGD_PROP_SOCKET;
	while ((c = getopt_long(argc, argv, "s:d:p:u:hV", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			d.socket_dir = optarg;
			break;
		case 'd':
			d.dev_dir = optarg;
			break;
		case 'p':
			d.prop_socket = optarg;
			break;
		case 'u':
			d.user = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			printf("nslogd %s\n", NSLOG_VERSION);
			return 0;
		case 'R':
			reinit = true;
			break;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind < argc) {
		usage(stderr);
		return 2;
	}
	/* As logd: a client of the running one, not a second daemon. */
	if (reinit)
		return nslogd_reinit_client(d.socket_dir, 1000);

	if (pick_user())
		return 1;
	if (sockets_init())
		goto err_sockets;
	pick_default_user();
	streams_init();
	nslogd_klog_init(&d.klog, &d.streams);
	nslogd_store_init(&d.store, d.dev_dir, nslogd_relay_ioctl, &d.streams);
	nslogd_store_open(&d.store, now_ns());
	for (c = 0; c < NSLOGD_STREAM_FIRST; c++)
		if (d.store.fd[c] < 0)
			fprintf(stderr,
				"nslogd: log %d: %s; tried again on use\n",
				c, strerror(d.store.open_errno[c]));
	if (signals_init()) {
		perror("nslogd: signals");
		goto err_signals;
	}
	nslogd_writer_init(&d.writer, d.sock[NSLOGD_SOCK_LOGDW],
			   nslogd_logcred);
	c = nslogd_control_init(&d.control, d.sock[NSLOGD_SOCK_LOGD],
				d.dev_dir, nslogd_ringctl_ioctl, nslogd_logcred,
				&d.stats);
	if (c) {
		fprintf(stderr, "nslogd: control: %s\n", strerror(-c));
		goto err_control;
	}
	d.control.cmd.ring.streams = &d.streams;
	c = readers_init();
	if (c) {
		fprintf(stderr, "nslogd: logdr: %s\n", strerror(-c));
		goto err_readers;
	}
	if (drop_privileges())
		goto err_privileges;
	nslogd_klog_say(&d.klog, NSLOGD_PRIO_INFO, now_ns(),
			"nslogd %s started: pid %d, uid %u; crash, stats, security and kernel in streams of the set (%s)",
			NSLOG_VERSION, (int)getpid(), (unsigned int)geteuid(),
			nslogd_view_name(d.streams.view));
	set_ready();

	if (!run())
		ret = 0;
	print_stats();
	nslogd_klog_say(&d.klog, NSLOGD_PRIO_INFO, now_ns(),
			"nslogd stopping: received %llu, stored %llu, refused %llu, dropped %llu",
			(unsigned long long)d.stats.received,
			(unsigned long long)d.stats.result[NSLOGD_STORE_STORED],
			(unsigned long long)(d.stats.received -
					     d.stats.refused[NSLOGD_DGRAM_OK]),
			(unsigned long long)d.stats.result[NSLOGD_STORE_DROPPED]);

err_privileges:
	nslogd_reader_exit(&d.reader);
err_readers:
	nslogd_control_exit(&d.control);
err_control:
	close(d.sigfd);
err_signals:
	nslogd_store_close(&d.store);
	nslogd_klog_close(&d.klog);
	nslogd_streams_close(&d.streams);
err_sockets:
	sockets_exit();
	return ret;
}
