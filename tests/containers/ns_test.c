// SPDX-License-Identifier: GPL-2.0
/*
 * ns_test: the exact checks of the container scenarios (namespaces.sh,
 * churn.sh) that a shell does badly: who a writer is in its own eyes, every
 * record a reader gets with its header as read, host collection through
 * NSLOG_IOC_OPEN_NS, user namespaces with whole uid ranges, and the churn
 * loop.
 *
 *   ns_test write [-b BUF] [-d NODE] [-T] [-N] MSG...
 *	one record per MSG (its bytes, no terminator); prints the writer as
 *	it sees itself: "PID TID EUID" (getpid, gettid, geteuid); -T writes
 *	from a second thread (so TID != PID); -N appends " PID0 TID0", the
 *	first NSpid fields of /proc/self/status and /proc/thread-self/status
 *	(the ids in the pid namespace of the /proc mounted, the host's when
 *	/proc was not remounted)
 *   ns_test read [-b BUF] [-d NODE] [-v 1|2] [-e ERRNO]
 *	every record the opener may see, one line each: "PID TID EUID
 *	PAYLOAD" (EUID "-" with version 1 headers; PAYLOAD escaped as \xNN
 *	but for printable ASCII other than '\').  Each record is checked
 *	three ways before it is read (poll POLLIN, GET_NEXT_ENTRY_LEN equals
 *	what read() returns, the header is well formed) and the end three
 *	ways (read EAGAIN, no POLLIN, GET_NEXT_ENTRY_LEN 0, GET_LOG_LEN 0)
 *   ns_test collect (-f NSFS | -i ID) [-b BUF] [-d NODE] [-v 1|2] [-e ERRNO]
 *	the same on the fd that NSLOG_IOC_OPEN_NS on the node gives for the
 *	IPC namespace of the nsfs file NSFS (e.g. /proc/PID/ns/ipc), or of
 *	namespace id ID
 *   ns_test poll [-b BUF] [-d NODE] [-v 1|2] -t MS
 *	open for reading, read and drop what is stored, print "drained",
 *	poll for POLLIN at most MS ms and print "pollin" or "timeout", then
 *	read what there is as `read` does
 *   ns_test len [-b BUF] [-d NODE]	GET_LOG_LEN of a new reader
 *   ns_test flush [-b BUF] [-d NODE] [-e ERRNO]	LOGGER_FLUSH_LOG
 *   ns_test open [-b BUF] [-d NODE] [-w] [-e ERRNO]
 *	open for reading (-w: writing) and close
 *   ns_test hold [-b BUF] [-d NODE] [MSG]
 *	open for writing (making the namespace's set), write MSG if given,
 *	print "ready", then wait until killed, keeping the file open
 *   ns_test proc [-p PATH] [-e ERRNO]
 *	cat /proc/nslogger/namespaces (or PATH)
 *   ns_test userns [-m IN:OUT:COUNT] [-u UID] [-g GID] [-x ipc|pid|...]
 *		  -- CMD...
 *	run CMD in a new user namespace whose uid and gid maps are IN:OUT:COUNT
 *	(default 0:100000:65536; written by this process, so OUT is in the
 *	caller's namespace and the caller needs CAP_SETUID/CAP_SETGID there),
 *	as UID:GID inside (default 0:0) with no supplementary groups; -x
 *	unshares more namespaces with the user namespace, owned by it
 *   ns_test as UID GID -- CMD...	setgroups(0), setresgid, setresuid, exec
 *   ns_test churn [-n CYCLES] [-j JOBS] [-C] [-b BUF] [-d NODE]
 *	CYCLES times (default 10000, over JOBS workers): fork; the child
 *	unshares its IPC namespace, opens the log for reading and checks it
 *	is empty (no old record), writes one unique record, reads exactly
 *	that back, exits.  Each payload is unique ("churn NONCE CYCLE").
 *	Prints cycles, failures, time and cycles/s, the most log sets
 *	/proc/nslogger/namespaces showed while it ran, and how many distinct
 *	IPC namespace ids (nsfs inode numbers) the cycles had and how many
 *	cycles got an id an earlier cycle had had: the reuse a stale key
 *	would turn into old records.  unshare() failing with ENOSPC (the
 *	kernel's max_ipc_namespaces, while it frees dead namespaces) makes
 *	the worker wait 20 ms and do the cycle again; these waits are counted.
 *	-C (control): the child only unshares and exits, for comparing
 *
 *   ns_test eof -i ID -n COUNT -g GRACE_MS [-w MS] [-b BUF] [-d NODE]
 *	a host collector of namespace ID's set, which holds COUNT records,
 *	while the caller ends the namespace (after "ready"): end of file,
 *	POLLHUP, NSLOG_INFO_DEAD, sleepers woken (see cmd_eof())
 *   ns_test watch [-w MS] [-D DELAY_MS]
 *	poll() on /proc/nslogger/namespaces through a namespace's life (see
 *	cmd_watch())
 *
 * NODE is the device node to use; by default the buffer's node as the tools
 * find it: under $NSLOG_DEV_DIR (DIR/BUF, DIR/log_BUF or DIR/log/BUF), else
 * /dev/log/BUF if /dev/log is a directory, else /dev/log_BUF.  -e ERRNO
 * (a name such as EPERM) says the operation must fail with that error.
 *
 * Exit status: 0 as expected, 1 a check failed, 2 usage.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <grp.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/nslogger.h>

#define PROG		"ns_test"
#define RDBUF		5120	/* what logcat reads with */
#define PROC_NS		"/proc/nslogger/namespaces"

static const char *buf_name = "main";
static const char *node_arg;
static int want_errno;		/* -e: the operation must fail so */
static int version = 1;

static void __attribute__((noreturn, format(printf, 1, 2)))
usage(const char *fmt, ...)
{
	va_list ap;

	fputs(PROG ": ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\n(see the comment at the top of tests/containers/ns_test.c)\n",
	      stderr);
	exit(2);
}

static void __attribute__((noreturn, format(printf, 1, 2)))
fail(const char *fmt, ...)
{
	va_list ap;

	fputs(PROG ": ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static const struct {
	const char *name;
	int err;
} errnos[] = {
	{ "EPERM", EPERM }, { "ENOENT", ENOENT }, { "EBADF", EBADF },
	{ "EAGAIN", EAGAIN }, { "ENOMEM", ENOMEM }, { "EACCES", EACCES },
	{ "EFAULT", EFAULT }, { "EINVAL", EINVAL }, { "ENOSPC", ENOSPC },
	{ "ENOTTY", ENOTTY }, { "ESPIPE", ESPIPE }, { "EINTR", EINTR },
};

static const char *errno_name(int err)
{
	static char other[16];
	size_t i;

	for (i = 0; i < sizeof(errnos) / sizeof(errnos[0]); i++)
		if (errnos[i].err == err)
			return errnos[i].name;
	snprintf(other, sizeof(other), "errno %d", err);
	return other;
}

static int errno_from_name(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(errnos) / sizeof(errnos[0]); i++)
		if (!strcmp(errnos[i].name, name))
			return errnos[i].err;
	usage("unknown errno name '%s'", name);
}

/*
 * The outcome of the operation -e is about: with -e, success or another
 * error fails; without, any error fails.  Returns only on success without
 * -e.
 */
static void outcome(const char *what, int ret)
{
	int err = errno;

	if (want_errno) {
		if (ret >= 0)
			fail("%s succeeded, wanted %s", what,
			     errno_name(want_errno));
		if (err != want_errno)
			fail("%s: %s, wanted %s", what, errno_name(err),
			     errno_name(want_errno));
		exit(0);
	}
	if (ret < 0)
		fail("%s: %s (%s)", what, strerror(err), errno_name(err));
}

static int exists(const char *path)
{
	struct stat st;

	return !stat(path, &st);
}

/* The node of buffer @buf as the tools find it (tools/lib/devpath.c). */
static void node_path(char *path, size_t size, const char *buf)
{
	static const char *const forms[] = { "/", "/log_", "/log/" };
	const char *dir = getenv("NSLOG_DEV_DIR");
	struct stat st;
	size_t i;

	if (node_arg) {
		snprintf(path, size, "%s", node_arg);
		return;
	}
	if (dir && *dir) {
		for (i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
			snprintf(path, size, "%s%s%s", dir, forms[i], buf);
			if (exists(path))
				return;
		}
		snprintf(path, size, "%s/%s", dir, buf);
		return;
	}
	if (!stat("/dev/log", &st) && S_ISDIR(st.st_mode))
		snprintf(path, size, "/dev/log/%s", buf);
	else
		snprintf(path, size, "/dev/log_%s", buf);
}

static int open_node(int flags, char *path, size_t size)
{
	node_path(path, size, buf_name);
	return open(path, flags | O_CLOEXEC);
}

/* Common options: -b BUF, -d NODE, -v VERSION, -e ERRNO. */
static int common_opt(int c)
{
	switch (c) {
	case 'b':
		if (strcmp(optarg, "main") && strcmp(optarg, "events") &&
		    strcmp(optarg, "radio") && strcmp(optarg, "system"))
			usage("unknown buffer '%s'", optarg);
		buf_name = optarg;
		return 1;
	case 'd':
		node_arg = optarg;
		return 1;
	case 'v':
		if (strcmp(optarg, "1") && strcmp(optarg, "2"))
			usage("-v wants 1 or 2");
		version = atoi(optarg);
		return 1;
	case 'e':
		want_errno = errno_from_name(optarg);
		return 1;
	}
	return 0;
}

/* --- write ------------------------------------------------------------- */

struct writer {
	int fd;
	char **msgs;
	int nmsgs;
	int nspid;		/* -N */
	char out[128];
	int err;
};

/* The first NSpid field of a status file: the id in /proc's namespace. */
static long nspid_first(const char *status)
{
	char line[256];
	long id = -1;
	FILE *f;

	f = fopen(status, "re");
	if (!f)
		fail("%s: %s", status, strerror(errno));
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "NSpid:", 6)) {
			id = strtol(line + 6, NULL, 10);
			break;
		}
	fclose(f);
	if (id <= 0)
		fail("%s: no NSpid", status);
	return id;
}

static void *writer_run(void *arg)
{
	struct writer *w = arg;
	int n, i;

	for (i = 0; i < w->nmsgs; i++) {
		size_t len = strlen(w->msgs[i]);

		if (write(w->fd, w->msgs[i], len) != (ssize_t)len) {
			w->err = errno ? errno : EIO;
			return NULL;
		}
	}
	n = snprintf(w->out, sizeof(w->out), "%d %d %u", getpid(), gettid(),
		     geteuid());
	if (w->nspid)
		snprintf(w->out + n, sizeof(w->out) - n, " %ld %ld",
			 nspid_first("/proc/self/status"),
			 nspid_first("/proc/thread-self/status"));
	return NULL;
}

static int cmd_write(int argc, char **argv)
{
	struct writer w = { 0 };
	char path[4096];
	int thread = 0, c;

	while ((c = getopt(argc, argv, "+b:d:TN")) != -1) {
		if (common_opt(c))
			continue;
		if (c == 'T')
			thread = 1;
		else if (c == 'N')
			w.nspid = 1;
		else
			usage("write: bad option");
	}
	if (optind >= argc)
		usage("write: no message");
	w.msgs = argv + optind;
	w.nmsgs = argc - optind;
	w.fd = open_node(O_WRONLY, path, sizeof(path));
	if (w.fd < 0)
		fail("open %s: %s", path, strerror(errno));
	if (thread) {
		pthread_t t;

		errno = pthread_create(&t, NULL, writer_run, &w);
		if (errno)
			fail("pthread_create: %s", strerror(errno));
		pthread_join(t, NULL);
	} else {
		writer_run(&w);
	}
	if (w.err)
		fail("write %s: %s", path, strerror(w.err));
	close(w.fd);
	puts(w.out);
	return 0;
}

/* --- read, collect ----------------------------------------------------- */

static void print_payload(const unsigned char *p, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		if (p[i] >= 0x20 && p[i] < 0x7f && p[i] != '\\')
			putchar(p[i]);
		else
			printf("\\x%02x", p[i]);
	}
}

static int pollin(int fd)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	int n = poll(&pfd, 1, 0);

	if (n < 0)
		fail("poll: %s", strerror(errno));
	return n && (pfd.revents & POLLIN);
}

/*
 * Read every record @fd has for its reader, checking poll, the two length
 * ioctls and each header against what read() returns.
 */
static void read_all(int fd, const char *what)
{
	unsigned char buf[RDBUF + 64];
	size_t hdr = version == 2 ? sizeof(struct logger_entry_v2) :
				    sizeof(struct logger_entry);
	long next, left;
	ssize_t n;

	if (version == 2 && ioctl(fd, LOGGER_SET_VERSION, &version))
		fail("%s: LOGGER_SET_VERSION 2: %s", what, strerror(errno));
	for (;;) {
		next = ioctl(fd, LOGGER_GET_NEXT_ENTRY_LEN);
		if (next < 0)
			fail("%s: GET_NEXT_ENTRY_LEN: %s", what,
			     strerror(errno));
		if (!next)
			break;
		if (!pollin(fd))
			fail("%s: GET_NEXT_ENTRY_LEN %ld but poll not readable",
			     what, next);
		n = read(fd, buf, sizeof(buf));
		if (n < 0)
			fail("%s: read after GET_NEXT_ENTRY_LEN %ld: %s", what,
			     next, strerror(errno));
		if (n != next)
			fail("%s: read %zd bytes, GET_NEXT_ENTRY_LEN said %ld",
			     what, n, next);
		if ((size_t)n < hdr)
			fail("%s: short record, %zd bytes", what, n);
		if (version == 2) {
			struct logger_entry_v2 *e = (void *)buf;

			if (e->hdr_size != hdr || e->len != n - hdr)
				fail("%s: v2 header hdr_size %u len %u in %zd bytes",
				     what, e->hdr_size, e->len, n);
			printf("%d %d %u ", e->pid, e->tid, e->euid);
		} else {
			struct logger_entry *e = (void *)buf;

			if (e->__pad || e->len != n - hdr)
				fail("%s: v1 header pad %u len %u in %zd bytes",
				     what, e->__pad, e->len, n);
			printf("%d %d - ", e->pid, e->tid);
		}
		print_payload(buf + hdr, n - hdr);
		putchar('\n');
	}
	n = read(fd, buf, sizeof(buf));
	if (n >= 0 || errno != EAGAIN)
		fail("%s: read at the end: %zd (%s), wanted EAGAIN", what, n,
		     n < 0 ? strerror(errno) : "a record");
	if (pollin(fd))
		fail("%s: poll readable at the end", what);
	left = ioctl(fd, LOGGER_GET_LOG_LEN);
	if (left)
		fail("%s: GET_LOG_LEN %ld at the end (%s)", what, left,
		     left < 0 ? strerror(errno) : "bytes");
}

static int cmd_read(int argc, char **argv)
{
	char path[4096];
	int c, fd;

	while ((c = getopt(argc, argv, "+b:d:v:e:")) != -1)
		if (!common_opt(c))
			usage("read: bad option");
	if (optind != argc)
		usage("read: no arguments expected");
	fd = open_node(O_RDONLY | O_NONBLOCK, path, sizeof(path));
	outcome(path, fd);
	read_all(fd, path);
	close(fd);
	return 0;
}

static int cmd_collect(int argc, char **argv)
{
	struct nslog_open_ns arg = { .ns_fd = -1 };
	const char *nsfs = NULL, *id = NULL;
	char path[4096];
	int c, dev, fd;

	while ((c = getopt(argc, argv, "+b:d:v:e:f:i:")) != -1) {
		if (common_opt(c))
			continue;
		if (c == 'f')
			nsfs = optarg;
		else if (c == 'i')
			id = optarg;
		else
			usage("collect: bad option");
	}
	if (!nsfs == !id || optind != argc)
		usage("collect: one of -f NSFS and -i ID");
	dev = open_node(O_RDONLY | O_NONBLOCK, path, sizeof(path));
	if (dev < 0)
		fail("open %s: %s", path, strerror(errno));
	if (nsfs) {
		arg.ns_fd = open(nsfs, O_RDONLY | O_CLOEXEC);
		if (arg.ns_fd < 0)
			fail("open %s: %s", nsfs, strerror(errno));
	} else {
		char *end;

		errno = 0;
		arg.ns_id = strtoull(id, &end, 10);
		if (errno || !*id || *end)
			usage("collect: bad namespace id '%s'", id);
	}
	fd = ioctl(dev, NSLOG_IOC_OPEN_NS, &arg);
	outcome("NSLOG_IOC_OPEN_NS", fd);
	if (arg.ns_fd >= 0)
		close(arg.ns_fd);
	close(dev);
	if (!(fcntl(fd, F_GETFD) & FD_CLOEXEC))
		fail("NSLOG_IOC_OPEN_NS: fd is not close-on-exec");
	if ((fcntl(fd, F_GETFL) & O_ACCMODE) != O_RDONLY)
		fail("NSLOG_IOC_OPEN_NS: fd is not read-only");
	if (fcntl(fd, F_SETFL, O_NONBLOCK))
		fail("F_SETFL O_NONBLOCK: %s", strerror(errno));
	read_all(fd, "NSLOG_IOC_OPEN_NS fd");
	close(fd);
	return 0;
}

static int cmd_poll(int argc, char **argv)
{
	struct pollfd pfd = { .events = POLLIN };
	unsigned char buf[RDBUF];
	char path[4096];
	int ms = -1, c, n;

	while ((c = getopt(argc, argv, "+b:d:v:t:")) != -1) {
		if (common_opt(c))
			continue;
		if (c == 't')
			ms = atoi(optarg);
		else
			usage("poll: bad option");
	}
	if (ms < 0)
		usage("poll: -t MS");
	pfd.fd = open_node(O_RDONLY | O_NONBLOCK, path, sizeof(path));
	if (pfd.fd < 0)
		fail("open %s: %s", path, strerror(errno));
	while (read(pfd.fd, buf, sizeof(buf)) >= 0)
		;
	if (errno != EAGAIN)
		fail("read %s: %s", path, strerror(errno));
	puts("drained");
	n = poll(&pfd, 1, ms);
	if (n < 0)
		fail("poll: %s", strerror(errno));
	puts(n && (pfd.revents & POLLIN) ? "pollin" : "timeout");
	read_all(pfd.fd, path);
	close(pfd.fd);
	return 0;
}

/* --- len, flush, open, hold, proc -------------------------------------- */

static int cmd_len(int argc, char **argv)
{
	char path[4096];
	int c, fd;
	long len;

	while ((c = getopt(argc, argv, "+b:d:")) != -1)
		if (!common_opt(c))
			usage("len: bad option");
	fd = open_node(O_RDONLY | O_NONBLOCK, path, sizeof(path));
	if (fd < 0)
		fail("open %s: %s", path, strerror(errno));
	len = ioctl(fd, LOGGER_GET_LOG_LEN);
	if (len < 0)
		fail("GET_LOG_LEN: %s", strerror(errno));
	printf("%ld\n", len);
	close(fd);
	return 0;
}

static int cmd_flush(int argc, char **argv)
{
	char path[4096];
	int c, fd;

	while ((c = getopt(argc, argv, "+b:d:e:")) != -1)
		if (!common_opt(c))
			usage("flush: bad option");
	fd = open_node(O_WRONLY, path, sizeof(path));
	if (fd < 0)
		fail("open %s: %s", path, strerror(errno));
	outcome("LOGGER_FLUSH_LOG", ioctl(fd, LOGGER_FLUSH_LOG));
	close(fd);
	return 0;
}

static int cmd_open(int argc, char **argv)
{
	int flags = O_RDONLY | O_NONBLOCK;
	char path[4096];
	int c, fd;

	while ((c = getopt(argc, argv, "+b:d:e:w")) != -1) {
		if (common_opt(c))
			continue;
		if (c == 'w')
			flags = O_WRONLY;
		else
			usage("open: bad option");
	}
	fd = open_node(flags, path, sizeof(path));
	outcome(path, fd);
	close(fd);
	return 0;
}

static int cmd_hold(int argc, char **argv)
{
	char path[4096];
	int c, fd;

	while ((c = getopt(argc, argv, "+b:d:")) != -1)
		if (!common_opt(c))
			usage("hold: bad option");
	fd = open_node(O_WRONLY, path, sizeof(path));
	if (fd < 0)
		fail("open %s: %s", path, strerror(errno));
	if (optind < argc) {
		size_t len = strlen(argv[optind]);

		if (write(fd, argv[optind], len) != (ssize_t)len)
			fail("write %s: %s", path, strerror(errno));
	}
	puts("ready");
	fflush(stdout);
	for (;;)
		pause();
}

static int cmd_proc(int argc, char **argv)
{
	const char *path = PROC_NS;
	char buf[4096];
	ssize_t n;
	int c, fd;

	while ((c = getopt(argc, argv, "+e:p:")) != -1) {
		if (common_opt(c))
			continue;
		if (c == 'p')
			path = optarg;
		else
			usage("proc: bad option");
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	outcome(path, fd);
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		fwrite(buf, 1, n, stdout);
	if (n < 0)
		fail("read %s: %s", path, strerror(errno));
	close(fd);
	return 0;
}

/* --- eof, watch --------------------------------------------------------- */

static const char *poll_names(short revents)
{
	static const struct {
		short bit;
		const char *name;
	} bits[] = {
		{ POLLIN, "POLLIN" }, { POLLPRI, "POLLPRI" },
		{ POLLOUT, "POLLOUT" }, { POLLERR, "POLLERR" },
		{ POLLHUP, "POLLHUP" }, { POLLNVAL, "POLLNVAL" },
		{ POLLRDNORM, "POLLRDNORM" },
	};
	static char out[128];
	size_t i;

	out[0] = 0;
	for (i = 0; i < sizeof(bits) / sizeof(bits[0]); i++) {
		if (!(revents & bits[i].bit))
			continue;
		if (out[0])
			strcat(out, "|");
		strcat(out, bits[i].name);
	}
	return out[0] ? out : "0";
}

/* poll() one fd for @events, at most @ms; "timeout" if nothing came. */
static const char *poll_one(int fd, short events, int ms)
{
	struct pollfd pfd = { .fd = fd, .events = events };
	int n = poll(&pfd, 1, ms);

	if (n < 0)
		fail("poll: %s", strerror(errno));
	return n ? poll_names(pfd.revents) : "timeout";
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000;
}

/*
 * The watchdog: whatever waits on the kernel past it is a failure of its
 * own ("watchdog: STAGE"), never a hang of the scenario.
 */
static const char *volatile watch_stage = "start";

static void watchdog_fired(int sig)
{
	char line[256];
	int n;

	(void)sig;
	n = snprintf(line, sizeof(line), "watchdog: %s: no answer\n",
		     watch_stage);
	if (write(STDOUT_FILENO, line, n) != n)
		_exit(3);
	_exit(3);
}

static void watchdog_arm(int ms)
{
	struct sigaction sa = { .sa_handler = watchdog_fired };

	sigaction(SIGALRM, &sa, NULL);
	alarm((ms + 999) / 1000);
}

/* An own-header fd from NSLOG_IOC_OPEN_NS for @id (the node's log). */
static int open_ns_id(int dev, unsigned long long id, int version_)
{
	struct nslog_open_ns arg = { .ns_fd = -1, .ns_id = id };
	int fd = ioctl(dev, NSLOG_IOC_OPEN_NS, &arg);

	if (fd < 0)
		return fd;
	if (ioctl(fd, LOGGER_SET_VERSION, &version_))
		fail("LOGGER_SET_VERSION %#x: %s", version_, strerror(errno));
	return fd;
}

/*
 * Read one own-header record; its line "SEQ LOST PAYLOAD", or NULL at 0.
 * The line is the calling thread's own: eof's two waiters read at once.
 */
static const char *read_own_line(int fd, ssize_t *got)
{
	static __thread char line[RDBUF * 4 + 64];
	unsigned char buf[NSLOG_ENTRY_MAX_LEN + 1];
	struct nslog_entry *e = (void *)buf;
	size_t i, n;

	*got = read(fd, buf, sizeof(buf));
	if (*got <= 0)
		return NULL;
	if (*got < (ssize_t)sizeof(*e) || e->hdr_size != sizeof(*e) ||
	    e->len != *got - sizeof(*e))
		fail("a bad own header: %zd bytes, hdr_size %u, len %u", *got,
		     e->hdr_size, e->len);
	n = snprintf(line, sizeof(line), "%llu %llu ",
		     (unsigned long long)e->seq, (unsigned long long)e->lost);
	for (i = 0; i < e->len; i++) {
		unsigned char ch = e->msg[i];

		if (ch >= 0x20 && ch < 0x7f && ch != '\\')
			line[n++] = ch;
		else
			n += sprintf(line + n, "\\x%02x", ch);
	}
	line[n] = 0;
	return line;
}

/* A thread's state letter, from /proc/self/task/TID/stat. */
static char thread_state(pid_t tid)
{
	char path[64], buf[512], *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return '?';
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return '?';
	buf[n] = 0;
	p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : '?';
}

struct eof_waiter {
	int fd;
	int count;		/* records to read first */
	int poll;		/* then poll() rather than read() */
	int caught_up;		/* stored (release) after tid and bad */
	pid_t tid;
	ssize_t ret;		/* read()'s or poll()'s return */
	int err;
	short revents;
	long woken_ms;
	char bad[256];
};

static void *eof_waiter_fn(void *arg)
{
	struct eof_waiter *w = arg;
	struct pollfd pfd = { .fd = w->fd, .events = POLLIN };
	const char *line;
	ssize_t got;
	int i;

	w->tid = gettid();
	for (i = 0; i < w->count; i++) {
		line = read_own_line(w->fd, &got);
		if (!line) {
			snprintf(w->bad, sizeof(w->bad),
				 "record %d: read %zd (%s)", i, got,
				 got < 0 ? strerror(errno) : "end of file");
			break;
		}
		if (strtoull(line, NULL, 10) != (unsigned long long)i)
			snprintf(w->bad, sizeof(w->bad), "record %d: %s", i,
				 line);
	}
	__atomic_store_n(&w->caught_up, 1, __ATOMIC_RELEASE);
	errno = 0;
	if (w->poll) {
		w->ret = poll(&pfd, 1, -1);
		w->revents = pfd.revents;
	} else {
		unsigned char buf[NSLOG_ENTRY_MAX_LEN];

		w->ret = read(w->fd, buf, sizeof(buf));
	}
	w->err = errno;
	w->woken_ms = now_ms();
	return NULL;
}

/*
 * ns_test eof -i ID -n COUNT -g GRACE_MS [-w MS] [-b BUF]
 *
 * A host collector of the set of namespace ID, which holds COUNT records,
 * seq 0 on, while the namespace is alive; the caller ends the namespace
 * after "ready".  Before: a thread has read everything and sleeps in
 * read(), another in poll(), both on blocking fds.  Prints what each
 * saw when the set was let go, then reads a third fd (untouched so far)
 * record by record with poll() between, to the end of file, and a fourth
 * (O_NONBLOCK, version 1) likewise.  Waiting is all it does meanwhile:
 * the guest stays quiet.  A wait past MS (default 30000) prints
 * "watchdog: ..." and exits 3.
 */
static int cmd_eof(int argc, char **argv)
{
	unsigned long long id = 0;
	int count = -1, grace = -1, ms = 30000, c, i, dev, b, nb, fd;
	struct eof_waiter rd = { 0 }, pl = { 0 };
	pthread_t trd, tpl;
	struct nslog_info info;
	unsigned char buf[NSLOG_ENTRY_MAX_LEN];
	const char *line;
	char path[4096];
	long ready_ms;
	ssize_t got;

	while ((c = getopt(argc, argv, "+b:d:i:n:g:w:")) != -1) {
		if (common_opt(c))
			continue;
		if (c == 'i')
			id = strtoull(optarg, NULL, 10);
		else if (c == 'n')
			count = atoi(optarg);
		else if (c == 'g')
			grace = atoi(optarg);
		else if (c == 'w')
			ms = atoi(optarg);
		else
			usage("eof: bad option");
	}
	if (!id || count < 1 || grace < 0 || optind != argc)
		usage("eof: -i ID -n COUNT -g GRACE_MS [-w MS]");
	dev = open_node(O_RDONLY, path, sizeof(path));
	if (dev < 0)
		fail("open %s: %s", path, strerror(errno));
	rd.fd = open_ns_id(dev, id, NSLOG_ENTRY_VERSION);
	pl.fd = open_ns_id(dev, id, NSLOG_ENTRY_VERSION);
	b = open_ns_id(dev, id, NSLOG_ENTRY_VERSION);
	nb = open_ns_id(dev, id, 1);
	if (rd.fd < 0 || pl.fd < 0 || b < 0 || nb < 0)
		fail("NSLOG_IOC_OPEN_NS %llu: %s", id, strerror(errno));
	if (fcntl(nb, F_SETFL, O_NONBLOCK))
		fail("F_SETFL: %s", strerror(errno));
	if (ioctl(b, NSLOG_IOC_INFO, &info))
		fail("NSLOG_IOC_INFO: %s", strerror(errno));
	printf("alive: ns_id %s, flags %u, seq %llu to %llu\n",
	       info.ns_id == id ? "as asked" : "WRONG", info.flags,
	       (unsigned long long)info.tail_seq,
	       (unsigned long long)info.head_seq);

	rd.count = count;
	pl.count = count;
	pl.poll = 1;
	if (pthread_create(&trd, NULL, eof_waiter_fn, &rd) ||
	    pthread_create(&tpl, NULL, eof_waiter_fn, &pl))
		fail("pthread_create");
	/* Both have read everything and sleep: in read() and in poll(). */
	watch_stage = "the waiters reading the records";
	watchdog_arm(ms);
	while (!__atomic_load_n(&rd.caught_up, __ATOMIC_ACQUIRE) ||
	       !__atomic_load_n(&pl.caught_up, __ATOMIC_ACQUIRE) ||
	       thread_state(rd.tid) != 'S' || thread_state(pl.tid) != 'S')
		usleep(10000);
	alarm(0);
	if (rd.bad[0] || pl.bad[0])
		fail("before the end: %s%s", rd.bad, pl.bad);
	puts("ready");
	ready_ms = now_ms();

	/* The caller ends the namespace now.  Nothing but waiting here. */
	watch_stage = "the blocked read() and poll() of a set let go";
	watchdog_arm(ms);
	pthread_join(trd, NULL);
	pthread_join(tpl, NULL);
	alarm(0);
	if (rd.ret == 0)
		printf("blocked read: %d records, then end of file\n", count);
	else
		printf("blocked read: returned %zd (%s)\n", rd.ret,
		       strerror(rd.err));
	if (pl.ret == 1)
		printf("blocked poll: %s\n", poll_names(pl.revents));
	else
		printf("blocked poll: returned %zd (%s)\n", pl.ret,
		       strerror(pl.err));
	fprintf(stderr, "end of file %ld ms after ready (grace %d ms)\n",
		rd.woken_ms - ready_ms, grace);
	printf("woken %s\n", rd.woken_ms - ready_ms >= grace ?
	       "after the grace period" : "BEFORE the grace period ended");
	fd = open_ns_id(dev, id, 1);
	printf("open by id: %s\n", fd < 0 ? errno_name(errno) : "opened");

	if (ioctl(b, NSLOG_IOC_INFO, &info))
		fail("NSLOG_IOC_INFO: %s", strerror(errno));
	printf("let go: flags %s, seq %llu to %llu\n",
	       info.flags == NSLOG_INFO_DEAD ? "NSLOG_INFO_DEAD" : "WRONG",
	       (unsigned long long)info.tail_seq,
	       (unsigned long long)info.head_seq);
	printf("poll: %s\n", poll_one(b, POLLIN, 0));
	watch_stage = "reading a set let go";
	watchdog_arm(ms);
	while ((line = read_own_line(b, &got)))
		printf("%s; poll: %s\n", line, poll_one(b, POLLIN, 0));
	printf("read: %s\n", got ? strerror(errno) : "end of file");
	got = read(b, buf, sizeof(buf));
	printf("read again: %s\n", got ? "not end of file" : "end of file");
	printf("next entry len: %d\n", ioctl(b, LOGGER_GET_NEXT_ENTRY_LEN));
	for (i = 0; (got = read(nb, buf, sizeof(buf))) > 0; i++)
		;
	printf("O_NONBLOCK, version 1: %d records, then %s\n", i,
	       got ? strerror(errno) : "end of file");
	alarm(0);
	return 0;
}

/* Reread the listing; the state of namespace @id's main log, or "gone". */
static const char *proc_state(int fd, unsigned long long id)
{
	static char text[1 << 16], state[16];
	size_t len = 0;
	ssize_t n;
	char *line;

	if (lseek(fd, 0, SEEK_SET))
		fail("lseek %s: %s", PROC_NS, strerror(errno));
	while ((n = read(fd, text + len, sizeof(text) - 1 - len)) > 0)
		len += n;
	if (n < 0)
		fail("read %s: %s", PROC_NS, strerror(errno));
	text[len] = 0;
	for (line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		unsigned long long lid;
		char log[16];

		if (sscanf(line, "%llu %*u %15s %*u %15s", &lid, state, log) == 3 &&
		    lid == id && !strcmp(log, "main"))
			return state;
	}
	return "gone";
}

/*
 * A child in a new IPC namespace (after @delay_ms; it opens its main log at
 * once if @open_now) that then does what the parent says: 'o' open the log
 * for writing and write a record, 'r' open it for reading, 'x' exit.
 */
struct ns_child {
	pid_t pid;
	int cmd, ack;
	unsigned long long id;
};

static void ns_child_start(struct ns_child *ch, int delay_ms, int open_now)
{
	int cmd[2], ack[2];
	char c, path[4096];
	int fd;

	if (pipe2(cmd, O_CLOEXEC) || pipe2(ack, O_CLOEXEC))
		fail("pipe: %s", strerror(errno));
	ch->pid = fork();
	if (ch->pid < 0)
		fail("fork: %s", strerror(errno));
	if (!ch->pid) {
		close(cmd[1]);
		close(ack[0]);
		if (delay_ms)
			usleep(delay_ms * 1000);
		if (unshare(CLONE_NEWIPC))
			_exit(1);
		/* Its set is made now, the listing changes. */
		if (open_now && open_node(O_WRONLY, path, sizeof(path)) < 0)
			_exit(1);
		if (write(ack[1], "u", 1) != 1)
			_exit(1);
		while (read(cmd[0], &c, 1) == 1) {
			if (c == 'o' || c == 'r') {
				fd = open_node(c == 'o' ? O_WRONLY : O_RDONLY,
					       path, sizeof(path));
				if (fd < 0)
					_exit(1);
				if (c == 'o' && write(fd, "hello", 5) != 5)
					_exit(1);
			}
			if (c == 'x' || write(ack[1], &c, 1) != 1)
				_exit(0);
		}
		_exit(0);
	}
	close(cmd[0]);
	close(ack[1]);
	ch->cmd = cmd[1];
	ch->ack = ack[0];
}

/* Wait for the child's ack of its unshare, and learn its namespace id. */
static void ns_child_unshared(struct ns_child *ch)
{
	char path[64], link[64], c;
	ssize_t n;

	if (read(ch->ack, &c, 1) != 1)
		fail("the child could not unshare");
	snprintf(path, sizeof(path), "/proc/%d/ns/ipc", ch->pid);
	n = readlink(path, link, sizeof(link) - 1);
	if (n <= 0)
		fail("readlink %s: %s", path, strerror(errno));
	link[n] = 0;
	if (sscanf(link, "ipc:[%llu]", &ch->id) != 1)
		fail("%s: %s", path, link);
}

static void ns_child_do(struct ns_child *ch, char c)
{
	char a;

	if (write(ch->cmd, &c, 1) != 1 || read(ch->ack, &a, 1) != 1 || a != c)
		fail("the child did not do '%c'", c);
}

static void ns_child_end(struct ns_child *ch)
{
	int status;

	if (write(ch->cmd, "x", 1) != 1)
		fail("the child went away");
	if (waitpid(ch->pid, &status, 0) != ch->pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		fail("the child failed");
	close(ch->cmd);
	close(ch->ack);
}

/*
 * ns_test watch [-w MS] [-D DELAY_MS]
 *
 * poll() on /proc/nslogger/namespaces through a namespace's life: made
 * (its first open), opened again, found dead, let go; each change seen
 * (POLLPRI | POLLERR) until the listing is read again from its start,
 * nothing seen for what changes nothing.  Then a poll() with a timeout
 * of MS (default 20000), woken by a set made DELAY_MS (default 500) after
 * it began.  Prints one line per step.
 */
static int cmd_watch(int argc, char **argv)
{
	int ms = 20000, delay = 500, c, fd, dev, cfd;
	struct nslog_open_ns arg = { .ns_fd = -1 };
	struct ns_child ch, ch2;
	char path[4096];
	long t0, took;

	while ((c = getopt(argc, argv, "+w:D:")) != -1) {
		if (c == 'w')
			ms = atoi(optarg);
		else if (c == 'D')
			delay = atoi(optarg);
		else
			usage("watch: bad option");
	}
	fd = open(PROC_NS, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		fail("open %s: %s", PROC_NS, strerror(errno));
	dev = open_node(O_RDONLY | O_NONBLOCK, path, sizeof(path));
	if (dev < 0)
		fail("open %s: %s", path, strerror(errno));
	watch_stage = "watch";
	watchdog_arm(4 * ms);
	printf("opened: %s\n", poll_one(fd, POLLIN | POLLPRI, 0));
	proc_state(fd, 0);
	printf("read: %s\n", poll_one(fd, POLLIN | POLLPRI, 0));

	ns_child_start(&ch, 0, 0);
	ns_child_unshared(&ch);
	printf("a new IPC namespace, no log opened: %s\n",
	       poll_one(fd, POLLIN | POLLPRI, 0));
	ns_child_do(&ch, 'o');
	printf("its first open: %s\n", poll_one(fd, POLLIN | POLLPRI, 0));
	printf("polled again: %s\n", poll_one(fd, POLLIN | POLLPRI, 0));
	printf("listed: %s\n", proc_state(fd, ch.id));
	printf("after lseek(0) and read: %s\n", poll_one(fd, POLLIN | POLLPRI, 0));
	ns_child_do(&ch, 'o');
	ns_child_do(&ch, 'r');
	arg.ns_id = ch.id;
	cfd = ioctl(dev, NSLOG_IOC_OPEN_NS, &arg);
	if (cfd < 0)
		fail("NSLOG_IOC_OPEN_NS: %s", strerror(errno));
	close(cfd);
	printf("more opens, a write, a collector's open: %s\n",
	       poll_one(fd, POLLIN | POLLPRI, 0));
	printf("no change in 300 ms: %s\n", poll_one(fd, POLLPRI, 300));

	ns_child_end(&ch);
	printf("its death noticed: %s\n", poll_one(fd, POLLPRI, ms));
	printf("listed: %s\n", proc_state(fd, ch.id));
	printf("after lseek(0) and read: %s\n", poll_one(fd, POLLIN | POLLPRI, 0));
	printf("let go: %s\n", poll_one(fd, POLLPRI, ms));
	printf("listed: %s\n", proc_state(fd, ch.id));
	printf("after lseek(0) and read: %s\n", poll_one(fd, POLLIN | POLLPRI, 0));

	/* A poll() that waits, woken by a set made while it waits. */
	ns_child_start(&ch2, delay, 1);
	t0 = now_ms();
	printf("a new set while polling: %s\n", poll_one(fd, POLLPRI, ms));
	took = now_ms() - t0;
	ns_child_unshared(&ch2);
	fprintf(stderr, "poll() returned after %ld ms; the set was made after %d ms; timeout %d ms\n",
		took, delay, ms);
	printf("it waited for the set and returned %s\n",
	       took >= delay * 9 / 10 && took < ms / 2 ?
	       "well before its timeout" : "TOO SOON OR TOO LATE");
	printf("listed: %s\n", proc_state(fd, ch2.id));
	ns_child_end(&ch2);
	alarm(0);
	close(dev);
	close(fd);
	return 0;
}

/* --- userns, as -------------------------------------------------------- */

static void become(uid_t uid, gid_t gid)
{
	if (setgroups(0, NULL))
		fail("setgroups: %s", strerror(errno));
	if (setresgid(gid, gid, gid))
		fail("setresgid %u: %s", gid, strerror(errno));
	if (setresuid(uid, uid, uid))
		fail("setresuid %u: %s", uid, strerror(errno));
}

static void write_file(const char *path, const char *text)
{
	size_t len = strlen(text);
	int fd = open(path, O_WRONLY | O_CLOEXEC);

	if (fd < 0 || write(fd, text, len) != (ssize_t)len)
		fail("write %s: %s", path, strerror(errno));
	close(fd);
}

static pid_t userns_child;

static void forward_signal(int sig)
{
	if (userns_child > 0)
		kill(userns_child, sig);
}

static int cmd_userns(int argc, char **argv)
{
	unsigned long in = 0, out = 100000, count = 65536;
	int flags = CLONE_NEWUSER;
	uid_t uid = 0;
	gid_t gid = 0;
	int go[2], ready[2], c, status;
	char map[64], path[64], x;

	while ((c = getopt(argc, argv, "+m:u:g:x:")) != -1) {
		switch (c) {
		case 'm':
			if (sscanf(optarg, "%lu:%lu:%lu", &in, &out, &count) != 3)
				usage("userns: -m IN:OUT:COUNT");
			break;
		case 'u':
			uid = strtoul(optarg, NULL, 10);
			break;
		case 'g':
			gid = strtoul(optarg, NULL, 10);
			break;
		case 'x':
			if (!strcmp(optarg, "ipc"))
				flags |= CLONE_NEWIPC;
			else if (!strcmp(optarg, "pid"))
				flags |= CLONE_NEWPID;
			else if (!strcmp(optarg, "mnt"))
				flags |= CLONE_NEWNS;
			else if (!strcmp(optarg, "uts"))
				flags |= CLONE_NEWUTS;
			else
				usage("userns: -x ipc, pid, mnt or uts");
			break;
		default:
			usage("userns: bad option");
		}
	}
	if (optind >= argc)
		usage("userns: no command");
	if (pipe2(go, O_CLOEXEC) || pipe2(ready, O_CLOEXEC))
		fail("pipe: %s", strerror(errno));

	userns_child = fork();
	if (userns_child < 0)
		fail("fork: %s", strerror(errno));
	if (!userns_child) {
		close(go[1]);
		close(ready[0]);
		if (unshare(flags))
			fail("unshare: %s", strerror(errno));
		if (write(ready[1], "u", 1) != 1 || read(go[0], &x, 1) != 1)
			fail("userns: the parent went away");
		become(uid, gid);
		if (flags & CLONE_NEWPID) {
			pid_t init = fork();

			if (init < 0)
				fail("fork: %s", strerror(errno));
			if (init) {
				if (waitpid(init, &status, 0) < 0)
					fail("waitpid: %s", strerror(errno));
				_exit(WIFEXITED(status) ? WEXITSTATUS(status) :
				      128 + WTERMSIG(status));
			}
		}
		execvp(argv[optind], argv + optind);
		fail("exec %s: %s", argv[optind], strerror(errno));
	}
	close(go[0]);
	close(ready[1]);
	signal(SIGTERM, forward_signal);
	signal(SIGINT, forward_signal);
	if (read(ready[0], &x, 1) != 1)
		fail("userns: the child could not unshare");
	snprintf(map, sizeof(map), "%lu %lu %lu\n", in, out, count);
	snprintf(path, sizeof(path), "/proc/%d/uid_map", userns_child);
	write_file(path, map);
	snprintf(path, sizeof(path), "/proc/%d/gid_map", userns_child);
	write_file(path, map);
	if (write(go[1], "g", 1) != 1)
		fail("userns: the child went away");
	while (waitpid(userns_child, &status, 0) < 0)
		if (errno != EINTR)
			fail("waitpid: %s", strerror(errno));
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static int cmd_as(int argc, char **argv)
{
	int i = 1;

	if (argc > i && !strcmp(argv[i], "--"))
		i++;
	if (argc < i + 3)
		usage("as UID GID [--] CMD...");
	become(strtoul(argv[i], NULL, 10), strtoul(argv[i + 1], NULL, 10));
	i += 2;
	if (!strcmp(argv[i], "--"))
		i++;
	if (i >= argc)
		usage("as: no command");
	execvp(argv[i], argv + i);
	fail("exec %s: %s", argv[i], strerror(errno));
}

/* --- churn ------------------------------------------------------------- */

enum {
	CHURN_OK	= 0,
	CHURN_OLD	= 10,	/* a new namespace read a record */
	CHURN_ERR	= 11,	/* a syscall failed */
	CHURN_BACK	= 12,	/* its own record did not read back */
	CHURN_BUSY	= 13,	/* unshare: ENOSPC, too many IPC namespaces */
};

static int churn_control;	/* -C: unshare and exit, no log at all */
static unsigned long churn_nonce;	/* makes payloads unique across runs */
static unsigned int *churn_inum;	/* shared: each cycle's namespace id */

/* Print what a fresh namespace's reader got (@n bytes in @buf). */
static void churn_report_old(long id, const unsigned char *buf, ssize_t n)
{
	fprintf(stderr, PROG ": churn %ld: a new namespace's log is not empty",
		id);
	if (n > (ssize_t)sizeof(struct logger_entry)) {
		fputs(": ", stderr);
		fwrite(buf + sizeof(struct logger_entry), 1,
		       n - sizeof(struct logger_entry), stderr);
	}
	fputc('\n', stderr);
}

/* One cycle, in the child: exit status as above. */
static void __attribute__((noreturn)) churn_child(const char *path, long id)
{
	unsigned char buf[RDBUF];
	struct stat st;
	char msg[64];
	int rfd, wfd, len;
	long left;
	ssize_t n;

	if (unshare(CLONE_NEWIPC)) {
		/* The kernel's own limit, while it frees dead ones. */
		if (errno == ENOSPC)
			_exit(CHURN_BUSY);
		fprintf(stderr, PROG ": churn %ld: unshare: %s\n", id,
			strerror(errno));
		_exit(CHURN_ERR);
	}
	if (!stat("/proc/self/ns/ipc", &st))
		churn_inum[id] = st.st_ino;
	if (churn_control)
		_exit(CHURN_OK);
	rfd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (rfd < 0) {
		fprintf(stderr, PROG ": churn %ld: open %s: %s\n", id, path,
			strerror(errno));
		_exit(CHURN_ERR);
	}
	/* Before anything is written: nothing to measure, nothing to read. */
	left = ioctl(rfd, LOGGER_GET_LOG_LEN);
	n = read(rfd, buf, sizeof(buf));
	if (left || n >= 0 || errno != EAGAIN) {
		churn_report_old(id, buf, n);
		_exit(CHURN_OLD);
	}
	wfd = open(path, O_WRONLY | O_CLOEXEC);
	len = snprintf(msg, sizeof(msg), "churn %lx %ld", churn_nonce, id);
	if (wfd < 0 || write(wfd, msg, len) != len) {
		fprintf(stderr, PROG ": churn %ld: write: %s\n", id,
			strerror(errno));
		_exit(CHURN_ERR);
	}
	n = read(rfd, buf, sizeof(buf));
	if (n != (ssize_t)sizeof(struct logger_entry) + len ||
	    memcmp(buf + sizeof(struct logger_entry), msg, len) ||
	    read(rfd, buf, sizeof(buf)) >= 0 || errno != EAGAIN) {
		fprintf(stderr, PROG ": churn %ld: its own record did not read back alone\n",
			id);
		_exit(CHURN_BACK);
	}
	_exit(CHURN_OK);
}

/* Log sets besides the initial one, from /proc/nslogger/namespaces. */
static long proc_sets(void)
{
	char line[256];
	long lines = 0;
	FILE *f = fopen(PROC_NS, "re");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (line[0] != '#')
			lines++;
	fclose(f);
	/* Four lines per set, and the initial set. */
	return lines / 4 - 1;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* A worker: @cycles cycles; writes "ok fails maxsets" to @out. */
static void churn_worker(const char *path, long first, long cycles, int out,
			 int sample)
{
	long i, done = 0, fails = 0, waits = 0, max_sets = -1, sets;
	int status, len, busy = 0;
	char line[96];
	pid_t pid;

	for (i = 0; i < cycles; i++) {
		pid = fork();
		if (pid < 0) {
			fprintf(stderr, PROG ": fork: %s\n", strerror(errno));
			fails++;
			continue;
		}
		if (!pid)
			churn_child(path, first + i);
		if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status)) {
			fails++;
		} else if (WEXITSTATUS(status) == CHURN_BUSY) {
			/*
			 * The kernel has not freed enough dead IPC
			 * namespaces yet (max_ipc_namespaces): wait for it
			 * and do this cycle again, 20 s at most in a row.
			 */
			if (++busy > 1000) {
				fprintf(stderr, PROG ": churn: the kernel freed no IPC namespace in 20 s\n");
				fails++;
				break;
			}
			waits++;
			usleep(20000);
			i--;
			continue;
		} else if (WEXITSTATUS(status) != CHURN_OK) {
			fails++;
		} else {
			done++;
		}
		busy = 0;
		if (fails > 20) {
			fprintf(stderr, PROG ": churn: too many failures, stopping\n");
			break;
		}
		if (sample && i % 256 == 0) {
			sets = proc_sets();
			if (sets > max_sets)
				max_sets = sets;
		}
	}
	len = snprintf(line, sizeof(line), "%ld %ld %ld %ld\n", done, fails,
		       max_sets, waits);
	if (write(out, line, len) != len)
		_exit(1);
}

static int cmp_uint(const void *a, const void *b)
{
	unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;

	return x < y ? -1 : x > y;
}

/* Distinct namespace ids the cycles had (sorts churn_inum). */
static long churn_ids(long cycles)
{
	long i, ids = 0;

	qsort(churn_inum, cycles, sizeof(*churn_inum), cmp_uint);
	for (i = 0; i < cycles; i++)
		if (churn_inum[i] && (!i || churn_inum[i] != churn_inum[i - 1]))
			ids++;
	return ids;
}

/* Cycles whose namespace id an earlier cycle had had (after churn_ids()). */
static long churn_reused(long cycles)
{
	long i, n = 0;

	for (i = 1; i < cycles; i++)
		if (churn_inum[i] && churn_inum[i] == churn_inum[i - 1])
			n++;
	return n;
}

static int cmd_churn(int argc, char **argv)
{
	long cycles = 10000, done = 0, fails = 0, max_sets = -1, waits = 0, ids;
	int jobs = 1, c, j, p[2], status;
	char path[4096], line[256];
	double t0, t;
	FILE *in;

	while ((c = getopt(argc, argv, "+b:d:n:j:C")) != -1) {
		if (common_opt(c))
			continue;
		if (c == 'C')
			churn_control = 1;
		else if (c == 'n')
			cycles = strtol(optarg, NULL, 10);
		else if (c == 'j')
			jobs = atoi(optarg);
		else
			usage("churn: bad option");
	}
	if (cycles < 1 || jobs < 1 || jobs > 64)
		usage("churn: -n and -j want positive counts (-j at most 64)");
	node_path(path, sizeof(path), buf_name);
	if (pipe(p))
		fail("pipe: %s", strerror(errno));
	churn_inum = mmap(NULL, cycles * sizeof(*churn_inum),
			  PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
			  -1, 0);
	if (churn_inum == MAP_FAILED)
		fail("mmap: %s", strerror(errno));

	t0 = now_s();
	churn_nonce = (unsigned long)(t0 * 1e6) ^ (unsigned long)getpid() << 40;
	for (j = 0; j < jobs; j++) {
		long share = cycles / jobs + (j < cycles % jobs);
		long first = j * (cycles / jobs) + (j < cycles % jobs ? j :
						    cycles % jobs);
		pid_t pid = fork();

		if (pid < 0)
			fail("fork: %s", strerror(errno));
		if (!pid) {
			close(p[0]);
			churn_worker(path, first, share, p[1], j == 0);
			_exit(0);
		}
	}
	close(p[1]);
	in = fdopen(p[0], "r");
	while (fgets(line, sizeof(line), in)) {
		long d, f, m, w;

		if (sscanf(line, "%ld %ld %ld %ld", &d, &f, &m, &w) == 4) {
			done += d;
			fails += f;
			waits += w;
			if (m > max_sets)
				max_sets = m;
		}
	}
	fclose(in);
	while (wait(&status) > 0)
		;
	t = now_s() - t0;
	ids = churn_ids(cycles);	/* sorts: before churn_reused() */
	printf("churn: %ld cycles ok, %ld failed, %d jobs, %.2f s, %.0f cycles/s, %ld waits for the kernel to free IPC namespaces, ",
	       done, fails, jobs, t, done / t, waits);
	if (max_sets >= 0)
		printf("at most %ld log sets, ", max_sets);
	printf("%ld namespace ids, %ld cycles had one an earlier cycle had had\n",
	       ids, churn_reused(cycles));
	return fails || done != cycles;
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*fn)(int argc, char **argv);
	} cmds[] = {
		{ "write", cmd_write }, { "read", cmd_read },
		{ "collect", cmd_collect }, { "poll", cmd_poll },
		{ "len", cmd_len },
		{ "flush", cmd_flush }, { "open", cmd_open },
		{ "hold", cmd_hold }, { "proc", cmd_proc },
		{ "userns", cmd_userns }, { "as", cmd_as },
		{ "churn", cmd_churn },
		{ "eof", cmd_eof }, { "watch", cmd_watch },
	};
	size_t i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc < 2)
		usage("no command");
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(argv[1], cmds[i].name))
			return cmds[i].fn(argc - 1, argv + 1);
	usage("unknown command '%s'", argv[1]);
}
